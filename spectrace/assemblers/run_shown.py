"""Whether a text (or one post of a thread) shows a run of its own: the one definition the
path readers share.

Why: a pull request adding a method, a feature request or a docs page names families and
classes that no run of the text built; only where the text also holds a run's own lines may
its words name that run's path. A run shows by its lines: a launch command, a server_args or
engine-config dump, a vLLM args line, a TensorRT-LLM config, a server warning or capture log
(``RUN_ORIGINS``, the origins of the flags such lines set), the engine's version line, or a
line of a test, serve or benchmark command or its result (``run_line``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from spectrace.assemblers.framework_names import frameworks_named
from spectrace.assemblers.not_run import (
    ASKED,
    GENERATED,
    INSTRUCTIONS,
    PLANNED_ONLY,
    SOURCE_READ,
    SPEC_OFF,
    TROUBLE,
    UNRECORDED,
    UNWIRED,
)
from spectrace.assemblers.run_denied import denied_shows_run, no_worker, rejected
from spectrace.assemblers.run_prose import literals as told_literals
from spectrace.assemblers.run_prose import told_run
from spectrace.assemblers.run_bound import OUTCOME_LITERALS
from spectrace.assemblers.run_forms import record_named, told_form
from spectrace.assemblers.run_config import RunConfig
from spectrace.assemblers.run_results import (
    ATTRIBUTED,
    EXPECTED,
    LITERALS as RESULT_LITERALS,
    observed_outcome,
    result_line,
    result_sentences,
)
from spectrace.assemblers.sections import PULL_HEADER
from spectrace.assemblers.thread_head import head_line, issue_head
from spectrace.assemblers.thread_repo import engine_fork
from spectrace.assemblers.trainer_frames import trainer_frame
from spectrace.incident_model import Incident
from spectrace.path_frames import frame_signature, unknown_file
from spectrace.path_mention_kinds import (
    ADDS_KIND,
    APART_KIND,
    CHAIN_KIND,
    PULL_KIND,
    FAMILY_KIND,
    FORM_KIND,
    RELEASE_KIND,
    REQUEST_KIND,
    RUN_KIND,
    SERVER_RECORD,
    THREAD_KIND,
    TITLE_KIND,
    Mention,
)
from spectrace.worker_path import NO_RUN_SHOWN, NO_WORKER_RAN, WorkerPath

# what settles a text that shows no run
NO_RUN_MISSING = ("the run's own lines: its launch command, server_args or engine config, the "
                  "engine's version line, or the server's traceback")
# why a text none of whose lines has a run's form (``run_forms``) gets no path, said first
NO_FORM = NO_RUN_SHOWN + "no engine record, no frame, no command output, no writer's own run"
# a thread header or title line whose kind sets the whole thread apart from a run
_WHOLE_APART = re.compile(
    r"(?i)·\s*(?:release|discussion)\b"
    r"|^\W{0,6}#?\s*\[\s*(?:usage|question|rfc|roadmap|feature|docs?|documentation|task|todo)\b"
    r"|^\s*#\s[^\n]*[?？]\s*$"
)
# a title that tags or words a code change other than a fix
_CODE_CHANGE = re.compile(
    r"(?i)\[\s*(?:refactor\w*|chore|feat|feature|docs?|documentation|tests?|ci|infra|misc|build"
    r"|perf|cleanup)\s*\]|^\W*#\s+(?:\[[^\]]*\]\s*)*(?:refactor\w*|migrat\w*|merge|unify|rename"
    r"|bump|update|add|adds|support|enable|implement\w*|introduce|remove|deprecate|move)\b"
    # a conventional-commit type ("[WIP]feat: support X", "refactor(spec): ...", "docs!: ...")
    r"|^\W*#\s+(?:\[[^\]]*\]\s*)*(?:feat|feature|refactor|chore|docs?|test|tests|ci|build|perf|style)"
    r"(?:\([^)]*\))?!?:"
)
# a title typing its change as a rework of code ("[Refactor] ...", "refactor(recipes): ...",
# "chore: ..."): the configs it shows are the code it moves, whatever repository (a docs or a
# feature PR may show its own benchmark run; a rework shows one only by its results)
_REWORK = re.compile(
    r"(?i)^\W*#\s+(?:\[[^\]]*\]\s*)*(?:\[\s*(?:refactor\w*|chore|cleanup|style)\s*\]"
    r"|(?:refactor|chore|style)(?:\([^)]*\))?!?:)"
)
# a pull request's header in an engine's own tree or a fork of it ("vllm-project/vllm · pull
# request #1", "Ascend/sglang · ...", "vllm-project/vllm-ascend · ..."), not a recipe repository
_ENGINE_TREE = re.compile(
    r"(?i)^\W*[\w.-]+/(?:vllm|sglang|tensorrt-llm)(?:-(?!\w*(?:recipe|bench|doc|example))\w+)?"
    r"\s*·\s*pull request\b"
)
# a title naming what a run deploys: an accelerator ("B200", "gb300", "MI355X", "2x3090"), a
# recipe, a benchmark, a sweep, an RL rollout, a pinned image ("bump vLLM image to v0.28.0")
_DEPLOYMENT = re.compile(
    r"(?i)(?<![\w.])(?:h\d{2,3}|b\d{3}|a\d{2,3}|l\d{2}s?|gb\d{3}|mi\d{3}x?|rtx\s?\d{4}|\d+\s?x\s?\d{4}"
    r"|tpu\s?v?\d\w*|gaudi\d?)(?![\w.])"
    r"|\b(?:recipes?|benchmarks?|bench|sweeps?|rollouts?)\b|\bimages?\s+(?:to|tag)\b"
)


def _engine_tree(text: str) -> bool:
    """The line heads a pull request of an engine's own tree or a fork of it, in any copy form
    ("owner/repo · pull request #N", "NVIDIA/TensorRT-LLM pull request #N · closed", "owner/repo
    PR#N · pull request", "owner/repo#N · merged")."""
    if _ENGINE_TREE.search(text):
        return True
    head = head_line(text)
    return head is not None and head.kind == "pull" and head.repo is not None \
        and engine_fork(head.repo)  # fmt: skip


_TOP_TITLE = re.compile(r"^\s*#\s")
# a title naming a code change by its noun ("Medusa implementation", "DFlash integration")
_CODE_NOUN = re.compile(r"(?i)\b(?:implementation|integration|refactor(?:ing)?)\b")
# a description saying what code the PR brings ("This PR introduces a wrapper that can run
# Medusa heads"): a change to code, not a deployment
_THIS_PR_ADDS = re.compile(
    r"(?i)^\W*(?:this (?:pr|pull request|change|patch) )?(?:introduces|adds|implements|enables|supports"
    r"|integrates|refactors)\b"
)
# a title saying its run speculates nothing ("(STP only)", "non-spec baseline", "plain decode"),
# where it names no method beside it ("STP and MTP arms" names one)
_PLAIN_TITLE = re.compile(r"(?i)\b(?:stp|non-?spec\w*|no[- ]spec\w*|plain)\b")
_METHOD_WORD = re.compile(
    r"(?i)\b(?:mtp|eagle\w*|ngram|n-gram|medusa|nextn|dflash|dspark|lookahead|redrafter|draft\w*"
    r"|speculative|spec[- ]?dec\w*)\b"
)
# a title removing what it names ("Remove dsv4-fp4-b200-vllm-mtp (superseded)")
_REMOVAL = re.compile(r"(?i)^\W*#\s+(?:\[[^\]]*\]\s*)*(?:remov\w*|delet\w*|drop\w*|deprecat\w*|retir\w*)\b")
# a title opening with a code change's verb ("Enables trt-llm config for lookahead", "Adds
# EAGLE3 support"), after any tags
_CODE_VERB = re.compile(
    r"(?i)^\W*#\s+(?:\[[^\]]*\]\s*)*(?:add\w*|support\w*|enabl\w*|implement\w*|introduc\w*"
    r"|refactor\w*|guard\w*|respect\w*|allow\w*|expos\w*|wire\w*|plumb\w*|integrat\w*|extend\w*)\b"
)
# an issue's title wishing for a change, after any tags ("Support speculative decoding in the
# vLLM backend", "Add EAGLE3 for Gemma", "Allow draft models on TPU", "Please add MTP")
_WISH_TITLE = re.compile(
    r"(?i)^\W*#\s+(?:\[[^\]]*\]:?\s*)*(?:please\s+)?(?:support|add|allow|enable|implement|integrate"
    r"|expose|request|pin|bump|upgrade|downgrade)\b"
)
# a title announcing a release or an image
_ANNOUNCE = re.compile(
    r"(?i)^\W*#\s+(?:\[[^\]]*\]\s*)*?(?:\[\s*(?:announcement|announce|news|release)\s*\]"
    r"|release\s+v?\d+\.\d)"
    r"|^\W*#\s.*\b(?:is|are|has been|have been|now)\s+(?:published|released|out|available|live)\b"
)
# a tracker's labels asking for a feature (an RFC or roadmap label may head a baseline run)
_WISH_LABELS = re.compile(
    r"(?i)^\s*labels?\s*:.*\b(?:feature[ _-]?request|new[ _-]feature|kind/feature|enhancement)\b"
)
# a title reporting a failure of the run or its benchmark (path_era's predicate, shared here)
_FAILED = re.compile(
    r"(?i)\[bug\]|\bbug:|\b(?:crash\w*|fail\w*|errors?|hangs?|hanging|garbled|wrong|incorrect"
    r"|regress\w*|slow\w*|lower|degrad\w*|broken|oom|nan|exception|illegal|segfault|stuck"
    r"|deadlock|not (?:working|loading)|produces?|malformed|corrupt\w*|gibberish|repetition"
    r"|poor(?:ly)?)\b"  # "MTP poor performance": a run's outcome the writer saw
    r"|^\W*#\s*\[\s*bench\w*\s*\]"  # a benchmark report's tag: the issue reports its run
)
# a pull request's title that fixes a failure ("[fix] Fix SA specdec + CUDA graphs", "[BugFix] ...")
_FIX = re.compile(r"(?i)\bfix\w*|\bbug\w*|\bhotfix\b|\brevert\b")
# a title's templated ticket-and-type tags (TensorRT-LLM's "[None][fix] ", "[TRTLLM-1234][fix] ",
# "[https://nvbugs/5012345][fix] "): every PR carries one, so its type is no claim of a failure
_TICKET_TYPE = re.compile(
    r"(?i)^\W*(?:#\s+)?\[\s*(?:none|[a-z][a-z0-9]*-\d+|#?\d+|https?://[^\]]+|nvbugs?[^\]]*)\s*\]\s*\[\s*\w+\s*\]:?\s*"
)
# a "fix" that only guards a configuration or words its error ("[Bugfix] Better error message
# for X", "[fix] disallow Y with Z", "refuse mtp with fp8 kv cache"): a check added to code, no
# run's failure fixed
_GUARD = re.compile(
    r"(?i)\b(?:better|clearer|clear|friendlier|nicer|improved?|more (?:helpful|informative))\s+"
    r"(?:error|warning|exception)s?\b|\berror messages?\b|\b(?:refuse[sd]?|disallow\w*|reject[sd]?"
    r"|forbid\w*|guard\w*)\b"
)
# origins of flags a run's own lines set (a command, a dump, a config, a server's warning)
RUN_ORIGINS = frozenset({"launch_command", "server_args", "vllm_config", "vllm_args",
                         "trtllm_config", "warning", "capture_log", "load_log"})  # fmt: skip
# a test's node id beside the outcome its run gave, as pytest's summary or CI notes write it
# ("FAILED tests/v1/e2e/test_spec_decode.py::test_eagle_correctness[...] - AssertionError",
# "- `tests/x/test_y.py::test_z[p]` FAILED", "test_a.py::test_b passed locally", "- `...::test_z`:
# fails in the decode-only metadata builder")
_NODE_OUTCOME = (r"\b(?:PASSED|FAILED|ERROR)\s+\S*\.py::\w+"
                 r"|\S*\.py::\w+(?=.*\b(?:PASSED|FAILED|ERROR|passed|failed|passes|fails|failing|broke|regressed"
                 r"|errors? out|errored)\b)")
# a line showing a run: a test, serve or benchmark command, a result figure
_RUN_LINE = re.compile(
    # a command's name followed by a sentence mark ("to launch eagle3 in trtllm-serve, users
    # must ...", "under `vllm serve`, the engine ...") is the tool named in prose, no command line
    r"(?i)(?:^|[\s`$])(?:pytest|vllm serve|vllm bench|python3? -m vllm\.|lm_eval|trtllm-serve"
    r"|trtllm-bench|python3? \S*benchmark\S*\.py)\b(?!`?[,.;:!?)])"
    r"|\b(?:acceptance (?:rate|length)|accept(?:ed)? length|throughput)\b\W{0,4}(?:\w+\W{1,3}){0,3}\s*\d"
    # SGLang's "accept len" told in a sentence or a cell ("accept len 1.6 to 2.9 across decode
    # batches"): the server's own decode line writes it with a colon ("accept len: 2.31")
    r"|\baccept len\s+(?:(?:of|was|ranged|ranging|from|between|around|about)\s+){0,2}~?\d"
    r"|\d\s*(?:tokens?/s|toks?/s)\b|\b\d+ passed\b"
    rf"|{_NODE_OUTCOME}"
    # the writer's own run failing, in words ("i converted the weights, but vLLM can't run EAGLE
    # normally", "we get an error with MTP"); not a guess ("I think it would fail")
    r"|\b(?:I|we)\b(?:(?!\b(?:would|might|may|could|will|think|suspect|guess|if)\b)[^.?!]){0,120}?"
    r"\b(?:can'?t run|cannot run|can not run|fails|failed|crash(?:es|ed)|hangs|hung|errors? out"
    r"|gets? an? error|got an? error)\b"
    # the writer meeting a failure ("we hit `KeyError: ...` in the loader", "I ran into an OOM at
    # capture"); not a condition ("if we hit it, ...")
    r"|(?<!\bif )(?<!\bwhen )(?<!\bonce )(?<!\bshould )\b(?:I|we)(?:'ve| have| had)?\s+(?:also |just |then |first |again |finally )?"
    r"(?:hit|ran into)\s+(?:an?\s+|the\s+|this\s+|that\s+|same\s+)*[`'\"]?(?:[A-Za-z_.]*(?:Error|Exception)\b|OOM\b"
    r"|out of memory|(?:an?\s+)?(?:error|crash|segfault|hang|deadlock|assert\w*)\b)"
    # the writer's own measurement of a method, in words ("I've tested speculative decoding to
    # compare latency", "we benchmarked EAGLE3 at batch 8"); not after "if", "when", "once"
    r"|(?<!\bif )(?<!\bwhen )(?<!\bonce )\b(?:I|we)(?:'ve| have| had)?\s+(?:also |just |already |then )?"
    r"(?:tested|benchmarked|measured|profiled|ran)\s+(?:(?:with|the|a|an|our|my)\s+)*"
    r"(?:spec(?:ulative)?[ _-]?decod\w*|draft[ _-]?models?|eagle\w*|mtp|ngram|n-gram|medusa|nextn"
    r"|dflash|dspark)\b"
    # a script run with its options (``VLLM_USE_V1=1 python examples/x/eagle.py --num_spec 4``)
    r"|^\W{0,4}(?:[A-Z_][A-Z0-9_]*=\S+\s+)*python[\d.]*\s+\S+\.py\s+--\w"
)
# What the scan keeps a line for, so that ``run_line`` can see it. Not the words every server
# prints on its own load lines ("gen throughput (token/s)", vLLM's "Avg prompt throughput:
# 0.0 tokens/s, Avg generation ..."): they would make most lines of a server's log a config line
# (8x slower triage); a benchmark's result keeps its own spelling ("Output token throughput
# (tok/s):", vllm bench's "Throughput: ", trtllm-bench's "(tokens/sec)", bench_one_batch's "12.3
# token/s"), and so does a figure the writer gives in "tokens/s" followed by anything but the
# comma vLLM's load lines put after theirs (``FIGURE_ENDS``; "13.98 tokens/s (concurrency 10)",
# "decode: 41 tokens/s." or the line's end: the scan's literals ending in a line break).
FIGURE_ENDS = (" ", "\t", ")", "]", "|", ".", ";", "*", "`", "（", "，", "。", "\n", "\r\n")
RUN_LITERALS = ("pytest", "vllm serve", "vllm bench", "-m vllm.", "lm_eval", "trtllm-serve",
                "trtllm-bench", "benchmark", "cceptance", "ccept length", "tok/s", "toks/s", "req/s", "tokens/sec",
                *(f"tokens/s{end}" for end in FIGURE_ENDS),
                "slower than", "worse than", "lower than",  # the writer's result judged (``run_bound._JUDGED``)
                "drafts ", "drafts/", " drafted", "Drafted",  # a run's draft and accept counts (``run_bound.COUNTERS``)
                ".py --",
                "Throughput: ", "/sec)", " passed",
                "I tested ", "e tested ", " measured ", " profiled ", "I ran ", "e ran ", "I hit ", "we hit ", "We hit ",
                *(f"{d} token/s" for d in "0123456789"), *(f"ccept len {d}" for d in "0123456789"),
                "ccept len of ", "ccept len was ", "ccept len ranged ", "ccept len ranging ",
                *RESULT_LITERALS, *OUTCOME_LITERALS,
                *(w.decode() for w in told_literals()))  # fmt: skip


# a test run a text reports of its own checks ("`pytest test/unit/spec/x.py`: 6 passed",
# "Focused regression tests: 3 passed"): a unit test, or a test of code no speculative run
# touches (`tests/v1/kv_offload/test_factory.py`), builds no speculative worker; an end-to-end
# test or a test of the speculative code does (``tests/v1/e2e/test_spec_decode.py``)
_TEST_RUN = re.compile(rf"(?i)(?:^|[\s`$])pytest\b|\b\d+ passed\b|{_NODE_OUTCOME}")
_SPEC_TEST = re.compile(
    r"(?i)\be2e\b|end[- ]to[- ]end|integration|spec_?decod|speculat|eagle|mtp|ngram|n-gram|medusa|nextn"
    r"|dflash|dspark|draft|lookahead|suffix"
)
_UNIT_TEST = re.compile(r"(?i)/(?:unit|ut)/|\bunit[- ]?tests?\b|\bregression tests?\b")
_NODE = re.compile(_NODE_OUTCOME)
# what a test that serves a model end to end is named by ("tests/v1/e2e/...", "test_eagle_correctness",
# "test_eagle3_acceptance_length", "test_gsm8k_accuracy"): a node id without it tests code alone
_END_TO_END = re.compile(r"(?i)e2e|end[-_ ]to[-_ ]end|correctness|acceptance|accuracy|integration|serving|gsm8k")
_TEST_PATH = re.compile(r"\btests?/[\w./-]+|\btest_\w+\.py\b")


def unit_check(text: str) -> bool:
    """The line shows a run only by a test command, count or node id with its outcome
    (``_TEST_RUN``), of a unit test, of a test file of code no speculative run touches, or a
    node id of no end-to-end test (``_END_TO_END``): no speculative worker's run. A line that
    names no test (pytest's session header, "4 passed") says nothing of which test ran."""
    if _TEST_RUN.search(text) is None or run_line(_TEST_RUN.sub(" ", text)):
        return False
    if _UNIT_TEST.search(text) is not None:
        return True
    if _NODE.search(text) is not None and _END_TO_END.search(text) is None:
        return True  # "tests/v1/spec_decode/test_eagle.py::test_prepare_inputs FAILED": a unit test
    return _TEST_PATH.search(text) is not None and _SPEC_TEST.search(text) is None


# a measurement's expected value given beside it in parentheses ("acceptance length 2.31 (expected
# 2.2 or more)", "(target: 2x)"): the figure before it was measured; the aside is no goal of the line
_EXPECTED_ASIDE = re.compile(r"(?i)\(\s*(?:expected|target(?:ed)?|goal|threshold|baseline)\b[^()]*\)")


def run_line(text: str) -> bool:
    """The line shows a run: a test, serve or benchmark command, a result figure, or a check or
    measurement the writer reports done (``run_results.result_line``); none the writer expects
    or another source gives; the writer's deployment told with its release and its method
    (``run_forms.told_form``). An expected value in parentheses beside a measured one is the
    measurement's yardstick, not the line's goal."""
    text = _EXPECTED_ASIDE.sub(" ", text)
    if (_RUN_LINE.search(text) is not None or told_run(text) or told_form(text) is not None) \
            and EXPECTED.search(text) is None \
            and ATTRIBUTED.search(text) is None:  # fmt: skip
        return True  # "you should see ... about 3.0" is a goal, "SGLang reports 3.2" another's run
    return result_line(text)


def shows_run(config: RunConfig, held: Callable[[str, int], bool] | None = None) -> bool:
    """A flag of ``config`` set by a run's own line (within ``held``, where given: one post's
    lines), or, for the whole text, the engine's version line."""
    if held is None and config.version is not None:
        return True
    return any(flag.origin in RUN_ORIGINS and (held is None or held(flag.source, flag.lineno))
               for flag in config.flags.values())  # fmt: skip


def crash_shows_run(incident: Incident) -> bool:
    """The crash ran something: a stamped log line, native frames, a crash read off a log
    line (no frames), or a frame in a folder (an installed package, an engine's tree, a test
    file). A traceback of bare script names alone ("probe.py") ran no server."""
    if incident.first_seen.ts is not None or incident.native_frames or not incident.frames:
        return True
    return any("/" in frame.file or "\\" in frame.file for frame in incident.frames)


def trainer_crash(incident: Incident) -> bool:
    """The crash ran a speculative-draft trainer's code (``trainer_frames``) and no speculative
    worker's file: the trainer's hidden-state capture or training, not a serving run."""
    frames = [*incident.frames, *(f for link in incident.chain for f in link.frames)]
    if not any(trainer_frame(f) for f in frames):
        return False
    return not any((sig := frame_signature(f)) is not None and sig.spec_only or unknown_file(f) is not None
                   for f in frames)  # fmt: skip


def text_shows_run(incident: Incident, config: RunConfig, mentions: Sequence[Mention]) -> bool:
    """Whether the text may show a run: it does by a flag a run's own line set or the
    engine's version line (``shows_run``), a test, serve or benchmark line or a result (a
    ``RUN_KIND`` mention), or a crash that ran something (``crash_shows_run``) and is no lone
    error line inside a block set apart (``apart_crash``: found reading source, quoted from a
    docs page). A bug or performance report may describe its run in words alone (an env dump,
    "vllm version: X, MTP on", an issue whose title reports the failure), and so may a pull
    request that deploys a run or fixes one (``pull_reports_run``: a recipe, benchmark or
    image-bump PR). A pull request about code (``pull_about_code``) and a thread whose kind sets
    it apart as a whole (``whole_apart``: a request, RFC, usage question) show a run only by
    their own lines. The lines ``not_run`` sets apart (examples, advice, reviews, docs
    quotations, unchecked tasks) neither set flags nor give run lines."""
    if rejected(mentions):  # the engine stopped at its arguments' validation: no worker built
        return False
    own = shows_run(config, lambda _source, _line: True)  # a release the thread is about: no run
    if trainer_crash(incident):  # a trainer's capture drove the model runner: no worker was built
        return own
    if crash_shows_run(incident):  # a lone error line set apart ran nothing: the rest must show
        if (why := apart_crash(incident, mentions)) is None:
            return True
        if why.startswith((TROUBLE, PLANNED_ONLY)) or (why.startswith(INSTRUCTIONS) and incident.mentioned):
            # "NCCL error: ... | Fix", a plan's gotcha, an error a page of instructions names in its
            # words ("### Boot fails with `RuntimeError: ...`"): no run by it
            return denied if (denied := denied_shows_run(mentions, own)) is not None else own
        if why.startswith(UNRECORDED) and incident.mentioned is None:
            return True  # an error line as a process printed it: the record the document's words lacked
        return own
    if any(m.kind == RUN_KIND and not _elsewhere(m.text, mentions) and not unit_check(m.text)
           and not (m.name == SERVER_RECORD and _kind_apart(mentions)) and not _unrecorded(m, mentions)
           for m in mentions):  # fmt: skip
        return True  # (a request or usage thread's pasted server log: its plain server's, maybe)
    if (denied := denied_shows_run(mentions, own)) is not None:
        return denied  # a code reading, a config-only PR, another project's description
    if reported_failure(mentions):
        return True
    if _announced(mentions):
        return False  # a release's announced options are its code, not a run
    if _pull(mentions):
        if _generated(mentions) or any(_REWORK.search(t) for t in _top_titles(mentions)):
            return False  # the flags it shows are a generator's output or code being reworked
        # (a record only a run's process prints, quoted in its repro or results: the PR's own run)
        return pull_reports_run(mentions) or own or recorded(mentions)
    if whole_apart(mentions):
        return own
    return own or formed(mentions)  # nothing else decided: a run only by a line in a run's form


def formed(mentions: Sequence[Mention]) -> bool:
    """A line no block sets apart has a run's form (``run_forms``: a log record, a frame, a
    version or environment report, a benchmark result, the writer's own run), or a note tells
    a crash's frames as a chain of ``file.py:N`` steps (``path_chains``)."""
    return any(m.kind in (FORM_KIND, CHAIN_KIND) for m in mentions)


def recorded(mentions: Sequence[Mention]) -> bool:
    """A line no block sets apart has a form only a run's process or job writes
    (``run_forms.record_named``: an engine's record cut to its message, a pool check's report, a
    table of pids): a pull request quoting one in its repro or results shows its own run."""
    return any(m.kind == FORM_KIND and record_named(m.name) for m in mentions)


def _unrecorded(run: Mention, mentions: Sequence[Mention]) -> bool:
    """The run line sits in a document that holds no record of a run (``not_run.UNRECORDED``):
    a command it gives, a figure it plans for."""
    return any(m.kind == APART_KIND and m.name.startswith(UNRECORDED) and m.source == run.source
               and m.lineno <= run.lineno <= m.last for m in mentions)  # fmt: skip


def _elsewhere(text: str, mentions: Sequence[Mention]) -> bool:
    """The run line names only frameworks other than the one whose tracker the thread is on ("I
    tested the draft on SGLang and it gets 2.1x" on vLLM's tracker): another engine's run.
    vllm-ascend's tracker and vLLM name one engine."""
    trackers = {_ENGINE_OF.get(m.name, m.name) for m in mentions if m.kind == THREAD_KIND}
    if not trackers:
        return False
    for sentence in result_sentences(text) or [text]:  # the sentences that show the run
        named = {_ENGINE_OF.get(n, n) for n in frameworks_named(sentence)}
        if not named or named & trackers:
            return False
    return True


_ENGINE_OF = {"vllm_ascend": "vllm"}  # the plugin's runs are vLLM's engine's


def pull_reports_run(mentions: Sequence[Mention]) -> bool:
    """The text is a pull request that reports a run: a recipe, benchmark, config or image-bump
    PR (no fix, not about code: its family words and image tag are the run it deploys), or a
    fix the text's kind does not set apart (it may tell the run it fixes), as ``text_shows_run``
    reads them."""
    if not _pull(mentions):
        return False
    if _fixes_a_run(mentions):
        return not whole_apart(mentions)
    return not pull_about_code(mentions)


def deploys_run(mentions: Sequence[Mention]) -> bool:
    """The text is a recipe, benchmark, config or image-bump pull request (``pull_reports_run``
    without the fixes): the run it deploys is the release its image or day names, where a fix's
    own run is its branch's code, whatever release it names."""
    return _pull(mentions) and not _fixes_a_run(mentions) and not pull_about_code(mentions)


def pull_about_code(mentions: Sequence[Mention]) -> bool:
    """The pull request (no fix: ``_fixes_a_run`` keeps those) is about code, not a run: it was
    found reading source, it is an RFC, docs or usage thread (``_WHOLE_APART``), it changes an
    engine's own tree (vLLM, SGLang, TensorRT-LLM or a fork: a method added, guarded or
    reworked; its own results show by their lines), a sentence says the method is not wired in,
    its title removes what it names or says its recipe speculates nothing ("(STP only)"), or its
    title or a description sentence ("This PR introduces a wrapper that can run ...", "Adds a
    chart that lets users deploy ...") words a code change and names no deployment. A recipe,
    benchmark, config or image-bump PR of any other repository names the hardware or the
    artifact it runs ("Add H100 FP8 recipes", "bump vLLM image to v0.21.0",
    "MTP for dsr1 TRT"): it reports that run, and so does a PR whose title words no change."""
    if _source_read(mentions):
        return True
    if _kind_apart(mentions):
        return True
    if any(m.kind == APART_KIND and m.name.startswith((UNWIRED, SPEC_OFF)) for m in mentions):
        return True  # "the script never passes --speculative-algorithm", "MTP is left disabled by default"
    if any(_engine_tree(m.text) for m in mentions if m.kind in (PULL_KIND, THREAD_KIND)):
        return True
    if _generated(mentions):
        return True  # a generator's or template's change: its method is the emitted command's
    titles = _top_titles(mentions)
    if any(_REMOVAL.search(t) for t in titles):
        return True  # a deletion deploys nothing
    if any(_PLAIN_TITLE.search(t) and not _METHOD_WORD.search(t) for t in titles):
        return True  # the recipe it deploys speculates nothing: its sentences' methods are not its run
    if any(_DEPLOYMENT.search(t) for t in titles):
        return False
    if any(_CODE_CHANGE.search(t) or _CODE_VERB.search(t) or _CODE_NOUN.search(t) for t in titles):
        return True
    return any(_THIS_PR_ADDS.search(m.text) and not _DEPLOYMENT.search(m.text)
               for m in mentions if m.kind == FAMILY_KIND)  # fmt: skip


def apart_crash(incident: Incident, mentions: Sequence[Mention]) -> str | None:
    """Why a crash with no frames and no stamp (a lone error line) shows no run: it sits in a
    block ``assemblers/not_run`` sets apart (an error the writer found reading source, a docs
    quotation, an example's output, a review comment); None where it may be the run's."""
    first = incident.first_seen
    if incident.frames or first.ts is not None or incident.native_frames:
        return None
    return next((m.name for m in mentions if m.kind == APART_KIND and m.source == first.source
                 and m.lineno <= first.lineno <= m.last), None)  # fmt: skip


def apart_said(incident: Incident, mentions: Sequence[Mention]) -> str | None:
    """Why the text's configs and commands are not its run, for the missing text: the blocks
    ``assemblers/not_run`` set apart in the crash's file ("the only configs and commands sit in
    blocks that are not the run: an example the text gives (line 20: 'Example usage:')"), or,
    with none, that no line has a run's form (``NO_FORM``)."""
    said = [m.name for m in mentions if m.kind == APART_KIND and m.source == incident.first_seen.source]
    if not said:
        return None if formed(mentions) else NO_FORM
    if stops := [why for why in said if no_worker(why)]:  # the launch never built a worker
        return NO_WORKER_RAN + stops[0]
    return "the text's configs and commands sit in blocks that are not the run: " + "; ".join(said[:3])


def whole_apart(mentions: Sequence[Mention]) -> bool:
    """The thread is about code, plans or usage, not a run: a feature request, RFC, roadmap or
    docs thread, a release or a discussion, a usage question, a pull request whose title tags
    or words a code change that is no fix (refactor, feature, docs, tests, CI, a merge, a
    migration, an update; a fix may report the run it fixes)."""
    if _kind_apart(mentions):
        return True
    return _pull(mentions) and any(_CODE_CHANGE.search(t) and not _FAILED.search(t) for t in _titles(mentions))


def _fixes_a_run(mentions: Sequence[Mention]) -> bool:
    """The pull request's title fixes a failure and no sentence says it was found by reading
    source or has no repro ("No repro yet, found while reading"), nor does the title only guard a
    configuration or word its error (``_GUARD``): it may tell the run it fixes."""
    if _source_read(mentions):
        return False
    titles = _top_titles(mentions)
    if any(_GUARD.search(t) for t in titles):
        return False
    return any(_fix_title(t) for t in _titles(mentions))


def _fix_title(title: str) -> bool:
    """The title fixes a failure: a fix word or tag ("[Bugfix] ...", "Fix crash when ..."); under
    a templated ticket-and-type tag only by its words ("[None][fix] Fix MTP crash on SM90", or
    words naming a failure), not by the type alone over a feature's name ("[None][fix] MTP
    Speculative Sampling": every TensorRT-LLM title carries such a tag)."""
    templated = _TICKET_TYPE.match(title)
    if templated is None:
        return _FIX.search(title) is not None
    words = title[templated.end() :]
    return _FIX.search(words) is not None or _FAILED.search(words) is not None


def fixes_failure(title: str) -> bool:
    """The title fixes a failure ("[bugfix] Fix crash when enabling X", "[Bug Fix] Implement EAGLE3
    support on AMD") and does not only guard a configuration or word its error (``_GUARD``)."""
    return _fix_title(title) and _GUARD.search(title) is None


def _generated(mentions: Sequence[Mention]) -> bool:
    """A sentence says the change is to a generator or template of commands (``not_run``)."""
    return any(m.kind == APART_KIND and m.name.startswith(GENERATED) for m in mentions)


def _source_read(mentions: Sequence[Mention]) -> bool:
    """A sentence says the text was found by reading source ("while reading eagle_info.py")."""
    return any(m.kind == APART_KIND and m.name.startswith(SOURCE_READ) for m in mentions)


def _kind_apart(mentions: Sequence[Mention]) -> bool:
    """The thread's kind sets it apart: a request (``_requested``), an RFC/docs/usage/task tag,
    a release or a discussion, a title that asks, or a sentence that asks about a configuration
    (``not_run``: "Is the following config right:", "请问 ... 吗？")."""
    if _requested(mentions) or any(_WHOLE_APART.search(m.text) for m in mentions):
        return True
    return any(m.kind == APART_KIND and m.name.startswith(ASKED) for m in mentions)


def _requested(mentions: Sequence[Mention]) -> bool:
    """The thread asks for a feature or discusses a plan: a request tag or label, or a wish
    (``_wished``)."""
    return any(m.kind == REQUEST_KIND for m in mentions) or _wished(mentions)


def _announced(mentions: Sequence[Mention]) -> bool:
    """A thread that is no pull request announces a release or an image ("[Announcement] ...",
    "vllm/vllm-openai:v0.20.0 is published", "Release v0.5.11") and reports no failure: the
    options it names are what the release ships, not a run."""
    if _pull(mentions):
        return False
    return any(_ANNOUNCE.search(t) and not _FAILED.search(t) for t in _top_titles(mentions))


def _wished(mentions: Sequence[Mention]) -> bool:
    """A thread that is no pull request (an issue, a forum topic) asks for a change as a whole:
    its tracker labels it a feature request ("kind/feature", "enhancement"), or its title wishes
    for a change ("Support speculative decoding in the vLLM backend", "[Serve] allow draft
    models") and reports no failure. Its constructor or command is the configuration the writer
    wants, except the writer's own deployment pasted beside the wish (``text_shows_run`` reads
    such a thread by its own lines; ``not_run`` sets apart the example of the wanted thing). A
    ``[Feature]`` tag alone may head an RFC with a baseline run."""
    if _pull(mentions):
        return False
    if any(m.kind == REQUEST_KIND and _WISH_LABELS.match(m.text) for m in mentions):
        return True
    return any(_WISH_TITLE.search(t) and not _FAILED.search(t) for t in _top_titles(mentions))


def _pull(mentions: Sequence[Mention]) -> bool:
    """The thread is a pull request (its saved header says so)."""
    return any(m.kind == PULL_KIND or (m.kind == THREAD_KIND and PULL_HEADER.search(m.text))
               for m in mentions)  # fmt: skip


def _titles(mentions: Sequence[Mention]) -> list[str]:
    """The thread's title lines the word readers reached, each as ``# title``: the title reader's
    own (``TITLE_KIND``) however the copy wrote it (a citation's title stands above or below its
    head with no ``#``: "[Bug]: ngram ... changes greedy output"), and ``#`` lines of the others."""
    return [m.text if m.text.lstrip().startswith("#") else f"# {m.text.strip()}" for m in mentions
            if m.kind == TITLE_KIND or (m.kind in (FAMILY_KIND, RELEASE_KIND)
                                        and m.text.lstrip().startswith("#"))]  # fmt: skip


def _top_titles(mentions: Sequence[Mention]) -> list[str]:
    """The thread's own title lines (``# ...``), not a section's heading."""
    return [t for t in _titles(mentions) if _TOP_TITLE.match(t)]


def gate(path: WorkerPath, shown: bool, apart: str | None = None) -> WorkerPath:
    """One rule after every reader: a text that shows no run gives no verdict and no
    condition, whatever its readers made of its words. An RFC's YAML, a question's method and
    release, release notes, a docs page name what the text is about, not what ran. ``apart``
    (``apart_said``): why the text's run-like lines are not the run, said first; where no
    worker was ever built (``NO_WORKER_RAN``) it is all there is to say."""
    if shown:
        return path
    if apart and apart.startswith(NO_WORKER_RAN):
        return replace(path, value="unknown", worker_class=None, conflict=None, conditional=None,
                       missing=(apart,))  # fmt: skip
    if path.value == "unknown" and not path.conditional:
        return replace(path, missing=(apart, *path.missing)) if apart else path
    missing = path.missing or (NO_RUN_MISSING,)
    if apart:
        missing = (apart, *missing)
    return replace(path, value="unknown", worker_class=None, conflict=None, conditional=None,
                   missing=missing)  # fmt: skip


def reported_failure(mentions: Sequence[Mention], source: str | None = None) -> bool:
    """The thread (of ``source``, where given) is an issue, not a pull request, and its title
    reports a failure of the run ("[Bug] ... MTP output garbled") or asks why an outcome the
    writer saw happens ("[Usage]: why does acceptance drop ...?"): the issue reports a run."""
    mine = [m for m in mentions if source is None or m.source == source]
    if any(m.kind == ADDS_KIND for m in mine):
        return False
    if not any(m.kind == THREAD_KIND and (issue_head(m.text) or "opened this issue" in m.text)
               for m in mine):  # fmt: skip
        return False
    return any(_FAILED.search(t) or observed_outcome(t) for t in _titles(mine))
