"""Run configuration from server-args dumps, vLLM configs, warnings, launch commands, env.

The collector is a stack of layers, one module each: ``config_state`` (what was gathered),
``config_release`` (releases and the text's day), ``config_facts`` (a recognised line's flags
and evidence), ``config_finish`` (the RunConfig per run). This module routes each fed line.
"""

from __future__ import annotations

import re

from spectrace.assemblers.code_listing import listing_evidence
from spectrace.assemblers.config_finish import ConfigFinish
from spectrace.assemblers.config_literals import CONFIG_LITERALS as CONFIG_LITERALS  # re-export
from spectrace.assemblers.config_state import GRAPH_BS, MARKER
from spectrace.assemblers.not_run import is_example
from spectrace.assemblers.launch import find_env_assignments
from spectrace.assemblers.launch_span import apart_caption, asks, caption, suggests
from spectrace.assemblers.pyconfig import (
    python_spec_dict,
    record_told_apart,
    sentence_spec_config,
    sglang_args_dict,
)
from spectrace.assemblers.run_config import DECISIVE_FLAGS
from spectrace.assemblers.sglang_kwargs import code_field_flags, dump_fragment, kwarg_flags, printed_told
from spectrace.assemblers.sglang_prose_flags import (
    flag_algorithms,
    foreign_command,
    multi_layer_flag,
    multi_layer_names,
    multi_layer_stated,
    sglang_flag,
)
from spectrace.assemblers.spec_prose import (
    aside_only,
    run_names,
    set_apart,
    stated_enabled,
    stated_v2,
    tested_algorithms,
)
from spectrace.assemblers.trtllm_config import trtllm_command_flags, trtllm_spec_flags, worded_mode
from spectrace.assemblers.trtllm_yaml import config_class_call
from spectrace.assemblers.vllm_config import (
    engine_config_flags,
    namespace_args_flags,
    non_default_args_flags,
    refused_method,
    spec_dict_flags,
    draft_architecture,
    spec_line_flags,
    v0_keyword_flags,
)
from spectrace.dialects._time import stamp_day
from spectrace.dialects.base import LogLine
from spectrace.path_frames import draft_model_classes

# words that say the text is about a speculating run: a plain command beside them is not "none"
# (an algorithm's name too: a title or caption saying "TP8+MTP" over a command cut before
# its speculative flags)
_SPEC_WORDS = re.compile(
    r"(?i:specul|spec[ -]?decod|draft[ _-]model|accept len)|投机|投機|推測デコード|추측 디코딩|추론 디코딩"
    r"|\b(?:MTP|NEXTN|NextN|EAGLE3?|Eagle3?|eagle3?|NGRAM|N-?gram|ngram|DFlash|DFLASH|Medusa)\b"
)
# a line saying the paste left flags out ("(rest of the flags omitted)", "trimmed", "snip"): no
# command in the text is shown whole
_OMITTED = re.compile(
    r"(?i)\b(?:omit\w*|truncat\w*|trimmed|snip(?:ped)?|redacted|elided|abridged|shortened|"
    r"rest of the (?:flags|args|arguments|options|command))\b|\betc\b"
)
# ServerArgs' own repr (every field, in order) printed without ``server_args=`` before it; a
# call the user wrote (``ServerArgs(model_path="m", speculative_algorithm=...)``) is keywords
# a Markdown fence inside a line, text on both sides: a page that lost its newlines
_FLATTENED = re.compile(r"\S[ \t]*```[ \t]*\S")
_REPR = re.compile(r"ServerArgs\(model_path=(?:'[^']*'|\"[^\"]*\"), tokenizer_path=")
# SGLang's model runner after loading a model: "Load weight end. elapsed=3.1 s,
# type=Qwen3_5ForCausalLMMTP, avail mem=..., mem usage=5.18 GB" (every release; the draft
# worker's runner prints its own)
_LOAD_END = re.compile(r"\bLoad weight end\b.{0,80}?\btype=(\w+)")
# the path tables' family -> SGLang's algorithm (SGLang runs MTP heads as NEXTN)
_SGLANG_ALGORITHM = {"MTP": "NEXTN"}


# what may stand before the record's message: a log prefix (stamps, "[2026-03-02 10:00:09 TP0]",
# "(pid=12)", a level, a logger's "file.py:123"), not a comment's or a quote's words ("# want
# \"Load weight end ...\"" is what a runbook expects, "grep 'Load weight end'" a search)
_LOG_PREFIX = re.compile(
    r"^[\s>*|-]*(?:(?:\[[^\]]*\]|\([^)]*\)|\d[\d:\-T.,/ ]*|INFO|DEBUG|WARNING|[\w.-]+\.py:\d+\]?)[\s:|-]*)*$"
)


def draft_loaded(text: str) -> tuple[str, str] | None:
    """(class, SGLang algorithm) where the line is SGLang's load line of a draft model (the
    record itself, after a log prefix at most): the class a draft-model file of its tree
    defines (``path_frames.draft_model_classes``)."""
    m = _LOAD_END.search(text)
    if m is None or _LOG_PREFIX.match(text[: m.start()]) is None:
        return None
    if (family := draft_model_classes("sglang").get(m.group(1))) is None:
        return None
    return m.group(1), _SGLANG_ALGORITHM.get(family, family)


# a draft architecture's class name or its config block, as a word ("architectures:
# `DFlash2DraftModel`", "identical `dflash_config`"); never inside a path or a dotted name
_ARCH_WORD = re.compile(r"(?<![\w./])([A-Z]\w*(?:Model|ForCausalLM)|dflash_config|dspark_config)(?![\w.(])")
_KIND_FAMILIES = ("DFLASH", "DSPARK")  # the families whose drafts are named by their own kind


def draft_kinds(text: str) -> list[str]:
    """The SGLang algorithms a line names by its draft's own kind: a DFlash or DSpark draft
    architecture of SGLang's draft-model files (``path_frames.draft_model_classes``) or that
    family's config block, on a line that sets nothing apart. The EAGLE family is never assumed
    where a draft of another kind is named: the kind names its own family."""
    if set_apart(text):
        return []
    classes = draft_model_classes("sglang")
    out = []
    for m in _ARCH_WORD.finditer(text):
        word = m.group(1)
        family = classes.get(word) or {"dflash_config": "DFLASH", "dspark_config": "DSPARK"}.get(word)
        if family in _KIND_FAMILIES:
            out.append(str(family))
    return out


# tqdm: "Capturing batches (bs=48 avail_mem=20.45 GB):  35%|...| 8/23 [...]"
_CAPTURING = re.compile(r"Capturing batches \(bs=(\d{1,9})\b.*?\|\s*(\d{1,9})/(\d{1,9})")


class ConfigCollector(ConfigFinish):
    """Accumulates config facts line by line; ``result()`` gives the RunConfig."""

    def feed(self, line: LogLine) -> None:
        """Take whatever configuration fact the line carries (most lines carry one)."""
        line = self._diff.view(line)  # a pasted diff hunk: read as the file it leaves
        text = line.text
        self._lines.append(line)
        self._startups.see(line)
        if not line.quoted:  # a sentence, a config block's line, a table cell alike
            self._named += [(name, line) for name in draft_kinds(text)]
        if is_example(line):
            self._examples.add((line.source, line.lineno))
        else:
            self._runners.feed(line)
        if (day := stamp_day(line.ts)) is not None:  # a year-less stamp (1900) bounds nothing
            if self._latest is None or day > self._latest[0]:
                self._latest = (day, line)
        self._note_post(line, text)
        self._titles.feed(line)
        self._spec_said = self._spec_said or _SPEC_WORDS.search(text) is not None
        self._omitted = self._omitted or _OMITTED.search(text) is not None
        in_launch, done = self._launch.feed(line)
        for command in done:
            self._apply_launch(command)
        if not in_launch and caption(text):  # the next command (only) is not the run's, or is
            self._caption = (line.source, line.lineno) if apart_caption(text) else ("", -9)
        elif not in_launch and self._under_caption(line):  # a suggested dict / YAML / config
            self._spec_said = True
            return
        if not in_launch and not is_example(line) and (record := self._records.feed(line)) is not None:
            self._vllm(record[0], record[1], "launch_command")  # a launcher's key=value record
        if in_launch and not line.quoted and not line.headed and multi_layer_flag(text):
            # a sentence or a table cell quoting the flag beside an EAGLE word ("EAGLE
            # (`--enable-multi-layer-eagle`)"): read as flags, it is still the multi-layer workers
            self._about = True
            self._set("enable_multi_layer_eagle", True, line, "prose")
            self._named += [(name, line) for name in multi_layer_names(text)]
        elif not line.quoted and multi_layer_stated(text):  # "(multi-layer EAGLE auto-enabled)"
            self._set("enable_multi_layer_eagle", True, line, "prose")
        if not in_launch or _FLATTENED.search(text):  # a launch's line is read whole when the
            # command ends; a page flattened onto one line holds more than the command past a
            # fence (``... ``` vllm serve M ``` ... with config: ...``): its dump is read too
            self._config_line(line, text)
        elif spec := trtllm_command_flags(text):  # TensorRT-LLM's own flags on a continuation
            self._config.engine = self._config.engine or "trtllm"
            for name, value in spec.items():
                self._set(name, value, line, "trtllm_config")
        self._platform_and_release(line, text)

    def _config_line(self, line: LogLine, text: str) -> None:
        """The one config fact a line outside a launch command carries, tried by shape (a
        dump, a vLLM config, a dict, a capture line...), else what its sentence says."""
        if "ServerArgs(" in text and ("server_args=" in text or _REPR.search(text)):
            self._server_args(line, text[text.index("ServerArgs(") :])
        elif dump_fragment(text):  # a dump's middle, its ServerArgs( head cut off
            self._dump_piece(line, kwarg_flags(text))
        elif kwargs := kwarg_flags(text):  # sgl.Engine(speculative_algorithm="EAGLE3", ...)
            self._config.engine = self._config.engine or "sglang"
            for name, value in kwargs.items():
                self._set(name, value, line, "launch_command")
        elif not (line.quoted or asks(text) or foreign_command(text)) and printed_told(text) and (
            kwargs := code_field_flags(text, lambda clause: set_apart(clause, without=False))
        ):  # "the log printed `speculative_algorithm='DSPARK'`": the server's field, told
            self._config.engine = self._config.engine or "sglang"
            for name, value in kwargs.items():
                self._set(name, value, line, "launch_command")
        elif "with config:" in text:
            rest = text[text.index("with config:") + len("with config:") :]
            self._vllm(line, engine_config_flags(rest), "vllm_config")
        elif "args: Namespace(" in text:
            rest = text[text.index("args: Namespace(") + len("args: ") :]
            self._vllm(line, namespace_args_flags(rest), "vllm_args")
        elif "non-default args:" in text:
            rest = text[text.index("non-default args:") + len("non-default args:") :]
            self._vllm(line, non_default_args_flags(rest), "vllm_args")
        elif (script := python_spec_dict(text)) and "decoding_type" not in script:  # a script's
            self._vllm(line, spec_dict_flags(script), "vllm_args")
        elif self._config.engine != "trtllm" and not config_class_call(text) and (
            kwargs := v0_keyword_flags(text)
        ):
            self._vllm(line, kwargs, "vllm_args")  # LLM(speculative_model="...") in a script
        elif (args := sglang_args_dict(text)) is not None:  # server args as a dict or JSON
            self._config.engine = self._config.engine or "sglang"
            for name in DECISIVE_FLAGS:  # the values the user set, read as a command's flags
                if name in args:
                    self._set(name, args[name], line, "launch_command")
        elif record_told_apart(text) and spec_line_flags(text):
            self._spec_said = True  # a sentence quoting a record a reader may meet: not the run's
        elif vllm_spec := spec_line_flags(text):  # a SpeculativeConfig repr
            method = vllm_spec.get("speculative_config.method")
            if not (draft_architecture(text) and self._startups.draft_of_stated(line, method)):
                self._vllm(line, vllm_spec, "vllm_config")  # (else the stated method's draft)
        elif (refused := refused_method(text)) is not None:
            self._refused(line, refused)
        elif (drafted := draft_loaded(text)) is not None:  # SGLang's model runner loaded a draft
            self._config.engine = self._config.engine or "sglang"
            self._set("draft_model_class", drafted[0], line, "load_log")
            self._named.append((drafted[1], line))
            self._enabled = self._about = True  # SGLang's own line: a draft loaded, speculation on
        elif "Capturing batches" in text or "Capture cuda graph end" in text:
            self._capturing(line, _CAPTURING.search(text))
        elif (graph := GRAPH_BS.search(text)) is not None:
            sizes = [int(x) for x in graph.group(1).replace(",", " ").split() if len(x) < 10]
            self._set("cuda_graph_bs", sizes, line, "capture_log")
        elif (marker := MARKER.search(text)) is not None:
            self._marker(line, marker)
        elif spec := trtllm_spec_flags(text):
            self._config.engine = self._config.engine or "trtllm"
            origin = "prose" if worded_mode(text, spec) else "trtllm_config"
            for name, value in spec.items():
                self._set(name, value, line, origin)
        elif not line.headed and (quoted := sentence_spec_config(text)) is not None:
            self._sentence_spec(line, quoted)
        elif not self._warning(line):  # a line no reader above knows: maybe a sentence
            self._sentence(line, text)

    def _sentence(self, line: LogLine, text: str) -> None:
        """A line of prose: an env setting it names, the algorithms it says the run used or a
        test ran, and whether it says the algorithm or spec v2 was on (or a code listing's head)."""
        if (listed := listing_evidence(line)) is not None:
            self._listings.append(listed)
            return
        self._env(line, find_env_assignments(text), "env")
        if not suggests(text):  # "should I try NGRAM?" names no run's algorithm
            self._named += [(name, line) for name in run_names(text)]
            if aside_only(text):
                self._aside.add((line.source, line.lineno))
        self._tested += [(name, line) for name in tested_algorithms(text)]
        self._enabled = self._enabled or (stated_enabled(text) and not line.quoted)
        if sglang_flag(text) and not line.quoted:  # SGLang's own option: the text is about it
            self._about = True
            self._flagged += [(name, line) for name in flag_algorithms(text)]
            if multi_layer_flag(text):  # the multi-layer EAGLE workers, beside the algorithm
                self._set("enable_multi_layer_eagle", True, line, "prose")
        self._v2_said = self._v2_said or (stated_v2(text) and not line.quoted)
