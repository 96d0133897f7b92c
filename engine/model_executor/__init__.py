"""ModelRunner and the target's CUDA-graph runner, with ForwardBatch/ForwardMode."""
