"""A report's other lines name its framework (``path_framework_words``): a thread off the engines'
trackers whose title and family lines name none, but a sentence does ("vLLM's EngineCore dies",
"our rollout servers run on SGLang"). Our own lines, in the shape of such threads; a crash at
the end. Never from a line naming it beside another run or engine, nor from two frameworks."""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import crash_path, run

from spectrace.pipeline import analyse

CRASH = ["Traceback (most recent call last):", '  File "bench.py", line 3, in <module>',
         "RuntimeError: step failed"]  # fmt: skip


def _thread(title: str, day: str, *lines: str) -> list[str]:
    """A third-party repository's issue whose writer shows a run by a result line."""
    return ["acme-labs/serving-stack · issue #41 · open · Python", f"# {title}", "",
            f"someone · description · {day}", *lines,
            "Output token throughput: 1520 tok/s, then the crash below.", *CRASH]  # fmt: skip


def test_a_vllm_sentence_names_the_framework_of_a_titled_family(tmp_path: Path) -> None:
    """EAGLE-3 in the title, vLLM only in a sentence, autumn 2025 (V1's one runner then)."""
    path = crash_path(run(tmp_path, _thread(
        "[Bug] Eagle3 draft crashes with an illegal memory access", "2025-10-01",
        "The crash is in vLLM's EngineCore, during CUDA graph capture of the draft.")))  # fmt: skip
    assert (path.value, path.worker_class, path.framework) == ("other", "EagleProposer", "vllm")


def test_an_sglang_sentence_names_the_framework(tmp_path: Path) -> None:
    """NEXTN in the title of a trainer's issue, SGLang only in a sentence: the framework reader
    finds SGLang (``--explain-path`` shows it; the era join then asks for a reported run)."""
    log = tmp_path / "thread.txt"
    log.write_text("\n".join(_thread("[Bug] NEXTN rollout hangs after 200 steps", "2026-09-10",
                                      "Our rollout servers run on SGLang, 8 nodes of H200.")))  # fmt: skip
    (crash,) = [i for i in analyse([str(log)], explain=True).incidents if i.root_cause]
    assert crash.worker_path is not None
    found = [(s.found, s.kept) for s in crash.worker_path.trace if s.reader == "framework"]
    assert found == [("sglang", True)]


def test_a_framework_named_beside_another_engine_names_none(tmp_path: Path) -> None:
    """'slower than vLLM' compares: the run's framework is not read from it."""
    path = crash_path(run(tmp_path, _thread(
        "[Bug] Eagle3 draft crashes with an illegal memory access", "2025-10-01",
        "Our in-house engine is still slower than vLLM here.")))  # fmt: skip
    assert path.value == "unknown" and not path.conditional, path


def test_two_frameworks_in_the_lines_name_none(tmp_path: Path) -> None:
    """One sentence names vLLM, another SGLang: no one framework is the run's."""
    path = crash_path(run(tmp_path, _thread(
        "[Bug] Eagle3 draft crashes with an illegal memory access", "2025-10-01",
        "We see it with vLLM.", "TensorRT-LLM shows the same crash on this box.")))  # fmt: skip
    assert path.value == "unknown" and not path.conditional, path


def test_a_package_path_names_no_framework(tmp_path: Path) -> None:
    """A lower-case module path (``sglang.srt.models``) is a log's, not a writer's word."""
    path = crash_path(run(tmp_path, _thread(
        "[Bug] Eagle3 draft crashes with an illegal memory access", "2025-10-01",
        "Ignore import error when loading sglang.srt.models.foo: No module named 'bar'")))  # fmt: skip
    assert path.value == "unknown" and not path.conditional, path


def test_an_engines_own_environment_variable_names_its_framework(tmp_path: Path) -> None:
    """A recipe repository's MTP thread that names SGLang only by its switch: the ``SGLANG_``
    prefix is the engine's own (``--explain-path`` shows the framework found)."""
    log = tmp_path / "thread.txt"
    log.write_text("\n".join(_thread("[Bug] MTP recipe variants lose throughput on H200", "2026-01-30",
                                      "The MTP recipes set `SGLANG_ENABLE_SPEC_V2` and tune the draft steps.")))  # fmt: skip
    (crash,) = [i for i in analyse([str(log)], explain=True).incidents if i.root_cause]
    assert crash.worker_path is not None
    found = [(s.found, s.kept) for s in crash.worker_path.trace if s.reader == "framework"]
    assert found == [("sglang", True)]


def test_a_lower_case_package_or_a_prefix_inside_a_name_names_no_framework(tmp_path: Path) -> None:
    """``vllm_flash_attn`` / ``sglang_router`` are packages and ``MY_VLLM_HOME`` a user's own
    variable: none names the run's framework."""
    path = crash_path(run(tmp_path, _thread(
        "[Bug] Eagle3 draft crashes with an illegal memory access", "2025-10-01",
        "It imports vllm_flash_attn and sglang_router; MY_VLLM_HOME points at /data.")))  # fmt: skip
    assert path.value == "unknown" and not path.conditional, path
