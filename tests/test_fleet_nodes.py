"""Logs of several hosts read together keep their node: ``node03/TP7``, origin names the node."""

from __future__ import annotations

from pathlib import Path

import pytest
from fleet_logs import make_fleet

from spectrace import pipeline
from spectrace.fleet.nodes import node_names
from spectrace.node_label import split_node


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


def _prefixed(fleet: Path, out: Path, prefix: str) -> Path:
    """Every node's log in one stream, each line behind a wrapper naming its host."""
    lines = []
    for n, log in enumerate(sorted(fleet.glob("node*/server.log"))):
        lines += [prefix.format(n=n) + line for line in log.read_text().splitlines()]
    out.write_text("\n".join(lines) + "\n")
    return out


def test_pods_named_by_kubectl_prefix_are_nodes(tmp_path: Path, fleet: Path) -> None:
    """``kubectl logs --prefix`` over a StatefulSet: one file, the pod names the node."""
    merged = _prefixed(fleet, tmp_path / "all.log", "[pod/sglang-{n}/server] ")
    analysis = pipeline.analyse([str(merged)])
    roots = [i for i in analysis.incidents if i.root_cause]
    assert [i.origin_rank for i in roots] == ["sglang-0/TP0"]
    collateral = [i for i in analysis.incidents if not i.root_cause]
    assert collateral and all(i.caused_by == roots[0].id for i in collateral)
    ranks = {r for i in collateral for r in i.ranks}
    assert {split_node(r)[0] for r in ranks} == {"sglang-1", "sglang-2", "sglang-3"}
    assert "sglang-2/rank9" in ranks


def test_one_pod_keeps_plain_ranks(tmp_path: Path, fleet: Path) -> None:
    log = tmp_path / "one.log"
    log.write_text("".join(f"[pod/sglang-0/server] {line}\n"
                           for line in (fleet / "node00/server.log").read_text().splitlines()))  # fmt: skip
    assert [i.origin_rank for i in pipeline.analyse([str(log)]).incidents] == ["TP0"]


def _ray_worker_crash(ip: str, pid: int, minute: int) -> list[str]:
    tag = f"(RayWorkerWrapper pid={pid}, ip={ip}) "
    return [tag + line for line in (
        f"ERROR 12-03 09:{minute:02d}:05 [worker_base.py:620] Error executing method "
        "'execute_model'. This might cause deadlock in distributed execution.",
        "Traceback (most recent call last):",
        '  File "/opt/vllm/vllm/worker/worker_base.py", line 612, in execute_method',
        "    return run_method(self, method, args, kwargs)",
        "RuntimeError: NCCL error: unhandled system error",
    )]  # fmt: skip


def test_ray_worker_ips_are_nodes(tmp_path: Path) -> None:
    """vLLM on a Ray cluster: every worker's lines name its machine with ``ip=``."""
    log = tmp_path / "driver.log"
    log.write_text("\n".join(_ray_worker_crash("10.0.0.3", 77, 10)
                             + _ray_worker_crash("10.0.0.2", 41, 11)) + "\n")  # fmt: skip
    (incident,) = [i for i in pipeline.analyse([str(log)]).incidents if i.root_cause]
    assert incident.origin_rank == "10.0.0.3/RayWorkerWrapper"
    assert sorted(incident.ranks) == ["10.0.0.2/RayWorkerWrapper", "10.0.0.3/RayWorkerWrapper"]
    single = tmp_path / "single.log"
    single.write_text("\n".join(_ray_worker_crash("10.0.0.3", 77, 10)) + "\n")
    (incident,) = [i for i in pipeline.analyse([str(single)]).incidents if i.root_cause]
    assert incident.origin_rank == "RayWorkerWrapper"  # one machine: no node to name


def test_syslog_hosts_are_nodes(tmp_path: Path) -> None:
    """journalctl of two machines merged: the host column names each writer."""
    log = tmp_path / "journal.log"
    log.write_text("".join(
        f"Dec  3 09:1{n}:05 {host} python3[{pid}]: RuntimeError: CUDA error: an illegal memory "
        "access was encountered\n" for n, (host, pid) in enumerate((("gpu-b", 51), ("gpu-a", 42)))
    ))  # fmt: skip
    (incident,) = pipeline.analyse([str(log)]).incidents
    assert incident.origin_rank == "gpu-b" and sorted(incident.ranks) == ["gpu-a", "gpu-b"]


def test_torch_rank_of_a_node_label_and_same_rank_across_nodes() -> None:
    from spectrace.rank_layout import RankLayout

    layout = RankLayout(tp_size=8)
    assert layout.torch_rank("node03/rank7") == 7 and layout.torch_rank("node03/TP7") == 7
    assert layout.same_rank("node03/rank7", "node03/TP7")
    assert not layout.same_rank("node03/rank7", "node04/TP7")
    assert layout.same_rank("rank7", "node04/TP7")  # a label without a node names no host
