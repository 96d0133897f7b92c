"""A thread on a framework's own recipe repository reports that framework's run (issue 11,
session 24, VTOLD2).

vLLM's recipes live in their own repository (one `vllm serve` command per model); a user who
cannot start one ("the deepseek-v4-pro-dspark recipe can not be started on 8x H20") reports a vLLM
run, as a thread on vLLM's tracker would. At base such a thread named no framework, so its family
found no class. Our own lines, with near misses that must keep no path: a recipe PR that only adds
or edits a recipe, a question, a recipe thread on another organisation's repository.

A pull request's author telling the deployment that met the failure it answers ("In my local
deployment, I hit this with: target ..., draft ...") shows a run (the R64 26 shape)."""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import assert_no_path, assert_verdict, probed_path

from spectrace.assemblers.run_prose import told_run
from spectrace.assemblers.thread_repo import run_engine, tracker_engine


def _store(repo: str, kind: str, title: str, body: list[str], day: str = "2026-07-07") -> list[str]:
    return [f"{repo} · {kind} · open · Python", f"# {title}", "", f"someone · description · {day}", *body]


def test_the_recipes_repository_names_vllm_for_a_run_only() -> None:
    assert run_engine("vllm-project/recipes") == "vllm"
    assert run_engine("vllm-project/vllm") == "vllm"
    assert tracker_engine("vllm-project/recipes") is None  # a recipe PR changes no engine code
    assert run_engine("someone/recipes") is None


_FAILED = ["fix 8x h20 glm-5-dspark start", "--max-num-seqs must be 16",
           "the cookbook value 512 can not be started successfully, tested many times"]  # fmt: skip


def test_a_told_start_failure_of_a_dspark_recipe_is_a_vllm_run(tmp_path: Path) -> None:
    lines = _store("vllm-project/recipes", "pull request #901", "fix h20*8 glm-5-dspark bug", _FAILED)
    assert_verdict(probed_path(tmp_path, lines), "other", "DSparkSpeculator")


def test_an_issue_on_the_recipes_repository_reports_its_run(tmp_path: Path) -> None:
    body = ["Following the Qwen3.8 DSpark recipe on 4x H100, the server dies while loading the drafter.",
            "Tried twice with the recipe's own command."]  # fmt: skip
    lines = _store("vllm-project/recipes", "issue #77", "Qwen3.8 DSpark recipe fails to start on H100", body)
    assert_verdict(probed_path(tmp_path, lines), "other", "DSparkSpeculator")


@pytest.mark.parametrize(("title", "body"), [
    ("Add GLM-5 DSpark recipe", ["This PR adds a recipe for GLM-5 with DSpark speculative decoding",
                                 "and its max-num-seqs for H20."]),
    ("docs: update the Qwen3-Next MTP recipe", ["Document `--speculative-config` for MTP and the H200 memory notes."]),
    ("[Question] does the DeepSeek-V4 recipe support EAGLE3?", ["Would it be possible to add an EAGLE3 variant?"]),
])  # fmt: skip
def test_a_recipe_change_or_question_gets_no_path(tmp_path: Path, title: str, body: list[str]) -> None:
    kind = "issue #78" if title.startswith("[Question]") else "pull request #902"
    assert_no_path(tmp_path, _store("vllm-project/recipes", kind, title, body))


def test_another_organisations_recipes_name_no_framework(tmp_path: Path) -> None:
    lines = _store("someone/recipes", "pull request #3", "fix h20*8 glm-5-dspark bug", _FAILED)
    assert_no_path(tmp_path, lines)


# A feature PR whose author tells the deployment that met the failure it answers ("In my local
# deployment, I hit this with: target ..., draft ..."): that deployment is a run; a deployment in
# general ("in a typical deployment users hit this") or the reader's ("if you hit this") is none.
_PADDING = ["## Purpose", "", "This PR adds an opt-in path that pads a smaller draft's vocabulary.", ""]
_PAIR = ["", "- target model: `Qwen2.5-72B-Instruct`", "- draft model: `Qwen2.5-0.5B-Instruct`", "",
         "The vocab sizes differ, so the strict checks reject the pair."]  # fmt: skip


@pytest.mark.parametrize("told", ["In my local deployment, I hit this with:", "On our cluster we ran into it with:",
                                  "During production deployment, I hit this with:"])  # fmt: skip
def test_a_pr_author_telling_the_deployment_that_hit_it_is_a_run(tmp_path: Path, told: str) -> None:
    assert told_run(told)
    lines = _store("vllm-project/vllm", "pull request #903", "Optional padding of the draft vocabulary in spec decode",
                   [*_PADDING, told, *_PAIR], day="2026-05-15")  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert path.conditional and "DraftModelProposer" in path.conditional, path


@pytest.mark.parametrize("told", ["In a typical deployment, users hit this with:",
                                  "If in your deployment you hit this, pair for example:",
                                  "In my opinion the checks are too strict for pairs like:"])  # fmt: skip
def test_a_deployment_in_general_is_no_run(tmp_path: Path, told: str) -> None:
    assert not told_run(told)
    lines = _store("vllm-project/vllm", "pull request #904", "Optional padding of the draft vocabulary in spec decode",
                   [*_PADDING, told, *_PAIR], day="2026-05-15")  # fmt: skip
    assert_no_path(tmp_path, lines)
