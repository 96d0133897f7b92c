"""Session 33: an argument list inside a config file or a page is no run; the same list in a
report of what happened when it ran keeps its path.

A docker-compose ``command:`` list, a Kubernetes ``args:`` array, a test job's ``server_cmd: >``
block or a page's example only declare a deployment: nothing in them ran. A report that pastes
the same config beside its crash, its log or the writer's words about what happened is a run.
"""
from __future__ import annotations

from pathlib import Path

from real_logs_helpers import assert_no_path, probed_path, roots, run

from spectrace.assemblers.not_run import _ASSISTANT_TURN, _STEP_LINE, _USER_TURN, _YAML_ITEM, _YAML_KEY, _block_scalars
from spectrace.assemblers.spec_prose import planned
from spectrace.dialects.base import LogLine
from spectrace.worker_path import WorkerPath

COMPOSE = """services:
  sglang:
    image: lmsysorg/sglang:v0.5.6
    container_name: acme-qwen
    ports:
      - "30000:30000"
    environment:
      - SGLANG_ENABLE_SPEC_V2=1
      - HF_TOKEN=${HF_TOKEN}
    command:
      - python3
      - -m
      - sglang.launch_server
      - --model-path
      - acme/Widget-8B
      - --speculative-algorithm
      - EAGLE3
      - --speculative-draft-model-path
      - acme/widget-8b-eagle3
      - --speculative-num-steps
      - "3"
      - --host
      - 0.0.0.0""".splitlines()

ISVC = """apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata:
  name: widget-eagle3
spec:
  predictor:
    containers:
      - name: kserve-container
        image: vllm/vllm-openai:v0.11.0
        args:
          - --model
          - acme/Widget-8B-Instruct
          - --speculative-config
          - '{"method": "eagle3", "model": "acme/widget-8b-eagle3", "num_speculative_tokens": 3}'
          - --port
          - "8080"
        resources:
          limits:
            nvidia.com/gpu: "1\"""".splitlines()

FOLDED = """services:
  vllm:
    image: acme/vllm-overlay:0.27.1
    restart: unless-stopped
    environment:
      HF_TOKEN: ${HF_TOKEN}
    volumes:
      - ${MODEL_DIR}:/models
    command: >
      vllm serve /models/Widget-27B
      --served-model-name widget
      --max-model-len ${MAX_LEN:-32768}
      --speculative-config '{"method": "mtp", "num_speculative_tokens": 3}'
      --gpu-memory-utilization 0.85
    healthcheck:
      test: ["CMD", "curl", "-f", "http://localhost:8000/health"]
      interval: 30s""".splitlines()

TEST_JOB = """# tests/e2e/nightly/config/Widget-235B-eagle3.yaml
test_name: "test Widget-235B eagle3 on A3"
model: "acme/Widget-235B"
npu_per_node: 16
env_common:
  HCCL_BUFFSIZE: 1024
deployment:
  - server_cmd: >
      vllm serve acme/Widget-235B
      --tensor-parallel-size 16
      --speculative-config '{"method": "eagle3", "model": "acme/widget-235b-eagle3", "num_speculative_tokens": 3}'
      --max-model-len 32768
benchmarks:
  acc:
    baseline: 95
    threshold: 5""".splitlines()

RECIPE = """# Serving Widget-Next with MTP on SGLang

This recipe shows how to deploy Widget-Next with multi-token prediction.

```python
from deploy_kit import ServerSpec

spec = ServerSpec(
    engine="sglang",
    model="acme/Widget-Next-80B",
    tp=4,
    extra_args=[
        "--speculative-algorithm", "NEXTN",
        "--speculative-num-steps", "3",
        "--speculative-eagle-topk", "1",
        "--speculative-num-draft-tokens", "4",
    ],
)
spec.launch()
```

Then query the server with the OpenAI client.""".splitlines()

CHAT = ["User: Can you write me a docker compose for sglang with EAGLE3 spec v2?", "",
        "Assistant: Sure, here is a compose file:", "", *COMPOSE, "",
        "Start it with `docker compose up -d`."]
README = ["# Widget EAGLE3 on SGLang", "", "Deploy with docker compose:", "", "```yaml", *COMPOSE, "```", "",
          "Run `docker compose up -d` and open http://localhost:30000/docs."]

SGLANG_CRASH = [
    "sglang-1  | Traceback (most recent call last):",
    'sglang-1  |   File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2400, in run_scheduler_process',
    "sglang-1  |     scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, moe_ep_rank, pp_rank, dp_rank)",
    "sglang-1  | RuntimeError: CUDA error: out of memory"]
VLLM_LOG = [
    "vllm-1  | INFO 08-01 10:00:00 [api_server.py:1000] vLLM API server version 0.27.1",
    "vllm-1  | INFO 08-01 10:00:05 [gpu_model_runner.py:2000] Loading drafter model...",
    "vllm-1  | ERROR 08-01 10:00:09 [core.py:700] RuntimeError: CUDA error: an illegal memory access was encountered"]


def _decided(tmp_path: Path, lines: list[str]) -> WorkerPath:
    """The most decided worker path among the text's root causes (its own crash kept, no probe)."""
    paths = [c.worker_path for c in roots(run(tmp_path, lines)) if c.worker_path is not None]
    return sorted(paths, key=lambda p: (p.worker_class is None, not p.conditional))[0]


def test_a_compose_files_command_list_is_no_run(tmp_path: Path) -> None:
    assert_no_path(tmp_path, COMPOSE, name="docker-compose.yml")


def test_a_kubernetes_args_array_is_no_run(tmp_path: Path) -> None:
    assert_no_path(tmp_path, ISVC, name="isvc.yaml")


def test_a_command_folded_in_a_block_scalar_is_no_run(tmp_path: Path) -> None:
    assert_no_path(tmp_path, FOLDED, name="compose.yaml")
    assert_no_path(tmp_path, TEST_JOB, name="job.yaml")


def test_a_recipe_page_and_a_readme_with_a_compose_block_are_no_run(tmp_path: Path) -> None:
    assert_no_path(tmp_path, RECIPE, name="recipe.md")
    assert_no_path(tmp_path, README, name="README.md")


def test_an_assistants_compose_file_is_no_run(tmp_path: Path) -> None:
    assert_no_path(tmp_path, CHAT, name="chat.txt")


def test_the_same_configs_beside_their_crash_keep_their_path(tmp_path: Path) -> None:
    report = ["# [Bug] EAGLE3 with spec v2 crashes at startup in docker compose", "",
              "I deploy with this compose file and the server dies while loading the draft model.", "",
              "```yaml", *COMPOSE, "```", "", "Output of `docker compose up`:", "```", *SGLANG_CRASH, "```"]
    path = _decided(tmp_path, report)
    assert (path.value, path.worker_class) == ("v2", "EAGLEWorkerV2"), path
    logged = _decided(tmp_path, [*FOLDED, *VLLM_LOG])
    assert logged.worker_class or logged.conditional, logged


def test_the_same_configs_beside_the_writers_words_keep_their_path(tmp_path: Path) -> None:
    told = [*COMPOSE, "", "When I run docker compose up the server crashes right after loading the draft "
            "model with an illegal memory access."]
    path = probed_path(tmp_path, told)
    assert (path.value, path.worker_class) == ("v2", "EAGLEWorkerV2"), path
    words = ["We run this InferenceService in production and since upgrading to v0.11.0 the pod restarts "
             "every few hours with an illegal memory access in the drafter.", "", *ISVC]
    assert probed_path(tmp_path, words).worker_class == "EagleProposer"


def test_yaml_shapes_of_a_settings_file() -> None:
    for item in ("      - python3", "      - Qwen/Qwen3-8B", "      - SGLANG_ENABLE_SPEC_V2=1",
                 "      - ${HF_TOKEN}", "  - EAGLE3  # the draft"):
        assert _YAML_ITEM.match(item), item
    for prose in ("- EAGLE-3 speculative decoding for Llama models", "- `vllm serve x`", "- [ ] task",
                  "- **bold**"):
        assert not _YAML_ITEM.match(prose), prose
    assert _YAML_KEY.match('            nvidia.com/gpu: "1"')
    lines = [LogLine(source="c.yaml", lineno=n, offset=0, text=t, raw=t, dialect="plain", stream="")
             for n, t in enumerate(["  command: >", "    vllm serve x", "    --tp 2", "  ports:", "    - 80"], 1)]
    assert _block_scalars(lines) == {2, 3}


def test_step_lines_of_a_page() -> None:
    for step in ("This recipe shows how to deploy Widget with MTP.", "In this tutorial, you serve EAGLE3.",
                 "This guide walks you through an EAGLE3 deployment.", "Run `docker compose up -d` and open it.",
                 "Then run `vllm serve acme/w`."):
        assert _STEP_LINE.search(step), step
    for told in ("This run crashed after the drafter loaded.", "I ran `docker compose up` and it crashed.",
                 "The recipe we used is below."):
        assert not _STEP_LINE.search(told), told


def test_settings_beside_their_results_or_live_status_keep_their_path(tmp_path: Path) -> None:
    results = [*COMPOSE, "results:", "  mean_acceptance_length: 2.41", "  output_throughput: 151.3"]
    path = probed_path(tmp_path, results)
    assert (path.value, path.worker_class) == ("v2", "EAGLEWorkerV2"), path
    live = [*ISVC, "status:", "  conditions:", '    - lastTransitionTime: "2025-10-02T11:02:03Z"',
            '      status: "True"', "      type: Ready"]
    assert probed_path(tmp_path, live).worker_class == "EagleProposer"
    gates = [*TEST_JOB[:-1], "    accuracy_threshold: 5"]
    assert_no_path(tmp_path, gates, name="job.yaml")  # a gate is no result


# ---- a chat transcript: the assistant's turn advises, the user's tells what ran ----

_ARGS = ["        args:", "          - --model", "          - acme/Widget-8B-Instruct", "          - --speculative-config",
         "          - '{\"method\": \"eagle3\", \"model\": \"acme/widget-8b-eagle3\", \"num_speculative_tokens\": 3}'"]
_LAUNCH = ("python -m sglang.launch_server --model-path acme/Widget-8B --speculative-algorithm EAGLE3 "
           "--speculative-draft-model-path acme/widget-8b-eagle3 --speculative-num-steps 3 "
           "--speculative-eagle-topk 1 --speculative-num-draft-tokens 4")
_SCHED = '  File "/usr/local/lib/python3.12/dist-packages/sglang/srt/managers/scheduler.py", line 2400, in run_scheduler_process'


def test_an_assistants_turn_is_advice_whatever_its_label(tmp_path: Path) -> None:
    for user, assistant in (("### User", "### Assistant"), ("**User:**", "**Assistant:**"), ("You said:", "ChatGPT said:"),
                            ("Human:", "AI:"), ("User:", "Copilot:"), ("用户：", "助手：")):
        chat = [user, "How do I enable EAGLE-3 on my vLLM k8s deployment?", "", assistant,
                "Add these args to the container:", "", "```yaml", *_ARGS, "```", "",
                "That loads the EAGLE-3 head next to the target model."]
        assert_no_path(tmp_path, chat, name="chat.md")


def test_a_users_turn_keeps_their_run(tmp_path: Path) -> None:
    own = ["User: my server crashes right after the first request. I launch it with", "", _LAUNCH, "", "and get:", "",
           "Traceback (most recent call last):", _SCHED, "    scheduler.event_loop_overlap()",
           '  File "/usr/local/lib/python3.12/dist-packages/sglang/srt/speculative/eagle_worker.py", line 280, in forward_batch_generation',
           "    self.draft(batch)", "RuntimeError: CUDA error: an illegal memory access was encountered", "",
           "Assistant: That looks like a draft graph issue. Try the v2 worker instead:", "",
           f"SGLANG_ENABLE_SPEC_V2=1 {_LAUNCH}"]
    path = _decided(tmp_path, own)
    assert (path.value, path.worker_class) == ("v1", "EAGLEWorker"), path


def test_an_assistants_launch_the_user_ran_is_their_run(tmp_path: Path) -> None:
    tried = ["User: how do I run EAGLE3 on sglang for Widget-8B?", "", "Assistant: Launch it like this:", "", _LAUNCH, "",
             "User: I tried that and it crashes:", "", "Traceback (most recent call last):", _SCHED,
             "    scheduler.event_loop_normal()", "RuntimeError: CUDA error: out of memory"]
    path = _decided(tmp_path, tried)
    assert path.worker_class or path.conditional, path


def test_turn_labels() -> None:
    for label in ("Assistant: You can pass the config", "### Assistant", "**Claude:**", "ChatGPT said:", "AI:"):
        assert _ASSISTANT_TURN.match(label), label
    for other in ("assistant: gemma-4-assistant", "AI-generated summary below", "Assistant professor notes",
                  "  speculative_model: acme/assistant"):
        assert not _ASSISTANT_TURN.match(other), other
    assert _USER_TURN.match("You said:") and _USER_TURN.match("### User") and not _USER_TURN.match("Users report hangs")
    assert _ASSISTANT_TURN.match("AI助手：可以这样配置") and _USER_TURN.match("用户：怎么开启 MTP？")
    # a Q&A template's answer may be the reporter's own: only an assistant's label opens a turn
    assert not _ASSISTANT_TURN.match("答：--speculative-algorithm NEXTN") and not _USER_TURN.match("请问：怎么开启 MTP？")


# ---- a feature list offering a method names no run's method ----

GATEWAY = ["# acme-gateway", "", "OpenAI-compatible gateway in front of vLLM.", "",
           "- Tested with vLLM 0.10.1.1 on 2x H100", "- Optional EAGLE-3 speculative decoding (`--speculative-config` passthrough)",
           "- Streaming and tool calls"]


def test_an_optional_feature_names_no_runs_method(tmp_path: Path) -> None:
    assert_no_path(tmp_path, GATEWAY, name="README.md")
    assert planned("- Optional EAGLE-3 speculative decoding") and planned("MTP drafting (optional)")
    assert not planned("speculative_config: Optional[SpeculativeConfig] = None")
    assert not planned("EAGLE-3 crashed on the optional second node")


def test_a_method_the_readme_ran_keeps_its_path(tmp_path: Path) -> None:
    ran = [*GATEWAY[:4], "- Tested with vLLM 0.10.1.1 on 2x H100 with EAGLE-3 drafting: 1.8x decode speedup", *GATEWAY[5:]]
    assert probed_path(tmp_path, ran).worker_class == "EagleProposer"
