"""Solutions to lesson 7's exercises (try them yourself first)."""
import numpy as np

import minisym as mx


def bottleneck_unit(data, num_filter, stride, dim_match, name):
    def bn_relu(x, i):
        x = mx.sym.BatchNorm(x, fix_gamma=False, eps=2e-5, name=f'{name}_bn{i}')
        return mx.sym.Activation(x, act_type='relu', name=f'{name}_relu{i}')

    act1 = bn_relu(data, 1)
    conv1 = mx.sym.Convolution(act1, num_filter=num_filter // 4, kernel=(1, 1), no_bias=True,
                               name=name + '_conv1')
    conv2 = mx.sym.Convolution(bn_relu(conv1, 2), num_filter=num_filter // 4, kernel=(3, 3),
                               stride=stride, pad=(1, 1), no_bias=True, name=name + '_conv2')
    conv3 = mx.sym.Convolution(bn_relu(conv2, 3), num_filter=num_filter, kernel=(1, 1),
                               no_bias=True, name=name + '_conv3')
    if dim_match:
        shortcut = data
    else:
        shortcut = mx.sym.Convolution(act1, num_filter=num_filter, kernel=(1, 1),
                                      stride=stride, no_bias=True, name=name + '_sc')
    return mx.sym.elemwise_add(conv3, shortcut, name=name + '_plus')


def count_parameters(symbol, **shapes):
    arg_shapes, _, _ = symbol.infer_shape(**shapes)
    return sum(int(np.prod(shape)) for name, shape in zip(symbol.list_arguments(), arg_shapes)
               if name not in shapes and not name.endswith('label'))


def input_gradient(module, batch, node):
    monitor = mx.mon.Monitor(1, stat_func=lambda g: g.copy(),
                             pattern=node + '_backward_output0')
    module.install_monitor(monitor)
    monitor.tic()
    module.forward(batch, is_train=True)
    module.backward()
    gradient = [array for _, name, array in monitor.queue
                if name == node + '_backward_output0'][0]
    monitor.toc()
    return gradient.asnumpy()
