"""Two launches in one file: the seed v1 crash, then a relaunch with spec v2 that crashes too."""

from __future__ import annotations

from stories_sglang import MARKER, seed_incident, seed_log
from stories_v2 import v2_incident, v2_log


def relaunch() -> tuple[dict[str, bytes], dict]:
    """Each crash must be linked to the launch above it, not to the file's first or last dump."""
    first, marks1 = seed_log(minutes_per_level=0.3)
    second, marks2 = v2_log()
    shift = len(first.lines)
    marks2 = {key: value + shift for key, value in marks2.items()}
    first.extend(second.lines)
    expected = {
        "inputs": ["server.log"],
        "expect": [],
        "incidents": [
            seed_incident(marks1) | {"load_running_req": 10},
            # both SIGQUIT notices: grouped by signature or split per crash, either is accepted
            {"optional": True, "root_cause": False, "message_contains": "SIGQUIT received"},
            v2_incident(marks2),
            {
                "optional": True,
                "root_cause": False,
                "caused_by": 2,
                "message_contains": "Process group watchdog thread terminated",
            },
        ],
        "missing_markers": [],
        "present_markers": {MARKER: marks2["marker"]},
    }
    return {"server.log": first.text().encode()}, expected
