"""vLLM headers: level, year-less stamp, [file:line]; the old form without '['."""

from __future__ import annotations

from datetime import datetime

from spectrace.dialects.vllm import VllmDialect

D = VllmDialect()


def test_header_fields_and_group() -> None:
    h = D.parse(
        'ERROR 10-05 12:01:02 [core.py:710]   File "/v/core.py", line 701, in run_engine_core'
    )
    assert h is not None
    assert h.level == "ERROR"
    assert h.ts == datetime(1900, 10, 5, 12, 1, 2)
    assert h.text == '  File "/v/core.py", line 701, in run_engine_core'  # indentation kept
    assert h.group == "core.py:710 10-05 12:01:02"


def test_old_form_without_bracket() -> None:
    h = D.parse("INFO 02-10 07:39:31 launcher.py:29] Route: /v1/chat/completions")
    assert h is not None and h.text == "Route: /v1/chat/completions" and h.level == "INFO"


def test_debug_paths_in_fileinfo() -> None:
    h = D.parse("DEBUG 10-05 12:00:00 [v1/attention/backends/mla/common.py:88] x")
    assert h is not None and h.group == "v1/attention/backends/mla/common.py:88 10-05 12:00:00"


def test_not_vllm() -> None:
    assert D.parse("[2025-10-21 08:14:03 TP0] ERROR 10-05 x") is None
    assert D.parse("ERROR: something") is None
