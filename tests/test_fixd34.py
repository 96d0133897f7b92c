"""Session 34 (FIXD): runs told in the writer's words and in an environment report.

Each test writes its own lines in the shape of the text class it covers and asserts what a user
sees (the worker path's class or condition, and the line that proves it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import assert_no_path, assert_verdict, probed_path
from spectrace.assemblers.run_forms import form_of
from spectrace.dialects.base import LogLine

TOLD = "the writer's deployment told in a sentence"


def _line(raw: str) -> LogLine:
    return LogLine("t.log", 1, 0, raw, raw, "plain", "")


# --- the writer's own deployment told in prose, its release and method anywhere in the sentence ---

# a comment on another user's crash adding the writer's production facts: the deployment in one
# sentence, wrapped, its release and its method inside a parenthesis after other words
_WRAPPED = ["dana-w commented on Sep 2, 2026", "",
            "Some context from our side before anyone digs in. For the last month we have been serving this",
            "exact checkpoint to internal users (dense 32B, four L40S cards, SGLang 0.5.17 with EAGLE3 drafting",
            "at 3 steps, topk 1, 4 draft tokens), and the numbers match the report above."]  # fmt: skip


@pytest.mark.parametrize(("lines", "value", "classes", "said"), [
    (_WRAPPED, "v2", "EAGLEWorkerV2", "we have been serving this"),
    # another engine, its method in words, one line
    (["Re: the long-prompt failure", "",
      "We currently run Llama-3.3-70B for the support bot on vLLM 0.27.1, with ngram speculation "
      "(prompt lookup, k=4) turned on."], "other", "NgramProposer", "We currently run"),
    # a bullet list of facts
    (["Facts from our side:", "",
      "- We run it in production (SGLang 0.5.17, MTP NEXTN 3/1/4, TP=4, page size 1).",
      "- Traffic is mostly short chat turns."], "v2", "EAGLEWorkerV2", "We run it in production"),
    # Chinese, Japanese, Korean
    (["补充一些信息：我们在线上集群运行同一个模型（Qwen3-30B-A3B，SGLang 0.5.17，MTP NEXTN 3/1/4，TP=4），供参考。"],
     "v2", "EAGLEWorkerV2", "我们在线上集群运行"),
    (["補足です。本番環境では同じモデルを SGLang 0.5.17 と MTP（NEXTN 3/1/4、TP=4）で運用しています。"],
     "v2", "EAGLEWorkerV2", "運用しています"),
    (["참고로 저희는 같은 모델을 SGLang 0.5.17 과 MTP NEXTN 3/1/4, TP=4 설정으로 프로덕션에서 운영하고 있습니다."],
     "v2", "EAGLEWorkerV2", "운영하고 있습니다"),
], ids=["wrapped-comment", "vllm-ngram", "bullet", "chinese", "japanese", "korean"])  # fmt: skip
def test_the_writers_deployment_told_in_a_sentence_decides(
    tmp_path: Path, lines: list[str], value: str, classes: str, said: str
) -> None:
    path = probed_path(tmp_path, lines)
    assert_verdict(path, value, classes)
    assert any(said in e.text for e in path.evidence), path.evidence


def test_the_same_deployment_as_a_vllm_eagle_draft_gives_the_runner_condition(tmp_path: Path) -> None:
    path = probed_path(tmp_path, ["Re: crash on long prompts", "",
                                  "We currently run Llama-3.3-70B for the support bot on vLLM 0.27.1 "
                                  "with an EAGLE3 draft (3 speculative tokens)."])  # fmt: skip
    assert_verdict(path, "unknown", "EagleProposer|EagleSpeculator")


@pytest.mark.parametrize("lines", [
    ["Some context before anyone digs in. Next quarter we plan to run this exact checkpoint for",
     "internal users (dense 32B, four L40S cards, SGLang 0.5.17 with EAGLE3 drafting at 3 steps)."],
    ["You can run the same model in production (SGLang 0.5.17, MTP NEXTN 3/1/4, TP=4) on four cards."],
    ["To run the same model in production, we set SGLang 0.5.17 with MTP NEXTN 3/1/4 and TP=4."],
    ["In this guide we run the same model in production shape (SGLang 0.5.17, MTP NEXTN 3/1/4, TP=4)."],
    ["Should we run the same model in production on SGLang 0.5.17 with MTP NEXTN 3/1/4?"],
    ["我们计划在线上集群运行同一个模型（SGLang 0.5.17，MTP NEXTN 3/1/4，TP=4）。"],
    ["本番環境では同じモデルを SGLang 0.5.17 と MTP（NEXTN 3/1/4）で運用する予定です。"],
    # a how-to page narrating in the first person
    ["# Serving a 32B model with NEXTN", "", "## Steps", "",
     "Next, we run the server on SGLang 0.5.17 with MTP NEXTN 3/1/4 and TP=4.",
     "You can then send a request to port 30000."],
], ids=["plan", "you-can", "to-run", "guide", "question", "chinese-plan", "japanese-plan", "how-to"])  # fmt: skip
def test_a_deployment_planned_offered_or_narrated_gives_no_path(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)


@pytest.mark.parametrize("text", [
    "Мы уже используем эту модель в проде (SGLang 0.5.17, MTP NEXTN 3/1/4, TP=4).",
    "En producción desplegamos el mismo modelo (SGLang 0.5.17, MTP NEXTN 3/1/4, TP=4).",
    "En production, nous faisons tourner le même modèle (SGLang 0.5.17, MTP NEXTN 3/1/4, TP=4).",
    "I'm hosting the 8B chat model at home on TensorRT-LLM 1.2.0 with a Medusa head set.",
])  # fmt: skip
def test_the_told_deployment_form_in_other_languages(text: str) -> None:
    assert form_of(_line(text)) == TOLD


@pytest.mark.parametrize("text", [
    "We will run the same model on SGLang 0.5.17 with MTP NEXTN 3/1/4.",
    "If we run the same model on SGLang 0.5.17 with MTP NEXTN 3/1/4 it may crash.",
    "We run the same model in production (SGLang 0.5.17, TP=4).",  # no method
    "We run the same model in production with EAGLE3 drafts.",  # no release
    "The maintainers run vLLM 0.27.1 with EAGLE3 in CI.",  # not the writer
    "저희는 같은 모델을 SGLang 0.5.17 과 MTP 설정으로 운영할 예정입니다.",
    "Если мы используем SGLang 0.5.17 с MTP NEXTN 3/1/4, сервер падает?",
    "Para ejecutar el modelo, desplegamos SGLang 0.5.17 con MTP NEXTN 3/1/4.",
    "Dans ce guide, nous utilisons SGLang 0.5.17 avec MTP NEXTN 3/1/4.",
])  # fmt: skip
def test_a_deployment_to_come_or_incomplete_is_no_run_form(text: str) -> None:
    assert form_of(_line(text)) is None
