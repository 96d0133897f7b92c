"""Write every hand-made sample log and its expected.json (deterministic: run twice, same bytes).

Usage: python sample_logs/make_samples.py [--out sample_logs] [--check]
  --check  regenerate in memory and fail if any committed file differs.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from stories_capture import capture_failed  # noqa: E402
from stories_dp import dp_attention  # noqa: E402
from stories_more import benign_only, chained_traceback, faulthandler_segfault  # noqa: E402
from stories_ray import ray_wrapped  # noqa: E402
from stories_relaunch import relaunch  # noqa: E402
from stories_sglang import k8s_wrapped, pasted_midway, seed_story  # noqa: E402
from stories_torchrun import nccl_watchdog  # noqa: E402
from stories_torchrun_console import torchrun_console  # noqa: E402
from stories_trtllm import trtllm  # noqa: E402
from stories_v2 import v2_run  # noqa: E402
from stories_v2_topk import v2_topk_rejected  # noqa: E402
from stories_vllm import vllm_enginecore  # noqa: E402
from stories_vllm033 import vllm_v033  # noqa: E402

Story = Callable[[], tuple[dict[str, bytes], dict]]

STORIES: dict[str, tuple[Story, str]] = {
    "seed_story": (
        seed_story,
        "The seed story (CONTEXT.md): EAGLE-3 v1 at TP8, shape crash on TP7, marker never printed.",
    ),
    "v2_run": (
        v2_run,
        "Spec v2 (SGLANG_ENABLE_SPEC_V2=True, topk 1): the marker prints; CUDA fault in draft extend.",
    ),
    "vllm_enginecore": (
        vllm_enginecore,
        "vLLM 0.11 TP2 EAGLE-3: both workers fail in EagleProposer.propose; EngineCore and AsyncLLM collateral.",
    ),
    "chained_traceback": (
        chained_traceback,
        "SGLang v1: ValueError -> UnboundLocalError -> RuntimeError chain on TP0 and TP1.",
    ),
    "faulthandler_segfault": (
        faulthandler_segfault,
        "SGLang 0.5.10 TP1: faulthandler segfault dump in verify, then the subprocess watchdog.",
    ),
    "nccl_watchdog": (
        nccl_watchdog,
        "torchrun TP4, one file per rank: rank2 OOMs in the draft and skips a collective; all ranks hit the NCCL watchdog.",
    ),
    "benign_only": (
        benign_only,
        "A healthy SGLang run full of alarming-looking benign lines: zero incidents.",
    ),
    "trtllm": (
        trtllm,
        "trtllm-serve, 2 MPI ranks: CUDA illegal memory access in the forward step on rank 1.",
    ),
    "k8s_wrapped": (
        k8s_wrapped,
        "The seed crash as kubelet stores it: CRI prefixes on every line, gzip-compressed.",
    ),
    "relaunch": (
        relaunch,
        "One file, two launches: the seed v1 crash, then a spec-v2 relaunch that crashes in draft extend.",
    ),
    "dp_attention": (
        dp_attention,
        "SGLang TP4 DP2 EP4 with DP attention: prefixes like 'DP1 TP3 EP3'; DP group 1 fails.",
    ),
    "vllm_v033": (
        vllm_v033,
        "vLLM 0.33 TP1: the EAGLE-3 drafter fails to load; EngineCore never starts; APIServer gives up.",
    ),
    "ray_wrapped": (
        ray_wrapped,
        "The seed crash inside a Ray actor: '(SGLangEngineActor pid=48211, ip=10.20.3.7) ' on every line.",
    ),
    "torchrun_console": (
        torchrun_console,
        "torchrun console: four ranks' '[rankN]: ' tracebacks interleaved line by line, then ChildFailedError.",
    ),
    "capture_failed": (
        capture_failed,
        "SGLang start-up: the EAGLE draft CUDA-graph capture runs out of memory on both ranks.",
    ),
    "v2_topk_rejected": (
        v2_topk_rejected,
        "SGLang refuses to start: SGLANG_ENABLE_SPEC_V2=True with --speculative-eagle-topk 4.",
    ),
    "pasted_midway": (pasted_midway, "A paste that starts in the middle of the TP7 traceback."),
}


def render(name: str) -> dict[str, bytes]:
    """All files of one sample dir, expected.json included, as bytes."""
    story, summary = STORIES[name]
    files, expected = story()
    doc = {"sample": name, "summary": summary, **expected}
    files["expected.json"] = (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode()
    return files


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    stale = []
    for name in STORIES:
        for fname, data in render(name).items():
            path = args.out / name / fname
            if args.check:
                if not path.exists() or path.read_bytes() != data:
                    stale.append(str(path))
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
    if stale:
        sys.stderr.write("stale samples (rerun make_samples.py): " + ", ".join(stale) + "\n")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
