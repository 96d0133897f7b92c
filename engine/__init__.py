"""spectrace_engine: a small instrumented EAGLE engine (model, draft head, tree, verify kernels, runtime)."""
