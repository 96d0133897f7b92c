"""Outside the runtime: training the shipped draft heads and the offline acceptance check."""
