"""A launcher's ``key=value`` record of the job it submits -> the run's speculative config.

Why: batch launchers (SLURM wrappers, sweep drivers) print the settings of the job they
submit one ``key=value`` per line (``engine_method=dspark``, ``num_speculative_tokens=7``), and
harnesses and agents keep them as JSON or YAML key lines of a deployment record
(``"speculative_method": "dspark",`` beside ``"num_speculative_tokens": 3,``):
the same facts as vLLM's ``--speculative-config '{"method": ..., "num_speculative_tokens":
...}'``, a config line like a flag. A record line is its key and value alone (no blank, no
sentence around them); a method is a key ending in ``_method`` whose value vLLM's method rows
know. Only with the draft size in vLLM's own spelling in the same record is it vLLM's config:
a method key alone is any program's setting."""

from __future__ import annotations

import re
from dataclasses import dataclass

from spectrace.dialects.base import LogLine
from spectrace.path_frames import method_signature

_RECORD = re.compile(r"(?P<key>[a-z][a-z0-9_]{0,60})=(?P<value>[^\s=\"']{1,80})")
# the same record written as a JSON or YAML key line (``"speculative_method": "dspark",``,
# ``num_speculative_tokens: 3``): a harness's or an agent's structured record of the deployment
_KEY_LINE = re.compile(r"""(?P<q>["']?)(?P<key>[a-z][a-z0-9_]{0,60})(?P=q)\s*:\s*(?P<v>["']?)(?P<value>[^\s"',:{}\[\]]{1,80})(?P=v),?""")
_SIZE_KEY = "num_speculative_tokens"
_GAP = 40  # lines between a record's method and its size: one job's record


@dataclass(slots=True)
class KvRecords:
    """The method and draft size record lines seen so far (one job's record at a time)."""

    method: tuple[str, LogLine] | None = None
    size: tuple[int, LogLine] | None = None
    done: bool = False

    def feed(self, line: LogLine) -> tuple[LogLine, dict[str, object]] | None:
        """The record's method line and its vLLM speculative config once the record holds both
        a method and a draft size (given once), else None."""
        if self.done or line.quoted:
            return None
        text = line.text.strip()
        m = _RECORD.fullmatch(text) or _KEY_LINE.fullmatch(text)
        if m is None:
            return None
        key, value = m["key"], m["value"]
        if key.endswith("_method") and method_signature("vllm", value) is not None:
            self.method = (value, line)
        elif key == _SIZE_KEY and value.isdigit():
            self.size = (int(value), line)
        else:
            return None
        if self.method is None or self.size is None:
            return None
        (method, at), (size, other) = self.method, self.size
        if at.source != other.source or abs(at.lineno - other.lineno) > _GAP:
            return None
        self.done = True
        return at, {"speculative_config.method": method, "speculative_config.num_speculative_tokens": size}
