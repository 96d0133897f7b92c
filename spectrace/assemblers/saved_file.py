"""A saved repository file's header -> what the file's own path says of its run.

Why: a log saved in a deployment or CI repository is the output of a run, and labs name the
file or its folder after the arm that ran (``B4-ngram-qwen36-dense/ngram.bootfail.log``,
``cron_log/mi35x/20251023/deepseek_r1_mxfp4_mtp.log``). A copy of such a file keeps a header
naming the repository and the path, with the commit that holds it (``owner/repo ·
path/to/file.log · commit 1a36293 (2026-06-10)``, ``owner/repo · path (commit 1a36293,
2026-06-10)``): the path is the run's label and the commit's day bounds the run (it was saved
no earlier than it ran). Only an output's path labels a run: a notes file, a README or a script
(``docs/mtp-notes.md``) is about its subject, and a thread's header (``owner/repo · issue #N``)
names no file. The repository's own name is the project's, not the file's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from spectrace.path_base import family_words

# ``owner/repo · path`` (a path: no blank, a folder or a suffix), then the commit in either form
_HEADER = re.compile(
    r"^\s*(?P<repo>[A-Za-z0-9][\w-]*/[\w.-]*\w)\s+·\s+(?P<path>[^\s·()]*[/.][^\s·()]*)"
    r"(?:\s+·\s+commit\s+[0-9a-f]{6,40}\s+\((?P<d1>\d{4}-\d{2}-\d{2})\)"
    r"|\s+\(commit\s+[0-9a-f]{6,40},\s+(?P<d2>\d{4}-\d{2}-\d{2})\))?"
    r"(?:[\s,].*)?$"
)
# what a run writes: a log or a stream's capture, or any file under a results or logs folder
# that is no document, script or config (a summary, a JSON of figures)
_OUTPUT = frozenset({"log", "out", "err", "stdout", "stderr"})
_OUTPUT_FOLDERS = frozenset({"results", "logs", "log", "cron_log", "benchmark_logs"})
_NOT_OUTPUT = frozenset({"md", "rst", "adoc", "py", "sh", "bash", "ps1", "yaml", "yml", "toml",
                         "cfg", "ini", "ipynb", "dockerfile", "patch", "diff", "c", "cc", "cu",
                         "cpp", "h", "rs", "go", "js", "ts"})  # fmt: skip
# a path segment naming an arm without speculation, a control arm or one set against another
# ("no-mtp", "mtp_off", "ngram_vs_baseline", "B4-ngram-x/ctl.accept.log"): the path labels no
# run with its family word
_APART = re.compile(r"(?i)(?:^|[-_.+ /])(?:no|non|off|without|disabled?|nospec|no_?spec|baseline|vs|ctl|ctrl"
                    r"|control|plain|vanilla)(?=$|[-_.+ /])")
_SPLIT = re.compile(r"[-_.+]+")
# a day an output's path carries (a cron folder ``20251023``, a stamp ``20260608T0850JST``,
# ``harness_2026-05-22T204111Z``): the day the run wrote it
_PATH_DAY = re.compile(r"(?<!\d)(20\d{2})-?(\d{2})-?(\d{2})(?!\d)")


@dataclass(frozen=True)
class SavedFile:
    """A saved file's header: its repository, its path and the day of its commit (if given)."""

    repo: str
    path: str
    day: date | None

    @property
    def output(self) -> bool:
        """The file is a run's output (a log; a results or logs folder's non-document)."""
        name = self.path.rsplit("/", 1)[-1].lower()
        suffix = name.rsplit(".", 1)[-1] if "." in name else ""
        if suffix in _OUTPUT:
            return True
        folders = {s.lower() for s in self.path.split("/")[:-1]}
        return bool(folders & _OUTPUT_FOLDERS) and suffix not in _NOT_OUTPUT

    def run_day(self) -> date | None:
        """The newest day the file is known to hold a run of: its commit's, else the newest day
        an output's path carries (a run is no newer than the file that records it)."""
        if self.day is not None or not self.output:
            return self.day
        days = [d for m in _PATH_DAY.finditer(self.path) if (d := _date(*m.groups())) is not None]
        return max(days, default=None)

    def families(self) -> frozenset[str]:
        """The one family the path's folders and name label the run with (empty where they
        name none, name several, or set the family apart)."""
        if _APART.search(self.path):
            return frozenset()  # "no-mtp", "ngram_vs_baseline", a control arm: no arm's label
        found: set[str] = set()
        for segment in self.path.split("/"):
            found |= family_words(" ".join(_SPLIT.split(segment)))
        return frozenset(found) if len(found) == 1 else frozenset()


def saved_file(text: str) -> SavedFile | None:
    """The saved file a header line names, or None (a thread's header, a sentence)."""
    m = _HEADER.match(text)
    if m is None or re.match(r"(?i)(?:issue|pull|pr|discussion)\b", m["path"]):
        return None
    day = m["d1"] or m["d2"]
    return SavedFile(m["repo"], m["path"], _date(*day.split("-")) if day else None)


def _date(year: str, month: str, day: str) -> date | None:
    try:
        return date(int(year), int(month), int(day))
    except ValueError:
        return None
