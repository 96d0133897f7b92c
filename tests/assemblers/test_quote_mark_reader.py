"""The config reader knows a quoted line by the reader's mark (``LogLine.quoted``), not by a
``>`` left in its text: the reader takes the mark off, so the words another post said (that
it ran EAGLE3 enabled) are not the writer's run, while the writer's own same words are. The
lines are ours."""

from __future__ import annotations

import pytest

from spectrace.assemblers.config import ConfigCollector
from spectrace.dialects.detect import LineParser

SAID = "Running our MoE model with `EAGLE3` speculative decoding enabled, the scheduler asserts."


def _evidence(*raws: str):  # type: ignore[no-untyped-def]
    parser, collector = LineParser("reply.md"), ConfigCollector()
    for n, raw in enumerate(raws, 1):
        collector.feed(parser.parse(raw.encode(), n, 0))
    return collector.result().path_evidence


@pytest.mark.parametrize("mark", ["> ", ">> ", "> > ", "   > "])
def test_a_quoted_sentence_is_not_the_writers_run(mark: str) -> None:
    line = LineParser("reply.md").parse(f"{mark}{SAID}".encode(), 1, 0)
    assert line.quoted and not line.raw.lstrip().startswith(">")  # the mark is only a flag
    assert _evidence("# SGLang server dies under load", f"{mark}{SAID}") == []


def test_the_writers_own_sentence_names_the_eras_condition() -> None:
    [evidence] = _evidence("# SGLang server dies under load", SAID)
    assert evidence.worker_class is None and "EAGLEWorkerV2" in (evidence.condition or "")


def test_a_python_prompt_is_the_writers_own_typing() -> None:
    [evidence] = _evidence("# SGLang server dies under load", f">>> {SAID}")
    assert "EAGLEWorker" in (evidence.condition or "")
