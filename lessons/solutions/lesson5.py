"""Solutions to lesson 5's exercises (try them yourself first)."""
import numpy as np

import minisym as mx


def center_loss_init(self, num_class, alpha):
    mx.operator.CustomOpProp.__init__(self, need_top_grad=False)  # super().__init__ in a class
    self.num_class = int(num_class)
    self.alpha = float(alpha)


def center_loss_infer_shape(self, in_shape):
    batch, features = in_shape[0]
    return [in_shape[0], (batch,)], [(1,)], [(self.num_class, features)]


def center_loss_backward(self, req, out_grad, in_data, out_data, in_grad, aux):
    x = in_data[0].asnumpy()
    labels = in_data[1].asnumpy().astype(int)
    center = aux[0].asnumpy()
    diff = x - center[labels]
    self.assign(in_grad[0], req[0], mx.nd.array(diff / len(x)))
    self.assign(in_grad[1], req[1], 0)
    for c in np.unique(labels):
        mine = labels == c
        center[c] += self.alpha * diff[mine].sum(axis=0) / (1 + mine.sum())
    aux[0][:] = center
