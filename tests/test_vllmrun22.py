"""A vLLM run recognised from the lines its engine processes print, with no launch and no release
(issue 11, session 22).

vLLM's V1 engine core, its multiprocessing executor and its client print their own lines when the
engine dies or dumps a failed step (``Worker proc VllmWorker-N died unexpectedly``, ``EngineCore
encountered a fatal error``, ``EngineCore failed to start``, ``EngineDeadError: EngineCore
encountered an issue``, a ``SchedulerOutput`` dump with ``scheduled_spec_decode_tokens``); V0's
engine has classes of its own a script or a log names (``MQLLMEngineClient``, ``MQLLMEngine``).
No other engine prints them, so they put the run on vLLM and on that engine: a method the text
names then gives that engine's classes (never V0's worker under V1's lines), and a V0 script under
a title about speculative decoding ran ``SpecDecodeWorker``. Lines a sentence above presents as
an example or as what to expect ("you may see lines like:") are no run's. Sealed rounds 58 (04)
and 56 (21) failed on these shapes; every line below is our own.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import PROBE, assert_no_path, roots, run

from spectrace.assemblers.spec_prose import named_algorithms
from spectrace.assemblers.vllm_engine_lines import engine_shown
from spectrace.dialects.base import LogLine
from spectrace.worker_path import WorkerPath


def _line(text: str, n: int = 1) -> LogLine:
    return LogLine(source="t", lineno=n, offset=0, text=text, raw=text, dialect="plain", stream="")


def _engine(*texts: str) -> str | None:
    shown = engine_shown([_line(t, n) for n, t in enumerate(texts, 1)])
    return None if shown is None else shown.row.engine


def probed_path(tmp_path: Path, lines: list[str]) -> WorkerPath:
    """The most decided worker path of the root causes (the text's own crash and a probe), as
    the real-log measurement reads a text."""
    paths = [c.worker_path for c in roots(run(tmp_path, [*lines, "", *PROBE])) if c.worker_path]
    return sorted(paths, key=lambda p: (p.value == "unknown", not p.conditional))[0]


def _said(path: object) -> str:
    return f"{getattr(path, 'worker_class', None) or ''} {getattr(path, 'conditional', None) or ''}"


# ---- which lines show which engine ---------------------------------------------------------

@pytest.mark.parametrize("text", [
    "(EngineCore_DP0 pid=311) ERROR 04-11 09:12:13 [multiproc_executor.py:231] Worker proc "
    "VllmWorker-2 died unexpectedly, shutting down executor.",
    "Worker proc VllmWorker-0 died unexpectedly, shutting down executor.",
    "    EngineCore encountered a fatal error.",
    "ERROR 04-11 09:12:13 [core.py:711] EngineCore encountered a fatal error.",
    "ERROR 03-01 01:02:03 [core.py:390] EngineCore hit an exception: Traceback (most recent call last):",
    "ERROR 05-05 05:05:05 [core.py:520] EngineCore failed to start.",
    "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}",
    "vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace.",
    "    raise EngineDeadError(",
    "- `EngineCore encountered a fatal error.`",
    "scheduled_spec_decode_tokens=[-1, -1, -1]",
    "(VllmWorker TP1 pid=411) ERROR 08-29 02:12:59 [multiproc_executor.py:596] WorkerProc hit an exception.",
    "WorkerProc hit an exception. RuntimeError: CUDA error: an illegal memory access",
    "SchedulerOutput(scheduled_new_reqs=[], total_num_scheduled_tokens=4, "
    "scheduled_spec_decode_tokens={'cmpl-7': [5, 6, 7]}, scheduled_encoder_inputs={})",
])
def test_lines_only_v1_engine_prints(text: str) -> None:
    assert _engine(text) == "V1"


@pytest.mark.parametrize("text", [
    "from vllm.engine.multiprocessing.client import MQLLMEngineClient",
    "async def run(client: MQLLMEngineClient, seed: int):",
    "from tests.mq_llm_engine.utils import RemoteMQLLMEngine",
])
def test_lines_only_v0_engine_has(text: str) -> None:
    assert _engine(text) == "V0"


@pytest.mark.parametrize("text", [
    "Fix EngineDeadError when MTP is on",  # a fix's title names the error, no process printed it
    "we saw Worker proc VllmWorker-0 died unexpectedly in the log",  # a sentence, not the line
    "the fix: when EngineCore encountered a fatal error the worker kept its lock",
    "AsyncEngineDeadError: Background loop has errored already.",  # V0's own error
    "the VllmWorker process died after the warm-up",  # the name in a sentence
    "vllm.engine.multiprocessing.MQEngineDeadError: Engine loop is not running.",  # V0's own error
    "INFO 04-11 09:12:13 [loggers.py:123] Engine 000: Avg prompt throughput: 3.1 tokens/s",
])
def test_lines_that_show_no_engine(text: str) -> None:
    assert _engine(text) is None


def test_both_engines_lines_show_none() -> None:
    assert _engine("Worker proc VllmWorker-0 died unexpectedly",
                   "from vllm.engine.multiprocessing.client import MQLLMEngineClient") is None


@pytest.mark.parametrize("intro", [
    "If a request overflows the KV cache you may see lines like:",
    "For example:",
    "Typical output when the worker faults:",
    "You'll see:",
    "Symptoms:",
])
def test_lines_an_example_sentence_presents_are_no_runs(intro: str) -> None:
    assert _engine(intro, "", "    Worker proc VllmWorker-0 died unexpectedly",
                   "    EngineCore encountered a fatal error.") is None


# ---- V1 engine lines: the run is vLLM's, on V1 (never V0's worker) ---------------------------

_FIELD_REPORT = [  # a deployment repo's issue, copied from the web page
    "TP=2 MTP: server dies under long prompts · Issue #77 · someone/deploy-recipes",
    "",
    "alice opened on Oct 3, 2026",
    "",
    "Our two-node server keeps dying after a few hours. The client only sees a dropped stream.",
    "",
    "```text",
    "CUDA error: an illegal memory access was encountered",
    "Worker proc VllmWorker-1 died unexpectedly, shutting down executor.",
    "EngineCore encountered a fatal error.",
    "```",
]
_NOTES = [  # a notes file, no day, the records' prefixes kept
    "notes: eagle3 box crashed again overnight",
    "",
    "ERROR 08-02 03:11:12 [core.py:711] EngineCore encountered a fatal error.",
    "vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace "
    "(above) for the root cause.",
    "",
    "restarted with the same flags, it ran for 6h after that.",
]
_CHINESE = [  # a Chinese forum post, the lines indented as a code block
    "# 开启 MTP 后长上下文请求导致服务崩溃",
    "",
    "环境：两张 H100，TP=2。日志：",
    "",
    "    Worker proc VllmWorker-0 died unexpectedly, shutting down executor.",
    "    EngineCore encountered a fatal error.",
    "",
    "请问有人遇到过吗？",
]
_JAPANESE = [  # a Japanese report whose server never started
    "MTP を有効にすると起動時に落ちます",
    "",
    "(EngineCore_DP0 pid=918) ERROR 06-30 12:00:01 [core.py:520] EngineCore failed to start.",
    "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}",
]
_INDEX = [  # an index card of another repository's issue, the dump of the failed step in it
    "someuser/serving-notes · issue #12 · open",
    "# ngram speculation crashes with a batch of 64",
    "",
    "Dumping scheduler output for model execution: SchedulerOutput(scheduled_new_reqs=[], "
    "total_num_scheduled_tokens=4, scheduled_spec_decode_tokens={'cmpl-1': [311, 42, 9]}, "
    "scheduled_encoder_inputs={})",
    "RuntimeError: CUDA error: device-side assert triggered",
]


@pytest.mark.parametrize(("lines", "cls"), [
    (_FIELD_REPORT, "EagleProposer"),
    (_NOTES, "EagleProposer"),
    (_CHINESE, "EagleProposer"),
    (_JAPANESE, "EagleProposer"),
    (_INDEX, "NgramProposer"),
])
def test_v1_engine_lines_put_the_run_on_vllm_v1(tmp_path: Path, lines: list[str], cls: str) -> None:
    path = probed_path(tmp_path, lines)
    said = _said(path)
    assert cls in said, path
    assert "MultiStepWorker" not in said and "NGramWorker" not in said, path  # V1's lines: not V0


def test_a_dated_v1_report_keeps_both_runners(tmp_path: Path) -> None:
    """No release: the day allows the V1 runner and MRV2, so a condition over both."""
    path = probed_path(tmp_path, _FIELD_REPORT)
    assert path.conditional and "MTPSpeculator" in path.conditional, path


@pytest.mark.parametrize("lines", [
    [  # a troubleshooting page naming the lines a reader may meet
        "# Troubleshooting MTP deployments",
        "",
        "If a request overflows the KV cache you may see lines like:",
        "",
        "    Worker proc VllmWorker-0 died unexpectedly, shutting down executor.",
        "    EngineCore encountered a fatal error.",
        "",
        "This usually means a CUDA fault on a worker; check dmesg for Xid messages.",
    ],
    [  # a FAQ entry giving them for example
        "## FAQ: the server exits while EAGLE-3 drafts",
        "",
        "For example:",
        "```",
        "Worker proc VllmWorker-3 died unexpectedly, shutting down executor.",
        "```",
        "Lower the batch size and retry.",
    ],
])
def test_example_lines_give_no_path(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)


# ---- V0 engine classes: the run is V0's spec decode ------------------------------------------

_FLATTENED = [  # an issue copied with its body flattened onto one line, its address under the title
    "[Bug]: speculative decoding returns garbage under concurrent requests",
    "https://github.com/vllm-project/vllm/issues/9012",
    "",
    "### Your current environment ### 🐛 Describe the bug I ran speculative decoding and some "
    "parallel requests come back garbled. Repro: ```py import asyncio from vllm import "
    "SamplingParams from vllm.engine.multiprocessing.client import MQLLMEngineClient async def "
    "go(client: MQLLMEngineClient): pass ```",
]
_INDEX_V0 = [  # an index card of vLLM's tracker, the script in a block
    "vllm-project/vllm · issue #9100 · closed",
    "# [Bug]: Speculative decoding output differs between seeds",
    "",
    "```python",
    "from vllm.engine.arg_utils import AsyncEngineArgs",
    "from vllm.engine.multiprocessing.client import MQLLMEngineClient",
    "client = MQLLMEngineClient(ipc_path, engine_config, engine_pid)",
    "```",
]


@pytest.mark.parametrize("lines", [_FLATTENED, _INDEX_V0])
def test_v0_engine_classes_under_a_spec_title_give_spec_decode_worker(tmp_path: Path, lines: list[str]) -> None:
    path = probed_path(tmp_path, lines)
    assert path.worker_class == "SpecDecodeWorker", path


def test_v0_engine_classes_with_ngram_give_its_v0_worker(tmp_path: Path) -> None:
    lines = [*_INDEX_V0[:1], "# [Bug]: Speculative decoding with ngram hangs", *_INDEX_V0[2:]]
    path = probed_path(tmp_path, lines)
    assert path.worker_class == "NGramWorker", path


def test_v0_engine_classes_without_a_spec_title_give_nothing(tmp_path: Path) -> None:
    """The V0 engine alone says nothing of speculation."""
    lines = [*_INDEX_V0[:1], "# [Bug]: output differs between seeds", *_INDEX_V0[2:]]
    assert_no_path(tmp_path, lines)


# ---- a failure told of every release is no method switched off --------------------------------

@pytest.mark.parametrize(("text", "names"), [
    ("[Bug]: 80B FP8 serve crashes at startup; no version serves FP8 MoE + DFlash together", ["DFLASH"]),
    ("no release supports our FP8 target with EAGLE3 yet, every one crashes", ["EAGLE3"]),
    ("No nightly build can run the hybrid model with DFlash (illegal access)", ["DFLASH"]),
    ("no version works with NGRAM on this GPU", ["NGRAM"]),
    # near misses: the method itself negated
    ("we serve it with no EAGLE3 this time", ["OFF"]),
    ("no DFlash in this run, the plain server crashes", ["OFF"]),
    ("the crash stays without EAGLE3", ["OFF"]),
])
def test_no_version_serving_the_method_is_no_method_off(text: str, names: list[str]) -> None:
    assert named_algorithms(text) == names


_NO_VERSION = "[Bug]: 35B FP8 serve crashes at profile_run on nightly; no version serves FP8 MoE + DFlash together"


@pytest.mark.parametrize("head", [
    ["vllm-project/vllm · issue #48001 · open · Python", f"# {_NO_VERSION}", "",
     "someone · comment · 2026-07-16", "Same here with a smaller model."],
    [f"{_NO_VERSION} · Issue #48001 · vllm-project/vllm", "", "someone opened on Jul 16, 2026", "",
     "Same here with a smaller model."],
])
def test_a_title_telling_no_version_serves_the_method_keeps_its_method(tmp_path: Path, head: list[str]) -> None:
    path = probed_path(tmp_path, head)
    assert "DFlashProposer" in _said(path), path


# ---- the model runner v2 named beside the run, in a clause set apart: either runner ------------

def _runner_case(line: str) -> list[str]:
    return ["notes: eagle3 box crashed again overnight", "",
            "ERROR 08-02 03:11:12 [core.py:711] EngineCore encountered a fatal error.", "", line]


@pytest.mark.parametrize("line", [
    "- boots clean; KV cache 1.4M tokens; V2 model runner handles the multimodal wrapper fine.",
    "MRV2 handled the same prompts fine before the crash.",
    "The model runner v2 works here as well, the crash is the same.",
    "| runner | MRV2 worked for the warm-up prompts |",
])
def test_v2_runner_named_apart_keeps_both_runners(tmp_path: Path, line: str) -> None:
    path = probed_path(tmp_path, _runner_case(line))
    assert path.conditional and "EagleProposer" in path.conditional, path
    assert "EagleSpeculator" in path.conditional, path


@pytest.mark.parametrize("line", [
    "We did not use MRV2 for this one.",
    "MRV2 is off (VLLM_USE_V2_MODEL_RUNNER unset).",
    "No model runner v2 here.",
    "Could you try the V2 model runner?",  # a suggestion: the run was not on it
    "Could you try it? The model runner v2 has a new EAGLE path.",  # what MRV2 has: no run's
    "Someone said 0.30.0 (model runner v2 by default) fixes it; we cannot upgrade yet.",
    "Plain text with no runner words at all.",
])
def test_v2_runner_said_off_or_absent_keeps_the_v1_class(tmp_path: Path, line: str) -> None:
    path = probed_path(tmp_path, _runner_case(line))
    assert path.worker_class == "EagleProposer", path


def test_a_tracker_only_run_keeps_every_era_with_the_v2_runner_named(tmp_path: Path) -> None:
    """Placed by its tracker alone: every era's classes (V0's worker too), not the two runners'."""
    lines = ["vllm-project/vllm · issue #30001 · open", "# [Bug]: MTP drafting crashes the server", "",
             "It crashes right after the first request. Should we try MRV2?"]
    path = probed_path(tmp_path, lines)
    assert path.conditional and "MultiStepWorker" in path.conditional, path
    assert "EagleProposer" in path.conditional, path


# ---- a feature request that tells its writer's run failing ------------------------------------

_REQUEST_WEB = [
    "[Feature]: Support FP8 KV cache with EAGLE3 on GB10 · Issue #60001 · vllm-project/vllm",
    "",
    "someone opened on Sep 2, 2026 · feature request",
    "",
    "### 🚀 The feature, motivation and pitch",
    "",
    "FP8 KV cache for EAGLE3 drafting on GB10.",
    "",
    "### Additional context",
    "",
    "We serve the FP8 checkpoint today, but EAGLE3 drafting fails with `AssertionError: kv dtype "
    "mismatch` as soon as the draft loads. Please support this combination.",
]
_REQUEST_INDEX = [
    "vllm-project/vllm · issue #60002 · open · Python",
    "# [Feature]: MTP with FP4 KV cache",
    "",
    "Our MTP run crashed at startup with `KeyError: 'mtp.0.kv_scale'` on main.",
    "",
    "We would like FP4 KV for the MTP head.",
]
_REQUEST_CHINESE = [
    "vllm-project/vllm · issue #60003 · open · Python",
    "# [Feature]: 希望支持 DFlash 与 FP8 目标模型",
    "",
    "目前用 DFlash 启动时报错 ValueError: draft hidden size mismatch。",
    "",
    "希望能支持。",
]


@pytest.mark.parametrize(("lines", "cls"), [
    (_REQUEST_WEB, "EagleProposer"),
    (_REQUEST_INDEX, "EagleProposer"),
    (_REQUEST_CHINESE, "DFlashProposer"),
])
def test_a_feature_request_telling_its_run_failing_is_a_run(tmp_path: Path, lines: list[str], cls: str) -> None:
    path = probed_path(tmp_path, lines)
    assert cls in _said(path), path


@pytest.mark.parametrize("lines", [
    [*_REQUEST_WEB[:10], "It would be great if EAGLE3 drafting could use the FP8 KV cache."],  # a wish
    [*_REQUEST_INDEX[:3], "Today the server fails with OOM on long prompts; please add MTP for FP4 KV."],
    [*_REQUEST_INDEX[:3], "Would the MTP head fail with the FP4 cache? Please support it."],  # a question
])
def test_a_feature_request_without_its_methods_failure_stays_no_run(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)


_WORKER_PREFIX = [  # a notes paste of a worker's records, no launch, no release
    "MTP on 4x H100: worker dies on the first long prompt",
    "",
    "(VllmWorker TP2 pid=5120) ERROR 09-01 10:00:00 [multiproc_executor.py:596] WorkerProc hit an exception.",
    "(VllmWorker TP2 pid=5120) ERROR 09-01 10:00:00 [multiproc_executor.py:596] RuntimeError: CUDA error: "
    "an illegal memory access was encountered",
]


def test_a_v1_worker_prefix_puts_the_run_on_vllm_v1(tmp_path: Path) -> None:
    said = _said(probed_path(tmp_path, _WORKER_PREFIX))
    assert "EagleProposer" in said and "MultiStepWorker" not in said, said


def test_engine_lines_on_another_tracker_name_no_vllm_run(tmp_path: Path) -> None:
    """A vllm-ascend thread prints vLLM's engine lines too: its run is the plugin's, so they
    must not put it on upstream vLLM's classes."""
    lines = ["vllm-project/vllm-ascend · issue #7001 · open · Python", "# [Bug]: MTP crashes on 910B", "",
             "```", "Worker proc VllmWorker-0 died unexpectedly, shutting down executor.",
             "EngineCore encountered a fatal error.", "```"]
    said = _said(probed_path(tmp_path, lines))
    assert "EagleProposer on the V1 model runner" not in said and ("MtpProposer" in said or "Ascend" in said), said
