"""The sglang release a log shows (check_env, pip, image tags, source paths) -> its era.

sglang never logs its own version, but bug reports nearly always carry it: the issue template
asks for ``python3 -m sglang.check_env`` (``sglang: 0.5.10.post1``), launch commands name the
image (``lmsysorg/sglang:v0.5.10-cu126``), pip lines pin it (``sglang==0.5.10``), source trees
are named after it (``/work/sglang-0.4.7/python/sglang/...``). The era decides the worker
path as the start-up warnings do (LOG_FORMATS.md 1.5): v1 and v2 coexist from 0.5.4 to 0.5.12.
"""

from __future__ import annotations

import re
from datetime import date
from functools import cache

from spectrace.assemblers.image_tags import image_tags, match_day
from spectrace.assemblers.sentences import sentences
from spectrace.assemblers.sglang_eras import ALL_POSTS, Version, era_rules, parse_release, published, rules_for
from spectrace.path_frames import method_releases

# Prefilter literals: every line find_sglang_version can use contains one.
VERSION_LITERALS: tuple[bytes, ...] = (
    b"sglang: ", b"sglang==", b"sglang[", b"lmsysorg/sglang:", b"sglang-0.",
    b"SGLang ", b"sglang v", b"sglang 0.", b"SGLang: ", b"sglang version", b"SGLang version",
    b"sglang  ", b"sglang\t",  # pip list / conda list rows pad the name column
    b"Name: sglang", b"Version: ",  # pip show: the release on the line after the name
    b"v0.", b"sgl-project/sglang",  # a bare "v0.5.16", a line naming the repository
    b"sglang/srt/", b"SGLangEngine",  # a file of SGLang's runtime tree (a frame), RL actor
    b"from main", b"on main", b"latest main", b"(main)", b"from source",  # a build of main
    b"main @", b"main@", b"main` at", b"main at ", b"master @", b"master@", b"(main,", b"(main;",  # main at a commit
    b"sglang to ", b"SGLang to ",  # "bumped sglang to 0.5.14"
    b"sgl-project", b"EAGLEWorker",  # the organisation, SGLang's worker class (files: b"agle")
    b"sgl-dev", b"sglang-rocm",  # images of images.toml whose name or tag may hold no "v0."
    b"nightly-dev-",  # a nightly image's tag named alone (``nightly-dev-cu13-20260708-b3632494``)
    "sglang版本".encode(), "SGLang版本".encode(),  # a Chinese report's "sglang版本：0.5.3"
    # an environment report's field, padded or keyed (``SGLang :  0.5.17``, ``"sglang_version": "0.5.17"``)
    b"SGLang:  ", b"SGLang :", b"sglang :", b'"sglang": "', b'"sglang":"', b"sglang_version", b"SGLANG_VERSION",
    b"sglang |", b"SGLang |", b"sglang|", b"SGLang|", b"SGLang**",  # a Markdown table's row
    b"sglang:", b"sglang-",  # an image of the user's own (``team/dgx-spark-sglang:0.5.12``)
    b"__version__",  # ``sglang.__version__`` with its answer
)  # fmt: skip

_NUMBER = r"(\d+)\.(\d+)\.(\d+)(?:\.post(\d+))?"
_FORMS = (
    re.compile(r"^\s*sglang: " + _NUMBER + r"\S*\s*$"),  # check_env
    re.compile(r"\bsglang(?:\[[\w,\s-]{1,40}\])?==" + _NUMBER),  # pip freeze / install, extras
    re.compile(r"\blmsysorg/sglang:v?" + _NUMBER),  # docker image tag
    re.compile(r"/sglang-" + _NUMBER + r"/"),  # a source tree named after its release
    # another registry's image whose tag names the release: "rocm/sgl-dev:sglang-0.5.14-rocm720"
    re.compile(r"\b[\w.-]+/[\w.-]+:(?:[\w.]+-)?sglang-v?" + _NUMBER),
    re.compile(r"\bSuccessfully installed\b.*\bsglang-" + _NUMBER + r"\b"),  # pip's last line
    # the installed package's folder, a wheel or an sdist: ``sglang-0.5.3.post1.dist-info``,
    # ``sglang-0.5.15-py3-none-any.whl``, ``sglang-0.4.6.tar.gz`` (not sgl_kernel's, sglang_router's)
    re.compile(r"(?<![\w.-])sglang-" + _NUMBER + r"(?=\.dist-info|\.egg-info|\.tar\.gz|-py3|-cp3)"),
    # the package's own answer on the line that asks it: ``print(sglang.__version__)"  # 0.5.3``,
    # ``>>> sglang.__version__ '0.4.6'`` (an answer on the next line is not read)
    re.compile(r"\bsglang\.__version__\W{1,40}?v?" + _NUMBER + r"(?![\d.]*\d)"),
    # pip installing a tag of the repository: ``git+https://github.com/sgl-project/sglang.git@v0.5.14``
    re.compile(r"\bsgl-project/sglang(?:\.git)?@v?" + _NUMBER + r"(?![\d.]*\d)"),
    # a Markdown table's row naming the engine, its release in the next cell: ``| SGLang |
    # 0.5.14 |``, ``|**sglang version**|`v0.5.10`|`` (the parser may have taken the leading
    # pipe as a prefix); one release in the row (a row comparing two releases names neither)
    re.compile(
        r"(?i)^\s*\|?\s*\**sglang(?:\s+version)?\**\s*\|\s*[`'\"]?v?" + _NUMBER
        + r"(?![\d.]*\d)(?=[^|]*\|)(?!.*\|\s*[`'\"]?v?\d+\.\d+\.\d)"
    ),
    # prose and environment lists: "- SGLang 0.5.17 (venv)", "I use sglang v0.5.10", "SGLang
    # version: 0.5.4", "bumped sglang to 0.5.14"; not sglang-router / sgl-kernel, whose numbers are their own
    # (the number may sit in backticks: "SGLang `0.5.19.dev410+gedff717ef`")
    re.compile(
        r"(?i)(?<![A-Za-z0-9_./-])sglang(?:\s*(?:版本号?|バージョン|버전)\s*(?:为|是|為|は)?|[\s_]+version)?[`'\"]?(?:\s+to)?"
        r"\s*[:：=]?\s*[`'\"]?v?"
        + _NUMBER
        + r"(?![\d.]*\d)"
    ),
    # the name joined to its release by a hyphen, as a record's field or a build's name gives it
    # ("engine": "sglang-v0.5.15 + 25 patches"); a wheel's or a tree's name is read above
    re.compile(r"(?i)(?<![\w./-])sglang-v?" + _NUMBER + r"(?![\d.]*\d)(?![\w-]|\.[A-Za-z])"),
)


# A bare "v0.5.16" after a bracket, a comma or a preposition (an issue title's "(..., v0.5.16)",
# "no crash on v0.5.16"); not after another package's name ("flashinfer v0.2.5"). It is
# sglang's release only in a text about sglang and only where no other form names one.
_BARE = re.compile(
    r"(?:^|[(\[]|,\s*|\b(?:on|in|with|of|at|since|from|to|and|than|vs\.?|using)\s+)v"
    + _NUMBER
    + r"(?![\w.]*\d)(?![\w-])"
)
# a release tag the source was checked out or built at: ``cd sglang && git checkout v0.5.15``,
# ``git clone -b v0.4.6 .../sgl-project/sglang`` (a line naming sglang: "cd flashinfer && git
# checkout v0.2.5" is another package's), "at tag v0.4.7", "source: tag `v0.5.15`", "built
# from the v0.5.15 tag"; not "<package> tag v0.2.5"
_TAGGED = re.compile(
    r"(?i)(?:^(?=.*\bsglang\b).*?(?:\bcheckout\s+(?:tags/)?|(?<!\S)(?:-b|--branch)[=\s]\s*)"
    r"|\b(?:at|source:?|the|from|release)\s+tag:?\s+)[`'\"]?v" + _NUMBER
    + r"(?![\w.]*\d)(?![\w-])|\bthe\s+[`'\"]?v" + _NUMBER + r"(?![\w.]*\d)[`'\"]?\s+(?:release\s+)?tag\b"
)
# the word, the repository, an RL trainer's rollout actor ``(SGLangEngine pid=N)``
_ABOUT = re.compile(
    r"(?i)(?<![\w./-])sglang(?![\w-])|\bsgl-project/sglang(?![\w-])"
    r"|\bSGLangEngine\b"
    # the organisation ("sgl-project:main" on a PR page; not its other repositories, such as
    # the JAX port sgl-project/sglang-jax), classes and files only SGLang has
    r"|\bsgl-project\b(?!/)|\bEagle(?:Draft|Verify)Input\b|\beagle_worker(?:_v2)?\.py\b|\bEAGLEWorker(?:V2)?\b"
    # any file of SGLang's runtime tree (every scheduler traceback runs ``sglang/srt/managers/
    # scheduler.py``; a frame through ``/sgl-workspace/sglang/python/sglang/srt/layers/x.py``):
    # SGLang's own code ran (the file as a frame writes it, quoted or with its line: a sentence
    # naming the file beside another engine is no run of SGLang's code)
    r"|(?<![\w-])sglang/srt/[\w/.-]+\.py(?:\"|:\d)"
)


# a bare release the line says broke ("(v0.5.13 regression)", "regression in v0.5.13", "fails
# on v0.5.13", "after upgrading to v0.5.13"): the one the crash ran, where a working one is named too
_FAILING = re.compile(
    r"(?i)\bv" + _NUMBER + r"\s*\)?\s*regress|\b(?:regress\w*|broken|breaks|fails?|crash\w*|"
    r"upgrad\w*)\s+(?:\w+\s+)?(?:in|on|to|with|since|after)\s+v" + _NUMBER
)


def bare_releases(text: str) -> set[Version]:
    """The ``vX.Y.Z`` numbers a line names with no package beside them (a checkout's tag too)."""
    found = {_numbers(m) for m in _BARE.finditer(text)} | {_numbers(m) for m in _TAGGED.finditer(text)}
    return {r for r in found if speculates(r)}


def failing_releases(text: str) -> set[Version]:
    """The bare releases a line names as the one that broke (the regression's release)."""
    out = set()
    for m in _FAILING.finditer(text):
        groups = m.groups()
        numbers = groups[:4] if groups[0] is not None else groups[4:]
        out.add(_numbers_of(numbers))
    return {r for r in out if speculates(r)}


def _numbers_of(parts: tuple[str | None, ...]) -> Version:
    numbers = tuple(int(part) for part in parts if part is not None)
    return numbers if len(numbers) == 4 and numbers[3] else numbers[:3]


def about_sglang(text: str) -> bool:
    """The line names sglang (the word, its repository) or runs its code (a scheduler frame, a
    rollout engine's actor prefix): a text showing SGLang's own process is about SGLang."""
    return _ABOUT.search(text) is not None


def sglang_releases(text: str) -> set[Version]:
    """Every release the line's forms name (two image tags on one line: two releases)."""
    found = {_numbers(m) for form in _FORMS for m in form.finditer(text)} | set(_image_releases(text))
    return {r for r in found if speculates(r)}


@cache
def _first_speculative() -> Version:
    """The first release with any speculative worker: the oldest first release of sglang.toml's
    ``[[method]]`` rows (EAGLE, 0.4.1.post2)."""
    firsts = [parse_release(first.removeprefix("v")) for _, first in method_releases("sglang") if first]
    return min(f for f in firsts if f is not None)


def speculates(release: Version) -> bool:
    """``release`` had a speculative worker (0.0.0, an untagged build of main, has them). An
    older number beside "sglang" is no speculative run's release: another product's own version
    of its SGLang build (``rocm/infera:sglang-v0.1.0-rc6``, "switched from v0.1.1"), so the era
    is read from the text's other lines."""
    return release[:3] == (0, 0, 0) or release >= _first_speculative()


# an image of the user's own registry whose name carries the engine (``registry.local/team/dgx-
# spark-sglang:0.5.12``, ``team/sglang-patched:v0.4.6-cu124``): its tag's leading number
_OWN_IMAGE = re.compile(
    r"(?<![\w./:-])(?:[\w.-]+/)*(?P<name>(?:[\w.]+[-_])*sglang(?:[-_][\w.]+)*):v?" + _NUMBER
    + r"(?![\d.]*\d)(?=$|[-_+\s`'\",;)\]])"
)
# names of SGLang's other packages and services, whose images carry their own releases
_NOT_ENGINE = re.compile(r"(?i)[-_](?:router|kernel|jax|gateway|lb|proxy|client|ui|frontend)(?![a-z])")


def _own_images(text: str) -> list[Version]:
    """The releases images of the user's own state (``_OWN_IMAGE``), where the number is one
    SGLang published: a team's own tag (``team/sglang-serving:1.2.0``) is no release of it; a
    ``-dev`` tag (``team/sglang:0.5.13-dev-sm121``) is a build before it (``_release``)."""
    releases = {r[:3] for r, _ in published()}
    found = (_release(_numbers_of(m.groups()[1:]), _DEV.match(text, m.end()) is not None)
             for m in _OWN_IMAGE.finditer(text) if not _NOT_ENGINE.search(m.group("name")))  # fmt: skip
    return [r for r in found if r is not None and r[:3] in releases]


def _image_releases(text: str) -> list[Version]:
    """The releases SGLang images of images.toml state outright (``lmsysorg/sglang-rocm:v0.5.19-
    rocm700-mi35x``); a tag with a build day is a nightly of main (``dev_floor``); an image of
    the user's own naming the engine (``_own_images``)."""
    out = _own_images(text) if "sglang" in text else []
    for tag in image_tags(text):
        if tag.engine == "sglang" and tag.release is not None and not tag.floor:
            found = _release(_parts(tag.release))
            if found is not None:
                out.append(found)
    return out


def dev_floor(text: str) -> Version | None:
    """The release a dated SGLang image's tag starts from (``rocm/sgl-dev:v0.5.19-rocm700-mi30x-
    20260908``: SGLang's ROCm nightly names its build after version.py): main on that day is
    at least that release."""
    found = [_parts(t.release) for t in image_tags(text)
             if t.engine == "sglang" and t.release is not None and t.floor]  # fmt: skip
    return min(found) if found else None


def _parts(release: str) -> Version:
    """``0.5.19`` / ``0.5.13.post1`` -> (0, 5, 19) / (0, 5, 13, 1); an rc reads as its base."""
    m = re.match(_NUMBER, release)
    return _numbers(m) if m is not None else (0, 0, 0)


# a line naming a release that is not the reporter's run: the fix's, a suggestion, another report
# ... or the good one, the workaround, a release's notes ("Downgrading to sglang 0.5.3 avoids
# it", "Works with sglang 0.5.3 but crashes on main", "Last known good: sglang==0.5.3")
_OTHER = re.compile(
    r"(?i)\bfix(?:ed|es)?\b|\bresolved\b|\breleased\b|\bplease\b|\bcould you\b|\btry\b"
    r"|\breported\b|#\d|\bnew image\b|\?|\bdowngrad\w*|\bavoid\w*|\blast known\b"
    r"|\bworkaround\b|\binstead\b|\brelease notes?\b|\bchangelog\b|\broll(?:ed|ing)?[ -]?back\b"
    r"|\brevert\w*|\bonly on\b"
    # "can't reproduce on 0.5.9", "reproduces on 0.5.3 too"; not the writer's own count of the run
    # ("Reproduced twice (2/2 boots) on the 2026-07-08 nightly")
    r"|\breproduc\w*\b(?!\s+(?:twice|thrice|\d+\s*(?:/\s*\d+|times?|x)\b|every\s+time|consistently|reliably"
    r"|deterministically|\(\d+\s*/\s*\d+))"
)
# a release said to work ("(works on v0.5.3)", "fine with sglang 0.5.3"): not the run's, unless
# the line goes on to say it then fails ("SGLang 0.5.14, works fine for 10 minutes, then crashes")
_WORKS = re.compile(r"(?i)\b(?:works?|worked|working|fine|good|ok)\b(?P<rest>.*)")
_WORKS_ON = re.compile(
    r"(?i)\b(?:works?|worked|working|fine|good|ok)\s+(?:\w+\s+)?(?:on|with|in|under)\s+"
    r"(?:(?:sglang|vllm|tensorrt[-_]llm|trt[-_]?llm)\s+|the\s+)?v?\d+\.\d+"
)  # "works with sglang 0.5.3 but crashes on main", "works on vLLM 0.7.3": the working one
_THEN_FAILS = re.compile(r"(?i)\b(?:crash\w*|fail\w*|errors?|hangs?|breaks?|OOMs?)\b")
# the run is a build of main ("installed from main", "built from source (main)", "on the latest
# main"): newer than every release the text names
_MAIN = re.compile(
    r"(?i)\b(?:from|on|of|at)\s+(?:the\s+)?(?:latest\s+|current\s+)?(?:main|master)\b(?![-/\w]|\.\w)"
    r"|\bbuilt from source\b|\binstall(?:ed)? from source\b|\(main\)"
    # main at a commit ("main @ `f42ec350b431`", "`main` at `77aee202`", "master@1a2b3c4d"), or a
    # commit's parenthesis saying it is main's ("sglang @ 18107e38 (main, 2026-08-14)"); only
    # after a commit: Python's own version line says "3.12.3 (main, Nov  6 2025, ...)"
    r"|\b(?:main|master)`?\s*(?:@|\bat\b)\s*(?:commit\s+)?`?[0-9a-f]{7,40}\b"
    r"|\b[0-9a-f]{7,40}`?\s*\((?:on\s+)?(?:main|master)\s*[,;]"
    r"|(?<![\d.])0\.0\.0\.dev\d"  # a source build with no release tag (setuptools-scm's 0.0.0.devN+g<hash>)
)


# a nightly image of main, tagged with its build day ("lmsysorg/sglang:nightly-dev-cu13-20260624-b2c8f7a2",
# "lmsysorg/sglang:nightly-dev-20250915-abc"): the code of SGLang's main on that day
_NIGHTLY = re.compile(
    r"\blmsysorg/sglang(?:-rocm)?:(?:nightly|dev)[\w.-]*?(?<!\d)(20\d\d)(\d\d)(\d\d)(?!\d)"
)
# the tag alone, in SGLang's nightly spelling with its commit ("the 2026-07-08 nightly
# (`nightly-dev-cu13-20260708-b3632494`)"): no other engine tags its images so
_NIGHTLY_TAG = re.compile(r"(?<![\w./:-])nightly-dev(?:-cu\d{2,3})?-(20\d\d)(\d\d)(\d\d)-[0-9a-f]{7,40}\b")


def nightly_day(text: str) -> date | None:
    """The build day of a nightly image of SGLang's main the line names, or None (any image
    of images.toml's SGLang rows whose tag carries a day: ``rocm/sgl-dev:20250701``)."""
    m = _NIGHTLY.search(text) or _NIGHTLY_TAG.search(text)
    if m is None:
        return next((t.day for t in image_tags(text) if t.engine == "sglang" and t.day), None)
    return match_day(m)


# setuptools-scm's build of a dirty tree: ``sglang: 0.0.0.dev13972+g4f080703c.d20260615``,
# ``SGLang: 0.5.19.dev410+gedff717ef.d20260901``: the day the package was built
_BUILT = re.compile(
    r"(?i)(?<![\w./-])sglang(?:\s+version)?(?:\s*[:=]{1,2}\s*|\s+)[`'\"]?\d+\.\d+\.\d+(?:\.post\d+)?\.?dev\d+\+g[0-9a-f]{7,40}"
    r"\.d(20\d\d)(\d\d)(\d\d)(?!\d)"
)


def built_day(text: str) -> date | None:
    """The day an untagged SGLang build was made (its version's ``.dYYYYMMDD``), or None: its
    code is no newer than that day (a checkout is older than its build, never newer)."""
    return match_day(_BUILT.search(text))


def from_main(text: str) -> bool:
    """The line says the run is a build of SGLang's main branch, not a release (in words, or
    by an image images.toml lists as built from main: ``lmsysorg/sglang:dev``); a source
    build at a release tag ("from source at tag v0.4.7") is that release's."""
    return (_MAIN.search(text) is not None and _TAGGED.search(text) is None) or any(
        t.main for t in image_tags(text) if t.engine == "sglang"
    )


def other_release(text: str) -> bool:
    """The line names a release as the fix, a suggestion or another report's, not the run's
    (check_env's own ``sglang: X`` line is always the run's). Only the sentences holding a
    release are read: a question beside the run's statement ("We launch X on sglang 0.5.9 and it
    dies. Should we file this elsewhere?") sets no release apart."""
    if printed_release(text):
        return False
    cut = sentences(text)
    held = [(s, " ".join(cut[i + 1 :])) for i, s in enumerate(cut) if _A_RELEASE.search(s)]
    return any(_other_sentence(s, later) for s, later in held or [(text, "")])


# a release number a sentence may hold ("0.5.9", "v0.11", "vLLM 0.9.2")
_A_RELEASE = re.compile(r"(?<![\w.])v?\d+\.\d+")


def _other_sentence(text: str, later: str) -> bool:
    """The sentence names its release as the fix, a suggestion or another report's (said to
    work, unless it or the ``later`` sentences go on to fail: "0.5.14 works for ten minutes.
    Then it crashes.")."""
    if _WORKS_ON.search(text) is not None:
        return True
    works = _WORKS.search(text)
    if works is not None and _THEN_FAILS.search(f"{works.group('rest')} {later}") is None:
        return True
    return _OTHER.search(text) is not None


def printed_release(text: str) -> bool:
    """The line is check_env's own ``sglang: X`` (the release of the reporter's environment)."""
    return _FORMS[0].search(text) is not None


def find_sglang_version(text: str) -> Version | None:
    """(major, minor, patch[, post]) of the first form the line holds."""
    for form in _FORMS:
        m = form.search(text)
        if m is not None and speculates(_numbers(m)):
            return _release(_numbers(m), _dev_after(text, m))
    images = _image_releases(text)
    return images[0] if images else None


# setuptools-scm's version of an untagged build (``0.5.11.dev45+gabc1234``: 45 commits past the
# highest tag, which is older than 0.5.11): sglang's tools/get_version_tag.py, 0.5.13-0.5.23
_DEV = re.compile(r"\.?dev\d|-dev(?![\w.])")  # also a table's or a tag's ``0.5.14-dev``


def _dev_after(text: str, m: re.Match[str]) -> bool:
    """The matched release number is followed by ``.devN``: an untagged build before it."""
    end = m.end(4) if m.group(4) is not None else m.end(3)
    return _DEV.match(text, end) is not None


def _release(version: Version, dev: bool = False) -> Version | None:
    """None for 0.0.0: the version a build of main without tags reports, no release. A dev
    build of X.Y.Z holds code between the release before it and X.Y.Z: X.Y.Z where the era
    table has one row for both, else None (no one release's rule is its own)."""
    if version[:3] == (0, 0, 0):
        return None
    if dev and rules_for(None, _before(version)) != rules_for(None, version):
        return None
    return version


def _before(version: Version) -> Version:
    """The newest release a dev build of ``version`` can follow: its previous post release, or
    the last post of the previous published release."""
    if len(version) > 3 and version[3] > 1:
        return (*version[:3], version[3] - 1)
    if len(version) > 3:
        return version[:3]
    older = [release for release, _ in published() if release < version[:3]]
    return (*older[-1][:3], ALL_POSTS - 1) if older else (0, 0, 0)


def _numbers(m: re.Match[str]) -> Version:
    return _numbers_of(m.groups())


_PIP_SHOW_NAME = re.compile(r"^\s*Name:\s*sglang\s*$")
_PIP_SHOW_VERSION = re.compile(r"^\s*Version:\s*" + _NUMBER)


def pip_show_version(previous: str, text: str) -> Version | None:
    """``pip show sglang`` prints ``Name: sglang`` then ``Version: 0.5.2``: the release of a
    ``Version:`` line whose previous line names sglang."""
    m = _PIP_SHOW_VERSION.match(text)
    if m is None or not _PIP_SHOW_NAME.match(previous):
        return None
    return _release(_numbers(m), _dev_after(text, m))


def era_of(version: Version) -> str:
    """The release range the worker-path rules are written for (the era table's row)."""
    rows = era_rules()
    return next((r.era for r in rows if r.first <= version and (r.last is None
                 or version <= r.last)), rows[-1].era)  # fmt: skip
