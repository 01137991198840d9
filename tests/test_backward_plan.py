"""The one backward plan (minisym/graph/backward_plan.py): which nodes run backward, where each
gradient goes, how parts are summed, read by the executor, autograd and the memory check."""

import numpy as np

import minisym as mx
from minisym.executor_memory import executor_needs
from minisym.graph.backward_plan import DIRECT, TEMPORARY, UNUSED, BackwardPlan, sum_parts


def _net():
    x, w = mx.sym.Variable("x"), mx.sym.Variable("w")
    frozen = mx.sym.Variable("frozen")
    shared = x * w + x  # x is read twice, w once
    hidden = mx.sym.BlockGrad(frozen * 3)  # frozen feeds only a BlockGrad
    return mx.sym.make_loss(mx.sym.sum(shared + hidden)), (x, w, frozen)


def _plan(sym, reqs):
    nodes = {n.name: n for n in sym.topo_order()}
    wanted = {id(nodes[k]): r for k, r in reqs.items() if r != "null"}
    return BackwardPlan(sym.topo_order(), sym.outputs, wanted), nodes


def test_routes_follow_how_often_a_variable_is_read_and_its_grad_req():
    sym, _ = _net()
    plan, nodes = _plan(sym, {"x": "write", "w": "add", "frozen": "write"})
    assert plan.route(nodes["x"], 0) == TEMPORARY  # two readers: parts summed
    assert plan.route(nodes["w"], 0) == DIRECT  # one reader: straight in, with 'add'
    assert [n.name for n in plan.zero_gradient] == ["frozen"]  # behind BlockGrad only
    behind = next(n for n in sym.topo_order() if n.inputs and n.inputs[0][0] is nodes["frozen"])
    assert id(behind) not in plan.runs  # frozen * 3: only a BlockGrad reads it
    assert plan.reads(nodes["x"], 0) == 2


def test_a_null_variable_is_unused_and_what_reads_only_it_does_not_run():
    sym, _ = _net()
    plan, nodes = _plan(sym, {"x": "null", "w": "null", "frozen": "write"})
    assert plan.route(nodes["x"], 0) == UNUSED
    ran = {n.op_name for n in sym.topo_order() if id(n) in plan.runs}
    assert ran == {"BlockGrad", "elemwise_add", "sum", "make_loss"}  # not x * w nor frozen * 3


def test_the_executor_and_the_memory_check_use_the_same_plan():
    sym, _ = _net()
    ex = sym.simple_bind(mx.cpu(), x=(2,), w=(2,), frozen=(2,))
    plan, nodes = _plan(sym, dict(zip(sym.list_arguments(), ex.grad_req)))
    assert ex.backward_plan.runs == {id(n) for n in sym.topo_order() if id(n) in plan.runs}
    assert ex.backward_plan.zero_gradient == plan.zero_gradient
    shapes = {
        (id(n), j): ex._data[(id(n), j)].shape
        for n in sym.topo_order()
        for j in range(n.num_outputs)
    }
    dtypes = {k: np.float32 for k in shapes}
    with_grad = executor_needs(sym, shapes, dtypes, ex.grad_req)
    without = executor_needs(sym, shapes, dtypes, ["null"] * 3)
    assert dict((w, b) for w, b, _ in with_grad)["gradients"] > 0
    assert (
        "gradients" not in dict((w, b) for w, b, _ in without)
        or dict((w, b) for w, b, _ in without)["gradients"] == 0
    )


def test_executor_and_autograd_give_the_same_gradients_through_the_plan():
    sym, _ = _net()
    values = {"x": np.array([1.0, 2.0]), "w": np.array([3.0, 4.0]), "frozen": np.array([5.0, 6.0])}
    ex = sym.simple_bind(mx.cpu(), **{k: v.shape for k, v in values.items()})
    ex.grad_dict["frozen"][:] = 9  # 'write': behind a BlockGrad it becomes 0
    ex.forward(is_train=True, **values)
    ex.backward()
    arrays = {k: mx.nd.array(v) for k, v in values.items()}
    for a in arrays.values():
        a.attach_grad()
    arrays["frozen"].grad[:] = 9
    with mx.autograd.record():
        x, w, frozen = arrays["x"], arrays["w"], arrays["frozen"]
        loss = mx.nd.sum(x * w + x + mx.nd.BlockGrad(frozen * 3))
    loss.backward()
    for name, array in arrays.items():
        np.testing.assert_allclose(array.grad.asnumpy(), ex.grad_dict[name].asnumpy())
    np.testing.assert_allclose(arrays["x"].grad.asnumpy(), values["w"] + 1)
    np.testing.assert_allclose(arrays["frozen"].grad.asnumpy(), 0)


def test_sum_parts_adds_in_order_and_leaves_the_first_part_alone():
    first = np.array([1.0, 2.0])
    total = sum_parts([first, np.array([3.0, 4.0]), np.array([5.0, 6.0])])
    assert total.tolist() == [9.0, 12.0] and first.tolist() == [1.0, 2.0]
    assert sum_parts([first]) is first
