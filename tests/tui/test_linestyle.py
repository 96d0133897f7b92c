"""Line colouring: rank tag, level, benign noise, crash lines; log text never becomes markup."""

from __future__ import annotations

from rich.style import Style

from spectrace.ruleset import RuleSet
from spectrace.tui.linestyle import (
    BENIGN_STYLE,
    CRASH_STYLE,
    RANK_STYLE,
    LineStyler,
    plain,
    to_text,
)

STYLER = LineStyler(RuleSet.load().benign)


def styles_at(text, index: int) -> list[Style]:  # type: ignore[no-untyped-def]
    return [span.style for span in text.spans if span.start <= index < span.end]


def test_sglang_rank_tag_is_coloured() -> None:
    line = (
        "[2026-02-27 21:00:18 TP7] Scheduler hit an exception: Traceback (most recent call last):"
    )
    text = STYLER.styled(line, in_crash=False)
    assert RANK_STYLE in styles_at(text, line.index("TP7"))
    assert RANK_STYLE not in styles_at(text, line.index("Scheduler"))


def test_vllm_level_and_process_tag_are_coloured() -> None:
    line = "\x1b[1;36m(Worker_TP1 pid=4101)\x1b[0;0m ERROR 10-05 12:01:02.100 [core.py:710] boom"
    text = STYLER.styled(line, in_crash=False)
    assert text.plain == "(Worker_TP1 pid=4101) ERROR 10-05 12:01:02.100 [core.py:710] boom"
    assert any(
        s.color and s.color.name == "red" for s in styles_at(text, text.plain.index("ERROR"))
    )
    assert RANK_STYLE in styles_at(text, text.plain.index("Worker_TP1"))


def test_benign_noise_is_dimmed_and_crash_lines_are_highlighted() -> None:
    noise = (
        "[2026-02-27 20:49:03 TP2] Ignore import error when loading sglang.srt.models.glm_ocr: "
        "No module named 'transformers.models.glm_ocr'"
    )
    assert BENIGN_STYLE in styles_at(STYLER.styled(noise, in_crash=False), 40)
    crash = "RuntimeError: The size of tensor a (160) must match the size of tensor b (2)"
    assert CRASH_STYLE in styles_at(STYLER.styled(crash, in_crash=True), 0)


def test_markup_and_escapes_in_a_log_stay_inert() -> None:
    line = "[bold red]not markup[/] \x1b]8;;http://evil\x07link\x1b]8;;\x07 \x1b[2J\x1b[H\x07bell"
    text = to_text(line)
    assert text.plain == "[bold red]not markup[/] link ?bell"
    assert not any(s.style.link for s in text.spans if isinstance(s.style, Style))
    assert plain(line) == text.plain


def test_colour_can_be_stripped() -> None:
    text = to_text("\x1b[31mred\x1b[0m", colour=False)
    assert text.plain == "red" and not text.spans
