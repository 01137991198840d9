"""Random initializers, by their statistics over large arrays (values cannot match MXNet's bit
for bit). For each: mean / scale, std / scale and max|x| / scale, where ``scale`` is the bound
(uniform) or the sigma (gaussian) the formula gives. With >= 2.6e5 draws the standard error of
a mean/scale is <= 2e-3 and of a std/scale <= 2e-3, so atol=1.5e-2 is > 7 standard errors.
The max of |x| for gaussians is not recorded (it depends on the draw); for uniforms it is <= 1
and within 1e-4 of it. Orthogonal is checked by its exact property W W^T = scale^2 I."""
import numpy as np

TOLERANCE = dict(rtol=0, atol=1.5e-2)

CONV = (256, 128, 3, 3)   # fan_in = 1152, fan_out = 2304
FC = (600, 1000)


def stats(mx, init, shape, scale, uniform):
    arr = mx.nd.zeros(shape)
    init(mx.init.InitDesc("layer_weight"), arr)
    x = arr.asnumpy().astype(np.float64)
    out = {"mean": float(x.mean() / scale), "std": float(x.std() / scale),
           "dtype": np.dtype(arr.dtype).name}
    if uniform:
        out["max_abs"] = float(np.abs(x).max() / scale)
        out["within_bound"] = bool(np.abs(x).max() <= scale * (1 + 1e-6))
    return out


def xavier_scale(shape, factor_type, magnitude):
    hw = float(np.prod(shape[2:])) if len(shape) > 2 else 1.0
    fan_in, fan_out = shape[1] * hw, shape[0] * hw
    factor = {"avg": (fan_in + fan_out) / 2.0, "in": fan_in, "out": fan_out}[factor_type]
    return np.sqrt(magnitude / factor)


def run(mx):
    init = mx.init
    mx.random.seed(221)
    out = {"uniform_default": stats(mx, init.Uniform(), FC, 0.07, True),
           "uniform_0.5": stats(mx, init.Uniform(0.5), FC, 0.5, True),
           "normal_default": stats(mx, init.Normal(), FC, 0.01, False),
           "normal_2": stats(mx, init.Normal(2.0), FC, 2.0, False)}
    for shape in (CONV, FC):
        for rnd in ("uniform", "gaussian"):
            for factor in ("avg", "in", "out"):
                for magnitude in (3, 2.34):
                    key = "xavier_%dd_%s_%s_%s" % (len(shape), rnd, factor, magnitude)
                    scale = xavier_scale(shape, factor, magnitude)
                    out[key] = stats(mx, init.Xavier(rnd, factor, magnitude), shape, scale,
                                     rnd == "uniform")
        for factor, slope in (("avg", 0.25), ("in", 0.0), ("out", 1.0)):
            key = "msraprelu_%dd_%s_%s" % (len(shape), factor, slope)
            scale = xavier_scale(shape, factor, 2.0 / (1 + slope ** 2))
            out[key] = stats(mx, init.MSRAPrelu(factor, slope), shape, scale, False)
    for rand_type in ("uniform", "normal"):
        for shape in ((20, 50), (50, 20), (8, 4, 3, 3)):
            arr = mx.nd.zeros(shape)
            init.Orthogonal(scale=1.5, rand_type=rand_type)(init.InitDesc("o_weight"), arr)
            w = arr.asnumpy().reshape(shape[0], -1).astype(np.float64)
            small = w @ w.T if shape[0] <= w.shape[1] else w.T @ w
            out["orthogonal_%s_%s" % (rand_type, shape)] = float(
                np.abs(small - 2.25 * np.eye(small.shape[0])).max())
    return out
