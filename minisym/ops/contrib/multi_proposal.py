"""_contrib_MultiProposal (``mx.sym.contrib.MultiProposal``): Proposal for a batch
of images. Mirrors MXNet 1.9.1's src/operator/contrib/multi_proposal.cc."""

from ..operator_base import register
from .proposal import Proposals

__all__ = []


@register("_contrib_MultiProposal")
class MultiProposal(Proposals):
    """Region proposals for a batch of N images: (N * rpn_post_nms_top_n, 5) rows
    [image index, x1, y1, x2, y2]."""
