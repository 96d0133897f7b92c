"""TensorRT-LLM's releases and what its configs run: the class a ``decoding_type`` stands for
where the paste leaves keys unset (eagle3_one_model, use_mtp_vanilla, the backend), what a
release's defaults settle, and the release as people write it. Read by the path linker
(``path_missing``, ``path_named``) and the config collector (``config_finish``, ``config_release``).
"""

from __future__ import annotations

import re
from datetime import date

from packaging.version import InvalidVersion, Version

from spectrace.assemblers.image_tags import image_release

# examples/llm-api/quickstart_advanced.py's setup_llm passes eagle3_one_model=args.use_one_model
# itself, and the flag's default was False (store_true) before it became True
# (BooleanOptionalAction): with no flag shown, neither llm_args.py's default nor a release line
# settles it
SCRIPT_ONE_MODEL = "quickstart_advanced.py's --use_one_model default"


# Config values that stand for another method: ``decoding_type: AUTO`` (AutoDecodingConfig)
# drafts with the scheme ``_torch/speculative/auto_heuristic.suggest_spec_config`` picks,
# an NGram one turned off above 32 requests in flight, in every release that has it.
_STANDS_FOR = {
    "auto": ("ngram", "AUTO picks a draft-model-free NGram scheme (auto_heuristic), "
             "off above 32 requests in flight"),
}  # fmt: skip


def resolved_method(method: str) -> tuple[str, str]:
    """(the method that runs, why) for a config value; the value itself when it is one."""
    return _STANDS_FOR.get(method.lower(), (method, ""))


# The TensorRT-LLM release as people write it: the issue template's ``TensorRT-LLM version:
# 1.2.0rc6``, the import banner ``[TensorRT-LLM] TensorRT-LLM version: 0.17.0``, a pin
# ``tensorrt_llm==1.0.0``, a wheel ``tensorrt_llm-1.2.0rc8-cp312-...whl``, an image
# ``tensorrt-llm/release:1.1.0rc2``, prose ``TRT-LLM 1.0``, a nightly
# ``tensorrt_llm==0.16.0.dev2024111900``; not ``tensorrtllm_backend`` or a path.
_RELEASE = re.compile(
    r"(?i)(?<![\w.-])(?:tensorrt[-_]llm|trt[-_]?llm)(?:[\s_]+version)?"
    r"(?:[`'\"]?\s*(?:==|:|=)\s*|\s+|-|/release:)[`'\"]?v?"
    r"(\d+\.\d+(?:\.\d+)?(?:rc\d+|\.post\d+|\.dev\d+)*)(?![\w.]*\d)"
)


# a Markdown table's row naming the engine, its release (three numbers: a results row's ``| TRT-LLM
# | 45.2 |`` is no release) in the next cell: ``| TensorRT-LLM | 1.1.0rc2 |``; the parser may take
# the leading pipe as a prefix; a row comparing two releases names neither
_TABLE_RELEASE = re.compile(
    r"(?i)^\s*\|?\s*\**(?:tensorrt[-_ ]?llm|trt[-_]?llm)(?:\s+version)?\**\s*\|\s*[`'\"]?v?"
    r"(\d+\.\d+\.\d+(?:rc\d+|\.post\d+|\.dev\d+)*)(?![\w.]*\d)(?=[^|]*\|)(?!.*\|\s*[`'\"]?v?\d+\.\d+\.\d)"
)


def trtllm_release(text: str) -> str | None:
    """The TensorRT-LLM release a line names; its defaults (backend, eagle3_one_model) follow."""
    m = _RELEASE.search(text) or _TABLE_RELEASE.search(text)
    return m.group(1) if m is not None else image_release(text, "trtllm")  # "TRT-LLM image: 1.2.0"


# EagleDecodingConfig.spec_dec_mode on the PyTorch backend: EAGLE3_ONE_MODEL when
# eagle3_one_model, else EAGLE3 (ModelDrafter, two-model). The field defaults to True in every
# llm_args.py read, from its first release (it replaced TRTLLM_EAGLE3_ONE_MODEL in PR #4289,
# 2025-05, so 0.20.0); the TensorRT engine backend (``--backend trt`` / ``tensorrt``) runs the
# engine's own EAGLE. PyTorch became the default backend of the LLM API and trtllm-serve in 1.0
# (PRs #5312 and #5717), so with no ``--backend`` a release names the backend too.
ENGINE_BACKENDS = ("trt", "tensorrt")
# The AutoDeploy backend (``--backend _autodeploy``) builds its own executor
# (_torch/auto_deploy/shim/ad_executor.py): it drafted EAGLE-3 with get_spec_drafter's two-model
# ModelDrafter and a separate Eagle3ForCausalLM draft whatever eagle3_one_model said, until its
# own one-model path (PR #10674, 2026-01) and the removal of its two-model path (issue #13534,
# 2026-04): which one a run used the paste does not say.
AUTODEPLOY = "_autodeploy"
AUTODEPLOY_CONDITION = (
    "ModelDrafter (AutoDeploy's executor drafting with a separate EAGLE-3 model) or "
    "Eagle3OneModelWorker (its one-model path, 2026 on)"
)
ONE_MODEL_FIELD = "0.20.0"  # the first release with EagleDecodingConfig.eagle3_one_model
PYTORCH_DEFAULT = "1.0.0"  # the first release whose default backend is PyTorch
PYTORCH_FIRST = "0.17.0"  # the first release holding the PyTorch backend (tensorrt_llm/_torch)
_ONE_MODEL = "Eagle3OneModelWorker"


def prose_method(named: str, release: object, backend: object) -> str | None:
    """The ``decoding_type`` an algorithm the report's sentences name stands for, where the
    release alone leaves one class: NGram runs ``NGramDrafter`` on the PyTorch backend, the
    default from 1.0 on; an EAGLE-3 or MTP run's class hangs on keys prose never shows."""
    at = _release(release)
    if named != "NGRAM" or at is None or at < Version(PYTORCH_DEFAULT):
        return None
    return None if backend in ENGINE_BACKENDS else "NGram"


def _surely_before(at: Version, first: str) -> bool:
    """``at`` is older than release ``first``; a dev build or rc of ``first`` itself
    (``0.17.0.dev2025011400``, ``1.0.0rc3``) is not: what it holds of ``first`` is unknown."""
    return at < Version(first) and at.base_version != Version(first).base_version


def _release(text: object) -> Version | None:
    try:
        return Version(str(text)) if text else None
    except InvalidVersion:
        return None


# PR #17366 ("Force 2 model spec dec to fall back to 1 model", merged 2026-08-12): from it on the
# after-validators of EagleDecodingConfig and MTPDecodingConfig set a two-model request
# (``eagle3_one_model: false``, ``mtp_eagle_one_model: false``) back to one-model, and PR #18721
# (2026-09-13) removed the two-model path; the first release published after the merge is
# 1.3.0rc25 (2026-08-28; rc22.post1 / rc23.post1 of 2026-08-18 patch older branches). A
# two-model request runs ModelDrafter only before it.
TWO_MODEL_COERCED = "1.3.0rc25"
TWO_MODEL_COERCED_DAY = date(2026, 8, 12)  # the merge: no build of an earlier day holds it
_TWO_MODEL = "ModelDrafter"


def two_model_ran(release: object, newest: object = None, day: object = None) -> tuple[bool | None, str]:
    """(ran two-model, why) for a paste that asks for two-model: True before
    ``TWO_MODEL_COERCED``, False from it (the validator sets one-model back), None where neither
    the release the text names, the newest release of its day (``newest``) nor the day itself
    (``day``, ISO: a text written before the merge ran code without it) settles it."""
    at = _release(release)
    if at is not None:
        if at < Version(TWO_MODEL_COERCED):
            return True, ""
        return False, (f"TensorRT-LLM {release} sets a two-model request back to one-model "
                       f"(from {TWO_MODEL_COERCED})")  # fmt: skip
    bound = _release(newest)
    if bound is not None and bound < Version(TWO_MODEL_COERCED):
        return True, ""
    try:
        written = date.fromisoformat(str(day)) if day else None
    except ValueError:
        written = None
    return (True, "") if written is not None and written < TWO_MODEL_COERCED_DAY else (None, "")


def _coerced(one_model_class: str) -> str:
    """The condition of a two-model request whose release the text leaves open."""
    return (f"{_TWO_MODEL} (two-model) on releases before {TWO_MODEL_COERCED}, {one_model_class} "
            f"from {TWO_MODEL_COERCED}, whose config validator sets a two-model request back "
            "to one-model")  # fmt: skip


def eagle_mode(
    one_model: object, backend: object, release: object = None, newest: object = None,
    day: object = None,
) -> tuple[str | None, str | None, str]:
    """(mode, condition, why) of a ``decoding_type: Eagle`` run: the [[method]] value that names
    its class, or a condition when neither the paste nor its release settles eagle3_one_model;
    (None, None, why) on the TensorRT engine backend. ``release``: the TensorRT-LLM release the
    text names, whose defaults stand for what the paste does not set; ``newest``, ``day``: the
    newest release of the text's day and the day (a two-model request runs one-model from
    TWO_MODEL_COERCED)."""
    if str(backend).lower() in ENGINE_BACKENDS:
        return None, None, ""
    if str(backend).lower() == AUTODEPLOY:
        return None, AUTODEPLOY_CONDITION, ""
    if one_model is True:
        return "EAGLE3_ONE_MODEL", None, ""
    if one_model is False:
        two, why = two_model_ran(release, newest, day)
        if two is None:
            return None, _coerced(_ONE_MODEL), ""
        return ("EAGLE3" if two else "EAGLE3_ONE_MODEL"), None, why
    if one_model == SCRIPT_ONE_MODEL:
        return None, (
            f"{_ONE_MODEL} where quickstart_advanced.py's --use_one_model defaults to True, "
            "ModelDrafter (two-model) where it defaults to False (older scripts): the command "
            "passes neither --use_one_model nor --no-use_one_model"
        ), ""
    at = _release(release)
    if backend is None and at is not None and _surely_before(at, PYTORCH_FIRST):
        return None, None, ""  # no PyTorch backend yet: the TensorRT engine's EAGLE
    pytorch = backend is not None or (at is not None and at >= Version(PYTORCH_DEFAULT))
    if at is not None and pytorch and at >= Version(ONE_MODEL_FIELD):
        why = f"eagle3_one_model is not set and defaults to True in TensorRT-LLM {release}" + (
            "" if backend is not None else ", whose default backend is PyTorch"
        )
        return "EAGLE3_ONE_MODEL", None, why
    if at is not None and not pytorch:
        return (
            None,
            (
                f"the TensorRT engine's EAGLE (TensorRT-LLM {release}'s default backend); with "
                f"--backend pytorch {_ONE_MODEL} (eagle3_one_model defaults to True from "
                f"{ONE_MODEL_FIELD}), or ModelDrafter if the run set eagle3_one_model: false"
            ),
            "",
        )
    return (
        None,
        (
            f"{_ONE_MODEL} if eagle3_one_model keeps its default (True), "
            "ModelDrafter (two-model) if the run set eagle3_one_model: false; "
            "the TensorRT engine's EAGLE with --backend tensorrt"
        ),
        "",
    )


# MTPDecodingConfig.spec_dec_mode: a checkpoint with one MTP module (the official DeepSeek-V3
# and R1) runs "MTP Eagle" (MTPEagleWorker, one-model by mtp_eagle_one_model's default True)
# unless use_mtp_vanilla; several modules, or use_mtp_vanilla: true, run MTPWorker. The
# checkpoint's module count is in its config, not the paste.
def mtp_mode(
    vanilla: object, one_model: object, release: object = None, newest: object = None,
    day: object = None,
) -> tuple[str | None, str | None]:
    """(mode, condition) of a ``decoding_type: MTP`` run: MTP when the paste sets
    use_mtp_vanilla, else a condition naming both workers (a two-model request: ModelDrafter
    only before TWO_MODEL_COERCED)."""
    if vanilla is True:
        return "MTP", None
    two = two_model_ran(release, newest, day)[0] if one_model is False else False
    eagle = {True: "ModelDrafter (two-model MTP Eagle)", False: "MTPEagleWorker",
             None: f"ModelDrafter (two-model MTP Eagle) before {TWO_MODEL_COERCED}, MTPEagleWorker "
                   "from it (its validator sets a two-model request back to one-model)"}[two]  # fmt: skip
    return None, (
        f"{eagle} if the checkpoint has one MTP module (DeepSeek-V3/R1) and use_mtp_vanilla "
        "keeps its default (False), else MTPWorker (MTP vanilla)"
    )


# DraftTargetDecodingConfig.spec_dec_mode: DRAFT_TARGET (ModelDrafter, two-model) in the releases
# that read it first; newer llm_args.py hold ``_draft_target_one_model = PrivateAttr(True)`` and
# run DRAFT_TARGET_ONE_MODEL (DraftTargetOneModelWorker). The release that switched is not read.
DRAFT_TARGET_CONDITION = (
    "DraftTargetOneModelWorker (one-model, the default where llm_args.py has "
    "_draft_target_one_model) or ModelDrafter (two-model, the releases before it)"
)


# NGramDecodingConfig: NGramDrafter (ngram.py, drafting between iterations from NGramPoolManager)
# in the releases that read first, NGramWorker (ngram_worker.py, drafting inside the model
# forward from the suffix automaton) in newer main, where one __init__.py imports it alone. The
# release that switched is not read.
NGRAM_CONDITION = (
    "NGramDrafter (ngram.py, the drafter of the releases read first) or NGramWorker "
    "(ngram_worker.py, drafting inside the model forward in newer releases)"
)
