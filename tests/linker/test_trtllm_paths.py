"""TensorRT-LLM speculative paths as threads show them (session 11, TR): each case writes our
own lines in the shape of a real thread and asserts the verdict a maintainer would reach."""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import assert_verdict, crash_path, run

CRASH = [
    "Traceback (most recent call last):",
    '  File "/app/run.py", line 12, in <module>',
    "RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: output is not finite",
]


def test_medusa_engine_build_names_the_medusa_layer(tmp_path: Path) -> None:
    """Medusa runs only on the TensorRT engine (MedusaDecodingConfig.supports_backend refuses
    the PyTorch backend): a Medusa build names MedusaDecodingLayer, never a class-less family."""
    lines = [
        "NVIDIA/TensorRT-LLM · issue #4100 · closed · Python",
        "# Medusa heads on a MoE base model",
        "user · comment · 2024-06-20",
        "I converted the heads with [convert_checkpoint.py](https://github.com/NVIDIA/"
        "TensorRT-LLM/blob/abc/examples/medusa/convert_checkpoint.py) and built the engine:",
        "[06/20/2024-10:00:00] [TRT-LLM] [I] Set gpt_attention_plugin to auto.",
        *CRASH,
    ]
    assert_verdict(crash_path(run(tmp_path, lines)), "other", "MedusaDecodingLayer")


def test_engine_only_decoding_types_name_their_layer(tmp_path: Path) -> None:
    """``decoding_type: Medusa`` / ``Lookahead`` in the LLM-API YAML: engine-only configs."""
    for value, layer in (("Medusa", "MedusaDecodingLayer"),
                         ("Lookahead", "LookaheadDecodingLayer")):
        lines = ["speculative_config:", f"  decoding_type: {value}", "  max_draft_len: 4", *CRASH]
        assert_verdict(crash_path(run(tmp_path, lines)), "other", layer)


THREAD = ["NVIDIA/TensorRT-LLM · issue #9999 · open · Python",
          "# [Bug] DSpark speculative decoding hangs on GEN workers",
          "user · comment · 2026-08-02"]
HANG = ["[HangDetector] no progress for 300 s on rank 3", *CRASH]


def test_flow_yaml_in_a_table_cell_or_sentence_outranks_the_title(tmp_path: Path) -> None:
    """A flow-style ``speculative_config: {decoding_type: NGram, ...}`` in a Markdown table cell
    or in the sentence reporting the run is the run's config: NGram's classes (NGramDrafter,
    NGramWorker in newer releases), not the title's DSpark."""
    for line in (
        "| GEN | 4 | `speculative_config: {decoding_type: NGram, max_draft_len: 4}` |",
        "The GEN servers run with `speculative_config: {decoding_type: NGram, max_draft_len: 4}`.",
    ):
        analysis = run(tmp_path, [*THREAD, "Our setup:", line, *HANG])
        assert_verdict(crash_path(analysis), "unknown", "NGramDrafter|NGramWorker")


def test_inline_config_in_a_sentence_that_sets_it_apart_decides_nothing(tmp_path: Path) -> None:
    """Never wrong: a sentence that says the config is not set, asks about it or names it
    beside a plain run states no run's config."""
    for line in (
        "We do not set `speculative_config: {decoding_type: NGram, max_draft_len: 4}` on GEN.",
        "Should I try `speculative_config: {decoding_type: Eagle, max_draft_len: 3}`?",
        "We do not use speculative decoding (no `speculative_config: {decoding_type: MTP}`).",
        "We did not pass speculative_config=EagleDecodingConfig(max_draft_len=3) this time.",
    ):
        lines = ["NVIDIA/TensorRT-LLM · issue #9998 · open · Python",
                 "# [Bug] GEN workers hang with attention DP", "user · comment · 2026-08-02",
                 line, *HANG]
        path = crash_path(run(tmp_path, lines))
        assert path.worker_class is None and path.conditional is None, (line, path)


def test_triton_bls_speculative_client_is_a_draft_target_run(tmp_path: Path) -> None:
    """tensorrtllm_backend's speculative_decoding_test.py feeds a draft engine's tokens to the
    target engine (client-side or through the BLS model): ExternalDraftTokensLayer."""
    lines = [
        "NVIDIA/TensorRT-LLM · issue #2301 · closed · Python",
        "# BLS speculative decoding returns wrong tokens",
        "user · comment · 2024-09-10",
        "TensorRT-LLM 0.11.0 with the Triton backend; I ran the client:",
        "python3 tools/inflight_batcher_llm/speculative_decoding_test.py --max-input-len 200 \\",
        "    --dataset data.json --url-target=localhost:8001 --url-draft=localhost:8001 \\",
        '    --draft-tensorrt-llm-model-name="draft_llm" --execute-bls-speculative-decoding',
        *CRASH,
    ]
    assert_verdict(crash_path(run(tmp_path, lines)), "other", "ExternalDraftTokensLayer")


def test_a_sentence_that_did_not_run_the_triton_client_names_nothing(tmp_path: Path) -> None:
    lines = [
        "NVIDIA/TensorRT-LLM · issue #2302 · open · Python",
        "# Triton server crashes at start",
        "user · comment · 2024-09-10",
        "We never ran speculative_decoding_test.py; plain ensemble requests crash the server.",
        *CRASH,
    ]
    path = crash_path(run(tmp_path, lines))
    assert path.worker_class is None and path.conditional is None, path


QUICK = "python3 examples/llm-api/quickstart_advanced.py --model_dir /models/target"


def test_quickstart_advanced_spec_flags_name_the_pytorch_class(tmp_path: Path) -> None:
    """quickstart_advanced.py's --spec_decode_algo builds the LLM API's config class on the
    PyTorch backend: NGRAM -> NGram's classes; EAGLE3 with --use_one_model ->
    Eagle3OneModelWorker, with --no-use_one_model -> ModelDrafter."""
    for flags, value, cls in (
        ("--spec_decode_algo NGRAM --spec_decode_max_draft_len 4", "unknown",
         "NGramDrafter|NGramWorker"),
        ("--spec_decode_algo EAGLE3 --draft_model_dir /d --use_one_model", "other",
         "Eagle3OneModelWorker"),
        ("--spec_decode_algo eagle3 --draft_model_dir /d --no-use_one_model", "other",
         "ModelDrafter"),
    ):  # fmt: skip
        lines = [*THREAD[:1], "# [Bug] quickstart crashes", *THREAD[2:], f"{QUICK} {flags}", *CRASH]
        assert_verdict(crash_path(run(tmp_path, lines)), value, cls)


def test_quickstart_eagle3_without_the_one_model_flag_stays_a_condition(tmp_path: Path) -> None:
    """setup_llm passes eagle3_one_model=args.use_one_model, whose default was False before it
    became True: a release line must not decide it from llm_args.py's default."""
    lines = [*THREAD[:1], "# [Bug] quickstart crashes", *THREAD[2:],
             "TensorRT-LLM version: 1.0.0",
             f"{QUICK} --spec_decode_algo EAGLE3 --draft_model_dir /d", *CRASH]  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, lines)), "unknown", "Eagle3OneModelWorker|ModelDrafter")


def _yaml_eagle(release_line: str) -> list[str]:
    return [*THREAD[:1], "# [Bug] EAGLE crash", *THREAD[2:], release_line,
            "speculative_config:", "  decoding_type: Eagle", "  max_draft_len: 3", *CRASH]


def test_a_dev_build_or_rc_of_the_pytorch_release_bounds_nothing(tmp_path: Path) -> None:
    """Never wrong: a nightly of 0.17.0 (the PyTorch backend's first release) may or may not
    hold it, so the Eagle YAML stays a condition; an rc past 1.0 defaults to PyTorch."""
    path = crash_path(run(tmp_path, _yaml_eagle("pip: tensorrt_llm==0.17.0.dev2025011400")))
    assert path.worker_class is None and path.conditional, path
    path = crash_path(run(tmp_path, _yaml_eagle("TensorRT-LLM version: 1.2.0rc3")))
    assert_verdict(path, "other", "Eagle3OneModelWorker")


def test_a_nightly_before_the_pytorch_backend_names_no_pytorch_worker(tmp_path: Path) -> None:
    """0.16.0.devN predates the PyTorch backend: no _torch worker for its EAGLE run."""
    path = crash_path(run(tmp_path, _yaml_eagle("pip: tensorrt_llm==0.16.0.dev2024111900")))
    assert path.worker_class not in ("Eagle3OneModelWorker", "ModelDrafter")
    assert not path.conditional
    assert path.family == "EAGLE", path


TORCH = "/usr/local/lib/python3.12/dist-packages/tensorrt_llm/_torch"


def _torch_crash(file: str) -> list[str]:
    return ["Traceback (most recent call last):",
            f'  File "{TORCH}/pyexecutor/py_executor.py", line 900, in _executor_loop',
            "    batch_outputs = self._forward_step(scheduled_batch)",
            f'  File "{TORCH}/speculative/{file}", line 450, in forward',
            "    accepted = self.sample_and_accept_draft_tokens(logits)",
            "RuntimeError: CUDA error: an illegal memory access was encountered"]


def test_an_mtp_frame_alone_never_decides_mtp_vanilla(tmp_path: Path) -> None:
    """Never wrong: MTPEagleWorker (the default for DeepSeek-R1's one MTP module) subclasses
    MTPWorker in mtp.py, so its frames leave the MTP condition; use_mtp_vanilla decides."""
    head = [*THREAD[:1], "# [Bug] DeepSeek-R1 MTP crashes under load", *THREAD[2:]]
    assert_verdict(crash_path(run(tmp_path, [*head, *_torch_crash("mtp.py")])), "unknown",
                   "MTPEagleWorker|MTPWorker")  # fmt: skip
    vanilla = ["speculative_config:", "  decoding_type: MTP", "  use_mtp_vanilla: true"]
    path = crash_path(run(tmp_path, [*head, *vanilla, *_torch_crash("mtp.py")]))
    assert_verdict(path, "other", "MTPWorker")


def test_an_eagle3_file_frame_in_an_mtp_run_is_not_eagle3(tmp_path: Path) -> None:
    """Newer releases run MTP Eagle one-model through eagle3.py (MTPEagleWorker wraps the
    unified worker): its frame with an MTP config is never the EAGLE-3 worker."""
    lines = [*THREAD[:1], "# [Bug] DeepSeek-V4 MTP crash", *THREAD[2:],
             "speculative_config:", "  decoding_type: MTP", "  num_nextn_predict_layers: 1",
             *_torch_crash("eagle3.py")]  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert path.worker_class != "Eagle3OneModelWorker" and path.family != "EAGLE3", path
    eagle = ["speculative_config:", "  decoding_type: Eagle", "  eagle3_one_model: true"]
    path = crash_path(run(tmp_path, [*THREAD, *eagle, *_torch_crash("eagle3.py")]))
    assert_verdict(path, "other", "Eagle3OneModelWorker")


def test_mtp_vanilla_named_for_the_run_is_mtp_worker(tmp_path: Path) -> None:
    """"MTP vanilla" is TensorRT-LLM's name of use_mtp_vanilla (MTPWorker); named alone for the
    run it settles the MTP condition. Named beside "MTP Eagle" (a comparison) it settles
    nothing."""
    head = [*THREAD[:1], "# [Bug] DeepSeek-R1 MTP hangs", *THREAD[2:]]
    said = "We serve DeepSeek-R1 with MTP vanilla (3 next-n layers) and the executor hangs."
    assert_verdict(crash_path(run(tmp_path, [*head, said, *_torch_crash("mtp.py")])),
                   "other", "MTPWorker")  # fmt: skip
    both = "MTP vanilla is slower than MTP Eagle here, and the executor hangs."
    path = crash_path(run(tmp_path, [*head, both, *_torch_crash("mtp.py")]))
    assert path.worker_class is None, path


def test_the_engine_backends_eagle_is_the_eagle_decoding_layer(tmp_path: Path) -> None:
    """trtllm-build --speculative_decoding_mode eagle, or an Eagle YAML on a build before the
    PyTorch backend: the TensorRT engine's EagleDecodingLayer (EAGLE family), no _torch worker."""
    for shown in (["trtllm-build --checkpoint_dir /ckpt --speculative_decoding_mode eagle "
                   "--max_draft_len 63 --output_dir /engine"],
                  ["pip: tensorrt_llm==0.16.0.dev2024111900", "speculative_config:",
                   "  decoding_type: Eagle", "  max_draft_len: 3"]):  # fmt: skip
        path = crash_path(run(tmp_path, [*THREAD[:1], "# [Bug] EAGLE engine", *THREAD[2:],
                                         *shown, *CRASH]))  # fmt: skip
        assert_verdict(path, "other", "EagleDecodingLayer")
        assert path.family == "EAGLE", path


def test_a_frame_in_ngram_worker_py_is_the_in_forward_ngram_worker(tmp_path: Path) -> None:
    """Newer releases draft NGram inside the model forward (ngram_worker.py's NGramWorker);
    a frame there names that class, not the older NGramDrafter."""
    crash = ["Traceback (most recent call last):",
             f'  File "{TORCH}/speculative/ngram_worker.py", line 180, in forward',
             "    next_draft_tokens = self._generate_draft_tokens(accepted, n, meta, b, c)",
             "ValueError: No SA manager available"]  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, [*THREAD, *crash])), "other", "NGramWorker")


def test_a_message_naming_the_failing_objects_class_decides_it(tmp_path: Path) -> None:
    """Python's "'X' object has no attribute" names the runtime class: Eagle3OneModelWorker or
    MTPWorker decide though their files hold other workers; MTPEagleWorker, which newer
    eagle3.py wraps, is not read as EAGLE-3's."""
    def message(cls: str) -> list[str]:
        return [*THREAD[:1], "# [Bug] crash", *THREAD[2:], "Traceback (most recent call last):",
                f'  File "{TORCH}/pyexecutor/py_executor.py", line 900, in _executor_loop',
                "    x = 1", f"AttributeError: '{cls}' object has no attribute 'foo'"]  # fmt: skip

    for cls in ("Eagle3OneModelWorker", "MTPWorker"):
        assert_verdict(crash_path(run(tmp_path, message(cls))), "other", cls)
    path = crash_path(run(tmp_path, message("MTPEagleWorker")))
    assert path.family != "EAGLE3", path


def test_trt_flags_on_a_commands_continuation_lines_are_read(tmp_path: Path) -> None:
    """A pasted command split with backslashes: trtllm-build's --speculative_decoding_mode,
    run.py's --lookahead_config and quickstart's flags on later lines are the run's."""
    for command, cls in (
        (["trtllm-build --checkpoint_dir /ckpt \\",
          "    --speculative_decoding_mode lookahead_decoding \\",
          "    --max_draft_len 10 --output_dir /engine"], "LookaheadDecodingLayer"),
        (["python3 ../run.py --engine_dir /engine \\", "    --lookahead_config=[7,7,7] \\",
          "    --max_output_len 64"], "LookaheadDecodingLayer"),
        ([f"{QUICK} \\", "    --spec_decode_algo EAGLE3 --draft_model_dir /d \\",
          "    --use_one_model"], "Eagle3OneModelWorker"),
    ):  # fmt: skip
        lines = [*THREAD[:1], "# [Bug] crash", *THREAD[2:], *command, *CRASH]
        assert_verdict(crash_path(run(tmp_path, lines)), "other", cls)


# every decoding_type value llmapi/llm_args.py accepts across releases (newer spellings
# Eagle3, Draft_Target, User_Provided beside the first ones) -> the verdict its YAML gives
_DECODING_TYPES = [
    ("SA", "other", "SAWorker"),
    ("PARD", "other", "PARDWorker"),
    ("DFlash", "other", "DFlashWorker"),
    ("DSpark", "other", "DSparkWorker"),
    ("Medusa", "other", "MedusaDecodingLayer"),
    ("Lookahead", "other", "LookaheadDecodingLayer"),
    ("MTP", "unknown", "MTPEagleWorker|MTPWorker"),
    ("Eagle", "unknown", "Eagle3OneModelWorker|ModelDrafter"),
    ("Eagle3", "unknown", "Eagle3OneModelWorker|ModelDrafter"),
    ("NGram", "unknown", "NGramDrafter|NGramWorker"),
    ("AUTO", "unknown", "NGramDrafter|NGramWorker"),
    ("DraftTarget", "unknown", "DraftTargetOneModelWorker|ModelDrafter"),
    ("Draft_Target", "unknown", "DraftTargetOneModelWorker|ModelDrafter"),
]


def test_every_decoding_type_names_its_class_or_condition(tmp_path: Path) -> None:
    """Completeness: each ``decoding_type`` of llm_args.py in a pasted YAML names the class its
    config's spec_dec_mode runs, or the condition over the classes its unset keys pick."""
    for value, verdict, classes in _DECODING_TYPES:
        lines = ["speculative_config:", f"  decoding_type: {value}", "  max_draft_len: 3", *CRASH]
        assert_verdict(crash_path(run(tmp_path, lines)), verdict, classes)


def test_llm_args_dump_of_a_suffix_automaton_config(tmp_path: Path) -> None:
    """The LLM API's argument dump with ``SADecodingConfig(...)`` is an SA run (SAWorker)."""
    lines = ["[TRT-LLM] [I] TorchLlmArgs(model='/models/qwen3', backend='pytorch', "
             "speculative_config=SADecodingConfig(max_draft_len=4, max_matching_ngram_size=-1))",
             *CRASH]  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, lines)), "other", "SAWorker")


def test_triton_decoding_mode_names_the_engine_layer(tmp_path: Path) -> None:
    """The Triton backend's ``decoding_mode`` (fill_template.py's ``decoding_mode:X`` for the
    tensorrt_llm model, or the executor's ``DecodingMode.X()``) is the engine's speculative mode:
    medusa, redrafter (explicit draft tokens), lookahead and eagle name their decoding layer."""
    fill = "python3 tools/fill_template.py -i repo/tensorrt_llm/config.pbtxt engine_dir:/e/x,"
    for line, layer in (
        (fill + "decoding_mode:medusa,max_beam_width:1", "MedusaDecodingLayer"),
        (fill + "decoupled_mode:true,decoding_mode:redrafter", "ExplicitDraftTokensLayer"),
        (fill + "decoding_mode:eagle", "EagleDecodingLayer"),
        ("cfg = trtllm.DecodingConfig(trtllm.DecodingMode.Lookahead(), la_cfg)",
         "LookaheadDecodingLayer"),
    ):
        assert_verdict(crash_path(run(tmp_path, [line, *CRASH])), "other", layer)


def test_triton_sampling_modes_and_templates_name_no_speculation(tmp_path: Path) -> None:
    """Never wrong: a sampling mode (top_k_top_p, beam_search) or the template's unfilled
    ``${DECODING_MODE}`` sets no speculative mode."""
    fill = "python3 tools/fill_template.py -i repo/tensorrt_llm/config.pbtxt engine_dir:/e/x,"
    for value in ("top_k_top_p", "beam_search", "${DECODING_MODE}"):
        path = crash_path(run(tmp_path, [fill + f"decoding_mode:{value}", *CRASH]))
        assert path.worker_class is None and not path.conditional, path


# TensorRT-LLM's own mode names (trtllm_words) in a thread's words: SA / Suffix Automaton and
# ReDrafter / Recurrent Drafter (R28 29, 30, 01 shapes; our own lines)
SA_ISSUE = ["NVIDIA/TensorRT-LLM · issue #20001 · open · Python",
            "labels: bug, Speculative Decoding",
            "# [Bug]: SA (Suffix Automaton) speculative decoding drops requests near max_seq_len",
            "dev1 · comment · 2026-08-11",
            "I traced the scheduler path and the reserve is counted twice; a fix is ready."]


def test_suffix_automaton_title_of_a_bug_report_names_sa_worker(tmp_path: Path) -> None:
    """A bug report's title naming the suffix automaton (SA) on TensorRT-LLM: SADecodingConfig's
    one class, SAWorker (_torch/speculative/sa_worker.py), decided as prose."""
    assert_verdict(crash_path(run(tmp_path, [*SA_ISSUE, *CRASH])), "other", "SAWorker")


def test_sa_runs_of_a_fix_pull_request_name_sa_worker(tmp_path: Path) -> None:
    """A fix PR's measured A/B runs of "SA md=3" (a results table): an SA run."""
    lines = ["NVIDIA/TensorRT-LLM · pull request #20002 · merged · Python",
             "# [TRTLLM-9999][fix] Fix SA specdec with the overlap scheduler",
             "dev2 · description · 2026-08-20",
             "Same config for all rows: SA md=3, batch 16, chunked prefill off, 8x B200.",
             "| run | accuracy | AL |", "|---|---|---|",
             "| overlap on, no fix | 71.2 | 1.41 |", "| overlap on, with fix | 90.8 | 1.40 |",
             *CRASH]  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, lines)), "other", "SAWorker")


def test_redrafter_title_before_the_pytorch_backend_names_the_explicit_draft_layer(
    tmp_path: Path,
) -> None:
    """"Recurrent Drafter" / ReDrafter runs only as the engine's EXPLICIT_DRAFT_TOKENS mode
    (ExplicitDraftTokensLayer); a 2024 thread predates the PyTorch backend (0.17): decided."""
    for title in ("# Recurrent Drafter not working", "# ReDrafter engine emits one token a step"):
        lines = ["NVIDIA/TensorRT-LLM · issue #20003 · closed · Python", title,
                 "dev3 · description · 2024-08-20",
                 "Tokens come out one by one, much slower than the base model.", *CRASH]
        assert_verdict(crash_path(run(tmp_path, lines)), "other", "ExplicitDraftTokensLayer")


def test_sa_or_redrafter_feature_requests_name_nothing(tmp_path: Path) -> None:
    """Never wrong: a feature request asks for the mode; no run of it is shown."""
    for title in ("# [Feature]: SA (Suffix Automaton) speculative decoding for Qwen3",
                  "# [Feature]: ReDrafter on the PyTorch backend"):
        lines = ["NVIDIA/TensorRT-LLM · issue #20004 · open · Python", title,
                 "dev4 · description · 2026-05-02", "It would help our latency a lot.", *CRASH]
        path = crash_path(run(tmp_path, lines))
        assert path.worker_class is None and not path.conditional, path


def test_sa_enhancer_beside_mtp_is_not_an_sa_run(tmp_path: Path) -> None:
    """Never wrong: ``sa_config`` combines the suffix automaton with MTP's own worker (an SA
    enhancer); the run is MTP's, never SAWorker."""
    lines = [*SA_ISSUE[:2], "# [Bug]: MTP with the SA enhancer hangs",
             "dev5 · description · 2026-09-01", "speculative_config:", "  decoding_type: MTP",
             "  max_draft_len: 3", "  sa_config:", "    threshold: 4", *CRASH]  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert path.worker_class != "SAWorker" and "SAWorker" not in (path.conditional or ""), path


def test_pard_dflash_dspark_titles_name_their_one_worker(tmp_path: Path) -> None:
    """PARD, DFlash and DSpark each have one PyTorch-backend class (PARDWorker, DFlashWorker,
    DSparkWorker): a TensorRT-LLM bug report's title naming one decides it as prose."""
    for word, cls in (("PARD", "PARDWorker"), ("DFlash", "DFlashWorker"),
                      ("DSpark", "DSparkWorker")):
        lines = ["NVIDIA/TensorRT-LLM · issue #20006 · open · Python",
                 f"# [Bug]: {word} speculative decoding returns garbage at batch 64",
                 "dev6 · description · 2026-09-03", "Output is corrupted after warmup.", *CRASH]
        assert_verdict(crash_path(run(tmp_path, lines)), "other", cls)


def test_an_eagle_title_on_the_pytorch_era_is_the_eagle_condition(tmp_path: Path) -> None:
    """"Eagle" on TensorRT-LLM after the PyTorch backend: decoding_type Eagle's condition
    (one-model Eagle3OneModelWorker, two-model ModelDrafter, or the engine's own EAGLE)."""
    lines = ["NVIDIA/TensorRT-LLM · issue #20007 · open · Python",
             "# [Bug]: Eagle speculative decoding hangs under load",
             "dev7 · description · 2025-11-03", "The server stops answering after an hour.", *CRASH]
    assert_verdict(crash_path(run(tmp_path, lines)), "unknown", "Eagle3OneModelWorker|ModelDrafter")


# a bare script's crash (what a text with no crash of its own is read with): it ran no server
BARE = ["Traceback (most recent call last):", '  File "check.py", line 1, in <module>',
        "RuntimeError: check"]


def test_release_notes_naming_an_engine_mode_name_no_run(tmp_path: Path) -> None:
    """Never wrong: a pull request whose description is a changelog (features, API, fixes)
    naming one engine mode (ReDrafter, Lookahead, Medusa) and the ``trtllm-build`` tool describes
    code, not a run (R28 21's shape)."""
    for feature in ("ReDrafter tree drafting now supports beam width 4.",
                    "Lookahead decoding now handles stop words.",
                    "Medusa heads can be loaded from safetensors."):
        lines = ["NVIDIA/TensorRT-LLM · pull request #20008 · merged · Python",
                 "# Update TensorRT-LLM", "dev8 · description · 2024-11-12", "* Features",
                 f"  - {feature}", "* API", "  - Add a timeout to the `Executor` shutdown.",
                 "* Bug fixes", "  - Fixed a hang in the `trtllm-build` command with LoRA.",
                 *BARE]
        path = crash_path(run(tmp_path, lines))
        assert path.worker_class is None and not path.conditional, (feature, path)
