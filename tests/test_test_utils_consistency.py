"""mx.test_utils.check_consistency and the MNIST helpers (checked against MXNet in p853, p854)."""

import numpy as np
import pytest

import minisym as mx


def test_check_consistency_docstring_concat_returns_the_float64_run():
    sym = mx.sym.Concat(name="concat", num_args=2)
    ctx_list = [
        {
            "ctx": mx.cpu(0),
            "concat_arg1": (2, 10),
            "concat_arg0": (2, 10),
            "type_dict": {"concat_arg0": t, "concat_arg1": t},
        }
        for t in (np.float64, np.float32, np.float16)
    ]
    gt = mx.test_utils.check_consistency(sym, ctx_list)
    assert sorted(gt) == ["concat_arg0", "concat_arg1", "concat_output"]
    assert gt["concat_output"].dtype == np.float64


def test_check_consistency_uses_the_given_params_and_checks_gradients():
    fc = mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=3, name="fc")
    ctx_list = [
        dict(ctx=mx.cpu(0), data=(4, 5), type_dict={"data": t}) for t in (np.float32, np.float64)
    ]
    params = {"data": np.ones((4, 5)), "fc_weight": np.full((3, 5), 0.5), "fc_bias": np.arange(3.0)}
    gt = mx.test_utils.check_consistency(fc, ctx_list, arg_params=params)
    assert gt["fc_output"].asnumpy()[0].tolist() == [2.5, 3.5, 4.5]
    # the head gradient is the forward output: d data = out @ W
    assert np.allclose(gt["data"].asnumpy(), gt["fc_output"].asnumpy() @ params["fc_weight"])


def test_check_consistency_reports_a_mismatch(capsys):
    fc = mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=3, name="fc")
    ctx_list = [dict(ctx=mx.cpu(0), data=(4, 5)), dict(ctx=mx.cpu(0), data=(4, 5))]
    truth = {"fc_output": mx.nd.full((4, 3), 100.0)}
    with pytest.raises(AssertionError):
        mx.test_utils.check_consistency(fc, ctx_list, grad_req="null", ground_truth=truth)
    assert "Predict Err: ctx 1 vs ctx 0 at fc_output" in capsys.readouterr().out
    with pytest.raises(AssertionError, match="at least two"):
        mx.test_utils.check_consistency(fc, ctx_list[:1])


def test_mnist_helpers_say_which_files_go_where(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(OSError, match="does not download") as info:
        mx.test_utils.get_mnist()
    assert "train-images-idx3-ubyte.gz" in str(info.value) and str(tmp_path) in str(info.value)
    with pytest.raises(OSError, match="data/train-labels-idx1-ubyte") as info:
        mx.test_utils.get_mnist_iterator(32, (784,))
    assert "mnist.zip" in str(info.value)
