"""The tables' ``workers`` spans: a speculative file whose class was renamed, split or moved
between releases gets its class release by release, on trees of our own and in the committed
tables (whose spans must stay inside the row's releases, in order, naming classes its framework
defines)."""

from __future__ import annotations

import sys
import tomllib
import zipfile
from importlib import resources
from pathlib import Path

import pytest
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

from path_tables import sglang_rules, vllm_rules  # noqa: E402
from path_tables.merge import merge  # noqa: E402
from path_tables.releases import scan, zip_releases  # noqa: E402
from path_tables.rows import render  # noqa: E402

TABLES = ("sglang", "vllm", "vllm_ascend", "vllm_plugins")


def _zip(folder: Path, version: str, package: str, files: dict[str, str]) -> None:
    with zipfile.ZipFile(folder / f"{version}.zip", "w") as zf:
        for name, text in files.items():
            zf.writestr(package + name, text)


def _vllm_rows(tmp_path: Path) -> dict[str, object]:
    rules = vllm_rules.Rules(vllm_rules.VLLM)
    releases = zip_releases(tmp_path, "vllm/")
    history = scan(releases, rules.scope, rules.keep_text)
    return {r.file: r for _rel, r in rules.frame_rows(history, rules.import_graph(releases))}


def test_a_renamed_proposer_gets_its_class_by_release(tmp_path: Path) -> None:
    """zeta.py held ZetaProposer on 0.9.x and PlatformZetaProposer from 0.10.0."""
    old = {"v1/spec_decode/zeta.py": "class ZetaProposer: pass\n"}
    new = {"v1/spec_decode/zeta.py": "class PlatformZetaProposer: pass\n"}
    _zip(tmp_path, "0.9.0", "vllm/", old)
    _zip(tmp_path, "0.9.1", "vllm/", old)
    _zip(tmp_path, "0.10.0", "vllm/", new)
    row = _vllm_rows(tmp_path)["v1/spec_decode/zeta.py"]
    assert row.worker == "PlatformZetaProposer"  # the newest, as before
    assert row.workers == (("ZetaProposer", "v0.9.0", "v0.9.1"),
                           ("PlatformZetaProposer", "v0.10.0", "v0.10.0"))
    text = render("h", [row], [], [])
    assert 'workers = [["ZetaProposer", "v0.9.0", "v0.9.1"], ["PlatformZetaProposer"' in text


def test_a_file_whose_base_other_proposers_derive_from_names_them_too(tmp_path: Path) -> None:
    """eagle.py defines a base beside its proposer on 0.9.1, and draft.py's proposer derives
    from that base: a frame in eagle.py then may be the draft proposer's (vLLM 0.15-0.19)."""
    _zip(tmp_path, "0.9.0", "vllm/", {"v1/spec_decode/eagle.py": "class EagleProposer: pass\n"})
    _zip(tmp_path, "0.9.1", "vllm/", {
        "v1/spec_decode/eagle.py": ("class SpecDecodeBaseProposer: pass\n"
                                    "class EagleProposer(SpecDecodeBaseProposer): pass\n"),
        "v1/spec_decode/draft_model.py": ("from .eagle import SpecDecodeBaseProposer\n"
                                          "class DraftModelProposer(SpecDecodeBaseProposer): pass\n"),
    })
    rows = _vllm_rows(tmp_path)
    assert rows["v1/spec_decode/eagle.py"].workers == (
        ("EagleProposer", "v0.9.0", "v0.9.0"),
        ("EagleProposer|DraftModelProposer", "v0.9.1", "v0.9.1"),
    )
    assert rows["v1/spec_decode/draft_model.py"].workers == ()  # one class all along


def test_a_file_with_one_class_all_along_has_no_spans(tmp_path: Path) -> None:
    for version in ("0.9.0", "0.9.1"):
        _zip(tmp_path, version, "vllm/", {"v1/spec_decode/ngram.py": "class NgramProposer: pass\n"})
    row = _vllm_rows(tmp_path)["v1/spec_decode/ngram.py"]
    assert (row.worker, row.workers) == ("NgramProposer", ())
    assert "workers" not in render("h", [row], [], [])


def test_sglang_worker_renamed_between_releases(tmp_path: Path) -> None:
    spec = "class SpeculativeAlgorithm(Enum):\n    NONE = 1\n    ZETA = 2\n"
    _zip(tmp_path, "0.9.0", "sglang/", {"srt/speculative/spec_info.py": spec,
                                        "srt/speculative/zeta_worker.py": "class ZetaWorker: pass\n"})
    _zip(tmp_path, "0.9.1", "sglang/", {"srt/speculative/spec_info.py": spec,
                                        "srt/speculative/zeta_worker.py": "class ZETAWorker: pass\n"})
    history = scan(zip_releases(tmp_path, "sglang/"), sglang_rules.scope, sglang_rules.keep_text)
    rows = {r.file: r for r in merge("sglang", sglang_rules.frame_rows(history))}
    assert rows["speculative/zeta_worker.py"].workers == (("ZetaWorker", "v0.9.0", "v0.9.0"),
                                                          ("ZETAWorker", "v0.9.1", "v0.9.1"))


def _frames(table: str) -> list[dict]:
    text = resources.files("spectrace.rules").joinpath(f"paths/{table}.toml").read_text("utf-8")
    return tomllib.loads(text)["frame"]


def _v(tag: str) -> Version:
    return Version(tag.removeprefix("v"))


@pytest.mark.parametrize("table", TABLES)
def test_committed_spans_lie_in_their_rows_releases_in_order(table: str) -> None:
    rows = _frames(table)
    for row in rows:
        spans = row.get("workers", [])
        if not spans:
            continue
        defined = {c for r in rows if r["framework"] == row["framework"] for c in r["classes"]}
        assert len(spans) > 1 or "|" in spans[0][0], f"{row['file']}: one span, one class"
        first, last = (_v(t) for t in row["releases"])
        ends = [(_v(a), _v(b)) for _c, a, b in spans]
        assert ends[0][0] >= first and ends[-1][1] <= last, f"{row['file']}: spans outside"
        assert all(a <= b for a, b in ends), row["file"]
        assert all(p[1] < n[0] for p, n in zip(ends, ends[1:])), f"{row['file']}: overlap"
        for cls, _a, _b in spans:
            assert set(filter(None, cls.split("|"))) <= defined, f"{row['file']}: {cls}"


def test_vllm_ascends_renamed_proposers_have_their_old_classes() -> None:
    """The rename of v0.16.0rc1 in the committed table (read from the plugin's tags)."""
    rows = {r["file"]: r for r in _frames("vllm_ascend")}
    eagle = rows["vllm_ascend/spec_decode/eagle_proposer.py"]["workers"]
    assert eagle[0] == ["EagleProposer", "v0.10.2rc1", "v0.14.0rc1"]  # MtpProposer derives on v0.15.0rc1
    assert eagle[-1][0].startswith("AscendEagleProposer|") and eagle[-1][2] == "v0.30.0rc2"
    assert "AscendDflashProposer" in eagle[-1][0]  # it derives from AscendEagleProposer
    for name, old in (("ngram", "NgramProposer"), ("medusa", "MedusaProposer"),
                      ("suffix", "SuffixDecodingProposer")):
        assert rows[f"vllm_ascend/spec_decode/{name}_proposer.py"]["workers"][0][0] == old
