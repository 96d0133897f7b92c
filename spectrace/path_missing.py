"""What a worker-path verdict names beyond v1/v2 (framework, family), and what an "unknown"
lacks: the one line that would settle it, so a user knows what to paste next.

A bare "unknown" reads as a failure of the tool; "no sglang version in the log: paste
``python3 -m sglang.check_env``" is an answer a maintainer would give.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from packaging.version import Version

from spectrace.assemblers.run_config import Evidence, FlagValue, RunConfig
from spectrace.assemblers.spec_prose import PROSE_REASON
from spectrace.assemblers.trtllm_config import (
    DRAFT_TARGET_CONDITION,
    NGRAM_CONDITION,
    PYTORCH_DEFAULT,
    eagle_mode,
    mtp_mode,
    resolved_method,
)
from spectrace.assemblers.vllm_finish import newest_release
from spectrace.path_frames import (
    family_of,
    framework_of_path,
    frameworks_of_class,
    method_signature,
    symbol_signatures,
)

VERSION_LINE = (
    "the sglang version (`python3 -m sglang.check_env` prints `sglang: 0.5.x`; an image tag "
    "`lmsysorg/sglang:v0.5.x` or `sglang==0.5.x` does too)"
)
SGLANG_DUMP = (
    "the `server_args=ServerArgs(...)` start-up line (speculative_algorithm, "
    "disable_overlap_schedule)"
)
VLLM_CONFIG = (
    "vLLM's `Initializing a V1 LLM engine ... with config:` line or the `--speculative-config` "
    "of the launch command"
)
VLLM_VERSION = (
    "the vLLM version or engine line (`vLLM API server version 0.x`, `Initializing a V1 LLM "
    "engine (v0.x)`, `pip show vllm`): which engine generation ran depends on the release"
)
VLLM_RUNNER = (
    "the vLLM version and whether `VLLM_USE_V2_MODEL_RUNNER=1` was set for the server (the "
    "launch command's environment): which model runner ran depends on both"
)
# the same, where the text gives the release: the runner is all that is left open
VLLM_RUNNER_SWITCH = (
    "whether `VLLM_USE_V2_MODEL_RUNNER` was set for the server (the launch command's environment), "
    "or a record of the runner's own file (`[gpu_model_runner.py:N]`: the V1 runner; "
    "`[speculator.py:N]`: the model runner v2): which model runner ran depends on it"
)
ASCEND_VERSION = (
    "the vllm-ascend version (`pip show vllm-ascend`, an image tag "
    "`quay.io/ascend/vllm-ascend:v0.x`): which proposer class ran depends on the release"
)
TRTLLM_MTP = (
    "`use_mtp_vanilla:` under the YAML's `speculative_config:`, or the target checkpoint's "
    "`num_nextn_predict_layers` in its config.json (one MTP module runs MTP Eagle)"
)
TRTLLM_VERSION = (
    "the TensorRT-LLM version (`pip show tensorrt_llm`, the `[TensorRT-LLM] TensorRT-LLM "
    "version:` banner) or a frame from the worker"
)
TRTLLM_CONFIG = "the `speculative_config:` / `decoding_type:` of the extra_llm_api_options YAML"
TRTLLM_ONE_MODEL = (
    "`eagle3_one_model:` under the YAML's `speculative_config:` and the trtllm-serve `--backend`"
)
DRAFT_CONFIG = (
    "the draft model's config.json `model_type` (or `\"method\"` in the --speculative-config "
    "JSON): vLLM tells an MTP head from a plain draft model by it"
)
WORKER_FRAME = (
    "a frame from the speculative worker (the whole traceback, or a py-spy dump of the "
    "scheduler: `py-spy dump --pid <scheduler pid>`)"
)
LAUNCH = "the launch command (`python -m sglang.launch_server ...`, `vllm serve ...`)"
# the crash names its framework (frames, exception type, header): ask for that server's launch
LAUNCH_OF = {
    "sglang": "the `python -m sglang.launch_server ...` (or `sglang serve ...`) command with its "
    "`--speculative-*` flags, or the `server_args=ServerArgs(...)` start-up line",
    "vllm": "the `vllm serve ...` command with its `--speculative-config` (or the `LLM(...)` "
    "call's speculative_config)",
    "vllm_ascend": "the `vllm serve ...` command with its `--speculative-config` (or the "
    "`LLM(...)` call's speculative_config)",
    "trtllm": "the `trtllm-serve ...` command and the `speculative_config:` of its "
    "extra_llm_api_options YAML (decoding_type, eagle3_one_model)",
}
# lines were read but none names the method: the start-up line of that server that prints it
_STARTUP = {"sglang": SGLANG_DUMP, "vllm": VLLM_CONFIG, "vllm_ascend": VLLM_CONFIG,
            "trtllm": TRTLLM_CONFIG}  # fmt: skip
_TRTLLM_WORKERS = {"mtp": "MTPWorker", "draft_target": "ModelDrafter"}
# a voting line that names the vllm-ascend plugin: its package in a frame's path, its image
# (``quay.io/ascend/vllm-ascend:v0.x``) or its model hub (``.../models/vllm-ascend/EAGLE3-...``)
_SHELL_VAR = re.compile(r"\$\{?\w+\}?")  # a value the paste left as a shell variable
_ASCEND = re.compile(r"(?<!vllm-project/)vllm[_-]ascend[/:]")


def _method(config: RunConfig) -> str | None:
    flag = config.flags.get("speculative_config.method")
    return str(flag.value) if flag is not None and flag.value is not None else None


def family_name(method: str) -> str:
    """A config's method as a family name: ``eagle3`` -> EAGLE3, ``deepseek_mtp`` -> MTP."""
    name = method.strip().upper().replace("-", "_")
    return "MTP" if name.endswith("MTP") else name


def describe(
    worker: str | None, config: RunConfig, votes: Sequence[Evidence] = ()
) -> tuple[str | None, str | None]:
    """(framework, family) of a verdict: the class's own table row first (a platform
    plugin's when its package is in the voting frames), the run's algorithm or method for
    the family where the config states one."""
    platform = config.flags.get("platform")
    ascend = platform is not None and platform.value == "ascend"
    plugin = "vllm_ascend" if ascend or any(_ASCEND.search(e.text) for e in votes) else None
    # a class several frameworks define (``NGramWorker``) is the framework the words placed it on
    placed = next((e.framework for e in votes if e.framework and e.worker_class == worker), None)
    known = family_of(worker, plugin or config.engine or placed)
    framework = known[0] if known else None
    framework = framework or config.engine or ("sglang" if known else None)
    framework = framework or ("vllm_ascend" if ascend else None)  # the platform alone shows it
    if plugin and framework == "vllm":  # vLLM's class, run through the plugin's subclass
        framework = plugin
    algo = config.flags.get("speculative_algorithm")
    if framework == "sglang" and algo is not None and algo.value is not None:
        family = str(algo.value).upper()
        if known and known[1] in ("MULTI_LAYER_EAGLE", "STANDALONE", "NGRAM"):
            family = known[1]
        return framework, family
    method = _method(config)
    said = next((e.family for e in votes if e.family and e.worker_class == worker), None)
    if said is not None and method is None:  # the words name the family their class runs
        return framework, said
    if framework == "trtllm" and str(method).lower() == "eagle" and worker:
        if worker == _engine_layer("EAGLE"):  # the TensorRT engine's own EAGLE (EAGLE-1/2)
            return framework, "EAGLE"
        return framework, "EAGLE3"  # the PyTorch backend's Eagle is EAGLE-3, one- or two-model
    if framework in ("vllm", "vllm_ascend", "trtllm") and method:
        method = resolved_method(method)[0] if framework == "trtllm" else method
        row = method_signature(framework, method)
        return framework, row[0] if row and row[0] else family_name(method)
    return framework, (known[1] or None) if known else None


def method_evidence(config: RunConfig) -> list[Evidence]:
    """TensorRT-LLM's ``decoding_type`` / ``speculative_decoding_mode`` names the family through
    its ``[[method]]`` row: "other" with the worker class where the value has one class
    (lookahead_decoding, MTP, eagle3_one_model); a YAML ``Eagle`` may be one- or two-model."""
    flag = config.flags.get("speculative_config.method")
    if config.engine != "trtllm" or flag is None or flag.origin not in ("trtllm_config", "prose"):
        return []
    if flag.origin == "prose":  # a sentence's algorithm: weaker than any other voter
        return [
            replace(e, reason=f"{PROSE_REASON}: {e.reason}") for e in _method_evidence(config, flag)
        ]
    return _method_evidence(config, flag)


def _method_evidence(config: RunConfig, flag: FlagValue) -> list[Evidence]:
    """``method_evidence`` for the flag that states the method."""
    if flag.value is None:  # SpeculativeDecodingMode.NONE, the engine's maxDraftLen: 0
        reason = "TensorRT-LLM: the engine says it drafts no tokens: speculative decoding is off"
        return [Evidence(flag.source, flag.lineno, "speculative decoding: none", reason, "none")]
    method = str(flag.value).lower()
    text = f"decoding_type: {flag.value}"
    method, why = resolved_method(method)
    engine = ""  # the TensorRT engine's decoding layer, where the engine backend runs it
    if method == "eagle":  # one- or two-model EAGLE-3 on PyTorch, the engine's EAGLE on TRT
        mode, condition, why = eagle_mode(_value(config, "speculative_config.one_model"),
                                          _value(config, "backend"),
                                          _value(config, "trtllm_release") or _bound(config),
                                          newest_release(config, "trtllm"),
                                          _value(config, "text_day"))  # fmt: skip
        if condition is not None:
            reason = f"TensorRT-LLM config: decoding_type '{flag.value}' -> {condition}"
            return [Evidence(flag.source, flag.lineno, text, reason, None, None, condition)]
        engine = "" if mode else _engine_layer("EAGLE")
        method = (mode or method).lower()
    if method == "ngram":  # NGramDrafter, or the in-forward NGramWorker of newer releases
        reason = f"TensorRT-LLM config: decoding_type '{flag.value}' -> {NGRAM_CONDITION}"
        reason += f" ({why})" if why else ""
        return [Evidence(flag.source, flag.lineno, text, reason, None, None, NGRAM_CONDITION)]
    if method.replace("_", "") == "drafttarget":  # one- or two-model by release
        reason = f"TensorRT-LLM config: decoding_type '{flag.value}' -> {DRAFT_TARGET_CONDITION}"
        return [Evidence(flag.source, flag.lineno, text, reason, None, None,
                         DRAFT_TARGET_CONDITION)]  # fmt: skip
    if method == "mtp":  # MTP Eagle or vanilla: the checkpoint's MTP modules decide
        mode, condition = mtp_mode(_value(config, "speculative_config.mtp_vanilla"),
                                   _value(config, "speculative_config.one_model"),
                                   _value(config, "trtllm_release"),
                                   newest_release(config, "trtllm"),
                                   _value(config, "text_day"))  # fmt: skip
        if condition is not None:
            reason = f"TensorRT-LLM config: decoding_type '{flag.value}' -> {condition}"
            return [Evidence(flag.source, flag.lineno, text, reason, None, None, condition)]
    family, worker = method_signature("trtllm", method) or (family_name(method), "")
    worker = worker or engine
    worker = worker or _TRTLLM_WORKERS.get(method.replace("drafttarget", "draft_target"), "")
    reason = f"TensorRT-LLM config: decoding_type '{flag.value}' -> {family}"
    reason += f" ({worker})" if worker else ""
    reason += f": {why}" if why else ""
    return [Evidence(flag.source, flag.lineno, text, reason, "other", worker or None)]


def _engine_layer(family: str) -> str:
    """The TensorRT engine's C++ decoding layer of a family (trtllm.toml's [[symbol]] row that
    names a worker: EAGLE -> EagleDecodingLayer)."""
    return next((s.worker for s in symbol_signatures() if s.framework == "trtllm"
                 and s.family == family and s.worker), "")  # fmt: skip


def _bound(config: RunConfig) -> str | None:
    """The newest TensorRT-LLM release the text's day allows, where every release up to it
    shares the defaults that matter here (the TensorRT engine backend, before 1.0's PyTorch
    default); a newer bound says nothing of which release ran."""
    newest = newest_release(config, "trtllm")
    return str(newest) if newest is not None and newest < Version(PYTORCH_DEFAULT) else None


def _value(config: RunConfig, name: str) -> object:
    flag = config.flags.get(name)
    return flag.value if flag is not None else None


def proposer_condition(evidence: Evidence) -> str | None:
    """A vLLM method whose class depends on the engine generation (the config reader's
    ``X on the V1 engine, Y on V0`` verdict with no class): the conditional sentence."""
    reason = evidence.reason
    if (
        evidence.points_to != "other"
        or evidence.worker_class
        or " on the V1 engine, " not in reason
    ):
        return None
    both = reason.rsplit(" -> ", 1)[-1].rsplit(" (", 1)[0]
    v1, _, v0 = both.partition(" on the V1 engine, ")
    return f"{v1} if vLLM runs its V1 engine, else {v0.removesuffix(' on V0')} (V0)"


def switch_condition(config: RunConfig) -> str | None:
    """SGLANG_ENABLE_SPEC_V2=1 set, but no line names the algorithm (a launch cut short): the
    switch acts on EAGLE-family runs only, and every release that reads it gives EAGLE and
    EAGLE3 the overlap (v2) worker when it is on."""
    env = config.flags.get("SGLANG_ENABLE_SPEC_V2")
    if env is None or env.value is not True or "speculative_algorithm" in config.flags:
        return None
    if config.engine not in ("sglang", None):
        return None
    return (
        "v2 (EAGLEWorkerV2) if the run's --speculative-algorithm is EAGLE, EAGLE3 or NEXTN "
        "(SGLANG_ENABLE_SPEC_V2=1 is set; no line names the algorithm)"
    )


def frames_engine(evidence: Sequence[Evidence]) -> str | None:
    """The framework of the first frame a path table knows: with no start-up line to name
    the engine, a traceback through vllm/v1/spec_decode/ says which server's lines to ask for."""
    for e in evidence:
        at = next((m for m in (" frame in ", ", defined in ") if m in e.reason), None)
        if at is not None:  # a frame, or a class a sentence names (its file)
            name = e.reason.split(at, 1)[1].split(": ", 1)[0]
            framework = framework_of_path(name)  # a file newer than the tables: its folder's
            if framework in ("sglang", "vllm", "vllm_ascend", "trtllm"):
                return framework
        said = next((f for marker, f in _CONFIG_MARKS if marker in e.reason), None)
        if said is not None:  # a config value only that server spells (prose ranks it too)
            return said
    return None


# a verdict from a config value only one server spells (``TensorRT-LLM config: decoding_type``)
_CONFIG_MARKS = (("TensorRT-LLM config:", "trtllm"), ("vLLM config:", "vllm"))
_CLASS = re.compile(r"\b[A-Z][A-Za-z0-9]*(?:Worker|Proposer|Drafter|Speculator|Layer)(?:V2)?\b")
_HOST_WORDS = (("vllm-ascend", "vllm_ascend"), ("sglang >=", "sglang"), ("vllm ", "vllm"))


def condition_engine(conditional: str) -> str | None:
    """The framework a conditional verdict is about, from the classes it names (every class
    named must be that framework's: ``EagleProposer on the V1 model runner, EagleSpeculator
    ...`` is vLLM's) or its own words (``on vllm-ascend v0.12``): with no start-up line to
    name the engine, it says whose version line to ask for, never SGLang's for a vLLM run."""
    lowered = conditional.lower()
    said = next((engine for word, engine in _HOST_WORDS if word in lowered), None)
    if said == "vllm_ascend":
        return said
    sets = [s for s in map(frameworks_of_class, _CLASS.findall(conditional)) if s]
    common = frozenset.intersection(*sets) if sets else frozenset()
    hosts = sorted(f for f in common if f in ("sglang", "vllm", "trtllm"))
    if len(hosts) == 1:
        return hosts[0]
    return said if not sets else None


def _engine(config: RunConfig) -> str | None:
    """The run's engine, vllm-ascend where the platform says so (vLLM's own lines name vllm)."""
    platform = config.flags.get("platform")
    if config.engine == "sglang":  # SGLang runs on Ascend NPUs itself: its own release line
        return config.engine
    return "vllm_ascend" if platform is not None and platform.value == "ascend" else config.engine


# the line that names each framework's release
VERSION_OF = {"sglang": VERSION_LINE, "vllm": VLLM_VERSION, "vllm_ascend": ASCEND_VERSION,
               "trtllm": TRTLLM_VERSION}  # fmt: skip
_RELEASE_FLAGS = ("vllm_prose_release", "platform_release", "trtllm_release")


def _release_asked(config: RunConfig, evidence: Sequence[Evidence]) -> str | None:
    """A run whose framework and family the text names, with no release and nothing else
    pointing: the release line settles it (the era table has the family's class per release)."""
    named = "named_algorithm" in config.flags or any(e.family for e in evidence)
    engine = _engine(config)
    if not named or engine not in VERSION_OF or config.version is not None:
        return None
    if any(name in config.flags for name in _RELEASE_FLAGS):
        return None
    launched = any(f.origin == "launch_command" for f in config.flags.values())
    return None if launched or config.server_args else VERSION_OF[engine]


def _speculation_off(config: RunConfig) -> bool:
    """The server's own dump says speculation is off (or never names it): nothing to settle."""
    algo = config.server_args.get("speculative_algorithm") if config.server_args else "?"
    method = config.flags.get("speculative_config.method")
    return algo is None and (method is None or method.value is None)


def _vllm_release_given(config: RunConfig) -> bool:
    """The text gives the vLLM run's release: a version line, or one a sentence or an
    environment report's field names (``vllm_prose_release``)."""
    return config.version is not None or "vllm_prose_release" in config.flags


def missing_evidence(
    config: RunConfig, evidence: Sequence[Evidence], conditional: str | None
) -> tuple[str, ...]:
    """The lines that would settle an unknown verdict, the quickest first; nothing when the
    run shows it does not speculate."""
    if conditional and "'s config is " in conditional:  # the draft's own config decides
        return (DRAFT_CONFIG, WORKER_FRAME)
    if conditional and (var := _SHELL_VAR.search(conditional)) is not None:
        return (
            f"the line that sets {var.group(0)} (the draft model's name or config)",
            WORKER_FRAME,
        )
    if conditional and " predates it" in conditional:  # a fork's build: no version line settles it
        return (WORKER_FRAME,)
    if conditional:
        trtllm = TRTLLM_MTP if "MTP module" in conditional else TRTLLM_ONE_MODEL
        by_release = ("DraftTargetOneModelWorker", "NGramWorker")  # classes a release picks
        trtllm = TRTLLM_VERSION if any(c in conditional for c in by_release) else trtllm
        vllm = VLLM_RUNNER if " model runner" in conditional else VLLM_VERSION
        if vllm == VLLM_RUNNER and _vllm_release_given(config):
            vllm = VLLM_RUNNER_SWITCH
        first = {"trtllm": trtllm, "vllm": vllm, "vllm_ascend": ASCEND_VERSION}
        return (first.get(_engine(config) or "", VERSION_LINE), WORKER_FRAME)
    if _speculation_off(config):
        return ()
    if (asked := _release_asked(config, evidence)) is not None:
        return (asked, LAUNCH_OF.get(config.engine or "", LAUNCH), WORKER_FRAME)
    engine = config.engine
    shown = (
        bool(evidence)
        or switch_condition(config) is not None
        or any(
            name in config.flags for name in ("speculative_algorithm", "speculative_config.method")
        )
    )
    if not shown:  # nothing says the run speculates, or how it was launched
        said = set(config.flags) - {"trtllm_release"}  # a release says nothing of the launch
        if not said:
            return (LAUNCH_OF.get(config.engine or "", LAUNCH),)
        # lines were read, none names the method: the start-up line that prints it settles it
        return (_STARTUP.get(_engine(config) or "", LAUNCH),)
    out: list[str] = []
    if engine in ("sglang", None) and not config.server_args:
        out.append(SGLANG_DUMP)
    if engine in ("sglang", None) and "speculative_algorithm" in config.flags and not config.era:
        out.append(VERSION_LINE)
    if engine in ("vllm", "vllm_ascend") and _method(config) is None:
        out.append(VLLM_CONFIG)
    if engine == "trtllm" and _method(config) is None:
        out.append(TRTLLM_CONFIG)
    if not any(" frame in " in e.reason for e in evidence):
        out.append(WORKER_FRAME)
    return tuple(out)
