"""Tensor-parallel process groups (gloo on CPU, NCCL on CUDA) and the collectives the layers call."""
