"""The sglang release a log shows (check_env, pip, image tags, source paths) -> its era.

sglang never logs its own version, but bug reports nearly always carry it: the issue template
asks for ``python3 -m sglang.check_env`` (``sglang: 0.5.10.post1``), launch commands name the
image (``lmsysorg/sglang:v0.5.10-cu126``), pip lines pin it (``sglang==0.5.10``), source trees
are named after it (``/work/sglang-0.4.7/python/sglang/...``). The era decides the worker
path as the start-up warnings do (LOG_FORMATS.md 1.5): v1 and v2 coexist from 0.5.4 to 0.5.12.
"""

from __future__ import annotations

import re

# Prefilter literals: every line find_sglang_version can use contains one.
VERSION_LITERALS: tuple[bytes, ...] = (b"sglang: ", b"sglang==", b"lmsysorg/sglang:", b"/sglang-0.")

_NUMBER = r"(\d+)\.(\d+)\.(\d+)"
_FORMS = (
    re.compile(r"^\s*sglang: " + _NUMBER + r"\S*\s*$"),  # check_env
    re.compile(r"\bsglang==" + _NUMBER),  # pip freeze / install
    re.compile(r"\blmsysorg/sglang:v?" + _NUMBER),  # docker image tag
    re.compile(r"/sglang-" + _NUMBER + r"/"),  # a source tree named after its release
)
# (first patch release of the era, era) for 0.5.x, newest first; eras as spec_warnings names them.
_ERAS_05 = ((17, "0.5.17+"), (13, "0.5.13+"), (11, "0.5.11-0.5.12"), (7, "0.5.7-0.5.10"),
            (5, "0.5.5-0.5.6"), (4, "0.5.4"))  # fmt: skip
OLD_ERA = "0.4.x-0.5.3"


def find_sglang_version(text: str) -> tuple[int, int, int] | None:
    """(major, minor, patch) of the first form the line holds."""
    for form in _FORMS:
        m = form.search(text)
        if m is not None:
            major, minor, patch = (int(part) for part in m.groups())
            return major, minor, patch
    return None


def era_of(version: tuple[int, int, int]) -> str:
    """The release range the worker-path rules are written for."""
    if version < (0, 5, 4):
        return OLD_ERA
    if version >= (0, 6, 0):
        return "0.5.17+"
    return next(era for first, era in _ERAS_05 if version[2] >= first)
