"""A unified diff pasted into a thread, seen as the file it leaves behind.

A pull request's review thread shows a launch command as a diff hunk: ``@@ -116,9 +128,45 @@
vllm serve org/model \\`` (the hunk header's context is the line above the hunk), then context
lines prefixed with a blank, removed lines with ``-`` and added ones with ``+``
(``+--speculative_config '{"method": ...}' \\``). The config the change leaves is the context
and the added lines; a removed line is the old config and must not be read (``---speculative-
config`` would otherwise read as the flag). ``DiffView`` follows one hunk at a time over the
config lines fed to it and gives each line's text as the new file has it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from spectrace.dialects.base import LogLine

# ``@@ -116,9 +128,45 @@ context``: a hunk header and the line of the file it shows as context
_HUNK = re.compile(r"^\s*@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@ ?(.*)$")
# a Markdown fence that opens a diff (three backticks and "diff"): its lines carry the prefixes
_FENCE = re.compile(r"^\s*`{3,}\s*diff\s*$")
# a line a diff adds to a launch: an option (``+    --speculative-algorithm NEXTN``), an engine
# variable (``+export SGLANG_ENABLE_SPEC_V2=1``) or the server's entry (``+python3 -m
# sglang.launch_server \\``): only a diff writes a ``+`` before these, so it is an added line even
# where the scan kept no fence or hunk header above it (a fence holds none of its literals)
ADDED_LAUNCH = re.compile(
    r"^\+\s*(?:--?[A-Za-z][\w-]*|(?:export\s+)?(?:SGLANG|VLLM|TRTLLM|TLLM)_[A-Z0-9_]+="
    r"|.*\b(?:sglang\.launch_server|sglang\s+serve|vllm\s+serve|trtllm-serve)\b)"
)


@dataclass(slots=True)
class DiffView:
    """Feed every config line in order; ``view`` returns it as the changed file reads."""

    source: str | None = None  # the file of the hunk being followed, None outside one
    continued: bool = False  # the last line kept ends on a ``\\``: a removed one must not cut it

    def view(self, line: LogLine) -> LogLine:
        """The hunk header as its context line, an added or context line without its prefix,
        a removed line as nothing (a bare ``\\`` where the command it sat in goes on)."""
        if (hunk := _HUNK.match(line.text)) is not None and not line.headed:
            self.source = line.source
            return self._kept(line, hunk.group(1))
        if _FENCE.match(line.text) and not line.headed:  # a fenced diff pasted without headers
            self.source, self.continued = line.source, False
            return replace(line, text="")
        if self.source != line.source or line.headed:
            self.source = None
            if not line.headed and ADDED_LAUNCH.match(line.text):
                return self._kept(line, line.text[1:])  # its fence or hunk header the scan skipped
            return line
        mark = line.text[:1]
        if mark == "-":
            return replace(line, text="\\" if self.continued else "")
        if mark in ("+", " "):
            return self._kept(line, line.text[1:])
        if not line.text:
            return line
        self.source = None  # a fence, a sentence: the hunk ended
        return line

    def _kept(self, line: LogLine, text: str) -> LogLine:
        self.continued = text.rstrip().endswith("\\")
        return replace(line, text=text)
