"""Networks shared by the differential programs (imported as ``from _nets import resnet``)."""
import numpy as np

BN_MOM = 0.9
BN_EPS = 2e-5


def _bn_relu(mx, data, name, i):
    """BatchNorm ``name_bn<i>`` (fix_gamma=False) followed by ReLU ``name_relu<i>``."""
    bn = mx.sym.BatchNorm(data, fix_gamma=False, eps=BN_EPS, momentum=BN_MOM,
                          name="%s_bn%d" % (name, i))
    return mx.sym.Activation(bn, act_type="relu", name="%s_relu%d" % (name, i))


def _conv(mx, data, num_filter, kernel, stride, pad, name):
    """A convolution without bias."""
    return mx.sym.Convolution(data, num_filter=num_filter, kernel=kernel, stride=stride, pad=pad,
                              no_bias=True, name=name)


def residual_unit(mx, data, num_filter, stride, dim_match, name, bottle_neck):
    """A pre-activation residual unit, as in MXNet's example symbol (basic or bottleneck)."""
    act1 = _bn_relu(mx, data, name, 1)
    if bottle_neck:
        inner = num_filter // 4
        body = _conv(mx, act1, inner, (1, 1), (1, 1), (0, 0), name + "_conv1")
        body = _conv(mx, _bn_relu(mx, body, name, 2), inner, (3, 3), stride, (1, 1),
                     name + "_conv2")
        body = _conv(mx, _bn_relu(mx, body, name, 3), num_filter, (1, 1), (1, 1), (0, 0),
                     name + "_conv3")
    else:
        body = _conv(mx, act1, num_filter, (3, 3), stride, (1, 1), name + "_conv1")
        body = _conv(mx, _bn_relu(mx, body, name, 2), num_filter, (3, 3), (1, 1), (1, 1),
                     name + "_conv2")
    if dim_match:
        shortcut = data
    else:
        shortcut = mx.sym.Convolution(act1, num_filter=num_filter, kernel=(1, 1), stride=stride,
                                      no_bias=True, name=name + "_sc")
    return body + shortcut


def resnet(mx, units, filter_list, num_classes, bottle_neck):
    """A small pre-activation ResNet: one stage per entry of ``units``, then softmax."""
    data = mx.sym.Variable("data")
    body = mx.sym.BatchNorm(data, fix_gamma=True, eps=BN_EPS, momentum=BN_MOM, name="bn_data")
    body = mx.sym.Convolution(body, num_filter=filter_list[0], kernel=(3, 3), stride=(1, 1),
                              pad=(1, 1), no_bias=True, name="conv0")
    for i, n in enumerate(units):
        stride = (1, 1) if i == 0 else (2, 2)
        body = residual_unit(mx, body, filter_list[i + 1], stride, False,
                             "stage%d_unit1" % (i + 1), bottle_neck)
        for j in range(n - 1):
            body = residual_unit(mx, body, filter_list[i + 1], (1, 1), True,
                                 "stage%d_unit%d" % (i + 1, j + 2), bottle_neck)
    bn1 = mx.sym.BatchNorm(body, fix_gamma=False, eps=BN_EPS, momentum=BN_MOM, name="bn1")
    relu1 = mx.sym.Activation(bn1, act_type="relu", name="relu1")
    pool1 = mx.sym.Pooling(relu1, global_pool=True, kernel=(7, 7), pool_type="avg", name="pool1")
    flat = mx.sym.Flatten(pool1)
    fc1 = mx.sym.FullyConnected(flat, num_hidden=num_classes, name="fc1")
    return mx.sym.SoftmaxOutput(fc1, name="softmax")


def _fill_resnet(net, ex, rs):
    """Seeded values for every argument and auxiliary state (labels 0 and 2)."""
    for name in net.list_arguments():
        arr = ex.arg_dict[name]
        if name == "data":
            value = rs.randn(*arr.shape)
        elif name == "softmax_label":
            value = np.array([0, 2])
        elif name.endswith("_gamma"):
            value = rs.uniform(0.8, 1.2, size=arr.shape)
        elif name == "fc1_weight":
            value = rs.randn(*arr.shape) * 0.5
        else:  # convolution weights, biases, betas
            value = rs.randn(*arr.shape) * 0.1
        arr[:] = np.asarray(value, dtype=np.float32)
    for name in net.list_auxiliary_states():
        arr = ex.aux_dict[name]
        if name.endswith("_moving_mean"):
            value = rs.randn(*arr.shape) * 0.1
        else:
            value = rs.uniform(0.5, 1.5, size=arr.shape)
        arr[:] = np.asarray(value, dtype=np.float32)


def resnet_steps(mx, net, rs, watched_aux, watched_grads):
    """A test forward, then a train forward and backward of ``net`` on (2,3,8,8) seeded data."""
    ex = net.simple_bind(ctx=mx.cpu(), data=(2, 3, 8, 8))
    _fill_resnet(net, ex, rs)
    out_test = ex.forward(is_train=False)[0].asnumpy()
    mx.nd.waitall()
    aux_after_test = {k: ex.aux_dict[k].asnumpy() for k in watched_aux}
    out_train = ex.forward(is_train=True)[0].asnumpy()
    ex.backward()
    mx.nd.waitall()
    res = {
        "num_arguments": len(net.list_arguments()),
        "num_aux": len(net.list_auxiliary_states()),
        "out_test": out_test,
        "out_train": out_train,
        "bn_data_gamma_after_forward": ex.arg_dict["bn_data_gamma"].asnumpy(),
        "aux_after_test_forward": aux_after_test,
        "aux_after_train_step": {k: ex.aux_dict[k].asnumpy() for k in watched_aux},
    }
    for name in watched_grads:
        res["grad_" + name] = ex.grad_dict[name].asnumpy()
    return res
