"""The release and era a text shows: printed sglang/vLLM/TensorRT-LLM versions, bare
releases in titles and prose, the thread's day (post headers, stamps) that bounds the newest
release, and an old-only launch option that puts the run before a release.

A layer of the config collector (config.py): it reads and sets ``ConfigState``.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from spectrace.assemblers.ascend_release import heading_release, title_release, title_tag_release
from spectrace.assemblers.config_literals import CONFIG_LITERALS as CONFIG_LITERALS  # re-export
from spectrace.assemblers.config_state import ConfigState
from spectrace.assemblers.dump_path import V2_ONLY_ERAS
from spectrace.assemblers.image_tags import image_release
from spectrace.assemblers.launch import LaunchCommand
from spectrace.assemblers.post_dates import post_date, yearless_post
from spectrace.assemblers.release_dates import mainline, published
from spectrace.assemblers.run_config import Evidence, trim
from spectrace.assemblers.saved_file import saved_file
from spectrace.assemblers.sglang_eras import (
    Version,
    era_before,
    newest_at,
    parse_release,
    version_text,
)
from spectrace.assemblers.sglang_version import (
    about_sglang,
    bare_releases,
    built_day,
    dev_floor,
    era_of,
    failing_releases,
    find_sglang_version,
    from_main,
    nightly_day,
    other_release,
    pip_show_version,
    printed_release,
    sglang_releases,
)
from spectrace.assemblers.thread_repo import tracker_engine
from spectrace.assemblers.trtllm_config import trtllm_release
from spectrace.assemblers.vllm_config import (
    VERSION,
    ascend_named,
    ascend_release,
    ascend_signal,
    patching_plugin,
    prose_version,
)
from spectrace.assemblers.vllm_finish import Day
from spectrace.assemblers.vllm_release import cut_release, untagged_build
from spectrace.assemblers.written_days import written_day
from spectrace.dialects.base import LogLine

_BRANCH_DAYS = 30  # how old a pull request's branch or a main build may be at its first post
# a pull request showing an issue's run, not its branch's ("Fixes #40000. The reporter's repro:");
# a bare closing keyword ("Fixes #31978") only links the issue every fix PR names: its own tests
# ran the branch
_ISSUE_REPRO = re.compile(
    r"(?i)\breported (?:in|by|at)\b|\bthe reporter\b|\b(?:from|in) the (?:original )?issue\b|\bissue #\d+"
)
# a shell setting one of SGLang's own variables: ``export SGLANG_X=1``, ``docker run -e SGLANG_X=1``
# (config_literals' b"export SGLANG_" and its kin reach it)
_SGLANG_EXPORT = re.compile(r"(?:\bexport|(?<!\S)-e|(?<!\S)--env)\s+SGLANG_[A-Z0-9_]+=\S")
# a line saying one setup works and another fails ("Works on <image>; fails on v0.5.14 (below)"):
# the release it says fails is the run's, though the line names a working one too
_WORKED_THEN_FAILS = re.compile(
    r"(?i)\b(?:works?|worked|fine|ok|good)\b.*[;,.]\s*(?:but\s+)?(?:it\s+)?"
    r"(?:fails?|crash(?:es)?|breaks)\s+(?:on|with|in)\s+v\d"
)
# the engine whose nightly image the text names (flag): the run's framework where no launch,
# tracker or words name one
IMAGE_ENGINE = "image_engine"
# SGLang's spec-v2 switch named with no value on the line ("Added `SGLANG_ENABLE_SPEC_V2`
# environment variable" in a recipe PR): it may be set either way (flag ``SWITCH_NAMED``, read by
# path_era: the condition on the switch, never its default side); a value any reader takes
# ("SGLANG_ENABLE_SPEC_V2=1", "SGLANG_ENABLE_SPEC_V2: 'True'") is the flag SGLANG_ENABLE_SPEC_V2
SWITCH_NAMED = "spec_v2_switch_named"
_SWITCH_NAMED = re.compile(r"\bSGLANG_ENABLE_SPEC_V2\b")
# a value or a toggle said on the line ("=1", "enabled", "without", "turned off"): a setting
_SWITCH_VALUE = re.compile(
    r"(?i)\bSGLANG_ENABLE_SPEC_V2\b[`'\"]?\s*[=:]|\b(?:enabl\w*|disabl\w*|on|off|true|false|yes|no|"
    r"with|without|turn\w*|set\s+to|unset|removed?|drop\w*)\b"
)
# a package row of vLLM's collect_env ("[pip3] sglang==0.4.6.post1", "[conda] sglang 0.4.6"):
# installed beside the engine, not the engine that ran
_PACKAGE_ROW = re.compile(r"^\s*\[(?:pip3?|conda)\]\s")
# vLLM's collect_env, the environment its issue template asks for: ``vLLM Version: 0.7.3`` (or
# padded, ``vLLM Version                 : 0.9.1.dev705+g01220ce89 (git sha: 01220ce89)``,
# ``(Editable install)``) heads the vLLM block of the run's own install
_COLLECT_ENV = re.compile(r"^\s*vLLM Version\s*:\s*v?(\d+\.\d+\.\d+[\w.+-]*)\s*(?:\([^()]*\))?\s*$")
_PIP_SHOW_VLLM = re.compile(r"^\s*Name:\s*vllm\s*$")
_PIP_SHOW_VERSION = re.compile(r"^\s*Version:\s*v?(\d+\.\d+\.\d+[\w.+-]*)\s*$")
# a move between two releases ("upgrading from vLLM 0.6.3 to 0.10.1", "0.9.2 -> 0.10.0"): the
# line does not say which of them the run was on, so neither is the run's release
_MOVED = re.compile(r"(?i)\bfrom\s+(?:vllm\s*)?v?\d+\.\d+\.\d+\S*\s+to\s+v?\d+\.\d|"
                    r"\d+\.\d+\.\d+\S*\s*(?:->|→|=>)\s*v?\d+\.\d")


class ConfigReleases(ConfigState):
    """Reads what a line says of the framework's release and of the text's day."""

    def _note_post(self, line: LogLine, text: str) -> None:
        """A post header's day; one GitHub prints without its year (this year's) leaves the
        thread's posts unbounded (the later comment may be years after the dated one)."""
        day = post_date(text)
        if day is not None and (self._posted is None or day > self._posted[0]):
            self._posted = (day, line)
        if day is not None and (self._first_post is None or day < self._first_post[0]):
            self._first_post = (day, line)
        self._yearless = self._yearless or yearless_post(text)
        said = None if line.quoted else written_day(text)  # "As of today (July 3, 2025)": no floor
        if said is None and not line.quoted and (saved := saved_file(line.raw)) is not None:
            said = saved.run_day()  # a saved file's commit, a log's path: the run is no newer
        if said is not None and (self._written is None or said > self._written[0]):
            self._written = (said, line)

    def text_day(self) -> Day | None:
        """The newest day the text shows of its run, with the line that shows it: a line's own
        stamp, the header of the newest post holding a line of the run, or the newest day a
        writer gives as their present ("As of today (July 3, 2025)"; none from posts or writers
        when a header leaves its year out). The run is no newer, so the day bounds the release;
        the one reader for every framework."""
        posts = (None, None) if self._yearless else (self._run_post(), self._written)
        days = [d for d in (self._latest, *posts) if d]
        days = days or self._built()  # no stamp, no post day: an untagged build's own day
        return max(days, key=lambda d: d[0]) if days else None

    def _built(self) -> list[Day]:
        """The days untagged SGLang builds the text shows were made (``sglang: 0.0.0.devN+g<sha>.
        d20260615``, round 39 31): their code is no newer, so each bounds the release as a day."""
        if self._config.engine not in (None, "sglang"):
            return []
        return [(day, line) for line in self._lines
                if (day := built_day(line.text)) is not None and not other_release(line.text)]  # fmt: skip

    def _run_post(self) -> Day | None:
        """The day of the newest post that holds a line of the run (a flag's, a verdict's
        evidence; the title's and the lines above the first post are the opening post's): a
        later comment (a question, a reply, a bump) is no day of the run (round 39 13, a June
        2025 run under a 2026 comment). The newest post where no post holds such a line."""
        heads = [(day, line) for line in self._lines if (day := post_date(line.text)) is not None]
        if self._posted is None or not heads:
            return self._posted
        at = {(f.source, f.lineno) for name, f in self._config.flags.items() if name != "text_day"}
        at |= {(e.source, e.lineno) for e in self._config.path_evidence}
        held: list[Day] = []
        for source, lineno in at:
            mine = [h for h in heads if h[1].source == source]
            before = [h for h in mine if h[1].lineno <= lineno]
            if before:
                held.append(max(before, key=lambda h: h[1].lineno))
            elif mine:  # above the first post: the opening post's (its title, the tracker's header)
                held.append(min(mine, key=lambda h: h[1].lineno))
        return max(held, key=lambda d: d[0]) if held else self._posted

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
        platform = self._config.flags.get("platform")
        if platform is not None and platform.value == "ascend":
            self._ascend_spelled(line, text)
        if (patcher := patching_plugin(text)) is not None and "platform" not in self._config.flags:
            self._set("platform", patcher, line, "env")  # its own proposer: vLLM's a condition
        if (trt := trtllm_release(text)) is not None:  # its defaults stand for unset keys
            self._set("trtllm_release", trt, line, "env")
        if (version := VERSION.search(text) or self._collect_env(line, text)) is not None:
            shown = version.group(1) or version.group(2)
            self._config.engine = "vllm"
            cut = cut_release(shown, version.string[version.end():])  # "version 0.2[...]"
            if not untagged_build(shown) and not cut:  # a clone with no tag gives no release
                self._config.version = shown
                self._launch.releases["vllm"] = shown  # read later commands as it
        elif other_release(text):
            pass  # "fixed in v0.5.14, please upgrade"
        elif _PACKAGE_ROW.match(text):  # vLLM's collect_env: "[pip3] sglang==0.4.6" beside the
            self._vllm_prose = self._vllm_prose or prose_version(text)  # engine; "[pip3] vllm==X" its own
        elif (release := find_sglang_version(text) or self._pip_show(line)) is not None:
            named, printed = sglang_releases(text) | {release}, printed_release(text)
            failing = failing_releases(text) if _WORKED_THEN_FAILS.search(text) else set()
            if len(failing) == 1 and not printed:  # "works on <image vX>; fails on vY": vY ran
                named = failing
                release = next(iter(failing))
            self._releases |= {r[:3] for r in named}
            # "tried v0.5.14 ..., this log is from v0.4.6": neither; check_env's line stays
            if len(named) == 1 and (printed or not self._printed):
                self._adopt_sglang(release)
                self._launch.releases["sglang"] = self._config.version
            self._printed = self._printed or printed
        elif (prose := prose_version(text)) is not None and not _MOVED.search(text):
            self._vllm_prose = self._vllm_prose or prose  # used only for a vLLM run
        if self._vllm_prose is None and not other_release(text):  # a vLLM image's tag, as prose
            self._vllm_prose = image_release(text, "vllm")
        if not other_release(text):
            self._bare |= bare_releases(text)
            self._failing |= failing_releases(text)
        else:  # "it was fine on v0.5.9": not the run's, but the title's bare one may not be either
            self._bare_other |= bare_releases(text)
            if _WORKED_THEN_FAILS.search(text):  # "works on <image>; fails on v0.5.14": the failing one
                self._failing |= failing_releases(text)
        self._about = self._about or (about_sglang(text) and not _PACKAGE_ROW.match(text))
        self._main = self._main or from_main(text)
        if (built := nightly_day(text)) is not None and not other_release(text):
            self._nightly.append((built, line))
            if (floor := dev_floor(text)) is not None:
                self._dev_floor.append(floor)
        named = {r for r in sglang_releases(text) if r[:3] != (0, 0, 0)}  # 0.0.0.devN: a build of main
        self._named_release = self._named_release or bool(named or bare_releases(text))
        self._issue_repro = self._issue_repro or _ISSUE_REPRO.search(text) is not None
        if self._sglang_env is None and _SGLANG_EXPORT.search(text) is not None:
            self._sglang_env = line
        if (not line.quoted and _SWITCH_NAMED.search(text) is not None and _SWITCH_VALUE.search(text) is None
                and SWITCH_NAMED not in self._config.flags):  # fmt: skip
            self._set(SWITCH_NAMED, True, line, "prose")
            self._stated |= {True, False}  # either setting: the config readers' condition on it

    def _collect_env(self, line: LogLine, text: str) -> re.Match[str] | None:
        """collect_env's own ``vLLM Version:`` line (or ``pip show vllm``'s ``Version:`` under its
        ``Name: vllm``), as the server's version line: the release of the run; not a quoted one,
        nor where the run is already another engine's."""
        if line.quoted or self._config.engine not in (None, "vllm"):
            return None
        before = self._lines[-2] if len(self._lines) > 1 else None
        if before is not None and (before.source, before.lineno + 1) == (line.source, line.lineno) and (
            _PIP_SHOW_VLLM.match(before.text)
        ):  # fmt: skip
            return _PIP_SHOW_VERSION.match(text)
        return _COLLECT_ENV.match(text)

    def _ascend_spelled(self, line: LogLine, text: str) -> None:
        """A release only the plugin's own thread spells (``ascend_release``): a bare version
        heading, a title's release tag; stated by a sentence, so any version line outranks it,
        and headings naming two releases (a run on each) leave none."""
        said = heading_release(text) or title_tag_release(text)
        old = self._config.flags.get("platform_release")
        if said is None or (old is not None and old.origin != "prose"):
            return
        heads = {r for ln in self._lines if (r := heading_release(ln.text) or title_tag_release(ln.text))}
        if len(heads) > 1:
            self._config.flags.pop("platform_release", None)
        elif old is None:
            self._set("platform_release", said, line, "prose")

    def _title_platform_release(self) -> None:
        """A run on Ascend whose plugin release no line states: the one release its thread's
        title names (``[Bug]: 0.23.0rc1 GLM5.2 ...``, ``title_release``). A release heading
        of the text naming another leaves neither (either may be the run's); a version line
        outranks both."""
        platform = self._config.flags.get("platform")
        old = self._config.flags.get("platform_release")
        if platform is None or platform.value != "ascend" or (old is not None and old.origin != "prose"):
            return
        titled = {r: t for t in self._titles.titles if (r := title_release(t))}
        heads = {r for ln in self._lines if (r := heading_release(ln.text) or title_tag_release(ln.text))}
        if titled and not heads <= set(titled):
            self._config.flags.pop("platform_release", None)  # a heading's release and the title's
        if old is not None or len(titled) != 1 or not heads <= set(titled):
            return
        said, title = next(iter(titled.items()))
        line = next(ln for ln in self._lines if (ln.source, ln.lineno) == (title.source, title.lineno))
        self._set("platform_release", said, line, "prose")

    def _sglang_exports(self) -> None:
        """A run no line places on an engine, whose shell sets SGLang's own variables
        (``export SGLANG_SET_CPU_AFFINITY=1``, ``-e SGLANG_ENABLE_SPEC_V2=1``): SGLang's. SGLang
        runs on Ascend NPUs itself (its fork's scripts source the CANN toolkit too), so the
        platform alone does not make such a run vllm-ascend's."""
        if self._config.engine is not None or self._sglang_env is None or self._config.version:
            return
        if self._vllm_prose is not None or "trtllm_release" in self._config.flags:
            return
        self._config.engine = "sglang"

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
        if self._config.engine == "vllm":
            return None
        bounds = [b for b in (newest_at(day) if day else None, self._nightly_newest()) if b]
        return min(bounds) if bounds else None

    def _nightly_newest(self) -> Version | None:
        """The newest release a nightly image of main built on the text's newest named day can
        hold (its main then ships by the second release after it)."""
        return newest_at(max(day for day, _ in self._nightly)) if self._nightly else None

    def _nightly_floor(self) -> None:
        """Nightly images of main (``lmsysorg/sglang:nightly-dev-...-20250915-...``) hold every
        release published before their build day and nothing newer than their day allows: where
        both ends fall in one era, that is the run's era (stated with the tag's line)."""
        if not self._nightly or self._sglang_release is not None or self._config.era is not None:
            return
        if self._config.engine not in (None, "sglang"):
            return
        first, line = min(self._nightly, key=lambda d: d[0])
        older = [str(r) for r, on in mainline(published("sglang")) if on < first]
        floor, ceiling = (parse_release(older[-1]) if older else None), self._nightly_newest()
        if self._dev_floor:  # a tag's own release (version.py at the build): main is past it
            floor = max(f for f in (floor, min(self._dev_floor)) if f is not None)
        if floor is None or (era_of(floor) not in V2_ONLY_ERAS  # every later era is v2-only too
                             and (ceiling is None or era_of(floor) != era_of(ceiling))):  # fmt: skip
            return
        self._config.era = era_of(floor)
        # the image is SGLang's: the framework where nothing else names one (path_era._framework)
        self._set(IMAGE_ENGINE, "sglang", line, "env")
        upto = f"-{version_text(ceiling)}" if ceiling is not None else " or newer"
        reason = (f"a nightly image of SGLang's main built {first.isoformat()}: sglang "
                  f"{version_text(floor)}{upto}, era {self._config.era}")  # fmt: skip
        self._config.path_evidence.append(Evidence(line.source, line.lineno, trim(line.raw), reason))

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
        named = self._bare if one else self._failing or self._title_release()  # several: the broken one
        named = named or self._failing  # the one a "works on X; fails on vY" line says broke
        if len(named) == 1 and not (self._main and min(named)[:3] < (0, 5, 13)):
            self._adopt_sglang(next(iter(named)))

    def _main_floor(self) -> None:
        """A build of SGLang's main branch (a line says so, check_env's ``0.0.0.devN``, or a
        pull request on sgl-project/sglang, whose runs are its branch) is at least the newest
        release published a month before the thread's first post (a branch may be that old):
        from 0.5.13 on that leaves one era, which the text's release then is."""
        if self._sglang_release is not None or self._config.era is not None or self._named_release:
            return  # a release the text names, even as another report's, may be the run's
        pull = any(t.pull and tracker_engine(t.repo) == "sglang" for t in self._titles.titles)
        pull = pull and not self._issue_repro  # "Fixes #N. The reporter's repro:": the issue's run
        first = self._first_post or min(self._built(), default=None, key=lambda d: d[0])
        if self._config.engine not in (None, "sglang") or not (self._main or pull) or first is None:
            return
        day, line = first  # the thread's first post, else the day the build was made
        cut = day - timedelta(days=_BRANCH_DAYS)
        stamps = [d for d in (self._latest[0] if self._latest else None, self._crash_day) if d]
        if any(d < cut for d in stamps):
            return  # a log stamped before the branch could be (the issue's, quoted): an older run
        out = [str(release) for release, published_on in mainline(published("sglang")) if published_on <= cut]
        floor = parse_release(out[-1]) if out else None
        if floor is None or era_of(floor) not in V2_ONLY_ERAS:
            return
        self._config.era = era_of(floor)
        why = "a pull request on sgl-project/sglang" if pull else "a build of main"
        reason = (f"{why} posted {day.isoformat()}: at least sglang {version_text(floor)} (the newest "
                  f"release {_BRANCH_DAYS} days before), era {self._config.era}")  # fmt: skip
        self._config.path_evidence.append(Evidence(line.source, line.lineno, trim(line.raw), reason))

    def _title_release(self) -> set[Version]:
        """The one bare release the thread's titles name ("... on DeepSeek-V4 (v0.5.14)"), when
        the title itself sets nothing apart and no line names it as good or fixed: the release
        the report is about, beside others its prose names ("fixes from v0.5.12 are included")."""
        named = {parse_release(r) for t in self._titles.titles if t.apart is None for r in t.releases}
        named.discard(None)
        return {r for r in named if r in self._bare and r not in self._bare_other} if len(named) == 1 else set()  # type: ignore[misc]

    def _adopt_sglang(self, release: Version) -> None:
        """The run is sglang at ``release``: its version, era and the era table's own row; not
        for a run another engine's launch already places (its text compares with an SGLang
        image or release: that is no release of the run)."""
        if self._config.engine not in (None, "sglang"):
            return
        self._config.version = version_text(release)
        self._config.era = self._version_era = era_of(release)
        self._sglang_release = release  # the era table's own row, not the whole era's
        self._release_engine = self._release_engine or self._config.engine is None
        self._config.engine = "sglang"

    def _launched_engine(self, engine: str | None) -> None:
        """Another engine's launch after an SGLang release line placed the run on SGLang: the
        command is the run's, the release line another engine's (a comparison, an aside)."""
        if not self._release_engine or engine in (None, "sglang") or self._config.engine != "sglang":
            return
        self._sglang_release = self._version_era = None
        self._config.version = self._config.era = self._config.engine = None
        self._release_engine = False

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
