"""Evidence the linker still missed, and names that led it astray (session 30, MISSES30).

- A draft architecture two vLLM methods load (``DeepSeekV4MTPModel``: mtp and dspark) with no
  record stating the method is a condition over both wherever the release is unknown (a banner
  cut or elided where its release was: ``version 0.x...``, ``version 0.2[...]``); a release shown
  that predates DSpark leaves mtp alone. A cut banner gives no release (it used to be read as
  vLLM 0.2, or to stop the analysis on an unreadable version).
"""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import assert_verdict, probed_path

from spectrace.assemblers.vllm_release import cut_release

# --- a draft architecture two methods load, the release unknown ---------------------------

_TAG = "(APIServer pid=20) INFO 03-11 07:45:0"
_TARGET = f"{_TAG}4 [model.py:620] Resolved architecture: DeepseekV4ForCausalLM"
_DRAFT = f"{_TAG}6 [model.py:620] Resolved architecture: DeepSeekV4MTPModel"


def _banner(release: str) -> str:
    return f"{_TAG}1 [api_server.py:1990] vLLM API server version {release}"


def test_a_banner_cut_at_its_release_gives_no_release() -> None:
    for shown, after in (("0.x...", ""), ("0.2", "[...]"), ("0.26", "…"), ("0.", ""), ("0.25...", " (cut)")):
        assert cut_release(shown, after), (shown, after)
    for shown, after in (("0.25.1", ""), ("0.9.2.dev121+g4c8f64faa", ""), ("0.26.0rc1", ", serving")):
        assert not cut_release(shown, after), (shown, after)


def test_a_shared_draft_with_the_release_elided_is_a_condition_over_both(tmp_path: Path) -> None:
    forms = (
        [_banner("0.x..."), _TARGET, _DRAFT],
        [_banner("0.2[...]"), _TARGET, _DRAFT],
        [_banner("..."), _TARGET, "[...]", _DRAFT],
        [_TARGET, _DRAFT],  # no banner at all
    )
    for i, lines in enumerate(forms):
        (tmp_path / str(i)).mkdir()
        path = probed_path(tmp_path / str(i), lines)
        assert_verdict(path, "unknown", "DSparkSpeculator|EagleProposer")


def test_a_release_before_dspark_leaves_mtp_alone(tmp_path: Path) -> None:
    path = probed_path(tmp_path, [_banner("0.21.0"), _TARGET, _DRAFT])
    assert "DSpark" not in (path.worker_class or "") + (path.conditional or ""), path
    assert "EagleProposer" in (path.worker_class or path.conditional or ""), path


def test_a_stated_method_still_decides_under_a_cut_banner(tmp_path: Path) -> None:
    for method, cls in (("dspark", "DSparkSpeculator"), ("mtp", "EagleProposer")):
        args = (f"{_TAG}2 [utils.py:300] non-default args: {{'model': 'org/ds4-small', "
                f"'speculative_config': {{'method': '{method}', 'num_speculative_tokens': 2}}}}")  # fmt: skip
        (tmp_path / method).mkdir()
        path = probed_path(tmp_path / method, [_banner("0.x..."), args, _TARGET, _DRAFT])
        assert_verdict(path, "other", cls)
