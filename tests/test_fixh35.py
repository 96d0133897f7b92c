"""Session 35 (FIXH): runs a fix pull request shows only by a server record it quotes inline.

Each test writes its own lines in the shape of the text class it covers and asserts what a user
sees (the worker path's class, and the line that proves it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import assert_no_path, assert_verdict, probed_path


def _pull(number: int, title: str, day: str, body: list[str]) -> list[str]:
    return [f"sgl-project/sglang · pull request #{number} · open · Python", f"# {title}", "",
            f"quinn · description · {day}", "## Motivation", "", *body]  # fmt: skip


# --- a fix PR whose motivation quotes SGLang's decode record (accept len / accept rate) in a code
# span, beside the algorithm the writer ran: the record is the PR's own run ---


@pytest.mark.parametrize(("lines", "said"), [
    # a bullet of the server's fields under the sentence naming the algorithm
    (_pull(4242, "fix spec metrics in the usage block", "2026-03-02", [
        "When serving with NGRAM speculative decoding, the server log had the right acceptance but "
        "responses carried zeros.", "",
        "- Server: `accept len: 3.10, accept rate: 0.62`", "- Response: zeros"]),
     "When serving with NGRAM"),
    # the whole decode record, the algorithm in a first-person sentence
    (_pull(4300, "fix: drafting stats dropped from responses", "2026-02-14", [
        "We run NGRAM drafting for a code assistant; the scheduler is fine but the response body is not.", "",
        "- decode log: `#running-req: 3, #token: 640, accept len: 2.40, accept rate: 0.35`",
        "- response: no acceptance fields"]),
     "We run NGRAM drafting"),
    # a YAML-ish block of what each side printed
    (_pull(4310, "[BugFix] accepted-token counts reported as 0", "2026-02-20", [
        "When using NGRAM speculative decoding the numbers never reach the client:", "",
        "```yaml", "server_log: `accept len: 2.20, accept rate: 0.30`", "client_usage: zeros", "```"]),
     "When using NGRAM"),
], ids=["bullet", "whole-record", "yaml"])  # fmt: skip
def test_a_fix_pr_quoting_the_decode_records_fields_shows_its_run(
    tmp_path: Path, lines: list[str], said: str
) -> None:
    path = probed_path(tmp_path, lines)
    assert_verdict(path, "other", "NGRAMWorker")
    assert any(said in e.text for e in path.evidence), path.evidence


@pytest.mark.parametrize("lines", [
    # the fields with placeholders: what the log would print, no figure measured
    _pull(4290, "fix usage stats for speculative requests", "2026-09-02", [
        "When EAGLE3 drafting is on, the decode log would print `accept len: X, accept rate: Y` but "
        "each response reports zero accepted tokens."]),
    # a page explaining the decode line with an example of its fields
    ["# Reading SGLang decode logs", "",
     "This page explains the scheduler decode line. With NGRAM speculative decoding, each decode line "
     "carries the speculative fields, for example `accept len: 2.50, accept rate: 0.60`.", "",
     "## Fields", "", "- accept len: mean accepted tokens per step",
     "- accept rate: accepted over proposed drafts"],
    # a fix PR documenting the fields, its figures an example
    _pull(4270, "fix: describe the decode-log speculative fields", "2026-05-20", [
        "The docs do not say what the NGRAM fields mean. For example a decode line may print "
        "`accept len: 3.40, accept rate: 0.71`; this PR documents both fields."]),
], ids=["placeholders", "docs-page", "docs-fix-pr"])  # fmt: skip
def test_the_decode_records_fields_as_an_example_or_placeholder_show_no_run(
    tmp_path: Path, lines: list[str]
) -> None:
    assert_no_path(tmp_path, lines)


# --- a comment reporting its own runs with the setup listed as items, the algorithm's item
# "X on" ("(TP8, DP attention on, EAGLE3 on)", "- EAGLE3: on"): the algorithm was the run's ---


def _comment(number: int, title: str, day: str, body: list[str]) -> list[str]:
    return [f"sgl-project/sglang · pull request #{number} · open · Python", f"# {title}", "",
            f"sam · comment · {day}", *body]  # fmt: skip


@pytest.mark.parametrize(("lines", "said"), [
    # a parenthesised setup list, then a table of runs by nightly image
    (_comment(5120, "Fix decode stall with DP attention", "2026-08-10", [
        "Seen here too. Three runs of our recipe (TP8, DP attention on, EAGLE3 on), only the nightly image changed:",
        "", "| image | first request | spec_accept_length | result |", "|---|---|---|---|",
        "| `20260801-aa11bb22` | 4.1 s | 2.91 | pass |", "| `20260803-cc33dd44` | 240 s | - | hang |"]),
     "EAGLE3 on"),
    # a bullet list of the setup, the algorithm's item as a key and value
    (_comment(5160, "Fix draft KV release under PD", "2026-08-21", [
        "Confirmed on our side. Setup of the runs below:", "",
        "- prefill 2 nodes, decode 2 nodes", "- EAGLE3: on", "- nixl transfer backend", "",
        "| build | outcome | spec_accept_length |", "|---|---|---|",
        "| nightly 2026-08-12 | ok | 3.05 |", "| nightly 2026-08-15 | hang | - |"]),
     "EAGLE3: on"),
], ids=["parenthesised-list", "bullet-key-value"])  # fmt: skip
def test_a_setup_items_algorithm_on_is_the_runs_algorithm(tmp_path: Path, lines: list[str], said: str) -> None:
    path = probed_path(tmp_path, lines)
    assert_verdict(path, "v2", "EAGLEWorkerV2")
    assert any(said in e.text for e in path.evidence), path.evidence


def test_a_setup_item_in_a_sentence_of_runs_keeps_the_era_condition(tmp_path: Path) -> None:
    path = probed_path(tmp_path, _comment(5180, "Fix hang in PD decode with DP attention", "2026-08-26", [
        "Same here with four decode ranks (NEXTN on; DP attention on). The 0810 nightly passes with "
        "spec_accept_length 2.7 and the 0815 nightly hangs on the first request."]))  # fmt: skip
    assert_verdict(path, "unknown", "EAGLEWorkerV2|EAGLEWorker")


@pytest.mark.parametrize("lines", [
    # a plan: the same setup list for runs still to be made
    ["# Rollout plan for the new cluster", "",
     "Next week we will try the recipe (TP8, DP attention on, MTP on) on the newest SGLang nightly image "
     "and record the first-request latency.", "", "- [ ] pull the image", "- [ ] run the smoke test"],
    # a recommended setup with its launch, nothing printed
    ["# Recommended setup", "", "For this model use SGLang 0.5.17 with TP=4, page size 1, EAGLE3 on.", "",
     "```bash", "python -m sglang.launch_server --model-path org/model --tp 4", "```"],
    # a pull request changing a recipe's defaults to the same list
    ["sgl-project/sglang · pull request #5190 · open · Python", "# Update the GLM recipe defaults", "",
     "pat · description · 2026-08-26",
     "This PR changes the recipe defaults to (TP8, DP attention on, EAGLE3 on) and updates the docs table."],
    # the word after the algorithm is a place, not a setting
    ["# Notes on drafting", "", "EAGLE3 on Blackwell needs the new attention backend; see the table below."],
], ids=["plan", "recommended-setup", "defaults-pr", "on-a-place"])  # fmt: skip
def test_a_setup_items_algorithm_on_in_a_plan_or_guide_shows_no_run(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)
