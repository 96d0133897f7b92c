"""vLLM's start-up lines -> speculative flags (LOG_FORMATS.md 2.3), as plain data for config.

vLLM has one speculative path per method, so the proposer class it names is the path.
"""

from __future__ import annotations

import re

from spectrace.assemblers.pyrepr import SourceText, bracketed, parse_call_kwargs, parse_dict_repr
from spectrace.assemblers.vllm_engine_lines import LITERALS as ENGINE_LINE_LITERALS
from spectrace.assemblers.vllm_plugin_marks import LITERALS as MARK_LITERALS
from spectrace.assemblers.vllm_runner import LITERALS as RUNNER_LITERALS
from spectrace.assemblers.vllm_stated import DRAFT_LITERALS
from spectrace.assemblers.vllm_v0_title import LITERALS as V0_FRAME_LITERALS

# the engine's start-up line, the server's ("vLLM API server version 0.7.3", "vLLM server
# version 0.11.1, serving model X"), or the logo newer servers print instead, its second row
# ending "▀▄▀ █  version 0.11.1" (bold codes may wrap the number); the server's banner with its
# words elided by the paste ("(APIServer pid=1) INFO … version 0.26.1rc0")
VERSION = re.compile(
    r"\(v(\d+\.\d+[\w.+-]*)\) with config:"
    r"|(?:server version |▀▄▀ █(?:\x1b\[[\d;]*m)*\s+version\s+(?:\x1b\[[\d;]*m)*"
    r"|\(APIServer pid=\d+\) INFO (?:…|\.\.\.|\[(?:\.\.\.|…)\]) version )(\d[\w.+-]*)"
)
# a release in prose, a pin or an env list ("I am using vLLM 0.11.0", "vllm==0.9.2"); weaker
# than the server's own lines, used only for a run that is vLLM's by its other lines (the one
# release a text names decides its launch's engine: vllm_finish._launch_release)
PROSE_VERSION_LITERALS: tuple[bytes, ...] = (b"vLLM 0.", b"vllm 0.", b"vllm==", b"vLLM v0.",
                                             b"vllm v0.", b"vLLM version", b"vllm version",
                                             b"vLLM: 0.", b"vllm: 0.", b"vLLM: v0.",
                                             *(f"{v}：{p}0.".encode() for v in ("vLLM", "vllm") for p in ("", "v")),
                                             b"vllm-0.",  # an installed package's folder, a wheel
                                             b"vLLM Version",  # collect_env, padded or not
                                             b"Name: vllm",  # pip show, its Version: line next
                                             b"vllm  ", b"vllm\t",  # pip list / conda list rows
                                             "▀▄▀".encode(),  # the server's logo (VERSION)
                                             b"vLLM |", b"vllm |", b"vLLM|", b"vllm|", b"vLLM**",
                                             b"vllm**",  # a Markdown table's row
                                             # an environment report's field, padded or keyed
                                             # (``vLLM:     0.27.1``, ``"vllm_version": "0.27.1"``)
                                             b"vLLM:  ", b"vllm:  ", b"vLLM:\t", b"vllm:\t", b"vLLM :",
                                             b"vllm :", b'"vllm": "', b'"vllm":"', b"vllm_version",
                                             b"vLLM_version", b"VLLM_VERSION",
                                             # a Chinese, Japanese or Korean report's "vllm版本为0.9.1"
                                             *(f"{v}{g}{w}".encode() for v in ("vLLM", "vllm") for g in ("", " ")
                                               for w in ("版本", "バージョン", "버전")))  # fmt: skip
_PROSE_VERSION = re.compile(
    r"(?i)(?<![A-Za-z0-9_./-])vllm(?:[\s_]+version(?:\s+(?:is|was))?|\s*(?:版本号?|バージョン|버전)\s*(?:为|是|為|は)?)?"
    r"[`'\"]?\s*(?:==|[:=：])?\s*[`'\"]?v?(\d+\.\d+\.\d+(?:\.\d+)?)"
    r"(?![\d.]*\d)"  # a patch of a patch too (0.9.0.1, 0.10.1.1)
)
_RELEASE_AT = r"(\d+\.\d+\.\d+(?:\.\d+)?)(?![\d.]*\d)"
# the same release in the other places a paste states it: the installed package's folder, a
# wheel or an sdist (``vllm-0.10.1.dist-info``, ``vllm-0.10.1+cu126-cp38-abi3-...whl``; not
# vllm_ascend's), a Markdown table's row naming vLLM with its release in the next cell (``|
# vLLM | 0.10.1 |``; the parser may take the leading pipe as a prefix; a row comparing two
# releases names neither), a checkout of a release tag, ``vllm.__version__`` with its answer
_PLACED_VERSION = (
    re.compile(r"(?<![\w.-])vllm-" + _RELEASE_AT
               + r"(?=(?:rc\d+|\.dev\d+|\.post\d+)?(?:\+[\w.]+)?(?:\.dist-info|\.egg-info|\.tar\.gz|-cp3|-py3))"),
    re.compile(r"(?i)^\s*\|?\s*\**vllm(?:\s+version)?\**\s*\|\s*[`'\"]?v?" + _RELEASE_AT
               + r"(?=[^|]*\|)(?!.*\|\s*[`'\"]?v?\d+\.\d+\.\d)"),
    # the source at a release tag: ``pip install git+https://github.com/vllm-project/vllm.git@v0.10.1``,
    # ``cd vllm && git checkout v0.10.1``, ``git clone -b v0.10.1 .../vllm.git`` (a line naming
    # vLLM itself, not vllm-ascend)
    re.compile(r"\bvllm-project/vllm(?:\.git)?@v?" + _RELEASE_AT),
    re.compile(r"\bvllm\.__version__\W{1,40}?v?" + _RELEASE_AT),  # ``>>> vllm.__version__ '0.10.1'``
    re.compile(r"(?i)^(?=.*\bvllm(?![\w-])).*?(?:\bcheckout\s+(?:tags/)?|(?<!\S)(?:-b|--branch)[=\s]\s*)[`'\"]?v"
               + _RELEASE_AT),
)  # fmt: skip


def prose_version(text: str) -> str | None:
    """``vLLM 0.11.0`` / ``vllm==0.9.2`` / ``| vLLM | 0.11.0 |`` / ``vllm-0.11.0.dist-info`` ->
    the release (not vllm-ascend's, not vllm_omni's)."""
    for form in (_PROSE_VERSION, *_PLACED_VERSION):
        if (m := form.search(text)) is not None:
            return m.group(1)
    return None


# CLI spellings (JSON keys of --speculative-config, old V0 flags) -> speculative_config.*
CLI_NAMES = {
    "method": "method",
    "num_spec_tokens": "num_spec_tokens",
    "num_speculative_tokens": "num_spec_tokens",
    "draft_model": "model",
    "speculative_model": "model",
    # 0.25+'s shortcut flags, which EngineArgs.create_speculative_config merges into the config
    "spec_method": "method",
    "spec_model": "model",
    "spec_tokens": "num_spec_tokens",
}
_ARG_KEYS = {"method": "method", "num_speculative_tokens": "num_spec_tokens", "model": "model"}


# Draft model names that say their method, the way vLLM's own SpeculativeConfig tells them
# apart when no method is given ("eagle-" / "eagle3-" in the name); only positive names.
_NAMED_METHODS = (
    ("eagle3", "eagle3"),
    ("eagle", "eagle"),
    ("medusa", "medusa"),
    ("mlp-speculator", "mlp_speculator"),
    ("mlp_speculator", "mlp_speculator"),
    ("[ngram]", "ngram"),
    # IBM's MLPSpeculator checkpoints, as vLLM's docs serve them (``ibm-ai-platform/llama-13b-
    # accelerator``): the head's config says mlp_speculator, and so does the name
    ("-accelerator", "mlp_speculator"),
)
SPEC_REPR = "SpeculativeConfig("

# Lines that show the run is on Ascend NPUs, where vLLM runs through the vllm-ascend plugin
# (its own proposer subclasses): the plugin's activation line, its image / package / model hub
# names, torch_npu, and the env of CANN and HCCL (Ascend's collective library) people export.
ASCEND_LITERALS: tuple[bytes, ...] = (
    b"vLLM Ascend Version",  # the plugin's collect_env
    b"plugin ascend",
    b"platform npu",
    b"vllm-ascend",
    b"vllm_ascend==",
    b"vllm_ascend:register",
    b"torch_npu",
    b"HCCL_",
    b"PYTORCH_NPU_",
    b"ASCEND_",
    b"quantization ascend",
    b"quantization=ascend",
    b"device_config=npu",
    b"Platform plugin ",
    b"detected platform ",
    b"vllm_ascend",
    b"Ascend",
    b"/vllm-workspace/",  # the plugin image's layout
    *MARK_LITERALS,  # the plugin's PR footer, its package in the page's address (vllm_plugin_marks)
)
# The platform vLLM says it runs on: an out-of-tree plugin it activated, or the platform it
# detected. vLLM's own proposer classes run on the in-tree GPU-like platforms only.
_PLATFORM = re.compile(r"Platform plugin (\w+) is activated|[Dd]etected platform (\w+)")
GPU_PLATFORMS = ("cuda", "rocm", "xpu", "cpu")


def platform_named(text: str) -> str | None:
    """``Platform plugin tpu is activated`` -> "tpu"; ``detected platform npu`` -> "ascend"."""
    m = _PLATFORM.search(text)
    if m is None:
        return None
    name = (m.group(1) or m.group(2)).lower()
    return "ascend" if name == "npu" else name


# The release beside the plugin's name: ``vllm-ascend 0.17.0rc1``, ``vllm-ascend:v0.19.1rc1``,
# ``vllm_ascend==0.11.0``, an environment bullet ``vllm-ascend version: 0.23.0`` or
# ``vllm-ascend版本：0.23.0`` (a few non-digits between, on one line).
_NAMED_RELEASE = r"vllm[-_]ascend(?::|==|[^\S\n]*[^\d\s./:=]{0,12}[:：=]?[^\S\n]*)v?"
_ASCEND = re.compile(
    r"Platform plugin ascend is activated|detected platform npu|torch_npu|install vllm-ascend"
    r"|(?<!vllm-project/)vllm-ascend[:/=]"  # an image tag, a hub path; not the repository
    # the plugin's own thread (its header ``vllm-project/vllm-ascend · pull request #N``): its
    # issues and docs are about runs on Ascend
    r"|^\s*vllm-project/vllm-ascend · (?:issue|pull request|discussion)\b"
    r"|\b(?:HCCL|PYTORCH_NPU|ASCEND)_[A-Z0-9_]+="
    r"|\bascend -> vllm_ascend:register"  # vLLM's list of the platform plugins it loaded
    r"|--quantization[= ]+['\"]?ascend\b|\bquantization=['\"]ascend['\"]"  # the plugin's own
    r"|\bdevice_config=npu\b"
    # an environment row whose key is the backend, platform or device and whose value is the
    # plugin or its NPUs (``Backend: vLLM Ascend``, ``- Device: Ascend NPU``, ``| Hardware | Ascend
    # 910B3 |``): the writer's own setup, not a sentence naming the plugin
    r"|(?im:^[^\S\n]*(?:[-*|][^\S\n]*)?(?:\*\*)?(?:inference[^\S\n]+)?(?:backend|platform|plugin|device|hardware"
    r"|accelerator|npus?|chips?)(?:\*\*)?[^\S\n]*[:：|][^\S\n]*(?:\*\*)?(?:huawei[^\S\n]+)?(?:vllm[-_ ])?ascend\b)"
    r"|(?:^|(?<=\s))vLLM Ascend Version\s*:"  # the plugin's collect_env (its issue form asks for it;
    # a hard-wrap reader may join it to the line before)
    rf"|(?<![\w/]){_NAMED_RELEASE}\d+\.\d+"  # the plugin named with its release in prose
    # the plugin image's layout (vLLM cloned into /vllm-workspace/vllm beside the plugin's
    # /vllm-workspace/vllm-ascend; vLLM's own images install it in site-packages)
    r"""|(?:^|(?<=[\s"'(=:]))/vllm-workspace/(?:vllm/vllm|vllm-ascend)/"""
    # a frame of the plugin's installed code (a traceback's or a py-spy line's): it ran
    r"""|\bFile \\?["'][^"'\n]*/vllm_ascend/[^"'\n]*\.py\\?["'], line \d|[ (]vllm_ascend/[\w/]+\.py:\d+\)"""
)
# The plugin's release as people write it: an image tag, a pin, a wheel's name, an environment
# bullet, its collect_env's ``vLLM Ascend Version: 0.11.0rc2``; a dev build whole, counter and
# commit (``0.14.0rc2.dev150+gff3a50d01``: between two tags, vllm_release.spans_holding)
_BUILD = r"(\d+\.\d+\.\d+(?:rc\d+)?(?:\.post\d+)?(?:\.dev\d+)?(?:\+[a-z0-9]+(?:\.[a-z0-9]+)*)?)(?![\w.+])"
_ASCEND_RELEASE = re.compile(
    rf"(?<![\w.-])(?<!vllm-project/){_NAMED_RELEASE}{_BUILD}|(?:^|(?<=\s))vLLM Ascend Version\s*:\s*v?{_BUILD}",
    re.IGNORECASE,
)


# Words that name the plugin without showing the run on it: its repository in a sentence (a
# link to one of its issues is not), its package or a file of it, one of its proposer classes
# (``AscendEagleProposer``), Ascend NPUs.
_ASCEND_NAMED = re.compile(
    r"(?<![/\w.])vllm-project/vllm-ascend\b(?!/)"  # a thread's repository, not a link to it
    r"|(?<![/\w.-])vllm[-_]ascend\b(?![/-])|\bAscend\w*Proposer\b"
    r"|\bAscend\b[^\S\n]*(?:NPU|910|A2|A3)|\bon[^\S\n]+NPUs?\b"
)
# a file of its package a sentence names (``vllm_ascend/spec_decode/eagle_proposer.py``), not a
# link's path: the writer's code may be the plugin's (searched only where the package's folder is)
_ASCEND_FILE = re.compile(r"(?<![\w.:/-])/?(?:[\w.-]+/)*vllm_ascend/(?:[\w.-]+/)*\w+\.py\b")


# a release a line names as the fix or the one to move to, not the one the run had
_ANOTHER_RELEASE = re.compile(
    r"(?i)\b(?:fixed|resolved|upgrad\w*|update to|works (?:on|with|in)|newer|later|since)\b"
)


def ascend_named(text: str) -> bool:
    """The line names the vllm-ascend plugin (or Ascend NPUs) without showing the run on it."""
    return _ASCEND_NAMED.search(text) is not None or (
        "vllm_ascend/" in text and _ASCEND_FILE.search(text) is not None)


def ascend_signal(text: str) -> bool:
    """The line shows an Ascend (vllm-ascend) run."""
    return _ASCEND.search(text) is not None


def ascend_release(text: str) -> str | None:
    """The vllm-ascend release the line names (``vllm-ascend 0.17.0rc1``, an image tag
    ``vllm-ascend:v0.19.1rc1``, ``vllm_ascend==0.11.0``): the plugin's classes change by it;
    not one named as the fix or an upgrade ("fixed in vllm-ascend v0.18.0rc1")."""
    if _ANOTHER_RELEASE.search(text):
        return None
    m = _ASCEND_RELEASE.search(text)
    return (m.group(1) or m.group(2)) if m is not None else None


def method_from_model(model: object) -> str | None:
    """The method a draft model's name gives away (``yuhuili/EAGLE3-LLaMA3.1`` -> eagle3). A
    bracketed value is V0's special value, never a checkpoint: ``[ngram]`` or a one-letter typo
    of it (``[gram]``, ``[ngarm]``, ``[n-gram]``) is ngram, any other says no method."""
    name = str(model).lower() if isinstance(model, str) else ""
    if bracketed_value(name):
        word = name.strip("[] ").replace("-", "").replace("_", "")
        return "ngram" if _one_edit(word, "ngram") else None
    return next((method for word, method in _NAMED_METHODS if word in name), None)


def bracketed_value(model: object) -> bool:
    """``[ngram]``, ``[gram]``: a V0 special value in brackets, never a draft checkpoint."""
    return isinstance(model, str) and re.fullmatch(r"\[[^\[\]/]{1,20}\]", model.strip()) is not None


def _one_edit(word: str, target: str) -> bool:
    """``word`` is ``target`` or one letter dropped, added, replaced or two swapped."""
    if word == target:
        return True
    if len(word) == len(target):
        diff = [i for i, (a, b) in enumerate(zip(word, target, strict=True)) if a != b]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                                  and word[diff[0]] == target[diff[1]] and word[diff[1]] == target[diff[0]])  # fmt: skip
    short, long_ = sorted((word, target), key=len)
    return len(long_) - len(short) == 1 and any(long_[:i] + long_[i + 1 :] == short for i in range(len(long_)))


def _repr_kwargs(inner: dict[str, object]) -> dict[str, object]:
    """``SpeculativeConfig(...)`` keyword values -> speculative_config.* (V0 and V1 spellings)."""
    flags: dict[str, object] = {}
    for key in ("method", "num_spec_tokens", "model", "draft_model"):  # draft_model: V0
        if key in inner:
            flags[f"speculative_config.{key.removeprefix('draft_')}"] = inner[key]
    if "speculative_config.method" not in flags and (
        named := method_from_model(flags.get("speculative_config.model"))
    ):
        flags["speculative_config.method"] = named
    return flags


def speculative_repr_flags(text: str) -> dict[str, object]:
    """A ``SpeculativeConfig(method=..., model=..., num_spec_tokens=...)`` repr anywhere in a
    line (an exception message, an EngineArgs or VllmConfig dump, a cut line) -> flags."""
    at = text.find(SPEC_REPR)
    if at < 0:
        return {}
    open_at = at + len(SPEC_REPR) - 1
    inside = bracketed(text, open_at)
    call = SPEC_REPR + (inside + ")" if inside is not None else text[open_at + 1 :])
    inner, _complete = parse_call_kwargs(call)
    flags = _repr_kwargs(inner)
    if (plugin := _SUBCLASS.search(text[max(0, at - 40) : at])) is not None:
        flags["platform"] = plugin.group(1).lower()  # its own proposers: vLLM's a condition
    return flags


# ``ArcticSpeculativeConfig(...)``: a plugin's subclass of vLLM's SpeculativeConfig; the plugin
# patches the speculative path, so the method names the family and vLLM's class only a condition.
_SUBCLASS = re.compile(r"(?<!\w)([A-Za-z]\w*)$")


# A vLLM plugin that patches the speculative path, named by its repository (a thread of its
# own) or its package (``pip install arctic-inference[vllm]``): the method names the family,
# vLLM's class only a condition (the plugin may run its own proposer for it).
_PATCHING_PLUGIN = re.compile(
    r"(?<![/\w.])snowflakedb/ArcticInference\b(?!/)|(?<![/\w.-])arctic[-_]inference\b(?![/-])"
)


def patching_plugin(text: str) -> str | None:
    """``snowflakedb/ArcticInference`` / ``arctic_inference`` -> "arctic_inference"."""
    return "arctic_inference" if _PATCHING_PLUGIN.search(text) is not None else None


# vLLM's and its plugins' own errors name the configured method ("Unknown speculative
# decoding method: x", "Unsupported speculative method: 'mtp'").
_METHOD_ERROR = re.compile(
    r"(?:Unknown|Unsupported|Unrecognized|Invalid) speculative (?:decoding )?method\W{0,3}"
    r"""['"]?(\[?[a-z][\w-]{0,60}\]?)"""
)
# Warnings vLLM's SpeculativeConfig logs only for one method (vllm/config/speculative.py):
# the method a log without its config dump still shows.
_METHOD_WARNINGS = (
    (re.compile(r"method `\w+` is deprecated and replaced with mtp"), "mtp"),
    (re.compile(r"will run multiple times of forward on same MTP layer"), "mtp"),
    (re.compile(r"Defaulted num_speculative_tokens to \d+ for suffix decoding"), "suffix"),
)
# ``Resolved architecture: X`` (ModelConfig, once per model): a draft's architecture from
# vLLM's speculative registry names its method; a target's (``Qwen3NextForCausalLM``) never
# carries these words. Checked in order: ``PEagleDraftModel`` is an EAGLE-3 head.
_DRAFT_ARCH = re.compile(r"Resolved architecture: (\w+)")
_ARCH_METHODS: tuple[tuple[re.Pattern[str], str | None], ...] = (
    # a Gemma-4 assistant: vLLM's config rewrites its model_type to gemma4_mtp and its
    # architectures to Gemma4MTPModel (0.21+), whose own proposer the method table names
    (re.compile(r"^Gemma4MTP"), "gemma4_mtp"),
    (re.compile(r"Eagle3|P[Ee]agle"), "eagle3"),
    (re.compile(r"Eagle(?![\d_]*\d)"), "eagle"),  # not Eagle2_5_VL, a multimodal target
    (re.compile(r"DFlash"), "dflash"),
    (re.compile(r"DSpark"), "dspark"),
    (re.compile(r"MTP"), "mtp"),
    (re.compile(r"^Medusa"), "medusa"),
)
SPEC_LINE_LITERALS: tuple[bytes, ...] = (
    SPEC_REPR.encode(),
    b"Resolved architecture: ",
    b"speculative method",
    b"speculative decoding method",
    b"is deprecated and replaced with mtp",
    b"forward on same MTP layer",
    b"for suffix decoding",
    b"Detected MTP model",
    b"Configuring SpecDecodeWorker with proposer=",  # V0's own line (vllm_stated)
    b"SpecDecoding metrics: ",  # V1's metrics line: the run speculated on vLLM (vllm_stated)
    b"## ",  # a Markdown section heading: it may set the list under it apart (vllm_stated)
    b'"method"',  # a bare speculative config (pyconfig.bare_spec_config)
    b".speculative-model", b".speculative_model", b".speculative-config",  # --VllmWorker.<arg>
    b"'method'",
    b"spec_decode.py",  # vLLM's example script and its --method
    b"speculative-config:",  # the YAML key of a --config file or a Helm value
    b"VLLM_USE_V1",  # the engine switch of 0.8-0.10 (vllm_finish._engine_by_date)
    b"```diff",  # a fenced diff without hunk headers: its removed lines are not the run's
    *RUNNER_LITERALS,  # the model runner v2 stated (vllm_runner)
    *DRAFT_LITERALS,  # a draft-model environment line (vllm_stated)
    *V0_FRAME_LITERALS,  # the engine a traceback went through (vllm_v0_title, vllm_finish)
    *ENGINE_LINE_LITERALS,  # lines only one engine writes (vllm_engine_lines)
)


def spec_line_flags(text: str) -> dict[str, object]:
    """A line outside the start-up dumps that still names the speculative config: a
    ``SpeculativeConfig(...)`` repr, or a warning SpeculativeConfig logs for one method."""
    if SPEC_REPR in text:
        return speculative_repr_flags(text)
    method = next((m for pattern, m in _METHOD_WARNINGS if pattern.search(text)), None)
    if method is None and (arch := _DRAFT_ARCH.search(text)) is not None:
        method = architecture_method(arch.group(1))
    return {"speculative_config.method": method} if method else {}


def architecture_method(name: str) -> str | None:
    """The method whose draft a draft architecture or model class is (``Eagle3LlamaForCausalLM``:
    eagle3), by the table above; None for one it does not know."""
    return next((m for p, m in _ARCH_METHODS if p.search(name)), None)


def draft_architecture(text: str) -> str | None:
    """The draft architecture where the line names the method only by a draft's ``Resolved
    architecture:`` record (no config repr, no method warning): what ``vllm_startup`` reads as
    its start-up's draft."""
    if SPEC_REPR in text or any(pattern.search(text) for pattern, _m in _METHOD_WARNINGS):
        return None
    arch = _DRAFT_ARCH.search(text)
    if arch is None or not any(p.search(arch.group(1)) for p, _m in _ARCH_METHODS):
        return None
    return arch.group(1)


def refused_method(text: str) -> str | None:
    """The method an error says vLLM (or a plugin) refused: it names the family the user
    asked for, but no proposer was built for it."""
    m = _METHOD_ERROR.search(text)
    return m.group(1).lower() if m is not None else None


def engine_config_flags(text: str) -> dict[str, object]:
    """``model='m', speculative_config=SpeculativeConfig(...), ...`` -> flag name -> value."""
    values, _complete = parse_call_kwargs("VllmConfig(" + text.strip().rstrip(",") + ")")
    flags: dict[str, object] = {}
    spec = values.get("speculative_config")
    if isinstance(spec, SourceText) and spec.text.startswith(SPEC_REPR):
        inner, _ = parse_call_kwargs(spec.text)
        flags.update(_repr_kwargs(inner))
    elif spec is None and "speculative_config" in values:
        flags["speculative_config.method"] = None
    elif SPEC_REPR in text:  # a cut dump: the repr is there, the line's end is not
        flags.update(speculative_repr_flags(text))
    flags.update(_parallel_sizes(values))
    return flags


def _parallel_sizes(values: dict[str, object]) -> dict[str, object]:
    """vLLM's parallel sizes under the names the SGLang flags use."""
    names = {"tensor_parallel_size": "tp_size", "data_parallel_size": "dp_size"}
    return {flag: values[key] for key, flag in names.items() if key in values}


def non_default_args_flags(text: str) -> dict[str, object]:
    """``{'model': ..., 'speculative_config': {...}, 'tensor_parallel_size': 2}`` -> flags."""
    values, _complete = parse_dict_repr(text.strip())
    flags = spec_dict_flags(values.get("speculative_config"))
    flags.update(_parallel_sizes(values))
    return flags


def spec_dict_flags(spec: object) -> dict[str, object]:
    """A speculative-config dict (or its JSON, as Namespace prints it) -> speculative_config.*"""
    if isinstance(spec, str) and spec.lstrip().startswith("{"):
        spec, _complete = parse_dict_repr(spec)
    if not isinstance(spec, dict):
        return {}
    # ``"method": null`` beside a draft model is SpeculativeConfig's auto-detection (from the
    # draft's name and config), not speculation turned off: the method is left unsaid
    unsaid = spec.get("method") is None and isinstance(spec.get("model"), str)
    return {
        f"speculative_config.{name}": spec[key] for key, name in _ARG_KEYS.items()
        if key in spec and not (unsaid and key == "method")
    }  # fmt: skip


def namespace_args_flags(text: str) -> dict[str, object]:
    """vLLM <= 0.8 ``args: Namespace(..., speculative_model='[ngram]', num_speculative_tokens=5,
    speculative_config=None, tensor_parallel_size=4, ...)`` -> flags (a cut line gives what it has)."""
    values, _complete = parse_call_kwargs(text.strip())
    flags = spec_dict_flags(values.get("speculative_config"))
    model = values.get("speculative_model")
    if isinstance(model, str):
        flags.setdefault("speculative_config.model", model)
        if bracketed_value(model) and method_from_model(model):  # V0 spelled ngram as a model name
            flags["speculative_config.method"] = "ngram"
    if values.keys() >= {"speculative_config", "speculative_model"} and not flags:
        flags["speculative_config.method"] = None  # every arg is printed: both unset, spec off
    if isinstance(values.get("num_speculative_tokens"), int):
        flags.setdefault("speculative_config.num_spec_tokens", values["num_speculative_tokens"])
    flags.update(_parallel_sizes(values))
    return flags


# V0's keyword arguments of ``LLM(...)`` in a pasted script, one a line or several:
# ``speculative_model="facebook/opt-125m",`` (the value a literal string)
_V0_KEYWORD = re.compile(r"""(?<![\w.-])speculative_model\s*=\s*(["'])([^"'\s]{1,300})\1""")


# A wrapper's component-prefixed engine flag: Dynamo's ``dynamo serve ... --VllmWorker.speculative-
# model=/m --VllmWorker.num-speculative-tokens=5`` hands ``--<arg>`` to the component's vLLM engine
# (only vLLM's own spellings: SGLang's draft flags are named otherwise)
_COMPONENT = re.compile(
    r"""(?<![\w-])--[A-Z]\w{0,60}\.(speculative[-_]model|num[-_]speculative[-_]tokens"""
    r"""|speculative[-_]config)(?:=|\s+)(["']?)(\{[^\n]*?\}|[^"'`\s]{1,300})\2"""
)


def v0_keyword_flags(text: str) -> dict[str, object]:
    """``speculative_model="x"`` written as a Python keyword -> the draft model (``[ngram]``
    names the method, as V0 spelled the ngram proposer); a wrapper's component-prefixed engine
    flags (``--VllmWorker.speculative-model=x``) the same way."""
    if (flags := component_flags(text)) or (m := _V0_KEYWORD.search(text)) is None:
        return flags
    model = m.group(2)
    flags: dict[str, object] = {"speculative_config.model": model}
    if bracketed_value(model) and method_from_model(model):
        flags["speculative_config.method"] = "ngram"
    return flags


def component_flags(text: str) -> dict[str, object]:
    """The vLLM engine args a wrapper passes under a component's name (``--VllmWorker.X``)."""
    flags: dict[str, object] = {}
    for m in _COMPONENT.finditer(text):
        name, value = m.group(1).replace("-", "_"), m.group(3)
        if name == "speculative_config":
            flags.update(spec_dict_flags(value))
        elif name == "speculative_model":
            flags["speculative_config.model"] = value
            if bracketed_value(value) and method_from_model(value):
                flags["speculative_config.method"] = "ngram"
        elif value.isdigit():
            flags["speculative_config.num_spec_tokens"] = int(value)
    return flags
