"""A frame in a speculative file whose class was renamed between releases names the class of
the run's release, never the newest alone (frame_releases, the tables' ``workers`` spans).

vllm-ascend renamed its proposers at v0.16.0rc1 (``eagle_proposer.py``: ``EagleProposer`` up to
v0.15.0rc1, ``AscendEagleProposer`` after; ``ngram_proposer.py``, ``medusa_proposer.py``,
``suffix_proposer.py`` alike). Crash logs in each copy form people paste, with the release
stated in each way a vllm-ascend run shows it, and none; near misses keep their verdict.
Every line here is written by us in the real shapes (LOG_FORMATS.md); none is pasted."""

from __future__ import annotations

from pathlib import Path

import pytest

from spectrace.assemblers.crash import Frame
from spectrace.frame_releases import RunRelease, frame_class
from spectrace.path_frames import frame_signature
from spectrace.assemblers.vllm_release import parse_release
from tests.real_logs_helpers import assert_verdict, crash_path, run

PKG = "/usr/local/python3.11.13/lib/python3.11/site-packages/vllm_ascend"
WS = "/vllm-workspace/vllm-ascend/vllm_ascend"


def _engine_crash(file: str, function: str, line: int = 412, prefix: str = "(EngineCore_DP0 pid=812) ") -> list[str]:
    head = f"{prefix}ERROR 10-21 09:20:11 [core.py:710] "
    return [
        f"{head}EngineCore encountered a fatal error.",
        f"{head}Traceback (most recent call last):",
        f'{head}  File "/vllm-workspace/vllm/vllm/v1/engine/core.py", line 701, in run_engine_core',
        f"{head}    engine_core.run_busy_loop()",
        f'{head}  File "{WS}/worker/model_runner_v1.py", line 2034, in execute_model',
        f"{head}    self._draft_token_ids = self.propose_draft_token_ids(",
        f'{head}  File "{file}", line {line}, in {function}',
        f"{head}    hidden_states = self.model(",
        f"{head}RuntimeError: The size of tensor a (2048) must match the size of tensor b (1024) "
        "at non-singleton dimension 0",
    ]


def _server(vllm: str, file: str, function: str = "propose") -> list[str]:
    """A bare server log: the plugin's activation, vLLM's release line, the engine's crash."""
    return [
        "INFO 10-21 09:12:03 [__init__.py:216] Platform plugin ascend is activated",
        f"(APIServer pid=700) INFO 10-21 09:12:05 [api_server.py:1839] vLLM API server version {vllm}",
        *_engine_crash(file, function),
    ]


@pytest.mark.parametrize(
    ("vllm", "file", "worker"),
    [
        ("0.11.0", f"{WS}/spec_decode/eagle_proposer.py", "EagleProposer"),
        ("0.13.0", f"{PKG}/spec_decode/eagle_proposer.py", "EagleProposer"),
        ("0.16.0", f"{WS}/spec_decode/eagle_proposer.py", "AscendEagleProposer"),
        ("0.12.0", f"{WS}/spec_decode/ngram_proposer.py", "NgramProposer"),
        ("0.20.2", f"{WS}/spec_decode/ngram_proposer.py", "AscendNgramProposer"),
    ],
)
def test_a_server_log_names_the_class_of_its_release(
    tmp_path: Path, vllm: str, file: str, worker: str
) -> None:
    """vLLM's release line pairs with the plugin's release of the same number."""
    path = crash_path(run(tmp_path, _server(vllm, file)))
    assert (path.value, path.worker_class) == ("other", worker), path
    assert "held" in path.evidence[0].reason and worker in path.evidence[0].reason


@pytest.mark.parametrize(
    ("vllm", "classes"),
    [
        ("0.18.0", "AscendEagleProposer|AscendDraftModelProposer"),
        ("0.23.0", "AscendEagleProposer|AscendDflashProposer|AscendStep3p5MTPProposer"),
    ],
)
def test_a_release_whose_other_proposers_derive_from_the_file_is_a_condition(
    tmp_path: Path, vllm: str, classes: str
) -> None:
    """From v0.17.0rc1 other proposers of the plugin derive from classes eagle_proposer.py
    defines (the draft-model proposer from its base, DFlash and Step-3.5 MTP from
    AscendEagleProposer): a frame there, with no method stated, names them all."""
    path = crash_path(run(tmp_path, _server(vllm, f"{WS}/spec_decode/eagle_proposer.py")))
    assert_verdict(path, "unknown", classes)


def test_a_stated_method_picks_the_class_among_them(tmp_path: Path) -> None:
    """The same frame with the run's method in its start-up line: the method's class."""
    lines = _server("0.23.0", f"{WS}/spec_decode/eagle_proposer.py")
    lines.insert(2, "(APIServer pid=700) INFO 10-21 09:12:05 [utils.py:233] non-default args: "
                    "{'model': '/data/Qwen3-32B', 'speculative_config': {'method': 'eagle3', "
                    "'model': '/data/qwen3-32b-eagle3', 'num_speculative_tokens': 2}}")
    path = crash_path(run(tmp_path, lines))
    assert (path.value, path.worker_class) == ("other", "AscendEagleProposer"), path


def test_an_issue_with_the_plugins_pip_line_names_the_old_class(tmp_path: Path) -> None:
    """An issue copied as a web page: collect_env's package line gives the plugin's release,
    no launch command; the crash goes through ngram_proposer.py."""
    lines = [
        "[Bug]: ngram speculative decoding crashes with long prompts · Issue #4120 · vllm-project/vllm-ascend",
        "Your current environment",
        "vllm_ascend==0.13.0rc1",
        "torch-npu==2.7.1",
        "🐛 Describe the bug",
        "Traceback (most recent call last):",
        f'  File "{PKG}/worker/model_runner_v1.py", line 1900, in propose_draft_token_ids',
        "    draft_token_ids = self.drafter.generate_token_ids(",
        f'  File "{PKG}/spec_decode/ngram_proposer.py", line 61, in generate_token_ids',
        "    drafter_output = self.propose(",
        "IndexError: index 8192 is out of bounds for axis 0 with size 8192",
    ]
    path = crash_path(run(tmp_path, lines))
    assert (path.value, path.worker_class) == ("other", "NgramProposer"), path


def test_a_py_spy_dump_with_an_image_tag_names_the_new_class(tmp_path: Path) -> None:
    """A hung server: the container image's tag gives the plugin's release, a py-spy dump
    shows the Medusa proposer (renamed AscendMedusaProposer at v0.16.0rc1)."""
    lines = [
        "docker run --rm -it quay.io/ascend/vllm-ascend:v0.19.1rc1 bash",
        "The server hangs after a few requests; py-spy dump of the engine core:",
        "Process 812: VLLM::EngineCore",
        "Python v3.11.13 (/usr/local/python3.11.13/bin/python3.11)",
        "",
        'Thread 812 (active): "MainThread"',
        f"    propose (vllm_ascend/spec_decode/medusa_proposer.py:88)",
        f"    propose_draft_token_ids (vllm_ascend/worker/model_runner_v1.py:1932)",
        "",
        "RuntimeError: HCCL watchdog timeout after 1800 s",
    ]
    analysis = run(tmp_path, lines)
    crash = next(i for i in analysis.incidents if i.root_cause)
    path = crash.worker_path
    assert path is not None and (path.value, path.worker_class) == ("other", "AscendMedusaProposer"), path


def test_a_cut_traceback_with_the_plugins_version_line_names_the_old_class(tmp_path: Path) -> None:
    """The paste ends inside the proposer's frame; the report states the plugin's release."""
    lines = [
        "vllm-ascend version: v0.14.0rc1",
        "Traceback (most recent call last):",
        f'  File "{WS}/worker/model_runner_v1.py", line 2034, in execute_model',
        "    self._draft_token_ids = self.propose_draft_token_ids(",
        f'  File "{WS}/spec_decode/medusa_proposer.py", line 70, in pro',
    ]
    path = crash_path(run(tmp_path, lines))
    assert (path.value, path.worker_class) == ("other", "MedusaProposer"), path


def test_a_faulthandler_dump_with_no_release_is_a_condition(tmp_path: Path) -> None:
    """No release and no day: every class the file held, each with its releases."""
    lines = [
        "Fatal Python error: Segmentation fault",
        "",
        "Current thread 0x0000ffff8c1b7480 (most recent call first):",
        f'  File "{PKG}/spec_decode/suffix_proposer.py", line 40 in propose',
        f'  File "{PKG}/worker/model_runner_v1.py", line 1930 in propose_draft_token_ids',
        f'  File "{PKG}/worker/model_runner_v1.py", line 2034 in execute_model',
    ]
    path = crash_path(run(tmp_path, lines))
    assert_verdict(path, "unknown", "SuffixDecodingProposer|AscendSuffixDecodingProposer")
    assert "v0.15.0rc1" in (path.conditional or "") and "v0.16.0rc1" in (path.conditional or "")


def test_a_server_log_with_no_release_is_a_condition(tmp_path: Path) -> None:
    lines = ["INFO 10-21 09:12:03 [__init__.py:216] Platform plugin ascend is activated",
             *_engine_crash(f"{WS}/spec_decode/eagle_proposer.py", "propose")]  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, lines)), "unknown", "EagleProposer|AscendEagleProposer")


def test_a_day_before_the_rename_names_the_old_class(tmp_path: Path) -> None:
    """A thread of November 2025 states no release: every plugin release out by then had
    EagleProposer in eagle_proposer.py (the rename came with v0.16.0rc1, March 2026)."""
    lines = [
        "vllm-project/vllm-ascend · issue #4021 · open · Python",
        "# [Bug]: EAGLE-3 crashes on Atlas 800I A2",
        "wkc · description · 2025-11-20",
        *_engine_crash(f"{WS}/spec_decode/eagle_proposer.py", "propose", prefix=""),
    ]
    path = crash_path(run(tmp_path, lines))
    assert (path.value, path.worker_class) == ("other", "EagleProposer"), path


def test_a_file_with_one_class_all_along_still_decides_without_a_release(tmp_path: Path) -> None:
    """Near miss: mtp_proposer.py held MtpProposer in every release that had it."""
    lines = ["INFO 10-21 09:12:03 [__init__.py:216] Platform plugin ascend is activated",
             *_engine_crash(f"{WS}/spec_decode/mtp_proposer.py", "propose")]  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert (path.value, path.worker_class) == ("other", "MtpProposer"), path


def test_the_resolver_reads_releases_past_the_table_and_outside_the_file() -> None:
    sig = frame_signature(Frame(f"{WS}/spec_decode/ngram_proposer.py", 1, "propose"))
    assert sig is not None and len(sig.workers) == 2
    newer = frame_class(sig, RunRelease(parse_release("0.31.0rc1"), "vllm-ascend 0.31.0rc1", None))
    assert newer is not None and newer.worker == "AscendNgramProposer"  # past the newest read
    before = frame_class(sig, RunRelease(parse_release("0.9.1"), "vllm-ascend 0.9.1", None))
    assert before is not None and before.worker is None and before.condition  # no file then
    one = frame_signature(Frame(f"{WS}/spec_decode/mtp_proposer.py", 1, "propose"))
    assert one is not None and frame_class(one, None) is None  # one class: the row stands


_PROBE = ["Traceback (most recent call last):", '  File "/app/serve.py", line 3, in <module>',
          "RuntimeError: engine died"]


@pytest.mark.parametrize(
    ("said", "value", "classes"),
    [
        ("vllm-ascend version: v0.13.0rc1", "other", "EagleProposer"),
        ("vllm_ascend==0.16.0rc1", "other", "AscendEagleProposer"),
        ("", "unknown", "EagleProposer|AscendEagleProposer"),
    ],
)
def test_a_log_line_the_renamed_file_wrote_is_read_with_the_release(
    tmp_path: Path, said: str, value: str, classes: str
) -> None:
    """vLLM's header names the module that logged (``[eagle_proposer.py:288]``): that file
    ran, and its class is the one of the run's release."""
    logged = [f"(Worker_DP0_TP{r}_EP{r} pid={500 + r}) INFO 04-22 08:46:18 [eagle_proposer.py:288] "
              "Detected MTP model. Sharing target model embedding weights with the draft model."
              for r in range(2)]  # fmt: skip
    lines = [*([said] if said else []), *logged, *_PROBE]
    assert_verdict(crash_path(run(tmp_path, lines)), value, classes)


def test_a_sentence_naming_the_file_is_read_with_the_release(tmp_path: Path) -> None:
    lines = ["vllm-ascend version: v0.14.0rc1",
             "The crash happens in `vllm_ascend/spec_decode/ngram_proposer.py:61` every time.",
             *_PROBE]  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert (path.value, path.worker_class) == ("other", "NgramProposer"), path


SGL = "/sgl-workspace/sglang/python/sglang/srt"


@pytest.mark.parametrize(
    ("lines", "framework", "family"),
    [
        (  # an SGLang scheduler's crash through a worker file newer than the tables
            ["[2026-12-01 10:00:00 TP0] Scheduler hit an exception: Traceback (most recent call last):",
             f'  File "{SGL}/managers/scheduler.py", line 2703, in run_scheduler_process',
             "    scheduler.event_loop_overlap()",
             f'  File "{SGL}/speculative/eagle3_tree_worker_v2.py", line 301, in forward_batch_generation',
             "    tree = self.build_tree(batch)",
             "[2026-12-01 10:00:00 TP0] RuntimeError: CUDA error: an illegal memory access was encountered"],
            "sglang", "EAGLE3",
        ),
        (  # a faulthandler dump through a vLLM proposer module the tables lack
            ["Fatal Python error: Aborted", "",
             "Current thread 0x00007f1d8a1b7480 (most recent call first):",
             '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/spec_decode/mtp_chain.py", line 88 in propose',
             '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/worker/gpu_model_runner.py", line 3120 in propose_draft_token_ids'],
            "vllm", "MTP",
        ),
        (  # a py-spy dump of a TensorRT-LLM executor in a file newer than the listing
            ["Process 4242: python3 -m tensorrt_llm.serve", "Python v3.12.3 (/usr/bin/python3.12)", "",
             'Thread 4242 (active): "MainThread"',
             "    prepare_draft (tensorrt_llm/_torch/speculative/dflash_tree.py:120)",
             "    _executor_loop (tensorrt_llm/_torch/pyexecutor/py_executor.py:1420)",
             "RuntimeError: NCCL watchdog timeout"],
            "trtllm", "DFLASH",
        ),
    ],
)
def test_a_frame_in_a_speculative_file_not_in_the_tables_names_framework_and_family(
    tmp_path: Path, lines: list[str], framework: str, family: str
) -> None:
    crash = next(i for i in run(tmp_path, lines).incidents if i.root_cause)
    path = crash.worker_path
    assert path is not None and path.worker_class is None and not path.conditional, path
    assert (path.framework, path.family) == (framework, family), path
    said = [e.reason for e in path.evidence if "file not in our tables" in e.reason]
    assert said and "it names no class" in said[0]


def test_files_outside_the_speculative_folders_or_imported_name_nothing(tmp_path: Path) -> None:
    """Near misses: a file outside every speculative folder, and a speculative module only
    imported (``<module>``), are no unknown speculative file."""
    lines = ["Traceback (most recent call last):",
             '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/spec_decode/mtp_chain.py", line 3, in <module>',
             "    import fancy_kernels",
             '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/attention/tree_attn.py", line 90, in forward',
             "    out = kernel(q, k, v)",
             "RuntimeError: CUDA error: an illegal memory access was encountered"]  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert not any("file not in our tables" in e.reason for e in path.evidence), path


def _vllm_server(release: str, method: str, draft: str) -> list[str]:
    site = "/usr/local/lib/python3.12/dist-packages/vllm"
    head = "(EngineCore_DP0 pid=812) ERROR 03-21 09:20:11 [core.py:710] "
    return [
        f"(APIServer pid=700) INFO 03-21 09:12:05 [api_server.py:1839] vLLM API server version {release}",
        "(APIServer pid=700) INFO 03-21 09:12:05 [utils.py:233] non-default args: {'model': "
        f"'/data/Qwen3-32B', 'speculative_config': {{'method': '{method}', 'model': '{draft}', "
        "'num_speculative_tokens': 4}}",
        f"{head}EngineCore encountered a fatal error.",
        f"{head}Traceback (most recent call last):",
        f'{head}  File "{site}/v1/worker/gpu_model_runner.py", line 3120, in propose_draft_token_ids',
        f"{head}    draft_token_ids = self.drafter.propose(",
        f'{head}  File "{site}/v1/spec_decode/eagle.py", line 412, in propose',
        f"{head}    hidden_states = self.model(",
        f"{head}RuntimeError: The size of tensor a (2048) must match the size of tensor b (1024) "
        "at non-singleton dimension 0",
    ]


@pytest.mark.parametrize(
    ("release", "method", "draft", "worker"),
    [
        # vLLM 0.15.0-0.19.1: DraftModelProposer runs SpecDecodeBaseProposer's code in eagle.py
        ("0.17.0", "draft_model", "/data/Qwen3-0.6B", "DraftModelProposer"),
        ("0.17.0", "eagle3", "/data/qwen3-32b-eagle3", "EagleProposer"),
        ("0.11.0", "eagle", "/data/eagle-qwen3", "EagleProposer"),  # one class then
    ],
)
def test_vllm_eagle_py_frames_yield_to_the_method_where_other_proposers_run_it(
    tmp_path: Path, release: str, method: str, draft: str, worker: str
) -> None:
    """A draft-model run's crash in eagle.py decided EagleProposer against its own config."""
    path = crash_path(run(tmp_path, _vllm_server(release, method, draft)))
    assert (path.value, path.worker_class, path.conflict) == ("other", worker, None), path


def test_a_vllm_eagle_py_frame_on_a_one_class_release_decides_alone(tmp_path: Path) -> None:
    lines = [ln for ln in _vllm_server("0.11.0", "eagle", "x") if "non-default" not in ln]
    path = crash_path(run(tmp_path, lines))
    assert (path.value, path.worker_class) == ("other", "EagleProposer"), path
    lines = [ln for ln in _vllm_server("0.17.0", "eagle", "x") if "non-default" not in ln]
    assert_verdict(crash_path(run(tmp_path, lines)), "unknown", "EagleProposer|DraftModelProposer")
