"""SGLang worker classes that follow the run's stated algorithm, not a frame or a flag read alone.

Shapes from real threads (our own lines): a docs PR's benchmark config with
``--enable-multi-layer-eagle`` (round 25, 06), a STANDALONE run whose only frame is the shared
``eagle_info.py`` (round 24, 02), an RL trainer passing ``--sglang-<arg>`` flags (round 25, 11).
The classes come from ``spec_info.create_worker`` and the workers' bases in SGLang 0.5.4-0.5.23.
"""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import assert_verdict, crash_path, run

_THREAD = "sgl-project/sglang · {kind} #{n} · open · Python"
_CRASH = [
    "Traceback (most recent call last):",
    '  File "/usr/lib/python3/site-packages/torch/nn/modules/module.py", line 1751, in _call_impl',
    "    return forward_call(*args, **kwargs)",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
]


def _frame(path: str, function: str) -> list[str]:
    return [
        "Traceback (most recent call last):",
        f'  File "{path}", line 688, in {function}',
        "    self.hidden_states = torch.cat([self.hidden_states, spec_info.hidden_states])",
        "RuntimeError: Sizes of tensors must match except in dimension 0. Expected size 4096"
        " but got size 2048 for tensor number 1 in the list.",
    ]


def test_a_docs_config_with_the_multi_layer_flag_names_the_multi_layer_worker(tmp_path: Path) -> None:
    """A PR writes the benchmark config it ran as bare SGLang flags in a code block (no launch
    entry point): the multi-layer flag beside EAGLE selects MultiLayerEagleWorkerV2, not
    EAGLEWorkerV2 (r25 06 was wrong)."""
    lines = [
        _THREAD.format(kind="pull request", n=23000),
        "# [Docs] MiMo-V2-Flash speculative decoding benchmark",
        "",
        "someone · description · 2026-04-20",
        "Benchmark config:",
        "```",
        "SGLANG_ENABLE_SPEC_V2=1 --speculative-algorithm EAGLE --speculative-num-steps 3"
        " --speculative-eagle-topk 1 --speculative-num-draft-tokens 4 --enable-multi-layer-eagle",
        "```",
        *_CRASH,
    ]
    path = crash_path(run(tmp_path, lines))
    assert_verdict(path, "v2", "MultiLayerEagleWorkerV2")


def test_the_multi_layer_flag_in_a_sentence_keeps_the_condition_on_its_own_classes(
    tmp_path: Path,
) -> None:
    """The same flags in a sentence with no switch and no release: the era condition names the
    multi-layer classes on both sides, never EAGLEWorker."""
    lines = [
        _THREAD.format(kind="issue", n=23001),
        "# [Bug] illegal memory access with MiMo-V2-Flash",
        "",
        "someone · description · 2026-04-20",
        "We serve it with `--speculative-algorithm EAGLE --speculative-num-steps 3"
        " --enable-multi-layer-eagle` and it crashes under load.",
        *_CRASH,
    ]
    path = crash_path(run(tmp_path, lines))
    assert_verdict(path, "unknown", "MultiLayerEagleWorkerV2|MultiLayerEagleWorker")
    assert "EAGLEWorker" not in path.conditional.replace("MultiLayerEagleWorker", "")


def test_standalone_with_the_multi_layer_flag_stays_standalone(tmp_path: Path) -> None:
    """``create_worker`` reads the multi-layer flag only for EAGLE-type algorithms: a STANDALONE
    launch keeps its own worker."""
    lines = [
        "[2026-03-02 10:00:00] sglang: 0.5.10",
        "SGLANG_ENABLE_SPEC_V2=1 python -m sglang.launch_server --model-path Qwen/Qwen3-8B"
        " --speculative-algorithm STANDALONE --speculative-draft-model-path Qwen/Qwen3-0.6B"
        " --enable-multi-layer-eagle",
        *_CRASH,
    ]
    assert_verdict(crash_path(run(tmp_path, lines)), "v2", "StandaloneWorkerV2")


def test_a_shared_eagle_info_frame_takes_the_standalone_run_named_in_prose(tmp_path: Path) -> None:
    """The only frame is ``eagle_info.py`` (run by the EAGLE, STANDALONE and multi-layer workers)
    and the report says it runs STANDALONE: the condition names the STANDALONE workers (r24 02
    named the EAGLE ones)."""
    lines = [
        _THREAD.format(kind="issue", n=24000),
        "# [Bug] RuntimeError in merge_batch under load",
        "",
        "someone · description · 2026-05-03",
        "I am running STANDALONE speculative decoding with a small draft model.",
        *_frame("/workspace/3rdparty/sglang/python/sglang/srt/speculative/eagle_info.py", "merge_batch"),
    ]
    path = crash_path(run(tmp_path, lines))
    assert_verdict(path, "unknown", "StandaloneWorkerV2|StandaloneWorker")
    assert "EAGLEWorker" not in path.conditional


def test_an_eagle_worker_frame_of_a_standalone_launch_is_standalone_worker(tmp_path: Path) -> None:
    """StandaloneWorker subclasses EAGLEWorker: a STANDALONE launch crashing in
    ``eagle_worker.py`` ran StandaloneWorker (v1, the file's path)."""
    lines = [
        "python -m sglang.launch_server --model-path Qwen/Qwen3-8B --speculative-algorithm"
        " STANDALONE --speculative-draft-model-path Qwen/Qwen3-0.6B --speculative-num-steps 3",
        *_frame("/sgl-workspace/sglang/python/sglang/srt/speculative/eagle_worker.py", "verify"),
    ]
    assert_verdict(crash_path(run(tmp_path, lines)), "v1", "StandaloneWorker")


def test_an_eagle_worker_frame_of_an_eagle3_launch_stays_eagle_worker(tmp_path: Path) -> None:
    """The same frame under an EAGLE3 launch: EAGLEWorker, as before."""
    lines = [
        "python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3"
        " --speculative-draft-model-path d --speculative-num-steps 3",
        *_frame("/sgl-workspace/sglang/python/sglang/srt/speculative/eagle_worker.py", "verify"),
    ]
    assert_verdict(crash_path(run(tmp_path, lines)), "v1", "EAGLEWorker")


def test_an_ngram_run_through_the_shared_eagle_utils_names_no_eagle_worker(tmp_path: Path) -> None:
    """NGRAMWorker imports ``eagle_utils.py`` from 0.5.16: an NGRAM launch whose crash is in that
    file is NGRAMWorker's, never an EAGLE worker."""
    lines = [
        "[2026-09-02 10:00:00] sglang: 0.5.20",
        "python -m sglang.launch_server --model-path m --speculative-algorithm NGRAM",
        *_frame("/sgl-workspace/sglang/python/sglang/srt/speculative/eagle_utils.py",
                "build_tree_kernel_efficient"),  # fmt: skip
    ]
    path = crash_path(run(tmp_path, lines))
    assert path.worker_class != "EAGLEWorker" and path.worker_class != "EAGLEWorkerV2", path
    assert "EAGLEWorker" not in (path.conditional or "")


def test_an_rl_trainers_prefixed_flags_decide_by_the_day(tmp_path: Path) -> None:
    """slime's own command passes ``--sglang-speculative-*``; dated Aug 2025 (before 0.5.4, when
    only the v1 worker existed) that is EAGLEWorker."""
    lines = [
        "THUDM/slime · issue #412 · open · Python",
        "# rollout crashes with speculative decoding",
        "",
        "someone · description · 2025-08-12",
        "python train.py --actor-num-nodes 1 --rollout-num-gpus 4 --sglang-speculative-algorithm"
        " EAGLE --sglang-speculative-num-steps 3 --sglang-speculative-eagle-topk 1",
        *_CRASH,
    ]
    assert_verdict(crash_path(run(tmp_path, lines)), "v1", "EAGLEWorker")


def test_a_hydra_override_of_the_multi_layer_flag_counts(tmp_path: Path) -> None:
    """An RL trainer's Hydra overrides of SGLang's fields (``sglang.enable_multi_layer_eagle=true``)
    set the multi-layer flag as a command would."""
    lines = [
        "[2026-06-20 10:00:00] sglang: 0.5.13",
        "python3 -m areal.launcher.local train.py sglang.speculative_algorithm=EAGLE"
        " sglang.speculative_num_steps=3 sglang.enable_multi_layer_eagle=true",
        *_CRASH,
    ]
    assert_verdict(crash_path(run(tmp_path, lines)), "v2", "MultiLayerEagleWorkerV2")


def test_a_dump_cut_before_its_speculative_fields_vetoes_no_titled_algorithm(tmp_path: Path) -> None:
    """A ``server_args=`` dump cut before ``speculative_algorithm`` says nothing of speculation:
    the title's NGRAM on its release still names NGRAMWorker (r26 38 shape)."""
    lines = [
        _THREAD.format(kind="issue", n=12000),
        "# [Bug] Server fails to launch with multi-LoRA + NGRAM speculative decoding on 0.5.4.post3",
        "",
        "someone · description · 2025-11-06",
        "[2025-11-06 01:22:00] server_args=ServerArgs(model_path='/m/Qwen3-4B', tokenizer_path="
        "'/m/Qwen3-4B', tokenizer_mode='auto', skip_tokenizer_init=False, load_format='auto', "
        "trust_remote_code=False, context_length=None, is_embedding=False, host='127.0.0.1', "
        "port=30000, dtype='auto', mem_fraction_static=0.835, max_running_requests=48, max_total_token",
        *_CRASH,
    ]
    assert_verdict(crash_path(run(tmp_path, lines)), "other", "NGRAMWorker")


def _cut_script(named: str) -> list[str]:
    return [
        "ROCm/ATOM · pull request #1700 · merged · Python",
        "# [sglang] enable the new model's mtp",
        "",
        "someone · description · 2026-07-31",
        "```",
        named,
        "export SGLANG_USE_AITER=1",
        "python3 -m sglang.launch_server \\",
        '    --model-path "${MODEL_PATH}" \\',
        "    --tensor-parallel-size 4 \\",
        "    --context",
        "```",
        *_CRASH,
    ]


def test_a_launch_cut_before_its_algorithm_takes_the_one_the_script_names(tmp_path: Path) -> None:
    """A script's sglang command is cut before its speculative flags and the script's own draft
    variable names EAGLE3: the era condition of EAGLE3 (r26 41 was unknown)."""
    lines = _cut_script("DRAFT_MODEL_PATH=${DRAFT_MODEL_PATH:-/models/Big-M3-EAGLE3}")
    assert_verdict(crash_path(run(tmp_path, lines)), "unknown", "EAGLEWorkerV2|EAGLEWorker")


def test_a_cut_launch_beside_an_algorithm_set_apart_stays_unknown(tmp_path: Path) -> None:
    """The same cut command, the only algorithm named in a line that sets it apart: no path."""
    lines = _cut_script("# unlike EAGLE3, this model's MTP head needs no draft path")
    path = crash_path(run(tmp_path, lines))
    assert path.value == "unknown" and not path.conditional, path


def _gemma4(version: list[str]) -> list[str]:
    return [
        *version,
        "python -m sglang.launch_server --model-path google/gemma-4-31B-it --speculative-algorithm"
        " EAGLE --speculative-draft-model-path google/gemma-4-31B-it-assistant --speculative-num-steps 3",
        *_CRASH,
    ]


def test_an_eagle_launch_with_a_gemma4_assistant_draft_runs_frozen_kv_mtp(tmp_path: Path) -> None:
    """``_resolve_speculative_algorithm_alias`` promotes EAGLE/NEXTN to FROZEN_KV_MTP for a
    Gemma-4 assistant draft (0.5.12+): on 0.5.16 that is FrozenKVMTPWorkerV2, never EAGLE's."""
    path = crash_path(run(tmp_path, _gemma4(["[2026-07-01 10:00:00] sglang: 0.5.16"])))
    assert_verdict(path, "v2", "FrozenKVMTPWorkerV2")


def test_a_gemma4_assistant_draft_with_no_release_is_the_frozen_kv_condition(tmp_path: Path) -> None:
    """No release shown: the FROZEN_KV_MTP workers' condition, no EAGLE class in it."""
    path = crash_path(run(tmp_path, _gemma4([])))
    assert_verdict(path, "unknown", "FrozenKVMTPWorkerV2|FrozenKVMTPWorker")
    assert "EAGLEWorker" not in path.conditional


def test_aux_hidden_state_capture_turns_the_named_algorithm_off(tmp_path: Path) -> None:
    """0.5.23's ``--enable-return-aux-hidden-states``: ``--speculative-algorithm EAGLE3`` then only
    names the capture convention and is reset to None, so no speculative worker runs."""
    lines = [
        "python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3"
        " --enable-return-aux-hidden-states --return-aux-hidden-state-layer-ids 2 20 40",
        *_CRASH,
    ]
    assert_verdict(crash_path(run(tmp_path, lines)), "none", "TpModelWorker")


def _pr(body: list[str]) -> list[str]:
    return [
        _THREAD.format(kind="pull request", n=8000),
        "# feat: enable NGRAM with DP attention",
        "",
        "someone · description · 2026-01-20",
        *body,
        "",
        "ci-bot · comment · 2026-01-21",
        "CI failed on an unrelated job:",
        "Traceback (most recent call last):",
        '  File "/workspace/tests/lora/test_llama_tp.py", line 88, in test_lora_llama_tp2',
        "    assert outputs == expected",
        "AssertionError: lora output mismatch",
    ]


def test_a_pr_enabling_a_method_with_no_run_names_no_worker(tmp_path: Path) -> None:
    """An SGLang PR titled as enabling NGRAM, with no run of its own and an unrelated CI crash:
    NGRAM is the code under change, so no worker is named (ADV s11 p04)."""
    path = crash_path(run(tmp_path, _pr(["This PR adds it. Tests to follow."])))
    assert path.value == "unknown" and not path.conditional, path


def test_a_pr_enabling_a_method_with_its_own_launch_keeps_it(tmp_path: Path) -> None:
    """The same PR showing the command it was tested with: the title's method is its run's."""
    body = ["Tested with:", "python -m sglang.launch_server --model-path m --enable-dp-attention"
            " --dp 2 --tp 2 --speculative-algorithm NGRAM"]  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, _pr(body))), "other", "NGRAMWorker")


def test_an_eagle_title_dated_before_the_v2_worker_is_eagle_worker(tmp_path: Path) -> None:
    """An SGLang thread titled with EAGLE whose posts are dated June 2025 (before 0.5.3.post2
    shipped EAGLEWorkerV2): only the v1 worker existed (round 24, 41 shape)."""
    lines = [
        _THREAD.format(kind="issue", n=7100),
        "# Eagle Speculative Decoding Causes Significant Inference Slowdown",
        "",
        "someone · description · 2025-06-10",
        "With speculative decoding on, throughput drops by half against the plain server.",
        "",
        "other · comment · 2025-06-12",
        "Same on H100.",
        "Traceback (most recent call last):",
        '  File "probe.py", line 1, in <module>',
        "RuntimeError: spectrace probe",
    ]
    assert_verdict(crash_path(run(tmp_path, lines)), "v1", "EAGLEWorker")


def _loop_crash(loop: str) -> list[str]:
    return ["Traceback (most recent call last):",
            '  File "/usr/local/lib/python3.12/dist-packages/sglang/srt/managers/scheduler.py", '
            f"line 2611, in run_scheduler_process",
            f"    scheduler.{loop}()",
            '  File "/usr/local/lib/python3.12/dist-packages/sglang/srt/managers/scheduler.py", '
            f"line 1010, in {loop}",
            "    result = self.run_batch(batch)",
            "RuntimeError: CUDA error: an illegal memory access was encountered"]  # fmt: skip


def test_a_scheduler_loop_vote_takes_the_stated_familys_class(tmp_path: Path) -> None:
    """The normal loop runs spec v1 for every EAGLE-type family: with STANDALONE stated on 0.5.9
    that is StandaloneWorker, not EAGLEWorker (the loop's row names EAGLE's class)."""
    lines = ["# STANDALONE draft crashes under load",
             "python3 -m sglang.launch_server --model-path Qwen/Qwen3-32B --tp 4 "
             "--speculative-algorithm STANDALONE --speculative-draft-model-path Qwen/Qwen3-0.6B "
             "--speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4 "
             "--disable-overlap-schedule",
             "sglang: 0.5.9", *_loop_crash("event_loop_normal")]  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert (path.value, path.worker_class) == ("v1", "StandaloneWorker"), path


def test_the_multi_layer_flag_on_an_overlap_loop_is_the_v2_multi_layer_worker(
    tmp_path: Path,
) -> None:
    lines = ["# MiMo multi-layer EAGLE crash",
             "python3 -m sglang.launch_server --model-path XiaomiMiMo/MiMo-V2-Flash --tp 8 "
             "--speculative-algorithm EAGLE --enable-multi-layer-eagle --speculative-num-steps 3 "
             "--speculative-eagle-topk 1 --speculative-num-draft-tokens 4",
             "sglang: 0.5.12", *_loop_crash("event_loop_overlap")]  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert (path.value, path.worker_class) == ("v2", "MultiLayerEagleWorkerV2"), path


def test_plain_eagle_keeps_the_loops_eagle_class(tmp_path: Path) -> None:
    lines = ["# EAGLE3 crash",
             "python3 -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3 "
             "--speculative-draft-model-path d --disable-overlap-schedule",
             "sglang: 0.5.9", *_loop_crash("event_loop_normal")]  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert (path.value, path.worker_class) == ("v1", "EAGLEWorker"), path
