"""SGLang evidence outside a launch line or a dump (issue 11, round 10's misses), in our own
lines: decode counters beside a traceback cut under the scheduler's loop call, the crash's date,
``SGLANG_ENABLE_SPEC_V2`` and the algorithm named in the report's sentences, a pip list row."""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import roots, run

from spectrace.worker_path import WorkerPath

PKG = "/opt/venv/lib/python3.12/site-packages/sglang/srt"
PROBE = ['Traceback (most recent call last):', '  File "/home/u/repro.py", line 3, in <module>',
         "RuntimeError: server went away"]  # fmt: skip


def _cut_loop(day: str, loop: str = "event_loop_normal", accept: bool = True) -> list[str]:
    """A decode line, then a scheduler traceback cut right after the loop call."""
    stats = ", accept len: 3.10, accept rate: 0.78" if accept else ""
    return [
        f"[{day} 10:00:01 TP0] Decode batch, #running-req: 4, #token: 9000, token usage: 0.05"
        f"{stats}, cuda graph: True, gen throughput (token/s): 310.2, #queue-req: 0,",
        f"[{day} 10:00:02 TP0] Scheduler hit an exception: Traceback (most recent call last):",
        f'  File "{PKG}/managers/scheduler.py", line 3001, in run_scheduler_process',
        f"    scheduler.{loop}()",
        '  File "/opt/venv/lib/pyth',
    ]


def _path(tmp_path: Path, lines: list[str]) -> WorkerPath:
    (crash,) = roots(run(tmp_path, lines))
    assert crash.worker_path is not None
    return crash.worker_path


def test_counters_and_the_loop_call_of_an_old_crash_decide_v1(tmp_path: Path) -> None:
    path = _path(tmp_path, ["# EAGLE verify crashes under load", *_cut_loop("2025-11-20")])
    assert (path.value, path.worker_class) == ("v1", "EAGLEWorker")
    loop = path.evidence[0]
    assert loop.text.endswith("scheduler.event_loop_normal()")
    assert "bounds the release to sglang 0.5.7 or older" in loop.reason
    counters = next(e for e in path.evidence if "accept len" in e.reason)
    assert counters.lineno == 2 and "the text names EAGLE (line 1)" in counters.reason


def test_a_recent_crash_through_the_normal_loop_stays_conditional(tmp_path: Path) -> None:
    path = _path(tmp_path, _cut_loop("2026-11-25"))
    assert path.value == "unknown"
    eagle = "v2 (EAGLEWorkerV2) if sglang >= 0.5.13, else v1 (EAGLEWorker)"
    assert path.conditional.startswith(f"{eagle} if the algorithm is EAGLE, EAGLE3 or NEXTN; ")
    assert "NGRAMWorker for NGRAM" in path.conditional  # accept len is every algorithm's


def test_the_overlap_loop_call_decides_v2_whatever_the_date(tmp_path: Path) -> None:
    path = _path(tmp_path, _cut_loop("2025-11-20", loop="event_loop_overlap"))
    assert (path.value, path.worker_class) == ("v2", "EAGLEWorkerV2")


def test_no_counters_no_verdict_from_the_loop(tmp_path: Path) -> None:
    # every server runs one of the loops: without proof of speculation it says nothing
    path = _path(tmp_path, ["EAGLE title", *_cut_loop("2025-11-20", accept=False)])
    assert path.value == "unknown"


def test_counters_of_a_run_the_text_calls_ngram_do_not_name_eagle(tmp_path: Path) -> None:
    path = _path(tmp_path, ["We run ngram speculative decoding.", *_cut_loop("2025-11-20")])
    assert path.worker_class != "EAGLEWorker"


def test_spec_v2_and_the_algorithm_in_sentences_decide_v2(tmp_path: Path) -> None:
    lines = ["# Throughput drops with Eagle3 and the overlap scheduler",
             "We serve an eagle3 draft; the new path is on (we export `SGLANG_ENABLE_SPEC_V2=1`).",
             *PROBE]  # fmt: skip
    path = _path(tmp_path, lines)
    assert (path.value, path.worker_class) == ("v2", "EAGLEWorkerV2")
    first = path.evidence[0]
    assert first.lineno == 2 and first.reason.startswith("named in the text, not a launch command")


def test_spec_v2_off_in_prose_is_a_conditional(tmp_path: Path) -> None:
    lines = ["Using EAGLE3 with SGLANG_ENABLE_SPEC_V2=false, the server dies.", *PROBE]
    path = _path(tmp_path, lines)
    assert path.value == "unknown"
    assert path.conditional == "v2 (EAGLEWorkerV2) if sglang >= 0.5.13, else v1 (EAGLEWorker)"


def test_a_text_comparing_both_settings_names_no_worker(tmp_path: Path) -> None:
    lines = ["EAGLE3 is fine with SGLANG_ENABLE_SPEC_V2=0 but crashes with SGLANG_ENABLE_SPEC_V2=1",
             *PROBE]  # fmt: skip
    assert _path(tmp_path, lines).value == "unknown"


def test_two_families_in_prose_name_no_worker(tmp_path: Path) -> None:
    lines = ["Both EAGLE3 and NGRAM fail when SGLANG_ENABLE_SPEC_V2=1 is exported.", *PROBE]
    assert _path(tmp_path, lines).value == "unknown"


def test_an_algorithm_named_alone_decides_nothing(tmp_path: Path) -> None:
    assert _path(tmp_path, ["Does EAGLE3 work on this GPU?", *PROBE]).value == "unknown"


LAUNCH = ("python3 -m sglang.launch_server --model-path m --speculative-algorithm EAGLE "
          "--speculative-eagle-topk 1 --speculative-num-steps 3")  # fmt: skip


def test_a_pip_list_row_names_the_release(tmp_path: Path) -> None:
    rows = ["Package                 Version        Editable project location",
            "sgl-kernel              0.3.9",
            "sglang                  0.5.1rc3       /src/sglang/python"]  # fmt: skip
    path = _path(tmp_path, [LAUNCH, *rows, *PROBE])
    assert (path.value, path.worker_class) == ("v1", "EAGLEWorker")
    assert "sglang 0.5.1" in path.evidence[0].reason


def test_pip_show_names_the_release(tmp_path: Path) -> None:
    rows = ["Name: sglang", "Version: 0.5.12", "Summary: serving"]
    path = _path(tmp_path, [LAUNCH, *rows, *PROBE])
    assert (path.value, path.worker_class) == ("v2", "EAGLEWorkerV2")
    assert "sglang 0.5.12" in path.evidence[0].reason


def test_a_version_line_of_another_package_is_no_release(tmp_path: Path) -> None:
    rows = ["Name: sgl-kernel", "Version: 0.5.12"]
    path = _path(tmp_path, [LAUNCH, *rows, *PROBE])
    assert path.value == "unknown" and path.conditional


def test_a_speculating_pipeline_parallel_loop_is_the_v2_worker(tmp_path: Path) -> None:
    # pp_size > 1 refuses speculation up to 0.5.18; from 0.5.19 only v2 workers exist
    path = _path(tmp_path, _cut_loop("2026-11-25", loop="event_loop_pp"))
    assert path.conditional.startswith("v2 (EAGLEWorkerV2) if the algorithm is EAGLE, EAGLE3 or")
    assert "StandaloneWorkerV2" in path.conditional and "NGRAM" not in path.conditional
    assert "pipeline-parallel event loop" in path.evidence[0].reason


def test_the_switch_said_in_words_is_a_setting(tmp_path: Path) -> None:
    lines = ["Serving an EAGLE3 draft with SGLANG_ENABLE_SPEC_V2 enabled, the scheduler dies.",
             *PROBE]  # fmt: skip
    path = _path(tmp_path, lines)
    assert (path.value, path.worker_class) == ("v2", "EAGLEWorkerV2")
    off = ["EAGLE3 without SGLANG_ENABLE_SPEC_V2 crashes too.", *PROBE]
    assert _path(tmp_path, off).conditional is not None


def test_a_link_to_the_v1_file_beside_the_switch_does_not_decide_v1(tmp_path: Path) -> None:
    link = "https://github.com/someone/sglang/blob/main/python/sglang/srt/speculative/eagle_worker.py#L900"
    lines = ["With SGLANG_ENABLE_SPEC_V2 on, eagle3 crashes.", f"v1 sets it here: {link}", *PROBE]
    path = _path(tmp_path, lines)
    assert (path.value, path.worker_class) == ("v2", "EAGLEWorkerV2")


def test_an_algorithm_named_beside_a_v1_only_release_decides(tmp_path: Path) -> None:
    lines = ["If you run EAGLE without the step flags the server refuses to start.",
             "Environment: docker sglang v0.4.5.post3-cu125", *PROBE]  # fmt: skip
    path = _path(tmp_path, lines)
    assert (path.value, path.worker_class) == ("v1", "EAGLEWorker")
    assert path.evidence[0].reason.startswith("named in the text, not a launch command: EAGLE")


def test_an_algorithm_named_beside_a_release_takes_its_default_switch(tmp_path: Path) -> None:
    path = _path(tmp_path, ["We run EAGLE3 here.", "sglang==0.5.8", *PROBE])
    assert (path.value, path.worker_class) == ("v1", "EAGLEWorker")
    assert "off by default" in path.evidence[0].reason


NPU = f"{PKG}/hardware_backend/npu/graph_runner/eagle_draft_npu_graph_runner.py"


def _thread_crash(file: str) -> list[str]:
    return ["Exception in thread Thread-3 (_replay):", "Traceback (most recent call last):",
            f'  File "{file}", line 88, in _replay', "    self.graphs[bs].update(inputs)",
            "RuntimeError: graph update failed"]  # fmt: skip


def test_a_family_graph_runner_on_npu_gives_the_era_conditional(tmp_path: Path) -> None:
    path = _path(tmp_path, _thread_crash(NPU))
    assert path.value == "unknown"
    assert path.conditional == "v2 (EAGLEWorkerV2) if sglang >= 0.5.11, else v1 (EAGLEWorker)"
    assert "draft graph runner on the npu backend" in path.evidence[0].reason


def test_a_family_graph_runner_with_a_release_decides(tmp_path: Path) -> None:
    path = _path(tmp_path, ["sglang: 0.5.8", *_thread_crash(NPU)])
    assert (path.value, path.worker_class) == ("v1", "EAGLEWorker")
    path = _path(tmp_path, ["sglang: 0.5.8", "export SGLANG_ENABLE_SPEC_V2=1",
                            *_thread_crash(NPU)])  # fmt: skip
    assert (path.value, path.worker_class) == ("v2", "EAGLEWorkerV2")


def test_an_algorithm_named_as_off_decides_nothing(tmp_path: Path) -> None:
    lines = ["After turning off EAGLE the server is stable again.", "sglang==0.4.5", *PROBE]
    assert _path(tmp_path, lines).value == "unknown"


def test_a_fixed_family_named_beside_its_release_names_its_worker(tmp_path: Path) -> None:
    lines = ["Our DFlash draft dies at the first verify.", "sglang==0.5.14", *PROBE]
    path = _path(tmp_path, lines)
    assert (path.value, path.worker_class) == ("v2", "DFlashWorkerV2")


def test_offline_engine_keywords_are_the_launch_flags(tmp_path: Path) -> None:
    one = (
        'llm = sgl.Engine(model_path="m", speculative_algorithm="EAGLE3", speculative_eagle_topk=1)'
    )
    path = _path(tmp_path, [one, "sglang==0.5.8", *PROBE])
    assert (path.value, path.worker_class) == ("v1", "EAGLEWorker")
    call = ["llm = sgl.Engine(", '    model_path="m",', '    speculative_algorithm="EAGLE",',
            "    speculative_eagle_topk=4,", ")", "sglang==0.5.12"]  # fmt: skip
    path = _path(tmp_path, [*call, *PROBE])
    assert (path.value, path.worker_class) == ("v1", "EAGLEWorker")
    assert "speculative_eagle_topk=4 forces the overlap scheduler off" in path.evidence[0].reason


def test_a_keyword_in_a_vllm_config_is_not_sglang(tmp_path: Path) -> None:
    line = (
        "llm = LLM(model='m', speculative_config={'method': 'eagle3', 'num_speculative_tokens': 3})"
    )
    path = _path(tmp_path, [line, *PROBE])
    assert path.framework != "sglang"


def _warned(tmp_path: Path, warning: str, *more: str) -> WorkerPath:
    head = f"[2026-11-25 10:00:00] WARNING server_args.py:1400: {warning}"
    return _path(tmp_path, [head, *more, *PROBE])


def test_the_later_spec_warnings_name_their_worker(tmp_path: Path) -> None:
    path = _warned(tmp_path, "Spec v2 is enabled for multi-layer EAGLE speculative decoding.")
    assert (path.value, path.worker_class) == ("v2", "MultiLayerEagleWorkerV2")
    path = _warned(tmp_path, "Overlap scheduler is disabled when using DFLASH speculative "
                   "decoding (spec v2 is not supported yet).")  # fmt: skip
    assert (path.value, path.worker_class) == ("v1", "DFlashWorker")
    path = _warned(tmp_path, "Overlap scheduler is disabled when using Frozen-KV MTP "
                   "speculative decoding (spec v2 is not supported yet).")  # fmt: skip
    assert (path.value, path.worker_class) == ("v1", "FrozenKVMTPWorker")


def test_the_deepseek_v4_warning_sets_the_switch_the_launch_reads(tmp_path: Path) -> None:
    launch = "python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE"
    path = _warned(tmp_path, "Spec v2 is enabled for EAGLE speculative decoding.", launch)
    assert (path.value, path.worker_class) == ("v2", "EAGLEWorkerV2")


def test_the_draft_graph_capture_proves_the_eagle_machinery(tmp_path: Path) -> None:
    capture = ("[2025-11-20 09:58:00 TP0] Capture draft cuda graph begin. This can take up to "
               "several minutes. avail mem=20.1 GB")  # fmt: skip
    path = _path(tmp_path, [capture, *_cut_loop("2025-11-20", accept=False)])
    assert (path.value, path.worker_class) == ("v1", "EAGLEWorker")
    shown = next(e for e in path.evidence if e.lineno == 1)
    assert "draft CUDA graph" in shown.reason


def test_a_worker_file_named_in_prose_beats_the_algorithm_named_there(tmp_path: Path) -> None:
    lines = ["We run EAGLE on sglang 0.5.14 and verify fails.",
             "The call chain: `multi_layer_eagle_worker_v2.py:412` -> `spec_utils.py:90`.", *PROBE]  # fmt: skip
    path = _path(tmp_path, lines)
    assert (path.value, path.worker_class) == ("v2", "MultiLayerEagleWorkerV2")
    assert path.conflict is None
