"""Networks the tests build: deep chains and pre-activation ResNets (any depth)."""

import minisym as mx

RESNET_UNITS = {
    18: ([2, 2, 2, 2], False),
    34: ([3, 4, 6, 3], False),
    50: ([3, 4, 6, 3], True),
    101: ([3, 4, 23, 3], True),
    152: ([3, 8, 36, 3], True),
}


def chain(length, start="x"):
    """``length`` operators in a row, alternating ``+ 1`` and relu."""
    x = mx.sym.Variable(start)
    for i in range(length):
        x = mx.sym.Activation(x, act_type="relu") if i % 2 else x + 1
    return x


def _unit(data, filters, stride, match, name, bottleneck):
    """One pre-activation residual unit (BN-ReLU-Conv), with a projection when shapes change."""

    def bn_relu(x, tag):
        x = mx.sym.BatchNorm(x, fix_gamma=False, eps=2e-5, name=f"{name}_bn{tag}")
        return mx.sym.Activation(x, act_type="relu", name=f"{name}_relu{tag}")

    act1 = bn_relu(data, 1)
    if bottleneck:
        x = mx.sym.Convolution(
            act1, num_filter=filters // 4, kernel=(1, 1), no_bias=True, name=f"{name}_conv1"
        )
        x = mx.sym.Convolution(
            bn_relu(x, 2),
            num_filter=filters // 4,
            kernel=(3, 3),
            stride=stride,
            pad=(1, 1),
            no_bias=True,
            name=f"{name}_conv2",
        )
        x = mx.sym.Convolution(
            bn_relu(x, 3), num_filter=filters, kernel=(1, 1), no_bias=True, name=f"{name}_conv3"
        )
    else:
        x = mx.sym.Convolution(
            act1,
            num_filter=filters,
            kernel=(3, 3),
            stride=stride,
            pad=(1, 1),
            no_bias=True,
            name=f"{name}_conv1",
        )
        x = mx.sym.Convolution(
            bn_relu(x, 2),
            num_filter=filters,
            kernel=(3, 3),
            pad=(1, 1),
            no_bias=True,
            name=f"{name}_conv2",
        )
    shortcut = (
        data
        if match
        else mx.sym.Convolution(
            act1, num_filter=filters, kernel=(1, 1), stride=stride, no_bias=True, name=f"{name}_sc"
        )
    )
    return x + shortcut


def resnet(depth=18, num_classes=10, small_input=False):
    """A pre-activation ResNet symbol of ``depth`` 18/34/50/101/152 ending in SoftmaxOutput."""
    units, bottleneck = RESNET_UNITS[depth]
    filters = [64, 256, 512, 1024, 2048] if bottleneck else [64, 64, 128, 256, 512]
    data = mx.sym.Variable("data")
    body = mx.sym.BatchNorm(data, fix_gamma=True, eps=2e-5, name="bn_data")
    if small_input:
        body = mx.sym.Convolution(
            body, num_filter=filters[0], kernel=(3, 3), pad=(1, 1), no_bias=True, name="conv0"
        )
    else:
        body = mx.sym.Convolution(
            body,
            num_filter=filters[0],
            kernel=(7, 7),
            stride=(2, 2),
            pad=(3, 3),
            no_bias=True,
            name="conv0",
        )
        body = mx.sym.BatchNorm(body, fix_gamma=False, eps=2e-5, name="bn0")
        body = mx.sym.Activation(body, act_type="relu", name="relu0")
        body = mx.sym.Pooling(body, kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type="max")
    for stage, count in enumerate(units):
        stride = (1, 1) if stage == 0 else (2, 2)
        for unit in range(count):
            body = _unit(
                body,
                filters[stage + 1],
                stride if unit == 0 else (1, 1),
                unit > 0,
                f"stage{stage + 1}_unit{unit + 1}",
                bottleneck,
            )
    body = mx.sym.BatchNorm(body, fix_gamma=False, eps=2e-5, name="bn1")
    body = mx.sym.Activation(body, act_type="relu", name="relu1")
    body = mx.sym.Pooling(body, global_pool=True, kernel=(7, 7), pool_type="avg", name="pool1")
    body = mx.sym.FullyConnected(mx.sym.Flatten(body), num_hidden=num_classes, name="fc1")
    return mx.sym.SoftmaxOutput(body, name="softmax")
