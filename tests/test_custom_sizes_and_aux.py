"""A custom operator's infer_shape must give int sizes (MXNet fails on a str or float size,
typically a keyword of mx.sym.Custom left unconverted); simple_bind keeps the engine's note;
the index map explains an auxiliary state."""

import pytest

import minisym as mx


def center_prop(op_type, convert):
    @mx.operator.register(op_type)
    class CenterProp(mx.operator.CustomOpProp):
        def __init__(self, num_class):
            super().__init__(need_top_grad=False)
            self.num_class = convert(num_class)

        def list_arguments(self):
            return ["data", "label"]

        def list_auxiliary_states(self):
            return ["center"]

        def infer_shape(self, in_shape):
            batch, features = in_shape[0]
            return [in_shape[0], (batch,)], [(1,)], [(self.num_class, features)]

    return mx.sym.Custom(
        data=mx.sym.Variable("data"),
        label=mx.sym.Variable("label"),
        op_type=op_type,
        num_class=3,
        name="closs",
    )


def test_an_unconverted_keyword_used_as_a_size_is_named():
    net = center_prop("sizes_str", lambda v: v)
    with pytest.raises(
        mx.base.MXNetError, match=r"shape \('3', 2\), with the size '3' \(str\)"
    ) as info:
        net.infer_shape(data=(6, 2))
    assert isinstance(info.value, TypeError)
    notes = "".join(getattr(info.value, "__notes__", ()))
    assert "num_class='3' is still the string '3' in CenterProp.num_class" in notes
    assert "self.num_class = int(num_class)" in notes


def test_simple_bind_keeps_the_note():
    net = center_prop("sizes_str_bind", lambda v: v)
    with pytest.raises(RuntimeError, match="simple_bind error") as info:
        net.simple_bind(mx.cpu(), data=(6, 2))
    assert "self.num_class = int(num_class)" in "".join(info.value.__notes__)


def test_a_float_size_is_refused_and_an_int_size_passes():
    with pytest.raises(TypeError, match=r"size 3\.0 \(float\); every size must be an int"):
        center_prop("sizes_float", float).infer_shape(data=(6, 2))
    assert center_prop("sizes_int", int).infer_shape(data=(6, 2))[2] == [(3, 2)]


def test_index_map_explains_an_aux_state():
    from minisym_widgets import IndexMap

    view = IndexMap(center_prop("sizes_index_map", int), node="closs", shapes={"data": (6, 2)})
    view.selected = "aux[0]"
    detail = dict(view.detail)
    assert "no in_grad and no req" in detail["gradient"]
    assert "executor.aux_dict['closs_center']" in detail["gradient"]
    assert detail["same index"] == "list_auxiliary_states()[0]"
    assert "the state's name" in detail["given"]
