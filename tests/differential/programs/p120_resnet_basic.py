"""A tiny pre-activation ResNet with basic units (two 3x3 convolutions per unit), built here in
the style of MXNet's example symbol: data (2,3,8,8), filters 4/8/16, 2 stages of 2 units,
3 classes.  Forward in test mode, then forward in train mode and backward; records the
probabilities, the gradients of data and of four weights, bn_data's gamma after forward
(fix_gamma), and moving_mean / moving_var of two BatchNorms after the train step."""
import numpy as np

TOLERANCE = dict(rtol=2e-3, atol=2e-4)

BN_MOM = 0.9
BN_EPS = 2e-5


def residual_unit(mx, data, num_filter, stride, dim_match, name):
    bn1 = mx.sym.BatchNorm(data, fix_gamma=False, eps=BN_EPS, momentum=BN_MOM, name=name + "_bn1")
    act1 = mx.sym.Activation(bn1, act_type="relu", name=name + "_relu1")
    conv1 = mx.sym.Convolution(act1, num_filter=num_filter, kernel=(3, 3), stride=stride,
                               pad=(1, 1), no_bias=True, name=name + "_conv1")
    bn2 = mx.sym.BatchNorm(conv1, fix_gamma=False, eps=BN_EPS, momentum=BN_MOM,
                           name=name + "_bn2")
    act2 = mx.sym.Activation(bn2, act_type="relu", name=name + "_relu2")
    conv2 = mx.sym.Convolution(act2, num_filter=num_filter, kernel=(3, 3), stride=(1, 1),
                               pad=(1, 1), no_bias=True, name=name + "_conv2")
    if dim_match:
        shortcut = data
    else:
        shortcut = mx.sym.Convolution(act1, num_filter=num_filter, kernel=(1, 1), stride=stride,
                                      no_bias=True, name=name + "_sc")
    return conv2 + shortcut


def resnet(mx, units, filter_list, num_classes):
    data = mx.sym.Variable("data")
    body = mx.sym.BatchNorm(data, fix_gamma=True, eps=BN_EPS, momentum=BN_MOM, name="bn_data")
    body = mx.sym.Convolution(body, num_filter=filter_list[0], kernel=(3, 3), stride=(1, 1),
                              pad=(1, 1), no_bias=True, name="conv0")
    for i, n in enumerate(units):
        stride = (1, 1) if i == 0 else (2, 2)
        body = residual_unit(mx, body, filter_list[i + 1], stride, False,
                             "stage%d_unit1" % (i + 1))
        for j in range(n - 1):
            body = residual_unit(mx, body, filter_list[i + 1], (1, 1), True,
                                 "stage%d_unit%d" % (i + 1, j + 2))
    bn1 = mx.sym.BatchNorm(body, fix_gamma=False, eps=BN_EPS, momentum=BN_MOM, name="bn1")
    relu1 = mx.sym.Activation(bn1, act_type="relu", name="relu1")
    pool1 = mx.sym.Pooling(relu1, global_pool=True, kernel=(7, 7), pool_type="avg", name="pool1")
    flat = mx.sym.Flatten(pool1)
    fc1 = mx.sym.FullyConnected(flat, num_hidden=num_classes, name="fc1")
    return mx.sym.SoftmaxOutput(fc1, name="softmax")


def run(mx):
    rs = np.random.RandomState(120)
    net = resnet(mx, units=[2, 2], filter_list=[4, 8, 16], num_classes=3)
    ex = net.simple_bind(ctx=mx.cpu(), data=(2, 3, 8, 8))
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

    watched_aux = ["stage1_unit1_bn2_moving_mean", "stage1_unit1_bn2_moving_var",
                   "bn1_moving_mean", "bn1_moving_var"]
    out_test = ex.forward(is_train=False)[0].asnumpy()
    mx.nd.waitall()
    aux_after_test = {k: ex.aux_dict[k].asnumpy() for k in watched_aux}
    out_train = ex.forward(is_train=True)[0].asnumpy()
    ex.backward()
    mx.nd.waitall()
    return {
        "num_arguments": len(net.list_arguments()),
        "num_aux": len(net.list_auxiliary_states()),
        "out_test": out_test,
        "out_train": out_train,
        "bn_data_gamma_after_forward": ex.arg_dict["bn_data_gamma"].asnumpy(),
        "aux_after_test_forward": aux_after_test,
        "aux_after_train_step": {k: ex.aux_dict[k].asnumpy() for k in watched_aux},
        "grad_data": ex.grad_dict["data"].asnumpy(),
        "grad_conv0_weight": ex.grad_dict["conv0_weight"].asnumpy(),
        "grad_stage2_unit1_sc_weight": ex.grad_dict["stage2_unit1_sc_weight"].asnumpy(),
        "grad_stage2_unit2_conv2_weight": ex.grad_dict["stage2_unit2_conv2_weight"].asnumpy(),
        "grad_fc1_weight": ex.grad_dict["fc1_weight"].asnumpy(),
        "grad_fc1_bias": ex.grad_dict["fc1_bias"].asnumpy(),
        "grad_bn1_gamma": ex.grad_dict["bn1_gamma"].asnumpy(),
    }
