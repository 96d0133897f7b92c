"""Configs a text gives as examples, not as its run's: ``(e.g., `--speculative-config
'{"method": "ngram"}'`)``, "for example `--speculative-algorithm EAGLE`", "a method such as ...".

A PR description or a bug template lists the conditions under which a bug shows ("speculative
decoding enabled (e.g. ...)"): the method it quotes is one way to meet them, so it may name the
family being discussed but never the class a run built. The marker must stand before the config
on the same sentence line; a log record (a line with a header) is never an example.
"""

from __future__ import annotations

import re

from spectrace.dialects.base import LogLine

# The markers, ahead of the quoted config on the same line.
_MARKER = re.compile(
    r"(?:\be\.\s?g\.|\bfor (?:example|instance)\b|\bsuch as\b|\bexample (?:config|command)"
    r"|\ban example\b)",
    re.IGNORECASE,
)
# Where a config starts on a line: a flag, a JSON/dict, a keyword argument.
_CONFIG = re.compile(r"--\w|\{|\bspeculative_\w+\s*=")
EXAMPLE_REASON = "an example the text gives, not the run's config"


def is_example(line: LogLine) -> bool:
    """The line quotes its config after an example marker (``e.g.``, ``for example``...)."""
    if line.headed:
        return False
    marker = _MARKER.search(line.text)
    if marker is None:
        return False
    config = _CONFIG.search(line.text, marker.end())
    return config is not None
