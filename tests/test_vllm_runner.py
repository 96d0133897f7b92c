"""Which of vLLM's model runners drafted: the V1 runner's proposer or the model runner v2's
speculator (issue 11; rules/paths/vllm_runner.toml).

A user who says the run was on MRV2 (the env, vLLM's own "Using V2 Model Runner", the runner
named in words, a frame of ``v1/worker/gpu/``) must never see the V1 class; a release that may
have picked MRV2 by itself, with nothing saying which runner ran, must show both classes; a
release before MRV2 was a default, or a run the text puts on V1, keeps the V1 proposer.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import assert_verdict, crash_path, roots, run
from test_never_wrong_threads import ASCEND_REPO, VLLM_REPO, thread

from spectrace.assemblers.vllm_runner import runner_table, stated_runner
from spectrace.dialects.base import LogLine

_CORE = '  File "/opt/venv/lib/python3.12/site-packages/vllm/v1/engine/core.py", line 880, in run_engine_core'
# a crash whose frames name no runner
ENGINE_CRASH = ["Traceback (most recent call last):", _CORE, "    engine_core.run_busy_loop()",
                "RuntimeError: CUDA error: an illegal memory access was encountered"]  # fmt: skip
MRV2_CRASH = [*ENGINE_CRASH[:3],
              '  File "/opt/venv/lib/python3.12/site-packages/vllm/v1/worker/gpu/model_runner.py", '
              "line 1204, in execute_model", "    hidden = self.model(", ENGINE_CRASH[-1]]  # fmt: skip
V1_RUNNER_CRASH = [*ENGINE_CRASH[:3],
                   '  File "/opt/venv/lib/python3.12/site-packages/vllm/v1/worker/gpu_model_runner.py", '
                   "line 3301, in execute_model", "    hidden = self.model(", ENGINE_CRASH[-1]]  # fmt: skip


def _serve(method: str) -> str:
    return (f"vllm serve acme/Orbit-8B --tensor-parallel-size 2 --speculative-config "
            f"'{{\"method\": \"{method}\", \"num_speculative_tokens\": 2}}'")  # fmt: skip


def _version(release: str) -> str:
    return f"INFO 10-01 09:00:00 [api_server.py:1911] vLLM API server version {release}"


# name -> (thread lines, (value, class) decided or ("unknown", "A|B") a condition naming each)
CASES = {
    "MRV2 by the env on 0.25.0, mtp -> MTPSpeculator": (thread(
        VLLM_REPO, "[Bug]: illegal memory access with MTP", "2026-08-01",
        "Launched with `VLLM_USE_V2_MODEL_RUNNER=1`:", "```", _serve("mtp"), _version("0.25.0"),
        *ENGINE_CRASH, "```",
    ), ("other", "MTPSpeculator")),
    "MRV2 in words, eagle3, no release -> EagleSpeculator (every release)": (thread(
        VLLM_REPO, "[Bug]: EAGLE-3 crash after warmup", "2026-09-20",
        "We run the V2 model runner with an EAGLE-3 draft:", "```", _serve("eagle3"),
        *ENGINE_CRASH, "```",
    ), ("other", "EagleSpeculator")),
    "an MRV2 frame on 0.21.0, mtp -> EagleSpeculator (before MTPSpeculator)": (thread(
        VLLM_REPO, "[Bug]: crash in execute_model", "2026-05-20",
        "```", _serve("mtp"), _version("0.21.0"), *MRV2_CRASH, "```",
    ), ("other", "EagleSpeculator")),
    "MTP in words and MRV2 in words, no release, late 2026 -> both MRV2 classes": (thread(
        "acme/vllm-fork", "GLM MTP3 startup fails at 1M context", "2026-10-20",
        "Reproduced on our vLLM branch with an MTP draft and the model runner v2.", "```", *ENGINE_CRASH,
        "```",
    ), ("unknown", "EagleSpeculator|MTPSpeculator")),
    "0.30.0, eagle3, the runner not said -> EagleProposer or EagleSpeculator": (thread(
        VLLM_REPO, "[Bug]: EAGLE-3 crash", "2026-10-01",
        "```", _serve("eagle3"), _version("0.30.0"), *ENGINE_CRASH, "```",
    ), ("unknown", "EagleProposer|EagleSpeculator")),
    "no release, a day after 0.29 (MRV2 the default for every dense model) -> both classes": (thread(
        VLLM_REPO, "[Bug]: EAGLE-3 crash", "2026-10-20",
        "```", _serve("eagle3"), *ENGINE_CRASH, "```",
    ), ("unknown", "EagleProposer|EagleSpeculator")),
    "no release, a day before 0.25 (MRV2 the default for few models) -> EagleProposer": (thread(
        VLLM_REPO, "[Bug]: EAGLE-3 crash", "2026-05-01",
        "```", _serve("eagle3"), *ENGINE_CRASH, "```",
    ), ("other", "EagleProposer")),
    "a comment suggesting the MRV2 env is no statement of the run": (thread(
        VLLM_REPO, "[Bug]: EAGLE-3 crash", "2026-06-01",
        "```", _serve("eagle3"), _version("0.20.0"), *ENGINE_CRASH, "```", "",
        "maint-x · comment · 2026-06-02",
        "Could you try `VLLM_USE_V2_MODEL_RUNNER=1`? The model runner v2 has a new EAGLE path.",
    ), ("other", "EagleProposer")),
    "another's log line quoted in a comment is not the run's runner": (thread(
        VLLM_REPO, "[Bug]: EAGLE-3 crash", "2026-04-20",
        "```", _serve("eagle3"), _version("0.20.0"), *ENGINE_CRASH, "```", "",
        "maint-x · comment · 2026-04-22",
        "On my box the log says `Using V2 Model Runner` and I cannot reproduce it.",
    ), ("other", "EagleProposer")),
    "a later release said to fix it (MRV2 by default) is not the run's runner": (thread(
        VLLM_REPO, "[Bug]: EAGLE-3 crash", "2026-10-01",
        "Someone said 0.30.0 (model runner v2 by default) fixes it; we cannot upgrade yet.",
        "```", _serve("eagle3"), _version("0.20.0"), *ENGINE_CRASH, "```",
    ), ("other", "EagleProposer")),
    "no release, a day after 0.34 (no V1 runner) -> never the V1 class alone": (thread(
        VLLM_REPO, "[Bug]: EAGLE-3 crash", "2026-11-28",
        "```", _serve("eagle3"), *ENGINE_CRASH, "```",
    ), ("unknown", "EagleProposer|EagleSpeculator")),
    "0.20.1 (MRV2 only by the env), eagle3 -> EagleProposer": (thread(
        VLLM_REPO, "[Bug]: EAGLE-3 crash", "2026-05-01",
        "We have not tried the V2 model runner yet.", "```", _serve("eagle3"), _version("0.20.1"),
        *ENGINE_CRASH, "```",
    ), ("other", "EagleProposer")),
    "0.30.0 with VLLM_USE_V2_MODEL_RUNNER=0 -> EagleProposer": (thread(
        VLLM_REPO, "[Bug]: EAGLE-3 crash", "2026-10-01",
        "```", "export VLLM_USE_V2_MODEL_RUNNER=0", _serve("eagle3"), _version("0.30.0"),
        *ENGINE_CRASH, "```",
    ), ("other", "EagleProposer")),
    "0.30.0 with a frame of the V1 runner -> EagleProposer": (thread(
        VLLM_REPO, "[Bug]: EAGLE-3 crash", "2026-10-01",
        "```", _serve("eagle3"), _version("0.30.0"), *V1_RUNNER_CRASH, "```",
    ), ("other", "EagleProposer")),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_runner_the_text_states_picks_the_class(tmp_path: Path, name: str) -> None:
    lines, (value, classes) = CASES[name]
    path = crash_path(run(tmp_path, lines, name="thread.md"))
    assert_verdict(path, value, classes)


def test_mrv2_stated_never_shows_the_v1_class(tmp_path: Path) -> None:
    """A method named only in words on a run said to be on MRV2: no V1 proposer anywhere."""
    lines = thread(VLLM_REPO, "[Bug]: MTP hang", "2026-09-01",
                   "Setup: VLLM_USE_V2_MODEL_RUNNER=1, MTP with 3 draft tokens.", "```",
                   *ENGINE_CRASH, "```")  # fmt: skip
    (crash,) = roots(run(tmp_path, lines, name="thread.md"))
    path = crash.worker_path
    assert path is not None and "EagleProposer" not in (path.worker_class or "")
    assert "EagleProposer" not in (path.conditional or ""), path


def test_vllm_ascend_mrv2_mtp_is_the_plugin_speculator(tmp_path: Path) -> None:
    lines = thread(ASCEND_REPO, "[Bug]: MTP accuracy drop on v0.26.0rc1", "2026-09-10",
                   "vllm-ascend v0.26.0rc1, `VLLM_USE_V2_MODEL_RUNNER=1 vllm serve acme/Orbit-8B "
                   "--speculative-config '{\"method\": \"mtp\", \"num_speculative_tokens\": 1}'`",
                   "```", *ENGINE_CRASH, "```")  # fmt: skip
    (crash,) = roots(run(tmp_path, lines, name="thread.md"))
    path = crash.worker_path
    assert path is not None and path.worker_class == "AscendMTPSpeculator", path


def _line(text: str) -> LogLine:
    return LogLine(source="t", lineno=1, offset=0, text=text, raw=text, dialect="plain", stream="")


@pytest.mark.parametrize(
    ("text", "runner"),
    [
        ("VLLM_USE_V2_MODEL_RUNNER=1 vllm serve m", "v2"),
        ('"VLLM_USE_V2_MODEL_RUNNER": "0"', "v1"),
        ("INFO [gpu_worker.py:441] Using V2 Model Runner", "v2"),
        ("# [MRV2] Fix DFlash draft KV groups", "v2"),
        ("Model Runner V2 does not yet support LoRA; using the V1 model runner instead.", "v1"),
        ("Should we try the V2 model runner?", None),
        ("It works fine without MRV2.", None),
        ("[RFC]: add support for ngram in model runner v2", None),
    ],
)
def test_what_states_a_runner(text: str, runner: str | None) -> None:
    found = stated_runner([_line(text)])
    assert (found[0] if found else None) == runner


def test_the_table_reads_vllm_s_releases() -> None:
    table = runner_table()
    assert str(table.auto_some) == "0.22.0" and str(table.v1_last) == "0.33.0"
    mtp = sorted((r.cls, str(r.first)) for r in table.speculators if r.method == "mtp")
    assert mtp == [("EagleSpeculator", "0.12.0"), ("MTPSpeculator", "0.23.0")]


V0_CRASH = ["Traceback (most recent call last):",
            '  File "/opt/venv/lib/python3.10/site-packages/vllm/engine/llm_engine.py", line 1386, in step',
            "    output = self.model_executor.execute_model(", ENGINE_CRASH[-1]]  # fmt: skip


@pytest.mark.parametrize(
    ("sentence", "worker"),
    [
        ("Serving with Medusa heads + vllm v0.5.2 on 2x A100, output garbles.", "MedusaWorker"),
        ("n-gram speculative decoding on vLLM 0.5.4 crashes after warmup.", "NGramWorker"),
    ],
)
def test_a_release_before_the_tables_is_v0_s_worker(
    tmp_path: Path, sentence: str, worker: str
) -> None:
    """A release older than every wheel the tables read (0.6.0) had only the V0 engine: a
    family V0 ran then is its worker, not 'both engines'."""
    lines = thread(VLLM_REPO, "[Bug]: garbled output", "2024-07-20", sentence, "```", *V0_CRASH,
                   "```")  # fmt: skip
    (crash,) = roots(run(tmp_path, lines, name="thread.md"))
    path = crash.worker_path
    assert path is not None and (path.value, path.worker_class) == ("other", worker), path


_PROBE = ["Traceback (most recent call last):", '  File "/tmp/probe.py", line 1, in <module>',
          "RuntimeError: probe"]  # fmt: skip


def test_a_pr_adding_a_method_names_no_run_without_one(tmp_path: Path) -> None:
    """'[Model] vLLM v1 supports Medusa' and a review about its code: the words are the code
    the PR adds, no run's; with the PR's own test command the method is that run's."""
    body = ["This PR adds Medusa to the V1 engine.", "",
            "Medusa needs the hidden state of the last accepted token of each request."]  # fmt: skip
    lines = thread(VLLM_REPO, "[Model] vLLM v1 supports Medusa", "2025-05-11", *body, *_PROBE,
                   kind="pull request")  # fmt: skip
    (crash,) = roots(run(tmp_path, lines, name="thread.md"))
    assert crash.worker_path is None or crash.worker_path.worker_class is None, crash.worker_path
    (tmp_path / "b").mkdir()
    tested = thread(VLLM_REPO, "[Model] vLLM v1 supports Medusa", "2025-05-11", *body,
                    "Test: `pytest tests/v1/e2e/test_spec_decode.py -k medusa` (Medusa heads)",
                    *_PROBE, kind="pull request")  # fmt: skip
    (crash,) = roots(run(tmp_path / "b", tested, name="thread.md"))
    assert crash.worker_path is not None and crash.worker_path.family == "MEDUSA", crash.worker_path


_PLAIN = "vllm serve acme/Orbit-8B --tensor-parallel-size 2"


@pytest.mark.parametrize(
    "sentence",
    [
        'Even after removing {"method": "mtp", "num_speculative_tokens": 1} from our config it crashes:',
        'The docs show {"method": "eagle3", "model": "acme/Orbit-8B-EAGLE3", "num_speculative_tokens": 3}'
        " but we have not enabled it; the plain server crashes:",
        'A teammate says {"method": "ngram", "num_speculative_tokens": 4} would hide it; we want no drafts.',
    ],
)
def test_a_sentence_setting_its_inline_config_apart_sets_no_method(
    tmp_path: Path, sentence: str
) -> None:
    lines = thread(VLLM_REPO, "[Bug]: crash at load", "2026-01-10", sentence, "```", _PLAIN, "```",
                   "```", *ENGINE_CRASH, "```")  # fmt: skip
    (crash,) = roots(run(tmp_path, lines, name="thread.md"))
    path = crash.worker_path
    assert path is None or (path.worker_class is None and not path.conditional), path


def test_two_inline_configs_in_one_sentence_name_both_classes(tmp_path: Path) -> None:
    sentence = ('On 0.11.0 we tried {"method": "ngram", "num_speculative_tokens": 4} and '
                '{"method": "eagle3", "model": "acme/Orbit-8B-EAGLE3", "num_speculative_tokens": 3};'
                " only one of them crashes:")  # fmt: skip
    lines = thread(VLLM_REPO, "[Bug]: one config crashes", "2025-10-20", sentence, "```",
                   *ENGINE_CRASH, "```")  # fmt: skip
    (crash,) = roots(run(tmp_path, lines, name="thread.md"))
    path = crash.worker_path
    assert path is not None and path.worker_class is None, path
    assert "NgramProposer" in (path.conditional or "") and "EagleProposer" in (path.conditional or "")


def test_an_inline_config_of_the_run_still_decides(tmp_path: Path) -> None:
    sentence = ('We serve with --speculative-config {"method": "eagle3", "model": '
                '"acme/Orbit-8B-EAGLE3", "num_speculative_tokens": 3} on vLLM 0.11.0 and it crashes:')  # fmt: skip
    lines = thread(VLLM_REPO, "[Bug]: EAGLE-3 crash", "2025-10-20", sentence, "```", *ENGINE_CRASH,
                   "```")  # fmt: skip
    (crash,) = roots(run(tmp_path, lines, name="thread.md"))
    path = crash.worker_path
    assert path is not None and path.worker_class == "EagleProposer", path
