"""What a log record's first line starts with, for readers that must tell a log from prose.

A line-number gutter (``gutter.py``) and a log carried as one escaped string
(``flattened.py``) are taken apart only when a record opens there: a framework's header, a
traceback's or a stack dump's first line, an exception line, a launch command, a
``check_env`` or py-spy version line. Bytes, as the scan hands lines over.
"""

from __future__ import annotations

import re

OPENS = re.compile(
    rb"[ \t]*(?:\[\d{4}-\d\d-\d\d|\[(?:rank|default)\d+\]|\([A-Za-z][\w.()-]* pid=\d"
    rb"|(?:DEBUG|INFO|WARNING|ERROR|CRITICAL)[ :]|[IWEF]\d{4} \d\d:|\d{4}-\d\d-\d\d[ T]\d\d:"
    rb"|Traceback \(most recent call last\)|File \"|Fatal Python error|Current thread 0x"
    rb"|Thread (?:0x|\d+ )|Process \d+: |Python:? v?\d|[A-Za-z_][\w.]*(?:Error|Exception|Exit)\b"
    rb"|(?:\S*/)?python[\d.]* -m |(?:vllm|sglang|trtllm-serve|torchrun) |--[a-z]|\$ )"
)
