"""rank7 = TP7: the run's layout turns torch.distributed ranks into the server's names."""

from __future__ import annotations

from spectrace.assemblers.run_config import FlagValue
from spectrace.rank_layout import RankLayout


def test_tp_only_rank_is_the_tp_rank() -> None:
    layout = RankLayout(tp_size=8)
    assert layout.server_name(7) == "TP7"
    assert layout.torch_rank("rank7") == layout.torch_rank("TP7") == 7
    assert layout.same_rank("rank7", "TP7") and not layout.same_rank("rank6", "TP7")
    assert layout.server_name(8) is None  # no such rank in an 8-way world


def test_pipeline_ranks_count_tp_first() -> None:
    layout = RankLayout(tp_size=4, pp_size=2)
    assert layout.names() == [f"PP{p} TP{t}" for p in (0, 1) for t in range(4)]
    assert layout.server_name(6) == "PP1 TP2"
    assert layout.torch_rank("PP1 TP2") == 6


def test_dp_attention_and_ep_are_inside_one_world() -> None:
    layout = RankLayout.from_flags({
        "tp_size": FlagValue(8, "s.log", 1, "server_args"),
        "dp_size": FlagValue(4, "s.log", 1, "server_args"),
        "ep_size": FlagValue(8, "s.log", 1, "server_args"),
        "enable_dp_attention": FlagValue(True, "s.log", 1, "server_args"),
    })  # fmt: skip
    assert layout.world_size == 8
    assert layout.server_name(5) == "DP2 TP5 EP5"
    assert layout.torch_rank("DP2 TP5 EP5") == 5


def test_plain_dp_replicas_share_rank_numbers() -> None:
    layout = RankLayout(tp_size=2, dp_size=2)
    assert layout.names() == ["DP0 TP0", "DP0 TP1", "DP1 TP0", "DP1 TP1"]
    assert layout.server_name(1) == "TP1"  # which replica is not known from a torch rank
    assert layout.same_rank("rank1", "DP1 TP1") and not layout.same_rank("DP0 TP1", "DP1 TP1")


def test_missing_or_odd_flags_mean_a_single_process() -> None:
    layout = RankLayout.from_flags({"tp_size": "eight", "pp_size": 0, "enable_dp_attention": 1})
    assert layout == RankLayout()
    assert layout.names() == ["TP0"]
    assert layout.torch_rank("EngineCore_DP0") is None
