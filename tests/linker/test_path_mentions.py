"""A speculative worker's file named with a line number in the text (a sentence of a bug
report, a runtime warning, a headerless py-spy line) is weak path evidence: it decides only
when nothing stronger points, and never from a link, a diff, a grep hit, an ambiguous name or
a sentence about changing code.

Every line here is written by us in the real shapes; none is pasted."""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import roots, run

SITE = "/usr/local/lib/python3.12/dist-packages/sglang/srt"
CRASH = [  # a scheduler traceback cut after its first frame: no worker frame of its own
    "[2026-04-01 10:00:00 TP0] Scheduler hit an exception: Traceback (most recent call last):",
    f'  File "{SITE}/managers/scheduler.py", line 3100, in run_scheduler_process',
    "    scheduler.run_event_loop()",
]
V1_CRASH = [
    "[2026-04-01 10:00:00 TP0] Scheduler hit an exception: Traceback (most recent call last):",
    f'  File "{SITE}/speculative/eagle_worker.py", line 301, in forward_batch_generation',
    "    return self.verify(batch)",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
]
DUMP = (
    "[2026-04-01 09:59:00] server_args=ServerArgs(model_path='/models/m', tp_size=1, "
    "speculative_algorithm='EAGLE', speculative_eagle_topk=4, speculative_num_steps=3, "
    "speculative_num_draft_tokens=8, disable_overlap_schedule=True)"
)


def verdict(tmp_path: Path, lines: list[str]) -> tuple[str, str | None, list[tuple[int, str]]]:
    (crash,) = roots(run(tmp_path, lines))
    path = crash.worker_path
    assert path is not None
    return path.value, path.worker_class, [(e.lineno, e.reason) for e in path.evidence]


def test_a_sentence_naming_the_crash_line_decides_v2_with_that_line(tmp_path: Path) -> None:
    lines = [
        "### Describe the bug",
        "The scheduler dies in `eagle_worker_v2.py:828` -> `spec_utils.py:675` with a TypeError.",
        "",
        *CRASH,
    ]
    value, worker, evidence = verdict(tmp_path, lines)
    assert (value, worker) == ("v2", "EAGLEWorkerV2")
    assert evidence[0][0] == 2  # the sentence, shown as the evidence
    assert evidence[0][1].startswith("file named in the text (eagle_worker_v2.py:828)")
    assert "weaker than a frame" in evidence[0][1]


def test_file_line_n_in_prose_and_a_full_path_decide(tmp_path: Path) -> None:
    lines = ["It always fails at sglang/srt/speculative/eagle_worker.py line 412 here.", *CRASH]
    assert verdict(tmp_path, lines)[:2] == ("v1", "EAGLEWorker")


def test_a_runtime_warning_and_a_headerless_py_spy_line_decide(tmp_path: Path) -> None:
    warning = (f"{SITE}/speculative/eagle_worker.py:412: UserWarning: To copy construct from a "
               "tensor, use sourceTensor.clone().detach()")  # fmt: skip
    value, worker, evidence = verdict(tmp_path, [warning, *CRASH])
    assert (value, worker) == ("v1", "EAGLEWorker")
    assert evidence[0][1].startswith("runtime warning in eagle_worker.py")
    spy = ["Thread 77 (idle): MainThread",
           "    verify (sglang/srt/speculative/eagle_worker_v2.py:512)"]  # fmt: skip
    assert verdict(tmp_path, [*spy, *CRASH])[:2] == ("v2", "EAGLEWorkerV2")
    value, worker, evidence = verdict(tmp_path, [spy[1], *CRASH])  # no dump around it at all
    assert (value, worker) == ("v2", "EAGLEWorkerV2")
    assert evidence[0][1].startswith("py-spy frame line in eagle_worker_v2.py")


def test_an_ipython_traceback_frame_decides(tmp_path: Path) -> None:
    # a notebook's traceback: "File PATH:N, in Class.method(args)" frames, no Traceback line
    vllm = "~/venv/lib/python3.12/site-packages/vllm"
    lines = [
        "RuntimeError                              Traceback (most recent call last)",
        f"File {vllm}/v1/spec_decode/eagle.py:212, in EagleProposer.propose(self, ids)",
        "--> 212 logits = self.model.compute_logits(hidden_states)",
        "",
        "RuntimeError: CUDA error: an illegal memory access was encountered",
    ]
    value, worker, evidence = verdict(tmp_path, lines)
    assert (value, worker) == ("other", "EagleProposer")
    assert evidence[0] == (2, evidence[0][1])
    assert evidence[0][1].startswith("IPython traceback frame in spec_decode/eagle.py")


def test_names_that_do_not_show_what_ran_settle_nothing(tmp_path: Path) -> None:
    url = "https://github.com/sgl-project/sglang/blob/main/python/sglang/srt/speculative"
    for text in (
        "I added a log line at eagle_worker_v2.py:512 but it never printed.",  # a patch
        "We should guard the None at `eagle_worker_v2.py:828`.",
        f"See {url}/eagle_worker_v2.py#L828 for the code.",  # links
        "See https://example.org/src/eagle_worker_v2.py:828 for the code.",
        "--- a/python/sglang/srt/speculative/eagle_worker_v2.py",  # a diff
        "+        # eagle_worker_v2.py:828 needs the grammar",
        "@@ -828,6 +828,7 @@ class EAGLEWorkerV2:",
        "python/sglang/srt/speculative/eagle_worker_v2.py:828:    def verify(self, batch):",  # grep
        "sglang/srt/speculative/eagle_worker_v2.py",  # pip show -f: no line number
        "The crash is in `eagle.py:120`.",  # six files are eagle.py
    ):
        value, worker, evidence = verdict(tmp_path, [text, *CRASH])
        assert (value, worker) == ("unknown", None), text
        assert not any(r.startswith("file named in the text") for _, r in evidence), text


def test_names_that_disagree_settle_nothing(tmp_path: Path) -> None:
    lines = [
        "First run died at eagle_worker.py:301.",
        "The next at eagle_worker_v2.py:640.",
        *CRASH,
    ]
    assert verdict(tmp_path, lines)[:2] == ("unknown", None)


def test_a_name_never_overrides_a_frame_or_the_dump(tmp_path: Path) -> None:
    sentence = "I moved the check to `eagle_worker_v2.py:828`, it crashes there."  # wrong, v1 ran
    for lines in ([sentence, *V1_CRASH], ["sglang: 0.5.9", DUMP, sentence, *CRASH]):
        value, worker, evidence = verdict(tmp_path, lines)
        assert (value, worker) == ("v1", "EAGLEWorker")
        assert not any(r.startswith("file named in the text") for _, r in evidence)
    quiet = "The crash is at `eagle_worker_v2.py:828`."  # a sentence that passes the filters
    (crash,) = roots(run(tmp_path, [quiet, *V1_CRASH]))
    path = crash.worker_path
    assert path is not None and (path.value, path.conflict) == ("v1", None)


def test_the_crash_line_naming_its_worker_file_decides_as_its_message(tmp_path: Path) -> None:
    line = ("[TensorRT-LLM][ERROR] Assertion failed: mNumPaths > 0 "
            "(/src/cpp/tensorrt_llm/layers/lookaheadDecodingLayer.cpp:212)")  # fmt: skip
    value, worker, evidence = verdict(tmp_path, [line])
    assert (value, worker) == ("other", "LookaheadDecodingLayer")
    assert evidence[0] == (1, evidence[0][1])
    assert evidence[0][1].startswith("file named in the crash message (/src/cpp/tensorrt_llm/")
    # the crash's own message outranks the config, unlike a sentence elsewhere in the log
    (crash,) = roots(run(tmp_path, ["speculative_config:", "  decoding_type: MTP", line]))
    path = crash.worker_path
    assert path is not None and path.worker_class == "LookaheadDecodingLayer"
    assert path.evidence[1].reason.startswith("TensorRT-LLM config: decoding_type 'mtp'")


def test_a_worker_file_with_its_function_and_no_line_number_decides(tmp_path: Path) -> None:
    for text in (
        (
            "multi_layer_eagle_worker_v2.py::verify",  # a call chain in a text block
            "  -> target_worker.forward_batch_generation",
        ),
        (
            "eagle_worker_v2.py forward_batch_generation",
            "  -> _draft_extend_for_decode",
        ),
        (
            "3. `AttributeError: 'X' object has no attribute 'set_embed'`: "
            "`eagle_worker_v2.init_lm_head` needs it.",  # a module's function in inline code
        ),
    ):
        value, worker, evidence = verdict(tmp_path, [*text, *CRASH])
        assert value == "v2" and worker in ("EAGLEWorkerV2", "MultiLayerEagleWorkerV2"), text
        assert evidence[0][0] == 1, text


def test_a_file_followed_by_a_plain_word_is_not_a_function(tmp_path: Path) -> None:
    for text in (
        "Is eagle_worker_v2.py used when topk is 4?",
        "I read eagle_worker_v2.py again and the flags look right.",
        "`sglang.srt.speculative` imports fine.",
    ):
        assert verdict(tmp_path, [text, *CRASH])[:2] == ("unknown", None), text


def test_a_log_line_a_proposer_module_wrote_names_it(tmp_path: Path) -> None:
    # vLLM's header says which file logged: vllm_ascend/spec_decode/eagle_proposer.py ran
    logged = [
        f"(Worker_DP0_TP{r}_EP{r} pid={500 + r}) INFO 04-22 08:46:18 [eagle_proposer.py:288] "
        "Detected MTP model. Sharing target model embedding weights with the draft model."
        for r in range(2)
    ]
    other = "(Worker_DP0_TP0_EP0 pid=500) INFO 04-22 08:46:19 [default_loader.py:293] Loaded"
    lines = [*logged, other, "Traceback (most recent call last):",
             '  File "/app/serve.py", line 3, in <module>', "RuntimeError: engine died"]  # fmt: skip
    value, worker, evidence = verdict(tmp_path, lines)
    # no release: the file held EagleProposer up to v0.15.0rc1, AscendEagleProposer after
    # (frame_releases; tests/linker/test_frame_releases.py reads it with each release)
    assert (value, worker) == ("unknown", None)
    assert evidence[0][0] == 1
    assert evidence[0][1].startswith("log line written by eagle_proposer.py:288 in vllm_ascend/")
    assert "EagleProposer on vllm-ascend v0.10.2rc1" in evidence[0][1]
