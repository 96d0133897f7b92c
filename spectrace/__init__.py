"""spectrace: crash triage for speculative-decoding LLM server logs.

Data flows one way: read -> dialects -> assemblers -> incidents -> linker -> reports/TUI.
Nothing in this package imports torch; the engine lives in ``spectrace_engine``.
"""

__version__ = "0.1.0"
