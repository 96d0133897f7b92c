"""Model-side building blocks shared by target and draft: the sampler."""
