"""Feed raw lines through the real line parser into an assembler, as the scan does."""

from __future__ import annotations

from spectrace.assemblers.config import CONFIG_LITERALS, ConfigCollector
from spectrace.assemblers.crash import Crash
from spectrace.assemblers.fatal import FatalMatcher
from spectrace.assemblers.run_config import RunConfig
from spectrace.assemblers.tracebacks import TracebackAssembler
from spectrace.collect import Collector
from spectrace.dialects.detect import LineParser
from spectrace.ruleset import RuleSet

RULES = RuleSet.load()


def assemble(lines: list[str]) -> list[Crash]:
    """Tracebacks only: what the traceback assembler makes of the lines."""
    parser, asm = LineParser("t.log"), TracebackAssembler()
    out: list[Crash] = []
    for n, raw in enumerate(lines, 1):
        out += asm.feed(parser.parse(raw.encode(), n, 0)).crashes
    return out + asm.close_all()


def collect(lines: list[str]) -> list[Crash]:
    """Tracebacks, fatal lines and benign rules together, with the bundled rules."""
    parser, coll = LineParser("f.log"), Collector(FatalMatcher(RULES))
    for n, raw in enumerate(lines, 1):
        coll.feed(parser.parse(raw.encode(), n, 0))
    coll.close()
    return coll.crashes


def collect_config(*texts: str) -> RunConfig:
    """The config the collector makes of the lines that carry a config literal."""
    parser, collector = LineParser("run.log"), ConfigCollector()
    for n, text in enumerate(texts, 1):
        if any(lit.decode() in text for lit in CONFIG_LITERALS):
            collector.feed(parser.parse(text.encode(), n, 0))
    return collector.result()
