"""One failure printed by several ranks keeps every rank's frames, and the linker reads them:
a rank cut in torch says nothing, the rank beside it printed the proposer's frames. A family's
file under the V1 model runner's draft step names the proposer the engine runs that family on,
release by release.

Every line here is written by us in the real shapes (vLLM's multiproc worker prefix); none is
pasted."""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import roots, run

ASCEND = "/opt/ascend/vllm-ascend/vllm_ascend"
TORCH = "/usr/local/lib/python3.11/site-packages/torch/nn/modules/module.py"
VLLM = "/usr/local/lib/python3.12/dist-packages/vllm"


def worker(rank: int, pid: int, text: str) -> str:
    return (f"(Worker_DP0_TP{rank}_EP{rank} pid={pid}) ERROR 03-02 11:20:07 "
            f"[multiproc_executor.py:700] {text}")  # fmt: skip


def interleaved(family_file: str, runner_file: str) -> list[str]:
    """Three ranks' tracebacks interleaved line by line, cut before any exception line."""
    return [
        worker(2, 501, f'  File "{TORCH}", line 1750, in _call_impl'),
        worker(0, 502, f'  File "{family_file}", line 71, in forward'),
        worker(1, 503, f'  File "{runner_file}", line 1612, in propose_draft_token_ids'),
        worker(2, 501, "    return forward_call(*args, **kwargs)"),
        worker(0, 502, "    hidden_states = self.mtp_block(positions, hidden_states)"),
        worker(1, 503, "    draft_token_ids = self.drafter._propose("),
    ]


def test_another_ranks_frames_give_the_ascend_mtp_proposer_by_release(tmp_path: Path) -> None:
    lines = interleaved(f"{ASCEND}/patch/worker/patch_deepseek_mtp.py",
                        f"{ASCEND}/worker/model_runner_v1.py")  # fmt: skip
    (crash,) = roots(run(tmp_path, lines))
    assert len(crash.rank_frames) == 3  # each rank's record kept its own frames
    path = crash.worker_path
    assert path is not None and path.value == "unknown"
    assert path.conditional == "AscendEagleProposer if vllm-ascend >= 0.16.0rc1, else MtpProposer"
    assert path.framework == "vllm_ascend"
    shown = [(e.lineno, e.text.split(" ", 1)[0], e.text.rsplit("/", 1)[-1]) for e in path.evidence]
    assert shown == [  # each at the line its rank printed it
        (2, "(Worker_DP0_TP0_EP0)", 'patch_deepseek_mtp.py", line 71, in forward'),
        (3, "(Worker_DP0_TP1_EP1)", 'model_runner_v1.py", line 1612, in propose_draft_token_ids'),
    ]
    assert path.missing[0].startswith("the vllm-ascend version")  # the plugin's, not SGLang's


def test_one_class_for_the_family_in_every_release_decides(tmp_path: Path) -> None:
    lines = interleaved(f"{VLLM}/model_executor/models/llama_eagle3.py",
                        f"{VLLM}/v1/worker/gpu_model_runner.py")  # fmt: skip
    (crash,) = roots(run(tmp_path, lines))
    path = crash.worker_path
    assert path is not None
    assert (path.value, path.worker_class, path.framework) == ("other", "EagleProposer", "vllm")
    assert path.evidence[0].reason.endswith("on EagleProposer -> other (EagleProposer)")


def test_a_draft_file_names_its_own_method_on_the_runner_shown(tmp_path: Path) -> None:
    # vLLM runs MTP on EagleProposer and, for step3p5_mtp, on Step3p5MTPProposer at once: the
    # method picks, and deepseek_mtp.py is the draft of deepseek_mtp (mtp) only (path_drafts)
    lines = interleaved(f"{VLLM}/model_executor/models/deepseek_mtp.py",
                        f"{VLLM}/v1/worker/gpu_model_runner.py")  # fmt: skip
    (crash,) = roots(run(tmp_path, lines))
    path = crash.worker_path
    assert path is not None and (path.value, path.worker_class) == ("other", "EagleProposer"), path
    # without the runner's frame (and no release), the draft's file decides no proposer
    alone = [x for x in lines if "gpu_model_runner" not in x and "drafter" not in x]
    (tmp_path / "alone").mkdir()
    (crash,) = roots(run(tmp_path / "alone", alone))
    assert crash.worker_path is not None and crash.worker_path.worker_class is None, crash.worker_path


def test_a_family_file_without_the_runners_draft_step_names_none(tmp_path: Path) -> None:
    # model runner v2 drafts through speculators: without the V1 runner's frame the family
    # file does not say which class ran
    lines = [x for x in interleaved(f"{ASCEND}/patch/worker/patch_deepseek_mtp.py",
                                    f"{ASCEND}/worker/model_runner_v1.py")
             if "TP1" not in x]  # fmt: skip
    (crash,) = roots(run(tmp_path, lines))
    path = crash.worker_path
    assert path is not None and path.value == "unknown" and path.conditional is None


def test_ranks_that_agree_keep_no_second_copy(tmp_path: Path) -> None:
    same = f"{ASCEND}/worker/model_runner_v1.py"
    lines = [worker(r, 500 + r, f'  File "{same}", line 1612, in propose_draft_token_ids')
             for r in range(4)]  # fmt: skip
    (crash,) = roots(run(tmp_path, lines))
    assert len(crash.occurrences) == 4 and crash.rank_frames == ()
