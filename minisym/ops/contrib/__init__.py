"""The operators of MXNet 1.9.1's src/operator/contrib/ (``mx.sym.contrib.*``), one module per
source file."""
