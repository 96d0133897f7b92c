"""What a run leaves behind: SGLang-format log lines, JSONL events, latency and roofline figures."""
