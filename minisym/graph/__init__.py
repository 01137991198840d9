"""The graph layer: immutable nodes and their order (``nodes.py``), shape and type inference
(``infer.py``), names (``argument_names.py``), MXNet's JSON (``json_io.py``) and debug text
(``debug_text.py``): algorithms on graph nodes, below the executors and the Symbol."""

from .nodes import Node, topo_order, variable_node

__all__ = ["Node", "topo_order", "variable_node"]
