"""plot_network and print_summary with a Custom operator: the node is labelled with its op_type."""
from _common import parse_dot, summary_text


def register_scale(mx):
    class Scale(mx.operator.CustomOp):
        def forward(self, is_train, req, in_data, out_data, aux):
            self.assign(out_data[0], req[0], in_data[0] * 2)

        def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
            self.assign(in_grad[0], req[0], out_grad[0] * 2)

    @mx.operator.register("viz_scale")
    class ScaleProp(mx.operator.CustomOpProp):
        def __init__(self):
            super().__init__(need_top_grad=True)

        def infer_shape(self, in_shape):
            return in_shape, [in_shape[0]], []

        def create_operator(self, ctx, shapes, dtypes):
            return Scale()


def run(mx):
    register_scale(mx)
    data = mx.sym.Variable("data")
    net = mx.sym.FullyConnected(data, num_hidden=4, name="fc")
    net = mx.sym.Custom(net, op_type="viz_scale", name="scaled")
    net = mx.sym.FullyConnected(net, num_hidden=2, name="out")
    dot = mx.viz.plot_network(net, shape={"data": (3, 5)})
    return {"graph": parse_dot(dot.source),
            "summary": summary_text(mx, net, shape={"data": (3, 5)})}
