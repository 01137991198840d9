"""``mx.metric``: evaluation metrics that accumulate over batches (as in MXNet 1.9.1).

A metric keeps ``sum_metric`` and ``num_inst``; ``get()`` returns ``(name, sum_metric / num_inst)``
(``nan`` before any update). What one instance is differs, and matters when batches differ in
size:

- ``Accuracy``, ``TopKAccuracy``, ``CrossEntropy``, ``NegativeLogLikelihood``: one per sample,
  so the value is the mean over all samples seen (``Perplexity``: one per label not ignored);
- ``MSE``, ``MAE``, ``RMSE``, ``PearsonCorrelation``, ``PCC``: one per *array* passed to
  ``update``: each batch's value counts once, so the value is the mean of the per-batch values
  (``PearsonCorrelation(average='micro')`` and ``PCC`` compute one value over everything seen);
- ``F1``, ``MCC``: one per ``update`` call under ``average='macro'`` (the default), one per
  sample under ``'micro'``;
- ``Loss``: one per element of the prediction.

Each metric also keeps ``global_sum_metric`` / ``global_num_inst``, which ``reset_local()`` leaves
alone (``get_global()``). ``update(labels, preds)`` takes lists of NDArrays (a single NDArray is
wrapped when the lengths agree); ``update_dict`` takes {name: NDArray} and picks
``label_names`` / ``output_names``.
"""

from .base import (
    CompositeEvalMetric,
    CustomMetric,
    EvalMetric,
    alias,
    check_label_shapes,
    create,
    np,
    register,
)
from .classification import F1, MCC, PCC, Accuracy, TopKAccuracy
from .probability import Caffe, CrossEntropy, Loss, NegativeLogLikelihood, Perplexity, Torch
from .regression import MAE, MSE, RMSE, PearsonCorrelation

__all__ = [
    "EvalMetric",
    "CompositeEvalMetric",
    "Accuracy",
    "TopKAccuracy",
    "F1",
    "MCC",
    "PCC",
    "Perplexity",
    "MAE",
    "MSE",
    "RMSE",
    "PearsonCorrelation",
    "CrossEntropy",
    "NegativeLogLikelihood",
    "Loss",
    "Torch",
    "Caffe",
    "CustomMetric",
    "np",
    "create",
    "register",
    "alias",
    "check_label_shapes",
]
