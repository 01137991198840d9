"""What MXNet 1.9.1's unit tests take from nose, which does not import on Python 3.10+."""
