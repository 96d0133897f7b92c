"""Incident + every run's config -> the config of the run the incident belongs to.

Which start-up a crash follows (same file, else latest before it in time), and the lines of
another server's command set aside when the crash's own frames ran one server's code."""

from __future__ import annotations

import os
import re
from dataclasses import replace
from datetime import datetime, timedelta

from spectrace.assemblers.run_config import OTHER_WRITER, Evidence, FlagValue, RunConfig
from spectrace.engine_hints import frame_engines
from spectrace.incident_model import Incident
from spectrace.path_frames import frameworks_of_class
from spectrace.path_named import ran_other_program


def run_for(incident: Incident, config: RunConfig) -> RunConfig:
    """The run the incident belongs to: in a thread, the config of the post it is pasted in
    (``config_posts``); then the start-up before it in its own file, else (a file of its own,
    one per rank or node) the latest start-up before it in time, from its own directory first.
    With several runs and neither to go by, no run's flags are taken for another's."""
    first = incident.first_seen
    config = _post_of(first.source, first.lineno, config)
    if not config.runs:
        return RunConfig() if _predates(first.ts, config.start_ts) else config
    same_file = [
        run
        for run in config.runs
        if run.start is not None and run.start[0] == first.source and run.start[1] <= first.lineno
    ]
    if same_file:
        run = max(same_file, key=lambda run: run.start or ("", 0))
        return RunConfig() if _predates(first.ts, run.start_ts) else run
    if first.ts is None:
        return RunConfig()
    when = _naive(first.ts)
    before = [run for run in config.runs if run.start_ts and _naive(run.start_ts) <= when]
    here = os.path.dirname(first.source)
    near = [run for run in before if run.start and os.path.dirname(run.start[0]) == here]
    before = near or before  # a run's other files share its directory; another run's do not
    if not before:
        return RunConfig()
    return max(before, key=lambda run: _naive(run.start_ts) if run.start_ts else datetime.min)


def _post_of(source: str, lineno: int, config: RunConfig) -> RunConfig:
    """The config of the thread's post holding the line, or the whole config (no post holds it).
    A post of another writer than the reporter is marked (``OTHER_WRITER``): the title's and
    the description's words are the reporter's run, not the one this post pastes."""
    posts = [post for post in config.posts if post.source == source and post.lineno <= lineno]
    if not posts:
        return config
    post = max(posts, key=lambda post: post.lineno)
    if post.reporter:
        return post.config
    mark = FlagValue(True, post.source, post.lineno, "thread")
    return replace(post.config, flags={**post.config.flags, OTHER_WRITER: mark})


def _predates(crash: datetime | None, start: datetime | None) -> bool:
    """The crash is stamped more than a day before the run's start-up line: an older log pasted
    beside it (a day of slack for clocks in other time zones; year-less stamps never count)."""
    if crash is None or start is None or min(crash.year, start.year) < 2000:
        return False
    return _naive(crash) < _naive(start) - timedelta(days=1)


def _naive(ts: datetime) -> datetime:
    return ts.replace(tzinfo=None)


def crash_engine(incident: Incident, config: RunConfig) -> RunConfig:
    """The config without another server's lines where the crash's own frames ran one
    server's code: a thread comparing engines pastes a vLLM command beside the SGLang run
    that crashed (or the reverse), and that command's method is not this crash's."""
    engines = frame_engines(incident)
    if not engines:
        return _no_server(incident, config)
    kept = [e for e in config.path_evidence
            if _server_of(e) in (None, *engines) and _classes_server(e) in (None, *engines)]  # fmt: skip
    run = "vllm" if config.engine == "vllm_ascend" else config.engine
    engine = config.engine if run in engines else min(engines) if len(engines) == 1 else None
    if len(kept) == len(config.path_evidence) and engine == config.engine:
        return config
    return replace(config, path_evidence=kept, engine=engine)


def _no_server(incident: Incident, config: RunConfig) -> RunConfig:
    """The config with no verdict where the crash's own frames ran another program and no
    server's code (a script loading a draft with transformers, a draft trainer): a title's
    draft or a launch elsewhere in the thread is not what crashed."""
    if not ran_other_program(incident):
        return config
    kept = [e for e in config.path_evidence if not (e.points_to or e.worker_class or e.condition)]
    return config if len(kept) == len(config.path_evidence) else replace(config, path_evidence=kept)


# how each server's config verdicts begin (config_path, vllm_proposers, trtllm_config)
_SERVER_REASONS = (
    ("vLLM ", "vllm"),
    ("TensorRT-LLM ", "trtllm"),
    ("launch command (no server_args dump)", "sglang"),
    ("server_args dump", "sglang"),
    ("launch command shown whole", "sglang"),
)


def _server_of(evidence: Evidence) -> str | None:
    return next((srv for lead, srv in _SERVER_REASONS if evidence.reason.startswith(lead)), None)


# worker and proposer class names as verdicts and conditions write them
_CLASS_WORD = re.compile(r"\b[A-Z][A-Za-z0-9]*(?:Worker|Proposer|Drafter|Layer)(?:V2)?\b")


def _classes_server(evidence: Evidence) -> str | None:
    """The one server whose tables define every class the evidence decides or conditions on
    (a vLLM plugin's classes are vLLM's); None when they name none or several servers. A
    sentence naming another engine's algorithm ("this also happened on sglang with EAGLE")
    gives that engine's class, which a crash in another engine's frames never ran."""
    names = [evidence.worker_class] if evidence.worker_class else []
    names += _CLASS_WORD.findall(evidence.condition or "")
    servers = {
        _SERVER_OF_FRAMEWORK.get(fw, "vllm") for name in names for fw in frameworks_of_class(name)
    }
    return next(iter(servers)) if len(servers) == 1 else None


_SERVER_OF_FRAMEWORK = {"sglang": "sglang", "trtllm": "trtllm"}  # every other table is vLLM's
