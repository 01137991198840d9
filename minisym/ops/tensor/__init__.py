"""The operators of MXNet 1.9.1's src/operator/tensor/, one module per source file."""
