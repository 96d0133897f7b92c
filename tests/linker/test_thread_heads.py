"""A pasted thread names the tracker it was filed on in whatever form it was copied
(``thread_head``): the index's header, a citation under the title, a page title, the URL, a mail
subject, GitHub's web copy. Each form gives the verdict the index's header gives; a link in a
comment names another thread and gives none. Every line here is our own."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from real_logs_helpers import roots, run

VLLM_TITLE = "[Bug]: EAGLE3 draft crashes with illegal memory access on H100"
SGL_TITLE = "[Bug] Llama-70B EAGLE3 draft breaks PD prefill buffers"
BODY = ["The server dies on the first request when the EAGLE3 draft is on.", "```",
        "Traceback (most recent call last):", '  File "serve.py", line 12, in <module>', "    main()",
        "RuntimeError: CUDA error: an illegal memory access was encountered", "```"]  # fmt: skip
SCHED_CRASH = [
    "```",
    "[TP0] Scheduler hit an exception: Traceback (most recent call last):",
    '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2700, in run_scheduler_process',
    "    scheduler.event_loop_normal_disagg_prefill()",
    '  File "/sgl-workspace/sglang/python/sglang/srt/disaggregation/prefill.py", line 300, in event_loop_normal_disagg_prefill',
    "    self.process_batch_result_disagg_prefill(batch, result)",
    "RuntimeError: shape mismatch: value tensor of shape [4, 5120] cannot be broadcast to [4, 4096]",
    "```",
]
POST = "alice · description · {day}"


def _index(repo: str, title: str, day: str) -> list[str]:
    return [f"{repo} · issue #4101 · open · Python", f"# {title}", "", POST.format(day=day)]


FORMS: dict[str, Callable[[str, str, str], list[str]]] = {
    "index": _index,
    "citation": lambda repo, title, day: [title, f"{repo}#4101 · issue · closed · labels: bug", "", POST.format(day=day)],
    "citation, state only": lambda repo, title, day: [title, f"{repo}#4101 · closed", "labels: bug", "", POST.format(day=day)],
    "citation, issue word": lambda repo, title, day: [title, f"{repo} issue #4101 · open", "", POST.format(day=day)],
    "page title": lambda repo, title, day: [f"{title} · Issue #4101 · {repo} · GitHub", "", POST.format(day=day)],
    "URL above the title": lambda repo, title, day: [f"https://github.com/{repo}/issues/4101", title, "", POST.format(day=day)],
    "URL under the title": lambda repo, title, day: [title, f"https://github.com/{repo}/issues/4101#issuecomment-1", "", POST.format(day=day)],
    "mail subject": lambda repo, title, day: [f"[{repo}] {title} (Issue #4101)", "", POST.format(day=day)],
    "web copy": lambda repo, title, day: [repo.replace("/", " / "), "Public", f"{title} #4101", "Open",
                                          f"alice opened this issue on {day} · 2 comments"],
}  # fmt: skip


def _path(tmp_path: Path, lines: list[str]):  # noqa: ANN202
    (crash,) = roots(run(tmp_path, lines, name="thread.md"))
    assert crash.worker_path is not None
    return crash.worker_path


@pytest.mark.parametrize("form", sorted(FORMS))
def test_a_vllm_thread_in_any_copy_form_names_vllms_tracker(tmp_path: Path, form: str) -> None:
    path = _path(tmp_path, FORMS[form]("vllm-project/vllm", VLLM_TITLE, "2026-05-05") + BODY)
    assert (path.framework, path.worker_class) == ("vllm", "EagleProposer")
    assert any(VLLM_TITLE in e.text for e in path.evidence)  # the title line is the evidence


@pytest.mark.parametrize("form", sorted(FORMS))
def test_an_sglang_thread_in_any_copy_form_names_sglangs_tracker(tmp_path: Path, form: str) -> None:
    path = _path(tmp_path, FORMS[form]("sgl-project/sglang", SGL_TITLE, "2025-09-20")
                 + ["The prefill node dies on the first request."] + SCHED_CRASH)  # fmt: skip
    assert (path.value, path.worker_class) == ("v1", "EAGLEWorker")


@pytest.mark.parametrize("form", sorted(FORMS))
def test_a_downstream_repositorys_thread_names_no_engine(tmp_path: Path, form: str) -> None:
    path = _path(tmp_path, FORMS[form]("someorg/llm-gateway", VLLM_TITLE, "2026-05-05") + BODY)
    assert path.worker_class is None


@pytest.mark.parametrize(
    "comment",
    ["Same crash as https://github.com/vllm-project/vllm/issues/99",
     "https://github.com/vllm-project/vllm/pull/98",
     "see vllm-project/vllm#97, fixed there",
     "[vllm-project/vllm] Fix EAGLE3 IMA (PR #96)"],
)  # fmt: skip
def test_a_link_in_a_comment_names_no_tracker(tmp_path: Path, comment: str) -> None:
    lines = [VLLM_TITLE, "", POST.format(day="2026-05-05"), *BODY, "", "bob · comment · 2026-05-06", comment]
    path = _path(tmp_path, lines)
    assert path.framework != "vllm" and path.worker_class is None


ADDS_TITLE = "[Model] MiniMax-M2: add EAGLE3 speculative decoding support"
PULL_FORMS: dict[str, Callable[[str], list[str]]] = {
    "index": lambda repo: [f"{repo} · pull request #4101 · open", f"# {ADDS_TITLE}"],
    "citation": lambda repo: [ADDS_TITLE, f"{repo} PR#4101 · pull request · open"],
    "citation, pull request #": lambda repo: [ADDS_TITLE, f"{repo} pull request #4101 · merged"],
    "citation, merged": lambda repo: [ADDS_TITLE, f"{repo}#4101 · merged"],
    "URL": lambda repo: [ADDS_TITLE, f"https://github.com/{repo}/pull/4101"],
    "mail subject": lambda repo: [f"[{repo}] {ADDS_TITLE} (PR #4101)"],
}  # fmt: skip


@pytest.mark.parametrize("form", sorted(PULL_FORMS))
def test_a_pull_request_adding_a_method_in_any_copy_form_shows_no_run(tmp_path: Path, form: str) -> None:
    lines = PULL_FORMS[form]("vllm-project/vllm") + ["", POST.format(day="2026-03-27"),
                                                     "This PR wires the EAGLE3 draft heads into MiniMax-M2.", *BODY[1:]]  # fmt: skip
    path = _path(tmp_path, lines)
    assert path.worker_class is None and path.conditional is None


@pytest.mark.parametrize(
    "head",
    [["radixark/miles · issue #366 · open", "# MTP not working with Qwen3 Next"],
     ["MTP not working with Qwen3 Next", "radixark/miles#366 · open"]],
)  # fmt: skip
def test_a_title_above_its_head_is_read_as_the_title_not_as_prose(tmp_path: Path, head: list[str]) -> None:
    lines = [*head, "", "bob · comment · 2025-12-30",
             "would you accept a contribution for this? which files should be modified?", *BODY[2:-1]]  # fmt: skip
    path = _path(tmp_path, lines)
    assert path.worker_class is None and path.conditional is None
