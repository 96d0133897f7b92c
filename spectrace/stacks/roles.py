"""Coordinator processes of a server tree (engine core, detokenizer, API server): roles, not ranks.

vLLM V1 runs an API server, an ``EngineCore[_DPn]`` and ``Worker_TPn`` processes; SGLang its
TokenizerManager in the main process, ``sglang::detokenizer``, ``sglang::data_parallel_controller``
and the schedulers. Only the workers and schedulers are ranks; the rest coordinate them and are
kept out of the odd-one-out verdict (``verdict.py``).
"""

from __future__ import annotations

import re

from spectrace.stacks import procfs

# Coordinators: processes of the server tree that schedule, tokenize or serve but are no rank.
# A title (setproctitle, or the program's own name) is the first word of the command line and
# is definitive; an entry point only names a process that has no rank (a forked child keeps
# its parent's command line until it sets its own title).
_TITLE_ROLES = (
    (re.compile(r"^(?:\w+::)?(EngineCore(?:_DP\d+)?|APIServer(?:_\d+)?|DPCoordinator)$"), None),
    (re.compile(r"^sglang::detokenizer$"), "detokenizer"),
    (re.compile(r"^sglang::data_parallel_controller$"), "data_parallel_controller"),
    (re.compile(r"(?:^|/)(raylet|gcs_server)$"), None),
)
_ENTRY_ROLES = (
    (re.compile(r"\bsglang[./]launch_server\b|\bsglang\s+serve\b"), "TokenizerManager"),
    (re.compile(r"\bvllm\s+serve\b|vllm[./]entrypoints[./]openai[./]api_server\b"), "APIServer"),
)


def detect_role(cmdline: str, entry_point: bool = True) -> str | None:
    """A coordinator's role from its title, or from its entry point when ``entry_point``."""
    title = cmdline.split(" ", 1)[0]
    for pattern, role in _TITLE_ROLES:
        if m := pattern.search(title):
            return role or m.group(1)
    for pattern, role in _ENTRY_ROLES if entry_point else ():
        if m := pattern.search(cmdline):
            return role or m.group(1)
    return None


def roles_of(
    infos: list[procfs.ProcInfo], ranks: dict[int, tuple[str | None, str | None]]
) -> dict[int, str | None]:
    """Coordinators by title; by entry point only for a rankless process whose parent runs a
    different command line (a forked child keeps its parent's until it sets a title)."""
    cmdlines = {i.pid: i.cmdline for i in infos}
    return {
        i.pid: detect_role(
            i.cmdline, entry_point=ranks[i.pid][0] is None and cmdlines.get(i.ppid) != i.cmdline
        )
        for i in infos
    }
