"""The collector's state and its one mutator: every fact the config lines told, with the rank
of the line kind that told it (a server_args dump outranks a launch command, which outranks
prose), and the line shapes that start and follow a server run.

Split out of config.py so that each step over the state (reading releases, applying a line's
facts, finishing the verdict) sits in a module of its own; the collector is their stack.
"""

from __future__ import annotations

import re
from datetime import date

from spectrace.assemblers.config_literals import CONFIG_LITERALS as CONFIG_LITERALS  # re-export
from spectrace.assemblers.diff_view import DiffView
from spectrace.assemblers.kv_record import KvRecords
from spectrace.assemblers.launch import LaunchReader
from spectrace.assemblers.launch_options import OptionTables
from spectrace.assemblers.run_config import Evidence, FlagValue, RunConfig
from spectrace.assemblers.sglang_eras import Version
from spectrace.assemblers.thread_title import TitleReader
from spectrace.assemblers.trtllm_runners import RunnerReader
from spectrace.assemblers.vllm_finish import Day
from spectrace.assemblers.vllm_startup import StartupDrafts
from spectrace.dialects.base import LogLine

# Higher wins; equal origin: the later line wins (a restarted server's last start-up).
_RANK = {
    "server_args": 5,
    "vllm_config": 4,
    "vllm_args": 3,
    "capture_log": 6,  # the sizes really captured (the dump's list is clipped later)
    "warning": 2,
    "load_log": 2,  # the model runner's load line: the class it built
    "launch_command": 1,
    "trtllm_config": 1,  # the extra_llm_api_options YAML pasted beside the log
    "env": 1,
    "marker": 1,
    "prose": 0,  # a sentence of the report ("eagle3 with SGLANG_ENABLE_SPEC_V2=1")
}
_OFF = ("speculative_algorithm", "speculative_config.method")  # here None means "spec off"
MARKER = re.compile(r"Dynamic speculation\b.*?(?:threshold\D{0,3}(\d{1,9})|$)", re.I)
GRAPH_BS = re.compile(r"Capture cuda graph bs \[([\d,\s]*)\]")


def is_start(line: LogLine) -> bool:
    text = line.text
    return ("server_args=" in text and "ServerArgs(" in text) or (
        "Initializing a V1 LLM engine" in text and "with config:" in text
    )


def is_post(line: LogLine) -> bool:
    """Lines printed after start-up (the rest precede their run's dump or config line)."""
    text = line.text
    return bool(
        GRAPH_BS.search(text)
        or MARKER.search(text)
        or "Dumping input data" in text
        or "Captur" in text
    )


class ConfigState:
    """What the collector has gathered so far (fed line by line, read when finishing)."""

    def __init__(self, tables: OptionTables | None = None) -> None:
        self._config = RunConfig()
        self._dump_line: LogLine | None = None
        self._lines: list[LogLine] = []  # kept to split runs (config lines are few)
        self._tables = tables if tables is not None else OptionTables()  # loaded on first use
        self._launch = LaunchReader(self._tables)
        self._records = KvRecords()  # a launcher's key=value record of its job (kv_record)
        self._version_era: str | None = None  # from a printed sglang version: beats warnings
        self._warning_era: str | None = None  # the era the spec warnings told
        self._sglang_release: Version | None = None
        self._bare: set[Version] = set()  # "v0.5.16" with no package named beside it
        self._bare_other: set[Version] = set()  # bare releases lines name as good, fixed, tried
        self._failing: set[Version] = set()  # "(v0.5.13 regression)": the bare release that broke
        self._about = False  # some line names sglang: a bare release is its
        self._main = False  # a line says the run is a build of main, newer than any release named
        self._enabled = False  # a sentence says the algorithm it names was on
        self._flagged: list[tuple[str, LogLine]] = []  # set by SGLang's algorithm flag in a sentence
        self._v2_said = False  # a sentence says the run was on "Eagle V2" (spec v2's worker)
        self._forced_model: str | None = None  # the V2 class a served model's hook may force
        self._served: str | None = None  # the model a launch command serves (--model-path)
        self._target: tuple[str, LogLine] | None = None  # vLLM's target model and its line
        self._vllm_prose: str | None = None  # a vLLM release named in prose
        self._named: list[tuple[str, LogLine]] = []  # speculative algorithms prose names
        self._tested: list[tuple[str, LogLine]] = []  # algorithms the SGLang tests named are about
        self._machinery: tuple[LogLine, str] | None = None  # an EAGLE draft-graph capture line
        self._latest: Day | None = None  # the newest day a fed line's own stamp shows, and its line
        self._crash_day: date | None = None  # the last crash's day, when no fed line is dated
        self._posted: Day | None = None  # the newest post header's day, and its line
        self._written: Day | None = None  # the newest day a writer gives as their present (written_days)
        self._named_release = False  # a line names an sglang release, the run's or another's
        self._issue_repro = False  # a line says the run shown is an issue's ("Fixes #N", "the reporter")
        self._first_post: Day | None = None  # the oldest post header's day (config_release._main_floor)
        self._nightly: list[Day] = []  # build days of nightly images of main the text names
        self._dev_floor: list[Version] = []  # releases dated nightly tags start from (image_tags)
        self._sglang_env: LogLine | None = None  # a shell line setting an SGLANG_ variable
        self._release_engine = False  # the engine is SGLang only by a release line (_adopt_sglang)
        self._yearless = False  # a post header without its year: posts bound nothing
        self._spec_said = False  # some line speaks of speculation (no "none" from a command)
        self._omitted = False  # a line says flags were left out of the paste (no "none" either)
        self._caption: tuple[str, int] = ("", -9)  # the last caption over another's command
        self._releases: set[tuple[int, ...]] = set()  # every sglang release a line names
        self._printed = False  # check_env's own "sglang: X" line (the environment's release)
        self._plain: LogLine | None = None  # a whole sglang command: no flag is no speculation
        self._cut: LogLine | None = None  # an sglang command cut before any algorithm flag
        self._whole_vllm: LogLine | None = None  # a whole vllm command (its options all shown)
        self._from_test = False  # the named algorithm is a test's: its spec-v2 setting unknown
        self._stated: set[bool] = set()  # SGLANG_ENABLE_SPEC_V2 values lines outside commands state
        self._examples: set[tuple[str, int]] = set()  # lines quoting a config as an example
        self._diff = DiffView()
        self._titles = TitleReader()  # the thread's title(s) and the drafts prose names
        self._title_said = False  # the named algorithm is the title's (its line is the evidence)
        self._aside: set[tuple[str, int]] = set()  # lines whose names read OFF only as set aside
        self.quotes_aside = False  # result() ranked quoted lines below the writer's own
        self._listings: list[Evidence] = []  # code listings headed by a worker's file (code_listing)
        self._in_post = False  # collecting one post's scope: no posts of its own (config_posts)
        self._runners = RunnerReader()  # wrapper programs of TensorRT-LLM (Dynamo, Triton) named
        self._startups = StartupDrafts()  # vLLM's start-ups: a draft's architecture is its run's

    def _set(self, name: str, value: object, line: LogLine, origin: str) -> None:
        old = self._config.flags.get(name)
        if old is not None and value is None and old.value is not None and name not in _OFF:
            return  # None is "unset / auto": it never hides a value another line stated
        if old is None or _RANK[origin] >= _RANK[old.origin]:
            self._config.flags[name] = FlagValue(value, line.source, line.lineno, origin)
