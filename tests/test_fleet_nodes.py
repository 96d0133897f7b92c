"""Logs of several hosts read together keep their node: ``node03/TP7``, origin names the node."""

from __future__ import annotations

from pathlib import Path

import pytest
from fleet_logs import make_fleet

from spectrace import pipeline
from spectrace.fleet.nodes import node_names, split_node


@pytest.fixture(scope="module")
def fleet(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_fleet(tmp_path_factory.mktemp("nodes"), nodes=4, size_mb=0.05, ranks=4)


def test_ranks_read_node_slash_rank_and_the_origin_names_its_node(fleet: Path) -> None:
    analysis = pipeline.analyse([str(fleet)])
    roots = [i for i in analysis.incidents if i.root_cause]
    assert [i.origin_rank for i in roots] == ["node00/TP0"]  # node 0 holds TP0..TP3
    collateral = [i for i in analysis.incidents if not i.root_cause]
    assert collateral and all(i.caused_by == roots[0].id for i in collateral)
    ranks = {r for i in collateral for r in i.ranks}
    assert {split_node(r)[0] for r in ranks} == {"node01", "node02", "node03"}
    assert "node02/rank9" in ranks  # node 2 holds global ranks 8..11


def test_one_node_given_alone_keeps_plain_ranks(fleet: Path) -> None:
    analysis = pipeline.analyse([str(fleet / "node00")])
    assert [i.origin_rank for i in analysis.incidents] == ["TP0"]


def test_same_rank_on_two_nodes_stays_two_writers(tmp_path: Path, fleet: Path) -> None:
    """Two hosts each crash on their local TP0: one incident, two occurrences, two nodes."""
    for host in ("host-a", "host-b"):
        (tmp_path / host).mkdir()
        text = (fleet / "node00/server.log").read_text()
        (tmp_path / host / "server.log").write_text(text)
    incident = pipeline.analyse([str(tmp_path)]).incidents[0]
    assert sorted(incident.ranks) == ["host-a/TP0", "host-b/TP0"]


def test_node_is_the_first_directory_under_the_common_root() -> None:
    files = ["/l/node01/logs/a.log", "/l/node01/logs/b.log", "/l/node02/x.log", "/l/top.log", "-"]
    assert node_names(files) == {
        "/l/node01/logs/a.log": "node01", "/l/node01/logs/b.log": "node01", "/l/node02/x.log": "node02",
    }  # fmt: skip
    assert node_names(["/l/a/x.log", "/l/a/y.log"]) == {}  # one host's rotated logs
    assert split_node("node03/TP7") == ("node03", "TP7") and split_node("TP7") == (None, "TP7")
