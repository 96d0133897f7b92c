"""What a line of a report names that points at a worker, as the linker's mention readers
record it: the kinds of mention (a file with a line number, a class, a family word, a thread's
header or title...) and the ``Mention`` each reader returns. Apart from the readers
(``path_mentions`` for files and classes, ``path_words`` for words, titles and threads) so both
build the same record."""

from __future__ import annotations

from dataclasses import dataclass

from spectrace.path_frames import FrameSignature

MAX_TEXT = 300  # of a line shown as evidence
KIND = "file named in the text"
CLASS_KIND = "class named in the text"
MESSAGE_KIND = "file named in the crash message"
LOGGED_KIND = "log line written by"
WRAPPER_KIND = "V0 wrapper class named in the text"
BASE_KIND = "proposer base file named in the text"
FAMILY_KIND = "family named in the text"
THREAD_KIND = "thread header"
THREAD_MARK = "thread:"  # named_families' entry for the framework a thread header names
REQUEST_KIND = "feature request, plan or docs thread"
RELEASE_KIND = "release named in the title"
TITLE_KIND = "the thread's title"  # every title line the word readers reach (run_shown reads its kind)
RELEASE_MARK = "release:"  # named_families' entry for the release a title names
ADDS_KIND = "pull request adding or supporting a method"
ADDS_MARK = "adds:"  # named_families' entry: such a PR's words, with no line showing a run
RUN_KIND = "line showing a run (a test, serve or benchmark command, a result)"
# a RUN_KIND line that is a server's own release record (vLLM's banner after its log prefix): a
# request or usage thread may paste its plain server's log beside the method it asks about
SERVER_RECORD = "server release record"
FRAMEWORK_KIND = "framework named in a line of the text"  # path_framework_words
FOREIGN_KIND = "another engine's command"  # LMDeploy, TokenSpeed, MLC, ATOM... share flag names
PULL_KIND = "pull request header"  # any repository's: a pull request shows a run only by its lines
ATTEMPT_KIND = "table row telling a tried attempt and its error"  # path_run.attempt_row
CHAIN_KIND = "crash chain step"  # a ``file.py:N`` step of a crash chain told in a note (path_chains)
FORM_KIND = "line in a run's form"  # assemblers/run_forms: the text's first line a run wrote
APART_KIND = "block set apart from the run"  # assemblers/not_run: an example, advice, a review...
FOREIGN_MARK = "foreign:"  # named_families' entry: a run of another engine is in the text


@dataclass(frozen=True, slots=True)
class Mention:
    """A known worker file the text names with a line number, where it does so."""

    source: str
    lineno: int
    text: str  # the line as the log shows it (cut)
    name: str  # "eagle_worker_v2.py:828" as written
    signature: FrameSignature
    kind: str = KIND  # or the frame shape the line has ("py-spy frame line", ...)
    last: int = 0  # an APART_KIND block's last line (``name`` holds why it is apart)


# the row a family word stands on: no file, no worker (``Mention.name`` holds the family)
FAMILY_ROW = FrameSignature("", None, None, "a family the text names")
