"""Solutions to lesson 1's exercises (try them yourself first)."""
import minisym as mx


def build_mlp():
    data = mx.sym.Variable('data')
    hidden = mx.sym.FullyConnected(data, num_hidden=64, name='hidden')
    relu = mx.sym.Activation(hidden, act_type='relu')
    out = mx.sym.FullyConnected(relu, num_hidden=10, name='out')
    return mx.sym.SoftmaxOutput(out, name='softmax')


def hidden_and_output(net):
    return mx.sym.Group([net.get_internals()['relu1_output'], net])
