"""Which blocks and sentences of a text are not the reporter's run, and why: the one reader
every path reader asks ("is this line inside a block that is not the run?").

Why: a thread shows configurations that no run of its own built: a command introduced as an
example ("Example usage:"), a reviewer's or a bot's comment with a ``suggestion`` block, flags
quoted from a docs page or tutorial, a flag named as what a pull request will support, a blog's
second-person narration ("once you have EAGLE running"), an error line the writer found by
reading source, another engine's command with look-alike flags. Read as the run's, each gives a
path to a text that shows none. The readers each had their own list; a shape missing from one
list got through. This module reads the text once into ``Apart`` blocks, each with its reason,
and answers by (source, line).

A block runs from the line that opens it to its end: a fenced block after a caption ends at its
closing fence; a caption with no fence covers the lines right below it; a section (a docs
quotation, a reviewer's post, a "when I read the source" paragraph) ends at the next heading
or post header. A log record (a line with a dialect header) never opens a block: it is what a
server printed, not a sentence.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from spectrace.assemblers.documents import LITERALS as DOCUMENT_LITERALS
from spectrace.assemblers.documents import (
    DIGEST_ITEMS,
    DOCSTRING_QUOTES,
    checklist_caption,
    expect_mark,
    expect_section,
    expected_line,
    guide_title,
    heading_level,
    how_to_line,
    own_run,
    section_heading,
    setup_section,
    skeleton,
    source_file,
    study_line,
    tested_on,
    thread_item,
    told,
    tree_frame,
    writer_run,
)
from spectrace.assemblers.launch_words import foreign_entry
from spectrace.assemblers.other_engines import literals as other_engine_literals
from spectrace.assemblers.other_engines import other_engine
from spectrace.assemblers.post_dates import opens_thread, post_author
from spectrace.assemblers.pyconfig import commented_out
from spectrace.assemblers.prose_wrap import FENCE
from spectrace.assemblers.run_prose import fix_evidence, review_opener, spec_off, told_run
from spectrace.assemblers.run_prose import literals as run_prose_literals
from spectrace.assemblers.stated_plain import LITERALS as STATED_LITERALS
from spectrace.assemblers.run_bound import (
    AHEAD,
    CONDITION,
    COUNTERS,
    RECORD_SHAPE,
    SELF_RUN,
    first_run_line,
    measured_table,
    page_form,
    reported_heading,
)
from spectrace.assemblers.run_forms import record_form
from spectrace.assemblers.sentences import contrast_clauses, sentences
from spectrace.assemblers.shown_output import expected_caption, expected_lines, reader_step
from spectrace.assemblers.shown_output import literals as shown_output_literals
from spectrace.assemblers.run_results import (
    ATTRIBUTED,
    EXPECTED,
    check_told,
    done_check,
    heading_tested,
    result_line,
    row_under_tests,
)
from spectrace.assemblers.template_cells import literals as template_literals
from spectrace.assemblers.template_cells import template_field
from spectrace.assemblers.thread_head import HeadReader, head_line, issue_head
from spectrace.assemblers.thread_repo import engine_fork, tracker_engine
from spectrace.dialects.base import LogLine

# the reasons, as the evidence and missing text say them
EXAMPLE = "an example the text gives"
SUGGESTION = "a suggestion or advice to the reader"
REVIEW = "a review comment on code under review"
DOCS = "a quotation from documentation or a tutorial"
GOAL = "a goal or plan (what a change will support), not a run"
NARRATION = "generic second-person narration"
SOURCE_READ = "code the writer read in the source, not a run's output"
FOREIGN = "another engine's command"
CHANGELOG = "release notes or a changelog (the release's code, not a run)"
PLAN = "a test plan (a command to run, with no result)"
PILOT = "a pilot or trial plan's proposed settings, still to be tried, not a run's"
LEFT_OUT = "what the change leaves out, not its run"
UNWIRED = "a sentence saying the method is not wired in (the run is plain)"
SPEC_OFF = "a sentence saying speculation is off or left off by default, not a run's method"
CODE_TOLD = "a pull request's sentence telling what the code does for a method, not the run's method"
CITED = "a comment citing another thread for what it reports, not this thread's run"
CATEGORY = "a checklist rule naming methods as a category, not the run's"
GENERATED = "a command a generator or template emits, not a run the writer made"
ASKED = "a configuration asked about, not a run"
OTHERS = "what other users reported, not the writer's run"
AVOIDED = "a command shown as the pattern to avoid, not a run"
FLAG_TOLD = "a sentence telling what a flag or a mapping of method names does in code, not a run's config"
HYPOTHETICAL = "what a tool could show or a method would give, not a run"
ASSISTANT = "an AI assistant's turn in a chat: what it advises, not a run"
# what a whole thread is, when its description tells no run of the writer's (``DENIALS``)
CODE_ONLY = "a report the writer built from reading code, not from a run"
LINKED_CODE = "source lines a pull request points at, with no failure or run told"
DESCRIBED = "another project's change describing how the engine behaves under a setting"
CONFIG_ONLY = "a pull request that only adds configuration, with no result"
CONFIG_CHANGE = "another project's pull request changing configuration, with no result, log or run told"
REJECTED = "a config validation error rejecting the method: the run built no speculative worker"
INSTRUCTIONS = ("a page telling the reader what to run (docs, playbook, quick start, tutorial), with no "
                "output, result, log record or report of a run")
FEATURE_FORM = "an issue filed on a feature form (a wish, not a run's report)"
HOW_TO = "a thread titled as a how-to question, not a report of a run"
COMPARED = "a table row comparing setups, one of them with the setting off: which one ran it does not say"
DOCUMENT = ("a document telling the reader about the engine (study notes, tutorial, README, requirements "
            "or specification), with no run, result or failure of its own")
DIGEST = "a digest of several threads (their titles and summaries), no single run"
UNRECORDED = ("a document of sections that holds no record of a run: no log record, frame, writer's run, "
              "measured figure or outcome told in the past")
COMMIT = "a commit's subject in a git history listing, another change's title, not a run"
CHANGE_ITEM = "an entry of a changelog, release notes or sync list (a landed change's title and number), not a run"
HUNK = "a line of a diff hunk (code under change), not a run"
TROUBLE = "a troubleshooting table's row: a failure the reader may meet, not one that happened"
GATED = "a plan's step: a command a gate follows (a criterion to meet), not a run with its output"
NO_RUN_STATUS = ("a job's status line saying it did not run (no run, blocked or skipped before dispatch): the "
                 "post's image, options and classes are what the job would have run")
NOT_RAN = ("a check whose tests were all skipped, xfailed or deselected (a test's name with that outcome): "
           "no engine started, the test's name is no run")
HARNESS_STOPPED = ("a harness's saved log that stopped at its own precondition check, before any "
                   "engine started: no engine record, launch or traceback")
FIX_TOLD = ("a fix pull request telling what its code changes and why, with no run, output, repro, "
            "release, rig or reported issue of its own")
PLANNED_ONLY = ("a document whose engine launches are all plans (a gated step, a command marked planned or "
                "next) and that holds no record of a run: the runs it tells are other programs'")
HUB_STOPPED = ("a launch whose records end at fetching the model from the hub (a gated or missing repository, "
               "no access) in the launcher or API server, before any engine, worker or scheduler record: no "
               "worker was built")
LAUNCHER_STOPPED = ("a launch whose records end at a failure in the launcher itself (its arguments, its ports, the "
                    "model's config read for them), before any engine, worker or scheduler record: no worker was built")
SPEC_REFUSED = "its checks refused the speculative config asked for"
TEMPLATE = ("a results template: its result fields are left to fill in (TBD, to be measured, 待填, 未測定) and "
            "none holds a figure, so its commands and configs are what its reader will run")
UNIT_TESTS = ("a unit-test run's log: its speculative names are test ids and test files (code under test, "
              "with mocks), and no engine, worker or scheduler printed a line")
# the reasons that deny a run to a thread a report, fix or recipe reading would take as one:
# such a thread shows a run only by its own lines (a crash, a run line, the run's config)
DENIALS = (CODE_ONLY, LINKED_CODE, DESCRIBED, CONFIG_ONLY, CONFIG_CHANGE, REJECTED, INSTRUCTIONS, FEATURE_FORM,
           HOW_TO, DOCUMENT, DIGEST, FIX_TOLD, HARNESS_STOPPED, UNRECORDED, UNIT_TESTS,
           PLANNED_ONLY, HUB_STOPPED, LAUNCHER_STOPPED, TEMPLATE, NO_RUN_STATUS)

# what the scan must keep for these blocks to be seen (path_mentions.mention_literals)
LITERALS: tuple[bytes, ...] = (
    b"```", b"xample", b"uggest", b"ou can ", b"ou could ", b"lease try", b"ecommend",
    b"ocs.", b"/docs", b"utorial", b"ource code", b"ou've", b"ou have", b"nce you",
    b"hen you", b"f you", "· review".encode(), b"** (author)", b"ample usage", b"Usage:",
    b"uick start", b"uickstart", b" shows:", b"upport for", b"ample log", b"ample output",
    b"ample command", b"ocs page", b"oc page", b" says:", b" notes", b"hangelog", b"Try this",
    b"try this", b"Try:", b"ry running", b"ry using", b"ry adding", b"works:", b"ow to use",
    b"ow to run", b"lets users", b"let users", b"lets you", b"says to", b"guide", b"blog",
    b"Per the", b"per the", b"o repro", b"ot reproduc", b"hile reading", b"y reading",
    b"nspection", b"xactly that", b"ith that", b"ith this", b"suggested",
    b"ollowed", b"ollowing", b"[ ]", b"[x]", b"[X]", b"ot part of", b"ut of scope", b"nchanged", b"ntouched", b"ever pass", b"ever set", b"ever enabl", b"ever wire",
    b"s the plain", b"ot wired", b"ot hooked", b"efore I ", b"efore we ", b"ntil I ", b"ntil we ",
    b"enerator", b"uilder", b"emplate", b" emits", b"emitted", b" prints",
    "请问".encode(), "是否".encode(), "能否".encode(), "吗".encode(), b"sers report", b"eported by",
    b"omething like", b"ook like", b"ould like", b" a way to", b"ould be nice", b"ould be great",
    b"sers hit", b"sers saw", b"ustomers report",
    b"ode-level", b"ode level", b"ode analysis", b"tatic analysis", b"eproduc", b"rom the code",
    b"rom the source", b"ound by", b"/blob/", b"onfig only", b"onfig-only", b"onfiguration only",
    b"o other change", b"o code change", b"o library", b"ibling", b"lse match", b"opy of",
    b"ame as", b"dentical to", b"irroring", b"xisting",
    # a result beside a config-only or code-only sentence tells a run (``_SYMPTOM``)
    b"TPOT", b"TTFT", b"peedup", b"peed-up", b"x faster", b"x higher", b"x output", b"x throughput",
    b"x speed", b"% faster", b"% higher", b"% more", b"% throughput", b"% output", b"weep",
    b"rash", b"arbage", b"arbled", b"wrong", b"ncorrect", b"egress", b"egrad", b" hang",
    # a caption showing a pattern to avoid (``_AVOID``) and the one after it (``_PREFER``)
    b"on't ", b"o not ", b"Avoid", b"avoid ", b"nti-pattern", b"Wrong", "❌".encode(), "✗".encode(), "✅".encode(),
    # what a tool could show (``_HYPOTHETICAL``: its other spellings name a tool or a method, which
    # the scan keeps anyway, as it keeps ``_FLAG_TOLD``'s flags), a feature form's first question
    b"n theory", b"elated to a problem",
    # a code reading's marks (``_reading_marks``): the tree read, a quoted TODO, a config asked for
    b"n main", b"t main", b"n current main", b"urrent source", b"he source", b" HEAD", b"master",
    b"TODO", b"FIXME", b"ould you", b"an you", b"lease share", b"lease post", b"lease paste",
    b"lease provide", "提供".encode(), "代码".encode(), b"our output of",
    # a question over a config it quotes below (``_asks_above``)
    b"s this ", b"oes this ", b"s the following", b"oes the following", b"upported",
    # another engine's API, package, command or tracker (``other_engines``: FOREIGN)
    *other_engine_literals(),
    # a document's kind and a run of its own in any language (``_document``)
    *DOCUMENT_LITERALS,
    # a fix's evidence, a review's opener, speculation left off (``run_prose``)
    *run_prose_literals(),
    # output a page shows its reader to expect, a step to the reader in another language (``shown_output``)
    *shown_output_literals(),
    *STATED_LITERALS,  # a run's options stated with no speculation (``stated_plain``)
    *template_literals(),  # a template's fields left to fill (``template_cells``)
    b"ERROR:", b"ERROR :", b"FATAL:", b"[ERROR]", b"[FATAL]",  # a driver's own error (``_harness_stopped``)
    b"Step ", b"STEP ", "步骤".encode(),  # a runbook's step headings and troubleshooting header (``_runbook``)
    b"Fix |", b"Fix|", b"Fixes |", b"orkaround", b"olution", b"esolution", b"emedy", b"emedies",
    b"ou may ", b"ou might ", b"ou should ", b"ou must ", b"ou need to ", b"ou have to ", b"ou want to ",
    b"Gate:", b"Gates:", b"GATE:", b"riteria:",  # a plan step's criterion below its command (``_gated``)
    b"no run", b"No run", b"efore dispatch", b"ot dispatched", b"ever dispatched",  # (``_NO_RUN_STATUS``)
    b"SKIPPED", b"XFAIL", b"eselected", b"skipped in ",  # a test's outcome that ran nothing (``_not_ran``)
    b"# Roadmap", b"# Plan", b"# TODO", b"# Future", b"# Upcoming", b"# What's next", b"# Next",  # (``_PLAN_HEADING``)
    # a line or caption in a plan's mood (``_PLAN_MOOD``); "pending" in lower case: vLLM V0's load
    # line says "Pending: 0 reqs" every few seconds
    b"lanned", b"pending", b"ext:",
    # a test's id, an engine's one-line start-up records (``_unit_tests``; the records every line of a
    # process prefixes, "(EngineCore_DP0 pid=1)", would keep whole logs: its frames show it instead)
    b".py::", b"LLM engine", b"ServerArgs(", b"PyExecutor", b"non-default args",
    b"GatedRepoError", b"RepositoryNotFound", b"RevisionNotFound", b"gated repo", b"Client Error",  # (``_launch_stopped``)
    # a traceback's frame in SGLang's or vLLM's launcher stage (``_launch_stopped``)
    b'sglang/srt/server_args.py"', b'vllm/engine/arg_utils.py"', b"vllm/config/", b'vllm/config.py"',
    b"Load weight", b"oading drafter", b"oading model", b"to load model", b"model_runner.py", b"gpu_worker.py",
    b"EngineCore failed", b"ngine core initialization failed",
    # a chat transcript's turn labels (``_ASSISTANT_TURN``, ``_USER_TURN``)
    b"Assistant", b"ASSISTANT", b"ChatGPT", b"Claude", b"Gemini", b"Copilot", b"AI:",
    b"User:", b"USER:", b"# User", b"You said", b"You:", b"Human", b"HUMAN",
    "助手".encode(), "用户：".encode(), "用户:".encode(),
)  # fmt: skip

# an example marker ahead of a config on its line (``(e.g., `--speculative-config ...`)``, "for
# example", "a method such as ...")
_MARKER = re.compile(
    r"(?i)\be\.\s?g\.|\bfor (?:example|instance)\b|\bsuch as\b|\bexample (?:config|command|usage)"
    r"|\ban example\b"
)
# a sentence ending in its example marker, the example on the next line ("published recipes use
# it, e.g.", "other engines accept the same, for instance:", "a setting such as"); not the
# writer's own or failing run (``_caption`` asks ``_OWN`` first)
_MARKER_ENDS = re.compile(r"(?i)(?:\be\.\s?g\.|\bfor (?:example|instance)|\bsuch as)\s*[,:：]?[\s*`]*$")
_EXAMPLE_CONFIG = re.compile(r"--\w|\{|\bspeculative_\w+\s*=")  # where the example's config starts
EXAMPLE_REASON = "an example the text gives, not the run's config"
# a caption over what follows (a line ending in ":" or nothing but the caption words)
_EXAMPLE_CAPTION = re.compile(
    r"(?i)^\W{0,6}(?:(?:an?\s+|the\s+|sample\s+|minimal\s+)?(?:example|usage)(?:\s+(?:usage|command"
    r"|commands|config\w*|launch|script|invocation))?(?:\s+(?:with|in|on|via|for)\s+[\w.-]+(?:\s+[\w.-]+)?)?"
    r"|for (?:example|instance)|e\.g\.?"
    r"|here(?:'s| is) (?:an? )?(?:example|sample)\b[^:]{0,60}|(?:an? )?example of [^:]{0,60}"
    r"|something like(?: this)?|(?:it )?(?:would|could|might) look (?:something )?like(?: this)?)"
    r"\W{0,4}:?[\s*`]*$"
)
# the last clause of a caption line ending in ":" names an example ("Supported since 0.10.0.
# Example usage:", "shows this sample log:", "e.g. like this:")
# (not a log record's field: "mem usage=5.18 GB", "Memory usage: 12.1 GiB")
_EXAMPLE_WORD = re.compile(
    r"(?i)\b(?:example|sample|e\.g\.|for instance|usage(?!\s*[=:]\s*\d))\b"
    # the same in the other languages notes and design docs are written in ("例如：", "示例：",
    # "例えば：", "예시:", "Beispiel:", "por ejemplo:", "например:")
    r"|例如|比如|举例|舉例|示例|範例|范例|例えば|記述例|設定例|예를 들어|예시"
    r"|\b(?:beispiel\w*|par exemple|exemples?|por ejemplo|ejemplos?|exemplos?|например|пример\w*)\b"
)
# a clause's end: a sentence mark and a blank, or a CJK full stop (written with no blank after)
_CLAUSE = re.compile(r"[.;!?]\s+|[。；！？]")
# advice to the reader: "you can run:", "try this:", "I'd suggest", "we recommend", "please try"
_ADVICE = re.compile(
    r"(?i)\byou (?:can|could|may|might|should|need to|have to|want to)\s+(?:\w+\s+)?"
    r"(?:run|use|try|launch|start|enable|set|pass|add|switch|serve|specify|configure|do)\b"
    r"|\b(?:please |you might |maybe |could you |can you )?try (?:running|using|with|adding|setting"
    r"|passing|this|the following|out|it)\b|^\W*try\b"
    r"|\b(?:I'?d|I would|we|I) (?:suggest|recommend)\w*|\bsuggest(?:ed|ion)?\b"
    r"|\bhow to (?:use|run|enable|launch|serve|try|turn on)\b"
    r"|\b(?:this|that|it|the following) (?:now |also |should )?works?\s*:"
    r"|\brecommended (?:command|config\w*|setting|way|usage)"
)
# a goal: what a change will support or add ("Support standalone draft model arguments like
# `--speculative-algorithm NEXTN`", "add --speculative-config for X", "will try ngram next")
_GOAL = re.compile(
    r"(?i)^\W*(?:this (?:pr|pull request|change|patch) )?(?:support|supports|add|adds|adding"
    r"|implement|implements|introduce|introduces|enable|enables|allow|allows)\b"
    r"|\b(?:to|will|would|shall|going to|plan(?:ning)? to|want to|wants to|hope to) (?:also )?"
    r"(?:support|add|implement|introduce|enable|allow|try)\b"
    r"|\bonce (?:we|they|you) (?:upgrade|update|move|switch|have)\b|\bsupport for\b"
    r"|\blets? (?:users?|you|people|one|everyone) (?:run|use|pass|enable|set|serve|launch|try)\b"
    r"|\b(?:I|we)(?:'d| would) (?:like|love|want)\b|\bneeds? a way to\b"
)
# a caption wishing for what follows ("It would be nice to forward these to the server we
# launch:", "I'd like the chart to pass this through:"), whoever would run it
_WISH_CLAUSE = re.compile(
    r"(?i)\b(?:would|'d) be (?:nice|great|good|helpful|useful|cool)\b|\b(?:I|we)(?:'d| would) (?:like|love|want)\b"
    r"|\bneeds? a way to\b|\bplease (?:add|support|allow|expose|forward)\b"
)
# a caption over what the writer has not run yet ("Before I deploy:", "Until we try it, the
# config is:")
_NOT_YET = re.compile(
    r"(?i)\b(?:before|until) (?:i|we) (?:deploy|run|launch|try|start|roll)\w*\b"
    # ... or what is still to be run or checked ("still needs to be validated with the real
    # weights:", "not yet run on hardware:", "yet to be measured:", "仍需使用对应权重执行验证：",
    # "尚未在真机上测试：", "実機では未検証：", "아직 검증하지 않았다:")
    r"|\b(?:still|yet) (?:needs?|has|have|remains?) (?:to be )?(?:run|verif\w*|validat\w*|test\w*|measur\w*|check\w*)"
    r"|\b(?:yet|remains?) to be (?:run|verif\w*|validat\w*|test\w*|measur\w*|checked)\b"
    r"|\bnot (?:yet )?(?:been )?(?:run|verified|validated|tested|measured) (?:yet|on)\b|\bTODO\b"
    r"|(?:仍|尚|还|還)(?:需|须|須|要|待|未)[^：:。]{0,20}(?:验证|驗證|测试|測試|测量|測量|运行|運行|执行|執行|跑)"
    r"|待(?:验证|驗證|测试|測試|测量|測量)|未(?:验证|驗證|测试|測試|测量|測量)|未検証|要検証|未測定|未テスト"
    r"|아직\s?(?:검증|테스트|측정|실행)"
)
# a documentation page or tutorial as the source of what follows
_DOCS = re.compile(
    r"(?i)https?://(?:docs\.|[\w.-]*readthedocs|[\w.-]+/docs?/|[\w.-]+\.github\.io/)"
    r"|\b(?:the|this|our|official) (?:docs?|documentation|tutorial|guide|readme|recipe|cookbook"
    r"|quick ?start)\b[^:]{0,60}?\s(?:says?|shows?|states?|uses?|gives?|has|lists?|suggests?|recommends?)\b"
    r"|\b(?:according to|from|in|per|as (?:shown|described|documented) in) the (?:docs?|documentation"
    r"|tutorial|guide|readme|model card|blog(?: post)?|article|announcement|release blog)\b|\bdoc(?:umentation)? issue\b"
)
# a caption that says the block below fails or is the writer's own is the run's ("To
# reproduce, you can run:", "Example that crashes:", "but I use:")
_OWN = re.compile(
    r"(?i)\brepro\w*|\b(?:crash\w*|fail\w*|errors?|hangs?|breaks?|traceback|stack|output|logs?)\b"
    r"|\b(?:mine|my|our|ours)\b|\b(?:I|we) (?:use|used|run|ran|launch\w*|start\w*|got|get|see|saw)\b"
    r"|\b(?:I|we)(?:'m|'re| am| are) (?:running|using|launching|serving)\b"
)
# the writer's acts of a run: "I"/"we" with a run's verb ("we ran", "I'm serving")
_RUN_ACTS = (
    r"\b(?:I|we) (?:use|used|run|ran|launch\w*|start\w*|got|get|see|saw"
    r"|tried|tested|benchmarked|measured|deployed|served)\b"
    r"|\b(?:I|we)(?:'m|'re| am| are| was| were) (?:running|using|launching|serving|getting|testing"
    r"|benchmarking|seeing|deploying)\b"
)
# the writer tells a run they made, in the past ("I tried to run X with:", "we launched it and got"):
# a docs issue's section that tells it is a report of that run (its environment lines, its command
# as the page gave it), not a quotation of the page
_OWN_TRY = re.compile(r"(?i)\b(?:I|we) (?:tried|ran|launched|started|deployed|served|tested) (?:to |it |this |the |with |vllm )")
# the writer's own run ("my", "we ran"): never a docs quotation or release notes
_FIRST_PERSON = re.compile(rf"(?i)\b(?:mine|my|our|ours)\b|{_RUN_ACTS}")
# ... its acts only ("mine", a run's verb), no bare possessive (``_telling_mine``)
_FIRST_PERSON_ACT = re.compile(rf"(?i)\bmine\b|{_RUN_ACTS}")
# a caption quoting release notes ("From the draft notes of 1.2.0:", "The changelog says:")
_NOTES = re.compile(r"(?i)\b(?:release|draft|patch) notes\b|\bchangelog\b|\bwhat'?s (?:new|changed)\b")
# a failure said in the sentence: a bug described in the second person is still the run's
_FAILS = re.compile(r"(?i)\b(?:crash\w*|fail\w*|errors?|hangs?|breaks|broke|broken|refuses?|dies|died|oom\w*|traceback)\b")
# where a config starts on a line: a flag, a JSON/dict, a keyword argument, a method key
_CONFIG = re.compile(r"(?:^|\s|`)--[a-z]|\{|\bspeculative_\w+\s*=|\bmethod\b")
# a command's own line: a flag ("--enable-multi-layer-eagle \\"), a YAML flag item, a prompt
_FLAG_START = re.compile(r"^[\s>*`$]*(?:-\s+)?-{1,2}[A-Za-z]")
# the writer takes up the example or advice above as their own run ("I ran exactly that on 1.0.0
# and got:", "With that it crashes", "as suggested", "following the guide"): the block is theirs
_ADOPT = re.compile(
    r"(?i)\b(?:I|we) (?:ran|tried|used|followed|launched|did|copied|pasted) (?:exactly |just |the )?"
    r"(?:that|this|it|those|these|same|above|suggested|command|example|guide|steps)\b"
    r"|^\W*with (?:that|this|it|your (?:command|config\w*|suggestion))\b|\bas (?:you )?suggested\b"
    r"|\bfollow(?:ed|ing) (?:the|your|that|this|those)\b"
)
# a saved thread's title line: the thread's subject, read by the title readers
_TITLE = re.compile(r"^\s*#\s")
# a heading that opens a section of advice, a proposed fix, a docs quotation
_HEADING = re.compile(r"^\s*#{2,6}\s")
_SECTION_WHY = (
    (re.compile(r"(?i)\b(?:doc(?:s|umentation)?|tutorial)\b"), DOCS),
    (re.compile(r"(?i)\bexamples?\b"), EXAMPLE),  # a bare "### Usage" may be the author's own run
    (re.compile(r"(?i)\bsuggest\w*|\balternatives?\b|\bproposed\b"), SUGGESTION),
    (re.compile(r"(?i)\bhighlights\b|\bwhat'?s (?:changed|new)\b|\bchangelog\b|\brelease notes?\b"
                r"|\b(?:new )?features\b|\bbug ?fixes\b"), CHANGELOG),
    (re.compile(r"(?i)\btest plan\b"), PLAN),
    # a pilot's or a trial's plan: the settings it proposes to try ("### 4.2 Pilot plan (canary
    # first)", "## Trial rollout plan", "试点方案", "試行計画"); its results, if any, come later
    (re.compile(r"(?i)\b(?:pilot|trial|canary)\s+(?:\w+\s+)?(?:plan|proposal|parameters|settings)\b"
                r"|试点(?:方案|计划|計劃|参数)|試點(?:方案|計劃)|試行(?:計画|案)"), PILOT),
    # a section of what the writer checked in the engine's source ("### 3.1 Source check results",
    # "源码核对结果", "ソースコード調査"): the flags it names are the code's, not a run's
    (re.compile(r"(?i)\bsource(?:[- ]code)?\s+(?:check|review|reading|audit|walk-?through|inspection)s?\b"
                r"|(?:源码|源代码|原始碼|原始码)(?:核对|核查|核對|走读|阅读|閱讀|审查|確認|确认)"
                r"|ソース(?:コード)?(?:確認|調査|読解|チェック)"), SOURCE_READ),
)
# the writer found what they quote by reading source, not by running it
_SOURCE_READ = re.compile(
    r"(?i)\b(?:read|reading|looked? at|looking at|going through|browsing|review(?:ed|ing)?)\s+"
    r"(?:[\w'’-]+\s+){0,3}?(?:source(?: code)?|code ?base|implementation)\b"
    r"|\b(?:while|when|by) (?:reading|reviewing|going through)\s+`?[\w/.-]+\.(?:py|cc|cpp|cu|cuh|h|rs|go)\b"
    r"|\bin the (?:source|code)\b,? I (?:found|saw|noticed)"
    r"|\bno repro\w*\b|\bnot (?:yet |been )?reproduc\w*|\bfound (?:it |this )?(?:while|by|when) "
    r"(?:reading|reviewing|inspecting)\b|\bby (?:code )?inspection\b"
    # an audit of the tree ("Audit of `python/sglang/srt/speculative/` on current main:", "we
    # audited the spec workers' source", "grepping the codebase for ..."): code read, not run
    r"|\baudit(?:ed|ing)?\s+(?:of\s+)?(?:the\s+)?(?:`[\w/.-]+/`?|[\w/.-]+/[\w/.-]*`?\s)"
    r"|\b(?:static|code|source)[ -]audit\b|\ban? audit of\b"
    r"|\baudit(?:ed|ing)?\s+(?:[\w'’-]+\s+){0,3}?(?:source|code ?base|tree)\b"
    r"|\bgrep(?:ped|ping)?\s+(?:the\s+)?(?:source|code ?base|tree|repo\w*)\b"
)
# ... unless the writer read it to explain their own run's crash ("reading the source to debug my
# crash, I found:")
_SOURCE_OWN = re.compile(
    r"(?i)\b(?:my|our)\b|\b(?:I|we) (?:ran|run|launch\w*|start\w*|got|get)\b|\bcrash\w*|\btraceback\b"
)
# second-person narration of a blog or tutorial ("when you've got EAGLE fired up", "once you
# have EAGLE running", "if you're using MTP", "imagine you're ...")
_NARRATION = re.compile(
    r"(?i)\b(?:when|once|after|whenever) you(?:'ve| have)?\s+(?:got|get)\b"
    r"|\b(?:when|once|if|whenever|after) you(?:'ve| have)\s+(?:got\s+)?(?:[\w-]+\s+){1,4}?"
    r"(?:running|enabled|on|switched on|turned on|fired up|set up|going|working)\b"
    r"|\bimagine (?:you|that)\b|\bever (?:run|ran|hit|seen) into\b|\blet'?s (?:explore|dive|look)\b"
)
# a how-to sentence telling the reader what to pass ("To use EAGLE with SGLang, you pass
# --speculative-algorithm EAGLE ...", "To enable MTP, add --speculative-config ..."): what anyone
# would run, not a run ("To reproduce, run:" is the writer's own)
_HOW_YOU = re.compile(
    r"(?i)^\W*to\s+(?:use|enable|run|try|turn on|serve|launch|deploy|get|switch on)\b[^.;:]{1,80}?,\s*"
    r"(?:you\s+(?:can\s+|just\s+|only\s+|then\s+)?)?(?:pass|set|add|use|run|launch|start|specify|enable"
    r"|append|include|give)\b"
)
# a task not done yet ("- [ ] an MTP variant once 1.3.0 is out"): a plan, whatever it names;
# a checked box ("- [x] sweep passes") is work done
_TODO = re.compile(r"^\s*(?:[-*+]|\d+\.)\s+\[ \]\s")
# a checked checklist item naming several methods as one category ("- [x] verified that
# speculative configs (EAGLE / MTP / draft models) pin their drafts"): a template's rule
_CHECKED = re.compile(r"^\s*(?:[-*+]|\d+\.)\s+\[[xX]\]\s")
_METHOD = re.compile(r"(?i)\b(eagle|mtp|ngram|n-gram|medusa|nextn|dflash|dspark|lookahead|draft model)")
# a sentence telling what the code does for a method ("NGRAM has no draft model, so
# `draft_graph` is omitted", "When the method is ngram, no draft forward runs", "MTP does not load
# a separate draft model", "DFlash already records it", "the ngram proposers already respect K"):
# a pull request's account of its change, whose methods are the code's cases, not the run the PR
# was checked with
_M = r"(?:eagle-?3?|mtp|ngram|n-gram|medusa|nextn|dflash\d?|dspark|lookahead|suffix|draft[ -]model|multi-?layer[ -]?eagle)"
_CODE_TOLD = re.compile(
    rf"(?i)\b{_M}\w*\s+(?:has|have)\s+no\s+(?:separate\s+|own\s+)?(?:draft|model|weights|kv|hidden)"
    rf"|\b{_M}\w*\s+(?:does(?:n't| not)|do(?:n't| not)|never|cannot|can't)\s+(?:use|load|need|have|build|capture"
    rf"|allocate|record|require|run|own|keep)\b"
    rf"|\b(?:when|if|for|with|under)\s+(?:the\s+)?(?:method|algorithm|speculative[_ ]algorithm|spec(?:ulative)?"
    rf" method)\s*(?:is\s+|==\s*|=\s*)[`'\"]?{_M}"
    rf"|\b(?:for|with)\s+{_M}\w*\b[^.;]{{0,60}}\b(?:is|are|gets|stays?)\s+(?:omitted|skipped|excluded|left out"
    rf"|ignored|disabled|unused|not\s+(?:recorded|reported|captured|built|allocated|used|needed|set))\b"
    rf"|\b{_M}\w*\b[^.;]{{0,30}}\balready\s+(?:does|do|has|have|(?:record|handle|report|support|use|set|honou?r"
    rf"|respect|accept|follow|read|get|take|pass|forward)s?|appl(?:y|ies))\b"
)


# a sentence telling what a flag does in code ("`--num-speculative-tokens` defaults to 3", "so
# `--method` can be omitted", "a `--dflash-causal` flag covers older checkpoints", "the
# `--speculative-algorithm` option is forwarded to SGLang's server", "`--spec-method mtp` maps to
# `deepseek_mtp`") or what a mapping does with method names ("the backend maps MTP to
# `{"method": "mtp"}`"): a wrapper's or a trainer's account of its code, whose flags no run set
_TOLD_FLAG = r"`?--[a-z][\w-]*(?:[ =][\w.-]+)?`?(?:\s+(?:flag|option|argument|arg|parameter|switch))?"
_TOLD_VERB = (
    r"(?:now\s+|still\s+|also\s+|then\s+|only\s+)?(?:defaults?\s+to\b|can\s+be\s+(?:omitted|dropped|left out"
    r"|skipped|overridden)\b|(?:is|are)\s+(?:now\s+)?(?:optional|forwarded|passed(?:\s+through)?|mapped"
    r"|rewritten|ignored|exposed|deprecated|renamed|honou?red|respected|plumbed|wired)\b|maps?\s+to\b|wins\b"
    r"|overrides?\b|covers\b|falls\s+back\b|translates?\s+to\b|is\s+the\s+default\b)"
)
_FLAG_TOLD = re.compile(
    rf"(?i)(?:^|[\s(;,])(?:the\s+|an?\s+|so\s+|and\s+|explicit\s+)*{_TOLD_FLAG}\s+{_TOLD_VERB}"
    r"|\b(?:maps?|mapped|translates?|translated|forwards?|forwarded)\s+(?:[\w`'\".-]+\s+){0,3}?(?:to|through|into|onto)\b"
)


def _flag_told(text: str) -> bool:
    """The line tells what a flag or a mapping of method names does in code, and no failure
    and no run of the writer's own ("I passed `--speculative-config` through and it crashed")."""
    return _FLAG_TOLD.search(text) is not None and not (
        _FAILS.search(text) or _OWN.search(text) or _FIRST_PERSON.search(text))


# what a tool could show or what holds in theory ("the acceptance should be able to be printed
# with trtllm-bench", "could be seen in the metrics", "in theory MTP does not hurt accuracy"):
# talk about a run nobody made
_HYPOTHETICAL = re.compile(
    r"(?i)\bin theory\b|\b(?:can|could|should|would|might|may)(?:\s+not)?\s+(?:be\s+)?"
    r"(?:able\s+to\s+(?:be\s+)?)?(?:printed|shown|seen|checked|measured|obtained|reported|logged"
    r"|dumped|viewed|inspected)\s+(?:with|by|using|in|via)\b"
)


def _hypothetical(text: str) -> bool:
    """The line tells what a tool could show or what holds in theory, and no failure and no
    run of the writer's own ("I measured it with trtllm-bench")."""
    return _HYPOTHETICAL.search(text) is not None and not (
        _FAILS.search(text) or _OWN.search(text) or _FIRST_PERSON.search(text))


def _code_told(text: str) -> bool:
    """The line tells what the code does for a method, and no failure and no run of the
    writer's own ("With NGRAM the server crashes because ..." is the bug a fix PR ran into)."""
    return _CODE_TOLD.search(text) is not None and not (_FAILS.search(text) or _OWN.search(text))


# a page's how-to section: "## Deployment", "### Quick start", "## Serving", "## How to run"
_DEPLOY_HEADING = re.compile(
    r"(?i)^\s*#{2,6}\s*(?:\W\s*)?(?:deployment|deploy\w*|quick ?start|usage|serving|inference|how to (?:run|serve|use|deploy))\b"
)


def _page_copy(held: Sequence[LogLine]) -> bool:
    """The text is a page, not a thread or a log: no post header, no log record (a record only a
    run's process writes included: ``_process_record``), no line of a writer telling what they
    did, no failure or result told (a model card, a docs or README page): its deployment
    section's commands, one per engine, are how to serve, not a run."""
    return not any(post_author(ln.text) is not None or ln.headed or _WRITER.search(ln.text)
                   or _SYMPTOM.search(ln.text) for ln in held) and not _process_record(held)  # fmt: skip


# an instruction to the reader: an imperative step ("Run EAGLE-3 by executing the following
# command:", "2. Launch the server with EAGLE3:", "Next, start the server:", "To serve X, run the
# following:", "In the terminal, run:", "Open a terminal and create ..."), a step heading, or what
# the reader must or will do ("you must be in the docker group", "In this guide you will ...")
_VERB = (r"(?:run|execute|launch|start|serve|install|pull|set|export|create|configure|open|download"
         r"|clone|copy|save|add|enable|disable|omit|send|deploy|use|build|verify|check|edit|modify"
         r"|replace|switch|turn|remove|wait|pass|specify|point|mount|log ?in)")
_STEP_LINE = re.compile(
    rf"(?i)^\W*(?:step\s*\d+\b[^:]*:?\s*|\d+[.)]\s+)?(?:(?:next|then|now|first|finally|afterwards|also),?\s+)?"
    rf"(?:(?:to|in|on|from|for|after|once)\b[^,:]{{0,80}},\s*)?{_VERB}\b"
    rf"(?:[^:]{{0,120}}:\s*$|\s+(?:the|a|an|this|these|your|it|following|with|by|in|on|to|all|any)\b)"
    r"|^\W*step\s*\d+\b"
    r"|\byou (?:must|need to|will need|will|should|can|may|have to)\b"
    r"|\bby (?:executing|running|using|issuing) the following\b"
    # an imperative verb over inline code ("Run `docker compose up -d` and open ...")
    rf"|^\W*(?:(?:then|now|next|finally),?\s+)?{_VERB}\s+`[^`]+`"
    # a page telling what it is for ("This recipe shows how to deploy X", "In this tutorial, ...",
    # "This guide walks you through ..."): a page for a reader, whose commands are the reader's
    r"|^\W*(?:this|the following|in this)\s+(?:recipe|guide|tutorial|cookbook|walkthrough|notebook"
    r"|how-?to|quick-?start|example|page|document|doc|readme|section)\b,?\s*(?:shows?|explains?"
    r"|describes?|demonstrates?|walks?\s+(?:you\s+)?through|covers?|illustrates?|we\b|you\b)"
)
# a page's address on its first lines: a docs site, a tutorial, a playbook, a guide, a cookbook
_DOCS_URL = re.compile(
    r"(?i)https?://(?:docs\.|[\w.-]*readthedocs|[\w.-]+\.github\.io/|[\w./-]*/(?:docs?|documentation"
    r"|tutorials?|playbooks?|guides?|cookbook|quick-?start|instructions|getting[-_]started|how-?to)\b)"
)
_HEAD_LINES = 5  # a page's address stands above its first lines
# "To reproduce, run:", "Repro:", "Steps to reproduce", a reproduction: a failure's steps (not a
# "Reproducible smoke test", "for reproducibility", "a variant for reproducing earlier results")
_REPRO = re.compile(
    r"(?i)\brepro(?:duc(?:e|ed|es|ing|tion)\b(?!\s+(?:the\s+|our\s+|these\s+|earlier\s+|published\s+|paper'?s?\s+)?"
    r"(?:results?|numbers|figures|benchmarks?|experiments?|paper)\b)|s?\b)"
)
_SELF = re.compile(r"\bI\b(?!/O)|(?i:\b(?:my|mine|me)\b)")  # the writer in the first person singular


def _instructions(held: Sequence[LogLine], thread: bool, expected: frozenset[int]) -> LogLine | None:
    """The first line of a page that tells the reader what to run (an imperative step, a docs
    address on top, or the page's form: ``run_bound.page_form``), where nothing in it binds it
    to a run: no post header (a thread), no log record, no quoted line, and no line
    ``run_bound.first_run_line`` reads as a run (an engine frame or record, the writer telling
    their own run, a failure told as met, a figure measured). A vendor's voice ("Our
    implementation"), algorithm prose ("verified by the target model"), promised gains ("up to
    2.5x") and a crash appended whose frames name no engine file tell none. A playbook, a docs
    or quick-start page, a tutorial, a blog post, release notes: their commands, however
    complete, are what the reader would run. A pasted command followed by its output is a run,
    and so is a failure report whose steps to reproduce are imperative. Output the page shows
    as what the reader should expect (``expected``: ``shown_output.expected_lines``, "####
    Expected Results", "Sample output:", "出力例：") is no output of a run; where that is all the
    output it shows and it tells no failure, its "reproducing steps" reproduce a benchmark's
    numbers, not a failure."""
    first: LogLine | None = None
    unshown = [ln for ln in held if ln.lineno not in expected]  # what the page shows of its own
    benchmark = bool(expected) and not any(
        _SYMPTOM.search(words := told(ln.text)) and not CONDITION.search(words) for ln in unshown)
    for line in unshown:
        text = line.text
        if line.headed or post_author(text) is not None:
            return None
        if line.quoted:
            continue  # with no post above, a page's own blockquote (a note): ``first_run_line`` reads it
        if (_REPRO.search(text) and not benchmark) or (thread and _RESULTS.search(text)):
            return None  # "To reproduce, run:": a failure's steps; a thread's results: its writer's run
        if first is None and (_STEP_LINE.search(text) or reader_step(text) or (
                _DOCS_URL.search(text) and line.lineno - held[0].lineno < _HEAD_LINES)):  # fmt: skip
            first = line
    if first_run_line(unshown) is not None or _process_record(held):
        return None  # an engine frame or record, the writer's own run, a failure met, a figure measured, a pid table
    if first is None and _results_report(unshown):
        return None  # a page only by its form (sections), telling the reader no step: its run's results
    return first or page_form(held)


# a section for the page's reader: how to use, install or deploy what it describes (a model card's
# "## Usage", a README's "Quick start"), in the languages seen
_READER_SECTION = re.compile(
    r"(?i)^\W{0,6}(?:#{1,6}\s*)?(?:\d+[.)]?\s*)?(?:usage|how to (?:use|run|serve|deploy)|quick\s*-?\s*start"
    r"|get(?:ting)? started|install\w*|deploy\w*|inference|serving with)\b"
    r"|^\W{0,6}#{1,6}\s*(?:使用|用法|快速开始|快速上手|部署|安装|推理|使い方|導入|Использование|Установка|Запуск)"
)


def _results_report(held: Sequence[LogLine]) -> bool:
    """A page of sections whose tables hold a run's measured figures (``run_bound.measured_table``)
    and that gives its reader nothing to run: no engine launch command, no section on how to use,
    install or deploy (a model card's or a README's speed-up table over its "## Usage" block is
    what the reader would get, not a run of the page's own)."""
    if any(_ENGINE_LAUNCH.search(ln.text) or _READER_SECTION.search(ln.text) for ln in held):
        return False
    return measured_table(held) is not None


def _template(held: Sequence[LogLine]) -> LogLine | None:
    """The first field a results template leaves to fill (``template_cells.template_field``:
    three or more, none filled), in a text with no post header, no engine frame and no log
    record: a report template or a record sheet whose launch and configs its reader will run.
    A thread's post or a record of a run makes the text a report, whatever cells it leaves blank."""
    if any(post_author(ln.text) is not None or tree_frame(ln.text) or RECORD_SHAPE.search(ln.text) for ln in held):
        return None
    return template_field(held)


def _process_record(held: Sequence[LogLine]) -> bool:
    """A line in a form only a run's process or job writes (``run_forms.record_form``: a table
    whose columns name each row's pid or job id, an engine's record cut to its message),
    outside a section a plan or a template heads ahead of any run ("## Reproductions to
    collect", "## Expected output") and below no caption of what the reader should see or of an
    example ("You should see two pools:", "Example output:"), to the next heading."""
    ahead = False  # under a heading or a caption of what is still to come
    for line in held:
        text = line.text
        if record_form(line):  # (its "| # |" cell is no heading)
            if not ahead:
                return True
        elif heading_level(text):
            ahead = AHEAD.search(text) is not None or expect_section(text)
        elif expected_line(text) or expect_mark(text) or checklist_caption(text) or _caption(text) is not None \
                or (_EXAMPLE_WORD.search(text) and text.rstrip(" *`").endswith((":", "："))):  # fmt: skip
            ahead = True  # ("Example output:": an example's, however ``_caption`` reads "output")
    return False


# another thread cited in a comment ("Looks like sgl-project/sglang#23456 (EAGLE3 draft not
# resynced)", "Done in https://github.com/o/r/pull/12326 with MTP"): the method named beside it is
# that thread's; the writer's own words ("I hit the same with EAGLE3") keep theirs
_CITATION = re.compile(r"\b[\w.-]+/[\w.-]+#\d+\b|github\.com/[\w.-]+/[\w.-]+/(?:issues|pull)/\d+")


def _cites_another(text: str) -> bool:
    return (_CITATION.search(text) is not None and _METHOD.search(text) is not None
            and not (_WRITER.search(text) or _OWN.search(text)))  # fmt: skip


# a checklist item of any marker ("- [ ]", "* [x]", "1. [Ongoing]", "- [WIP]", "- [-]"); a status
# word in the box ("[Ongoing]", "[WIP]", "[In progress]", "[done]", "[Planned]") marks a roadmap
# or tracker, whose every item is work's status, not a run ("- [x] MTP" there: a feature landed)
_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+\[([^\]\n]{0,24})\]\s")
_STATUS_WORD = re.compile(r"(?i)^(?:[a-z][a-z /-]{1,22}|[-~/!?])$")
_ITEM_GAP = 2  # lines between two items of one list (a wrapped item, a blank line)
# what a bare item may carry besides its name: a handle, a reference, a link, a parenthesis
_ITEM_ASIDE = re.compile(r"@[\w-]+|#\d+|\([^()]*\)|\[[^\]]*\]|https?://\S+")
_ITEM_WORD = re.compile(r"[A-Za-z][\w.-]*")
# a verb of a check done: "- [x] tested MTP on H200" is a run, whatever list it is in
_CHECK_VERB = re.compile(
    r"(?i)\b(?:test|verif|valid|ran\b|run|bench|measur|pass|reproduc|serv|launch|deploy|check|confirm"
    r"|profil|sweep|work)"
)
_BARE_WORDS = 5  # "Multi-token-prediction", "EAGLE / EAGLE3", "Draft/target two-model"


def _status_lists(held: Sequence[LogLine]) -> frozenset[int]:
    """The line numbers of the checklist items in lists (items at most ``_ITEM_GAP`` lines
    apart) holding an item whose box is a status word: a roadmap, tracker or parity list."""
    out: set[int] = set()
    items: list[LogLine] = []

    def end() -> None:
        if any(_STATUS_WORD.match(_ITEM.match(ln.text).group(1).strip()) for ln in items):
            out.update(ln.lineno for ln in items)
        items.clear()

    for line in held:
        if line.quoted or line.headed or _ITEM.match(line.text) is None:
            continue
        if items and line.lineno - items[-1].lineno > _ITEM_GAP:
            end()
        items.append(line)
    end()
    return frozenset(out)


def _bare_item(text: str) -> bool:
    """A checked item that is a name and no check ("- [x] Multi-token-prediction @dev"):
    a status, not a check done."""
    body = _ITEM_ASIDE.sub(" ", _ITEM.sub("", text, count=1))
    words = _ITEM_WORD.findall(body)
    return len(words) <= _BARE_WORDS and _CHECK_VERB.search(body) is None and _SETUP.search(body) is None


_SETUP = re.compile(r"(?i)\b(?:on|with|using|at)\s+\S")  # "EAGLE3 on H100": a setup checked
# a sentence putting what it names out of the change ("the MTP recipe is not part of this PR",
# "the EAGLE3 config stays unchanged"): a pull request's scope, not the run it deploys
_LEFT_OUT_WORDS = re.compile(
    r"(?i)\b(?:is|are|stays?|remains?)\s+(?:not\s+(?:part of|included|touched|changed)\b|unchanged\b"
    r"|untouched\b|out of scope\b)|\bnot part of this (?:pr|change|bump)\b"
)
# a sentence (often a reviewer's) saying the method the title names is not wired into the run:
# "the script never passes --speculative-algorithm", "as written this runs the plain server",
# "the MTP flags are not wired"; not a baseline beside the method ("vs. the non-MTP run")
_UNWIRED_WORDS = re.compile(
    r"(?i)\bnever (?:passes|sets|enables|wires)\b|\b(?:does ?n[o']?t|do not) (?:pass|set|enable|wire)\b"
    r"[^.;]{0,40}--spec|\b(?:this|it|which|script|recipe) runs the plain\b|\bnot (?:wired|hooked up)\b"
)
# a class named in code form ("`DFlashTorchaxProposer`", "EagleProposer"): a capital, then more
# capitals and small letters
_CLASS_NAME = r"(?-i:[A-Z](?=[A-Za-z0-9]*[a-z])(?=[A-Za-z0-9]*[A-Z])[A-Za-z0-9]+)"
_CLASS_FORM = rf"(?<![\w.])`?({_CLASS_NAME})`?(?![\w(])"
_CLASS = re.compile(_CLASS_FORM)
# a class named as the one the code builds or runs ("our runner always instantiates the JAX
# `DFlashProposer`", "it falls back to `EagleProposer`", "the worker builds `NgramProposer`")
_INSTANTIATED = re.compile(
    r"(?i)\b(?:instantiat\w*|builds?|built|creates?|created|constructs?|constructed|picks?|picked"
    r"|selects?|selected|dispatch\w*\s+to|falls?\s+back\s+to|fell\s+back\s+to|runs?|ran|uses?|used)\b"
    rf"[^.;]{{0,40}}?{_CLASS_FORM}"
)


def _unwired(text: str) -> bool:
    """The line says the method is not wired into the run (``_UNWIRED_WORDS``), of the run it
    tells: not where each sentence saying so names its classes, and another sentence names a
    different class as the one the code builds or runs ("the runner always instantiates
    `DFlashProposer` ... The staged `DFlashTorchaxProposer` is not wired into the runner"; a
    clause of a contrast alike): it negates only the class it names, never the one named as
    instantiated."""
    cut = [c for s in sentences(text) for c in contrast_clauses(s)]
    unwired = [s for s in cut if _UNWIRED_WORDS.search(s)]
    if not unwired:
        return False
    built = {(s, m.start(1)): m.group(1) for s in cut for m in _INSTANTIATED.finditer(s)}
    named = [[m.group(1) for m in _CLASS.finditer(s) if (s, m.start(1)) not in built] for s in unwired]
    if not all(named):
        return True
    negated = {c for found in named for c in found}
    return not (set(built.values()) - negated)


# a change to code that writes commands for others: a config or command generator, builder or
# template ("prepending X to the serve command in the ConfigGenerator", "the command builder
# (`commandBuilder.js`) emits", "the command it prints"); the flags it adds are the emitted
# command's, not a run the writer made
_GENERATOR = re.compile(
    r"(?i)\b(?:config|command|cmd|cli|launch|recipe|yaml|serve)[\s_-]?(?:generator|builder|template)s?\b"
    r"|(?<![a-z])(?:config|command|cmd)(?:generator|builder)\b"
    r"|\b(?:commands?|cmds?|configs?)\b[^.;]{0,30}?\b(?:it|they|that|which) (?:now )?(?:emits?|prints?"
    r"|generates?|outputs?)\b|\b(?:emits?|emitted|generates?|generated|prints?) (?:the |a |its )?"
    r"(?:serve |launch |server |generated )?(?:command|cmd)s?\b"
)
# a sentence asking about a configuration ("Is `--speculative-config ...` supported on 0.20?",
# "请问 0.5.14 的 NEXTN 还需要设置 X 吗？", "是否支持下面的配置："); not "why does X crash?", which
# tells the run
_ASKS = re.compile(
    r"(?i)^\W*(?:is|are|does|do|can|could|should|will|would|whether|must)\b"
    r"|请问|是否|能否|可否|吗\s*[?？]?\s*$"
)
# what a caption asks of the block below it: whether it is supported, right, allowed, needed
# (not "can this setup go faster:", which asks about the writer's deployment)
_ASK_ABOUT = re.compile(
    r"(?i)\b(?:support\w*|right|correct|valid|allowed|possible|needed|required|necessary"
    r"|compatible)\b|支持|正确|需要|可用|合理"
)
# the writer's own run in Chinese ("我用 ... 启动", "我们在 8 卡上部署", "运行时报错")
_OWN_CJK = re.compile(r"我们?(?:用|使用|在|启动|运行|跑|部署|测试|试了)|报错|崩溃|失败")
# a sentence whose subject is other users reporting a configuration ("Users report that serving
# X with `--speculative-config ...` produces garbage", "Several users reported ... when combining")
_OTHERS_SAY = re.compile(
    r"(?i)\b(?:(?:several|many|some|multiple|a few|our|the)\s+)?(?:users?|customers?|people|folks|reporters?)"
    r"\s+(?:have\s+|has\s+)?(?:report\w*|hit|hitting|saw|see|seeing|observed|complain\w*|ran into)\b"
    r"|\breported by (?:users?|customers?|several|many)\b"
)
# a review post's header ("gemini-code-assist[bot] · review thread · 2026-04-30")
_REVIEW_POST = re.compile(r"(?i)·\s*review(?:\s+(?:thread|comment)s?)?\s*·")
# a chat transcript's turn labels, alone on their line or before the turn's words ("Assistant:
# You can pass ...", "ChatGPT said:", "### Assistant", "**Claude:**"; "User: ...", "You said:",
# "### Human"): an assistant's turn advises, its user's tells what they ran. Capitalised, as a
# transcript writes them: a YAML key ("assistant: gemma-4-assistant") is no turn
_TURN = r"^\s*(?:#{{1,6}}\s+|\*\*)?(?:{})(?:\s+said)?\s*(?:\*\*\s*)?(?:[:：]|$)"
_ASSISTANT_TURN = re.compile(_TURN.format(r"Assistant|ASSISTANT|ChatGPT|Claude|Gemini|Copilot|AI|(?:AI\s*)?助手"))
_USER_TURN = re.compile(_TURN.format(r"User|USER|You|Human|HUMAN|用户"))
# the pull request's author answering inside a review thread: the author's own words again
_AUTHOR_REPLY = re.compile(r"^\s*\*\*[^*]+\*\*\s*\(author\)\s*:")
# a review's suggested change, as the thread shows it ("```suggestion")
_SUGGESTION_FENCE = re.compile(r"^\s*(?:>\s*)*```\s*suggestion\b")
# an indented continuation of a code block (a keyword argument, a flag, a YAML or JSON key)
# whose head line the scan did not keep (``llm = LLM(``): still the caption's code, over a
# longer gap (the blank, the fence and the unkept head lines above it)
_CONTINUATION = re.compile(r"^\s+(?:[A-Za-z_]\w*\s*=\s*\S|--[a-z]|\"?[A-Za-z_]\w*\"?\s*:\s)")
_CONTINUATION_GAP = 8
# lines a caption's block may hold under it (a command and its flags), and the most lines the
# scan did not keep between two of them (a fence line, a blank)
_CAPTION_SPAN = 40
_CAPTION_GAP = 3
_END = 10**9  # a section open at the end of the text runs to its end


@dataclass(frozen=True, slots=True)
class Apart:
    """Lines ``first``..``last`` of ``source`` are not the reporter's run, for ``why``; ``opener``
    is the line that set them apart, as the text shows it."""

    source: str
    first: int
    last: int
    why: str
    opener: str

    def holds(self, source: str, lineno: int) -> bool:
        return source == self.source and self.first <= lineno <= self.last

    def said(self) -> str:
        """The reason with the line that opened the block, for evidence and missing text."""
        return f"{self.why} (line {self.first}: {self.opener[:80]!r})"


@dataclass(frozen=True, slots=True)
class NotRun:
    """The blocks of a text that are not its run."""

    blocks: tuple[Apart, ...] = ()

    def block(self, source: str, lineno: int) -> Apart | None:
        """The block holding the line, or None: the line may be the run's."""
        return next((b for b in self.blocks if b.holds(source, lineno)), None)

    def why(self, source: str, lineno: int) -> str | None:
        block = self.block(source, lineno)
        return block.said() if block is not None else None

    def lines(self, lines: Sequence[LogLine]) -> frozenset[tuple[str, int]]:
        """(source, line) of each of ``lines`` no run's config is read from: inside a block,
        not a test plan's (its command is the one the results below it ran) nor an instructions
        page's or a document's (it denies the text a run as a whole; a crash of its own still
        shows one, and its launch is then that crash's run), nor a diff hunk's (a command it
        leaves is read whole; only its loose words are code's), nor a launch's that stopped in its
        launcher (what it configured is its config; no worker was built from it)."""
        blocks = [b for b in self.blocks if b.why not in (PLAN, INSTRUCTIONS, DOCUMENT, UNRECORDED, HUNK)
                  and not b.why.startswith(LAUNCHER_STOPPED)]  # fmt: skip
        if not blocks:
            return frozenset()
        return frozenset((ln.source, ln.lineno) for ln in lines
                         if any(b.holds(ln.source, ln.lineno) for b in blocks))  # fmt: skip


def is_example(line: LogLine) -> bool:
    """The line quotes its config after an example marker (``e.g.``, ``for example``...): a
    bug template's "speculative decoding enabled (e.g. ...)" names one way to meet its
    conditions, so the config reader may take its family but never the class a run built. The
    marker stands before the config on the same sentence line; a log record is never an
    example."""
    if line.headed:
        return False
    marker = _MARKER.search(line.text)
    return marker is not None and _EXAMPLE_CONFIG.search(line.text, marker.end()) is not None


def sentence_apart(text: str) -> str | None:
    """Why one sentence line is not the run's by its own words, or None: narration or another
    engine's command whatever it holds; an example marker, advice, a goal or a docs quotation
    only where the line quotes a config (a flag, a dict): "I suggest it is a bug in EAGLE" still
    names the run's family. A caption of the writer's own or failing run is the run's. A config
    the line asks about (``asked_config``) is no run's, even where the line starts with it."""
    if _TITLE.match(text):
        return None
    if asked_config(text):
        return ASKED
    if _FLAG_START.match(text):
        return None
    if _NARRATION.search(text) and not _FAILS.search(text):
        return NARRATION  # "if you have EAGLE on, the server crashes" describes the run
    if _HOW_YOU.search(text) and not (_FAILS.search(text) or _FIRST_PERSON.search(text)):
        return NARRATION
    if foreign_entry(text) or other_engine(text) is not None:
        return FOREIGN
    if _CONFIG.search(text) is None:
        return None
    if _OTHERS_SAY.search(text) and not _FIRST_PERSON.search(text):
        return OTHERS  # "users report garbage output with X": whatever failed, not the writer's
    if _ASKS.search(text) and not (_OWN.search(text) or _OWN_CJK.search(text) or _FAILS.search(text)):
        return ASKED
    if _OWN.search(text):
        return None
    if _EXAMPLE_CAPTION.search(text) or _MARKER.search(text):
        return EXAMPLE
    if _ADVICE.search(text):
        return SUGGESTION
    if _GOAL.search(text):
        return GOAL
    if _DOCS.search(text):
        return DOCS
    return None


# a caption showing what follows as the pattern to avoid ("# Incorrect: speculative + guided",
# "Don't do this:", "Bad example:", "❌ Wrong"), and the one that ends it ("# Correct: ...",
# "Do this instead:", "✅")
_AVOID = re.compile(
    r"(?i)^[\W_]*(?:incorrect|wrong|bad|avoid|don'?t|do not|never|anti-?pattern)\b[^:]{0,40}:"
    r"|^[\W_]*(?:incorrect|wrong|bad|anti-?pattern)(?:\s+(?:example|usage|config\w*|command|way))?[\W_]*$"
    r"|^\W*(?:❌|✗|✘)"
)
_PREFER = re.compile(
    r"(?i)^[\W_]*(?:correct|right|good|better|recommended|fixed|instead|do this|use this)\b|^\W*(?:✅|✓|✔)"
)


# a question in any language: a question mark, a CJK particle ending a clause ("...不支持吧",
# "...能用吗"), Japanese "...ますか"
_QUESTION = re.compile(r"[?？]|[吗吧呢么嗎][\s。,，]*(?:$|[。，,])|(?:ます|です|でしょう)か(?:[\s。]|$)")
# what the question asks of the config: whether it works or is supported ("Does X work with Y?",
# "Is X supported on 0.11?", "这个配置能用吗", "この設定で動きますか")
_ASKS_WORKS = re.compile(
    r"(?i)\b(?:work|works|working|support\w*|compatible|possible|allowed|valid|correct|right|ok|okay|fine"
    r"|usable|expected to)\b|支持|能用|可用|可以用|能跑|正确|動き|使え|対応"
)
# a failure or bad output the writer saw: the question is about the writer's run ("the output is
# garbage with X, is this expected?")
_SEEN_BAD = re.compile(
    r"(?i)\b(?:garbage|garbled|gibberish|wrong|incorrect|nan|mismatch\w*|slow\w*|drops?|dropped|stuck"
    r"|repeat\w*|segfault|illegal|oom|exception)\b"
)
# inline code, a quoted JSON and a flag with its value: the config, not the question's words
_CODE_SPAN = re.compile(r"`[^`]*`|'\{[^']*\}'|\"\{[^\"]*\}\"|\{[^{}]*\}|(?<![\w-])--[\w-]+(?:[ =](?!-)[^\s`]+)?")


def asked_config(text: str) -> bool:
    """The line quotes a config (a flag, a JSON) and asks whether it works or is supported, in
    any language, with no run of the writer's own and no failure seen ("Does `--speculative-
    config '{...mtp...}'` work with FP8 KV on 0.11.1?", "`--speculative-algorithm NEXTN ...` 这个
    配置在 128K 下能用吗？", "--speculative-config '{...}'  这个应该还是不支持吧"): a configuration
    asked about, not a run's. "Why does X crash?" and "X gives garbage, is this expected?" tell
    the run."""
    if _CONFIG.search(text) is None:
        return False
    words = _CODE_SPAN.sub(" ", text)
    if _QUESTION.search(words) is None or _ASKS_WORKS.search(words) is None:
        return False
    return not (_OWN.search(words) or _OWN_CJK.search(words) or _FAILS.search(words)
                or _SEEN_BAD.search(words) or _FIRST_PERSON.search(words))


def _caption(text: str) -> str | None:
    """Why the block under a caption line is not the run's: an example caption, a pattern to
    avoid, or a line ending in ":" whose last clause gives an example, advice or a docs page's
    text ("Supported since 0.10.0. Example usage:", "you can run:", "The quick start shows:");
    not one of the writer's own or failing run."""
    if (_EXAMPLE_CAPTION.search(text) or _MARKER_ENDS.search(text)) and not _OWN.search(text):
        return EXAMPLE
    if _AVOID.search(text) and not (_OWN.search(text) or _FIRST_PERSON.search(text)):
        return AVOIDED
    if text.rstrip(" *`").endswith(("?", "？")) and _CONFIG.search(text) is None and _asks_above(text):
        return ASKED  # "Is this supported with the PyTorch backend on B200?" over its YAML
    if not text.rstrip(" *`").endswith((":", "：")):
        return None
    clause = _CLAUSE.split(text)[-1]
    if (_ASKS.search(clause.rstrip(" *`:：")) and _ASK_ABOUT.search(clause)
            and not (_OWN.search(clause) or _OWN_CJK.search(clause) or _FAILS.search(clause)
                     or _FIRST_PERSON.search(clause))):
        return ASKED  # "Is the following config supported:", "是否支持下面的配置："
    if _NOT_YET.search(clause) or _WISH_CLAUSE.search(clause):
        return GOAL  # "Before I deploy:", "It would be nice to forward these:": not yet run
    if _FIRST_PERSON.search(clause):
        return None
    if _DOCS.search(clause):  # "The docs page shows this sample log:" quotes the page
        return DOCS
    if _NOTES.search(clause):
        return CHANGELOG
    if _OWN.search(clause):
        return None
    if _EXAMPLE_WORD.search(clause) and not check_told(text):
        return EXAMPLE  # not "Validated end-to-end with X. Example commands:": the check's own
    if _ADVICE.search(clause) or _READER_CAN.search(clause):
        return SUGGESTION
    if _GOAL.search(clause):
        return GOAL
    return None


# a caption telling the reader what they may do with the config below, any verb ("Currently you
# can assign a dspark:", "you may pin the drafter with:"), not what they will see ("you can see
# the error:"): a usage line, the writer's run is elsewhere
_READER_CAN = re.compile(
    r"(?i)\byou (?:can|could|may|might|should|need to|have to|want to|must)\s+(?:now |also |then |just )?"
    r"(?!see\b|find\b|notice\b|observe\b|tell\b|reproduce\b|check\b|verify\b|confirm\b)[a-z]+\b"
)
# a caption giving the config below as another source's: a blog, a guide, a paper or a vendor
# publishes, shares or lists it ("`blog06` publishes the complete config for the record",
# "the guide's YAML:", "官方博客给出的完整配置如下："); the writer's own ("we published the config
# we ran") is not
_ATTRIBUTED_CONFIG = re.compile(
    r"(?i)\b(?:publish(?:es|ed)|posts|posted|shares|shared|ships|shipped|lists|listed|gives)\s+(?:the|its|their"
    r"|an?)\s+(?:(?:complete|full|exact|official|reference|whole)\s+)?(?:config\w*|recipe|ya?ml|launch command"
    r"|serve command|command|settings)\b"
    r"|\b(?:blog|guide|paper|article|cookbook|docs?|tutorial)(?:'s| post's)\s+(?:(?:complete|full|exact)\s+)?"
    r"(?:config\w*|recipe|ya?ml|command|settings)\b"
    r"|(?:博客|官方|文档|教程|指南|论文)[^，。：:]{0,12}(?:给出|公布|提供|公开|发布)的(?:完整|全部)?(?:配置|命令|参数)"
)


def _attributed(text: str) -> bool:
    """The line captions the config below as another source's ("`blog06` publishes the complete
    config for the record. It is worth reading for which" / "knobs they turn off:", "The guide's
    YAML:"): its sentence ends in a colon or runs on to the next line (a table row is no caption),
    and tells no run or failure of the writer's."""
    return (_ATTRIBUTED_CONFIG.search(text) is not None and _ROW_FIRST.match(text) is None
            and text.rstrip(" *`")[-1:] not in ".!?;)。！？"
            and not (_FIRST_PERSON.search(text) or _OWN_CJK.search(text) or _FAILS.search(text)))


def _asks_above(text: str) -> bool:
    """A question line over a config asks whether "this" works or is supported ("Is this
    supported on B200, or not yet?", "Does the following work?"), with no run of the writer's."""
    return (_ASKS.search(text) is not None and _ASKS_WORKS.search(text) is not None
            and _THIS.search(text) is not None
            and not (_OWN.search(text) or _OWN_CJK.search(text) or _FAILS.search(text)
                     or _SEEN_BAD.search(text) or _FIRST_PERSON.search(text)))  # fmt: skip


_THIS = re.compile(r"(?i)\b(?:this|these|the following|below|that)\b|这个|以下|下面|この")


# a name joined by "-", "/" or "_" (a repository, a path, a model): its words are no sentence's
_NAME = re.compile(r"\S*\w[-/_]\w\S*")


def _past_gap(gap: int, text: str) -> bool:
    """The line lies past a caption's block: more unkept lines above it than a fence and a
    blank, unless it continues the block's code (an indented argument) a few lines on."""
    if gap <= _CAPTION_GAP:
        return False
    return gap > _CONTINUATION_GAP or _CONTINUATION.match(text) is None


def _carried(text: str) -> str | None:
    """Why the sentence a line leaves open carries onto the next line ("This PR adds support
    for" then the flag on the line below): a goal, an example or advice with no config yet."""
    if _TITLE.match(text) or _FLAG_START.match(text) or _OWN.search(text) or _CONFIG.search(text):
        return None
    if text.rstrip()[-1:] in ".!?:;)" or not text.strip():
        return None
    text = _NAME.sub(" ", text)  # "example-org/vllm-fork · pull request #812": names, not words
    if _GOAL.search(text):
        return GOAL
    if _ADVICE.search(text):
        return SUGGESTION
    if _EXAMPLE_WORD.search(text):
        return EXAMPLE
    return None


def _section(text: str) -> str | None:
    """Why a heading's section is not the run's (a docs issue, a suggested fix), or None; a
    heading over the writer's own or failing run ("### Example to reproduce") is the run's.
    An issue body flattened onto its heading's line (a wiki mirror, an index page: "### Proposal
    ... I try ... ``` vllm serve ... ``` ... any other suggestions.") is judged by each
    heading's own words, not by its body's."""
    if _OWN.search(text):
        return None
    heads = _heading_words(text)
    return next((why for head in heads for pattern, why in _SECTION_WHY if pattern.search(head)), None)


# a flattened body: a fence or a further heading marker on the heading's own line
_FLAT_MARK = re.compile(r"```|~~~|\s#{2,6}\s")
_HEAD_END = re.compile(r"```|~~~|[.!?。！？](?:\s|$)")


def _heading_words(text: str) -> list[str]:
    """The words of each heading a line holds: the line itself, or for a body flattened onto it,
    each heading marker's words up to its first fence or sentence end."""
    if _FLAT_MARK.search(text, 4) is None:
        return [text]
    parts = re.split(r"(?:^|\s)(?=#{2,6}\s)", text)
    return [_HEAD_END.split(part, 1)[0] for part in parts if part.lstrip().startswith("#")]


def read_apart(lines: Sequence[LogLine]) -> NotRun:
    """Read the lines (one pass, in order per source) into the blocks that are not the run."""
    out: list[Apart] = []
    by_source: dict[str, list[LogLine]] = {}
    for line in lines:
        by_source.setdefault(line.source, []).append(line)
    for held in by_source.values():  # a joined dump or dict comes after its pieces: in order
        out += _read_source(sorted(held, key=lambda ln: ln.lineno))
    return NotRun(tuple(out))


def _adopted(blocks: list[Apart]) -> list[Apart]:
    """The blocks without the last example, advice or docs quotation: the writer ran it."""
    for i in range(len(blocks) - 1, -1, -1):
        if blocks[i].why in (EXAMPLE, SUGGESTION, DOCS, ASSISTANT):
            return blocks[:i] + blocks[i + 1 :]
    return blocks


def _telling_mine(text: str) -> bool:
    """The line tells the writer's own run: "I"/"we" with a run's verb, "mine", "my"/"our" with
    what a run has (``run_bound.SELF_RUN``: "my server", "our command"). A vendor's or a paper's
    voice ("Our fine-tuning closes this gap", "| MTP + LK (ours) |") tells none."""
    return _FIRST_PERSON_ACT.search(text) is not None or SELF_RUN.search(text) is not None


def _read_source(held: Sequence[LogLine]) -> list[Apart]:
    """The blocks of one source's lines (the lines the scan kept: a fence line is seen only
    where it holds a literal, so a caption's block runs over the lines right below it, one
    unseen line (a fence) between them at most)."""
    out: list[Apart] = []
    open_: tuple[int, str, str, str] | None = None  # (first line, why, opener, mode)
    last = 0  # the previous line's number
    carry: tuple[str, str] | None = None  # a sentence left open on the line above, and why
    mine = False  # the post told the writer's own run: its "Example command" is that run's
    plan: str | None = None  # the heading of a test plan a ticked check interrupted
    roadmap = _status_lists(held)  # checklist items of a list that marks status in words
    pull = _thread(held)[1] == "pull"
    posts = 0  # post headers read so far: a comment is any post after the first
    page = _page_copy(held)  # a page with no post and no writer: a model card, a docs page
    goes_on = 0  # lines a caption's sentence runs on past the line read

    def close(end: int) -> None:
        nonlocal open_
        if open_ is not None:
            first, why, opener, _ = open_
            out.append(Apart(held[0].source, first, max(first, end), why, opener))
            open_ = None

    hunk_sure, hunk_end = 0, 0  # the last lines a diff hunk surely / at most covers
    fixes = False  # inside a troubleshooting table (its header names a symptom and a fix column)
    for line in held:
        text = line.text
        row = _ROW_FIRST.match(line.raw) is not None
        if fixes and row:
            out.append(Apart(line.source, line.lineno, line.lineno, TROUBLE, text.strip()))
        fixes = row and (fixes or _TROUBLE_HEADER.search(line.raw.strip()) is not None)
        if (hunk := _HUNK_HEADER.match(text)) is not None:
            old, new = int(hunk["old"] or 1), int(hunk["new"] or 1)
            hunk_sure, hunk_end = line.lineno + max(old, new), line.lineno + old + new
        if _COMMIT_SUBJECT.match(text):
            out.append(Apart(line.source, line.lineno, line.lineno, COMMIT, text.strip()))
        elif not line.headed and _change_item(text):
            out.append(Apart(line.source, line.lineno, line.lineno, CHANGE_ITEM, text.strip()))
        elif hunk is None and not line.headed and (line.lineno <= hunk_sure or (
                line.lineno <= hunk_end and line.raw[:1] in (" ", "+", "-"))):  # fmt: skip
            out.append(Apart(line.source, line.lineno, line.lineno, HUNK, text.strip()))
        elif not line.headed and compared_off(line.raw):
            out.append(Apart(line.source, line.lineno, line.lineno, COMPARED, text.strip()))
        elif not line.headed and _unwired(text):
            out.append(Apart(line.source, line.lineno, line.lineno, UNWIRED, text.strip()))
        elif not line.headed and not line.quoted and spec_off(text):
            out.append(Apart(line.source, line.lineno, line.lineno, SPEC_OFF, text.strip()))
        elif pull and not line.headed and _code_told(text):
            out.append(Apart(line.source, line.lineno, line.lineno, CODE_TOLD, text.strip()))
        elif not line.headed and not _FLAG_START.match(text) and _flag_told(text):
            out.append(Apart(line.source, line.lineno, line.lineno, FLAG_TOLD, text.strip()))
        elif not line.headed and _hypothetical(text):
            out.append(Apart(line.source, line.lineno, line.lineno, HYPOTHETICAL, text.strip()))
        elif posts > 1 and not line.quoted and not line.headed and _cites_another(text):
            out.append(Apart(line.source, line.lineno, line.lineno, CITED, text.strip()))
        if not line.quoted and post_author(text) is not None:
            posts += 1
        mode = open_[3] if open_ is not None else None
        if plan is not None and (_HEADING.match(text) or post_author(text) is not None):
            plan = None  # the test plan a ticked check interrupted ends at a heading or a post
        if mode == "section" and open_[1] == PLAN and not line.quoted and done_check(text):
            plan = open_[2]  # the author's ticked check on named hardware is the run's: the
            close(last)  # test plan goes on below it
            mode = None
        elif plan is not None and open_ is None and not line.headed and not done_check(text):
            open_ = (line.lineno, PLAN, plan, "section")
            mode = "section"
        plan = plan if open_ is None else None
        if mode == "section" and open_[1] == DOCS and not line.quoted and _OWN_TRY.search(text):
            open_, mode = None, None  # a docs issue's body is the writer's own run: its setup and command
        if mode == "caption" and (_past_gap(line.lineno - last, text)
                                  or line.lineno - open_[0] > _CAPTION_SPAN or _OWN.search(text)
                                  or (open_[1] == AVOIDED and _PREFER.search(text))):
            close(last)  # past the caption's command, or the writer's own run again
            mode = None
        if line.headed:  # a log record ends a caption's block; it is what a server printed
            if mode == "caption":
                close(last)
            last = line.lineno
            continue
        if not line.quoted and (_ASSISTANT_TURN.match(text) or _USER_TURN.match(text)):
            mine = False
            close(line.lineno - 1)  # a new turn of a chat: the last one ends above it
            if _ASSISTANT_TURN.match(text):
                open_ = (line.lineno, ASSISTANT, text.strip(), "post")
        elif not line.quoted and post_author(text) is not None:
            mine = False
            close(line.lineno - 1)  # a new post: a section or a review ends above it
            if _REVIEW_POST.search(text):
                open_ = (line.lineno, REVIEW, text.strip(), "post")
        elif not line.quoted and mode != "post" and review_opener(text):
            close(line.lineno - 1)  # a web copy's review ("bob reviewed on Jul 3"): to the next post
            open_ = (line.lineno, REVIEW, text.strip(), "post")
        elif mode == "post" and _AUTHOR_REPLY.match(text):
            close(line.lineno - 1)  # the author answers inside the review thread
        elif page and _DEPLOY_HEADING.match(text):
            close(line.lineno - 1)  # every engine's command below it is the page's how-to
            out.append(Apart(line.source, line.lineno, _END, DOCS, text.strip()))
            page = False
        elif _HEADING.match(text) and not _TITLE.match(text) and mode != "post":
            close(line.lineno - 1)
            if (why := _section(text)) is not None:
                open_ = (line.lineno, why, text.strip(), "section")
        elif open_ is None and _SUGGESTION_FENCE.match(line.raw):
            open_ = (line.lineno, SUGGESTION, line.raw.strip(), "caption")
        elif open_ is None:
            if carry is not None and line.lineno == last + 1:
                out.append(Apart(line.source, line.lineno, line.lineno, carry[0], carry[1]))
            elif _attributed(text):  # its sentence may end on the next line, which the scan skips
                open_ = (line.lineno, DOCS, text.strip(), "caption")
                goes_on = 1
            elif (why := _caption(text)) is not None and not (mine and why == EXAMPLE):
                open_ = (line.lineno, why, text.strip(), "caption")
            elif _TODO.match(text) or (line.lineno in roadmap and not _SYMPTOM.search(text)
                                       and (not _CHECKED.match(text) or _bare_item(text))):
                out.append(Apart(line.source, line.lineno, line.lineno, GOAL, text.strip()))
            elif _CHECKED.match(text) and len({m.lower() for m in _METHOD.findall(text)}) >= 2:
                out.append(Apart(line.source, line.lineno, line.lineno, CATEGORY, text.strip()))
            elif _LEFT_OUT_WORDS.search(text):
                out.append(Apart(line.source, line.lineno, line.lineno, LEFT_OUT, text.strip()))
            elif _SOURCE_READ.search(text) and not _SOURCE_OWN.search(text):
                open_ = (line.lineno, SOURCE_READ, text.strip(), "section")
            elif _GENERATOR.search(text) and not _OWN.search(text):  # and the flags it adds
                open_ = (line.lineno, GENERATED, text.strip(), "caption")
            elif (why := sentence_apart(text)) == FOREIGN:  # the command and its flag lines
                open_ = (line.lineno, why, text.strip(), "caption")
            elif why is not None:
                out.append(Apart(line.source, line.lineno, line.lineno, why, text.strip()))
        if not line.quoted and _ADOPT.search(text):
            close(last)
            out = _adopted(out)
        mine = mine or (not line.quoted and _telling_mine(text))
        carry = None
        if open_ is None and not line.headed and (why := _carried(text)) is not None:
            carry = (why, text.strip())
        last = line.lineno + goes_on
        goes_on = 0
    if open_ is not None:  # a section or a post runs to the end of the text
        close(last if open_[3] == "caption" else _END)
    return out + _gated(held) + _not_ran(held) + _denials(held, out)


def _gated(held: Sequence[LogLine]) -> list[Apart]:
    """The command lines a gate follows: a command whose next line is a criterion the step
    must meet ("**Gate:** server starts; acceptance target >= 7%", "Pass criteria: ...") is a
    step of a plan, its result still to come; a command the writer ran is followed by what it
    printed or gave. The command's lines (up to its caption, a closing fence between them and
    the gate at most) are a block; none where the text holds a record of a run (a log record,
    a frame through a folder): the plan was carried out."""
    out: list[Apart] = []
    if any(ln.headed or tree_frame(ln.text) for ln in held):
        return out
    for i, line in enumerate(held):
        if not _GATE.match(line.text):
            continue
        first, below = None, line.lineno
        for above in reversed(held[:i]):
            text = above.text
            if not text.strip() and below - above.lineno <= _GATE_GAP:
                continue
            if below - above.lineno > _GATE_GAP or heading_level(text) or text.rstrip(" *`").endswith(":"):
                break
            first, below = above, above.lineno
        if first is not None and any(_CONFIG.search(ln.text) for ln in held[:i] if ln.lineno >= first.lineno):
            out.append(Apart(line.source, first.lineno, line.lineno, GATED, line.text.strip()))
    return out


_GATE_GAP = 2  # lines between a command's lines and its gate (a closing fence, a blank)
# a test's outcome that started nothing: pytest's node id beside SKIPPED / XFAIL / deselected
# ("tests/x/test_y.py::TestZ::test_eagle3 SKIPPED (needs Hopper)", "SKIPPED [1] tests/x.py:40: ...",
# "`test_spec.py::test_mtp[2]` xfail", "1 skipped in 0.31s", "4 deselected")
_NOT_RAN = re.compile(
    r"(?i)\S*\.py::\S+\s+(?:\W\s*)?(?:skipped|xfail(?:ed)?|deselected)\b"
    r"|\b(?-i:SKIPPED|XFAIL)\s+(?:\[\d+\]\s+)?\S*\.py\b|^\W*\d+\s+(?:skipped|deselected|xfailed)\b"
)
# a test's outcome that ran it: a node id passed or failed, a tally of passed or failed tests
_RAN = re.compile(
    r"\b(?:PASSED|FAILED|ERROR|XPASS)\b|(?i:\b\d+\s+(?:passed|failed|errors?)\b)"
    r"|(?i:\S*\.py::\S+\s+(?:\W\s*)?(?:passed|failed|passes|fails)\b)"
)
# a job's status saying it did not run, as a CI or benchmark bot writes it on its status line
# ("**Update 0/5 · blocked before dispatch** · no run", "Status: not dispatched", "Result: skipped
# before launch (no run)"): the words stand between the line's separators, not in a sentence
# ("no run of mine crashed" tells nothing of a job, nor "requests are received and never
# dispatched by the scheduler" of the report's own server)
_NO_RUN_STATUS = re.compile(
    r"(?i)(?:^|[·|•:(\[]|\*\*)\s*(?:\*\*)?\s*(?:(?:blocked|held|stopped|skipped|cancell?ed|rejected|aborted)\s+"
    r"(?:before|prior to)\s+(?:dispatch\w*|launch\w*|start\w*|any run|running)|(?:not|never)\s+(?:yet\s+)?dispatched)\b"
    r"|(?:^|[·|•:(*\[]|\s-)\s*(?:\*\*)?no\s+runs?\s*(?:\*\*)?\s*(?:$|[·|•)\]\\;,]|\s-\s)"
    r"|\bno run (?:took place|was made|happened|was (?:started|launched|dispatched))\b"
)
_NOT_RAN_SPAN = 12  # lines from a check's caption or command down to the outcome it printed


def _no_run_status(held: Sequence[LogLine]) -> Apart | None:
    """A job's status line in a bot's or a writer's post that says the job did not run
    (``_NO_RUN_STATUS``): the post's image, method options and classes (links into a release's
    source, "present in source at that tag") are what it would have run. The block runs to the
    next post; another post's own run still shows."""
    for i, line in enumerate(held):
        if line.quoted or _NO_RUN_STATUS.search(line.text) is None:
            continue
        end = next((ln.lineno - 1 for ln in held[i + 1 :] if not ln.quoted and post_author(ln.text) is not None), _END)
        return Apart(line.source, line.lineno, end, NO_RUN_STATUS, line.text.strip())
    return None


def _not_ran(held: Sequence[LogLine]) -> list[Apart]:
    """The check a text reports whose tests all ended SKIPPED, XFAIL or deselected: pytest
    collected them and started no engine, so neither the caption telling the check ("Tested
    on an L20:", "Verified locally:"), the command above the outcome, nor the test's name (an
    EAGLE3 test's node id) is a run. The block runs from the first line held within
    ``_NOT_RAN_SPAN`` lines above the outcome to it. None where any test passed or failed, or
    the text holds a record of a run (a log record, a frame through a folder)."""
    out: list[Apart] = []
    if any(ln.headed or tree_frame(ln.text) or _RAN.search(ln.text) for ln in held):
        return out
    for i, line in enumerate(held):
        if _NOT_RAN.search(line.text) is None:
            continue
        first = line
        for above in reversed(held[:i]):
            if line.lineno - above.lineno > _NOT_RAN_SPAN or post_author(above.text) is not None \
                    or heading_level(above.text):  # fmt: skip
                break
            first = above
        out.append(Apart(line.source, first.lineno, line.lineno, NOT_RAN, line.text.strip()))
    return out
# a criterion's caption after a plan step: a gate, pass/success/exit/acceptance criteria
_GATE = re.compile(
    r"(?i)^\W{0,4}(?:gates?|(?:pass(?:ing)?|success|exit|acceptance|done)\s+(?:criteria|condition)s?)\b\W{0,4}:"
)


# the writer's own run told in the description ("we ran", "I served", "I've tested", "our
# deployment"); "I have not reproduced it" tells none
_OWN_RUN = re.compile(
    r"(?i)\b(?:I|we)(?:'ve|'d| have| had)?\s+(?:also |just |then |first |now |still |only )?(?:ran|run|runs"
    r"|running|launch\w*|start\w*|serv\w*|deploy\w*|test\w*|benchmark\w*|measur\w*|profil\w*|saw|see"
    r"|seeing|observ\w*|got|get|getting|hit|reproduc\w*|used|use|using|tried|noticed|notice|encounter\w*)\b"
    r"|\b(?:my|our)\s+(?:own\s+)?(?:deployment|server|setup|cluster|runs?|launch|service|benchmark|tests?"
    r"|jobs?|machines?|nodes?|environment|production|prod|workload)\b|我们?(?:用|使用|启动|运行|跑|部署|测试|试了)"
    r"|^\W*(?:tested|verified|validated|benchmarked|ran|reproduced|measured)\b"
)
# a failure or a result the description tells: a run, whoever ran it
_SYMPTOM = re.compile(
    r"(?i)\b(?:crash\w*|fail\w*|errors?|exception|hangs?|hung|stuck|breaks|broke|broken|oom\w*"
    r"|traceback|assert\w*|garbage|garbled|gibberish|wrong|incorrect|mismatch\w*|regress\w*"
    r"|degrad\w*|slow\w*|nan|segfault|illegal|timeouts?|timed out|repeat\w*)\b"
    # a metric that drops ("acceptance drops to 2.1", "throughput dropped by 30%", "a drop in
    # accuracy"), not a setting dropped ("drop `timeout_iters`", "drops the OSL term")
    r"|\b(?:drops?|dropped)\s+(?:to|by|from|off|sharply|significantly|dramatically|heavily|below|under|\d)"
    r"|\b(?:accept\w*|throughput|accuracy|perf\w*|speed|quality|score|tps|rate|length|latency)\s+(?:\w+\s+){0,2}?"
    r"(?:drops?|dropped)\b|\ba\s+(?:\w+\s+)?drop\s+(?:in|of)\b"
    r"|(?<![\w.])\d+(?:\.\d+)?\s*(?:%|x\b|tok(?:en)?s?/s|ms\b)|\b(?:speed-?ups?|accept\w* (?:rate|length)"
    r"|passed|succeeded|verified|validated)\b|报错|崩溃|失败"
)
# the writer says the report comes from the code, not a run ("found by reading the code",
# "Root cause (code-level)", "Code analysis of x.py", "I have not reproduced it")
_CODE_ONLY = re.compile(
    r"(?i)\bfound (?:it |this |them )?(?:by|while|when) (?:reading|reviewing|inspecting|looking)\b"
    r"|\b(?:from|by) (?:reading |inspecting |reviewing )?the (?:code|source)(?: code)?\s*[.;)]"
    r"|\bcode[- ]level\b|\b(?:code|static|source) analysis\b|\bby (?:code )?inspection\b"
    r"|\broot cause (?:is|lies|was) in `[\w.]+(?:\(\))?`|\bis a misleading (?:variable |field )?name\b"
    r"|\b(?:have not|haven't|did not|didn't|not yet|not been|never) (?:yet |been )?reproduc\w*\b(?!\s+(?:it\s+)?"
    r"(?:reliably|consistently|locally|every time|on demand|on main|with))|\bno repro(?:ducer|duction)?\b"
    # an analysis of a code path nobody ran: "the fallback is dead code today", "would be wrong
    # if it ever ran", "can never be correct", "a config missing the key would hit this"
    r"|\bdead code\b|\bif (?:it|this|that|the [\w-]+) (?:ever|were to|was ever) (?:ran|run|runs|fired|triggered"
    r"|executed|taken|reached|hit)\b|\bcan never be (?:correct|right|reached|taken|hit|valid)\b"
    r"|\bwould (?:silently )?hit (?:this|it)\b"
)
# a link to source lines ("https://github.com/org/repo/blob/<ref>/path/file.py#L650")
_SOURCE_LINK = re.compile(r"github\.com/[\w.-]+/[\w.-]+/blob/[^\s/]+/\S+\.(?:py|cu|cuh|cc|cpp|h|rs|go)#L\d+")
# another project's sentence making an engine the subject of a setting: "When sglang is launched
# with --speculative-algorithm EAGLE3, ...", "If vLLM is started with `--speculative-config`",
# "With SGLang using NEXTN, the engine returns ..."
_DESCRIBED = re.compile(
    r"(?i)\b(?:when|if|whenever|once|while)\s+(?:the\s+|an?\s+)?(?:sglang|vllm|tensorrt-llm|trt-?llm)\b"
    r"(?:\s+[\w-]+){0,3}?\s+(?:is\s+|are\s+|gets\s+)?(?:launch\w*|start\w*|runs?|running|serv\w*"
    r"|configured|deployed|used)\b[^.;]{0,60}?\bwith\b"
    r"|\bwith\s+(?:sglang|vllm|tensorrt-llm|trt-?llm)\s+(?:using|running)\s+\S"
)
# a pull request saying it only adds or copies configuration ("Config only", "same as
# `vllm.yaml` but with ...", "matches the sibling configs", "No other changes")
_CONFIG_ONLY = re.compile(
    r"(?i)\bconfig(?:uration)?[- ]only\b|\bno (?:other|code|library|functional) changes?\b"
    r"|\bchanges? no (?:library |other |functional )?code\b|\b(?:everything|all) else (?:matches|is the same|is unchanged)\b"
    r"|\bmatch(?:es|ing)? (?:the |its )?sibling\w*|\bmirror(?:s|ing)? the existing\b"
    r"|\bsiblings? of the existing\b|\b(?:byte[- ])?identical to (?:the |its )?(?:existing|sibling)"
    r"|\bexisting\s+`?[\w./-]+`?\s+siblings?\b"
    r"|\b(?:same as|identical to|a copy of|copied from) (?:the existing )?`?[\w./-]+\.(?:ya?ml|json|toml|sh)\b"
)


# a web copy's byline of a pull request's description: its state, its author, its day ("Open ·
# alice · 2026-07-15", "Closed · bob · 2026-08-19")
_STATE_BYLINE = re.compile(r"(?i)^\s*(?:open|closed|merged|draft)\s+·\s+@?[\w.-]+\s+·\s+\S")
# a pull request's title fixing something ("[Bugfix] ...", "fix(spec): ...", "[None][fix] ...")
_FIX_TITLE = re.compile(r"(?i)\bfix\w*|\bbug\w*|\bhotfix\b")


# a figure a run printed or measured ("mem usage=5.20 GB", "41.2 s", "3.1 tok/s", "92%", "#tokens: 270K")
_RUN_FIGURE = re.compile(r"(?i)(?<![\w.])\d+(?:\.\d+)?\s?(?:[kmgt]i?b|k|ms|s|tok/s|tokens?/s|it/s|%|x)(?!\w)|\b[\w#]+\s?[=:]\s?\d")


def _code_fix(held: Sequence[LogLine], repo: str | None, title: str) -> Apart | None:
    """A fix pull request in an engine's own tree or a fork (``engine_fork``) whose title names a
    method but no failure a run met ("Fix EAGLE draft rotation under chunked prefill", not "Fix
    EAGLE crash with DP attention"), and none of whose posts' lines (the description's or only
    comments') tells a run: no block pasted (a fence: a run's output, whatever its lines), no
    record a process printed or figure a run measured (``record_form``, ``_RUN_FIGURE``), no
    run of the writer's (``_OWN_RUN``: "Tested Eagle3 ... on 2x A3"), no failure or result
    (``_SYMPTOM``: "without this fix, fails at load"), nothing a fix's run shows
    (``fix_evidence``: a release, a rig, an error's output; ``told_run``), and a method named
    below the title only beside code (a code span: "the EAGLE helper reads `req.fill_ids`"; a
    setup item "- EAGLE3: on" is a run's). Its words tell the code it changes: the title line is
    set apart (``FIX_TOLD``), so its method names no run."""
    if repo is None or not engine_fork(repo) or not _FIX_TITLE.search(title) or not _METHOD.search(title) \
            or _SYMPTOM.search(title):  # fmt: skip
        return None
    head: LogLine | None = None
    for line in held:
        text = line.text
        if head is None:  # the head and title lines above the first post
            if _TITLE.match(text) or title.strip() in text:
                head = line
            continue
        if post_author(text) is not None or _STATE_BYLINE.match(text) or head_line(text) is not None:
            continue
        if FENCE.match(text) or line.headed or record_form(line) or _RUN_FIGURE.search(text) \
                or _OWN_RUN.search(text) or own_run(text) or _SYMPTOM.search(text) or fix_evidence(text) \
                or told_run(text) or (_METHOD.search(text) and "`" not in text):  # fmt: skip
            return None
    if head is None:
        return None
    return Apart(head.source, head.lineno, head.lineno, FIX_TOLD, head.text.strip())


def _denials(held: Sequence[LogLine], apart: Sequence[Apart] = ()) -> list[Apart]:
    """The lines that deny the thread a run (``DENIALS``): the text is a page of instructions
    to the reader (``_instructions``), an issue on a feature form or titled as a how-to question
    (``_asked_thread``), or its description tells no failure and no run of the writer's own, and
    says the report comes from reading code, or (a pull request) points at source lines,
    describes as another project how the engine behaves under a setting, or only adds or
    changes configuration. Each such line is a block of its own; the gate reads the thread by
    its own lines then (a crash, a run line, the run's config). A fix's evidence is never a line
    of an example block among ``apart`` (the blocks the text's captions set apart): "published
    recipes use it, e.g." over a ``--speculative-config`` is what others run."""
    repo, kind, head_title = _thread(held)
    title = next((ln.text for ln in held if _TITLE.match(ln.text)), "")
    head_title = head_title or title.lstrip("# ")
    desc: list[LogLine] = []
    opened = False
    for line in held:
        if not line.quoted and (post_author(line.text) is not None or _STATE_BYLINE.match(line.text)):
            if opened:
                break
            opened = opens_thread(line.text) or _STATE_BYLINE.match(line.text) is not None
            continue
        if opened and not line.headed:
            desc.append(line)
    if (tests := _unit_tests(held)) is not None:  # test ids name the code under test, nothing served
        return [Apart(tests.source, held[0].lineno, _END, UNIT_TESTS, tests.text.strip())]
    if (stop := _launch_stopped(held)) is not None:  # the launcher failed: no engine started
        line, method, why = stop
        said = f"{why}: configured {method or 'a method'}; no worker started: the run stopped at line {line.lineno}"
        return [Apart(line.source, held[0].lineno, _END, said, line.text.strip())]
    # output a page shows its reader to expect is no run's record (a log's lines are read once
    # more only where a line captions such output)
    expected = expected_lines(held) if any(not ln.headed and expected_caption(ln.text) for ln in held) else frozenset()
    if any(ln.headed and ln.lineno not in expected for ln in held):
        return []  # a log record: a server printed it, whatever the PR adds
    if (blank := _template(held)) is not None:  # result fields left to fill: a sheet for a run to come
        return [Apart(blank.source, held[0].lineno, _END, TEMPLATE, blank.text.strip())]
    if (steps := _instructions(held, kind is not None, expected)) is not None:  # the whole page is what a reader would run
        return [Apart(steps.source, held[0].lineno, _END, INSTRUCTIONS, steps.text.strip())]
    if (guide := _guide(held)) is not None:  # a guide's commands under its headings, nothing printed
        return [Apart(guide.source, held[0].lineno, _END, INSTRUCTIONS, guide.text.strip())]
    if (book := _runbook(held)) is not None:  # numbered steps for the reader, nothing printed
        return [Apart(book.source, held[0].lineno, _END, INSTRUCTIONS, book.text.strip())]
    if (doc := _document(held, kind is not None)) is not None:  # notes, a tutorial, a README, a spec
        return [Apart(doc.source, held[0].lineno, _END, DOCUMENT, doc.text.strip())]
    if kind is None and (doc := _config_file(held)) is not None:  # a saved YAML file of settings
        return [Apart(doc.source, held[0].lineno, _END, DOCUMENT, doc.text.strip())]
    if kind is None and (doc := _unrecorded(held)) is not None:  # sections with no record of a run
        line, why = doc
        return [Apart(line.source, held[0].lineno, _END, why, line.text.strip())]
    if (digest := _digest(held)) is not None:  # several threads' titles and summaries
        return [Apart(digest.source, held[0].lineno, _END, DIGEST, digest.text.strip())]
    if (rejected := _rejected(held)) is not None:
        return [rejected]
    if (stopped := _harness_stopped(held)) is not None:  # its path and words label a run never made
        return [Apart(stopped.source, held[0].lineno, _END, HARNESS_STOPPED, stopped.text.strip())]
    if (status := _no_run_status(held)) is not None:  # a job's status: it never ran
        return [status]
    asked = _asked_thread(held, head_title) if kind != "pull" else None
    if asked is not None:  # its own lines (a launch, a crash, a result) still show a run
        return [asked]
    if not _SETUP.search(head_title) and (readings := _code_readings(held)):
        return readings  # every post that says anything reads source, and no title tells a setup
    if kind == "pull" and (fix := _code_fix(held, repo, head_title)) is not None:
        return [fix]  # an engine's fix telling only its code change: its title's method ran nothing
    if not opened or any(_OWN_RUN.search(ln.text) for ln in desc):
        return []  # no description post seen (its byline), or the writer's own run in it
    pull = kind == "pull"
    out: list[Apart] = []

    def deny(lines: Sequence[LogLine], why: str) -> None:
        out.extend(Apart(ln.source, ln.lineno, ln.lineno, why, ln.text.strip()) for ln in lines)

    code_only = [ln for ln in desc if _CODE_ONLY.search(ln.text)]
    quiet = not any(_SYMPTOM.search(ln.text) for ln in desc if ln not in code_only)
    if quiet:  # the analysis's own sentence may name what goes wrong ("the wrong request's")
        deny(code_only, CODE_ONLY)
    if not pull:
        return out
    tests = _under_tests(desc)
    examples = [b for b in apart if b.why == EXAMPLE]  # what others run, not the fix's own run
    told = [ln for ln in held if not ln.quoted and not any(b.holds(ln.source, ln.lineno) for b in examples)]
    if _FIX_TITLE.search(head_title) and not any(fix_evidence(ln.text) or told_run(ln.text) for ln in told) \
            and not any(row_under_tests(ln.text) for ln in tests):  # fmt: skip
        deny(desc[:1], FIX_TOLD)  # its Motivation and Root cause reason about code paths
        # what its sentences outside its tests tell of a failure is the bug it fixes, met
        # under the conditions they name ("When MTP and strict tool calling are used together,
        # requests intermittently fail"): the fixed issue's run, not one of the PR's own
        deny([ln for ln in desc[1:] if ln not in tests and result_line(ln.text)], FIX_TOLD)
    if quiet and not _SYMPTOM.search(title):
        deny([ln for ln in held if not ln.quoted and not ln.headed and _SOURCE_LINK.search(ln.text)], LINKED_CODE)
    if tracker_engine(repo) is None:
        deny([ln for ln in desc if _DESCRIBED.search(ln.text)], DESCRIBED)
    if quiet:
        deny([ln for ln in desc if _CONFIG_ONLY.search(ln.text)], CONFIG_ONLY)
    if repo is not None and tracker_engine(repo) is None and not engine_fork(repo) \
            and _config_change(held, title, desc):  # fmt: skip
        deny([next(ln for ln in held if not ln.quoted and opens_thread(ln.text))], CONFIG_CHANGE)
    return out


def _under_tests(lines: Sequence[LogLine]) -> list[LogLine]:
    """The lines under a section of the text's own tests (``run_results.heading_tested``: "##
    Test Result", "## Validation", "### How was this patch tested?"), their headings included."""
    out: list[LogLine] = []
    tested = False
    for line in lines:
        tested = heading_tested(line.text, tested)
        if tested:
            out.append(line)
    return out


# a code reading's marks: a source location written as ``file.py:N`` outside a frame's shape (a
# traceback's ``File "...", line N`` has none; py-spy's ``func (file.py:N)`` and a logger's
# ``[file.py:N]`` are kept out), the current tree named as what was read ("on current main",
# "against HEAD", "in the current source", "看了 main 上的代码"), a commit hash in backticks or
# parentheses, a TODO or FIXME quoted from the source, and a request for the reporter's config
# ("Could you share the launch command", "What does your yaml look like", "能否提供启动命令")
_LOCATION = re.compile(
    r"(?<![\w/\[.-])(?:[\w.-]+/)*[\w.-]+\.(?:py|cc|cpp|cu|cuh|h|rs|go):L?\d+\b"
    r"|/blob/[^\s/]+/\S+\.(?:py|cc|cpp|cu|cuh|h|rs|go)#L\d+"  # a link to source lines ("...#L662-L675")
)
# a link to source lines on the tree's current branch ("github.com/o/r/blob/main/x.py#L700")
_TREE_LINK = re.compile(r"/blob/(?:main|master|HEAD)/\S+#L\d+")
# an issue form's environment value left as the form gave it (vLLM's bug form: "Your output of
# `python collect_env.py` here"): the reporter pasted no environment of a run
_FORM_VALUE = re.compile(r"(?i)\byour output of `?python3? collect_env\.py`? here\b")
# an inline code span naming code: a call, a private or snake_case name, a dotted attribute
# (`torch.argmax(logits)`, `_is_hip`, `accept_index`); not a flag, a path or a setting's value
_CODE_SPAN = re.compile(r"`([^`\n]{1,80})`")
_SYMBOL = re.compile(
    r"^(?:[A-Za-z_][\w.]*\([^()]*\)|_[A-Za-z]\w*|[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*){2,})$"
)
_SYMBOLS = 3  # distinct code names a post quotes when it reasons about code
_PY_SPY = re.compile(r"\w \((?:[^()`\s]*/)?[\w.-]+\.py:\d+\)")
_CURRENT_TREE = re.compile(
    r"(?i)\b(?:on|against|at|of)\s+(?:the\s+)?(?:current\s+|latest\s+|today'?s\s+)?(?:main|master"
    r"|trunk)\b(?![-_./])|\b(?:on|against|at)\s+HEAD\b|\bcurrent\s+(?:main|master|source|code|tree|HEAD)\b"
    r"|\b(?:in|reading|read|through)\s+the\s+(?:current\s+)?source\b|当前\s*main|main\s*(?:分支)?\s*上?的?代码"
    r"|看了[^。]{0,16}代码"
)
_COMMIT = re.compile(r"[`(]\s*(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\s*[`)]")
_TODO_QUOTED = re.compile(r"\b(?:TODO|FIXME)\b")
_ASKS_CONFIG = re.compile(
    r"(?i)\b(?:could|can|would|will)\s+you\s+(?:please\s+)?(?:share|post|paste|pin|provide|send|attach"
    r"|give|tell|confirm|include|list)\b|\bplease\s+(?:share|post|paste|provide|send|attach)\b"
    r"|\bwhat\s+(?:does|do|is|are)\s+your\b"
    r"|(?:能否|请|麻烦|可以|能不能)\s*(?:提供|贴|发)"
)
# what the request asks for: the run's own configuration
_CONFIG_ASKED = re.compile(
    r"(?i)\b(?:config\w*|command|flags?|args|arguments|launch|setup|settings?|versions?|commit|ya?ml"
    r"|env\w*|server[_ ]args|options)\b|命令|配置|参数|版本"
)


def _reading_marks(text: str) -> set[str]:
    """The kinds of code-reading marks one line holds."""
    marks = set()
    located = _PY_SPY.sub(" ", text)
    if _LOCATION.search(located):
        marks.add("location")
    if _CURRENT_TREE.search(text) or _TREE_LINK.search(text):
        marks.add("tree")
    if _FORM_VALUE.search(text):
        marks.add("form")
    if _COMMIT.search(text):
        marks.add("commit")
    if _TODO_QUOTED.search(text):
        marks.add("todo")
    if (asked := _ASKS_CONFIG.search(text)) is not None and _CONFIG_ASKED.search(text, asked.end()):
        marks.add("asks")
    return marks


def _posts(held: Sequence[LogLine]) -> list[list[LogLine]]:
    """The text's posts, each its unquoted lines below its header (a text with no post header
    is one post, its title and thread head aside); the head and title above the first post
    belong to none."""
    if not any(not ln.quoted and post_author(ln.text) is not None for ln in held):
        return [[ln for ln in held if not ln.quoted and not _TITLE.match(ln.text)
                 and head_line(ln.text) is None]]  # fmt: skip
    posts: list[list[LogLine]] = []
    for line in held:
        if line.quoted:
            continue
        if post_author(line.text) is not None:
            posts.append([])
        elif posts:
            posts[-1].append(line)
    return [p for p in posts if p]


# a title telling the reporter's setup: a release ("still on v0.27.1"), an accelerator ("RTX 5090",
# "8xH200", "MI355X"): the thread reports a run, whatever its replies read in the source
_SETUP = re.compile(
    r"(?i)(?<![\w.])v?\d+\.\d+(?:\.\d+)*(?:rc\d+|\.?post\d+|\.dev\d+)?(?![\w.])"
    r"|(?<![\w.])(?:\d+\s?x\s?)?(?:h\d{2,3}|b\d{3}|a\d{2,3}|l\d{2}s?|gb\d{2,3}|mi\d{3}x?|rtx\s?\d{4}"
    r"|tpu\s?v?\d\w*|gaudi\d?|sm_?\d{2,3})(?![\w.])"
)


def _code_readings(held: Sequence[LogLine]) -> list[Apart]:
    """The lines of each post that reads the engine's source instead of running it, where no
    other post tells a run or a failure: a maintainer's reply tracing a bug through the current
    tree ("on current main (`05e40922b3`) `forward_batch_info.py:483` now does ...", a quoted
    ``TODO``) and asking the reporter for the serving config shows no run, whatever the title
    names. A post is such a reading by three kinds of marks (``_reading_marks``), one of them a
    source location or a quoted TODO, and no run of the writer's own (``_OWN_RUN``); a post
    telling a failure ("crashes at `eagle_worker.py:828` on main") is one only where it asks
    the reporter for the run's config (the failure it names is the reporter's)."""
    readings, others = [], []
    for post in _posts(held):
        marks = set().union(*(_reading_marks(ln.text) for ln in post))
        if len({m for ln in post for m in _CODE_SPAN.findall(ln.text) if _SYMBOL.match(m.strip())}) >= _SYMBOLS:
            marks.add("symbols")
        own = any(_OWN_RUN.search(ln.text) for ln in post)
        told = "asks" in marks or not any(_SYMPTOM.search(ln.text) for ln in post)
        if len(marks) >= 3 and marks & {"location", "todo"} and not own and told:
            readings.append(post)
        else:
            others.append(post)
    if not readings or any(_OWN_RUN.search(ln.text) or _SYMPTOM.search(ln.text) for p in others for ln in p):
        return []
    return [Apart(ln.source, ln.lineno, ln.lineno, CODE_ONLY, ln.text.strip()) for p in readings for ln in p]


# a table cell saying a setting is off ("none", "off", "disabled", "unset", "无", "нет"); a dash
# or "n/a" is a cell left empty (a figure not measured), not a setting
_OFF_CELL = re.compile(
    r"(?i)^(?:none|off|disabled?|false|no|unset|not set|无|关闭|不开启|なし|нет|выкл\w*|ninguno)$"
)
_ROW_FIRST = re.compile(r"^\s*\|")


def compared_off(text: str) -> bool:
    """The line is a Markdown table row comparing setups, one of whose cells past the first
    says the setting is off ("| Spec decoding | none | MTP, `num_nextn_predict_layers: 3` |"
    under "| Setting | Naive (crashed) | Official recipe |"): the method in another cell is
    another column's setup, and the row does not say which one ran or crashed."""
    if _ROW_FIRST.match(text) is None or text.count("|") < 4:
        return False
    cells = [c.strip(" `*_") for c in text.strip().strip("|").split("|")]
    return len(cells) >= 3 and any(_OFF_CELL.match(c) for c in cells[1:])


def _document(held: Sequence[LogLine], thread: bool) -> LogLine | None:
    """The line that makes the text a document telling the reader about the engine (a section
    heading of requirements, installation, a tutorial's core idea, in any language; a file's
    line count or the source named as what is read; a class skeleton with elided bodies; the
    log lines to expect; how to enable a feature, a plan's ranked items; a program's source),
    where nothing in it shows a run of its own: no post header (a thread), no frame through a
    folder, no writer telling a run of theirs or a result, no failure but as a condition the
    text gives (a flag's name, a hardware count, a traceback's header tell none; ``documents``
    reads these in other languages). Its launch commands, snippets and flag lists are what a
    reader would run, not a run. A script inside an issue or pull request (``thread``: its
    tracker head) is the reporter's repro."""
    first: LogLine | None = None
    script = not thread and source_file([ln.text for ln in held])  # its comments say why, it printed nothing
    section: tuple[int, str] = (0, "")  # the open section's heading level and kind: "expect", "setup"
    checklist = False  # below a caption of what the reader must see or record, to the section's end
    docstring = False  # inside a script's docstring: what the program does, no run of its own
    for line in held:
        text = line.text
        if post_author(text) is not None or tree_frame(text):
            return None  # a thread's post; a crash pasted from a run (a blockquote is neither)
        if script and (docstring or len(DOCSTRING_QUOTES.findall(text)) % 2):
            docstring = docstring != bool(len(DOCSTRING_QUOTES.findall(text)) % 2)
            continue  # "reports TPOT / speedup figures": the harness's purpose, not its result
        if level := heading_level(text):
            kind = "expect" if expect_section(text) else "setup" if setup_section(text) else ""
            section = (level, kind) if kind or not section[0] or level <= section[0] else section
            checklist = False
        if checklist_caption(text):
            checklist = not level
            first = first or line  # the lines a start must show: a document's, like expected lines
        if section[1] == "expect" or checklist or expect_mark(text) or (
                script and _SHELL_COMMENT.match(text) and _EXPLAINS.search(text)):  # fmt: skip
            continue  # what the reader should see or may meet, why a script sets what it sets
        if script and _CODE_CHECK.match(text):
            continue  # "assert match, ...", "raise ValueError(...)", "except RuntimeError:": code, no failure
        text = _SCRIPT_WORDS.sub(" ", text) if script else text  # its notes and messages: no run's
        words = told(text)  # no flag names, hardware counts, traceback header
        if _SYMPTOM.search(words) and not CONDITION.search(words):
            return None
        if own_run(words) or (section[1] != "setup"  # "we used chi2879" under Prerequisites: the setup
                              and ((_OWN_RUN.search(text) and not tested_on(text)) or _FIRST_PERSON.search(text))):
            return None
        if first is None and (section_heading(text) or study_line(text) or expected_line(text)
                              or how_to_line(text)):
            first = line
    texts = [ln.text for ln in held]
    if first is None and skeleton(texts):
        first = next(ln for ln in held if _DEF_LINE.search(ln.text))
    if first is None and not thread and source_file(texts):  # a serve script: no output of its own
        first = held[0]
    return first


def _unrecorded(held: Sequence[LogLine]) -> tuple[LogLine, str] | None:
    """The first heading of a document (a saved notes, design or plan file; a text of
    sections) that holds no record of a run: no log record, no post, no frame through a
    folder (a crash of its own shows the run by itself), no writer telling a run of theirs, no
    figure a run gave outside what the reader should expect, and no outcome told in the past
    ("crashed", "failed with", "timed out"). Its failure words are then its subject (a
    symptom it explains, a condition it plans for: "if the draft crashes, inspect ...") and
    its commands and configs what a reader would run: a recon note, a design doc, a fix
    plan, a rollout plan. A document that says what happened when it ran shows the run, unless
    every engine launch it holds is a plan (``_launched_in_plans``: ``PLANNED_ONLY``) and no run
    it tells names the engine or its serving beside a speculative method ("we served EAGLE-3 and
    the scheduler crashed"). Returns the line and the reason."""
    from spectrace.assemblers.saved_file import saved_file  # it reads family words: path_base's cycle

    if not held:
        return None
    saved = saved_file(held[0].raw)
    heads = [ln for ln in held if heading_level(ln.text) >= 2]
    titled = any(heading_level(ln.text) == 1 for ln in held[:2])  # a caption line above the title at most
    if saved is None and (len(heads) < _DOC_HEADINGS or not titled):
        return None  # not a document of sections under its title: a pasted report, a bare log
    if not any(heading_level(ln.text) for ln in held):
        return None  # a saved file of commands and notes with no heading: a session's own record
    if any(issue_head(ln.text) for ln in held[:2]):
        return None  # a saved issue (a wiki's "# owner/repo#N: [Bug] ..."): its body tells a run
    if saved is not None and saved.output:
        return None  # a run's own output file
    if _process_record(held):
        return None  # a table of the processes its runs ran as (its reproductions, its jobs)
    expect = 0  # the level of an open section of what to expect, 0 for none
    told_run = False  # a line tells a run of the writer's, an outcome in the past or a figure it gave
    shown: list[LogLine] = []  # the lines outside a section of what to expect
    served = False  # ... and names an engine or its serving beside a speculative method
    for at, line in enumerate(held):
        text = line.text
        if line.headed or post_author(text) is not None or tree_frame(text) or RECORD_SHAPE.search(text):
            return None  # (RECORD_SHAPE: a record with its prefix cut, "Worker pid=56] x.py:12] ...")
        if level := heading_level(text):
            expect = level if expect_section(text) else (0 if level <= expect or not expect else expect)
            # a section reporting the writer's dated, measured or verified results over their
            # figures ("## M1 results (2026-06-21)" inside a design doc): the doc tells its run
            told_run = told_run or (not expect and reported_heading(held, at))
            continue
        if expect or expect_mark(text) or checklist_caption(text) or served:
            continue
        shown.append(line)
        words = told(text)
        if own_run(words) or writer_run(text) or _FIRST_PERSON.search(text) or (
                _OWN_RUN.search(text) and not tested_on(text)) or _PAST_OUTCOME.search(words) or any(
                not _target(words[: m.start()]) for m in _RAN_FIGURE.finditer(words)) or any(
                not _target(words[: m.start()]) for m in COUNTERS.finditer(words)):  # fmt: skip
            # (not a figure set as a target: "Expected — rejected drafts −35%", "(>70%)")
            told_run = True
            served = _ENGINE_TOLD.search(text) is not None and _SPECULATIVE.search(text) is not None
    # (a table of measured figures outside what the reader should expect: the figures a run gave)
    told_run = told_run or (not served and _results_report(shown))
    if told_run and (served or not _launched_in_plans(held)):
        return None  # the runs it tells may be the engine's
    return heads[0] if heads else held[0], PLANNED_ONLY if told_run else UNRECORDED


def _launched_in_plans(held: Sequence[LogLine]) -> bool:
    """Every engine launch command of a document with no record of a run sits in a plan: a
    step a gate follows (``_gated``), a line or caption that marks it planned, next or still
    to run ("**Serve command (planned):** `vllm serve ...`", "Next run:"), or a section headed
    as the plan, its subsections included ("## Roadmap" / "### Phase 3"); and no line gives a speculative figure (an acceptance, a
    speed-up) as a result. The runs such a document tells (a calibration, a conversion, a
    build) are other programs': the engine it would serve with was never started."""
    launches = [ln for ln in held if _ENGINE_LAUNCH.search(ln.text)]
    if not launches:
        return False
    gated = _gated(held)
    section = 0  # the level of an open section headed as the plan (its subsections stay in it), 0 for none
    caption = ""  # the last line above that may caption a command block
    planned: set[int] = set()
    titled = False  # past the title: a later "# ..." line is a script's comment in a block, no heading
    for line in held:
        text = line.text
        if (level := heading_level(text)) and not (level == 1 and titled):
            section = level if _PLAN_HEADING.search(text) else (section if section and level > section else 0)
            titled, caption = True, ""
            continue
        if _SPEC_RESULT.search(text) and not (EXPECTED.search(text) or ATTRIBUTED.search(text)
                                              or _TARGET.search(text) or _BOUND.search(text)):  # fmt: skip
            return False  # an acceptance or a speed-up the document reports, not one it aims at
        label = _LABEL.match(text)
        mood = (label is not None and _PLAN_MOOD.search(label.group(1)) is not None) or (
            caption and _PLAN_MOOD.search(caption) is not None)  # fmt: skip
        if section or mood:
            planned.add(line.lineno)
        if text.rstrip(" *`").endswith(":") and not _ENGINE_LAUNCH.search(text):
            caption = text
    return all(ln.lineno in planned or any(b.holds(ln.source, ln.lineno) for b in gated) for ln in launches)


# an engine or its serving named in a told run ("we served it on vLLM", "the server crashed"),
# not a repository of the engine's organisation ("vllm-project/llm-compressor")
_ENGINE_TOLD = re.compile(
    r"(?i)(?<![\w/.-])(?:vllm|sglang|trt-?llm|tensorrt[- ]llm)(?![\w/-])|\bserv(?:e|ed|es|ing|er)\b|\blaunch\w*"
)
# an engine's launch command, as a document writes it (lower case: "vLLM serve smoke" is a phase's name)
_ENGINE_LAUNCH = re.compile(r"\b(?:vllm serve|vllm\.entrypoints|sglang\.launch_server|sglang serve|trtllm-serve)\b")
# a line's label: a bullet's or a bold lead's words up to its colon ("- **Serve command (planned):** ...")
_LABEL = re.compile(r"^\W{0,6}([^:`]{1,60}?)\**\s*:")
# the mood of a plan: planned, proposed, next, pending, still to run
_PLAN_MOOD = re.compile(
    r"(?i)\b(?:planned|proposed|tentative|upcoming|pending|todo|tbd|next|not (?:yet )?(?:run|tried|started)"
    r"|to (?:be )?run|will run|to try)\b"
)
# a section headed as the plan ("## Next steps", "## Plan", "### TODO", "## Future work")
_PLAN_HEADING = re.compile(
    r"(?i)^\W*#{1,6}\s+(?:\d+[.)]?\s+)?(?:next\s+steps?|(?:the\s+)?plan(?:ned\s+\w+)?|todo|to\s+do|roadmap"
    r"|future\s+work|what'?s\s+next|upcoming)\b"
)
_BOUND = re.compile(r"[<>≤≥]\s*=?\s*\d")  # a threshold ("acceptance rate >= 7%")
# a speculative figure a run gives: an acceptance rate or length, a speed-up
_SPEC_RESULT = re.compile(
    r"(?i)\baccept\w*(?:[\s_]+(?:rate|len\w*|percent))?\W{0,6}(?:[\w-]+\W{1,3}){0,2}\d"
    r"|(?<![\w.])\d+(?:\.\d+)?\s*(?:x|×)\s*(?:speed-?up|faster)\b|\bspeed-?up\W{0,6}(?:of\s+)?\d"
)


_DOC_HEADINGS = 2  # section headings below its title that make a text a document
# a figure a run gives: a speed, a latency, a share, an acceptance figure
_RAN_FIGURE = re.compile(
    r"(?i)(?<![\w.])\d+(?:\.\d+)?\s*(?:tok(?:en)?s?/s|tokens?/sec|req/s|ms\b|%)"
    r"|\baccept\w*\s+(?:len\w*|rate)\s*[:=]?\s*\d"
)
# where a figure's clause starts, and the words that make the figure a target, not a result
_CLAUSE_START = re.compile(r"[.;/|]\s")
_TARGET = re.compile(r"(?i)\b(?:expect\w*|targets?|goals?|should|must|aim\w*|want\w*|gate)\b")
_THRESHOLD = re.compile(r"[<>≤≥]=?\s*$")


def _target(before: str) -> bool:
    """The figure after ``before`` is a target or a threshold, not a result: its clause says so
    ("expected", "target", "should"), or a comparison sign stands right before it ("(>70%)")."""
    return _THRESHOLD.search(before) is not None or _TARGET.search(_CLAUSE_START.split(before)[-1]) is not None


# an outcome told in the past: the text reports what happened when something ran
_PAST_OUTCOME = re.compile(
    r"(?i)\b(?:crashed|failed|died|hung|errored|aborted|segfaulted|oom(?:ed|'d)|deadlocked|timed out"
    r"|blew up|diverged|regressed|stalled)\b"
    r"|\b(?:was|were)\s+(?:\w+\s+)?(?:garbled|broken|wrong|incorrect|killed|slower|stuck)\b"
)


def _config_file(held: Sequence[LogLine]) -> LogLine | None:
    """The first line of a saved YAML file (a recipe, a chart's values, a test job's cases): every
    line the scan kept is a mapping key (``key: value``, ``key:``, a list item of one), a list
    item of a scalar (``- "--speculative-config"``, ``- '{"method": ...}'``, a compose or
    Kubernetes list's plain word ``- sglang.launch_server``), a line of a block scalar (a
    ``command: >`` folded over lines) or a comment, and
    none is a log record, a frame through a folder, a sentence or a command. Its first line may
    name the file (``... · recipes/x.yaml (commit ...)``); a file saved bare needs a speculative
    setting among its keys (the scan keeps some lines only). A file of settings printed nothing
    and ran nothing; the run that used it would show its own lines."""
    if not held:
        return None
    captioned = held[0].lineno == 1 and _CONFIG_NAME.search(held[0].text) is not None
    body = [ln for ln in (held[1:] if captioned else held) if ln.text.strip()]
    for line in held:
        if line.headed or post_author(line.text) is not None or tree_frame(line.text):
            return None
    folded = _block_scalars(body)
    keys = [ln for ln in body if _YAML_KEY.match(shown := ln.raw if ln.raw.strip() else ln.text)
            or _YAML_ITEM.match(shown) or ln.lineno in folded]  # fmt: skip
    loose = [ln for ln in body if ln not in keys and not _TB_LINE.match(ln.text)]
    if loose or not keys or any(_RESULT_KEY.match(ln.text) or _LIVE_KEY.match(ln.text) for ln in keys):
        return None  # a measured result, a live object's status: the record of a run that used them
    if captioned:
        return keys[0] if len(keys) >= _CONFIG_FILE_KEYS else None
    # bare: at least two settings, one of them speculative (a key, or a flag the list item gives)
    return keys[0] if len(keys) >= 2 and any(_SPEC_SETTING.search(ln.text) for ln in keys) else None


def _block_scalars(body: Sequence[LogLine]) -> frozenset[int]:
    """The line numbers of the lines inside a YAML block scalar (``command: >`` or ``args: |``,
    then lines indented deeper than its key: a compose service's command folded over lines):
    one setting's value, however it reads."""
    out: set[int] = set()
    key = -1  # the indentation of the open block scalar's key, -1 for none
    for line in body:
        shown = line.raw if line.raw.strip() else line.text
        indent = len(shown) - len(shown.lstrip())
        if key >= 0 and indent > key:
            out.add(line.lineno)
            continue
        key = indent if _BLOCK_KEY.match(shown) else -1
    return frozenset(out)


# a key of a run's measured result with its figure (``mean_acceptance_length: 2.41``,
# ``output_throughput: 151.3``, ``p99_ttft_ms: 80``): a results record, YAML's form of
# run_forms' JSON "result record"
_RESULT_KEY = re.compile(
    r"(?i)^\s*(?:-\s+)?(?:(?:mean|median|avg|p\d\d)_)?(?:ttft|tpot|itl|e2el|output_throughput"
    r"|request_throughput|total_token_throughput|throughput|acceptance_rate|acceptance_length"
    r"|accept_length|acceptance_len|accepted_tokens)\w*\s*:\s*\d"
)
# a field the cluster fills in on a live object (``kubectl get -o yaml``: its status, its
# containers' restarts and start times), never written in a manifest
LIVE_FIELDS = ("creationTimestamp", "resourceVersion", "lastTransitionTime", "observedGeneration",
               "readyReplicas", "restartCount", "containerStatuses")
_LIVE_KEY = re.compile(rf"^\s*(?:-\s+)?(?:{'|'.join(LIVE_FIELDS)})\s*:")
# a mapping key opening a block scalar: ``command: >``, ``args: |-``, ``script: >2``
_BLOCK_KEY = re.compile(r"^\s*(?:-\s+)?[A-Za-z_][\w.-]*\s*:\s*[>|][-+]?\d?\s*(?:#.*)?$")

_CONFIG_FILE_KEYS = 4
# a YAML list item of one scalar: a quoted string, a flag, a number, a JSON object in quotes, or
# one plain word of a compose or Kubernetes list (``- sglang.launch_server``, ``- Qwen/Qwen3-8B``,
# ``- SGLANG_ENABLE_SPEC_V2=1``, ``- ${HF_TOKEN}``: a program's argument or an environment entry)
_YAML_ITEM = re.compile(
    r"""^\s*-\s+(?:"[^"]*"|'[^']*'|--?[\w-]+|[\d.]+|(?:\$\{|[\w$])[^\s#'"`\[\],&*!|>%@]*)\s*(?:#.*)?$"""
)
# a speculative setting: a key or a flag naming it (``--speculative-config``, a fork's
# ``--spec-method``)
_SPEC_SETTING = re.compile(
    r"(?i)\bspeculative[-_](?:config|algorithm|method|model|draft)|\bdecoding_type\b"
    r"|--spec[-_](?:method|config|algo\w*|tokens)\b"
)
# the caption's file name: a YAML file's extension
_CONFIG_NAME = re.compile(r"[\w-]\.ya?ml\b")
# a YAML mapping line: an indented key and its value or nested block, or a list item of one
# (a resource's domain-qualified name: ``nvidia.com/gpu: "1"``)
_YAML_KEY = re.compile(r"^\s*(?:-\s+)?[A-Za-z_][\w.-]*(?:/[\w.-]+)?\s*:(?:\s+\S.*)?\s*$")
# a traceback's header, a frame with no folder (its exception line is a key's shape): a crash
# appended to the file; a YAML comment
_TB_LINE = re.compile(r"^\s*(?:Traceback \(most recent call last\):|File \"[^\"/\\]*\", line \d+|#)")


def _guide(held: Sequence[LogLine]) -> LogLine | None:
    """The title line of a guide to running something ("Instruction for Running DeepSeek with
    PD, EP, and MTP", "[Guide] How to deploy X", "部署指南": ``documents.guide_title``) whose
    lines show nothing a process printed or a run gave: no log record, no frame or traceback, no
    result figure or table, no writer telling a run of theirs, no failure but as a condition or
    in a command's comment, and no post after the opening one (a reply may report running it).
    Its launch and benchmark commands under per-setup headings are what a reader would run;
    a command followed by its output is a run, and so is any crash of its own (the gate reads it)."""
    title, said = _title_line(held)
    if title is None or not guide_title(said):
        return None
    posts, fenced = 0, False
    shown = False  # below a caption or note that shows what follows as illustrative, to the next heading
    for line in held:
        text = line.text
        if _HEADING.match(text) or _TITLE.match(text):
            shown = False
        if FENCE.match(text):
            fenced = not fenced
            continue
        if shown:
            continue  # a sample block or a table the page calls illustrative: no run gave it
        shown = not fenced and _ILLUSTRATIVE.search(text) is not None  # (its own line is read below)
        if not line.quoted and post_author(text) is not None:
            posts += 1
            if posts > 1:
                return None
            continue
        if line.headed or tree_frame(text) or _FIGURE.search(text):  # (a traceback's header: the gate reads it)
            return None
        if _OWN_RUN.search(text) or _FIRST_PERSON.search(text) or own_run(text) or writer_run(text):
            return None
        if fenced and _SHELL_COMMENT.match(text):
            continue  # "# slow down the decode nodes": what a command does, no failure
        words = told(text)
        if _SYMPTOM.search(words) and not CONDITION.search(words) and line is not title:
            return None
    return title


# a guide's words showing what follows as a sample, not its own result: "prints a block like this
# one", "sample output:", "the numbers below are illustrative", "your numbers will vary", "示意",
# "仅供参考", "例示", "参考値"
_ILLUSTRATIVE = re.compile(
    r"(?i)\billustrat\w*|\bfor illustration\b|\b(?:a |an )?(?:block|output|table|result)s? (?:like|such as) "
    r"(?:this|these|the following)\b|\b(?:sample|example) (?:output|results?|block|log)\b"
    r"|\b(?:will|should|may) (?:look|be) (?:something )?like\b|\byou(?:'ll| will| should) see\b"
    r"|\byour (?:numbers|results|figures) (?:will|may|might) (?:vary|differ)\b"
    r"|示意|仅供参考|僅供參考|例示|参考値|예시 출력"
)


def _runbook(held: Sequence[LogLine]) -> LogLine | None:
    """The first step heading of a runbook (a playbook, a setup guide: three or more headings
    numbering its steps, "## Step 1. ...", "### 步骤 2"), where no line shows a run: no post
    header, no log record, no frame, no writer in the first person or telling their own run, no
    figure a run gave (a speed, a share, a figure row) outside its troubleshooting table. Its
    failure words are what the reader may meet (a troubleshooting table's symptoms, "if you see
    ...") and its gains are promises ("can provide a speedup"); a request body's prompt
    ("``"prompt": "... slows down ..."``") is what the reader sends, no result."""
    steps = [ln for ln in held if _STEP_HEADING.match(ln.text)]
    if len({_STEP_HEADING.match(ln.text)["n"] for ln in steps}) < _RUNBOOK_STEPS:
        return None
    fixes = False  # inside a troubleshooting table (its header names a symptom and a fix column)
    for line in held:
        text = line.text
        if line.headed or post_author(text) is not None or tree_frame(text):
            return None
        if _SELF.search(text) or _OWN_RUN.search(text) or _FIRST_PERSON.search(text) or writer_run(text):
            return None
        row = _ROW_FIRST.match(line.raw) is not None
        fixes = row and (fixes or _TROUBLE_HEADER.search(line.raw.strip()) is not None)
        if not fixes and _FIGURE.search(_PAYLOAD.sub(" ", told(text))):
            return None
    return steps[0]


_RUNBOOK_STEPS = 3
_STEP_HEADING = re.compile(r"(?i)^\s*#{1,6}\s*(?:step|步骤|第)\s*(?P<n>\d+)\b")
# a troubleshooting table's header: a column of symptoms (or errors, problems) and one of fixes
_TROUBLE_HEADER = re.compile(
    r"(?i)^(?=.*\|\s*(?:symptoms?|problems?|issues?|errors?|error messages?)\s*\|)"
    r"(?=.*\|\s*(?:fix(?:es)?|solutions?|resolutions?|workarounds?|remed(?:y|ies)|actions?|what to do)\s*\|?\s*$)"
)
# a request body's text for the model ("prompt": "...", "content": "..."): what the reader sends
_PAYLOAD = re.compile(r"\"(?:prompt|content|text|input|query|question|system)\"\s*:\s*\"(?:[^\"\\]|\\.)*\"?")


_SHELL_COMMENT = re.compile(r"^\s*#(?!#)")
# a program's own checks and error handling: what it would do on a failure, not one met
_CODE_CHECK = re.compile(r"^\s*(?:assert|raise|except)\b|^\s*(?:self\.)?assert\w*\(|^\s*with pytest\.raises\(")
# a script's comment explaining a setting by what it avoids or by another value failing ("# Disable
# hf_transfer to avoid I/O errors", "# mem-frac 0.80 (0.70 OOMs at conc=64)"), not the writer's
# crash ("# this crashes at cuda graph capture on 0.5.2")
_EXPLAINS = re.compile(
    r"(?i)\b(?:avoid\w*|prevent\w*|otherwise|instead|workaround|skip\w*|so that|because)\b"
    r"|(?<![\w.])\d[\w.=]*\s+(?:OOMs?|crash\w*|fails?|hangs?)\b"
)
# a script line's note after its code ("...  # MY rc6 fix") and the messages it would print
# ('|| echo "($bench failed, continuing)"')
_SCRIPT_WORDS = re.compile(r"\s#\s.*$|\"[^\"]*\"|'[^']*'")
# a result a run gave: a speed, a latency, a share, an acceptance figure, a table row of figures
_FIGURE = re.compile(
    r"(?i)(?<![\w.])\d+(?:\.\d+)?\s*(?:tok(?:en)?s?/s|tokens?/sec|req/s|ms\b|%)|\baccept\w*\s+(?:len\w*|rate)\s*[:=]?\s*\d"
    r"|^\s*\|.*\d.*\|\s*$"
)


def _title_line(held: Sequence[LogLine]) -> tuple[LogLine | None, str]:
    """The line holding the text's title and the title: a thread head's (any copy form), else
    its first ``# `` heading's."""
    reader = HeadReader()
    for line in held:
        if (head := reader.feed(line)) is not None and head.title is not None:
            return line, head.title
    line = next((ln for ln in held if _TITLE.match(ln.text)), None)
    return line, line.text.lstrip("# ") if line is not None else ""


def _digest(held: Sequence[LogLine]) -> LogLine | None:
    """The first item of a digest that lists several threads by number, each on its own item
    line (a generated activity digest, an issue index's page, a weekly roundup), where no line is
    a post of a thread or a frame pasted from a run and no writer tells a run of theirs: the
    failures and methods its items name are each another thread's, so no one run's
    (a family word of one item and a failure of another must not make a run together)."""
    items: dict[str, LogLine] = {}
    for line in held:
        text = line.text
        if post_author(text) is not None or tree_frame(text):
            return None
        if _OWN_RUN.search(text) or _FIRST_PERSON.search(text) or writer_run(text):
            return None
        if (number := thread_item(text)) is not None:
            items.setdefault(number, line)
    if len(items) < DIGEST_ITEMS:
        return None
    return min(items.values(), key=lambda ln: ln.lineno)


_DEF_LINE = re.compile(r"^\s*(?:async\s+)?def\s|^\s*class\s")
# a unified diff's hunk header ("@@ -1335,7 +1335,11 @@ class X:"): the hunk holds the old and
# the new lines, so at least as many lines as the longer side follow it and at most both sides'
# count, each past the longer side's count still prefixed (a context line's blank, + or -)
_HUNK_HEADER = re.compile(r"^\s*@@ -\d+(?:,(?P<old>\d+))? \+\d+(?:,(?P<new>\d+))? @@")
# a commit as ``git log --oneline`` lists it (a sync job's history, a rebase summary): a short or
# full sha opening the line, then the subject with its pull request's number or its bracketed
# tag ("434afac2 [BugFix] Avoid a hang for MTP (#11353)", "9fe8d8ba Revert \"[Spec] ...\""); the
# method and failure words it names are that change's, whoever runs the listing
_COMMIT_SUBJECT = re.compile(
    r"^\s*(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}\s+(?:\([^()\n]*\)\s+)?"
    r"(?:(?:\[[A-Z][\w /.+-]{0,30}\])+\s*[A-Za-z]|Revert\s+\"|Merge\s+(?:pull|branch)\b|[^\n]*\(#\d+\)\s*$)"
)


# a changelog's, release notes' or sync list's entry: a list item carrying the number of the
# change that landed, in any language ("- [Spec] Fix EAGLE3 accept length (#39116)", "- AMD：DSpark
# 修复 (#39116)、DSV4 配置 (#39252)。", "* Fix MTP by @dev in https://github.com/o/r/pull/12",
# "1. 修正 EAGLE ([#812](https://...))"): the method words it names are that change's code
_CHANGE_ITEM = re.compile(
    r"^\s*(?:[-*+•]|\d+[.)、])\s+(?!\[[ xX]\])\S.*?"
    r"(?:[(（]\s*\[?#\d{2,7}\b|\bby @[\w-]+ in (?:#\d+|https?://\S+/pull/\d+))"
)


def _change_item(text: str) -> bool:
    """The line is a changelog or sync list's entry, not told by the writer as their run."""
    return (_CHANGE_ITEM.match(text) is not None and _FIRST_PERSON.search(text) is None
            and not writer_run(text))


def _rejected(held: Sequence[LogLine]) -> Apart | None:
    """The config validation error that rejected the run's method ("1 validation error for
    TorchLlmArgs" / "Value error, Eagle3 is only supported for Llama models ...
    [type=value_error"), its lines as one block, where nothing below it tells a failure or a
    result of its own (the run tried again and got further): the engine stopped at its
    arguments, before any worker was built."""
    lines = [ln for ln in held if not ln.quoted]
    for i, line in enumerate(lines):
        if not _VALIDATION.search(line.text):
            continue
        group = [line]  # the error's lines: its header, the field, the "Value error" line
        for later in lines[i + 1 :]:
            if later.lineno - group[-1].lineno > _VALIDATION_GAP or not _VALIDATION.search(later.text):
                break
            group.append(later)
        rest = [ln for ln in lines if ln.lineno > group[-1].lineno]
        if not any(_SPECULATIVE.search(ln.text) for ln in group):
            continue
        if any(_SYMPTOM.search(ln.text) or _RESULTS.search(ln.text) for ln in rest):
            return None
        return Apart(line.source, group[0].lineno, group[-1].lineno, REJECTED, line.text.strip())
    return None


def _unit_tests(held: Sequence[LogLine]) -> LogLine | None:
    """The first test id of a unit-test run's log (a CI job running pytest over a unit-test
    folder: ``tests/ut/spec_decode/test_eagle_proposer.py::TestX::test_y PASSED``) where every
    test file the text names sits in a unit-test folder and no line is a serving process's
    record (an engine core's, a worker's, an API server's, a scheduler's: the start-up stages
    past the launcher of vLLM, SGLang and TensorRT-LLM). Such tests build the proposer they
    test from mocks: the methods their ids and files name are code under test, no served
    run's. An end-to-end test (``tests/e2e/...``) starts an engine and is read as its run."""
    first: LogLine | None = None
    ids: set[str] = set()
    for line in held:
        text = line.text
        if _ENGINE_RECORD.search(text) or _ENGINE_FRAME.search(text):
            return None  # a serving process printed or crashed: the test started an engine
        files = _TEST_FILE.findall(text)
        if any(_UNIT_FOLDER.search(name) is None for name in files):
            return None  # a test outside a unit folder (an e2e, an integration test) may serve
        for node in _TEST_ID.findall(text):
            if _UNIT_FOLDER.search(node) is None:
                return None
            ids.add(node)
            first = first or line
    return first if len(ids) >= _UNIT_TEST_IDS else None


_UNIT_TEST_IDS = 3  # distinct test ids: a test run's log, not a line citing a test
# a pytest test id (``path/test_x.py::TestCls::test_fn[param]``) and a test file a line names
_TEST_ID = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)*test_\w+\.py::\w+(?:::\w+)?)")
_TEST_FILE = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)*tests?/(?:[\w.-]+/)*test_\w+\.py)\b")
# a unit-test folder: vllm-ascend's ``tests/ut``, ``tests/unit``, ``unit_tests``
_UNIT_FOLDER = re.compile(r"(?:^|/)(?:ut|unit|unit_?tests?)/")
# a serving process's record, by the marks each engine's start-up prints: vLLM's launcher's
# arguments and its engine's first record, SGLang's server arguments, TensorRT-LLM's executor
_ENGINE_FIRST = r"\bInitializing an? (?:V\d )?LLM engine\b|\bPyExecutor\b"  # vLLM's engine, TensorRT-LLM's executor
_ENGINE_RECORD = re.compile(rf"\bnon-default args:|\bserver_args=ServerArgs\(|{_ENGINE_FIRST}")
# a frame in the start-up stages past the launcher: an engine core, a worker or model runner, a
# scheduler, a speculative worker (vLLM, vllm-ascend, SGLang, TensorRT-LLM)
_ENGINE_FRAME = re.compile(
    r"(?:vllm(?:_ascend)?/(?:v1/)?(?:worker|executor|spec_decode)/|vllm/v1/engine/core\w*\.py"
    r"|sglang/srt/(?:managers/(?:scheduler|tp_worker)\w*\.py|speculative/|model_executor/)"
    r"|tensorrt_llm/_torch/(?:pyexecutor|speculative)/)"
)


def _launch_stopped(held: Sequence[LogLine]) -> tuple[LogLine, str | None, str] | None:
    """Where a launch stopped in its launcher: at the model hub (``huggingface_hub``'s
    ``GatedRepoError``, a 401 or 403 on the model's ``config.json``, a repository not found:
    ``HUB_STOPPED``), or at a failure of the launcher's own stage (``LAUNCHER_STOPPED``: a
    traceback through SGLang's ``server_args.py``, its arguments' checks in ``__post_init__``, its
    ports in ``PortArgs.init_new``, the model config read for them; through vLLM's
    ``arg_utils.py`` or ``vllm/config``, building its engine's config), where the text launched an
    engine (its command, vLLM's ``non-default args`` record, a server's arguments) and no line
    is a record of the start-up stages past the launcher: an engine core, a worker, a model
    runner, a scheduler (``_ENGINE_STAGE``, ``_ENGINE_FRAME``). The launcher resolves the model's
    config and its own arguments before it starts any of them (vLLM: ``create_engine_config`` in
    the API server; SGLang: ``ServerArgs`` and ``PortArgs`` in ``launch_server``; TensorRT-LLM:
    ``LLM`` in ``trtllm-serve``), so its speculative config was never built into a worker. vLLM's
    and TensorRT-LLM's validation errors rejecting the method are ``_rejected``'s (REJECTED, no
    worker either). SGLang's launcher refusing the speculative config itself (a frame in its
    speculative checks, a failure naming the speculative options) is such a stop too, told as a
    refusal (``SPEC_REFUSED``): the method was asked for, no worker of it ever ran. Returns the line it stopped at (the failure's exception line, else the launcher's frame), the
    method the launch configured and which of the two stops it was, for the explanation."""
    launched, hub, failed, method, refused = False, None, None, None, False
    launcher: LogLine | None = None  # the last frame of the launcher's stage seen
    usage: LogLine | None = None  # the last usage line a command-line parser printed
    for line in held:
        text = line.text
        if _ENGINE_STAGE.search(text) or _ENGINE_FRAME.search(text):
            return None  # an engine, worker or scheduler printed or crashed: the launcher was not the end
        launched = launched or _ENGINE_STARTED.search(text) is not None or _LAUNCH_RECORD.search(text) is not None
        method = method or next((g for m in _CONFIGURED.finditer(text) for g in m.groups() if g), None)
        if commented_out(text):
            continue  # a commented-out line (a launcher's error kept as a note) is no stop of this run
        if hub is None and _HUB_ERROR.search(text):
            hub = line
        elif not line.quoted and _USAGE.match(text):
            usage = line
        elif failed is None and usage is not None and not line.quoted and (m := _PARSER_REFUSAL.match(text)) \
                and m.group(1) == _USAGE.match(usage.text).group(1) and line.lineno - usage.lineno <= _USAGE_GAP:  # fmt: skip
            failed, launched = line, True  # the parser printed its usage and refused: the launcher ran, and stopped
            refused = refused or _SPEC_REFUSAL.search(text) is not None
        elif _LAUNCHER_FRAME.search(text):
            launcher = line
            refused = refused or _SPEC_CHECK.search(text) is not None
        elif failed is None and launcher is not None and _FAILURE.match(text) \
                and line.lineno - launcher.lineno <= _FAILURE_GAP:  # fmt: skip
            failed = line
            refused = refused or _SPEC_REFUSAL.search(text) is not None
    # the hub's refusal says most; a failure's exception line may hold no word the scan keeps
    stopped = f"{LAUNCHER_STOPPED}, {SPEC_REFUSED}" if refused else LAUNCHER_STOPPED
    stop = (hub, HUB_STOPPED) if hub else (failed or launcher, stopped)
    return (stop[0], method, stop[1]) if launched and stop[0] is not None else None


# a command-line parser's refusal, as argparse prints it and exits (status 2) before the program
# does anything: its usage line ("usage: vllm [-h] [-v]", "usage: launch_server.py [-h] ...",
# not a benchmark client's "usage: vllm bench serve ..."), then, a few lines below, "<prog>: error:"
# with the flags it rejects or misses; a launch that printed it built no engine and no worker
_USAGE = re.compile(r"\s*usage: ([\w.-]+)(?! bench\b)")
_PARSER_REFUSAL = re.compile(
    r"\s*([\w.-]+): error: (?:unrecognized arguments:|argument -|the following arguments are required:|invalid choice:)"
)
_USAGE_GAP = 4  # the usage line's continuation lines (its subcommands, options) before the error


# a traceback's frame in a launcher's stage, which runs before it starts any scheduler or engine
# core: SGLang's server arguments (``prepare_server_args``, ``ServerArgs.__post_init__``) and
# ports (``PortArgs.init_new``); vLLM's engine arguments (``create_engine_config``) and the
# configs they build (``SpeculativeConfig.__post_init__``, the model's config)
_LAUNCHER_FRAME = re.compile(
    r'File "[^"]*(?:sglang/srt/server_args\.py|vllm/engine/arg_utils\.py|vllm/config(?:/\w+)?\.py)", line \d'
)
# SGLang's launcher refusing the speculative config itself (``_handle_speculative_decoding``,
# ``_handle_spec_checks``; a refusal naming the speculative options): no worker either, as
# vLLM's and TensorRT-LLM's validation errors (REJECTED); the explanation says it refused
_SPEC_CHECK = re.compile(r", in _?\w*spec\w*\s*$", re.I)
_SPEC_REFUSAL = re.compile(r"(?i)speculati|\bdraft|\bspec[_ ]|\beagle|\bngram|\bmtp\b|\bnextn\b")
# the exception line a traceback ends in, at most this many lines below the launcher's frame
_FAILURE = re.compile(r"\s*(?:[\w.]+\.)?\w*(?:Error|Exception|Exit)\b")
_FAILURE_GAP = 20


# the method a launch configures: vLLM's config key, SGLang's flag, TensorRT-LLM's decoding type
_CONFIGURED = re.compile(
    r"[\"']method[\"']\s*:\s*[\"'](\w+)|--speculative[-_]algorithm[ =](\w+)|\bdecoding_type\s*[:=]\s*[\"']?(\w+)"
)


# the start-up stages past the launcher, by their one-line records: vLLM's engine's first record
# and its engine core's failure, SGLang's scheduler's exception and weight loading, a model
# runner's or worker's logger tag, TensorRT-LLM's executor (their frames: ``_ENGINE_FRAME``)
_ENGINE_STAGE = re.compile(
    rf"{_ENGINE_FIRST}|\bEngineCore failed\b|\bEngine core initialization failed\b"
    r"|\bScheduler hit an exception\b|\bLoad weight (?:begin|end)\b|\bLoading (?:drafter )?model\b"
    r"|\bto load model\b|\bmodel_runner\.py\b|\bgpu_worker\.py\b"
)
# a launcher's record of the arguments it was given (vLLM's API server)
_LAUNCH_RECORD = re.compile(r"\bnon-default args:")
# the model hub refusing or missing the model's files
_HUB_ERROR = re.compile(
    r"\b(?:GatedRepoError|RepositoryNotFoundError|RevisionNotFoundError)\b|You are trying to access a gated repo"
    r"|\bCannot access gated repo\b|\b40[13] Client Error\b"
)


def _harness_stopped(held: Sequence[LogLine]) -> LogLine | None:
    """The error line of a harness's saved log (a CI or benchmark driver's output, its header
    naming a run's output file: ``saved_file``) that stopped at its own precondition check
    ("ERROR: model directory not found at ...", "FATAL: config file does not exist", "[ERROR]
    3 validation errors, fix them and try again") where no line shows an engine ran: no log
    record of any engine, no frame in a package's tree, no engine's launch command, no server
    process. The arm its path and its own messages name ("..._mtp.log", "MTP test
    enabled") was set up, never started; a server that failed after its start is a run."""
    from spectrace.assemblers.saved_file import saved_file  # it reads family words: path_base's cycle

    saved = next((saved_file(ln.raw) for ln in held[:1]), None)
    if saved is None or not saved.output:
        return None
    stop: LogLine | None = None
    for line in held:
        text = line.text
        if line.headed or tree_frame(text) or _ENGINE_STARTED.search(text):
            return None  # the engine printed, crashed in its tree, was launched or its server came up
        if stop is None and not line.quoted and _HARNESS_ERROR.match(text) and _PRECONDITION.search(text):
            stop = line
    return stop


# a driver's own error message at the start of its line, its level word in capitals
_HARNESS_ERROR = re.compile(r"^\s*(?:\[(?:ERROR|FATAL)\]|(?:ERROR|FATAL)\s*:)\s")
# what a driver checks before it starts anything: a path or file that is missing, its arguments
_PRECONDITION = re.compile(
    r"(?i)\bnot found\b|\bdoes(?:n't| not) exist\b|\bno such file\b|\bmissing\b|\bvalidation errors?\b"
    r"|\binvalid (?:argument|option|value|path)s?\b|\brequired (?:argument|option)s?\b"
)
# an engine launched or its server process up: the entry point, or a server's pid the driver waits on
_ENGINE_STARTED = re.compile(
    r"(?i)\b(?:sglang\.launch_server|sglang serve|vllm serve|vllm\.entrypoints|trtllm-serve|trtllm-bench"
    r"|launch_server)\b|\bserver\b[^\n]{0,40}\bpid\b\W*\d"
)


_VALIDATION_GAP = 3  # a field name's line between the error's header and its "Value error" line
_SPECULATIVE = re.compile(r"(?i)speculat|draft|eagle|mtp|ngram|n-gram|medusa|nextn|dflash|dspark|lookahead")
# pydantic's rejection of a config's arguments (vLLM's SpeculativeConfig/VllmConfig, TensorRT-LLM's
# LlmArgs and decoding configs): "Value error, <why> [type=value_error, input_value=...]"; the
# command line's parser refusing a flag ("error: argument --speculative-config: invalid loads
# value", "error: unrecognized arguments: --speculative-algorithm")
_VALIDATION = re.compile(
    r"\[type=(?:value|assertion)_error\b|\bvalidation errors? for \w*(?:Config|Args)\b|^\s*Value error, "
    r"|\berror: (?:argument --[\w.-]+(?:/--?[\w.-]+)*: (?:invalid|expected)|unrecognized arguments: --)"
    # a config check refusing a missing field ("Path to EAGLE3 weights must be specified.", "the
    # draft model directory must be provided"): the arguments stopped the launch
    r"|\b(?:path|dir(?:ectory)?|weights|checkpoint)\b[^.;:]{0,40}?\bmust be (?:specified|provided|set|given)\b"
)


def _thread(held: Sequence[LogLine]) -> tuple[str | None, str | None, str | None]:
    """(org/repo, "pull" or "issue", the title the head line holds) of the thread's head in any
    form it was copied in (``thread_head``: the index header, "org/repo pull request #12 ·
    merged" under the title, a browser's page title, ...), or (None, None, None)."""
    reader = HeadReader()
    for line in held:
        if (head := reader.feed(line)) is not None and head.repo is not None:
            return head.repo, head.kind, head.title
    return None, None, None


# a feature form's first question (GitHub's default template and the many that copy it: "Is your
# feature request related to a problem? Please describe.", "Is your enhancement related to a
# problem?"), as a heading, a bold line or bare
_FEATURE_FORM = re.compile(
    r"(?i)^\W{0,12}is\s+your\s+(?:feature(?:\s+request)?|enhancement(?:\s+request)?|proposal|request)"
    r"\s+related\s+to\s+a\s+problem\b"
)
# a title asking how to do something ("How to achieve 250 tok/sec with X on 8xB200", "How can I
# get better EAGLE3 acceptance", "Is it possible to run MTP with ...", "Can I use ...")
_HOW_TO = re.compile(
    r"(?i)^\W*(?:\[[^\]]*\]:?\s*)*(?:how\s+(?:to|do|does|can|could|should|would)\b|is\s+(?:it|there)\s+"
    r"(?:possible|a\s+way)\b|can\s+(?:i|we|you|one)\b|what(?:'s|\s+is|\s+are)\s+the\s+(?:best|right|recommended)\b)"
)
# a title that reports a failure or asks to fix one ("How to fix EAGLE3 crash on 0.10.1")
_TITLE_FAILS = re.compile(
    r"(?i)\b(?:fix\w*|bug|crash\w*|fail\w*|errors?|exception|hangs?|hung|stuck|broken|wrong|incorrect|garbled"
    r"|garbage|oom|nan|illegal|segfault|regress\w*|degrad\w*|slow\w*|drops?)\b"
)


def _asked_thread(held: Sequence[LogLine], title: str) -> Apart | None:
    """The line that makes an issue a wish or a question as a whole: a feature form's first
    question (as a ``[Feature]`` tag does: what its comments verified is the feature's code), or
    a title asking how to do something that reports no failure, where no writer tells a run of
    their own ("I ran ...", "our deployment")."""
    form = next((ln for ln in held if not ln.quoted and _FEATURE_FORM.search(ln.text)), None)
    if form is not None:
        return Apart(form.source, form.lineno, form.lineno, FEATURE_FORM, form.text.strip())
    if any(_OWN_RUN.search(ln.text) for ln in held if not ln.quoted):
        return None
    if _HOW_TO.search(title) and not _TITLE_FAILS.search(title):
        first = held[0]
        return Apart(first.source, first.lineno, first.lineno, HOW_TO, title.strip())
    return None


def _config_change(held: Sequence[LogLine], title: str, desc: Sequence[LogLine]) -> bool:
    """A pull request changing configuration, by its shape: what it adds, bumps, retunes or
    removes is configuration (flags, env settings, an image pin, config files, recipes,
    examples) and nothing in the thread tells a result, a failure, a sweep that ran or the
    writer's own run (no post, no results heading or table). The recipes, benchmark lanes and
    examples of another project's repository are what a run would use, not a run (a recipe PR
    shows its run by its numbers, a passed sweep or a log)."""
    if any(_OWN_RUN.search(ln.text) or _SYMPTOM.search(ln.text) or _RESULTS.search(ln.text)
           or _WRITER.search(ln.text) or _LIVE_CONFIG.search(ln.text)
           for ln in _unsummarised(held) if not _TODO.match(ln.text)):  # fmt: skip
        return False  # an open box ("- [ ] the sweep passes") is a plan, not a result
    return any(_CONFIG_SHAPE.search(text) for text in [title, *(ln.text for ln in desc)])


def _unsummarised(held: Sequence[LogLine]) -> list[LogLine]:
    """The writers' own unquoted sentences: a bot's summary of the diff ("## Summary by
    CodeRabbit": "Removed outdated OOM notes", "Bug Fixes") words the change, not a run; it
    runs to the next heading or post."""
    out: list[LogLine] = []
    bot = False
    for line in held:
        if line.quoted or line.headed:
            continue
        if _HEADING.match(line.text) or _TITLE.match(line.text) or post_author(line.text) is not None:
            bot = _BOT_SUMMARY.search(line.text) is not None
            if bot:
                continue
        if not bot:
            out.append(line)
    return out


_BOT_SUMMARY = re.compile(r"(?i)\bsummary by (?:coderabbit|copilot|sourcery|gemini|greptile|[\w-]+bot)\b")
# a results heading or a table row, a sweep that went through: a run's outcome shown (a rerun
# command, "/reuse-sweep-run", asks for one)
_RESULTS = re.compile(
    r"(?i)^\s*#{1,6}\s*(?:\W\s*)?(?:results?|benchmarks?|performance|perf|accuracy|evals?|evaluation"
    r"|numbers|measurements?|test results?)\b(?![/.-]\w)|\|[^|]*\|[^|]*\|"
    r"|\bsweeps?\b[^.;]{0,24}?\b(?:pass(?:es|ed)?|ran|results?|finished|completed|succeeded|green)\b"
)
# the changed configuration said to be what runs or ran ("Config (faithful to the live stack)",
# "identical to the production deployment", "mirrors our running server"): a run stands behind
# it, not only a proposal (``run_forms.toml``'s "a config told as the running one" reads it too)
_LIVE_CONFIG = re.compile(
    r"(?i)\b(?:faithful|identical|same|matches|matching|mirrors?|mirroring|copied|taken|exported)\s+"
    r"(?:to|as|from)?\s*(?:the\s+|our\s+|my\s+)?(?:live|running|deployed|production|prod)\s+"
    r"(?:stack|config\w*|setup|deployment|server|service|cluster|box|node)s?\b"
)
# the writer telling what they did ("I just had to add the speculative args", "we halved the
# batch"): a recipe tuned by hand was run, whatever the scan kept of the telling (a config change
# of the shape denied is written impersonally: "Adds ...", "Bump ...", a bot's summary)
_WRITER = re.compile(r"\bI\b(?!/O)|(?i:\b(?:we|my|our|us)\b)")
# configuration as what a change touches: a flag, an env setting, a speculative key, an image
# pin, a config file, or the words for them
_CONFIG_SHAPE = re.compile(
    r"(?i)(?:^|[\s`(])--[a-z][\w-]+|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+=|\bspeculative[_-]\w+\s*[:=]"
    r"|\bdecoding_type\b|[\w.-]+/[\w.-]+:v?\d[\w.-]*|\.(?:ya?ml|json|toml|sh)\b"
    r"|\b(?:configs?|configuration|recipes?|examples?|values|image)\b"
)
