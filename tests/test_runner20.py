"""A vLLM run's own runner evidence outranks its method words (issue 11, session 20).

A method word (EAGLE3, MTP) names the V1 runner's proposer (``EagleProposer``) only where the
run went through the V1 runner. The text's own lines can say which runner ran: the module tag
of vLLM's log prefix (``INFO 09-16 05:22:58 [speculator.py:120] ...``: the logger names the file
that wrote the line, and a ``speculator.py`` exists only in the model runner v2's speculator
tree), a frame of V0's engine (``vllm/engine/llm_engine.py ... in __init__``) or of V0's
``vllm/spec_decode/`` package, a module only V0 has (``[multi_step_worker.py:N]``). That runner
decides; the method picks the class within it. A basename several runners' trees hold
(``eagle.py``) decides nothing. Found on sealed rounds 49 (01) and 50 (19); our own lines.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from real_logs_helpers import PROBE, crash_path, probed_path, roots, run

from spectrace.assemblers.vllm_runner import module_runner, runner_table
from spectrace.worker_path import WorkerPath

_RULES = Path(__file__).resolve().parents[1] / "rules" / "paths"


def _shown(path: WorkerPath) -> str:
    return f"{path.worker_class} {path.conditional}"


def _on_mrv2(path: WorkerPath) -> None:
    shown = _shown(path)
    assert "Proposer" not in shown and "Speculator" in shown, path


# ---- the module tag of vLLM's log prefix, in every form vLLM printed it ------------------

@pytest.mark.parametrize("line,runner", [
    ("INFO 09-16 05:22:58 [speculator.py:120] Fused multi-step draft decode is not supported", "v2"),
    ("(EngineCore_DP0 pid=312) INFO 11-02 08:10:11 [speculator.py:88] Capturing draft graphs", "v2"),
    ("(Worker_TP1 pid=4410) WARNING 01-07 22:01:45 [speculator.py:301] draft step padded", "v2"),
    ("INFO 10-02 11:20:03 speculator.py:212] Capturing draft decode graphs", "v2"),
    ("DEBUG 10-02 11:20:03 [v1/worker/gpu/spec_decode/eagle/speculator.py:212] graphs", "v2"),
    ("2026-03-01T10:00:00Z stdout F (APIServer pid=1) INFO 03-01 10:00:00 [speculator.py:9] x", "v2"),
    ("INFO 05-02 08:11:19 [multi_step_worker.py:210] draft steps: 4", "v0"),
    ("[rank0]: WARNING 04-28 17:02:11 [top1_proposer.py:77] proposal lens clipped", "v0"),
    ("INFO 04-28 17:02:11 spec_decode_worker.py:410] init device", "v0"),
])
def test_a_module_only_one_runner_has_states_that_runner(line: str, runner: str) -> None:
    assert module_runner(line) == runner


@pytest.mark.parametrize("line", [
    "INFO 10-02 11:20:03 [eagle.py:212] Loading EAGLE draft",  # V1, MRV2 and a model file
    "INFO 10-02 11:20:03 [utils.py:212] x",
    "INFO 10-02 11:20:03 [mlp_speculator.py:40] loading heads",  # not speculator.py
    "INFO 10-02 11:20:03 [metrics.py:120] SpecDecoding metrics: Mean acceptance length: 2.1",
    "I grepped speculator.py:120 in the source tree for the fused path",  # no log prefix
    "[2026-03-01 10:00:00 TP0] speculator.py:120 draft step",  # not vLLM's prefix
])
def test_an_ambiguous_or_unprefixed_module_states_nothing(line: str) -> None:
    assert module_runner(line) is None


def test_the_module_rows_agree_with_the_frame_tables() -> None:
    """Every file of the frame tables with a listed basename lies in that row's tree, or is
    one the row names as not the runner's drafting code."""
    files = [f["file"] for name in ("vllm.toml", "vllm_ascend.toml", "vllm_plugins.toml")
             for f in tomllib.loads((_RULES / name).read_text("utf-8")).get("frame", [])]
    # V0's engine modules (MQLLMEngine's engine.py): the V0 table's engine frames
    files += [f["file"] for f in tomllib.loads((_RULES / "vllm_v0.toml").read_text("utf-8"))["engine_frame"]]
    rows = runner_table().modules
    assert {r.runner for r in rows} >= {"v0", "v2"}
    for row in rows:
        for base in row.files:
            held = [f for f in files if f.rsplit("/", 1)[-1] == base]
            assert held, base
            assert all(f.startswith(row.trees) or f in row.besides for f in held), (base, held)


_MTP_NOTES = [
    "# Startup log of our MTP-2 server, verbatim excerpts",
    "",
    "Captured with `docker logs` while the server started; kept so you can match your own log.",
    "",
    "```text",
    "INFO 03-11 09:14:02 [model.py:540] Resolved architecture: Qwen3NextForCausalLM",
    "INFO 03-11 09:14:09 [model.py:540] Resolved architecture: Qwen3NextMTP",
    "WARNING 03-11 09:14:09 [speculative.py:1290] Enabling num_speculative_tokens > 1 will run "
    "multiple times of forward on same MTP layer,which may result in lower acceptance rate",
    "WARNING 03-11 09:14:40 [kv_cache_utils.py:1204] Speculative decoding (method=mtp) is enabled"
    " but no KV cache group could be identified as the draft model's",
    "INFO 03-11 09:14:41 [speculator.py:97] Fused multi-step draft decode is not supported by "
    "attention backend(s) TRITON_ATTN; falling back to rebuilding attention metadata",
    "INFO 03-11 09:16:10 [metrics.py:120] SpecDecoding metrics: Mean acceptance length: 2.40, "
    "Accepted: 70 tokens, Drafted: 100 tokens",
    "```",
]


def test_an_mrv2_speculator_tag_beside_mtp_warnings_is_never_the_v1_proposer(tmp_path: Path) -> None:
    path = probed_path(tmp_path, _MTP_NOTES)
    _on_mrv2(path)
    assert "MTPSpeculator" in _shown(path) or path.worker_class == "EagleSpeculator", path


def test_the_tag_with_an_engine_core_prefix_in_a_crash_log(tmp_path: Path) -> None:
    lines = [
        "$ vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config "
        "'{\"method\": \"eagle3\", \"model\": \"org/llama3-eagle3-head\", \"num_speculative_tokens\": 3}'",
        "(EngineCore_DP0 pid=312) INFO 11-02 08:10:11 [speculator.py:88] Capturing draft decode graphs",
        "Traceback (most recent call last):",
        '  File "/usr/lib/python3/site-packages/vllm/v1/engine/core.py", line 700, in run_engine_core',
        "    engine_core = EngineCoreProc(*args, **kwargs)",
        "RuntimeError: CUDA error: an illegal memory access was encountered",
    ]
    path = crash_path(run(tmp_path, lines))
    assert (path.value, path.worker_class) == ("other", "EagleSpeculator"), path


def test_the_bracketless_older_tag_in_a_worker_paste(tmp_path: Path) -> None:
    lines = [
        "Running EAGLE on our vLLM build, the worker prints:",
        "(Worker_TP1 pid=4410) INFO 10-02 11:20:03 speculator.py:212] Capturing draft decode graphs",
        "Traceback (most recent call last):",
        '  File "/srv/app/run.py", line 12, in <module>',
        "    llm.generate(prompts)",
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB",
    ]
    path = crash_path(run(tmp_path, lines))
    _on_mrv2(path)


def test_an_ambiguous_tag_keeps_the_verdict(tmp_path: Path) -> None:
    """``[eagle.py:N]``: V1, MRV2 and a model file share the name; nothing moves."""
    lines = [
        "$ vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config "
        "'{\"method\": \"eagle3\", \"model\": \"org/llama3-eagle3-head\", \"num_speculative_tokens\": 3}'",
        "INFO 11-02 08:10:11 [eagle.py:88] Loading EAGLE draft model",
        "Traceback (most recent call last):",
        '  File "/usr/lib/python3/site-packages/vllm/v1/engine/core.py", line 700, in run_engine_core',
        "    engine_core = EngineCoreProc(*args, **kwargs)",
        "RuntimeError: CUDA error: an illegal memory access was encountered",
    ]
    path = crash_path(run(tmp_path, lines))
    assert (path.value, path.worker_class) == ("other", "EagleProposer"), path


# ---- V0's engine frames and V0-only modules: the V0 worker, whatever the method word -------

def _v0_frames(llm_engine: str, form: str = "traceback") -> list[str]:
    frames = [
        "Traceback (most recent call last):",
        '  File "/home/u/eagle_test.py", line 74, in main',
        "    llm = LLM(",
        '  File "/home/u/.local/lib/python3.10/site-packages/vllm/entrypoints/llm.py", line 247, in __init__',
        "    self.llm_engine = LLMEngine.from_engine_args(",
        f'  File "/home/u/.local/lib/python3.10/site-packages/vllm/{llm_engine}", line 275, in __init__',
        "    self.model_executor = executor_class(vllm_config=vllm_config)",
        "RuntimeError: The size of tensor a (4096) must match the size of tensor b (8192) at non-singleton dimension 1",
    ]
    if form == "bullet":  # the engine frame cut off, V0's worker frame quoted in a summary bullet
        return [*frames[:5], "RuntimeError: dimension mismatch", "", "## Matched patterns", "",
                '- loader - score 2: [rank0]: File "/home/u/.local/lib/python3.10/site-packages/vllm/'
                'spec_decode/spec_decode_worker.py", line 354, in init_device [rank0]: '
                "self.proposer_worker.load_model() ..."]  # fmt: skip
    if form == "py-spy":  # a py-spy dump of the hung engine, V0's worker on the stack
        return ["Thread 4110 (active): \"MainThread\"",
                "    load_model (vllm/worker/model_runner.py:1120)",
                "    init_device (/opt/venv/lib/python3.10/site-packages/vllm/spec_decode/spec_decode_worker.py:354)",
                "    __init__ (/opt/venv/lib/python3.10/site-packages/vllm/executor/uniproc_executor.py:40)",
                *frames]  # fmt: skip
    return frames


@pytest.mark.parametrize("form", ["traceback", "bullet", "py-spy"])
def test_v0_frames_put_an_eagle3_run_on_v0(tmp_path: Path, form: str) -> None:
    lines = ["# [Usage]: dimension mismatch loading Eagle3 weights with vllm", "",
             "vllm version: 0.8.5, running the offline EAGLE3 example:", *_v0_frames("engine/llm_engine.py", form)]
    paths = [i.worker_path for i in roots(run(tmp_path, lines)) if i.worker_path is not None]
    assert paths
    for path in paths:
        shown = _shown(path)
        assert "EagleProposer" not in shown and "Speculator" not in shown, path
        assert "MultiStepWorker" in shown or "SpecDecodeWorker" in shown, path


def test_a_v0_only_module_tag_puts_words_on_v0(tmp_path: Path) -> None:
    lines = [
        "EAGLE draft on vLLM 0.8.4 (offline LLM) dies after the first steps:",
        "INFO 04-28 17:02:11 [multi_step_worker.py:210] draft steps: 4",
        "Traceback (most recent call last):",
        '  File "/srv/bench.py", line 30, in <module>',
        "    out = llm.generate(prompts, params)",
        "IndexError: index 7 is out of bounds for dimension 0 with size 4",
    ]
    path = crash_path(run(tmp_path, lines))
    assert "EagleProposer" not in _shown(path) and "MultiStepWorker" in _shown(path), path


def test_v1_engine_frames_keep_the_v1_proposer(tmp_path: Path) -> None:
    """The near miss: the same report through ``vllm/v1/engine/llm_engine.py`` ran V1."""
    lines = ["# [Usage]: dimension mismatch loading Eagle3 weights with vllm", "",
             "vllm version: 0.8.5, running the offline EAGLE3 example:", *_v0_frames("v1/engine/llm_engine.py")]
    path = crash_path(run(tmp_path, lines))
    assert "MultiStepWorker" not in _shown(path) and "SpecDecodeWorker" not in _shown(path), path


def test_several_methods_on_v0_frames_read_each_on_v0(tmp_path: Path) -> None:
    """EAGLE and MTP (one V1 class) with V0's frames: V0 builds MultiStepWorker for both."""
    lines = ["EAGLE and MTP heads both fail to load on vllm 0.8.4:", *_v0_frames("engine/llm_engine.py")]
    path = crash_path(run(tmp_path, lines))
    assert (path.value, path.worker_class) == ("other", "MultiStepWorker"), path


# ---- MTP written with its draft depth ("MTP-3", "MTP2") is MTP ------------------------------

@pytest.mark.parametrize("text,families", [
    ("an MTP-3 speculative config on a hybrid model", {"MTP"}),
    ("We serve MTP2 on vLLM and it crashes", {"MTP"}),
    ("the engine dies on capture (MTP-3)", {"MTP"}),
    ("Qwen3-MTP-3 checkpoint download", set()),  # inside a model id
    ("MTP-1.5 draft", set()),
    ("should we try MTP-3?", set()),  # a question
])
def test_mtp_with_its_depth_is_a_family_word(text: str, families: set[str]) -> None:
    from spectrace.path_base import family_words

    assert family_words(text) == families


# ---- an MRV2 file bounds the release from below, whatever a fork's version string says ------

def _fork_report(frame: str, words: str, version: str) -> list[str]:
    return [
        f"# Draft-decode graph replay faults with {words} on our branch build",
        "",
        f"With `VLLM_USE_V2_MODEL_RUNNER=1` the engine captures every graph, then dies in warmup ({words}).",
        "",
        "```",
        "Traceback (most recent call last):",
        f'  File ".../vllm/v1/worker/gpu/spec_decode/{frame}", line 537, in _multi_step_decode',
        "    self.graphs[desc].replay()",
        "torch.AcceleratorError: CUDA error: an illegal memory access was encountered",
        "```",
        "",
        f"- Build: `vllm {version}` (our fork's lineage)",
    ]


@pytest.mark.parametrize("frame,words,version,cls", [
    ("autoregressive/speculator.py", "MTP-3", "0.11.2.dev280+g1a2b3c4", "MTPSpeculator"),
    ("autoregressive/speculator.py", "MTP", "0.10.1.dev12+fork", "MTPSpeculator"),
    ("mtp/speculator.py", "MTP2", "0.9.2+internal", "MTPSpeculator"),
])
def test_an_mrv2_file_newer_than_the_printed_release_bounds_it(tmp_path: Path, frame: str, words: str,
                                                                version: str, cls: str) -> None:
    path = crash_path(run(tmp_path, _fork_report(frame, words, version)))
    assert (path.value, path.worker_class) == ("other", cls), path


def test_a_release_inside_the_files_span_still_decides(tmp_path: Path) -> None:
    """The near miss: a printed 0.20.0 with the old MRV2 eagle file keeps that release's class."""
    path = crash_path(run(tmp_path, _fork_report("eagle.py", "MTP", "0.20.0")))
    assert (path.value, path.worker_class) == ("other", "EagleSpeculator"), path


# ---- an MRV2 speculator frame drops the V1 proposer from a condition over several methods ---

@pytest.mark.parametrize("prefix", ["(Worker_PP3 pid=517) ERROR ... ", "", "[rank3]: "])
def test_an_mrv2_frame_keeps_the_v1_proposer_out_of_a_dflash_dspark_condition(tmp_path: Path, prefix: str) -> None:
    lines = [
        "The DSpark drafter shard died at 131k tokens; we run DFlash-family drafting on this box.",
        "```",
        f'{prefix}File "vllm/v1/worker/gpu/spec_decode/dflash/speculator.py", line 674, in prepare_inputs',
        f"{prefix}RuntimeError: Triton Error [CUDA]: an illegal memory access was encountered",
        "```",
    ]
    paths = [i.worker_path for i in roots(run(tmp_path, [*lines, *PROBE])) if i.worker_path is not None]
    assert paths
    for path in paths:
        shown = _shown(path)
        assert "Proposer" not in shown and "DSparkSpeculator" in shown, path


@pytest.mark.parametrize("tag,cls", [("multi_step_worker.py", "MultiStepWorker"), ("eagle.py", "EagleProposer")])
def test_a_v0_module_tag_under_an_llm_call_gives_v0s_worker(tmp_path: Path, tag: str, cls: str) -> None:
    """The config's method read on the runner the log's module shows; an ambiguous module keeps V1."""
    lines = [
        "Running the offline example on our 0.8.5 box:",
        'llm = LLM(model="meta-llama/Llama-3.1-8B-Instruct", speculative_config={"method": "eagle", '
        '"model": "org/eagle-llama3-head", "num_speculative_tokens": 4})',
        f"INFO 05-02 08:11:19 [{tag}:210] draft steps: 4",
        "Traceback (most recent call last):",
        '  File "/srv/run.py", line 12, in <module>',
        "    out = llm.generate(prompts)",
        "RuntimeError: CUDA error: device-side assert triggered",
    ]
    path = crash_path(run(tmp_path, lines))
    assert (path.value, path.worker_class) == ("other", cls), path
