"""Run configuration from server-args dumps, vLLM configs, warnings, launch commands, env."""

from __future__ import annotations

import re
from datetime import date

from spectrace.assemblers.config_literals import CONFIG_LITERALS as CONFIG_LITERALS  # re-export
from spectrace.assemblers.config_path import EAGLE_KNOBS, Bounds, config_evidence
from spectrace.assemblers.diff_view import DiffView
from spectrace.assemblers.examples import EXAMPLE_REASON, is_example
from spectrace.assemblers.launch import LaunchCommand, LaunchReader, find_env_assignments
from spectrace.assemblers.launch_options import OptionTables
from spectrace.assemblers.launch_span import apart_caption, caption
from spectrace.assemblers.launch_span import quoted as in_quote
from spectrace.assemblers.launch_span import suggests
from spectrace.assemblers.post_dates import post_date, yearless_post
from spectrace.assemblers.pyconfig import (
    python_spec_dict,
    sentence_spec_config,
    sglang_args_dict,
)
from spectrace.assemblers.pyrepr import parse_call_kwargs
from spectrace.assemblers.quotes import holds_run, mixed, sets_apart
from spectrace.assemblers.run_config import DECISIVE_FLAGS, Evidence, FlagValue, RunConfig, trim
from spectrace.assemblers.runs import split_runs
from spectrace.assemblers.sglang_eras import Version, era_before, newest_at, version_text
from spectrace.assemblers.sglang_kwargs import kwarg_flags
from spectrace.assemblers.sglang_version import (
    about_sglang,
    bare_releases,
    era_of,
    failing_releases,
    find_sglang_version,
    from_main,
    other_release,
    pip_show_version,
    printed_release,
    sglang_releases,
)
from spectrace.assemblers.spec_prose import (
    eagle_family,
    run_names,
    one_family,
    set_apart,
    spec_v2_settings,
    stated_enabled,
    stated_v2,
    switch_apart,
    tested_algorithms,
)
from spectrace.assemblers.spec_warnings import match_spec_warning
from spectrace.assemblers.trtllm_config import prose_method, trtllm_release, trtllm_spec_flags
from spectrace.assemblers.vllm_config import (
    CLI_NAMES,
    VERSION,
    ascend_named,
    ascend_release,
    ascend_signal,
    engine_config_flags,
    namespace_args_flags,
    non_default_args_flags,
    patching_plugin,
    prose_version,
    refused_method,
    spec_dict_flags,
    spec_line_flags,
    v0_keyword_flags,
)
from spectrace.assemblers.vllm_finish import Day, finish_vllm
from spectrace.assemblers.vllm_proposers import (
    engine_line_v1,
    legacy_spelling,
    proposer_verdict,
)
from spectrace.dialects.base import LogLine

# Higher wins; equal origin: the later line wins (a restarted server's last start-up).
_RANK = {
    "server_args": 5,
    "vllm_config": 4,
    "vllm_args": 3,
    "capture_log": 6,  # the sizes really captured (the dump's list is clipped later)
    "warning": 2,
    "launch_command": 1,
    "trtllm_config": 1,  # the extra_llm_api_options YAML pasted beside the log
    "env": 1,
    "marker": 1,
    "prose": 0,  # a sentence of the report ("eagle3 with SGLANG_ENABLE_SPEC_V2=1")
}
_OFF = ("speculative_algorithm", "speculative_config.method")  # here None means "spec off"
_TRUTH = dict.fromkeys(("true", "1", "yes", "y"), True) | dict.fromkeys(
    ("false", "0", "no", "n"), False
)
_MARKER = re.compile(r"Dynamic speculation\b.*?(?:threshold\D{0,3}(\d{1,9})|$)", re.I)
_SUITE = re.compile(r"\btest/(?:srt|registered|manual|nightly)/")  # SGLang's test folders
# words that say the text is about a speculating run: a plain command beside them is not "none"
# (an algorithm's name too: a title or caption saying "TP8+MTP" over a command cut before
# its speculative flags)
_SPEC_WORDS = re.compile(
    r"(?i:specul|spec[ -]?decod|draft[ _-]model|accept len)|投机|投機|推測デコード|추측 디코딩|추론 디코딩"
    r"|\b(?:MTP|NEXTN|NextN|EAGLE3?|Eagle3?|eagle3?|NGRAM|N-?gram|ngram|DFlash|DFLASH|Medusa)\b"
)
# served models whose ServerArgs hook turns SGLANG_ENABLE_SPEC_V2 on for EAGLE itself
# (_handle_mimo_family / Step3p5ForCausalLM: multi-layer EAGLE; apply_deepseek_v4_defaults)
_FORCED_V2_MODEL = re.compile(r"(?i)mimo-?v2|step-?3\.?5|step3p5|deepseek-?v4")
_CAPTION_REACH = 6  # lines under a caption its block may take (a fence, a short YAML / dict)
# a package row of vLLM's collect_env ("[pip3] sglang==0.4.6.post1", "[conda] sglang 0.4.6"):
# installed beside the engine, not the engine that ran
_PACKAGE_ROW = re.compile(r"^\s*\[(?:pip3?|conda)\]\s")
# a line saying the paste left flags out ("(rest of the flags omitted)", "trimmed", "snip"): no
# command in the text is shown whole
_OMITTED = re.compile(
    r"(?i)\b(?:omit\w*|truncat\w*|trimmed|snip(?:ped)?|redacted|elided|abridged|shortened|"
    r"rest of the (?:flags|args|arguments|options|command))\b|\betc\b"
)
# ServerArgs' own repr (every field, in order) printed without ``server_args=`` before it; a
# call the user wrote (``ServerArgs(model_path="m", speculative_algorithm=...)``) is keywords
_REPR = re.compile(r"ServerArgs\(model_path=(?:'[^']*'|\"[^\"]*\"), tokenizer_path=")
_GRAPH_BS = re.compile(r"Capture cuda graph bs \[([\d,\s]*)\]")
# tqdm: "Capturing batches (bs=48 avail_mem=20.45 GB):  35%|...| 8/23 [...]"
_CAPTURING = re.compile(r"Capturing batches \(bs=(\d{1,9})\b.*?\|\s*(\d{1,9})/(\d{1,9})")


def env_truth(value: str) -> bool | None:
    """SGLang's parsing of boolean env vars (true/1/yes/y, false/0/no/n)."""
    return _TRUTH.get(value.strip().lower())


def _is_start(line: LogLine) -> bool:
    text = line.text
    return ("server_args=" in text and "ServerArgs(" in text) or (
        "Initializing a V1 LLM engine" in text and "with config:" in text
    )


def _is_post(line: LogLine) -> bool:
    """Lines printed after start-up (the rest precede their run's dump or config line)."""
    text = line.text
    return bool(
        _GRAPH_BS.search(text)
        or _MARKER.search(text)
        or "Dumping input data" in text
        or "Captur" in text
    )


class ConfigCollector:
    """Accumulates config facts line by line; ``result()`` gives the RunConfig."""

    def __init__(self, tables: OptionTables | None = None) -> None:
        self._config = RunConfig()
        self._dump_line: LogLine | None = None
        self._lines: list[LogLine] = []  # kept to split runs (config lines are few)
        self._tables = tables if tables is not None else OptionTables()  # loaded on first use
        self._launch = LaunchReader(self._tables)
        self._version_era: str | None = None  # from a printed sglang version: beats warnings
        self._warning_era: str | None = None  # the era the spec warnings told
        self._sglang_release: Version | None = None
        self._bare: set[Version] = set()  # "v0.5.16" with no package named beside it
        self._bare_other: set[Version] = set()  # bare releases lines name as good, fixed, tried
        self._failing: set[Version] = set()  # "(v0.5.13 regression)": the bare release that broke
        self._about = False  # some line names sglang: a bare release is its
        self._main = False  # a line says the run is a build of main, newer than any release named
        self._enabled = False  # a sentence says the algorithm it names was on
        self._v2_said = False  # a sentence says the run was on "Eagle V2" (spec v2's worker)
        self._forced_model: str | None = None  # the V2 class a served model's hook may force
        self._target: tuple[str, LogLine] | None = None  # vLLM's target model and its line
        self._vllm_prose: str | None = None  # a vLLM release named in prose
        self._named: list[tuple[str, LogLine]] = []  # speculative algorithms prose names
        self._tested: list[tuple[str, LogLine]] = []  # algorithms the SGLang tests named are about
        self._machinery: tuple[LogLine, str] | None = None  # an EAGLE draft-graph capture line
        self._latest: Day | None = None  # the newest day a fed line's own stamp shows, and its line
        self._crash_day: date | None = None  # the last crash's day, when no fed line is dated
        self._posted: Day | None = None  # the newest post header's day, and its line
        self._yearless = False  # a post header without its year: posts bound nothing
        self._spec_said = False  # some line speaks of speculation (no "none" from a command)
        self._omitted = False  # a line says flags were left out of the paste (no "none" either)
        self._caption: tuple[str, int] = ("", -9)  # the last caption over another's command
        self._releases: set[tuple[int, ...]] = set()  # every sglang release a line names
        self._printed = False  # check_env's own "sglang: X" line (the environment's release)
        self._plain: LogLine | None = None  # a whole sglang command: no flag is no speculation
        self._from_test = False  # the named algorithm is a test's: its spec-v2 setting unknown
        self._stated: set[bool] = set()  # SGLANG_ENABLE_SPEC_V2 values lines outside commands state
        self._examples: set[tuple[str, int]] = set()  # lines quoting a config as an example
        self._diff = DiffView()
        self.quotes_aside = False  # result() ranked quoted lines below the writer's own

    def feed(self, line: LogLine) -> None:
        """Take whatever configuration fact the line carries (most lines carry one)."""
        line = self._diff.view(line)  # a pasted diff hunk: read as the file it leaves
        text = line.text
        self._lines.append(line)
        if is_example(line):
            self._examples.add((line.source, line.lineno))
        if line.ts is not None and line.ts.year >= 2000:  # a year-less stamp (1900) bounds nothing
            if self._latest is None or line.ts.date() > self._latest[0]:
                self._latest = (line.ts.date(), line)
        self._note_post(line, text)
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
        if in_launch:
            pass  # a line of a launch command (read whole when it ends)
        elif "ServerArgs(" in text and ("server_args=" in text or _REPR.search(text)):
            self._server_args(line, text[text.index("ServerArgs(") :])
        elif kwargs := kwarg_flags(text):  # sgl.Engine(speculative_algorithm="EAGLE3", ...)
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
        elif self._config.engine != "trtllm" and (kwargs := v0_keyword_flags(text)):
            self._vllm(line, kwargs, "vllm_args")  # LLM(speculative_model="...") in a script
        elif (args := sglang_args_dict(text)) is not None:  # server args as a dict or JSON
            self._config.engine = self._config.engine or "sglang"
            for name in DECISIVE_FLAGS:  # the values the user set, read as a command's flags
                if name in args:
                    self._set(name, args[name], line, "launch_command")
        elif vllm_spec := spec_line_flags(text):  # a SpeculativeConfig repr
            self._vllm(line, vllm_spec, "vllm_config")
        elif (refused := refused_method(text)) is not None:
            self._refused(line, refused)
        elif "Capturing batches" in text or "Capture cuda graph end" in text:
            self._capturing(line, _CAPTURING.search(text))
        elif (graph := _GRAPH_BS.search(text)) is not None:
            sizes = [int(x) for x in graph.group(1).replace(",", " ").split() if len(x) < 10]
            self._set("cuda_graph_bs", sizes, line, "capture_log")
        elif (marker := _MARKER.search(text)) is not None:
            self._marker(line, marker)
        elif spec := trtllm_spec_flags(text):
            self._config.engine = self._config.engine or "trtllm"
            for name, value in spec.items():
                self._set(name, value, line, "trtllm_config")
        elif not line.headed and (quoted := sentence_spec_config(text)) is not None:
            self._sentence_spec(line, quoted)
        elif not self._warning(line):  # a line no reader above knows: maybe a sentence
            self._env(line, find_env_assignments(text), "env")
            if not suggests(text):  # "should I try NGRAM?" names no run's algorithm
                self._named += [(name, line) for name in run_names(text)]
            self._tested += [(name, line) for name in tested_algorithms(text)]
            self._enabled = self._enabled or (stated_enabled(text) and not in_quote(line.raw))
            self._v2_said = self._v2_said or (stated_v2(text) and not line.quoted)
        self._platform_and_release(line, text)

    def _note_post(self, line: LogLine, text: str) -> None:
        """A post header's day; one GitHub prints without its year (this year's) leaves the
        thread's posts unbounded (the later comment may be years after the dated one)."""
        day = post_date(text)
        if day is not None and (self._posted is None or day > self._posted[0]):
            self._posted = (day, line)
        self._yearless = self._yearless or yearless_post(text)

    def text_day(self) -> Day | None:
        """The newest day the text shows, with the line that shows it: a line's own stamp or a
        post header (none from posts when a header leaves its year out). The run it reports is
        no newer, so the day bounds the release; the one reader for every framework."""
        days = [d for d in (self._latest, None if self._yearless else self._posted) if d]
        return max(days, key=lambda d: d[0]) if days else None

    def crash_day(self, day: date | None) -> None:
        """The day of the log's last dated crash: it bounds the release when no config line
        or post header is dated (a run's own start-up day bounds it more tightly)."""
        self._crash_day = day

    def _platform_and_release(self, line: LogLine, text: str) -> None:
        """What any line may also say besides its config fact: the platform a vLLM run is on,
        the release of the framework, and what a text about sglang names."""
        if ascend_signal(text):  # the platform: vLLM runs the vllm-ascend plugin's classes
            self._set("platform", "ascend", line, "env")
            if (plugin := ascend_release(text)) is not None:  # its classes change by release
                self._set("platform_release", plugin, line, "env")
        elif ascend_named(text):  # the plugin named: vLLM's own class only a condition
            self._set("platform_named", "ascend", line, "env")
        if (patcher := patching_plugin(text)) is not None and "platform" not in self._config.flags:
            self._set("platform", patcher, line, "env")  # its own proposer: vLLM's a condition
        if (trt := trtllm_release(text)) is not None:  # its defaults stand for unset keys
            self._set("trtllm_release", trt, line, "env")
        if (version := VERSION.search(text)) is not None:
            self._config.version = version.group(1) or version.group(2)
            self._config.engine = "vllm"
            self._launch.releases["vllm"] = self._config.version  # read later commands as it
        elif other_release(text) or _PACKAGE_ROW.match(text):
            pass  # "fixed in v0.5.14, please upgrade", vLLM's collect_env "[pip3] sglang==0.4.6"
        elif (release := find_sglang_version(text) or self._pip_show(line)) is not None:
            named, printed = sglang_releases(text) | {release}, printed_release(text)
            self._releases |= {r[:3] for r in named}
            # "tried v0.5.14 ..., this log is from v0.4.6": neither; check_env's line stays
            if len(named) == 1 and (printed or not self._printed):
                self._adopt_sglang(release)
                self._launch.releases["sglang"] = self._config.version
            self._printed = self._printed or printed
        elif (prose := prose_version(text)) is not None:
            self._vllm_prose = self._vllm_prose or prose  # used only for a vLLM run
        if not other_release(text):
            self._bare |= bare_releases(text)
            self._failing |= failing_releases(text)
        else:  # "it was fine on v0.5.9": not the run's, but the title's bare one may not be either
            self._bare_other |= bare_releases(text)
        self._about = self._about or (about_sglang(text) and not _PACKAGE_ROW.match(text))
        self._main = self._main or from_main(text)

    def result(self) -> RunConfig:
        """The collected config (the last run wins), plus one config per run when there are
        several; in a reply quoting another post, the writer's own lines' config where they
        show a run or set it apart as plain (``quotes``: quoted lines rank below them)."""
        if mixed(self._lines):
            own = ConfigCollector(self._tables)
            own.crash_day(self._crash_day)
            for line in self._lines:
                if not line.quoted:
                    own.feed(line)
            own._spec_said = own._spec_said or self._spec_said  # a quote keeps "none" away
            config = own._all_runs()
            if sets_apart(self._lines) or holds_run(config):
                self.quotes_aside = True
                return config
        return self._all_runs()

    def _all_runs(self) -> RunConfig:
        config = self._single()
        # one start-up line: its day still tells a crash of an older log apart (linker.run_for)
        config.start_ts = next((ln.ts for ln in self._lines if ln.ts and _is_start(ln)), None)
        for start, lines in split_runs(self._lines, _is_start, _is_post):
            collector = ConfigCollector(self._tables)
            collector.crash_day(self._crash_day)
            for line in lines:
                collector.feed(line)
            run = collector._single()
            run.start, run.start_ts = (start.source, start.lineno), start.ts
            config.runs += (run,)
        return config

    def _single(self) -> RunConfig:
        """Everything fed, as one config, with the dump-derived path evidence placed first."""
        for command in self._launch.close():  # a command the input ended in
            self._apply_launch(command)
        self._drop_disagreeing()
        self._bare_release()
        finish_vllm(self._config, self._lines, self._target, self._vllm_prose, self.text_day())
        named = one_family([name for name, _ in self._named])
        if (
            named is not None
            and self._config.engine != "vllm"
            and ("speculative_algorithm" not in self._config.flags)
        ):
            line = next(line for name, line in self._named if name == named)
            self._set("named_algorithm", named, line, "prose")
            self._trtllm_prose(named, line)
        self._tested_algorithm()
        if self._machinery is not None and "speculative_algorithm" not in self._config.flags:
            line, reason = self._machinery  # the loops' vote needs the run to be EAGLE-type
            self._set("eagle_draft_graph", True, line, "warning")
            self._config.path_evidence.append(
                Evidence(line.source, line.lineno, trim(line.raw), reason)
            )
            self._machinery = None
        config = self._config
        return RunConfig(
            flags=dict(config.flags),
            path_evidence=self._ordered_evidence(),
            engine=config.engine,
            era=config.era,
            version=config.version,
            server_args=dict(config.server_args),
        )

    def _tested_algorithm(self) -> None:
        """SGLang tests of one family named (a pytest id, a CI line) and nothing else naming an
        algorithm: that family ran, under settings the test sets itself (``Bounds.tested``)."""
        tested = one_family([name for name, _ in self._tested])
        if tested is None or self._config.engine not in (None, "sglang") or self._named:
            return
        suite = any(_SUITE.search(line.text) for _, line in self._tested)
        if not (self._about or suite):  # another framework's tests are named alike
            return
        if "speculative_algorithm" in self._config.flags:
            return
        line = next(line for name, line in self._tested if name == tested)
        self._set("named_algorithm", tested, line, "prose")
        self._from_test = True

    def _drop_disagreeing(self) -> None:
        """Different sglang releases named by image tags, pins or prose and no check_env line:
        the log's own is not told apart, so none is taken (the era's condition stands)."""
        if self._sglang_release is None:
            return
        main = self._main and min(self._releases | {self._sglang_release[:3]}) < (0, 5, 13)
        if not main and (len(self._releases) < 2 or self._printed):
            return  # (a build of main is newer than a release of the v1 eras the text names)
        self._sglang_release = self._version_era = None
        self._config.version = None
        self._config.era = self._warning_era

    def _bare_release(self) -> None:
        """One release named only as ``v0.5.16`` (a title, a sentence) in a text about sglang,
        when no other line names a release: the era it bounds (from 0.5.13 no v1 worker); of
        several, the one a line says broke ("v0.5.13 regression" beside "works on v0.5.12")."""
        if self._sglang_release is not None or self._config.version is not None:
            return
        if not self._about or self._config.engine not in (None, "sglang"):
            return
        one = len(self._bare | self._bare_other) == 1
        named = self._bare if one else self._failing  # several: the broken one
        if len(named) == 1 and not (self._main and min(named)[:3] < (0, 5, 13)):
            self._adopt_sglang(next(iter(named)))

    def _adopt_sglang(self, release: Version) -> None:
        """The run is sglang at ``release``: its version, era and the era table's own row."""
        self._config.version = version_text(release)
        self._config.era = self._version_era = era_of(release)
        self._sglang_release = release  # the era table's own row, not the whole era's
        self._config.engine = self._config.engine or "sglang"

    def _trtllm_prose(self, named: str, line: LogLine) -> None:
        """A TensorRT-LLM run whose text names its algorithm where no config line does."""
        flags = self._config.flags
        release, backend = (flags.get(k) for k in ("trtllm_release", "backend"))
        if self._config.engine not in ("trtllm", None) or release is None:
            return  # a TensorRT-LLM run: its config lines, or a line naming its release
        if "speculative_config.method" in flags:
            return
        method = prose_method(named, release.value, backend and backend.value)
        if method is not None:
            self._config.engine = "trtllm"
            self._set("speculative_config.method", method, line, "prose")

    def _ordered_evidence(self) -> list[Evidence]:
        """The dump's verdict first (the server's final values), the warnings next; a verdict
        inferred from a launch command and the release's defaults last."""
        derived = self._dump_evidence()
        if self._dump_line is None:
            return self._as_examples(self._config.path_evidence + derived)
        return self._as_examples(derived + self._config.path_evidence)

    def _as_examples(self, evidence: list[Evidence]) -> list[Evidence]:
        """A config quoted as an example names no class: the family (from its flags) at most."""
        return [
            Evidence(e.source, e.lineno, e.text, f"{EXAMPLE_REASON} ({e.reason})")
            if (e.source, e.lineno) in self._examples and (e.worker_class or e.condition) else e
            for e in evidence
        ]  # fmt: skip

    def _dump_evidence(self) -> list[Evidence]:
        """What the config says about the worker path (``config_path``: dump, launch, text)."""
        knobs = self._eagle_knobs()
        enabled = self._enabled_here() or self._eagle_shown(knobs)
        enabled = enabled and self._plain is None  # a whole plain command outranks a sentence
        v2 = self._v2_said and self._about and self._plain is None
        bounds = Bounds(self._config.era, self._sglang_release, self._newest(),
                        len(self._stated) > 1, enabled or v2, self._from_test, knobs, v2,
                        self._forced_model)  # fmt: skip
        named = self._spec_said or self._omitted or any(name != "OFF" for name, _ in self._named)
        return config_evidence(self._config.flags, self._config.server_args, self._dump_line,
                               bounds, None if named else self._plain)  # fmt: skip

    def _eagle_knobs(self) -> bool:
        """A command sets settings only EAGLE-type workers read and no algorithm flag."""
        flags = self._config.flags
        return "speculative_algorithm" not in flags and any(
            flags[k].origin == "launch_command" for k in EAGLE_KNOBS if k in flags
        )

    def _eagle_shown(self, knobs: bool) -> bool:
        """The log shows an EAGLE-type worker ran (its draft-graph capture line) or was set up
        (``knobs``), and the text names one EAGLE-family algorithm on a line that does not set
        it apart from the run: that algorithm is the run's, stated or not."""
        named = self._config.flags.get("named_algorithm")
        if named is None or not eagle_family(str(named.value)) or self._from_test:
            return False
        if self._config.engine != "sglang":  # set by the command or the capture line itself
            return False
        if not (knobs or "eagle_draft_graph" in self._config.flags):
            return False
        return any(not set_apart(line.text) and not in_quote(line.raw) for _, line in self._named)

    def _enabled_here(self) -> bool:
        """A sentence's "EAGLE3 enabled" is SGLang's run only in a text about sglang."""
        return self._enabled and self._about and self._config.engine in (None, "sglang")

    def _pip_show(self, line: LogLine) -> Version | None:
        """``Version: 0.5.2`` right under ``Name: sglang`` (the line fed before this one)."""
        before = self._lines[-2] if len(self._lines) > 1 else None
        if before is None or (before.source, before.lineno + 1) != (line.source, line.lineno):
            return None
        return pip_show_version(before.text, line.text)

    def _newest(self) -> Version | None:
        """The newest sglang release the log's last dated line allows (none for vLLM)."""
        shown = self.text_day()
        day = shown[0] if shown is not None else self._crash_day
        if day is None or self._config.engine == "vllm":
            return None
        return newest_at(day)

    def _set(self, name: str, value: object, line: LogLine, origin: str) -> None:
        old = self._config.flags.get(name)
        if old is not None and value is None and old.value is not None and name not in _OFF:
            return  # None is "unset / auto": it never hides a value another line stated
        if old is None or _RANK[origin] >= _RANK[old.origin]:
            self._config.flags[name] = FlagValue(value, line.source, line.lineno, origin)

    def _server_args(self, line: LogLine, text: str) -> None:
        values, _complete = parse_call_kwargs(text)
        self._config.engine = "sglang"
        self._config.server_args = values
        self._dump_line = line
        for name in DECISIVE_FLAGS:
            if name in values:
                self._set(name, values[name], line, "server_args")

    def _vllm(self, line: LogLine, flags: dict[str, object], origin: str) -> None:
        self._config.engine = self._config.engine or "vllm"
        for name, value in flags.items():
            self._set(name, value, line, origin)
        if "speculative_config.method" in flags:
            found = VERSION.search(line.text)  # the engine line names its own release
            version = (found.group(1) or found.group(2)) if found else self._config.version
            reason, points_to, proposer = proposer_verdict(
                flags["speculative_config.method"],
                version,
                engine_line_v1(line.text),
                legacy_spelling(line.text),
            )
            self._config.path_evidence.append(
                Evidence(line.source, line.lineno, trim(line.raw), reason, points_to, proposer)
            )

    def _sentence_spec(self, line: LogLine, quoted: str) -> None:
        """vLLM's flag with its JSON inside a sentence, where no command on the line set it."""
        said = self._config.flags.get("speculative_config.method")
        if said is not None and (said.source, said.lineno) == (line.source, line.lineno):
            return
        self._vllm(line, spec_dict_flags(quoted), "launch_command")

    def _refused(self, line: LogLine, method: str) -> None:
        """``Unsupported speculative method: 'mtp'``: the family asked for, and that no
        proposer ran for it (never a decided class)."""
        self._config.engine = self._config.engine or "vllm"
        self._set("speculative_config.method", method, line, "vllm_config")
        reason = f"vLLM refused speculative method '{method}': no proposer was built for it"
        self._config.path_evidence.append(
            Evidence(line.source, line.lineno, trim(line.raw), reason)
        )

    def _capturing(self, line: LogLine, match: re.Match[str] | None) -> None:
        """The bs being captured, kept only while a capture is unfinished (a capture crash)."""
        if match is not None and int(match.group(2)) < int(match.group(3)):
            self._set("capture_bs", int(match.group(1)), line, "capture_log")
        else:
            self._config.flags.pop("capture_bs", None)

    def _marker(self, line: LogLine, marker: re.Match[str]) -> None:
        """The dynamic-disable patch announcing itself proves its code was loaded."""
        if marker.group(1):
            self._set("speculative_disable_batch_threshold", int(marker.group(1)), line, "marker")
        reason = "the dynamic speculation disable start-up line was logged: its code was loaded"
        self._config.path_evidence.append(
            Evidence(line.source, line.lineno, trim(line.raw), reason)
        )

    def _warning(self, line: LogLine) -> bool:
        warning = match_spec_warning(line.text)
        if warning is None:
            return False
        self._config.engine = self._config.engine or "sglang"
        if warning.eagle_machinery:  # told only when nothing names the algorithm (_single)
            self._machinery = self._machinery or (line, warning.reason)
            return True
        self._warning_era = warning.era or self._warning_era
        self._config.era = self._version_era or warning.era or self._config.era
        self._config.path_evidence.append(
            Evidence(
                line.source,
                line.lineno,
                trim(line.raw),
                warning.reason,
                warning.points_to,
                warning.worker_class,
            )
        )
        if warning.overlap is not None:
            self._set("disable_overlap_schedule", not warning.overlap, line, "warning")
        if warning.spec_v2_env is not None:
            self._set("SGLANG_ENABLE_SPEC_V2", warning.spec_v2_env, line, "warning")
        return True

    def _under_caption(self, line: LogLine) -> bool:
        """The line sits in the block right under a caption that makes it a suggestion, a docs
        example or another's ("Reviewer: please try this yaml:", "The docs example:")."""
        source, lineno = self._caption
        if line.headed or line.ts is not None:
            return False  # a log record is what ran, whatever the caption says
        return line.source == source and 0 < line.lineno - lineno <= _CAPTION_REACH

    def _apply_launch(self, command: LaunchCommand) -> None:
        """Each flag with the line its option was read on (a command may span many lines);
        none from a command under a caption that makes it another's or a suggestion."""
        self._config.engine = self._config.engine or command.engine
        first = next(iter(command.lines.values()), None)
        if first is not None and self._under_caption(first):
            self._spec_said = True  # some speculation was shown: no "none" from another command
            self._caption = ("", -9)  # one command only
            return
        if command.complete and command.engine == "sglang" and first is not None:
            self._plain = self._plain or first  # its algorithm, if any, is among its flags
        for name, value in command.flags.items():
            line = command.lines[name]
            if name == "model_path" and (forced := _FORCED_V2_MODEL.search(str(value))):
                multi = forced.group(0).lower().startswith(("mimo", "step"))  # multi-layer EAGLE
                self._forced_model = "MultiLayerEagleWorkerV2" if multi else "EAGLEWorkerV2"
            if isinstance(value, str) and name == "speculative_algorithm":
                value = value.rstrip(".,;:")  # a command ending a sentence: "... EAGLE."
            if name in DECISIVE_FLAGS:
                self._set(name, value, line, "launch_command")
            elif command.engine == "vllm" and name in CLI_NAMES:
                self._set(f"speculative_config.{CLI_NAMES[name]}", value, line, "launch_command")
            elif command.engine == "vllm" and name == "model":  # the target (its MTP layers)
                self._target = (str(value), line)
            elif command.engine == "trtllm" and name == "backend":  # PyTorch or TRT engine
                self._set("backend", value, line, "launch_command")
            elif command.engine == "sglang" and name == "enable_beta_spec":  # 0.5.3.post2-0.5.4
                self._set(name, value, line, "launch_command")
        method = self._config.flags.get("speculative_config.method")
        said = command.lines.get("method") or command.lines.get("speculative_model")
        if command.engine == "vllm" and method is not None and said is not None and (
            method.origin == "launch_command" and (method.source, method.lineno) == (said.source, said.lineno)
        ):  # fmt: skip
            reason, points_to, proposer = proposer_verdict(
                method.value, self._config.version, None, legacy_spelling(said.text)
            )
            reason = reason.replace("vLLM config", "vLLM launch command", 1)
            self._config.path_evidence.append(
                Evidence(said.source, said.lineno, trim(said.raw), reason, points_to, proposer)
            )
        if command.engine == "vllm" and command.model and first is not None:
            self._target = (command.model, first)  # vllm serve MODEL
        if command.before is not None and command.engine == "sglang":
            self._release_bound(command)
        if command.env and first is not None:
            self._env(
                command.lines.get("SGLANG_ENABLE_SPEC_V2", first), command.env, "launch_command"
            )

    def _release_bound(self, command: LaunchCommand) -> None:
        """An option newer releases refuse (``--speculative-draft``, ambiguous from 0.5.2): the
        run is older, which can settle its era when no line names the release."""
        release, option = command.before or ("", "")
        era = era_before(release)
        if era is None or self._config.era is not None or self._sglang_release is not None:
            return
        self._config.era = era
        line = next(iter(command.lines.values()))
        reason = (f"launch command: {option} is refused by sglang {release} (ambiguous or gone "
                  f"there), so this run predates it: era {era}")  # fmt: skip
        self._config.path_evidence.append(
            Evidence(line.source, line.lineno, trim(line.raw), reason)
        )

    def _env(self, line: LogLine, env: dict[str, str], origin: str) -> None:
        stated = spec_v2_settings(line.text) if origin != "launch_command" else set()
        if origin == "env" and switch_apart(line.text):
            return  # "setting SGLANG_ENABLE_SPEC_V2=1 makes it go away": not the crash's run
        self._stated |= stated  # a text comparing both settings names neither
        if len(stated) > 1:  # "tried with =0 and =1": this line names neither
            env = {k: v for k, v in env.items() if k != "SGLANG_ENABLE_SPEC_V2"}
        if "SGLANG_ENABLE_SPEC_V2" not in env and len(stated) == 1:
            env = {"SGLANG_ENABLE_SPEC_V2": "1" if stated.pop() else "0"}  # YAML, JSON, prose
            origin = "prose"
        if "SGLANG_ENABLE_SPEC_V2" in env:
            env["SGLANG_ENABLE_SPEC_V2"] = env["SGLANG_ENABLE_SPEC_V2"].strip("`'\").,:;")
            value = env_truth(env["SGLANG_ENABLE_SPEC_V2"])
            self._set(
                "SGLANG_ENABLE_SPEC_V2",
                value if value is not None else env["SGLANG_ENABLE_SPEC_V2"],
                line,
                origin,
            )
            self._config.path_evidence.append(
                Evidence(
                    line.source,
                    line.lineno,
                    trim(line.raw),
                    f"SGLANG_ENABLE_SPEC_V2={env['SGLANG_ENABLE_SPEC_V2']} "
                    f"{'set at launch' if origin == 'launch_command' else 'named in the log'} "
                    "(0.5.5-0.5.12: decides whether EAGLE runs on the overlap v2 worker)",
                )
            )
