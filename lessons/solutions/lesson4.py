"""Solutions to lesson 4's exercises (try them yourself first)."""
import numpy as np

import minisym as mx


def square_backward(self, req, out_grad, in_data, out_data, in_grad, aux):
    x = in_data[0].asnumpy()
    self.assign(in_grad[0], req[0], out_grad[0] * mx.nd.array(6 * x))


def softmax_backward(self, req, out_grad, in_data, out_data, in_grad, aux):
    labels = in_data[1].asnumpy().astype(int)
    grad = out_data[0].asnumpy().copy()
    grad[np.arange(len(labels)), labels] -= 1.0
    self.assign(in_grad[0], req[0], mx.nd.array(grad))
    self.assign(in_grad[1], req[1], 0)
