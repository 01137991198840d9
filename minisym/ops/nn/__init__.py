"""The operators of MXNet 1.9.1's src/operator/nn/, one module per source file."""
