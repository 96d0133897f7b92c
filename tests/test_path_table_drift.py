"""The path tables and the release-date tables agree with each other and with the releases
the generator scanned (tests/fixtures/path_tables_latest.json): a class a method row names is
defined by a frame row of that framework in the releases the method row says, every frame
row's release bounds are scanned releases, and every scanned release has a publication day.
A table regenerated from a newer release set without the others fails here."""

from __future__ import annotations

import json
import tomllib
from importlib import resources
from pathlib import Path

import pytest
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = json.loads((ROOT / "tests" / "fixtures" / "path_tables_latest.json").read_text())
TABLES = ("sglang", "vllm", "vllm_ascend", "trtllm", "vllm_plugins")


def _load(name: str) -> dict:
    return tomllib.loads(
        resources.files("spectrace.rules").joinpath(f"paths/{name}.toml").read_text()
    )


def _frames(framework: str) -> list[dict]:
    return [
        r for name in TABLES for r in _load(name).get("frame", []) if r["framework"] == framework
    ]


def _v(tag: str) -> Version:
    return Version(tag.removeprefix("v"))


def _overlap(a: list[str], b: list[str]) -> bool:
    """Release ranges [first, last] share a release; an unknown ("") bound matches any."""
    if not all(a) or not all(b):
        return True
    return _v(a[0]) <= _v(b[1]) and _v(b[0]) <= _v(a[1])


def _method_rows() -> list[tuple[str, dict]]:
    return [
        (name, row) for name in TABLES for row in _load(name).get("method", []) if row["worker"]
    ]


@pytest.mark.parametrize(
    ("table", "row"),
    _method_rows(),
    ids=lambda x: x if isinstance(x, str) else f"{x['value']}->{x['worker']}",
)
def test_a_method_rows_class_is_defined_in_its_releases(table: str, row: dict) -> None:
    """``mtp`` -> AscendEagleProposer in v0.16.0rc1.. must be a class some frame row of
    vllm_ascend defines in a release range that meets the method row's."""
    framework = row["framework"]
    holders = [r for r in _frames(framework) if row["worker"] in r["classes"]]
    native = [s for s in _load(table).get("symbol", []) if s["worker"] == row["worker"]]
    # a plugin's runner may build a class of vLLM's own (tpu-inference's NgramProposer)
    host = table == "vllm_plugins" and any(row["worker"] in r["classes"] for r in _frames("vllm"))
    assert holders or native or host, (
        f"{table}: {row['value']} names {row['worker']}, defined nowhere"
    )
    if holders:
        assert any(_overlap(r["releases"], row["releases"]) for r in holders), (
            f"{row['worker']} ({row['releases']}) is defined only in "
            f"{[(r['file'], r['releases']) for r in holders][:3]}"
        )


@pytest.mark.parametrize("table", TABLES)
def test_a_frame_rows_worker_is_a_class_its_framework_defines(table: str) -> None:
    for row in _load(table)["frame"]:
        if row["worker"] and not row["function"]:
            defined = {c for r in _frames(row["framework"]) for c in r["classes"]}
            assert row["worker"] in defined, f"{row['file']}: {row['worker']} is defined nowhere"


@pytest.mark.parametrize("framework", sorted(set(MANIFEST) - {"trtllm"}))
def test_frame_row_releases_are_scanned_releases(framework: str) -> None:
    scanned = set(MANIFEST[framework]["releases"])
    for row in _frames(framework):
        assert set(row["releases"]) <= scanned, f"{row['file']}: {row['releases']} not scanned"


@pytest.mark.parametrize("framework", ["vllm", "vllm_ascend"])
def test_every_scanned_release_has_a_publication_day_and_back(framework: str) -> None:
    """published.toml and the frame table were made from the same release set."""
    days = {_v(r) for r in _load("published")[framework]}
    scanned = {_v(t) for t in MANIFEST[framework]["releases"]}
    assert scanned - days == set(), f"{framework}: scanned but undated {sorted(scanned - days)[:5]}"
    assert days - scanned == set(), (
        f"{framework}: dated but not scanned {sorted(days - scanned)[:5]}"
    )


def test_every_sglang_release_scanned_has_a_publication_day() -> None:
    """sglang_eras.toml [published] (post releases share their release's day)."""
    days = {Version(v) for v in _load("sglang_eras")["published"]}
    scanned = {Version(_v(t).base_version) for t in MANIFEST["sglang"]["releases"]}
    assert sorted(scanned - days) == []
