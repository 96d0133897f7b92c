"""vLLM platform plugins' own proposers, session 25 (issue 11): the Rebellions plugin
(vllm-rbln) read from its own tags, its own release stated in words, and the generator keeping
the rows of plugins whose sources are not on the machine.

The shape: a vllm-rbln pull request tells a hang its author reproduced in
``RBLNEagleProposer.propose()`` (an MTP model, DP + EP), with a serve command under "How to
Test". Before, no table held the plugin, so the text was read as a vLLM run and its condition
named vLLM's upstream ``EagleProposer``. vllm-rbln's runner builds vLLM's ``EagleProposer`` for
every ``use_eagle()`` method on its releases for vLLM 0.10.2 (v0.9.2.post1..v0.10.2.post2) and
its own ``RBLNEagleProposer`` from v0.10.3a0, so only the plugin's release decides. Our own
lines throughout."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import pytest
from real_logs_helpers import assert_no_path, assert_verdict, probed_path

from spectrace.assemblers.vllm_plugins import plugin_proposer

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

from path_tables import frameworks, plugins  # noqa: E402

_SERVE = ["```bash", "vllm serve /models/DeepSeek-V3 \\", "    --data-parallel-size 2 --enable-expert-parallel \\",
          """    --speculative-config '{"method": "mtp", "num_speculative_tokens": 2}'""", "```"]  # fmt: skip


def _pr(head: str, *body: str) -> list[str]:
    return [head, "# fix(spec-decode): keep DP ranks in step during MTP drafting", "",
            "dev-a · description · 2026-08-03", *body]  # fmt: skip


def test_the_plugin_s_method_rows_by_release() -> None:
    assert plugin_proposer("vllm_rbln", "mtp", "v0.11.0") == ("RBLNEagleProposer", None)
    assert plugin_proposer("vllm_rbln", "eagle3", "0.10.3") == ("RBLNEagleProposer", None)
    assert plugin_proposer("vllm_rbln", "mtp", "v0.9.4") == ("EagleProposer", None)
    assert plugin_proposer("vllm_rbln", "medusa", "v0.10.4")[0] == "RBLNMedusaProposer"
    cls, condition = plugin_proposer("vllm_rbln", "mtp")
    assert cls is None and condition is not None
    assert "RBLNEagleProposer on vllm_rbln v0.10.3a0" in condition and "EagleProposer on vllm_rbln v0.9" in condition


def test_a_plugin_pr_reproducing_a_hang_in_its_own_proposer(tmp_path: Path) -> None:
    """R74 18's shape: the plugin's class named as the code that hung, a reproduction and a
    serve command; the tracker in three copy forms."""
    for i, head in enumerate(("RBLN-SW/vllm-rbln · pull request #1200 · merged · Python",
                              "rebellions-sw/vllm-rbln#1200 · merged",
                              "https://github.com/RBLN-SW/vllm-rbln/pull/1200")):
        lines = _pr(head, "Fixes a hang when serving an MTP model with DP + EP.", "",
                    "`RBLNEagleProposer.propose()` returned early on chunked-prefill steps, so one rank"
                    " never entered the draft all-reduce. It shows only when more than one token is speculated.",
                    "", "### How to Test", *_SERVE)  # fmt: skip
        (tmp_path / str(i)).mkdir()
        path = probed_path(tmp_path / str(i), lines)
        assert_verdict(path, "other", "RBLNEagleProposer")


def test_the_plugin_s_own_release_stated_in_words(tmp_path: Path) -> None:
    """An issue on the plugin's tracker: "vllm-rbln 0.10.3" places the run on the plugin's own
    class; its 0.9 line (vLLM 0.10.2) on vLLM's class the plugin's runner built. Before, the
    launch decided vLLM's ``EagleProposer`` whatever the plugin's release."""
    launch = """vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{"method": "eagle3", "model": "org/EAGLE3-8B", "num_speculative_tokens": 3}'"""
    cases = (("Running eagle3 with vllm-rbln 0.10.3 on four NPUs, the server hangs.", "RBLNEagleProposer"),
             ("vllm_rbln==0.11.0 and vllm==0.22.0+cpu; eagle3 hangs after one request.", "RBLNEagleProposer"),
             ("Running eagle3 with vllm-rbln v0.9.4, the server hangs.", "EagleProposer"))  # fmt: skip
    for i, (said, cls) in enumerate(cases):
        lines = ["rebellions-sw/vllm-rbln · issue #455 · open", "# [Bug] eagle3 hangs after the first request",
                 "", "user-b · description · 2026-05-04", said, "", launch]  # fmt: skip
        (tmp_path / str(i)).mkdir()
        assert_verdict(probed_path(tmp_path / str(i), lines), "other", cls)


def test_no_release_or_two_releases_leave_the_plugin_s_condition(tmp_path: Path) -> None:
    launch = """vllm serve org/model --speculative-config '{"method": "eagle3", "model": "org/d", "num_speculative_tokens": 3}'"""
    for i, said in enumerate(("eagle3 hangs on the plugin.",
                              "It worked on vllm-rbln 0.9.4 and hangs on vllm-rbln 0.10.3.")):
        lines = ["rebellions-sw/vllm-rbln · issue #456 · open", "# [Bug] eagle3 hangs", "", said, "", launch]
        (tmp_path / str(i)).mkdir()
        path = probed_path(tmp_path / str(i), lines)
        assert_verdict(path, "unknown", "RBLNEagleProposer|EagleProposer")
        assert path.worker_class is None


def test_plugin_prs_that_only_change_code_get_no_path(tmp_path: Path) -> None:
    """The counterweight: the plugin's class named by a refactor or a feature PR whose only
    checks are unit tests or CI is code, not a run."""
    bodies = (
        ("# refactor(spec-decode): move padding helpers out of RBLNEagleProposer",
         "Moves `_pad_draft_inputs` from `RBLNEagleProposer` into `vllm_rbln/v1/spec_decode/utils.py`."
         " No behaviour change.", "### How to Test", "Unit tests: `pytest tests/unit/v1/spec_decode/test_eagle.py`"),
        ("# feat(spec-decode): MTP draft support in RBLNEagleProposer",
         "Adds MTP draft support to `RBLNEagleProposer` by sharing the target's LM head.",
         "### How to Test", "CI only for now; end-to-end validation will follow."),
    )  # fmt: skip
    for i, (title, *body) in enumerate(bodies):
        (tmp_path / str(i)).mkdir()
        lines = ["RBLN-SW/vllm-rbln · pull request #1300 · open · Python", title, "",
                 "dev-c · description · 2026-08-10", *body]  # fmt: skip
        assert_no_path(tmp_path / str(i), lines)


def test_a_vllm_thread_citing_the_plugin_stays_vllm_s(tmp_path: Path) -> None:
    """A comment on vLLM's tracker linking the plugin's repository is no run on the plugin."""
    lines = ["vllm-project/vllm · issue #50001 · open", "# [Bug]: eagle3 hangs with DP=2", "",
             "user-d · description · 2026-05-04", "vllm 0.18.0 on 2xH100.", "",
             """vllm serve org/model --data-parallel-size 2 --speculative-config '{"method": "eagle3", "model": "org/d", "num_speculative_tokens": 3}'""",
             "", "user-e · comment · 2026-05-05",
             "The RBLN folks fixed something similar: https://github.com/RBLN-SW/vllm-rbln/pull/792"]  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert "RBLN" not in (path.worker_class or "") + (path.conditional or "")


def test_the_generator_keeps_rows_of_plugins_whose_sources_are_absent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Adding one plugin on a machine holding only its mirror keeps every other plugin's rows,
    source line and manifest entry; a plugin the manifest never listed is skipped."""
    table = ROOT / "rules" / "paths" / "vllm_plugins.toml"
    monkeypatch.setattr(plugins, "MIRRORS", tmp_path / "none")
    manifest = {p.framework: {"release": "x", "files": [], "releases": ["x"]} for p in plugins.PLUGINS[:2]}
    header, frames, methods, entries = frameworks.build_plugins(tmp_path / "cache", table, manifest)
    old = tomllib.loads(table.read_text())
    kept = {p.framework for p in plugins.PLUGINS[:2]}
    assert sorted(entries) == sorted(kept)
    assert len(frames) == sum(r["framework"] in kept for r in old["frame"])
    assert len(methods) == sum(r["framework"] in kept for r in old["method"])
    for name in kept:
        assert f"  {name}: github.com/" in header
    assert {(f.file, f.releases) for f in frames} == {
        (r["file"], tuple(r["releases"])) for r in old["frame"] if r["framework"] in kept}


# R74 04's shape: a plugin's feature pull request validated end to end with serve commands whose
# method the copy cut; its title names the proposers the feature is for
_FEATURE_PR = [
    "vllm-project/vllm-ascend · pull request #13100 · open · C++",
    "# [Feature] Per-batch draft length for EAGLE/EAGLE3 proposers",
    "",
    "dev-f · description · 2026-07-23",
    "### What this PR does / why we need it?",
    "The draft length K now follows the running batch size for the EAGLE / EAGLE3 proposers on Ascend.",
    "Per step, the ngram / suffix proposers already respect K; the EAGLE path did not.",
    "### How was this patch tested?",
    "Validated end-to-end with a math-word-problem accuracy and throughput run at 128 concurrent requests. Example commands:",
    "```shell",
    "vllm serve <model> --max-num-seqs 128 \\",
    """  --speculative-config '{"method":""",
]


def test_a_plugin_feature_pr_validated_with_its_own_commands(tmp_path: Path) -> None:
    """A pull request's "[Feature]" tag is the kind of change, not a wish: its validation is
    its run, and the title's families name the plugin's classes (a condition by release); a
    code sentence about the ngram proposer names no family of the run."""
    path = probed_path(tmp_path, _FEATURE_PR)
    assert_verdict(path, "unknown", "AscendEagleProposer")
    assert "Ngram" not in (path.conditional or "")


def test_feature_requests_and_untested_feature_prs_get_no_path(tmp_path: Path) -> None:
    """The same words in an issue asking for the feature, and feature PRs whose only checks
    are unit tests or an empty template, show no run."""
    request = ["vllm-project/vllm-ascend · issue #13101 · open",
               "# [Feature]: Per-batch draft length for EAGLE/EAGLE3 proposers", "",
               "user-g · description · 2026-07-20",
               "Please let the EAGLE / EAGLE3 proposers on Ascend follow the batch-size K schedule."]  # fmt: skip
    unit = [*_FEATURE_PR[:7], "### How was this patch tested?", "Added unit tests in tests/ut/spec_decode/; CI passed."]
    empty = ["vllm-project/vllm · pull request #51002 · closed · Python",
             "# [Feature] Support MTP speculative decoding for a hybrid model", "",
             "dev-h · description · 2026-06-08", "## Purpose", "", "## Test Plan", "", "## Test Result"]  # fmt: skip
    for i, lines in enumerate((request, unit, empty)):
        (tmp_path / str(i)).mkdir()
        assert_no_path(tmp_path / str(i), lines)


def test_vllm_s_activation_line_of_the_plugin_is_a_vllm_run_on_it(tmp_path: Path) -> None:
    """A plugin PR pasting its own run: vLLM's resolver logged "Platform plugin rbln is
    activated" (vLLM has no built-in platform of that name), an example script ran eagle3. The
    run is vLLM's on the plugin: the plugin's classes by release, never vLLM's EagleProposer
    alone. Before, nothing named the engine and the text had no verdict."""
    lines = ["RBLN-SW/vllm-rbln · pull request #1400 · closed · Python", "# fix: EAGLE3 draft logits on NPU", "",
             "[turn 0 by dev-k, continued]", "```",
             "root@host:/workspace/vllm-rbln# python examples/run_specdec.py --method eagle3",
             "INFO 05-08 06:26:02 [__init__.py:46] - rbln -> vllm_rbln:register",
             "INFO 05-08 06:26:02 [__init__.py:239] Platform plugin rbln is activated",
             "[vllm-rbln] INFO 2026-05-08 06:26:05,878 [layer.py:513] fused moe kernel selected"]  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert_verdict(path, "unknown", "RBLNEagleProposer")
    # the same line beside a launch: the plugin's rows; "tpu" is also vLLM's built-in platform's
    # name, so that line alone leaves vLLM's class a condition (the plugin may build its own)
    launch = """vllm serve org/m --speculative-config '{"method": "eagle3", "model": "org/d"}'"""
    for i, (name, want) in enumerate((("rbln", "RBLNEagleProposer on vllm_rbln"),
                                      ("tpu", "EagleProposer on vLLM's GPU platforms"))):
        (tmp_path / name).mkdir()
        line = f"INFO 05-08 06:26:02 [__init__.py:239] Platform plugin {name} is activated"
        found = probed_path(tmp_path / name, [launch, line])
        assert found.worker_class is None and want in (found.conditional or ""), found.conditional
