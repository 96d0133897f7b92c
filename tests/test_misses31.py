"""Evidence the linker still missed (session 31, MISSES31).

- A record that a model runner v2 speculator module wrote (``[speculator.py:N]`` behind vLLM's
  prefix, or cut to its tag at the line's start) shows a speculative run on that runner, method
  named or not: MRV2 builds a speculator only for a speculative config. The class its capture
  record names, else the draft variant the text names (DFlash2), else every MRV2 speculator of
  the release as the condition; never a V1 proposer. A method named in words is read on MRV2.
- A program's whole argument list written as a Python list (``subprocess.Popen([...])``, a
  harness's record of the container it started) is the server's command: all of it where the
  server's entry point is among the items, else the block of options holding its first
  speculative option (what an image or a wrapper script passes on to the server).
- A traceback frame written relative to its package root (``sglang/srt/...``) names that
  framework, as a frame under ``/sglang/`` does.
- A vLLM build whose local version label is its builder's own (``0.26.1rc0+acme.r2``, not a
  wheel's ``+cu126`` or a git ``+g1a2b3c4``) may carry a later release's code: a draft variant
  it names is that variant's class if the build holds it, else the method's, as a condition.
"""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import assert_no_path, assert_verdict, crash_path, probed_path, run

from spectrace.assemblers.launch_span import python_items
from spectrace.assemblers.vllm_runner import module_runner
from spectrace.engine_hints import _file_engine

# --- a record of an MRV2 speculator module, no method named ------------------------------

_W = "(Worker_TP0 pid=311) INFO 02-17 11:20:"


def test_a_bare_speculator_tag_is_the_model_runner_v2s() -> None:
    assert module_runner("[speculator.py:64] draft steps rebuild their metadata") == "v2"
    assert module_runner("`[speculator.py:64] draft steps rebuild their metadata") == "v2"
    assert module_runner("see speculator.py:64 for the gate") is None  # a sentence, no record


def test_a_variant_named_by_the_speculator_record_decides_it(tmp_path: Path) -> None:
    lines = [f"{_W}01 [speculator.py:212] DFlash2-only graphs on for batches [1, 2, 4] (target unchanged)",
             f"{_W}09 [gpu_worker.py:402] Model loading took 4.1 GiB and 9.2 seconds"]
    assert_verdict(probed_path(tmp_path, lines), "other", "DFlash2Speculator")


def test_a_capture_record_names_the_class_inside_a_harness_tail(tmp_path: Path) -> None:
    lines = ["== step 3: serve, status=ok ==", "  --- tail of node-2/worker.log ---",
             f"  {_W}30 [gpu_worker.py:410] Available KV cache memory: 12.5 GiB",
             f"  {_W}33 [speculator.py:151] Capturing model for Eagle speculator...",
             f"  {_W}40 [gpu_worker.py:402] Model loading took 4.3 GiB and 9.6 seconds"]
    assert_verdict(probed_path(tmp_path, lines), "other", "EagleSpeculator")


def test_a_record_alone_gives_the_speculators_never_a_v1_proposer(tmp_path: Path) -> None:
    lines = [f"{_W}12 [speculator.py:98] Draft metadata is rebuilt between steps for backend FOO_ATTN"]
    path = probed_path(tmp_path, lines)
    assert_verdict(path, "unknown", "EagleSpeculator|MTPSpeculator|DSparkSpeculator")
    assert "Proposer" not in (path.conditional or ""), path.conditional


def test_a_method_in_words_beside_a_bare_record_is_read_on_the_v2_runner(tmp_path: Path) -> None:
    lines = ["# Notes: MTP with two draft tokens on our box", "",
             "We serve with MTP k=2; throughput rose by a third at one user.", "",
             "```", "[speculator.py:117] Fused draft decode unsupported by backend BAR_ATTN; rebuilding",
             "```"]
    path = probed_path(tmp_path, lines)
    assert_verdict(path, "unknown", "EagleSpeculator|MTPSpeculator")
    assert "Proposer" not in (path.conditional or "") and "Worker" not in (path.conditional or ""), path


def test_records_a_page_tells_the_reader_to_expect_show_no_run(tmp_path: Path) -> None:
    lines = ["## Checking the draft path", "",
             "After start-up you should see a line like:", "",
             f"{_W}33 [speculator.py:151] Capturing model for Eagle speculator...", "",
             "If it is missing, speculation is off."]
    assert_no_path(tmp_path, lines, name="README.md")


# --- a program's argument list as a Python list -------------------------------------------


def test_an_argument_list_gives_the_options_passed_on_to_the_server() -> None:
    line = ('job {"argv": ["docker", "run", "-e", "HF_HOME=/hf", "-v", "/data:/data", "acme/sgl:dev", "bash", '
            '"/srv/start.sh", "org/M", "--speculative-eagle-topk", "1", "--speculative-algorithm", "EAGLE"], "rc": 0}')
    assert python_items(line) == ["--speculative-eagle-topk", "1", "--speculative-algorithm", "EAGLE"]
    flagged = "cmd = ['bash', 'start.sh', '--trust-remote-code', 'org/M', '--speculative-algorithm', 'EAGLE3']"  # repr's quotes
    assert python_items(flagged) == ["--trust-remote-code", "org/M", "--speculative-algorithm", "EAGLE3"]
    entry = 'p = Popen(["python3", "-m", "sglang.launch_server", "--tp", "2", "--speculative-algorithm", "NGRAM"])'
    assert python_items(entry) == ["python3", "-m", "sglang.launch_server", "--tp", "2",
                                   "--speculative-algorithm", "NGRAM"]  # fmt: skip
    assert python_items('cmd = ["docker", "run", "acme/sgl:dev", "--tp", "2"]') is None  # no speculation


def test_a_harness_record_of_its_container_is_the_runs_launch(tmp_path: Path) -> None:
    lines = ['started arm_b {"argv": ["docker", "run", "-d", "--gpus", "all", "acme/sgl:dev", "bash", '
             '"/srv/start.sh", "org/M", "--speculative-num-steps", "2", "--speculative-eagle-topk", "1", '
             '"--speculative-algorithm", "EAGLE"], "id": "c0ffee"}',
             "ready arm_b", "arm_b 1000 256 decode 120.5 accept_length 2.6"]
    assert_verdict(probed_path(tmp_path, lines), "unknown", "EAGLEWorkerV2|EAGLEWorker")


def test_a_popen_list_with_the_entry_point_reads_every_option(tmp_path: Path) -> None:
    lines = ['launching: Popen(["python3", "-m", "sglang.launch_server", "--model-path", "org/M", '
             '"--disable-overlap-schedule", "--speculative-num-steps", "3", "--speculative-algorithm", "EAGLE3"])',
             "[2026-03-02 10:00:01] listening on port 30000"]
    path = probed_path(tmp_path, lines)
    assert_verdict(path, "unknown", "EAGLEWorkerV2|EAGLEWorker")
    assert "0.5.13" in (path.conditional or ""), path.conditional  # the overlap flag was read


def test_a_page_showing_such_a_list_shows_no_run(tmp_path: Path) -> None:
    lines = ["# Starting the server from Python", "",
             "To start the server with EAGLE from a Python harness, pass the arguments as a list:", "",
             '```python', 'p = Popen(["bash", "start.sh", "org/M", "--speculative-algorithm", "EAGLE", '
             '"--speculative-num-steps", "3"])', '```', '', 'Then poll the health endpoint.']
    assert_no_path(tmp_path, lines, name="README.md")


# --- a frame written relative to the package root ------------------------------------------


def test_a_relative_frame_names_its_package() -> None:
    assert _file_engine("sglang/srt/managers/scheduler.py") == "sglang"
    assert _file_engine("./vllm/v1/engine/core.py") == "vllm"
    assert _file_engine("tensorrt_llm/_torch/models/modeling_x.py") == "trtllm"
    assert _file_engine("mysglang/srt/x.py") is None and _file_engine("tools/run.py") is None


def test_a_relative_sglang_frame_puts_a_named_method_on_sglang(tmp_path: Path) -> None:
    lines = ["# Tuning log 7: the arm with the other MoE runner", "",
             "The production line runs DSpark drafting with six verify tokens per step.",
             "Our baseline arm measured 31.8 tok/s; arm C crashed while loading the weights:", "",
             "```", "Traceback (most recent call last):",
             '  File "sglang/srt/layers/quantization/w8a8_int8.py", line 412, in process_weights',
             "    layer.w13 = shuffle(layer.w13)",  # a file no path table holds: its folder names SGLang
             "ValueError: expert weights do not fit this runner's layout", "```"]
    path = crash_path(run(tmp_path, lines, name="notes.md"))
    assert (path.value, path.worker_class) == ("v2", "DSparkWorkerV2"), path


# --- a patched build's own local label ------------------------------------------------------


def _dflash2_report(version: str) -> list[str]:
    return ["## DFlash2 drafter on our GLM build: long prompts stall",
            f"(APIServer pid=1) INFO 05-02 09:10:11 [api_server.py:1990] vLLM API server version {version}",
            "(APIServer pid=1) INFO 05-02 09:10:11 [utils.py:300] non-default args: {'model': 'acme/Big-MoE', "
            "'speculative_config': {'num_speculative_tokens': 6, 'model': 'acme/Big-MoE-DFlash2', 'method': 'dflash'}}"]


def test_a_patched_build_may_carry_the_variants_class(tmp_path: Path) -> None:
    path = probed_path(tmp_path, _dflash2_report("0.26.1rc0+acme.moe.r2"))
    assert path.worker_class is None, path
    assert "DFlash2Speculator" in (path.conditional or "") and "DFlash" in (path.conditional or "").replace(
        "DFlash2Speculator", ""), path.conditional


def test_a_wheels_label_is_no_patched_build(tmp_path: Path) -> None:
    for version in ("0.26.1+cu126", "0.26.1rc0+rocm6.4", "0.26.1"):
        (tmp_path / version).mkdir()
        path = probed_path(tmp_path / version, _dflash2_report(version))
        assert path.worker_class is None and not path.conditional, (version, path)
