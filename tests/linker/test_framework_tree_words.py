"""A writer's path into a framework's own source tree names that framework
(``path_framework_words``, ``rules/paths/framework_words.toml``): a thread saved without its
header that never writes "vLLM" or "SGLang" but says where in the engine's code the failure
sits ("the weight loader in python/sglang/srt/models/foo.py", "`vllm/model_executor/...`", a
copied page naming ``tensorrt_llm/_torch/...``). Our own lines; a crash at the end. Near misses:
a path beside another framework's name (two frameworks: none, where the name alone named
vLLM before), a path a port borrowed from, a recipe directory named after an engine."""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import crash_path, run

from spectrace.pipeline import analyse

CRASH = ["Output token throughput: 1520 tok/s, then the crash below.",
         "Traceback (most recent call last):", '  File "bench.py", line 3, in <module>',
         "RuntimeError: step failed"]  # fmt: skip


def _issue(title: str, day: str, *lines: str) -> list[str]:
    """A third-party repository's issue (its tracker names no framework)."""
    return ["acme-labs/serving-stack · issue #41 · open · Python", f"# {title}", "",
            f"someone · description · {day}", *lines, *CRASH]  # fmt: skip


def _framework_found(tmp_path: Path, lines: list[str]) -> list[tuple[str, bool]]:
    log = tmp_path / "thread.txt"
    log.write_text("\n".join(lines))
    (crash,) = [i for i in analyse([str(log)], explain=True).incidents if i.root_cause]
    assert crash.worker_path is not None
    return [(s.found, s.kept) for s in crash.worker_path.trace if s.reader == "framework"]


def test_a_vllm_source_path_in_backticks(tmp_path: Path) -> None:
    """MTP in the title; vLLM only as the path of the file the writer blames (spring 2026)."""
    lines = _issue("[Bug] MTP draft stalls after warmup", "2026-03-14",
                   "The scale lookup in `vllm/model_executor/layers/quantization/fp8.py` assumes a "
                   "scale tensor the draft checkpoint lacks.")  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert (path.value, path.worker_class, path.framework) == ("other", "EagleProposer", "vllm")


def test_an_sglang_repository_path_in_a_sentence(tmp_path: Path) -> None:
    """``python/sglang/...`` (the repository's layout) names SGLang; the era join then asks for
    a reported run, as for the name in words."""
    lines = _issue("[Bug] MTP draft weights fail to load for our checkpoint", "2025-07-03",
                   "The weight loader in python/sglang/srt/models/foo.py expects a transposed "
                   "projection, so loading stops.")  # fmt: skip
    assert _framework_found(tmp_path, lines) == [("sglang", True)]


def test_a_tensorrt_llm_path_on_a_copied_page(tmp_path: Path) -> None:
    """A web copy (title, a dated post line) naming TensorRT-LLM's model file: its MTP
    condition."""
    lines = ["[Bug] MTP with two next-n layers loses accuracy", "ana posted on Mar 14, 2026", "",
             "The fallback in tensorrt_llm/_torch/models/modeling_deepseekv3.py skips the second "
             "layer's norm.", *CRASH]  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert path.framework == "trtllm" and path.conditional and "MTPEagleWorker" in path.conditional, path


def test_a_path_beside_another_frameworks_name_names_none(tmp_path: Path) -> None:
    """SGLang's file and vLLM's name: two frameworks, no verdict (vLLM's EagleProposer before)."""
    lines = _issue("[Bug] MTP draft weights fail to load for our checkpoint", "2025-07-03",
                   "We see the same with vLLM; the weight loader in python/sglang/srt/models/foo.py "
                   "expects a transposed projection.")  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert path.value == "unknown" and not path.conditional, path


def test_a_ported_path_or_a_recipe_directory_names_none(tmp_path: Path) -> None:
    """A port's source and a recipe repository's engine-named folder are no run's framework."""
    for said in ("The scale lookup, ported from `vllm/model_executor/layers/quantization/fp8.py`, "
                 "assumes a scale tensor.",
                 "Our launcher `recipes/vllm/run_mtp.sh` sets two draft tokens."):  # fmt: skip
        path = crash_path(run(tmp_path, _issue("[Bug] MTP draft stalls after warmup", "2026-03-14", said)))
        assert path.value == "unknown" and not path.conditional, (said, path)
