"""Triton verify kernels with checking wrappers and bit-identical PyTorch references."""
