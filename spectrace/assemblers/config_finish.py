"""Finishing the collected config: one config per server run, the writer's own lines over
quoted ones, the family prose and tests name, and the path evidence in rank order (the dump's
verdict first, derived ones after).

A layer of the config collector (config.py) over ``ConfigFacts``.
"""

from __future__ import annotations

import re

from spectrace.assemblers.config_facts import ConfigFacts
from spectrace.assemblers.config_literals import CONFIG_LITERALS as CONFIG_LITERALS  # re-export
from spectrace.assemblers.config_path import EAGLE_KNOBS, Bounds, config_evidence
from spectrace.assemblers.config_state import is_post, is_start
from spectrace.assemblers.examples import EXAMPLE_REASON
from spectrace.assemblers.quotes import holds_run, mixed, sets_apart
from spectrace.assemblers.run_config import Evidence, RunConfig, trim
from spectrace.assemblers.runs import split_runs
from spectrace.assemblers.spec_prose import (
    eagle_family,
    one_family,
    set_apart,
)
from spectrace.assemblers.trtllm_config import prose_method
from spectrace.assemblers.vllm_finish import finish_vllm
from spectrace.dialects.base import LogLine

_SUITE = re.compile(r"\btest/(?:srt|registered|manual|nightly)/")  # SGLang's test folders


class ConfigFinish(ConfigFacts):
    """Turns what was fed into the RunConfig the linker reads."""

    def result(self) -> RunConfig:
        """The collected config (the last run wins), plus one config per run when there are
        several; in a reply quoting another post, the writer's own lines' config where they
        show a run or set it apart as plain (``quotes``: quoted lines rank below them)."""
        if mixed(self._lines):
            own = type(self)(self._tables)
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
        config.start_ts = next((ln.ts for ln in self._lines if ln.ts and is_start(ln)), None)
        for start, lines in split_runs(self._lines, is_start, is_post):
            collector = type(self)(self._tables)
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
        return any(not set_apart(line.text) and not line.quoted for _, line in self._named)

    def _enabled_here(self) -> bool:
        """A sentence's "EAGLE3 enabled" is SGLang's run only in a text about sglang."""
        return self._enabled and self._about and self._config.engine in (None, "sglang")
