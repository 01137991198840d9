"""``mx.model``: checkpoints, the files MXNet trains into and serves from.

``save_checkpoint('mlp', 3, net, arg_params, aux_params)`` writes two files:

- ``mlp-symbol.json``: the network (``net.tojson()``);
- ``mlp-0003.params``: every parameter, named ``arg:fc1_weight`` or ``aux:bn_moving_mean``.
"""
import logging

from . import ndarray as nd
from . import symbol as sym
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
    param_name = "%s-%04d.params" % (prefix, epoch)
    save_dict = nd.load(param_name)
    arg_params, aux_params = {}, {}
    if not save_dict:
        logging.warning("Params file '%s' is empty", param_name)
        return arg_params, aux_params
    if not isinstance(save_dict, dict):
        # MXNet fails here with "'list' object has no attribute 'items'": same type, clearer text
        raise AttributeError(f"{param_name} holds a list of arrays without names; a checkpoint "
                             "needs names like 'arg:fc1_weight' (write it with save_checkpoint)")
    for key, value in save_dict.items():
        kind, name = key.split(":", 1)
        if kind == "arg":
            arg_params[name] = value
        if kind == "aux":
            aux_params[name] = value
    return arg_params, aux_params


def load_checkpoint(prefix, epoch):
    """``(symbol, arg_params, aux_params)`` from ``prefix-symbol.json`` and
    ``prefix-%04d.params``."""
    symbol = sym.load(f"{prefix}-symbol.json")
    arg_params, aux_params = load_params(prefix, epoch)
    return symbol, arg_params, aux_params
