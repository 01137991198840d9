"""Embedding numerics: forward lookup and the weight gradient, where repeated ids accumulate
their head gradients into the same row (ids that never occur get zero rows)."""
import numpy as np

from _common import bind_inputs, f32


def embed(mx, rs, ids, input_dim, output_dim):
    sym = mx.sym.Embedding(mx.sym.Variable("data"), mx.sym.Variable("weight"),
                           input_dim=input_dim, output_dim=output_dim)
    inputs = {"data": ids, "weight": f32(rs.randn(input_dim, output_dim))}
    ex = bind_inputs(mx, sym, inputs, grad_req={"weight": "write"})
    ex.forward(is_train=True)
    out = ex.outputs[0].asnumpy()
    head = f32(rs.randn(*out.shape))
    ex.backward([mx.nd.array(head)])
    return {"out": out, "grad_weight": ex.grad_dict["weight"].asnumpy(),
            "grad_data_is_none": ex.grad_dict["data"] is None}


def run(mx):
    rs = np.random.RandomState(107)
    return {
        "ids_1d_repeats": embed(mx, rs, f32([3, 1, 3, 3, 0]), 5, 4),
        "ids_2d_repeats": embed(mx, rs, f32([[1, 3, 1], [0, 3, 3]]), 6, 3),
        "ids_3d_all_same": embed(mx, rs, f32(np.full((2, 2, 2), 2)), 4, 2),
    }
