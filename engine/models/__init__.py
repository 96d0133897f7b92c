"""The tiny LLaMA target, SmolLM2 from its GGUF, the EAGLE draft heads and their weights."""
