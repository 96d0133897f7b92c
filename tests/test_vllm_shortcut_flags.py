"""vLLM 0.25's shortcut flags ``--spec-method`` / ``--spec-model`` / ``--spec-tokens`` (issue 11,
session 11): ``EngineArgs.create_speculative_config`` merges them into the speculative config,
so they state the method (or the draft it is inferred from) and put the run on 0.25 or later,
where the model runner v2 may have drafted instead of the V1 runner."""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import assert_verdict, crash_path, run
from test_never_wrong import VLLM_CORE_CRASH, VLLM_REPO, thread

from spectrace.assemblers.vllm_finish import SHORTCUT_FIRST

_EAGLE3 = "vllm serve acme/Orbit-8B --spec-method eagle3 --spec-model acme/orbit-head --spec-tokens 3"
_VERSION = "INFO 09-01 10:00:00 [api_server.py:1911] vLLM API server version 0.26.0"

CASES = {
    "--spec-method eagle3, no release: 0.25+ may run MRV2 -> both classes": (thread(
        VLLM_REPO, "[Bug]: crash after warmup", "2026-08-01", "```", _EAGLE3, *VLLM_CORE_CRASH, "```",
    ), ("unknown", "EagleProposer|EagleSpeculator")),
    "--spec-method eagle3 with the V1 runner forced on 0.26.0 -> EagleProposer": (thread(
        VLLM_REPO, "[Bug]: crash after warmup", "2026-08-01", "```",
        "export VLLM_USE_V2_MODEL_RUNNER=0", _EAGLE3, _VERSION, *VLLM_CORE_CRASH, "```",
    ), ("other", "EagleProposer")),
    "--spec-model naming a DSpark speculators checkpoint -> DSparkSpeculator": (thread(
        VLLM_REPO, "[Bug]: crash after warmup", "2026-08-01", "```",
        "vllm serve acme/Orbit-8B --spec-model acme/Orbit-8B-speculator.dspark --spec-tokens 7",
        *VLLM_CORE_CRASH, "```",
    ), ("other", "DSparkSpeculator")),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_shortcut_flags_state_the_method(tmp_path: Path, name: str) -> None:
    lines, (value, classes) = CASES[name]
    assert_verdict(crash_path(run(tmp_path, lines, name="thread.md")), value, classes)


def test_the_floor_is_the_options_table_s() -> None:
    """The release the flags first parse in, as rules/options/vllm.toml lists it."""
    rows = (Path(__file__).parents[1] / "rules/options/vllm.toml").read_text().splitlines()
    firsts = {r.split("|")[0]: r.split("|")[-2] for r in rows if r.startswith("--spec-")}
    assert {firsts[f] for f in ("--spec-method", "--spec-model", "--spec-tokens")} == {SHORTCUT_FIRST}
