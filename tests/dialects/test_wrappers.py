"""Outer wrappers peeled before dialects: CRI (F/P), compose, CI stamps, torchrun, process tags."""

from __future__ import annotations

from spectrace.dialects.wrappers import peel


def test_cri_full_and_partial() -> None:
    p = peel("2025-07-25T07:53:08.217+08:00 stdout F [2025-07-25 07:53:08 TP1] hello")
    assert p.text == "[2025-07-25 07:53:08 TP1] hello" and not p.partial
    assert p.ts is not None and p.ts.ts_text == "2025-07-25T07:53:08.217+08:00"
    assert peel("2025-07-25T07:53:08.217Z stderr P first half ").partial


def test_compose_and_ci_stamp() -> None:
    p = peel("sglang-1  | [2025-07-25 07:53:08 TP0] x")
    assert (p.container, p.text) == ("sglang-1", "[2025-07-25 07:53:08 TP0] x")
    c = peel("2025-07-25T07:53:08.2174390Z Traceback (most recent call last):")
    assert c.text == "Traceback (most recent call last):" and c.ts is not None


def test_torchrun_rank_then_c10() -> None:
    p = peel("[rank1]:[E519 05:58:22.475 ProcessGroupNCCL.cpp:1595] boom")
    assert (p.torch_rank, p.text) == ("rank1", "[E519 05:58:22.475 ProcessGroupNCCL.cpp:1595] boom")


def test_process_tags_nested_keep_innermost() -> None:
    p = peel("(APIServer pid=1) (EngineCore_DP0 pid=12) ERROR 10-05 12:01:02 [core.py:710] x")
    assert (p.proc, p.proc_name) == ("EngineCore_DP0 pid=12", "EngineCore_DP0")
    ray = peel("(RayWorkerWrapper pid=7, ip=10.0.0.1) INFO 10-05 12:00:00 [w.py:1] y")
    assert ray.proc == "RayWorkerWrapper pid=7" and ray.text.startswith("INFO")
    for name in ("Worker_DP1_TP2_EP6", "VllmWorker rank=1", "VllmWorker TP0", "Worker_TP0"):
        assert peel(f"({name} pid=5) text").proc_name == name


def test_plain_text_untouched() -> None:
    assert peel("RuntimeError: x | y").text == "RuntimeError: x | y"
    assert peel("a (b pid=x) c").proc is None


def test_a_logging_prefix_before_a_vllm_header_is_peeled() -> None:
    line = "[2/4,TP3][pid=818] ERROR 03-14 09:26:53.530 [forward_context.py:88]   File \"/x.py\""
    assert peel(line).text == 'ERROR 03-14 09:26:53.530 [forward_context.py:88]   File "/x.py"'
    for kept in ("[2/4,TP3][pid=818] the job started", "[note] ERROR is what we saw first"):
        assert peel(kept).text == kept  # only right before a level and its stamp
