"""The printed sglang release picks its own row of the era table (not its whole era), the
algorithms outside the EAGLE family get their worker by release, and a log that sets
SGLANG_ENABLE_SPEC_V2 is read as coming from a release that reads it."""

from __future__ import annotations

from pathlib import Path

from test_path_eras import LAUNCH
from test_path_eras import path_of as _path_of

ENV_LAUNCH = "SGLANG_ENABLE_SPEC_V2=1 " + LAUNCH


def path_of(folder: Path, *head: str):  # noqa: ANN201 - the WorkerPath
    folder.mkdir(parents=True, exist_ok=True)
    return _path_of(folder, *head)


def test_a_printed_release_decides_inside_an_era_whose_rows_disagree(tmp_path: Path) -> None:
    # STANDALONE got its V2 worker in 0.5.8: 0.5.7 and 0.5.8 share an era name, not a worker
    old = path_of(tmp_path / "a", "sglang: 0.5.7", ENV_LAUNCH.format(algo="STANDALONE", topk=1))
    assert (old.value, old.worker_class) == ("v1", "StandaloneWorker")
    new = path_of(
        tmp_path / "b", "sglang: 0.5.8.post1", ENV_LAUNCH.format(algo="STANDALONE", topk=1)
    )
    assert (new.value, new.worker_class) == ("v2", "StandaloneWorkerV2")
    assert "0.5.8" in new.evidence[0].reason


def test_without_the_release_the_same_era_is_conditional(tmp_path: Path) -> None:
    path = path_of(
        tmp_path, "lmsysorg/sglang:v0.5.9-cu126", ENV_LAUNCH.format(algo="STANDALONE", topk=1)
    )
    assert (path.value, path.worker_class) == ("v2", "StandaloneWorkerV2")
    unknown = path_of(tmp_path / "u", LAUNCH.format(algo="STANDALONE", topk=1))
    assert unknown.value == "unknown" and unknown.conditional


def test_setting_the_spec_v2_switch_means_a_release_that_reads_it(tmp_path: Path) -> None:
    path = path_of(tmp_path, ENV_LAUNCH.format(algo="EAGLE3", topk=1))
    assert (path.value, path.worker_class) == ("v2", "EAGLEWorkerV2")
    assert "SGLANG_ENABLE_SPEC_V2, which the log sets" in path.evidence[0].reason
    off = path_of(
        tmp_path / "off", "SGLANG_ENABLE_SPEC_V2=0 " + LAUNCH.format(algo="EAGLE3", topk=1)
    )
    assert off.value == "unknown"  # v1 up to 0.5.12, the synchronous V2 from 0.5.13
    assert off.conditional == "v2 (EAGLEWorkerV2) if sglang >= 0.5.13, else v1 (EAGLEWorker)"


def test_dflash_gets_its_worker_by_release(tmp_path: Path) -> None:
    path = path_of(tmp_path, LAUNCH.format(algo="DFLASH", topk=1))
    assert path.value == "unknown"
    assert path.conditional == "v2 (DFlashWorkerV2) if sglang >= 0.5.14, else v1 (DFlashWorker)"
    late = path_of(tmp_path / "late", "sglang: 0.5.15", LAUNCH.format(algo="DFLASH", topk=1))
    assert (late.value, late.worker_class, late.family) == ("v2", "DFlashWorkerV2", "DFLASH")
    early = path_of(tmp_path / "early", "sglang==0.5.12", LAUNCH.format(algo="DFLASH", topk=1))
    assert (early.value, early.worker_class) == ("v1", "DFlashWorker")


def test_frozen_kv_mtp_is_not_read_as_eagle(tmp_path: Path) -> None:
    path = path_of(tmp_path, "sglang: 0.5.12", LAUNCH.format(algo="FROZEN_KV_MTP", topk=1))
    assert (path.value, path.worker_class) == ("v1", "FrozenKVMTPWorker")
    dspark = path_of(tmp_path / "d", LAUNCH.format(algo="DSPARK", topk=1))
    assert (dspark.value, dspark.worker_class) == ("v2", "DSparkWorkerV2")


def test_the_switch_set_with_no_algorithm_gives_a_conditional(tmp_path: Path) -> None:
    # the paste stops before --speculative-algorithm: the switch acts on EAGLE-family runs only
    path = path_of(tmp_path, "export SGLANG_ENABLE_SPEC_V2=1",
                   "python3 -m sglang.launch_server --model-path /models/q --tp 2")  # fmt: skip
    assert path.value == "unknown"
    assert path.conditional is not None and path.conditional.startswith("v2 (EAGLEWorkerV2) if")
    assert any("server_args=ServerArgs" in need for need in path.missing)
