"""Finishing the collected config: one config per server run, the writer's own lines over
quoted ones, the family prose and tests name, and the path evidence in rank order (the dump's
verdict first, derived ones after).

A layer of the config collector (config.py) over ``ConfigFacts``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from spectrace.assemblers.config_facts import FORCED_V2_MODEL, ConfigFacts
from spectrace.assemblers.config_literals import CONFIG_LITERALS as CONFIG_LITERALS  # re-export
from spectrace.assemblers.config_path import EAGLE_KNOBS, Bounds, config_evidence
from spectrace.assemblers.config_posts import post_runs
from spectrace.assemblers.config_state import is_post, is_start
from spectrace.assemblers.contrast_names import contrasted
from spectrace.assemblers.not_run import EXAMPLE_REASON
from spectrace.assemblers.quotes import holds_run, mixed, sets_apart
from spectrace.assemblers.run_config import Evidence, RunConfig, trim
from spectrace.assemblers.run_shown import run_line, shows_run
from spectrace.assemblers.runs import split_runs
from spectrace.assemblers.sglang_eras import first_release, promotable, promote_rules
from spectrace.assemblers.spec_prose import (
    PROSE_REASON,
    eagle_family,
    one_family,
    set_apart,
    speculation_removal_works,
)
from spectrace.assemblers.sentences import sentences
from spectrace.assemblers.thread_repo import tracker_engine
from spectrace.assemblers.trtllm_config import prose_method
from spectrace.assemblers.vllm_finish import finish_vllm
from spectrace.dialects.base import LogLine

_SUITE = re.compile(r"\btest/(?:srt|registered|manual|nightly)/")  # SGLang's test folders


# the title's method words (thread_title) in SGLang's --speculative-algorithm spelling; MTP is
# NEXTN or FROZEN_KV_MTP there (two worker families), MEDUSA and the rest are no SGLang algorithm
_PROMOTED = re.compile(r"(?i)\bpromot(?:e|ed|es|ing)\b")  # "auto-promoted to", "promoting X to"
_SGLANG_NAMES = {"EAGLE": "EAGLE", "EAGLE3": "EAGLE3", "NEXTN": "NEXTN", "STANDALONE": "STANDALONE",
                 "NGRAM": "NGRAM", "DFLASH": "DFLASH", "DSPARK": "DSPARK"}  # fmt: skip
# the prose reason's words first: every reader that ranks prose below a line of the run
# (path_gather._settled, the evidence order) ranks the title's verdict alike
TITLE_REASON = f"{PROSE_REASON} (the thread's title)"
# a writer's sentence saying the run serves or loads a draft ("We serve X with org/X-EAGLE3 as
# the draft model", "I load the Qwen3-8B-EAGLE3 draft"): a checkpoint named otherwise (a link
# list, an ls listing, a table row) is no claim
# a pull request's title describing code it adds or turns on ("feat: enable NGRAM with DP
# attention", "Support nextn for X"): its method is the PR's run only where the text shows one
_ADDS = re.compile(r"(?i)\b(?:feat|add(?:s|ed|ing)?|support(?:s|ed|ing)?|implement\w*|introduc\w*"
                   r"|enabl(?:e|es|ing))\b")
_SERVES = re.compile(
    r"(?i)^(?![\s>|$]).*\b(?:I|we|our)\b.*\b(?:serv(?:e|es|ed|ing)|run(?:s|ning)?|ran|us(?:e|es|ed|ing)|"
    r"load(?:s|ed|ing)?|launch(?:es|ed|ing)?|deploy(?:s|ed|ing)?)\b"
)


class ConfigFinish(ConfigFacts):
    """Turns what was fed into the RunConfig the linker reads."""

    def result(self) -> RunConfig:
        """The collected config (the last run wins), plus one config per run when there are
        several, and per post of a thread (``config_posts``: the run a crash in it reads)."""
        config = self._quotes_ranked()
        if not self._in_post:
            titles = {(title.source, title.lineno) for title in self._titles.titles}
            config.posts = post_runs(self._lines, titles, self._scope, config)
        return config

    def _scope(self, lines: Sequence[LogLine]) -> RunConfig:
        """The config of some of the fed lines alone (one post's scope)."""
        collector = type(self)(self._tables)
        collector._in_post = True
        collector.crash_day(self._crash_day)
        for line in lines:
            collector.feed(line)
        return collector.result()

    def _quotes_ranked(self) -> RunConfig:
        """In a reply quoting another post, the writer's own lines' config where they show a
        run or set it apart as plain (``quotes``: quoted lines rank below them)."""
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
        self._plain_works()
        self._promotion_said()
        self._runner_engine()
        self._drop_disagreeing()
        self._bare_release()
        self._title_platform_release()
        self._main_floor()
        self._nightly_floor()
        finish_vllm(self._config, self._lines, self._target, self._vllm_prose, self.text_day())
        self._sglang_exports()
        claims = self._claims()  # the title's algorithm, drafts a sentence says the run serves
        stated = bool(claims) or self._enabled
        adding = self._adding_titles()  # a PR's title adding X, no run shown: X ran nowhere
        said = [(name, line) for name, line in self._named  # a set-aside line's OFF is its own
                if not (stated and name == "OFF" and (line.source, line.lineno) in self._aside)
                and (line.source, line.lineno) not in adding]  # fmt: skip
        # the flag's setting outranks names a sentence only mentions ("unlike EAGLE, ..."), and so
        # does the method the launch's own draft is named for (a draft path "org/X-DFlash2"
        # beside "like #N with its NextN draft": another issue's method)
        flagged_all = [*self._flagged, *self._launch_drafts()]
        flagged = one_family([name for name, _ in flagged_all])
        said = [(name, line) for name, line in flagged_all if name == flagged] or said
        said = contrasted(self._promoted_said([*claims, *said]))  # "unlike EAGLE": not the run's
        if self._plain_sglang():  # the whole command shows the algorithm, or that there is none
            said = [(name, line) for name, line in said if name == "OFF"]
        named = one_family([name for name, _ in said])
        if (
            named is not None
            and self._config.engine != "vllm"
            and ("speculative_algorithm" not in self._config.flags)
        ):
            line = next(line for name, line in said if name == named)
            self._set("named_algorithm", named, line, "prose")
            # a claim names this family (maybe less specifically: "eagle" beside prose's EAGLE3)
            self._title_said = any(one_family([name, named]) is not None for name, _ in claims)
            self._trtllm_prose(named, line)
        self._tested_algorithm()
        if self._machinery is not None and "speculative_algorithm" not in self._config.flags:
            line, reason = self._machinery  # the loops' vote needs the run to be EAGLE-type
            self._set("eagle_draft_graph", True, line, "warning")
            self._config.path_evidence.append(
                Evidence(line.source, line.lineno, trim(line.raw), reason)
            )
            self._machinery = None
        if not any(title.pull for title in self._titles.titles):  # a PR's listing is code under change
            self._config.path_evidence += self._listings
            self._listings = []
        config = self._config
        return RunConfig(
            flags=dict(config.flags),
            path_evidence=self._ordered_evidence(),
            engine=config.engine,
            era=config.era,
            version=config.version,
            server_args=dict(config.server_args),
        )

    def _plain_works(self) -> None:
        """A whole command setting no speculation, where the writer says the same run works with
        its speculation taken away ("the target serves correctly with the identical command minus
        the four `--speculative-*` flags"): the shown command is that working one, or the paste
        left the flags out, so the failing run's flags are unknown, as past a cut; the algorithm
        its title or sentences name stands. SGLang's and vLLM's commands alike."""
        spec_config = any(name.startswith("speculative_config") for name in self._config.flags)
        vllm = None if spec_config else self._whole_vllm
        if self._plain is None and vllm is None:
            return
        if not any(any(speculation_removal_works(s) for s in sentences(line.text))
                   for line in self._lines if not line.quoted and not line.headed):  # fmt: skip
            return
        if self._plain is not None:
            self._cut = self._cut or self._plain
            self._set("sglang_launch_cut", True, self._plain, "launch_command")
            self._plain = None
        if vllm is not None:
            self._set("vllm_launch_cut", True, vllm, "launch_command")

    def _promotion_said(self) -> None:
        """A line saying the launch's algorithm was promoted to what a [[promote]] row rewrites
        it to (the server's "promoting --speculative-algorithm NEXTN to FROZEN_KV_MTP", a
        report's "NEXTN, auto-promoted to FROZEN_KV_MTP"): the rewritten algorithm ran."""
        algo = self._config.flags.get("speculative_algorithm")
        if algo is None or algo.origin == "server_args":  # a dump prints the rewritten value
            return
        for rule in promote_rules():
            if str(algo.value).upper() not in rule.algorithms:
                continue
            for line in self._lines:
                if _PROMOTED.search(line.text) and rule.to in line.text.upper() and not set_apart(line.text):
                    self._set("speculative_algorithm", rule.to, line, algo.origin)
                    return

    def _promoted_said(self, said: list[tuple[str, LogLine]]) -> list[tuple[str, LogLine]]:
        """An algorithm a [[promote]] row rewrites, named beside what it becomes ("``--speculative-
        algorithm NEXTN``, auto-promoted to ``FROZEN_KV_MTP``") or beside a draft the row
        rewrites it for (a Gemma-4 ``-assistant`` checkpoint): the rewritten one ran."""
        newest = self._sglang_release or self._newest()
        pool = [*said, *self._named, *self._flagged]
        for rule in promote_rules():
            if not any(name in rule.algorithms for name, _ in said):
                continue
            if newest is not None and newest < rule.first:
                continue
            if to := [(name, line) for name, line in pool if name == rule.to]:
                return to
            for draft in self._titles.drafts:
                line = self._line_at(draft.source, draft.lineno)
                if not draft.apart and rule.draft.search(draft.draft) and line is not None:
                    return [(rule.to, line)]
            # the sentence naming the algorithm names the draft too ("NEXTN drafting through
            # gemma-4-26B-A4B-it-assistant") and a line serves a model the row promotes for
            # (not only the draft's own name): the server rewrote it for that draft
            beside = [line for name, line in said
                      if name in rule.algorithms and rule.draft.search(line.text)]  # fmt: skip
            served = (rule.target.search(rule.draft.sub(" ", ln.text)) for ln in self._lines)
            if beside and any(served):
                return [(rule.to, beside[0])]
        return said

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

    def _plain_sglang(self) -> bool:
        """The run's whole SGLang command is shown and sets no algorithm: an algorithm its
        sentences name ("the other team serves it with EAGLE3") is not this run's (as for vLLM's
        plain launch, path_gather); a sentence saying speculation is off agrees with it."""
        flags = self._config.flags
        return (self._plain is not None and self._config.engine == "sglang"
                and "speculative_algorithm" not in flags
                and not any(n.startswith("speculative_") for n in flags))  # fmt: skip

    def _runner_engine(self) -> None:
        """A run shown only by a program that wraps TensorRT-LLM (Dynamo's worker or image,
        Triton's backend, trtllm-bench) or by its engine YAML's keys is TensorRT-LLM's; Dynamo's
        ``dynamo.trtllm`` builds the PyTorch backend unless the YAML names another."""
        if self._config.engine is not None or (found := self._runners.trtllm()) is None:
            return
        runner, line = found
        self._config.engine = "trtllm"
        if "backend" in self._config.flags:
            return
        if (stated := self._runners.backend) is not None:  # the engine YAML's own backend
            self._set("backend", stated[0], stated[1], "trtllm_config")
        elif runner is not None and runner.pytorch:
            self._set("backend", "pytorch", line, "launch_command")

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

    def _claims(self) -> list[tuple[str, LogLine]]:
        """What states the run's algorithm besides a sentence saying it was on: the thread's
        title, and a draft checkpoint a writer's sentence says the run serves or loads."""
        title = self._title_claim()
        if self._config.engine not in (None, "sglang") or not self._about:
            return [title] if title is not None else []
        drafts = [(name, line) for d in self._titles.drafts if not d.apart
                  and (name := self._sglang_name(d.method)) is not None
                  and (line := self._line_at(d.source, d.lineno)) is not None
                  and not line.quoted and not line.headed and _SERVES.search(line.text)]  # fmt: skip
        return ([title] if title is not None else []) + drafts

    def _launch_drafts(self) -> list[tuple[str, LogLine]]:
        """The method SGLang's launch draft path is named for (``--speculative-draft-model-path
        org/Qwen3-8B-DFlash2`` -> DFLASH) where the launch gives no algorithm flag: the run's own
        draft, not a sentence's mention."""
        flag = self._config.flags.get("speculative_draft_model_path")
        if flag is None or flag.origin != "launch_command" or self._config.engine not in (None, "sglang"):
            return []
        return [(name, line) for d in self._titles.drafts
                if (d.source, d.lineno) == (flag.source, flag.lineno) and not d.apart
                and d.draft.rsplit("/", 1)[-1] in str(flag.value)
                and (name := self._sglang_name(d.method)) is not None
                and (line := self._line_at(d.source, d.lineno)) is not None]  # fmt: skip

    def _line_at(self, source: str, lineno: int) -> LogLine | None:
        return next((ln for ln in self._lines if (ln.source, ln.lineno) == (source, lineno)), None)

    def _title_claim(self) -> tuple[str, LogLine] | None:
        """The one SGLang algorithm the thread's title names as its run's (``thread_title``:
        not set apart on the title itself), in a text about sglang or filed on its tracker;
        None when a title names a method SGLang has no one worker for (MTP: NEXTN or
        FROZEN_KV_MTP), titles disagree, or another engine's lines place the run."""
        if self._config.engine not in (None, "sglang"):
            return None
        names: list[tuple[str, LogLine]] = []
        for title in self._titles.titles:
            tracker = tracker_engine(title.repo)
            if tracker not in (None, "sglang") or not (self._about or tracker == "sglang"):
                continue  # another framework's thread, or a text nothing places on sglang
            if (title.source, title.lineno) in self._adding_titles():
                continue  # a PR adding or enabling X, no run of its own: X is code under change
            spelled = [self._sglang_name(method) for method in title.run_methods()]
            line = self._line_at(title.source, title.lineno)
            if None in spelled or line is None:
                return None
            if (forced := FORCED_V2_MODEL.search(title.text)) is not None:  # the served model's hook
                multi = forced.group(0).lower().startswith(("mimo", "step"))
                self._forced_model = "MultiLayerEagleWorkerV2" if multi else "EAGLEWorkerV2"
            names += [(name, line) for name in spelled if name is not None]
        one = one_family([name for name, _ in names])
        return next((pair for pair in names if pair[0] == one), None)

    def _adding_titles(self) -> set[tuple[str, int]]:
        """Where SGLang pull-request titles adding or enabling a method stand, when the text
        shows no run of its own (``run_shown``: a run's flags, a version line, a test, serve or
        benchmark line): the method they name is code under change, not a run's algorithm."""
        titles = {(t.source, t.lineno) for t in self._titles.titles
                  if t.pull and _ADDS.search(t.text) and tracker_engine(t.repo) in (None, "sglang")}  # fmt: skip
        if not titles or shows_run(self._config) or any(run_line(ln.text) for ln in self._lines):
            return set()
        return titles

    def _sglang_name(self, method: str) -> str | None:
        """A title's method word in SGLang's spelling; MTP is NEXTN (EAGLE's workers) on
        releases before FROZEN_KV_MTP existed, and for a launch serving a model no [[promote]]
        row rewrites (FROZEN_KV_MTP drafts are Gemma-4's only); else it names no one worker."""
        if method != "MTP":
            return _SGLANG_NAMES.get(method)
        if self._served is not None and not promotable(self._served):
            return "NEXTN"
        newest, frozen = self._sglang_release or self._newest(), first_release("FROZEN_KV_MTP")
        return "NEXTN" if newest is not None and frozen is not None and newest < frozen else None

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
        enabled = self._enabled_here() or self._eagle_shown(knobs) or self._title_said or self._cut_named()
        enabled = enabled and self._plain is None  # a whole plain command outranks a sentence
        v2 = self._v2_said and self._about and self._plain is None
        bounds = Bounds(self._config.era, self._sglang_release, self._newest(),
                        len(self._stated) > 1, enabled or v2, self._from_test, knobs, v2,
                        self._forced_model)  # fmt: skip
        named = self._spec_said or self._omitted or any(name != "OFF" for name, _ in self._named)
        evidence = config_evidence(self._config.flags, self._config.server_args, self._dump_line,
                                   bounds, None if named else self._plain)  # fmt: skip
        return [self._shown(e) for e in evidence]

    def _shown(self, evidence: Evidence) -> Evidence:
        """A verdict resting on an algorithm the text names shows the line that names it (the
        title's says so), not a stub of the algorithm."""
        named = self._config.flags.get("named_algorithm")
        where = (evidence.source, evidence.lineno)
        if named is None or where != (named.source, named.lineno) or not evidence.reason.startswith(PROSE_REASON):
            return evidence
        line = self._line_at(*where)
        if line is None:
            return evidence
        titled = any((t.source, t.lineno) == where for t in self._titles.titles)
        reason = evidence.reason.replace(PROSE_REASON, TITLE_REASON, 1) if titled else evidence.reason
        return replace(evidence, text=trim(line.raw), reason=reason)

    def _cut_named(self) -> bool:
        """An sglang command cut before any algorithm flag (a PR's launch example, a script
        pasted in part) and one algorithm the text names on a line of its own that sets nothing
        apart (a feature bullet, the script's draft path): that algorithm is the one the cut
        flags set."""
        named = self._config.flags.get("named_algorithm")
        if self._cut is None or named is None or self._from_test or self._config.engine != "sglang":
            return False
        line = self._line_at(named.source, named.lineno)
        return line is not None and not line.quoted and not set_apart(line.text)

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
        stated = self._enabled or bool(self._flagged)  # "crashes with --speculative-algo NGRAM"
        return stated and self._about and self._config.engine in (None, "sglang")
