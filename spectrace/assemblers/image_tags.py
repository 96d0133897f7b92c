"""The engine, release and build day a container image's name carries (rules/paths/images.toml).

Reports name the image they ran far more often than they print a version: ``docker run
lmsysorg/sglang:v0.5.19-cu130``, a recipe's ``image: vllm/vllm-openai:v0.22.0``, a bump to
``rocm/sgl-dev:v0.5.19-rocm700-mi30x-20260908``. One table lists every engine's image
repositories; the tag is read the same way for all of them: a leading release, a release after a
row's marker (``rocm6.3.1_vllm_0.8.5_20250521``), a standalone build day (a nightly of main,
whose release is then only a floor). Whether the line is the run's is the callers' question.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from functools import cache

from spectrace.assemblers.release_dates import rules_table
from spectrace.errors import RuleError

TABLE = "paths/images.toml"
ENGINES = ("sglang", "vllm", "trtllm")


@dataclass(frozen=True, slots=True)
class ImageRow:
    """One row of the table: an engine's image repositories and where their tags hold a release."""

    engine: str
    repositories: tuple[str, ...]
    release_after: tuple[str, ...]
    release: bool  # False: the tag is another project's release (Dynamo's runtime images)
    dated_floor: bool  # a tag with a build day is a nightly of main past its release
    main_tags: tuple[str, ...]  # tags (or their ``<tag>-`` prefixes) built from the main branch


@dataclass(frozen=True, slots=True)
class ImageTag:
    """An engine image named in a line: its engine, the release its tag states (as written, no
    leading ``v``), the build day a dated tag carries, and whether the release is only a floor
    (a nightly of main named after the release it follows)."""

    engine: str
    release: str | None
    day: date | None
    floor: bool
    image: str
    main: bool = False  # a build of the main branch with no release or day in its tag (``:dev``)


_RELEASE = r"v?(\d+\.\d+\.\d+(?:\.post\d+|rc\d+(?:\.post\d+)?)?)"
_LEADING = re.compile(_RELEASE + r"(?=$|[-_+])")
_DAY = re.compile(r"(?:^|(?<=[-_]))(20\d\d)([01]\d)([0-3]\d)(?=$|[-_])")
# an image reference: optional registry and namespaces, a repository, ``:`` and a tag
_IMAGE = re.compile(r"(?<![\w./:-])((?:[\w.-]+/)*[\w.-]+):([\w][\w.+-]{0,127})")
# an engine's image named in words with its new tag ("Update the SGLang image to
# v0.5.20-rocm720-mi35x-20260919", "vLLM image: v0.21.0", "bump vllm docker image from v0.20.0
# to v0.21.0"): the tag after "to", else the one after the colon
_WORDED = re.compile(
    r"(?i)(?<![\w./-])(?P<engine>sglang|vllm|tensorrt[-_ ]?llm|trt[-_ ]?llm)\s+(?:docker\s+|container\s+)?"
    r"image\s*(?:(?:from\s+`?[\w.+-]+`?(?:\s*\([^)]*\))?\s+)?to\s+|[:=]\s*)`?(?P<tag>v?\d[\w.+-]{0,127})"
)
_WORDED_ENGINES = {"sglang": "sglang", "vllm": "vllm"}


@cache
def rows() -> tuple[ImageRow, ...]:
    """The table's rows; a malformed row is a one-line RuleError naming the table."""
    raw = rules_table(TABLE)
    out = []
    for i, row in enumerate(raw.get("image", [])):  # type: ignore[union-attr]
        engine, repos = row.get("engine"), row.get("repositories")
        if engine not in ENGINES or not isinstance(repos, list) or not repos:
            raise RuleError(f"{TABLE}: image {i + 1} needs an engine of {ENGINES} and repositories")
        out.append(ImageRow(engine, tuple(r.lower() for r in repos),
                            tuple(row.get("release_after", ())), bool(row.get("release", True)),
                            row.get("dated") == "floor", tuple(row.get("main_tags", ()))))  # fmt: skip
    return tuple(out)


@cache
def literals() -> tuple[str, ...]:
    """Every repository's last path part (``sgl-dev``, ``vllm-openai``): a line naming one
    of the table's images holds one of these."""
    return tuple(sorted({repo.rsplit("/", 1)[-1] for row in rows() for repo in row.repositories}))


def _row(repository: str) -> ImageRow | None:
    """The row whose repository ends the image's name (a mirror's prefix allowed)."""
    name = repository.lower()
    for row in rows():
        if any(name == repo or name.endswith("/" + repo) for repo in row.repositories):
            return row
    return None


def _tag_release(tag: str, row: ImageRow) -> str | None:
    if not row.release:
        return None
    if (m := _LEADING.match(tag)) is not None:
        return m.group(1)
    for marker in row.release_after:
        at = tag.find(marker)
        if at >= 0 and (m := _LEADING.match(tag, at + len(marker))) is not None:
            return m.group(1)
    return None


def _tag_day(tag: str) -> date | None:
    return match_day(_DAY.search(tag))


def match_day(m: re.Match[str] | None) -> date | None:
    """The day a match's three groups (year, month, day) spell, or None (no match, or no such
    day: a build stamp's ``20251341`` is no date)."""
    if m is None:
        return None
    try:
        return date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return None


def _tag(row: ImageRow, tag: str, image: str) -> ImageTag:
    release, day = _tag_release(tag, row), _tag_day(tag)
    main = release is None and day is None and any(
        tag == t or tag.startswith(t + "-") for t in row.main_tags
    )
    return ImageTag(row.engine, release, day, bool(release and day and row.dated_floor), image, main)


def _worded(text: str) -> list[ImageTag]:
    """Engine images named in words with a tag (``_WORDED``), read by the engine's first row."""
    out = []
    for m in _WORDED.finditer(text):
        name = m.group("engine").lower()
        engine = _WORDED_ENGINES.get(name, "trtllm")
        row = next(r for r in rows() if r.engine == engine)
        out.append(_tag(row, m.group("tag"), m.group(0)))
    return out


def image_tags(text: str) -> list[ImageTag]:
    """The engine images ``text`` names, in order; images of other software are left out."""
    worded = _worded(text) if ("image" in text or "Image" in text) else []
    if not any(lit in text for lit in literals()):
        return worded
    out = []
    for m in _IMAGE.finditer(text):
        row = _row(m.group(1))
        if row is None:
            continue
        out.append(_tag(row, m.group(2), m.group(0)))
    return out + worded


def image_release(text: str, engine: str) -> str | None:
    """The release an ``engine`` image's tag in ``text`` states outright (not a nightly's
    floor); of two, the one a bump moves to; None for none or for two otherwise."""
    tags = [t for t in image_tags(text) if t.engine == engine and t.release and not t.floor]
    found = {t.release for t in tags}
    if len(found) > 1:  # a bump "from <old image> to <new image>": the new one runs after it
        found = {t.release for t in tags if _BUMPED_TO.search(text[: text.find(t.image)])}
    return found.pop() if len(found) == 1 else None


_BUMPED_TO = re.compile(r"(?:\bto|->|→)\s*[`'\"]?$")
