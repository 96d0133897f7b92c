"""Named errors: everything the CLI turns into one line on stderr and exit code 2."""

from __future__ import annotations


class SpectraceError(Exception):
    """Base class: a problem the user can fix, reported as one line."""


class InputError(SpectraceError):
    """An input cannot be read at all (missing, unreadable, a directory with no logs)."""


class RuleError(SpectraceError):
    """A rule file or rule is malformed; the message names the file, rule and key."""


class UsageError(SpectraceError):
    """Bad option values or combinations."""


class Interrupted(BaseException):
    """Ctrl-C: a BaseException, so neither ``except Exception`` nor typer (which turns a
    KeyboardInterrupt into a silent exit 130) swallows it before the CLI says so."""
