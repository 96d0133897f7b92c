"""What the real-log round tests share: write our own lines as a log, analyse it as triage does."""

from __future__ import annotations

from pathlib import Path

from spectrace.incidents import Incident
from spectrace.pipeline import Analysis, analyse
from spectrace.worker_path import WorkerPath


def run(tmp_path: Path, lines: list[str], name: str = "server.log") -> Analysis:
    """The analysis of ``lines`` written as one UTF-8 log file named ``name``."""
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return analyse([str(path)])


def roots(analysis: Analysis) -> list[Incident]:
    """The root-cause incidents, in report order."""
    return [i for i in analysis.incidents if i.root_cause]


def crash_path(analysis: Analysis) -> WorkerPath:
    """The worker path of the one root-cause crash, which every such case must have."""
    (crash,) = roots(analysis)
    assert crash.worker_path is not None
    return crash.worker_path


# a crash appended to a thread that shows none, so that its run's verdict shows
PROBE = ["Traceback (most recent call last):", '  File "probe.py", line 1, in <module>', "RuntimeError: a probe"]


def probed_path(tmp_path: Path, lines: list[str]) -> WorkerPath:
    """The worker path ``lines`` give a probe crash appended to them."""
    return crash_path(run(tmp_path, [*lines, *PROBE]))


def assert_no_path(tmp_path: Path, lines: list[str], name: str = "server.log") -> None:
    """Every crash of the text (its own and a probe appended) gets no class and no condition."""
    for crash in roots(run(tmp_path, [*lines, "", *PROBE], name=name)):
        path = crash.worker_path
        assert path is not None and path.worker_class is None and not path.conditional, path
        assert path.value == "unknown", path


def assert_verdict(path: WorkerPath, value: str, classes: str) -> None:
    """``value`` "unknown": a condition naming every class of ``classes`` ("A|B"); else that
    value and worker class, decided."""
    if value == "unknown":
        assert path.value == "unknown" and path.conditional, path
        assert all(c in path.conditional for c in classes.split("|")), path.conditional
    else:
        assert (path.value, path.worker_class) == (value, classes), path


def launcher_stop(launch: str, func: str, message: str, root: str = "/opt/sgl/python/sglang") -> list[str]:
    """An SGLang launch whose traceback ends in its launcher (``server_args.py``'s ``func``)
    with ``message``, before any scheduler started: the exception is the text's line 7."""
    return [launch, "Traceback (most recent call last):",
            f'  File "{root}/launch_server.py", line 12, in <module>',
            "    server_args = prepare_server_args(sys.argv[1:])",
            f'  File "{root}/srt/server_args.py", line 5100, in {func}',
            "    raise ValueError(msg)", f"ValueError: {message}"]  # fmt: skip


def store_thread(repo: str, kind: str, number: int, title: str, day: str, body: list[str], *,
                 state: str = "open", lang: str = "Python", author: str = "someone",
                 post: str = "description") -> list[str]:
    """A thread as the issue store copies it: its header line, the title, one post's byline, the post."""
    return [f"{repo} · {kind} #{number} · {state} · {lang}", f"# {title}", "", f"{author} · {post} · {day}", *body]
