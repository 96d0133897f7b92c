"""Instructions are not runs (``not_run.INSTRUCTIONS``): a page that tells the READER what to run
(a playbook, a docs or quick-start page, a tutorial: imperative steps, "run the following
command", "you must", a docs URL on top) and shows no output, no result, no log record and no
first-person report shows no run, however complete its command. A command shown as the pattern
to avoid ("# Incorrect:", "Don't do this:") is no run either. A pasted command followed by its
output, a writer who followed the steps, a failure report stay runs.
Our own texts, a probe traceback appended as measure.py does.
"""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import PROBE, assert_no_path, assert_verdict, crash_path, run

TRT_YAML = ["cat > /tmp/extra.yml <<EOF", "speculative_config:", "  decoding_type: Eagle", "  max_draft_len: 4",
            "  speculative_model_dir: /models/acme-draft-eagle3/", "kv_cache_config:",
            "  free_gpu_memory_fraction: 0.85", "EOF"]  # fmt: skip
TRT_SERVE = ["trtllm-serve acme/Orbit-70B --backend pytorch --tp_size 2 \\", "  --extra_llm_api_options /tmp/extra.yml"]
VLLM_SERVE = ("vllm serve acme/Orbit-8B --speculative-config "
              "'{\"method\": \"eagle3\", \"model\": \"acme/Orbit-8B-eagle3\", \"num_speculative_tokens\": 3}'")
SGL_LAUNCH = ("python3 -m sglang.launch_server --model-path acme/Orbit-8B --speculative-algorithm EAGLE3 "
              "--speculative-draft-model-path acme/Orbit-8B-eagle3 --speculative-num-steps 3 "
              "--speculative-eagle-topk 1 --speculative-num-draft-tokens 4")  # fmt: skip


def test_a_playbook_page_with_a_full_trtllm_launch_is_no_run(tmp_path: Path) -> None:
    lines = ["https://build.example.com/playbooks/speculative-decoding/instructions", "",
             "Speculative Decoding", "Learn how to serve a model with a draft head on one box",
             "Configure Docker permissions",
             "To manage containers without sudo, you must be in the docker group.",
             "If you see a permission denied error, add your user to the docker group.",
             "sudo usermod -aG docker $USER", "Step 2: Run EAGLE-3",
             "Run EAGLE-3 speculative decoding by executing the following command:",
             "docker run --gpus=all --ipc=host nvcr.io/nvidia/tensorrt-llm/release:1.1.0 bash -c '",
             *TRT_YAML, *TRT_SERVE, "'"]  # fmt: skip
    assert_no_path(tmp_path, lines)


def test_a_docs_page_copy_with_a_vllm_serve_command_is_no_run(tmp_path: Path) -> None:
    lines = ["Speculative Decoding - vLLM", "https://docs.example.org/en/latest/features/spec_decode.html", "",
             "EAGLE-3 drafts", "To serve a model with an EAGLE-3 draft, run the following:", VLLM_SERVE,
             "Then send requests to the OpenAI-compatible endpoint as usual.",
             "Note: if the server fails to start with an out-of-memory error, lower --gpu-memory-utilization."]  # fmt: skip
    assert_no_path(tmp_path, lines)


def test_a_bare_quick_start_section_is_no_run(tmp_path: Path) -> None:
    lines = ["Quick start", "", "1. Install SGLang: pip install sglang", "2. Launch the server with EAGLE3:",
             SGL_LAUNCH, "3. Send a request:",
             "curl http://localhost:30000/generate -d '{\"text\": \"Hello\"}'"]  # fmt: skip
    assert_no_path(tmp_path, lines, name="README.md")


def test_a_tutorial_telling_the_reader_to_enable_mtp_is_no_run(tmp_path: Path) -> None:
    lines = ["Serving a DeepSeek-style model with MTP on TensorRT-LLM", "",
             "In this guide you will enable multi-token prediction for faster decoding.",
             "Open a terminal and create the options file:",
             "cat > mtp.yml <<EOF", "speculative_config:", "  decoding_type: MTP", "  num_nextn_predict_layers: 3", "EOF",
             "Next, start the server:", "trtllm-serve acme/Deep-V3 --tp_size 8 --extra_llm_api_options mtp.yml",
             "You should see the server listening on port 8000."]  # fmt: skip
    assert_no_path(tmp_path, lines)


def test_a_command_shown_as_the_pattern_to_avoid_is_no_run(tmp_path: Path) -> None:
    lines = ["speculative decoding + structured output", "",
             "IF ngram speculation is combined with guided decoding, output may be cut short.",
             "THEN turn speculation off while a JSON schema is enforced.",
             "# Incorrect: speculative + guided",
             "# python -m vllm.entrypoints.openai.api_server --model m --speculative-model [ngram] "
             "--num-speculative-tokens 5 --guided-decoding-backend outlines",
             "# Correct: no speculation",
             "python -m vllm.entrypoints.openai.api_server --model m --guided-decoding-backend outlines"]  # fmt: skip
    assert_no_path(tmp_path, lines)


def test_dont_do_this_caption_sets_its_command_apart(tmp_path: Path) -> None:
    lines = ["Common mistakes with draft models", "",
             "Don't do this:", SGL_LAUNCH + " --disable-cuda-graph",
             "Do this instead: keep CUDA graphs on and lower --speculative-num-steps."]  # fmt: skip
    assert_no_path(tmp_path, lines)


# near misses: the same commands in texts that show a run


def test_a_writer_who_followed_the_steps_keeps_the_run(tmp_path: Path) -> None:
    lines = ["I followed the playbook and ran the following command on 0.10.1:", VLLM_SERVE,
             "The server crashes at the first request with an illegal memory access."]  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, [*lines, "", *PROBE])), "other", "EagleProposer")


def test_a_pasted_command_followed_by_its_output_keeps_the_run(tmp_path: Path) -> None:
    lines = ["Run the server:", SGL_LAUNCH,
             "[2026-03-02 10:11:12] server_args=ServerArgs(model_path='acme/Orbit-8B', speculative_algorithm='EAGLE3', "
             "speculative_num_steps=3, speculative_eagle_topk=1, speculative_num_draft_tokens=4)",
             "[2026-03-02 10:11:40] The server is fired up and ready to roll!"]  # fmt: skip
    path = crash_path(run(tmp_path, [*lines, "", *PROBE]))
    assert path.worker_class is not None or path.conditional, path


def test_steps_to_reproduce_in_a_bug_report_keep_the_run(tmp_path: Path) -> None:
    lines = ["vllm-project/vllm · issue #99123 · open", "# [Bug]: EAGLE3 crashes on the first request", "",
             "dev-a · description · 2026-05-02", "Steps to reproduce:", "1. Run the following command on vLLM 0.11.0:",
             VLLM_SERVE, "2. Send any chat request; the engine core dies with an illegal memory access."]  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, [*lines, "", *PROBE])), "other", "EagleProposer")


def test_steps_whose_failure_is_told_keep_the_run(tmp_path: Path) -> None:
    lines = ["Launch the server with EAGLE3:", SGL_LAUNCH, "The server hangs if the batch is larger than 32, on 0.5.2."]
    assert_verdict(crash_path(run(tmp_path, [*lines, "", *PROBE])), "unknown", "EAGLEWorker")


def test_steps_above_a_crash_of_their_own_keep_the_run(tmp_path: Path) -> None:
    lines = ["Launch the server with EAGLE3:", SGL_LAUNCH, "",
             "Traceback (most recent call last):",
             '  File "/usr/local/lib/python3.12/dist-packages/sglang/srt/managers/scheduler.py", line 2410, in run_scheduler_process',
             "    scheduler.event_loop_overlap()",
             '  File "/usr/local/lib/python3.12/dist-packages/sglang/srt/managers/scheduler.py", line 790, in event_loop_overlap',
             "    batch_result = self.run_batch(batch)",
             "RuntimeError: CUDA error: an illegal memory access was encountered"]  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert path.worker_class is not None or path.conditional, path
