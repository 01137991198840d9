"""Teaching widgets for the minisym course (import name: minisym_widgets).

Each widget is a view of what the engine records: ``IndexMap`` (which argument stands behind
each index of in_data / out_data / req / in_grad / out_grad / aux), ``GradReqPlayground``
(backward run again and again under 'write', 'add' and 'null'), ``ShapeExplorer``,
``Stepper``, ``GraphView`` and ``Lifecycle``. They are imported on first use.
``set_language('zh_CN')`` shows the widgets made afterwards in Chinese (default: the kernel's
``LANGUAGE`` / ``LC_ALL`` / ``LC_MESSAGES`` / ``LANG``).
"""

import importlib
import sys

_WHERE = {
    "IndexMap": "index_map",
    "GradReqPlayground": "grad_req",
    "ShapeExplorer": "shape_explorer",
    "Stepper": "stepper",
    "GraphView": "graph_view",
    "Lifecycle": "lifecycle",
    "Predict": "predict",
    "GradientHeatmap": "gradient_heatmap",
    "MemoryPlanView": "memory_plan_view",
}

__all__ = sorted(_WHERE) + ["set_language"]


def __getattr__(name):
    if name == "set_language":  # the language of every widget made afterwards
        from .i18n import set_language

        globals()[name] = set_language
        return set_language
    if name not in _WHERE:
        raise AttributeError(
            f"module 'minisym_widgets' has no attribute {name!r}; the widgets "
            f"are {', '.join(__all__)}"
        )
    value = getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return __all__


if "ipykernel" in sys.modules:  # in a notebook, a failed check draws its GradientHeatmap
    importlib.import_module(".gradient_heatmap", __name__)  # it registers with the checks
