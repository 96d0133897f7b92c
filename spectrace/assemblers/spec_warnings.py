"""The SGLang overlap-scheduler / spec-v1/v2 start-up warnings (LOG_FORMATS.md 1.4-1.5), as data.

Each warning reveals the worker path the server chose, often the ``SGLANG_ENABLE_SPEC_V2``
setting (env vars are never dumped) and the release era, so the linker can use them when
the ``server_args=`` dump is missing or cut.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SpecWarning:
    """One known warning text and what it proves."""

    pattern: re.Pattern[str]
    era: str | None  # the era table's era that prints this exact text (None: several eras)
    points_to: str | None  # "v1" | "v2" | "other" | None (informs only)
    worker_class: str | None
    overlap: bool | None  # the overlap scheduler state it implies
    spec_v2_env: bool | None  # SGLANG_ENABLE_SPEC_V2 as it must have been set
    reason: str
    eagle_machinery: bool = False  # printed only by the EAGLE-type workers (v1 and v2 alike)


def _w(
    text: str,
    era: str | None,
    points_to: str | None,
    worker: str | None,
    overlap: bool | None,
    env: bool | None,
    reason: str,
    eagle_machinery: bool = False,
) -> SpecWarning:
    return SpecWarning(re.compile(text), era, points_to, worker, overlap, env, reason,
                       eagle_machinery)  # fmt: skip


SPEC_WARNINGS: tuple[SpecWarning, ...] = (
    _w(
        r"Beta spec is enabled for eagle speculative decoding and overlap schedule is turned on",
        "0.5.4-0.5.6",
        "v2",
        "EAGLEWorkerV2",
        True,
        None,
        "beta/spec-v2 warning: overlap schedule turned on -> v2 (EAGLEWorkerV2); "
        "--enable-beta-spec (0.5.4) or SGLANG_ENABLE_SPEC_V2=True (0.5.5-0.5.6)",
    ),
    _w(
        r"Overlap scheduler is disabled because of using eagle speculative decoding",
        "0.4.x-0.5.3",
        "v1",
        "EAGLEWorker",
        False,
        None,
        "pre-0.5.4 warning: EAGLE/NEXTN always ran without the overlap scheduler -> v1 "
        "(EAGLEWorker)",
    ),
    _w(
        r"Overlap scheduler is disabled because of using eagle3 and standalone speculative",
        "0.5.4",
        "v1",
        "EAGLEWorker",
        False,
        None,
        "0.5.4 warning: overlap scheduler disabled (no --enable-beta-spec) -> v1 (EAGLEWorker)",
    ),
    _w(
        r"Overlap scheduler is disabled because of using eagle3 or standalone speculative",
        "0.5.5-0.5.6",
        "v1",
        "EAGLEWorker",
        False,
        False,
        "0.5.5-0.5.6 warning: overlap scheduler disabled, SGLANG_ENABLE_SPEC_V2 off -> v1 (EAGLEWorker)",
    ),
    _w(
        r"Spec v2 is enabled for eagle/eagle3 speculative decoding and overlap schedule is turned on",
        "0.5.7-0.5.10",
        "v2",
        "EAGLEWorkerV2",
        True,
        True,
        "0.5.7-0.5.10 warning: SGLANG_ENABLE_SPEC_V2=True turned the overlap schedule on -> v2 "
        "(EAGLEWorkerV2)",
    ),
    _w(
        r"Spec v2 currently only supports topk = 1 for speculative decoding",
        "0.5.7-0.5.10",
        None,
        None,
        None,
        True,
        "startup refused: SGLANG_ENABLE_SPEC_V2=True with speculative_eagle_topk > 1",
    ),
    _w(
        r"Overlap scheduler is disabled when spec v2 is off or using unsupported speculative",
        "0.5.7-0.5.10",
        "v1",
        "EAGLEWorker",
        False,
        False,
        "0.5.7-0.5.10 warning: overlap scheduler forced off because SGLANG_ENABLE_SPEC_V2 is not "
        "set (or the algorithm is unsupported) -> v1 (EAGLEWorker), even if the code was patched "
        "into eagle_worker_v2.py",
    ),
    _w(
        r"Spec v1 is used for eagle/eagle3/standalone speculative decoding because "
        r"spec v2 currently only supports topk = 1",
        "0.5.11-0.5.12",
        "v1",
        "EAGLEWorker",
        False,
        None,
        "0.5.11-0.5.12 warning: speculative_eagle_topk > 1 forced the overlap scheduler off -> v1 "
        "(EAGLEWorker)",
    ),
    _w(
        r"Spec v1 is used for eagle/eagle3/standalone speculative decoding because "
        r"SGLANG_ENABLE_SPEC_V2=False",
        "0.5.11-0.5.12",
        "v1",
        "EAGLEWorker",
        False,
        False,
        "0.5.11-0.5.12 warning: SGLANG_ENABLE_SPEC_V2=False -> v1 (EAGLEWorker)",
    ),
    _w(
        r"Spec v1 is used for eagle/eagle3/standalone speculative decoding because",
        "0.5.11-0.5.12",
        "v1",
        "EAGLEWorker",
        False,
        None,
        "0.5.11-0.5.12 warning: the overlap schedule is disabled -> v1 (EAGLEWorker)",
    ),
    _w(
        r"Spec v2 is enabled by default for eagle/eagle3/standalone speculative decoding",
        "0.5.11-0.5.12",
        "v2",
        "EAGLEWorkerV2",
        True,
        True,
        "0.5.11-0.5.12 warning: spec v2 on by default -> v2 (EAGLEWorkerV2)",
    ),
    _w(
        r"Non-overlap \(synchronous\) spec v2 is used for eagle/eagle3/standalone",
        "0.5.13+",
        "v2",
        "EAGLEWorkerV2",
        False,
        None,
        "0.5.13+ warning: overlap off, but the v1 worker no longer exists -> synchronous v2 "
        "(EAGLEWorkerV2)",
    ),
    _w(
        r"Overlap spec v2 is enabled by default for eagle/eagle3/standalone",
        "0.5.13+",
        "v2",
        "EAGLEWorkerV2",
        True,
        None,
        "0.5.13+ warning: overlap spec v2 -> v2 (EAGLEWorkerV2)",
    ),
    _w(
        r"SGLANG_ENABLE_SPEC_V2 has been removed",
        "0.5.17+",
        "v2",
        "EAGLEWorkerV2",
        None,
        None,
        "0.5.17+ notice: SGLANG_ENABLE_SPEC_V2 is ignored, speculative decoding always runs the V2 "
        "worker",
    ),
    _w(
        r"Spec v2 is enabled for multi-layer EAGLE speculative decoding",
        "0.5.7-0.5.10",
        "v2",
        "MultiLayerEagleWorkerV2",
        True,
        True,
        "0.5.7-0.5.10 warning: a multi-layer EAGLE model (MiMo-V2-Flash) set SGLANG_ENABLE_SPEC_V2 "
        "on, which forces the overlap scheduler on -> v2 (MultiLayerEagleWorkerV2)",
    ),
    _w(
        r"Spec v2 is enabled for EAGLE speculative decoding\.",
        None,
        None,
        None,
        None,
        True,
        "0.5.12-0.5.13 warning (DeepSeek-V4 hook): SGLANG_ENABLE_SPEC_V2 set on for EAGLE with "
        "topk 1; v2 unless --disable-overlap-schedule on 0.5.12, always v2 from 0.5.13",
    ),
    _w(
        r"Overlap scheduler is disabled when using DFLASH speculative decoding",
        None,
        "v1",
        "DFlashWorker",
        False,
        None,
        "0.5.11-0.5.13 warning: DFLASH has no overlap (v2) worker yet -> v1 (DFlashWorker)",
    ),
    _w(
        r"Overlap scheduler is disabled when using Frozen-KV MTP speculative decoding",
        None,
        "v1",
        "FrozenKVMTPWorker",
        False,
        None,
        "0.5.12-0.5.13 warning: FROZEN_KV_MTP has no overlap (v2) worker yet -> v1 "
        "(FrozenKVMTPWorker)",
    ),
    _w(  # (later releases: "Capture draft decode CUDA graph begin. backend=full, ...")
        r"Capture draft (?:decode |extend )?(?:cuda|CUDA) graph (?:begin|end)",
        None,
        None,
        None,
        None,
        None,
        "the EAGLE-type worker captured its draft CUDA graph (eagle_worker.py and "
        "eagle_worker_v2.py log it alike, sglang 0.4.4-0.5.13): the run speculates with the "
        "EAGLE machinery",
        eagle_machinery=True,
    ),
    _w(
        r"overlap scheduler and mixed chunked prefill are disabled because of using ngram",
        "0.5.4+",
        "other",
        "NGRAMWorker",
        False,
        None,
        "ngram warning: NGRAM speculative decoding -> NGRAMWorker, overlap scheduler off",
    ),
    _w(
        r"Pipeline parallelism is incompatible with overlap schedule|Turn off overlap "
        r"sche\w* for pipeline parallelism|Overlap scheduler is disabled because of using "
        r"pipeline parallelism",
        "0.5.4+",
        None,
        None,
        False,
        None,
        "pipeline parallelism turned the overlap scheduler off (the v1 path for EAGLE before 0.5.13)",
    ),
)


def match_spec_warning(text: str) -> SpecWarning | None:
    """The first known warning the text contains (the table is ordered most specific first)."""
    for warning in SPEC_WARNINGS:
        if warning.pattern.search(text):
            return warning
    return None
