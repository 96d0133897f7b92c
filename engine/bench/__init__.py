"""Outside the runtime: the closed-loop load client and the concurrency sweep with its report."""
