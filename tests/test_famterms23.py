"""A family named only through its own code (issue 11, session 23): an option of one SGLang
algorithm alone written in prose (``--speculative-dspark-block-size``), a traceback through a
model hook only some families' runs call (``set_dflash_layers_to_capture``), and the names
writers use that the tables do not spell ("EAGLE2", an "SPS table"), read from
``rules/paths/family_terms.toml`` (generated from SGLang's option and method tables, plus hand
rows read from the trees). Our own lines in several copy forms, and near misses that must not
move: a shared option, a hook's definition, another engine's tree, NVIDIA's Eagle2 models."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from real_logs_helpers import assert_no_path, assert_verdict, crash_path, probed_path, run

from spectrace.path_base import family_words
from spectrace.path_terms import flag_frameworks, term_literals, terms

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

from path_tables import family_terms  # noqa: E402


def test_the_table_is_what_the_generator_writes() -> None:
    assert family_terms.main(["--check"]) == 0


def test_the_generator_keeps_one_algorithms_options_and_drops_shared_ones() -> None:
    rows = {str(r["term"]): r for r in family_terms.flag_rows()}
    assert rows["--speculative-dspark-block-size"]["families"] == ["DSPARK"]
    assert rows["--speculative-dflash-block-size"]["families"] == ["DFLASH"]
    assert rows["--speculative-ngram-max-bfs-breadth"]["families"] == ["NGRAM"]
    # read by every EAGLE-type algorithm; an alias of a window other algorithms read (0.5.14+)
    assert "--speculative-eagle-topk" not in rows
    assert "--speculative-dflash-draft-window-size" not in rows
    assert "--speculative-draft-window-size" not in rows


def test_no_term_is_in_a_load_line() -> None:
    loads = ["[2026-09-01 10:00:00 TP0] Decode batch. #running-req: 8, #token: 9000, token usage: 0.10, "
             "accept len: 3.20, accept rate: 0.80, cuda graph: True, gen throughput (token/s): 410.2, #queue-req: 0",
             "INFO 09-01 10:00:00 [metrics.py:86] SpecDecoding metrics: Mean acceptance length: 2.61, "
             "Accepted throughput: 90.1 tokens/s, Drafted throughput: 140.0 tokens/s",
             "INFO 09-01 10:00:00 [loggers.py:123] Avg prompt throughput: 0.0 tokens/s, Avg generation "
             "throughput: 55.0 tokens/s, Running: 4 reqs"]  # fmt: skip
    assert not [lit for lit in term_literals() for line in loads if lit in line]


@pytest.mark.parametrize(("text", "families"), [
    ("Every other consumer honors `--speculative-dspark-block-size`; this one does not.", {"DSPARK"}),
    ("we pass --speculative-ngram-max-bfs-breadth 8 and it hangs", {"NGRAM"}),
    ("set --speculative-dflash-block-size=16 and the draft OOMs", {"DFLASH"}),
    ('  File "/sgl-workspace/sglang/python/sglang/srt/models/qwen3.py", line 9, in set_dflash_layers_to_capture',
     {"DFLASH", "DSPARK"}),
    ("load test with EAGLE2 and the token map", {"EAGLE"}),
    ("EAGLE-2 tree drafting breaks at bs 64", {"EAGLE"}),
    ("we built a profiled SPS table and the server will not boot", {"DSPARK"}),
    ("it crashes without --speculative-dspark-block-size", set()),  # named as off
    ("--speculative-eagle-topk 1 and it crashes", set()),  # every EAGLE-type algorithm reads it
    ("def set_dflash_layers_to_capture(self, layer_ids):", set()),  # a model gaining support
    ("serving nvidia/Eagle2-9B crashes", set()),  # NVIDIA's vision-language model
    ("Eagle2.5-8B fails to load", set()),
    ("the ragged verify path asserts", set()),  # speculative/ragged_verify.py: shared code
])  # fmt: skip
def test_a_terms_families_are_the_lines_family_words(text: str, families: set[str]) -> None:
    assert family_words(text) == families


def test_only_a_family_only_option_names_sglang() -> None:
    assert flag_frameworks("honors `--speculative-dspark-block-size`") == {"sglang"}
    assert flag_frameworks("--speculative-eagle-topk 1") == set()
    assert flag_frameworks("in set_dflash_layers_to_capture") == set()  # a hook: the frame's path says it
    assert {t.kind for t in terms()} == {"flag", "hook", "alias"}


PROSE = ("The compact verify path views its tensor by the checkpoint's native block size, while every "
         "other consumer honors `--speculative-dspark-block-size`. Validated on 4x RTX PRO 6000: "
         "11,611 requests over 5 cold launches, zero events.")  # fmt: skip


@pytest.mark.parametrize("lines", [
    [PROSE],  # a bare paste
    ["sgl-project/sglang · issue #41001 · open · Python",
     "# [Bug] compact verify ignores the configured block size", "", PROSE],  # an issue-store copy
    ["[Bug] compact verify ignores --speculative-dspark-block-size · Issue #41002 · sgl-project/sglang",
     "https://github.com/sgl-project/sglang/issues/41002", "", "Opened on Sep 2, 2026", "",
     "We serve Kimi-K3 at gamma 7 and the server crashes in decode-graph capture."],  # a web page's title
    ["> **user:** I ran it with `--speculative-dspark-block-size 7`; the server crashes at startup."],
])  # fmt: skip
def test_a_dspark_option_in_prose_is_dspark_on_sglang(tmp_path: Path, lines: list[str]) -> None:
    assert_verdict(probed_path(tmp_path, lines), "v2", "DSparkWorkerV2")


def test_an_ngram_option_in_prose_is_sglangs_ngram_worker(tmp_path: Path) -> None:
    lines = ["We serve Qwen3-8B with --speculative-ngram-max-trie-depth 18 and the scheduler crashes."]
    assert_verdict(probed_path(tmp_path, lines), "other", "NGRAMWorker")


def test_a_dflash_option_with_the_release_is_the_releases_worker(tmp_path: Path) -> None:
    lines = ["sglang 0.5.20: I ran it with --speculative-dflash-block-size 16; the draft runs out of memory."]
    assert_verdict(probed_path(tmp_path, lines), "v2", "DFlashWorkerV2")


def test_an_option_without_the_algorithm_in_a_launch_is_no_run_of_it(tmp_path: Path) -> None:
    lines = ["$ python -m sglang.launch_server --model-path Qwen/Qwen3-8B --tp 2 "
             "--speculative-dflash-block-size 8 --port 30000",
             "[2026-07-01 10:00:00] Scheduler hit an exception: Traceback (most recent call last):",
             '  File "/usr/local/lib/python3.12/dist-packages/sglang/srt/managers/scheduler.py", line 300, in __init__',
             "    self.init_model_worker()",
             "RuntimeError: CUDA error: out of memory"]  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert path.worker_class is None and not path.conditional, path


def test_sglangs_option_named_beside_a_vllm_run_stays_vllms(tmp_path: Path) -> None:
    lines = ["vllm-project/vllm · issue #50002 · open", "# [Bug]: DSpark draft crashes on startup", "",
             "SGLang exposes --speculative-dspark-block-size but vLLM has no such flag; we run vLLM 0.30.0 "
             """with --speculative-config '{"method": "dspark", "model": "org/X-DSpark", "num_speculative_tokens": 5}'.""",
             "Traceback (most recent call last):",
             '  File "/usr/local/lib/python3.12/site-packages/vllm/v1/engine/core.py", line 700, in run_engine_core',
             "    engine_core = EngineCoreProc(*args, **kwargs)",
             "RuntimeError: shape mismatch"]  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert "Worker" not in (path.worker_class or "") + (path.conditional or ""), path


def _hook(root: str, model: str, hook: str) -> list[str]:
    return ["Traceback (most recent call last):",
            f'  File "{root}/sglang/srt/model_executor/model_runner.py", line 1034, in init_aux_hidden_state_capture',
            f"    self.model.{hook}(self.dflash_target_layer_ids)",
            f'  File "{root}/sglang/srt/models/{model}.py", line 1210, in {hook}',
            '    setattr(self.layers[layer_id], "_is_layer_to_capture", True)',
            "IndexError: index 32 is out of range"]  # fmt: skip


@pytest.mark.parametrize("lines", [
    _hook("/usr/local/lib/python3.12/dist-packages", "qwen3_5", "set_dflash_layers_to_capture"),  # bare
    ["sgl-project/sglang · issue #42001 · open", "# [Bug] server crashes at startup on Qwen3.5-4B",
     "", *_hook("/sgl-workspace/sglang/python", "qwen3_5", "set_dflash_layers_to_capture")],
    ["When the draft's target layer ids include the last layer the server dies:", "```",
     *_hook(".../", "llama", "set_dflash_layers_to_capture"), "```"],  # a writer's trimmed paths
    ["[2026-08-01 09:00:00 TP0] Scheduler hit an exception: "
     + _hook("/opt/venv/lib/python3.12/site-packages", "glm4_moe", "set_dflash_layers_to_capture")[0],
     *_hook("/opt/venv/lib/python3.12/site-packages", "glm4_moe", "set_dflash_layers_to_capture")[1:]],
])  # fmt: skip
def test_a_frame_in_dflashs_capture_hook_is_a_condition_over_the_families_calling_it(
    tmp_path: Path, lines: list[str]
) -> None:
    path = crash_path(run(tmp_path, lines))
    assert_verdict(path, "unknown", "DFlashWorker|DFlashWorkerV2|DSparkWorkerV2")
    assert "EAGLE" not in path.conditional, path.conditional


def test_a_frame_in_dsparks_own_hook_is_dspark(tmp_path: Path) -> None:
    lines = _hook("/sgl-workspace/sglang/python", "deepseek_v4", "set_dspark_layers_to_capture")
    assert_verdict(crash_path(run(tmp_path, lines)), "v2", "DSparkWorkerV2")


@pytest.mark.parametrize("lines", [
    # another engine's tree (sglang-jax) with a hook of the same name
    ["Traceback (most recent call last):",
     '  File "/opt/sgl-jax/python/sgl_jax/srt/models/qwen3.py", line 300, in set_dflash_layers_to_capture',
     "    self.model.layers_to_capture = [val + 1 for val in layer_ids]",
     "IndexError: list index out of range"],
    # a pull request adding the hook to a model: its definition, not a run
    ["# Add DFlash aux capture to GLM-5", "",
     "This adds `def set_dflash_layers_to_capture(self, layer_ids)` to the GLM-5 model."],
])  # fmt: skip
def test_a_hook_outside_sglangs_frames_or_in_its_definition_names_nothing(
    tmp_path: Path, lines: list[str]
) -> None:
    assert_no_path(tmp_path, lines)


@pytest.mark.parametrize("lines", [
    ["[Bug] FA3 + EAGLE2 token map · Issue #6901 · sgl-project/sglang",
     "https://github.com/sgl-project/sglang/issues/6901", "", "Opened on Jun 4, 2025", "",
     "Our stress run on 8 H100s used EAGLE2 speculation from start to finish.", "",
     "### Environment", "", "sglang docker 0.4.6.post5"],
    ["sgl-project/sglang · issue #6902 · open", "# [Bug] draft tree collapses under load",
     "", "sglang 0.4.6.post5, EAGLE-2 draft (Llama-3.1-8B), the server dies after an hour."],
    ["sgl-project/sglang · issue #6903 · closed", "# [Bug] 0.4.5 crash at bs 64",
     "", "我们用 Eagle-2 在 sglang 0.4.5 上做压测，bs=64 时崩溃。"],
    ["sglang==0.4.6: Eagle2 speculative decoding hangs after the first request."],
])  # fmt: skip
def test_eagle2_is_sglangs_eagle_algorithm(tmp_path: Path, lines: list[str]) -> None:
    assert_verdict(probed_path(tmp_path, lines), "v1", "EAGLEWorker")


@pytest.mark.parametrize("lines", [
    ["sgl-project/sglang · issue #6904 · open", "# [Bug] nvidia/Eagle2-9B fails to load on sglang 0.4.6",
     "", "Serving nvidia/Eagle2-9B crashes in the vision tower."],
    ["sgl-project/sglang · issue #6905 · open", "# [Bug] Eagle2.5-8B image inputs crash",
     "", "sglang 0.4.9 with Eagle2.5-8B crashes on the first image."],
])  # fmt: skip
def test_nvidias_eagle2_models_are_no_eagle_run(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)


@pytest.mark.parametrize("lines", [
    ["sgl-project/sglang · issue #43001 · open",
     "# [Bug] profiled SPS table dies in CUDA-graph capture with a shape assertion"],
    ["sgl-project/sglang · issue #43002 · open", "# [Bug] server will not boot",
     "", "We built the SPS cost table and the server no longer boots."],
    ["sgl-project/sglang · issue #43003 · open", "# [Bug] 生成 SPS table 后服务启动失败"],
    ["sgl-project/sglang · issue #43004 · open", "# [Bug] decode graphs break on 0.5.20", "",
     "[turn 2 by a user] Same here: we built the SPS table on 0.5.20 and the scheduler crashes at boot."],
])  # fmt: skip
def test_an_sps_table_is_dsparks(tmp_path: Path, lines: list[str]) -> None:
    assert_verdict(probed_path(tmp_path, lines), "v2", "DSparkWorkerV2")


def test_ragged_verify_alone_is_no_family(tmp_path: Path) -> None:
    lines = ["sgl-project/sglang · issue #43005 · open", "# [Bug] ragged verify path asserts in graph capture"]
    assert_no_path(tmp_path, lines)


def _recipe(*lines: str) -> list[str]:
    """A third-party recipe PR whose writer shows its own run by a result line and a crash."""
    return ["acme-labs/infer-recipes · pull request #72 · merged · Python",
            "# docs(recipes): add kimi-k3 DSpark manifests", "", "someone · description · 2026-08-02",
            *lines, "All manifests were run end-to-end as written: 146.9 tok/s at c=4, then:",
            "AssertionError: flattened verify requires a uniform decode query len"]  # fmt: skip


@pytest.mark.parametrize("line", [
    "A separate model entry rather than a combination, because it is another artifact (same vLLM commit as the base).",
    "Unlike the stock recipe this one pins kernels; the engine is vLLM at the same commit.",
    "It is 2x faster than mixed at c=8. Served by vLLM 0.30.0 behind the router.",
    "Compared with the stock entry only kernels differ \u2014 both run vLLM 0.30.0.",
])  # fmt: skip
def test_a_comparison_in_another_clause_leaves_the_framework_named(tmp_path: Path, line: str) -> None:
    path = crash_path(run(tmp_path, _recipe(line)))
    assert path.framework == "vllm", path
    assert_verdict(path, "other", "DSparkSpeculator")


@pytest.mark.parametrize("line", [
    "This recipe is faster than on vLLM, with the same DSpark draft.",
    "We ported it from vLLM last week and kept the DSpark draft.",
    "Migrating to vLLM (same draft) is the plan.",
])  # fmt: skip
def test_a_comparison_in_the_clause_naming_the_framework_names_none(tmp_path: Path, line: str) -> None:
    path = crash_path(run(tmp_path, _recipe(line)))
    assert path.worker_class is None and not path.conditional, path
