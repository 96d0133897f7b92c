"""A crash in vLLM's V1 rejection sampler under the vllm-ascend plugin's runner: drafts ran.

vLLM's V1 rejection sampler (``vllm/v1/sample/rejection_sampler.py``) runs only to verify
draft tokens (``parse_output`` where more than one token per step came back, ``forward`` on
the drafts), so a frame there shows speculation on even where no line names the method. Under
the plugin's runner (its ``vllm_ascend/worker/model_runner_v1.py`` frames, or a run placed on
Ascend) the proposer was one of the plugin's: the verdict is the condition over the classes the
plugin's release builds (the vLLM release it pairs with where only that is stated), never one
of them. On vLLM's own GPU runner nothing changes. Every line here is written by us."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.real_logs_helpers import assert_verdict, crash_path, run

ASCEND = "/home/dev/latest/vllm-ascend/vllm_ascend"
VLLM = "/home/dev/latest/vllm/vllm"
SITE = "/usr/local/lib/python3.11/site-packages/vllm"


def _worker_crash(runner: str, sampler: str = f"{VLLM}/v1/sample/rejection_sampler.py", prefix: str = "") -> list[str]:
    return [
        f"{prefix}Traceback (most recent call last):",
        f'{prefix}  File "{VLLM}/v1/executor/multiproc_executor.py", line 819, in worker_busy_loop',
        f"{prefix}    output = func(*args, **kwargs)",
        f'{prefix}  File "{runner}", line 1673, in sample_tokens',
        f"{prefix}    ) = self._bookkeeping_sync(",
        f'{prefix}  File "{runner}", line 1814, in _bookkeeping_sync',
        f"{prefix}    valid_sampled_token_ids, cu_num_tokens = RejectionSampler.parse_output(",
        f'{prefix}  File "{sampler}", line 223, in parse_output',
        f"{prefix}    output_token_ids_np = output_token_ids.cpu().numpy()",
        f"{prefix}RuntimeError: ACL stream synchronize failed, error code:507015",
    ]


_OLD = {"EagleProposer", "MtpProposer", "NgramProposer", "SuffixDecodingProposer"}


@pytest.mark.parametrize(
    "said",
    [
        "vllm：v0.13.0 commit：72506c98349d6bcd32b4e33eec7b5513453c1502",  # an issue form, full-width colons
        "vllm: v0.13.0",
        "- vLLM version: 0.13.0",
        "vllm_ascend==0.13.0rc1",
    ],
)
def test_a_sampler_crash_under_the_plugins_runner_names_the_releases_proposers(tmp_path: Path, said: str) -> None:
    lines = ["### Your current environment", said, "### Describe the bug",
             *_worker_crash(f"{ASCEND}/worker/model_runner_v1.py",
                            prefix="(Worker_DP1_TP1_EP9 pid=2484) ERROR 01-06 19:37:15 [multiproc_executor.py:824] ")]  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert_verdict(path, "unknown", "|".join(sorted(_OLD)))
    assert "AscendEagleProposer" not in (path.conditional or ""), path.conditional  # 0.16's names


def test_a_newer_release_names_the_renamed_classes(tmp_path: Path) -> None:
    lines = ["image: quay.io/ascend/vllm-ascend:v0.18.0rc1", *_worker_crash(f"{ASCEND}/worker/model_runner_v1.py")]
    path = crash_path(run(tmp_path, lines))
    assert_verdict(path, "unknown", "AscendEagleProposer|AscendNgramProposer|AscendSuffixDecodingProposer")
    assert "NgramProposer," not in (path.conditional or "").replace("AscendNgramProposer,", "")


def test_without_a_release_every_proposer_of_the_plugin_is_named(tmp_path: Path) -> None:
    path = crash_path(run(tmp_path, _worker_crash(f"{ASCEND}/worker/model_runner_v1.py")))
    assert_verdict(path, "unknown", "EagleProposer|AscendEagleProposer|MtpProposer|NgramProposer")


def test_the_gpu_runner_keeps_its_verdict(tmp_path: Path) -> None:
    """Near miss: the same crash under vLLM's own GPU runner: not the plugin's classes."""
    lines = ["vllm: v0.13.0", *_worker_crash(f"{SITE}/v1/worker/gpu_model_runner.py",
                                             f"{SITE}/v1/sample/rejection_sampler.py")]  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert "Ascend" not in f"{path.worker_class} {path.conditional}", path
