"""What is_train changes: Dropout passes data through when is_train=False (mask all ones) and
drops when True; BatchNorm normalizes with moving_mean / moving_var when is_train=False (and
backward leaves them), with the batch statistics when True (and backward updates them).
QUIRK: in MXNet 1.9.1 reading the moving stats with asnumpy() right after backward sometimes
shows them before the update; mx.nd.waitall() first makes it deterministic."""
import numpy as np


def run(mx):
    data = mx.sym.Variable("data")
    drop = mx.sym.Dropout(data, p=0.5, name="drop")
    ex = drop.simple_bind(mx.cpu(), data=(4, 50))
    ex.arg_dict["data"][:] = np.arange(200.0).reshape(4, 50) + 1
    test_out = ex.forward(is_train=False)[0].asnumpy()
    train_out = ex.forward(is_train=True)[0].asnumpy()
    kept = train_out != 0
    bn = mx.sym.BatchNorm(data, fix_gamma=False, name="bn")
    bex = bn.simple_bind(mx.cpu(), data=(4, 2))
    bex.arg_dict["data"][:] = np.arange(8.0).reshape(4, 2)
    bex.arg_dict["bn_gamma"][:] = 1
    result = {"dropout_test_is_identity": bool((test_out == ex.arg_dict["data"].asnumpy()).all()),
              "dropout_train_scales_kept_by_2": bool(np.allclose(
                  train_out[kept], 2 * ex.arg_dict["data"].asnumpy()[kept])),
              "dropout_train_drops_some": bool(0 < kept.sum() < kept.size)}
    for is_train in (False, True):
        bex.aux_dict["bn_moving_mean"][:] = np.array([1.0, 2.0])
        bex.aux_dict["bn_moving_var"][:] = np.array([4.0, 9.0])
        out = bex.forward(is_train=is_train)[0].asnumpy()
        after_forward = [bex.aux_dict[n].asnumpy() for n in ("bn_moving_mean", "bn_moving_var")]
        bex.backward(mx.nd.ones((4, 2)))
        mx.nd.waitall()  # MXNet 1.9.1: asnumpy() alone may read the moving stats too early
        result[f"batchnorm_is_train_{is_train}"] = {
            "output": out, "moving_stats_after_forward": after_forward,
            "moving_mean_after_backward": bex.aux_dict["bn_moving_mean"].asnumpy(),
            "moving_var_after_backward": bex.aux_dict["bn_moving_var"].asnumpy()}
    return result
