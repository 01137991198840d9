"""Every name a learner meets in MXNet 1.9.1's own tests, docstrings and tutorials (as the issue
on MXNet's surface lists them) exists under ``mx.``; what each does is in the differential
programs p820-p859."""

import pytest

import minisym as mx

NAMES = """
np_shape is_np_shape set_np_shape use_np_shape util.np_shape util.is_np_shape util.set_np_shape
test_utils.assert_exception test_utils.DummyIter test_utils.random_sample
test_utils.assert_almost_equal_ignore_nan test_utils.check_consistency test_utils.discard_stderr
test_utils.compare_ndarray_tuple test_utils.get_mnist_iterator test_utils.get_mnist
test_utils.get_mnist_ubyte test_utils.use_np
sym.hypot sym.reciprocal sym.ceil sym.floor sym.arccos sym.arcsin sym.arctan sym.arcsinh
sym.arccosh sym.arctanh sym.broadcast_like sym.slice_like sym.split_v2 sym.batch_take
sym.eye sym.linspace
nd.reciprocal nd.ceil nd.floor nd.arccos nd.arcsin nd.arctan nd.arcsinh nd.arccosh
nd.arctanh nd.broadcast_like nd.slice_like nd.split_v2 nd.batch_take nd.eye nd.linspace
nd.moveaxis nd.NDArray.tostype nd.to_dlpack_for_read nd.to_dlpack_for_write nd.from_dlpack
nd.NDArray.to_dlpack_for_read nd.NDArray.to_dlpack_for_write
nd._internal._slice_assign nd._internal._slice_assign_scalar
symbol._internal._slice_assign symbol._internal._slice_assign_scalar
symbol._internal._identity_with_attr_like_rhs base.py_str base._as_list base.mx_real_t
io.ResizeIter io.PrefetchingIter io.MNISTIter symbol_doc.SymbolDoc.get_output_shape
random.uniform random.normal module.executor_group.DataParallelExecutorGroup
""".split()


@pytest.mark.parametrize("dotted", NAMES)
def test_name_exists_under_mx(dotted):
    target = mx
    for part in dotted.split("."):
        assert hasattr(target, part), f"mx.{dotted}: {part!r} is missing"
        target = getattr(target, part)


def test_a_bound_module_has_mxnets_private_attributes_that_tests_read():
    data = mx.sym.Variable("data")
    net = mx.sym.SoftmaxOutput(mx.sym.FullyConnected(data, num_hidden=2, name="fc"), name="softmax")
    mod = mx.mod.Module(net)
    mod.bind(data_shapes=[("data", (4, 3))], label_shapes=[("softmax_label", (4,))])
    mod.init_params()
    mod.init_optimizer()
    assert mod._exec_group.param_names == ["fc_weight", "fc_bias"]
    assert hasattr(mod, "_kvstore")
