"""mx.viz.plot_network of a conv net: nodes, labels, colours, attributes, edges and edge labels
(parsed from the Digraph's DOT source, so the graphviz package version does not matter)."""
import re

TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|->|[\[\]{}=;]|[^\s\[\]{}=;"]+')


def unquote(token):
    if token.startswith('"'):
        return re.sub(r'\\(.)', r'\1', token[1:-1])
    return token


def parse_dot(source):
    """{'kind', 'name', 'nodes': [[name, attrs]], 'edges': [[tail, head, attrs]]} of DOT text."""
    tokens = TOKEN.findall(source)
    graph = {"kind": tokens[0], "name": unquote(tokens[1]), "nodes": [], "edges": []}
    pos = tokens.index("{") + 1
    while tokens[pos] != "}":
        if tokens[pos] == ";":
            pos += 1
            continue
        first = unquote(tokens[pos])
        pos += 1
        second = None
        if tokens[pos] == "->":
            second = unquote(tokens[pos + 1])
            pos += 2
        attrs = {}
        if tokens[pos] == "[":
            pos += 1
            while tokens[pos] != "]":
                key, value = unquote(tokens[pos]), unquote(tokens[pos + 2])
                attrs[key] = value
                pos += 3
            pos += 1
        if second is None:
            graph["nodes"].append([first, attrs])
        else:
            graph["edges"].append([first, second, attrs])
    return graph


def convnet(mx):
    data = mx.sym.Variable("data")
    net = mx.sym.Convolution(data, kernel=(3, 3), num_filter=8, pad=(1, 1), name="conv1")
    net = mx.sym.BatchNorm(net, fix_gamma=False, name="bn1")
    net = mx.sym.Activation(net, act_type="relu", name="relu1")
    net = mx.sym.Pooling(net, kernel=(2, 2), stride=(2, 2), pool_type="max", name="pool1")
    net = mx.sym.Convolution(net, kernel=(3, 3), stride=(2, 2), num_filter=16, name="conv2")
    net = mx.sym.LeakyReLU(net, slope=0.1, name="leaky")
    net = mx.sym.Pooling(net, global_pool=True, pool_type="avg", name="gpool")
    net = mx.sym.Flatten(net, name="flat")
    net = mx.sym.FullyConnected(net, num_hidden=10, name="fc")
    return mx.sym.SoftmaxOutput(net, name="softmax")


def describe(dot):
    return {"graph": parse_dot(dot.source), "name": dot.name, "format": dot.format,
            "body_lines": len(dot.body), "type": type(dot).__name__}


def run(mx):
    net = convnet(mx)
    return {
        "plain": describe(mx.viz.plot_network(net)),
        "with_shape": describe(mx.viz.plot_network(net, shape={"data": (2, 3, 16, 16)})),
    }
