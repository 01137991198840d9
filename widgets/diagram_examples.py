"""The operators the course's pictures show: lesson 4's softmax loss (no auxiliary state, no
out_grad) and a normalisation with a learned scale and a running mean (all six arrays), as the
lessons write them. Registered under names of their own, so a lesson's registry is untouched."""

import minisym as mx


class _Softmax(mx.operator.CustomOpProp):
    def __init__(self):
        super().__init__(need_top_grad=False)

    def list_arguments(self):
        return ["data", "label"]

    def list_outputs(self):
        return ["output"]

    def infer_shape(self, in_shape):
        return [in_shape[0], (in_shape[0][0],)], [in_shape[0]], []


class _Normalize(mx.operator.CustomOpProp):
    def list_arguments(self):
        return ["data", "gamma"]

    def list_outputs(self):
        return ["output"]

    def list_auxiliary_states(self):
        return ["running_mean"]

    def infer_shape(self, in_shape):
        channels = (in_shape[0][1],)
        return [in_shape[0], channels], [in_shape[0]], [channels]


def examples():
    """{picture name: (symbol, title)}."""
    mx.operator.register("course_picture_softmax")(_Softmax)
    mx.operator.register("course_picture_normalize")(_Normalize)
    data, label = mx.sym.Variable("data"), mx.sym.Variable("label")
    softmax = mx.sym.Custom(
        data=data, label=label, op_type="course_picture_softmax", name="softmax"
    )
    normalize = mx.sym.Custom(data=data, op_type="course_picture_normalize", name="norm")
    return {
        "slots_softmax_loss": (
            softmax,
            "Lesson 4's softmax loss: every index and the name behind it",
        ),
        "slots_six_arrays": (
            normalize,
            "A custom operator with a learned scale and a running "
            "mean: the three lists and the six arrays",
        ),
    }
