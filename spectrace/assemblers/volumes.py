"""A container path a launch names (``"model": "/draft"``) read as the host folder the text's
volume option mounts there (``docker run -v /models/gemma-4-31b-it-assistant:/draft``): the
folder's name tells which checkpoint the server loaded where the container path tells nothing."""

from __future__ import annotations

import re
from collections.abc import Sequence

from spectrace.dialects.base import LogLine

# the pre-filter's literals: a line holding a volume option reaches the config collector
VOLUME_LITERALS: tuple[bytes, ...] = (b"-v ", b"--volume", b"--mount")

# a container volume option: ``-v HOST:CONTAINER[:ro]``, ``--volume=HOST:CONTAINER``, and
# ``--mount type=bind,source=HOST,target=CONTAINER`` (its keys in any order)
_VOLUME = re.compile(r"""(?:^|\s)(?:-v|--volume)(?:\s+|=)["']?([^\s:"']+):(/[^\s:"']*)(?::\w+(?:,\w+)*)?["']?(?=\s|$)""")
_MOUNT = re.compile(r"(?:^|\s)--mount[\s=]+[\"']?(\S+)")
_MOUNT_KEY = re.compile(r"\b(source|src|target|destination|dst)=([^,\s\"']+)")


def mounted_from(lines: Sequence[LogLine], path: object) -> str | None:
    """The host path the text's one volume option mounts at container path ``path`` (an
    absolute path only); None where none or several sources are mounted there."""
    if not isinstance(path, str) or not path.startswith("/"):
        return None
    want = path.rstrip("/") or "/"
    found: set[str] = set()
    for line in lines:
        for host, inside in _VOLUME.findall(line.text):
            if (inside.rstrip("/") or "/") == want:
                found.add(host)
        for spec in _MOUNT.findall(line.text):
            keys = {"source" if k in ("source", "src") else "target": v for k, v in _MOUNT_KEY.findall(spec)}
            if "source" in keys and (keys.get("target", "").rstrip("/") or "/") == want:
                found.add(keys["source"])
    return found.pop() if len(found) == 1 else None
