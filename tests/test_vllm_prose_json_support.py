"""An inline config in a sentence about what a framework supports ("Medusa runs natively in
vLLM (`{"method": "medusa"}`) and TGI", round 27 02's RFC shape) is no run's config; the
sentence's config is read from the whole line, not the evidence's trimmed text."""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import roots, run

CRASH = ["Traceback (most recent call last):", '  File "probe.py", line 1, in <module>',
         "RuntimeError: probe"]  # fmt: skip
LONG = ("Our trainer covers EAGLE-family and MTP drafters but nothing with parallel heads, which "
        "many users ask about in their issues and on the forum every week for their own models. ")  # fmt: skip


def _path(tmp_path: Path, line: str):
    (crash,) = roots(run(tmp_path, [line, *CRASH]))
    return crash.worker_path


def test_a_sentence_on_where_a_method_runs_sets_no_method(tmp_path: Path) -> None:
    for i, line in enumerate((
        LONG + 'Heads like these run natively in vLLM (`{"method": "medusa"}`), TGI and others.',
        'vLLM supports EAGLE-3 out of the box with {"method": "eagle3", "num_speculative_tokens": 3}.',
    )):  # fmt: skip
        (tmp_path / str(i)).mkdir()
        path = _path(tmp_path / str(i), line)
        assert not any(e.reason.startswith("vLLM config") for e in (path.evidence if path else ()))


def test_the_writers_own_inline_config_still_counts(tmp_path: Path) -> None:
    line = ('We serve vLLM with {"method": "eagle3", "model": "org/draft-EAGLE3", '
            '"num_speculative_tokens": 3} and the server crashes after a few requests.')
    path = _path(tmp_path, line)
    assert path is not None and "EagleProposer" in f"{path.worker_class} {path.conditional}"


def test_a_launch_commands_disable_option_is_no_sentence_setting_its_config_apart(tmp_path: Path) -> None:
    """``--disable-log-requests`` / ``--no-enable-prefix-caching`` on the command that holds the
    speculative JSON are options, not a sentence saying the config was disabled or removed."""
    for i, line in enumerate((
        "vllm serve org/Target-8B --disable-log-requests --speculative_config "
        "'{\"method\": \"eagle3\", \"model\": \"org/draft-EAGLE3\", \"num_speculative_tokens\": 3}' -tp 2",
        "python -m vllm.entrypoints.openai.api_server --model org/Target-8B --no-enable-prefix-caching "
        "--speculative-config '{\"method\": \"eagle3\", \"model\": \"org/draft-EAGLE3\"}'",
    )):  # fmt: skip
        (tmp_path / str(i)).mkdir()
        path = _path(tmp_path / str(i), line)
        assert path is not None and path.worker_class == "EagleProposer", line


def test_a_sentence_removing_the_config_still_sets_it_apart_beside_a_command(tmp_path: Path) -> None:
    line = ("Even after removing --speculative-config '{\"method\": \"eagle3\", \"model\": "
            "\"org/draft-EAGLE3\"}' from vllm serve org/Target-8B the server still crashes.")
    path = _path(tmp_path, line)
    assert path is None or path.worker_class != "EagleProposer"
