"""torch.distributed ranks <-> the names a server prints for them (``rank7`` = ``TP7``).

NCCL's watchdog and c10 say ``[Rank 7]``; SGLang's log prefix says ``TP7``, ``DP1 TP5``,
``PP1 TP3`` or ``TP6 EP3``. Only the run's layout (tp_size, pp_size, dp_size, ep_size,
enable_dp_attention from the server_args dump) connects the two, so collateral can point at
its origin by arithmetic. SGLang's own rules (model_runner.init_torch_distributed and
scheduler.run_scheduler_process): the world is tp_size x pp_size, global rank = tp_size x
pp_rank + tp_rank, moe_ep_rank = tp_rank // (tp_size // ep_size), and under DP attention the
DP rank is tp_rank // (tp_size // dp_size) inside one world. Plain DP (no DP attention) runs
dp_size worlds of the same ranks: ``rank3`` is then ``TP3`` of an unknown replica.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from spectrace.node_label import split_node

_TORCH_RANK = re.compile(r"(?:\[?\s*rank\s*(\d+)\]?|(\d+))", re.IGNORECASE)
_PART = re.compile(r"\b(DP|PP|TP|EP)(\d+)\b")


@dataclass(frozen=True, slots=True)
class RankLayout:
    """How one SGLang run laid its processes out (all sizes 1 = a single process)."""

    tp_size: int = 1
    pp_size: int = 1
    dp_size: int = 1
    ep_size: int = 1
    dp_attention: bool = False

    @classmethod
    def from_flags(cls, flags: Mapping[str, object]) -> RankLayout:
        """From a run's flags (values or ``FlagValue``s with ``.value``); missing -> 1 / False."""

        def get(name: str) -> object:
            value = flags.get(name)
            return getattr(value, "value", value)

        def size(name: str) -> int:
            value = get(name)
            return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 1

        return cls(size("tp_size"), size("pp_size"), size("dp_size"), size("ep_size"),
                   get("enable_dp_attention") is True)  # fmt: skip

    @property
    def world_size(self) -> int:
        """Ranks of one torch.distributed world (one DP replica unless DP attention is on)."""
        return self.tp_size * self.pp_size

    @property
    def replicas(self) -> int:
        """Separate worlds: plain DP launches one per replica."""
        return 1 if self.dp_attention else self.dp_size

    def server_name(self, rank: int, replica: int | None = None) -> str | None:
        """The log prefix SGLang prints for global torch rank ``rank`` (``"DP1 TP5"``);
        ``replica`` is the DP replica under plain DP (unknown: the DP part is left out)."""
        if not 0 <= rank < self.world_size:
            return None
        pp, tp = divmod(rank, self.tp_size)
        parts = []
        if self.dp_attention and self.dp_size > 1:
            parts.append(f"DP{tp // max(self.tp_size // self.dp_size, 1)}")
        elif self.dp_size > 1 and replica is not None:
            parts.append(f"DP{replica}")
        if self.pp_size > 1:
            parts.append(f"PP{pp}")
        if self.tp_size > 1 or not parts:
            parts.append(f"TP{tp}")
        if self.ep_size > 1:
            parts.append(f"EP{tp // max(self.tp_size // self.ep_size, 1)}")
        return " ".join(parts)

    def names(self) -> list[str]:
        """Every server name of the run, in rank order (each replica in turn under plain DP)."""
        reps: list[int | None] = list(range(self.replicas)) if self.replicas > 1 else [None]
        return [n for rep in reps for r in range(self.world_size)
                if (n := self.server_name(r, rep)) is not None]  # fmt: skip

    def torch_rank(self, label: str) -> int | None:
        """The global torch rank of a label: ``rank7``, ``Rank 7``, ``7`` as they are, and a
        server name (``DP1 PP0 TP3 EP1``) by the layout; None when the label names neither. A
        node before it (``node03/rank7``) is the host's, not part of the rank."""
        label = split_node(label)[1]
        parts = {k: int(v) for k, v in _PART.findall(label)}
        if "TP" in parts or "PP" in parts:
            tp, pp = parts.get("TP", 0), parts.get("PP", 0)
            return tp + self.tp_size * pp if tp < self.tp_size and pp < self.pp_size else None
        m = _TORCH_RANK.fullmatch(label.strip())
        if m is None:
            return None
        return int(m.group(1) or m.group(2))

    def same_rank(self, a: str, b: str) -> bool:
        """Two labels name one process (``rank7`` and ``TP7``); a DP replica and a node both name
        must agree."""
        ra, rb = self.torch_rank(a), self.torch_rank(b)
        (na, a), (nb, b) = split_node(a), split_node(b)
        if ra is None or ra != rb or (na is not None and nb is not None and na != nb):
            return False
        da, db = _PART.findall(a), _PART.findall(b)
        dpa = next((v for k, v in da if k == "DP"), None)
        dpb = next((v for k, v in db if k == "DP"), None)
        return dpa is None or dpb is None or dpa == dpb
