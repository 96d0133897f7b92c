"""Worker-path linking: frames first, then the dump, warnings and launch lines, with evidence."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from spectrace.assemblers.config import ConfigCollector
from spectrace.assemblers.crash import ChainLink, Frame
from spectrace.assemblers.load import parse_load_line
from spectrace.assemblers.run_config import RunConfig
from spectrace.dialects.base import LogLine
from spectrace.incidents import Incident, Occurrence
from spectrace.linker import global_worker_path, link

SITE = "/usr/local/lib/python3.10/dist-packages/sglang/srt"
SEED = "The size of tensor a (160) must match the size of tensor b (2) at non-singleton dimension 0"
DUMP = (
    "server_args=ServerArgs(model_path='/models/moe-large', tokenizer_path='/models/moe-large', "
    "tp_size=8, cuda_graph_max_bs=48, speculative_algorithm='EAGLE3', "
    "speculative_draft_model_path='/models/eagle3-draft', speculative_num_steps=5, "
    "speculative_eagle_topk=4, speculative_num_draft_tokens=16, enable_multi_layer_eagle=False, "
    "disable_overlap_schedule=True, enable_mixed_chunk=False)"
)
WARN = (
    "Overlap scheduler is disabled when spec v2 is off or using unsupported speculative algorithm. "
    "You can set env SGLANG_ENABLE_SPEC_V2=True to enable the experimental overlap scheduler. "
)
DECODE = (
    "Decode batch, #running-req: 10, #token: 9000, token usage: 0.05, accept len: 2.40, "
    "accept rate: 0.48, cuda graph: True, gen throughput (token/s): 1500.00, #queue-req: 0"
)
V1_FRAMES = (
    Frame(f"{SITE}/managers/scheduler.py", 2573, "run_scheduler_process"),
    Frame(f"{SITE}/managers/scheduler.py", 1032, "event_loop_normal"),
    Frame(f"{SITE}/speculative/eagle_worker.py", 287, "forward_batch_generation"),
    Frame(f"{SITE}/model_executor/cuda_graph_runner.py", 812, "replay_prepare"),
)
V2_FRAMES = (
    Frame(f"{SITE}/managers/scheduler.py", 1080, "event_loop_overlap"),
    Frame(f"{SITE}/speculative/eagle_worker_v2.py", 640, "forward_batch_generation"),
)


def line(text: str, lineno: int, header: str = "") -> LogLine:
    return LogLine("run.log", lineno, 0, text, header + text, "sglang", "TP0", "TP0", headed=True)


def run_config(*texts: str) -> RunConfig:
    collector = ConfigCollector()
    for i, text in enumerate(texts, start=1):
        collector.feed(line(text, i))
    return collector.result()


def incident(
    frames: tuple[Frame, ...],
    message: str = SEED,
    chain: tuple[ChainLink, ...] = (),
    root_cause: bool = True,
) -> Incident:
    first = Occurrence("run.log", 120, 0, "TP7", "TP7", None, None)
    return Incident(
        "I1", "0123456789abcdef", "traceback", "RuntimeError", message, "shape_mismatch",
        "error", root_cause, None, ["TP7"], "TP7", first, [first], frames, chain, (),
    )  # fmt: skip


def test_seed_story_v1_with_evidence_flags_and_arithmetic() -> None:
    config = run_config(WARN, DUMP)
    load = parse_load_line(line(DECODE, 40, "[2026-02-27 21:00:16 TP0] "))
    inc = incident(V1_FRAMES)
    link(inc, config, load)
    path = inc.worker_path
    assert path is not None
    assert (path.value, path.worker_class, path.conflict) == ("v1", "EAGLEWorker", None)
    reasons = [(e.source, e.lineno, e.points_to) for e in path.evidence]
    assert reasons[:4] == [
        ("run.log", 120, "v1"),  # eagle_worker.py frame (innermost voter first)
        ("run.log", 120, "v1"),  # event_loop_normal
        ("run.log", 2, "v1"),  # the dump
        ("run.log", 1, "v1"),  # the 0.5.7-0.5.10 warning
    ]
    assert path.evidence[0].text.endswith('eagle_worker.py", line 287, in forward_batch_generation')
    assert path.evidence[-1].points_to is None  # cuda_graph_runner.py only informs
    assert {k: (v.value, v.lineno) for k, v in inc.flags.items()} == {
        "speculative_algorithm": ("EAGLE3", 2),
        "disable_overlap_schedule": (True, 2),
        "SGLANG_ENABLE_SPEC_V2": (False, 1),
        "speculative_eagle_topk": (4, 2),
        "speculative_num_steps": (5, 2),
        "speculative_num_draft_tokens": (16, 2),
        "enable_multi_layer_eagle": (False, 2),
        "tp_size": (8, 2),
        "cuda_graph_max_bs": (48, 2),
    }
    assert inc.load is load
    assert inc.shape_mismatch is not None and inc.shape_mismatch.numbers["a"] == 160
    assert inc.explanation is not None and inc.explanation.explained
    assert inc.explanation.terms["160"].startswith("10 running requests × 16 draft tokens")
    assert inc.hints[0].startswith("This crash ran on the v1 worker (EAGLEWorker, eagle_worker.py)")
    assert inc.hints[1].startswith("v1 couples speculation into batch preparation")


def test_frames_against_the_dump_is_a_conflict() -> None:
    inc = incident(V2_FRAMES)
    link(inc, run_config("sglang: 0.5.9", DUMP), None)  # 0.5.9: the dump's overlap-off is v1
    path = inc.worker_path
    assert path is not None
    assert (path.value, path.worker_class) == ("v2", "EAGLEWorkerV2")
    assert path.conflict == (
        "Traceback frames point to v2 (EAGLEWorkerV2) but the server_args dump at run.log:2 "
        "points to v1 (EAGLEWorker): the log may hold more than one run, or the worker code was "
        "patched or moved"
    )
    assert any(h.startswith("Worker path evidence disagrees.") for h in inc.hints)


def test_frames_alone_decide_without_any_config() -> None:
    inc = incident(V2_FRAMES, message="CUDA error: an illegal memory access was encountered")
    link(inc, RunConfig(), None)
    assert inc.worker_path is not None and inc.worker_path.value == "v2"
    assert inc.shape_mismatch is None and inc.explanation is None and inc.flags == {}


def test_ngram_event_loop_is_not_read_as_eagle_v1() -> None:
    frames = (
        Frame(f"{SITE}/managers/scheduler.py", 1032, "event_loop_normal"),
        Frame(f"{SITE}/speculative/ngram_worker.py", 210, "forward_batch_generation"),
    )
    config = run_config(DUMP.replace("'EAGLE3'", "'NGRAM'"))
    inc = incident(
        frames, message="IndexError: index 40 is out of bounds for dimension 0 with size 40"
    )
    link(inc, config, None)
    path = inc.worker_path
    assert path is not None
    assert (path.value, path.worker_class, path.conflict) == ("other", "NGRAMWorker", None)


def test_vllm_eagle_proposer() -> None:
    frames = (
        Frame("/opt/venv/lib/python3.12/site-packages/vllm/v1/worker/gpu_model_runner.py", 1890,
              "propose_draft_token_ids"),
        Frame("/opt/venv/lib/python3.12/site-packages/vllm/v1/spec_decode/eagle.py", 233, "propose"),
    )  # fmt: skip
    config = run_config(
        "Initializing a V1 LLM engine (v0.11.0) with config: model='m', "
        "speculative_config=SpeculativeConfig(method='eagle3', model='d', num_spec_tokens=3), "
        "tensor_parallel_size=1"
    )
    inc = incident(frames)
    link(inc, config, None)
    assert inc.worker_path is not None
    assert (inc.worker_path.value, inc.worker_path.worker_class) == ("other", "EagleProposer")
    assert inc.flags["speculative_config.num_spec_tokens"].value == 3


def test_no_evidence_is_unknown() -> None:
    inc = incident((Frame("/app/serve.py", 10, "main"),))
    link(inc, RunConfig(), None)
    assert inc.worker_path is not None
    assert (inc.worker_path.value, inc.worker_path.worker_class) == ("unknown", None)
    assert inc.worker_path.evidence == ()


def test_speculation_off_run_ran_the_plain_worker() -> None:
    """speculative_algorithm=None decides: no draft worker ran, TpModelWorker did."""
    config = run_config("server_args=ServerArgs(model_path='/m', speculative_algorithm=None)")
    inc = incident(V1_FRAMES[:2])
    link(inc, config, None)
    assert inc.worker_path is not None
    assert (inc.worker_path.value, inc.worker_path.worker_class) == ("none", "TpModelWorker")
    assert inc.worker_path.missing == () and inc.hints == []


def test_a_speculative_worker_frame_outweighs_a_dump_that_says_off() -> None:
    """A frame in eagle_worker.py proves the run speculated, whatever the dump shows."""
    config = run_config("server_args=ServerArgs(model_path='/m', speculative_algorithm=None)")
    inc = incident(V1_FRAMES)
    link(inc, config, None)
    assert inc.worker_path is not None and inc.worker_path.value == "v1"
    assert inc.worker_path.conflict is not None and "none" in inc.worker_path.conflict


def test_shape_found_in_a_chained_exception() -> None:
    cause = ChainLink("RuntimeError", SEED, V1_FRAMES, "context")
    final = ChainLink("Exception", "Capture cuda graph failed", V1_FRAMES[:2], None)
    inc = incident(V1_FRAMES[:2], message="Capture cuda graph failed", chain=(cause, final))
    link(inc, run_config(DUMP), parse_load_line(line(DECODE, 40)))
    assert inc.shape_mismatch is not None and inc.shape_mismatch.numbers["b"] == 2
    assert inc.explanation is not None and inc.explanation.explained


def test_linking_twice_does_not_repeat_hints() -> None:
    inc = incident(V1_FRAMES)
    config = run_config(DUMP)
    link(inc, config, None)
    link(inc, config, None)
    assert len(inc.hints) == len(set(inc.hints)) == 1


def test_dp_attention_flags_are_decisive_only_while_dp_is_on() -> None:
    defaults = DUMP.replace(
        "tp_size=8,", "tp_size=8, dp_size=1, ep_size=1, enable_dp_attention=False,"
    )
    plain = incident(V1_FRAMES)
    link(plain, run_config(defaults), None)
    assert not {"dp_size", "ep_size", "enable_dp_attention"} & plain.flags.keys()
    dp_dump = DUMP.replace(
        "tp_size=8,",
        "tp_size=8, dp_size=2, ep_size=8, enable_dp_attention=True, moe_dense_tp_size=None,",
    )
    dp = incident(V1_FRAMES)
    link(dp, run_config(dp_dump), None)
    names = list(dp.flags)
    assert names[names.index("tp_size") :][:4] == [
        "tp_size",
        "enable_dp_attention",
        "dp_size",
        "ep_size",
    ]
    assert (dp.flags["dp_size"].value, dp.flags["ep_size"].value) == (2, 8)
    assert "moe_dense_tp_size" not in dp.flags  # None: unset, says nothing


def test_dp_flags_from_the_launch_command_aliases() -> None:
    inc = incident(V1_FRAMES)
    command = (
        "python -m sglang.launch_server --model-path /m --tp 4 --dp 2 --enable-dp-attention --ep 4"
    )
    link(inc, run_config(command), None)
    assert {k: (v.value, v.origin) for k, v in inc.flags.items() if k != "tp_size"} == {
        "enable_dp_attention": (True, "launch_command"),
        "dp_size": (2, "launch_command"),
        "ep_size": (4, "launch_command"),
    }


def test_global_worker_path_from_config_alone() -> None:
    assert global_worker_path(run_config(WARN)).value == "v1"
    v2 = global_worker_path(
        run_config(
            "Spec v2 is enabled for eagle/eagle3 speculative decoding and overlap schedule is "
            "turned on.",
            DUMP.replace("disable_overlap_schedule=True", "disable_overlap_schedule=False"),
        )
    )
    assert (v2.value, v2.worker_class, v2.conflict) == ("v2", "EAGLEWorkerV2", None)
    assert [e.lineno for e in v2.evidence] == [2, 1]  # dump first, then the warning
    assert global_worker_path(RunConfig()).value == "unknown"


def test_late_era_dump_with_overlap_off_is_still_v2() -> None:
    config = run_config(
        "Non-overlap (synchronous) spec v2 is used for eagle/eagle3/standalone speculative decoding.",
        DUMP,
    )
    path = global_worker_path(config)
    assert (path.value, path.worker_class, path.conflict) == ("v2", "EAGLEWorkerV2", None)
    inc = incident(V1_FRAMES)
    link(inc, config, None)
    assert inc.worker_path is not None and inc.worker_path.conflict is not None
    assert "points to v2 (EAGLEWorkerV2)" in inc.worker_path.conflict
    synchronous = incident(V1_FRAMES[:2])  # event_loop_normal alone drives v2 in 0.5.13+
    link(synchronous, config, None)
    assert synchronous.worker_path is not None
    assert (synchronous.worker_path.value, synchronous.worker_path.conflict) == ("v2", None)


def test_config_only_path_hint_and_no_hint_for_collateral() -> None:
    config = run_config(WARN, DUMP)
    main = incident(
        (), message="Received sigquit from a child process. It usually means the child failed."
    )
    link(main, config, None)
    assert main.hints[0].startswith("This run was on the v1 worker (EAGLEWorker")
    assert len(main.hints) == 1  # no shape, no coupling hint
    collateral = incident((), message="NCCL watchdog timeout", root_cause=False)
    link(collateral, config, None)
    assert collateral.worker_path is not None and collateral.worker_path.value == "v1"
    assert collateral.hints == []


def test_v2_with_topk_above_one_gets_a_hint() -> None:
    inc = incident(
        V2_FRAMES, message="RuntimeError: shape '[4, -1]' is invalid for input of size 6"
    )
    link(
        inc,
        run_config(DUMP.replace("disable_overlap_schedule=True", "disable_overlap_schedule=False")),
        None,
    )
    assert inc.worker_path is not None and inc.worker_path.value == "v2"
    assert inc.hints == [
        "This run is on the v2 worker (EAGLEWorkerV2) with speculative_eagle_topk=4, but spec v2 "
        "supports topk=1 only; an auto-chosen topk > 1 is not refused at start-up and crashes "
        "later (e.g. in _draft_extend_for_decode)."
    ]


def test_frames_that_disagree_with_each_other() -> None:
    inc = incident((V1_FRAMES[2], V2_FRAMES[1]), message="boom")
    link(inc, RunConfig(), None)
    path = inc.worker_path
    assert path is not None and path.value == "v2"  # the innermost worker frame
    assert path.conflict is not None and path.conflict.startswith(
        'Traceback frames disagree: File "/usr/local/lib/python3.10/dist-packages/sglang/srt/'
        'speculative/eagle_worker_v2.py", line 640'
    )


def test_bundled_engine_frames() -> None:
    """The bundled engine is laid out as SGLang's: its frames read by SGLang's rows alone."""
    frames = (
        Frame("/work/main/engine/managers/scheduler.py", 78, "event_loop_normal"),
        Frame("/work/main/engine/speculative/eagle_worker.py", 18, "forward_batch_generation"),
        Frame("/work/main/engine/speculative/eagle_info.py", 67, "prepare_for_verify"),
    )
    inc = incident(frames)
    link(inc, RunConfig(), None)
    path = inc.worker_path
    assert path is not None
    assert (path.value, path.worker_class, path.conflict) == ("v1", "EAGLEWorker", None)
    # the worker's own file decides; the normal loop alone would be v1 only up to 0.5.12
    assert [e.points_to for e in path.evidence] == ["v1", None, None]


V2_DUMP = DUMP.replace("disable_overlap_schedule=True", "disable_overlap_schedule=False").replace(
    "speculative_eagle_topk=4, speculative_num_draft_tokens=16",
    "speculative_eagle_topk=1, speculative_num_draft_tokens=6",
)
V2_WARN = (
    "Spec v2 is enabled for eagle/eagle3 speculative decoding and overlap schedule is turned on."
)


def restarted_log() -> RunConfig:
    """One file, two runs: v1 (lines 1-2, crash at 120) then v2 after a restart (lines 300-301)."""
    collector = ConfigCollector()
    for lineno, text in ((1, WARN), (2, DUMP), (3, "Capture cuda graph bs [1, 2, 4, 8, 16]"),
                         (300, V2_WARN), (301, V2_DUMP)):  # fmt: skip
        collector.feed(line(text, lineno))
    return collector.result()


def test_each_crash_is_linked_to_the_run_it_happened_in() -> None:
    config = restarted_log()
    assert [run.start for run in config.runs] == [("run.log", 2), ("run.log", 301)]
    first = incident(V1_FRAMES)
    link(first, config, None)
    assert first.worker_path is not None
    assert (first.worker_path.value, first.worker_path.conflict) == ("v1", None)
    assert first.flags["cuda_graph_bs"].lineno == 3
    later = incident(V2_FRAMES)
    later.first_seen = Occurrence("run.log", 400, 0, "TP7", "TP7", None, None)
    link(later, config, None)
    assert later.worker_path is not None
    assert (later.worker_path.value, later.worker_path.conflict) == ("v2", None)
    assert {e.lineno for e in later.worker_path.evidence if e.points_to} == {400, 300, 301}
    assert later.flags["speculative_eagle_topk"].value == 1
    assert "cuda_graph_bs" not in later.flags  # the second run never logged its graph sizes


def test_whole_log_view_reports_the_runs_disagreeing() -> None:
    path = global_worker_path(restarted_log())
    assert path.value == "v2"  # the last dump is the strongest config fact
    assert path.conflict is not None and "more than one run" in path.conflict


def test_runs_in_separate_files() -> None:
    collector = ConfigCollector()
    collector.feed(LogLine("a.log", 5, 0, DUMP, DUMP, "sglang", ""))
    collector.feed(LogLine("b.log", 5, 0, V2_DUMP, V2_DUMP, "sglang", ""))
    config = collector.result()
    inc = incident(V2_FRAMES)
    inc.first_seen = Occurrence("b.log", 90, 0, "TP0", "TP0", None, None)
    link(inc, config, None)
    assert inc.worker_path is not None and inc.worker_path.conflict is None
    elsewhere = incident(V1_FRAMES)
    elsewhere.first_seen = Occurrence("c.log", 1, 0, "TP0", "TP0", None, None)
    link(elsewhere, config, None)  # no start-up in c.log, no time: no run's flags are taken
    assert elsewhere.worker_path is not None and elsewhere.worker_path.conflict is None
    assert (elsewhere.worker_path.value, elsewhere.flags) == ("v1", {})  # its own frames


@settings(max_examples=100, deadline=None)
@given(
    files=st.lists(
        st.sampled_from(
            [f.file for f in V1_FRAMES + V2_FRAMES]
            + [
                "/x/ngram_worker.py",
                "/x/vllm/v1/spec_decode/eagle.py",
                "",
                "\\\\win\\eagle_worker.py",
            ]
        ),
        max_size=6,
    ),
    message=st.text(max_size=120),
    with_config=st.booleans(),
)
def test_any_incident_links_without_error(
    files: list[str], message: str, with_config: bool
) -> None:
    frames = tuple(Frame(f, None, "event_loop_normal") for f in files)
    inc = incident(frames, message=message)
    link(inc, run_config(WARN, DUMP) if with_config else RunConfig(), None)
    path = inc.worker_path
    assert path is not None and path.value in ("v1", "v2", "other", "unknown")
    assert (path.conflict is None) or path.value != "unknown"


def test_an_event_loop_alone_does_not_make_a_run_speculative() -> None:
    """Every sglang server runs event_loop_normal or event_loop_overlap, speculative or not."""
    loop_only = (
        Frame(f"{SITE}/managers/scheduler.py", 2612, "run_scheduler_process"),
        Frame(f"{SITE}/managers/scheduler.py", 860, "event_loop_overlap"),
        Frame(f"{SITE}/mem_cache/radix_cache.py", 238, "cache_finished_req"),
    )
    inc = incident(loop_only, message="KeyError: 17")
    link(inc, RunConfig(), None)
    assert inc.worker_path is not None and inc.worker_path.value == "unknown"
    spec = loop_only[:2] + (Frame(f"{SITE}/speculative/eagle_utils.py", 210, "merge_batch"),)
    inc = incident(spec, message="KeyError: 17")
    link(inc, RunConfig(), None)  # a speculative frame shows the run speculates
    assert inc.worker_path is not None and inc.worker_path.worker_class == "EAGLEWorkerV2"
    inc = incident(loop_only, message="KeyError: 17")
    link(inc, run_config("python -m sglang.launch_server --speculative-algorithm NEXTN"), None)
    assert inc.worker_path is not None and inc.worker_path.worker_class == "EAGLEWorkerV2"


def test_no_v2_hint_for_a_release_that_had_no_v2_worker() -> None:
    """sglang before 0.5.4 always ran EAGLE on v1: telling the user to switch to v2 is noise."""
    old = "Overlap scheduler is disabled because of using eagle speculative decoding."
    inc = incident(V1_FRAMES)
    link(inc, run_config(old), None)
    assert inc.worker_path is not None and inc.worker_path.worker_class == "EAGLEWorker"
    assert not any("EAGLEWorkerV2" in h for h in inc.hints)
    inc = incident(V1_FRAMES)
    link(inc, run_config(WARN), None)
    assert any("EAGLEWorkerV2" in h for h in inc.hints)


def test_pd_disaggregated_loops_tell_the_overlap_choice_too() -> None:
    frames = (
        Frame(f"{SITE}/disaggregation/decode.py", 1841, "event_loop_overlap_disagg_decode"),
        Frame(f"{SITE}/speculative/eagle_utils.py", 210, "merge_batch"),
    )
    inc = incident(frames, message="KeyError: 17")
    link(inc, RunConfig(), None)
    assert inc.worker_path is not None and inc.worker_path.worker_class == "EAGLEWorkerV2"
    normal = (Frame(f"{SITE}/disaggregation/prefill.py", 294, "event_loop_normal_disagg_prefill"),)
    inc = incident(normal + frames[1:], message="KeyError: 17")
    link(inc, run_config("sglang: 0.5.9"), None)
    assert inc.worker_path is not None and inc.worker_path.worker_class == "EAGLEWorker"
    inc = incident(normal + frames[1:], message="KeyError: 17")
    link(inc, RunConfig(), None)  # no release: the normal loop drives V2 from 0.5.13
    assert inc.worker_path is not None and inc.worker_path.conditional == (
        "v2 (EAGLEWorkerV2) if sglang >= 0.5.13, else v1 (EAGLEWorker)"
    )


def test_a_printed_release_past_0_5_12_makes_a_non_overlap_dump_v2() -> None:
    """check_env's ``sglang: 0.5.16``: from 0.5.13 the v1 worker is gone, overlap or not."""
    loop = (Frame(f"{SITE}/managers/scheduler.py", 1032, "event_loop_normal"),)
    inc = incident(loop)
    link(inc, run_config(DUMP, "sglang: 0.5.16"), None)
    assert inc.worker_path is not None and inc.worker_path.value == "v2"
    inc = incident(loop)
    link(inc, run_config(DUMP, "sglang: 0.5.10"), None)
    assert inc.worker_path is not None and inc.worker_path.value == "v1"


def test_an_accept_length_in_the_load_lines_shows_the_run_speculates() -> None:
    loop = (Frame(f"{SITE}/managers/scheduler.py", 1032, "event_loop_normal"),)
    sample = parse_load_line(line(DECODE, 100, "[2026-02-27 21:00:17 TP0] "))
    inc = incident(loop, message="KeyError: 17")
    link(inc, run_config("sglang: 0.4.9"), sample)  # before STANDALONE and NGRAM: EAGLE's alone
    assert inc.worker_path is not None and inc.worker_path.worker_class == "EAGLEWorker"
    inc = incident(loop, message="KeyError: 17")
    link(inc, run_config("sglang: 0.5.9"), sample)  # every algorithm prints accept len
    cond = inc.worker_path.conditional if inc.worker_path else ""
    assert cond.startswith("v1 (EAGLEWorker) if the algorithm is EAGLE, EAGLE3 or NEXTN; ")
    assert "NGRAMWorker for NGRAM" in cond and "StandaloneWorker for STANDALONE" in cond
    plain = parse_load_line(line(DECODE.replace("accept len: 2.40, accept rate: 0.48, ", ""), 100))
    inc = incident(loop, message="KeyError: 17")
    link(inc, RunConfig(), plain)
    assert inc.worker_path is not None and inc.worker_path.value == "unknown"


def _node_files() -> RunConfig:
    """Two runs, two days apart, each with its dump in node0's file; the crashes are in
    node1's files, which have no dump of their own."""
    from dataclasses import replace
    from datetime import datetime

    collector = ConfigCollector()
    for source, day, text in (("a_node0.log", 10, DUMP), ("b_node0.log", 12, V2_DUMP)):
        ts = datetime(2026, 1, day, 10, 0, 0)
        if day == 10:  # the release says the first run's overlap-off dump is v1
            collector.feed(replace(line(WARN, 1), source=source, ts=ts))
        collector.feed(replace(line(text, 2), source=source, ts=ts))
    return collector.result()


def test_a_crash_in_a_file_without_a_dump_takes_the_run_of_its_time() -> None:
    from datetime import datetime

    config = _node_files()
    for day, path, topk in ((10, "v1", 4), (12, "v2", 1)):
        crash = incident(())
        crash.first_seen = Occurrence(
            f"node1_{day}.log", 50, 0, "TP7", "TP7", datetime(2026, 1, day, 10, 5), None
        )
        link(crash, config, None)
        assert crash.worker_path is not None and crash.worker_path.value == path
        assert crash.flags["speculative_eagle_topk"].value == topk  # not the other run's


def test_several_runs_and_nothing_to_place_the_crash_takes_no_runs_flags() -> None:
    crash = incident(())
    crash.first_seen = Occurrence("node1.log", 50, 0, "TP7", "TP7", None, None)
    link(crash, _node_files(), None)
    assert crash.flags == {}
    assert crash.worker_path is not None and crash.worker_path.value == "unknown"
