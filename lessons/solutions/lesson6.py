"""Solutions to lesson 6's exercises (try them yourself first)."""


def top_rois_infer_shape(self, in_shape):
    k = self.top_k
    return in_shape, [(k, 5), (k,)], []


def exp_double_dependency(self, out_grad, in_data, out_data):
    return [out_grad[0], out_grad[1], out_data[0]]


def zero_backward(self, req, out_grad, in_data, out_data, in_grad, aux):
    for i in range(len(in_grad)):
        self.assign(in_grad[i], req[i], 0)
