"""``mx.symbol_doc``: MXNet's helper for the examples in operator documentation.

op = mx.sym.FullyConnected(mx.sym.Variable('data'), num_hidden=512, name='FC1')
mx.symbol_doc.SymbolDoc.get_output_shape(op, data=(128, 100))   # {'FC1_output': (128, 512)}
"""

__all__ = ["SymbolDoc"]


class SymbolDoc:
    """The base class MXNet attaches extra operator documentation to."""

    @staticmethod
    def get_output_shape(sym, **input_shapes):
        """``{output name: shape}`` of ``sym`` for the given input shapes (``data=(2, 3)``)."""
        _, s_outputs, _ = sym.infer_shape(**input_shapes)
        return dict(zip(sym.list_outputs(), s_outputs))
