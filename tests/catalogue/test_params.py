"""Catalogue, .params and checkpoints: files that are truncated, damaged, of another format or
crafted, and the mistakes a learner makes saving and loading checkpoints.

Loading is parsing: a ``.params`` file is read record by record, every declared size is checked
against the bytes that are really there before anything is allocated, and what is wrong is an
MXNetError (a ValueError too) naming the file. Nothing read from a file is ever unpickled or
evaluated. A failed load or save leaves the learner's module and arrays as they were.
"""

import os
import pickle
import struct
import tracemalloc

import numpy as np
import pytest

import minisym as mx

from .state import assert_unchanged, snapshot

V2 = 0xF993FAC9


def header(count):
    return struct.pack("<QQQ", 0x112, 0, count)


def record(shape, flag=0):
    """A dense version-2 array record without its values."""
    return (
        struct.pack("<Ii", V2, 0)
        + struct.pack(f"<i{len(shape)}q", len(shape), *shape)
        + struct.pack("<iii", 1, 0, flag)
    )


def names(*texts):
    out = struct.pack("<Q", len(texts))
    for text in texts:
        raw = text if isinstance(text, bytes) else text.encode()
        out += struct.pack("<Q", len(raw)) + raw
    return out


def written(tmp_path, content, name="model-0001.params"):
    path = tmp_path / name
    path.write_bytes(content)
    return str(path)


def refused(call, *expected):
    """``call`` raises an MXNetError that is a ValueError with each of ``expected`` in it."""
    with pytest.raises(mx.base.MXNetError) as info:
        call()
    assert isinstance(info.value, ValueError), type(info.value)
    message = str(info.value)
    for part in expected:
        assert part in message, f"{part!r} not in {message!r}"
    return message


@pytest.fixture
def good(tmp_path):
    path = tmp_path / "good.params"
    mx.nd.save(str(path), {"arg:fc1_weight": mx.nd.ones((3, 4)), "arg:fc1_bias": mx.nd.zeros(3)})
    return path.read_bytes()


def mlp():
    data = mx.sym.Variable("data")
    return mx.sym.SoftmaxOutput(
        mx.sym.FullyConnected(data, num_hidden=3, name="fc1"), name="softmax"
    )


@pytest.fixture
def module():
    mod = mx.mod.Module(mlp())
    mod.bind(data_shapes=[("data", (4, 4))], label_shapes=[("softmax_label", (4,))])
    mod.init_params(mx.init.Xavier())
    return mod


# --- damaged and foreign files --------------------------------------------------------------------
def test_a_truncated_params_file(tmp_path, good):
    path = written(tmp_path, good[: len(good) // 2])
    refused(
        lambda: mx.nd.load(path),
        f"{path}: Invalid NDArray file format: array 0 declares "
        "the shape (3, 4) of float32, 48 bytes, but the file ends",
        "truncated",
    )


def test_a_file_cut_inside_the_names(tmp_path, good):
    path = written(tmp_path, good[:-3])
    refused(lambda: mx.nd.load(path), "name 1 declares 12 bytes, but the file ends 9 bytes later")


def test_random_bytes(tmp_path):
    path = written(tmp_path, np.random.RandomState(0).bytes(300))
    refused(
        lambda: mx.nd.load(path),
        f"{path}: Invalid NDArray file format: it does not start "
        "with MXNet's NDArray-list header 0x112 (is it a .params file?)",
    )


def test_a_png_image_named_params(tmp_path):
    path = written(tmp_path, b"\x89PNG\r\n\x1a\n" + bytes(64))
    refused(lambda: mx.nd.load(path), "header 0x112 (it is a PNG image)")


def test_the_symbol_file_instead_of_the_params_file(tmp_path):
    path = tmp_path / "model-symbol.json"
    mlp().save(str(path))
    refused(
        lambda: mx.nd.load(str(path)), "it is an MXNet symbol JSON file (read it with mx.sym.load)"
    )


def test_a_folder_instead_of_a_file(tmp_path):
    with pytest.raises(OSError) as info:  # MXNet: MXNetError "Invalid NDArray file format"
        mx.nd.load(str(tmp_path))
    assert isinstance(info.value, mx.base.MXNetError)
    assert f'mx.nd.load: "{tmp_path}" is a folder, not a file' in str(info.value)


def test_a_name_that_is_not_text(tmp_path):
    body = header(1) + record((2,)) + np.ones(2, "<f4").tobytes() + names(b"\xff\xfe")
    path = written(tmp_path, body)
    refused(lambda: mx.nd.load(path), "name 0 (b'\\xff\\xfe') is not UTF-8 text")


# --- crafted --------------------------------------------------------------------------------------
def test_a_pickle_with_reduce_is_never_unpickled(tmp_path):
    marker = tmp_path / "pwned"

    class Evil:
        def __reduce__(self):
            return os.system, (f"touch {marker}",)

    path = written(tmp_path, pickle.dumps({"arg:w": Evil()}))
    refused(lambda: mx.nd.load(path), "(it is a Python pickle (minisym never unpickles a file")
    assert not marker.exists()


@pytest.mark.parametrize(
    "shape, declared",
    [
        ((100000, 100000, 100000), "4,000,000,000,000,000 bytes"),
        ((2**40, 2**40), "4,835,703,278,458,516,698,824,704 bytes"),  # overflows int64
    ],
)
def test_a_huge_declared_size_is_refused_before_anything_is_allocated(tmp_path, shape, declared):
    """MXNet tries: "Failed to allocate CPU Memory" (or, for the overflowing shape, reads a
    0x0 array)."""
    path = written(tmp_path, header(1) + record(shape) + bytes(64))
    tracemalloc.start()
    try:
        refused(
            lambda: mx.nd.load(path),
            f"declares the shape {shape} of float32, {declared}",
            "nothing was allocated",
        )
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20


def test_a_negative_dimension(tmp_path):
    path = written(tmp_path, header(1) + record((-4, 3)) + bytes(64))
    refused(lambda: mx.nd.load(path), "array 0 has the shape (-4, 3), with a negative size")


def test_a_huge_array_count(tmp_path):
    path = written(tmp_path, header(2**62) + record((1,)) + bytes(8))
    refused(
        lambda: mx.nd.load(path), "the header declares 4,611,686,018,427,387,904 arrays, but only"
    )


def test_names_with_path_tricks_are_only_names(tmp_path):
    """A name is a dictionary key: loading writes nothing, anywhere."""
    tricks = ["arg:../../etc/passwd", "aux:/tmp/evil", "arg:..\\..\\x"]
    body = header(3) + (record((2,)) + np.ones(2, "<f4").tobytes()) * 3 + names(*tricks)
    folder = tmp_path / "inside"
    folder.mkdir()
    path = written(folder, body)
    listing = sorted(p.name for p in tmp_path.rglob("*"))
    loaded = mx.nd.load(path)
    assert list(loaded) == tricks
    args, auxs = mx.model._split_params(path)
    assert set(args) == {"../../etc/passwd", "..\\..\\x"} and set(auxs) == {"/tmp/evil"}
    assert sorted(p.name for p in tmp_path.rglob("*")) == listing


def test_optimizer_states_that_are_a_pickle_are_never_unpickled(tmp_path):
    """MXNet's Updater.set_states unpickles; minisym's states are parsed."""
    marker = tmp_path / "pwned"

    class Evil:
        def __reduce__(self):
            return os.system, (f"touch {marker}",)

    updater = mx.optimizer.get_updater(mx.optimizer.SGD(momentum=0.9))
    updater(0, mx.nd.ones(2), mx.nd.zeros(2))
    before = snapshot(list(updater.states.values()))
    refused(
        lambda: updater.set_states(pickle.dumps({0: Evil()})),
        "Updater.set_states: these states are a Python pickle",
        "Updater.get_states()",
    )
    assert not marker.exists()
    assert_unchanged(before, list(updater.states.values()))


# --- checkpoints ----------------------------------------------------------------------------------
def test_load_checkpoint_of_arrays_saved_without_arg_prefix(tmp_path):
    prefix = str(tmp_path / "model")
    mlp().save(prefix + "-symbol.json")
    mx.nd.save(prefix + "-0001.params", {"fc1_weight": mx.nd.ones((3, 4))})
    with pytest.raises(
        ValueError,
        match=r"model-0001\.params holds an array named 'fc1_weight', "
        r"without the 'arg:' or 'aux:' prefix.*written with "
        r"mx\.nd\.save of a plain dict",
    ):
        mx.model.load_checkpoint(prefix, 1)


def test_module_load_params_of_a_list_file(tmp_path, module):
    path = str(tmp_path / "list.params")
    mx.nd.save(path, [mx.nd.ones((3, 4))])
    before = snapshot(module)
    with pytest.raises(AttributeError, match=r"list\.params holds a list of arrays without names"):
        module.load_params(path)
    assert_unchanged(before, module)


def test_module_load_params_of_another_networks_file(tmp_path, module):
    """A checkpoint of a net with 5 inputs: the weight's shape differs; nothing is copied."""
    path = str(tmp_path / "other.params")
    mx.nd.save(path, {"arg:fc1_weight": mx.nd.ones((3, 5)), "arg:fc1_bias": mx.nd.ones(3)})
    before = snapshot(module)
    refused(
        lambda: module.load_params(path),
        "Module.set_params: arg_params['fc1_weight'] has "
        "shape (3, 5), but the module's 'fc1_weight' has shape (3, 4)",
        "nothing was changed",
    )
    assert_unchanged(before, module)


def test_save_checkpoint_into_a_folder_that_does_not_exist(tmp_path, module):
    before = snapshot(module)
    prefix = str(tmp_path / "runs" / "model")
    with pytest.raises(OSError) as info:  # MXNet: MXNetError "Check failed: allow_null"
        module.save_checkpoint(prefix, 1)
    assert isinstance(info.value, mx.base.MXNetError)
    message = str(info.value)
    assert f'cannot write "{prefix}-symbol.json": No such file or directory' in message
    assert f"the folder {tmp_path / 'runs'} does not exist: create it first" in message
    assert "os.makedirs(" in message
    assert_unchanged(before, module)
    assert os.listdir(tmp_path) == []  # no temporary file left behind


def test_load_checkpoint_of_an_epoch_never_saved(tmp_path, module):
    prefix = str(tmp_path / "model")
    module.save_checkpoint(prefix, 1)
    refused(
        lambda: mx.model.load_checkpoint(prefix, 3),
        "there is no checkpoint for epoch 3",
        "saved under this prefix are for epochs 1",
    )
