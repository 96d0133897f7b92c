"""What a log record's first line starts with, for readers that must tell a log from prose.

A line-number gutter (``gutter.py``) and a log carried as one escaped string
(``flattened.py``) are taken apart only when a record opens there: a framework's header, a
traceback's or a stack dump's first line, an exception line, a launch command, a
``check_env`` or py-spy version line. On bytes (raw lines) and on text (normalised lines).
"""

from __future__ import annotations

import re

_PATTERN = (
    r"[ \t]*(?:\[\d{4}-\d\d-\d\d|\[(?:rank|default)\d+\]|\([A-Za-z][\w.()-]* pid=\d"
    r"|(?:DEBUG|INFO|WARNING|ERROR|CRITICAL)[ :]|[IWEF]\d{4} \d\d:|\d{4}-\d\d-\d\d[ T]\d\d:"
    r"|Traceback \(most recent call last\)|File \"|Fatal Python error|Current thread 0x"
    r"|Thread (?:0x|\d+ )|Process \d+: |Python:? v?\d|[A-Za-z_][\w.]*(?:Error|Exception|Exit)\b"
    r"|(?:\S*/)?python[\d.]* -m |(?:vllm|sglang|trtllm-serve|torchrun) |--[a-z]|\$ )"
)
OPENS = re.compile(_PATTERN.encode())  # on raw lines
OPENS_TEXT = re.compile(_PATTERN, re.ASCII)  # on normalised text
