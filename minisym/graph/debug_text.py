"""``Symbol.debug_str()`` in MXNet's (nnvm's) form: the heads, then each node in DFS order."""

_RULE = "-" * 20


def debug_text(outputs, order):
    """The listing of a graph with head entries ``outputs`` [(node, index)] and nodes ``order``
    (DFS post-order): one ``Variable:`` line per variable, a block per operator."""
    if len(outputs) == 1 and not outputs[0][0].inputs:
        node = outputs[0][0]
        return (
            f"Variable:{node.name}\n" if node.is_variable else f"AtomicFunctor  Op:{node.op_name}\n"
        )
    lines = ["Symbol Outputs:"]
    lines += [f"\toutput[{i}]={node.name}({index})" for i, (node, index) in enumerate(outputs)]
    versions = {}
    for node in order:
        if node.is_variable:
            lines.append(f"Variable:{node.name}")
        else:
            lines += _operator_block(node, versions)
    return "\n".join(lines) + "\n"


def _operator_block(node, versions):
    """One operator's lines; a variable input shows its version, which grows by one at each
    operator that mutates it (an auxiliary state) and is read as it stands by the others."""
    lines = [_RULE, f"Op:{node.op_name}, Name={node.name}", "Inputs:"]
    first_aux = len(node.arg_inputs)
    for position, (src, index) in enumerate(node.inputs):
        entry = f"\targ[{position}]={src.name}({index})"
        if src.is_variable:
            if position >= first_aux:
                versions[id(src)] = versions.get(id(src), 0) + 1
            entry += f" version={versions.get(id(src), 0)}"
        lines.append(entry)
    if node.attrs:
        lines.append("Attrs:")
        lines += [f"\t{key}={value}" for key, value in sorted(node.attrs.items())]
    return lines
