"""KV memory: the request-to-token pool, the token-to-KV caches and their allocator."""
