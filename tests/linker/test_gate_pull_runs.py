"""A pull request shows a run unless it is about code: recipe, benchmark, config and image-bump
PRs of any repository name the hardware or artifact they run and keep their method's vote;
an engine tree's PR (or a fork's), a PR found reading source, and a wrapper's PR whose title
words a code change with no deployment stay out (rounds 29-33: the old "a PR shows no run"
rule cost four right verdicts for each trap it kept out).

Every line is ours, written in the shapes of saved PR threads."""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import assert_verdict, roots, run

PROBE = ["Traceback (most recent call last):", '  File "probe.py", line 1, in <module>',
         "RuntimeError: probe"]  # fmt: skip


def pull(repo: str, title: str, day: str, *body: str, author: str = "dev-a") -> list[str]:
    """A saved pull request thread: header, title, the description post, then ``body``."""
    return [f"{repo} · pull request #4321 · merged · Python", f"# {title}", "",
            f"{author} · description · {day}", *body, "", *PROBE]  # fmt: skip


def _path(tmp_path: Path, lines: list[str]):
    (crash,) = roots(run(tmp_path, lines, name="thread.md"))
    return crash.worker_path


def _none(path) -> bool:
    return path is None or (path.worker_class is None and not path.conditional)


# --- run texts: each keeps its vote ---------------------------------------------------------


def test_a_benchmark_repo_s_vllm_image_bump_names_its_run(tmp_path: Path) -> None:
    lines = pull("perfboard/GpuLadder", "[bot] Update qwen3-fp8-h200-vllm (+mtp) vLLM image to v0.21.0",
                 "2026-05-20", "## Summary", "Update vLLM image from v0.20.1-cu129 to v0.21.0",
                 "", "Recipes touched: `qwen3-fp8-h200-vllm`, `qwen3-fp8-h200-vllm-mtp`",
                 "", "## Test plan", "- [x] the sweep passes.")  # fmt: skip
    assert_verdict(_path(tmp_path, lines), "other", "EagleProposer")


def test_an_image_bump_whose_sweep_box_is_open_names_no_run(tmp_path: Path) -> None:
    """Rounds 35-42 label another project's config change with no result a trap (study 35 23:
    this shape with an open box and a rerun command; round 40 08, round 42 15): not_run's
    CONFIG_CHANGE. Round 32's labels took the recipe for the run."""
    lines = pull("perfboard/GpuLadder", "[bot] Update qwen3-fp8-h200-vllm (+mtp) vLLM image to v0.21.0",
                 "2026-05-20", "## Summary", "Update vLLM image from v0.20.1-cu129 to v0.21.0",
                 "", "Recipes touched: `qwen3-fp8-h200-vllm`, `qwen3-fp8-h200-vllm-mtp`",
                 "", "## Test plan", "- [ ] the sweep passes.")  # fmt: skip
    assert _none(_path(tmp_path, lines))


def test_a_recipe_repo_s_sglang_config_with_its_image_names_its_run(tmp_path: Path) -> None:
    lines = pull("gridlab/serve-recipes", "[AMD] adds kimi-fp8-mi325x sglang EAGLE3 disagg config",
                 "2026-09-14", "## Config details", "- **Image**: `lmsysorg/sglang:v0.5.19-rocm700-mi30x`",
                 "- **Model**: `moonshotai/Kimi-K2`", "- **Speculative decoding**: EAGLE3",
                 "", "Sweep passed: gsm8k 0.95, 1.6x at conc 16.")  # fmt: skip
    assert_verdict(_path(tmp_path, lines), "v2", "EAGLEWorkerV2")


def test_a_recipe_repo_s_config_with_no_result_names_no_run(tmp_path: Path) -> None:
    lines = pull("gridlab/serve-recipes", "[AMD] adds kimi-fp8-mi325x sglang EAGLE3 disagg config",
                 "2026-09-14", "## Config details", "- **Image**: `lmsysorg/sglang:v0.5.19-rocm700-mi30x`",
                 "- **Model**: `moonshotai/Kimi-K2`", "- **Speculative decoding**: EAGLE3")  # fmt: skip
    assert _none(_path(tmp_path, lines))


def test_a_trtllm_recipe_pr_on_a_named_release_names_the_mtp_family(tmp_path: Path) -> None:
    lines = pull("perfboard/GpuLadder", "Update glm5-fp4-gb200-trt (+mtp) TRT-LLM image to v1.3.0rc14",
                 "2026-05-21", "Update the TensorRT-LLM image from 1.2.0rc6.post3 to 1.3.0rc14.",
                 "Recipes touched: `glm5-fp4-gb200-trt`, `glm5-fp4-gb200-trt-mtp`",
                 "- [x] full-sweep-enabled sweep passes.")  # fmt: skip
    path = _path(tmp_path, lines)
    assert path is not None and path.conditional and "MTPEagleWorker" in path.conditional, path


def test_a_pr_whose_title_words_no_change_reports_its_run(tmp_path: Path) -> None:
    lines = pull("perfboard/GpuLadder", "[NVIDIA] [WIP] MTP for glm5 TRT with the chat template",
                 "2026-01-15", "Runs the glm5 MTP point through trtllm with the chat template on.")  # fmt: skip
    path = _path(tmp_path, lines)
    assert path is not None and path.conditional and "MTPEagleWorker" in path.conditional, path


# --- texts about code: no path --------------------------------------------------------------


def test_an_engine_pr_guarding_a_method_names_no_run(tmp_path: Path) -> None:
    lines = pull("vllm-project/vllm", "Reject EAGLE3 on Orbit-9B-FP8 until the draft loader is fixed",
                 "2026-02-03", "Users reported NaNs with the Orbit-9B-FP8 target and method eagle3.",
                 "Change:", "- Raise a clear error in SpeculativeConfig for that target.",
                 "- Add a unit test for the guard.")  # fmt: skip
    assert _none(_path(tmp_path, lines))


def test_a_fork_s_engine_pr_adding_a_method_names_no_run(tmp_path: Path) -> None:
    lines = pull("npu-labs/sglang", "Support MTP for Orbit-3", "2026-03-02",
                 "Loads the Orbit-3 MTP head as the draft and registers it for NEXTN.",
                 "Tested on our NPU cluster.")  # fmt: skip
    assert _none(_path(tmp_path, lines))


def test_a_wrapper_pr_enabling_a_method_with_a_code_review_names_no_run(tmp_path: Path) -> None:
    lines = [*pull("servekit/gateway", "Enables vLLM config for ngram speculation", "2025-06-11")[:-3],
             "", "dev-b · review thread · 2025-06-12", "servekit/engine/vllm_config.py:118", "```diff",
             "+        if self.spec_method == \"ngram\":", "+            args[\"speculative_config\"] = cfg",
             "```", "**dev-b**:", "should this check prompt_lookup_max too?", "", *PROBE]  # fmt: skip
    assert _none(_path(tmp_path, lines))


def test_a_wrapper_pr_adding_an_option_names_no_run(tmp_path: Path) -> None:
    lines = pull("servekit/gateway", "Add an EAGLE3 speculative option to the SGLang backend",
                 "2026-04-09", "Passes the EAGLE3 algorithm on to the SGLang server when the user",
                 "asks for it in the deployment file.")  # fmt: skip
    assert _none(_path(tmp_path, lines))


def test_an_engine_pr_naming_hardware_still_names_no_run(tmp_path: Path) -> None:
    lines = pull("sgl-project/sglang", "[Perf] Faster EAGLE draft extend on H200", "2026-06-01",
                 "Fuses the draft extend kernels; numbers to follow.")  # fmt: skip
    assert _none(_path(tmp_path, lines))


def test_an_rl_trainer_s_rollout_pr_names_the_rollout_engine_s_worker(tmp_path: Path) -> None:
    lines = pull("rl-forge/rlkit", "feat: serve the MTP head during rollout", "2026-09-03",
                 "Rollouts go through `sglang==0.5.10.post1` with NEXTN speculative decoding; the",
                 "trained MTP head is synced into the draft runner after each step.")  # fmt: skip
    path = _path(tmp_path, lines)
    assert path is not None and "EAGLEWorker" in f"{path.worker_class} {path.conditional}", path
    assert path.worker_class in (None, "EAGLEWorker"), path


# --- lines of a run PR that are not its run -------------------------------------------------


def test_an_unchecked_follow_up_task_names_no_method_of_the_run(tmp_path: Path) -> None:
    lines = pull("perfboard/GpuLadder", "Bump llama3-fp8-b200-vllm to vllm/vllm-openai:v0.23.0",
                 "2026-06-20", "Plain decode recipe, image bump only.", "## Follow-ups",
                 "- [ ] an EAGLE3 arm once the draft checkpoint lands")  # fmt: skip
    assert _none(_path(tmp_path, lines))


def test_a_sentence_leaving_a_method_out_of_the_bump_names_no_method_of_the_run(tmp_path: Path) -> None:
    lines = pull("perfboard/GpuLadder", "Update qwen3-fp8-h100-sglang (STP) image to v0.5.19", "2026-09-02",
                 "Moves `qwen3-fp8-h100-sglang` to `lmsysorg/sglang:v0.5.19`; the EAGLE3 recipe stays unchanged.")  # fmt: skip
    assert _none(_path(tmp_path, lines))


def test_a_recipe_pr_whose_review_says_the_method_is_not_wired_names_no_run(tmp_path: Path) -> None:
    lines = [*pull("perfboard/GpuLadder", "Add glm5-fp8-h200-sglang-eagle3", "2026-08-30",
                   "Adds the recipe with `lmsysorg/sglang:v0.5.18-cu129`.")[:-3],
             "", "review-bot · review · 2026-08-30",
             "The launch script does not pass any --speculative flag, so the EAGLE3 arm is",
             "not wired yet; please add the draft model path.", "", *PROBE]  # fmt: skip
    assert _none(_path(tmp_path, lines))


def test_a_pr_deleting_a_method_s_recipe_names_no_run(tmp_path: Path) -> None:
    lines = pull("perfboard/GpuLadder", "Delete qwen3-fp4-b200-vllm-eagle3 (moved to the dynamo recipe)",
                 "2026-07-12", "The `vllm/vllm-openai:v0.22.0` EAGLE3 recipe is gone; drop its config and script.")  # fmt: skip
    assert _none(_path(tmp_path, lines))


def issue(repo: str, title: str, day: str, *body: str) -> list[str]:
    """A saved issue thread: header, title, the description post, then ``body``."""
    return [f"{repo} · issue #8765 · open · Python", f"# {title}", "", f"dev-c · description · {day}",
            *body, "", *PROBE]  # fmt: skip


def test_a_task_issue_with_deliverables_and_no_result_names_no_run(tmp_path: Path) -> None:
    lines = issue("vllm-project/vllm", "[Task]: profile the ngram drafter on v0.24.0", "2026-07-01",
                  "### Goal", "Profile NgramProposer on Qwen3-32B with prompt_lookup_max 5.",
                  "### Deliverables", "- [ ] a flamegraph", "- [ ] a table of TPOT per batch size")  # fmt: skip
    assert _none(_path(tmp_path, lines))


def test_a_config_asked_about_before_deploying_names_no_run(tmp_path: Path) -> None:
    lines = issue("NVIDIA/TensorRT-LLM", "[Question] MTP settings for 1.1.0", "2025-12-02",
                  "Until we roll it out, the plan is:", "```yaml", "speculative_config:",
                  "  decoding_type: MTP", "  num_nextn_predict_layers: 2", "```",
                  "Does 2 fit DeepSeek-V3?")  # fmt: skip
    assert _none(_path(tmp_path, lines))


def test_a_bugfix_pr_that_only_guards_a_config_names_no_run(tmp_path: Path) -> None:
    lines = pull("sgl-project/sglang", "[Bugfix] clearer error when EAGLE3 is set with a draft of another vocab",
                 "2026-04-14", "Raises a ValueError at startup instead of failing deep in the draft loader.",
                 "", "dev-d · comment · 2026-04-15", "CI is green now.")  # fmt: skip
    assert _none(_path(tmp_path, lines))


def test_a_bugfix_pr_fixing_a_crash_still_names_the_run_it_fixes(tmp_path: Path) -> None:
    """The guard words are a title's whole change; a fix of a crash keeps HEAD's reading."""
    lines = pull("perfboard/GpuLadder", "[Bugfix] fix the b200 sglang EAGLE3 recipe crash on v0.5.19",
                 "2026-09-14", "- **Image**: `lmsysorg/sglang:v0.5.19-cu129`",
                 "- **Speculative decoding**: EAGLE3")  # fmt: skip
    assert_verdict(_path(tmp_path, lines), "v2", "EAGLEWorkerV2")


def test_a_wrapper_pr_introducing_a_method_with_its_config_under_review_names_no_run(tmp_path: Path) -> None:
    lines = [*pull("servekit/model-packs", "Medusa implementation", "2024-05-02",
                   "This PR introduces a pack that can run Medusa heads as part of vLLM.")[:-3],
             "", "dev-b · review thread · 2024-05-03", "medusa/config.yaml:7", "```diff",
             "+base_image: servekit/vllm:0.4.2", "+model_name: medusa-mistral-7b", "```",
             "**dev-b**:", "should this pin the head's revision?", "", *PROBE]  # fmt: skip
    assert _none(_path(tmp_path, lines))


def test_an_engine_fix_pr_s_own_table_is_its_branch_s_run_not_a_release_s(tmp_path: Path) -> None:
    """A fix's numbers ran its branch (a worker the flag it names may pick), not the release
    its day would give: the release-era reader stays out of it."""
    lines = pull("sgl-project/sglang", "[Bugfix] Orbit MTP: load every draft layer, not the first",
                 "2026-05-15", "## Motivation", "`OrbitMTP.__init__` drops its layer index, so every MTP",
                 "draft layer loads the first checkpoint layer. Observable on H200 today with EAGLE:", "",
                 "| metric | no EAGLE | EAGLE pre-fix (`--enable-orbit-draft-stack`) |",
                 "| --- | --- | --- |", "| TPOT ms | 9.1 | 8.7 |")  # fmt: skip
    assert _none(_path(tmp_path, lines))


def test_a_pr_adding_a_chart_that_lets_users_deploy_a_method_names_no_run(tmp_path: Path) -> None:
    lines = pull("servekit/charts", "New chart", "2025-09-09",
                 "Adds a Kubernetes chart that lets operators serve SGLang with EAGLE3 drafts.")  # fmt: skip
    assert _none(_path(tmp_path, lines))


def test_a_recipe_pr_whose_title_says_it_speculates_nothing_names_no_method(tmp_path: Path) -> None:
    lines = [*pull("perfboard/GpuLadder", "Add glm5-fp8-gb200-trt (STP) agg recipe", "2026-08-11",
                   "- **Image**: `nvcr.io/nvidia/tensorrt-llm/release:1.3.0rc12`")[:-3],
             "", "lint-bot · comment · 2026-08-11", "- [x] Confirmed recipes for speculative methods",
             "  (Eagle3 / MTP / two-model drafts) pin their draft checkpoints", "", *PROBE]  # fmt: skip
    assert _none(_path(tmp_path, lines))


def test_a_checklist_rule_listing_methods_leaves_the_recipe_s_own_method(tmp_path: Path) -> None:
    lines = pull("perfboard/GpuLadder", "Add kimi-fp8-h200-vllm-mtp agentic recipe", "2026-05-20",
                 "- **Image**: `vllm/vllm-openai:v0.21.0`", "",
                 "- [x] verified that speculative configs (ngram / Medusa / draft models) keep their draft pinned")  # fmt: skip
    assert_verdict(_path(tmp_path, lines), "other", "EagleProposer")


# --- the writer's own measurement told in words (a 2024 usage thread: "I've tested speculative
# decoding to compare latency ..."): a run the gate lets through; a wish, a condition or a
# question is not one


def test_a_writer_saying_they_measured_a_method_shows_a_run() -> None:
    from spectrace.assemblers.run_shown import run_line

    for said in ("We have tested speculative decoding with a 68m draft against the 7B target alone.",
                 "I've benchmarked EAGLE3 at batch 8 on two H100s: slower than plain.",
                 "we also profiled the draft model path with nsys",
                 "Yesterday I ran NEXTN with 3 steps and the server hung."):  # fmt: skip
        assert run_line(said), said


def test_a_wish_condition_or_question_about_measuring_shows_no_run() -> None:
    from spectrace.assemblers.run_shown import run_line

    for said in ("If we tested speculative decoding at batch 64 it would probably lose.",
                 "Once I benchmarked EAGLE3 I will post numbers.",
                 "Have you tested speculative decoding with a smaller draft?",
                 "I have not tested speculative decoding yet.",
                 "We plan to benchmark MTP next week."):  # fmt: skip
        assert not run_line(said), said


def test_a_feature_request_citing_another_engine_s_measurement_names_no_run(tmp_path: Path) -> None:
    lines = issue("vllm-project/vllm", "[Feature]: EAGLE-3 for Gemma-3", "2026-05-02",
                  "### 🚀 The feature, motivation and pitch",
                  "We tested EAGLE3 with Gemma-3-27B on SGLang and got 1.9x.",
                  "Please add Gemma-3 to the EAGLE-3 target list.")  # fmt: skip
    assert _none(_path(tmp_path, lines))


def test_a_launch_s_flag_continuation_line_is_no_diff_line() -> None:
    """A command split over lines ('  --speculative-config {...} \\') is read as the launch's
    words; a diff's removed line and a bullet keep their readings."""
    from spectrace.assemblers.sections import diff_line

    assert not diff_line("  --speculative-config '{\"method\": \"eagle3\"}' \\")
    assert not diff_line("--speculative-algorithm NEXTN")
    assert diff_line("-    speculative_num_steps: int = 3")
    assert diff_line("--- a/python/sglang/srt/server_args.py")
    assert not diff_line("- a bullet naming EAGLE3")
