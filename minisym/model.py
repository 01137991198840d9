"""``mx.model``: checkpoints, the files MXNet trains into and serves from.

``save_checkpoint('mlp', 3, net, arg_params, aux_params)`` writes two files:

- ``mlp-symbol.json``: the network (``net.tojson()``);
- ``mlp-0003.params``: every parameter, named ``arg:fc1_weight`` or ``aux:bn_moving_mean``.
"""

import logging
import os
import re

from . import ndarray as nd
from . import symbol as sym
from .base import MXNetValueError
from .context import cpu

__all__ = ["save_checkpoint", "load_checkpoint", "load_params"]


def save_checkpoint(prefix, epoch, symbol, arg_params, aux_params, remove_amp_cast=True):
    """Write ``prefix-symbol.json`` (unless ``symbol`` is None) and ``prefix-%04d.params``."""
    if symbol is not None:
        symbol.save(f"{prefix}-symbol.json")
    save_dict = {f"arg:{k}": v.as_in_context(cpu()) for k, v in arg_params.items()}
    save_dict.update({f"aux:{k}": v.as_in_context(cpu()) for k, v in aux_params.items()})
    param_name = "%s-%04d.params" % (prefix, epoch)
    nd.save(param_name, save_dict)
    logging.info('Saved checkpoint to "%s"', param_name)


def load_params(prefix, epoch):
    """``(arg_params, aux_params)`` from ``prefix-%04d.params``, split on the ``arg:`` / ``aux:``
    prefix."""
    return _split_params(_params_file(prefix, epoch, "load_params"))


def _split_params(param_name):
    """``(arg_params, aux_params)`` of the .params file ``param_name``."""
    save_dict = nd.load(param_name)
    arg_params, aux_params = {}, {}
    if not save_dict:
        logging.warning("Params file '%s' is empty", param_name)
        return arg_params, aux_params
    if not isinstance(save_dict, dict):
        # MXNet fails here with "'list' object has no attribute 'items'": same type, clearer text
        raise AttributeError(
            f"{param_name} holds a list of arrays without names; a checkpoint "
            "needs names like 'arg:fc1_weight' (write it with save_checkpoint)"
        )
    for key, value in save_dict.items():
        kind, name = split_param_name(key, param_name)
        if kind == "arg":
            arg_params[name] = value
        if kind == "aux":
            aux_params[name] = value
    return arg_params, aux_params


def split_param_name(key, param_name):
    """``('arg', 'fc1_weight')`` of a checkpoint's ``'arg:fc1_weight'``; a ValueError (MXNet's
    type: its unpacking fails) saying what a name without the prefix means."""
    if ":" not in key:
        raise ValueError(
            f"{param_name} holds an array named {key!r}, without the 'arg:' or 'aux:' prefix "
            "every name of a checkpoint has ('arg:fc1_weight', 'aux:bn1_moving_mean'): it was "
            "written with mx.nd.save of a plain dict, not as a checkpoint. Load it with "
            "mx.nd.load, or write checkpoints with mx.model.save_checkpoint / "
            "Module.save_checkpoint / Module.save_params"
        )
    return tuple(key.split(":", 1))


def load_checkpoint(prefix, epoch):
    """``(symbol, arg_params, aux_params)`` from ``prefix-symbol.json`` and
    ``prefix-%04d.params``."""
    return _load_checkpoint(prefix, epoch, "load_checkpoint")


def _load_checkpoint(prefix, epoch, caller):
    """``load_checkpoint`` for ``caller`` (its name starts any error message)."""
    param_name = _params_file(prefix, epoch, caller)
    symbol_name = f"{prefix}-symbol.json"
    if not os.path.isfile(symbol_name):
        raise MXNetValueError(
            f"{caller}({prefix!r}, {epoch!r}): there is no {symbol_name} (the network) "
            f"next to {os.path.basename(param_name)}. "
            "mx.model.save_checkpoint, Module.save_checkpoint and do_checkpoint write both "
            "files, except save_checkpoint(prefix, epoch, None, ...), which writes only the "
            f".params. To load only the parameters use mx.model.load_params({prefix!r}, "
            f"{epoch!r}) and build the symbol in code."
        )
    symbol = sym.load(symbol_name)
    arg_params, aux_params = _split_params(param_name)
    return symbol, arg_params, aux_params


# --- what a missing checkpoint file says --------------------------------------------------------
_NUMBERING = (
    "mx.callback.do_checkpoint(prefix) saves after every epoch, numbered by the epochs "
    "done: Epoch[0] of the training log is saved as epoch 1 ({first}), Epoch[1] as "
    "epoch 2; with period=p only every p-th (p, 2p, ...)"
)


def _params_file(prefix, epoch, caller):
    """``prefix-%04d.params``, or an error listing the epochs saved under ``prefix``."""
    param_name = "%s-%04d.params" % (prefix, epoch)
    if os.path.isfile(param_name):
        return param_name
    folder, base = os.path.split(prefix)
    epochs = saved_epochs(prefix)
    head = (
        f"{caller}({prefix!r}, {epoch!r}): there is no checkpoint for epoch {epoch} (no "
        f"file {os.path.basename(param_name)} in {folder or 'the current folder'}). "
    )
    numbering = _NUMBERING.format(first="%s-0001.params" % base)
    if epochs:
        raise MXNetValueError(
            head + f"The checkpoints saved under this prefix are for epochs "
            f"{_list_epochs(epochs)}. {numbering}. Pass one of the saved epochs, e.g. "
            f"{caller}({prefix!r}, {epochs[-1]}) for the last one."
        )
    raise MXNetValueError(head + _nothing_saved(prefix, folder) + f" {numbering}.")


def _nothing_saved(prefix, folder):
    """Why no epoch exists under ``prefix``: no such folder, or which prefixes it has."""
    if folder and not os.path.isdir(folder):
        return f"The folder {folder} does not exist."
    others = _prefixes_in(folder or ".")
    folder = folder or "the current folder"
    if not others:
        return (
            f"No checkpoint was saved under the prefix {prefix!r}, nor any other in "
            f"{folder}: save_checkpoint, Module.save_checkpoint and do_checkpoint write them."
        )
    listed = "; ".join(
        f"{name!r} (epochs {_list_epochs(epochs)})" for name, epochs in sorted(others.items())
    )
    return (
        f"No checkpoint was saved under the prefix {prefix!r}; {folder} has checkpoints "
        f"under: {listed}."
    )


_PARAMS_FILE = re.compile(r"(.+)-(\d{4,})\.params")


def saved_epochs(prefix):
    """The epochs with a ``prefix-%04d.params`` file, ascending: ``[1, 2, 3]``."""
    folder, base = os.path.split(prefix)
    return _prefixes_in(folder or ".").get(base, [])


def _prefixes_in(folder):
    """{prefix: [epochs]} of every ``prefix-NNNN.params`` file in ``folder``."""
    found = {}
    try:
        names = os.listdir(folder)
    except OSError:
        return found
    for name in names:
        match = _PARAMS_FILE.fullmatch(name)
        if match:
            found.setdefault(match.group(1), []).append(int(match.group(2)))
    return {base: sorted(epochs) for base, epochs in found.items()}


def _list_epochs(epochs):
    """``'1, 2, 3'``, or ``'1, 2, 3, ..., 48, 49, 50 (50 in all)'`` for a long list."""
    if len(epochs) <= 8:
        return ", ".join(map(str, epochs))
    return ", ".join(map(str, epochs[:3] + ["..."] + epochs[-3:])) + f" ({len(epochs)} in all)"
