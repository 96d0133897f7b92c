"""Which class a frame row's file named in each release: the rows of a file whose class was
renamed (vllm-ascend's ``eagle_proposer.py``: ``EagleProposer`` up to v0.15.0rc1, then
``AscendEagleProposer``), split or moved between releases get their ``workers`` spans, so a
frame there names the class of the run's release, never the newest alone."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from path_tables.releases import FileHistory, version_key
from path_tables.rows import FrameRow

# (scanned path, the file as one release held it, the row) -> the class that release's file named
WorkerAt = Callable[[str, FileHistory, FrameRow], str]


# a class that drafts (a proposer, speculator, worker or drafter), not a base or mixin of them
_DRIVER = re.compile(r"[A-Z]\w*(?:Proposer|Speculator|Worker|Drafter)(?:GPU|NPU|V\d)?")


def _drivers_below(history: dict[str, FileHistory], rel: str, tag: str) -> list[str]:
    """The drafting classes of other files of release ``tag`` that derive, directly or through
    others, from a class ``rel`` defines there (vLLM's ``DraftModelProposer`` from
    ``SpecDecodeBaseProposer`` in ``eagle.py`` on 0.15-0.19): a frame in ``rel`` runs for them
    too."""
    mine = set(history[rel].trees[tag][0])
    others = [bases for r, e in history.items() if r != rel and tag in e.trees
              for bases in (e.trees[tag][1],)]
    found: set[str] = set()
    grew = True
    while grew:
        grew = False
        for bases in others:
            for cls, direct in bases.items():
                if cls not in found and cls not in mine and direct & (mine | found):
                    found.add(cls)
                    grew = True
    return sorted(c for c in found if _DRIVER.fullmatch(c)
                  and not any(w in c for w in ("Base", "Mixin", "Interface", "Config")))


def _runs(per: dict[str, str]) -> tuple[tuple[str, str, str], ...]:
    """(class, first, last) of each run of consecutive releases naming one class."""
    out: list[list[str]] = []
    for tag in sorted(per, key=version_key):
        if out and out[-1][0] == per[tag]:
            out[-1][2] = tag
        else:
            out.append([per[tag], tag, tag])
    return tuple((w, a, b) for w, a, b in out)


def worker_spans(rows: list[tuple[str, FrameRow]], history: dict[str, FileHistory],
                 worker_at: WorkerAt, subclasses: bool = False) -> list[tuple[str, FrameRow]]:
    """The rows with ``workers`` where their file named more than one class over its
    releases. A row naming a class its own file defines is read release by release with the
    framework's rule (``worker_at``); a helper naming another file's class (an import-rule
    row, an info file) follows that file's classes over the helper's own releases ("" where
    that file did not exist or named none). With ``subclasses``, a release where other
    files' proposers derive from a class of the file writes ``Driver|Sub|...``: a frame there
    names no one class (SGLang's subclassing workers are its ``[[shared]]`` era rows)."""
    own: dict[str, dict[str, str]] = {}
    for rel, row in rows:
        entry = history.get(rel)
        if not row.function and row.worker and entry is not None and row.worker in entry.classes:
            own[rel] = {tag: worker_at(rel, entry.at(tag), row) for tag in entry.trees}
            if subclasses:
                own[rel] = {tag: "|".join([w, *_drivers_below(history, rel, tag)]) if w else w
                            for tag, w in own[rel].items()}  # fmt: skip
    home = {row.worker: rel for rel, row in rows if rel in own and not row.function}
    out = []
    for rel, row in rows:
        per = own.get(rel)
        entry = history.get(rel)
        if per is None and row.worker and not row.function and entry is not None \
                and row.worker in home:
            theirs = own[home[row.worker]]
            per = {tag: theirs.get(tag, "") for tag in entry.trees}
        runs = _runs(per) if per else ()
        if len({w for w, _a, _b in runs}) > 1 or any("|" in w for w, _a, _b in runs):
            row = replace(row, workers=runs)
        out.append((rel, row))
    return out
