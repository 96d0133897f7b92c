"""The option tables: what the generator reads from a release tree, and what the loader accepts.

The source trees here are our own small files written in the three frameworks' shapes
(argparse calls, annotated dataclass fields, get_kwargs(Config) fields, click options).
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import pytest

from spectrace.assemblers.launch_options import OptionTable, OptionTables, TableError

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import gen_option_tables as gen  # noqa: E402
from gen_option_frameworks import sglang_options, trtllm_options, vllm_options  # noqa: E402

SGLANG_OLD = """
import argparse
CHOICES = ["EAGLE", "NEXTN"]

class DeprecatedAction(argparse.Action):
    def __init__(self, option_strings, dest, nargs=0, **kwargs):
        super().__init__(option_strings, dest, nargs=nargs, **kwargs)

class ServerArgs:
    @staticmethod
    def add_cli_args(parser):
        parser.add_argument("--tensor-parallel-size", "--tp-size", type=int, default=1)
        parser.add_argument("--speculative-algorithm", type=str, choices=CHOICES)
        parser.add_argument("--cuda-graph-bs", type=int, nargs="+")
        parser.add_argument("--disable-overlap-schedule", action="store_true")
        parser.add_argument("--enable-foo", action=DeprecatedAction)
        parser.add_argument("--json-model-override-args", type=json.loads)

    @classmethod
    def from_cli_args(cls, args):
        args.tp_size = args.tensor_parallel_size
        return cls()
"""

SGLANG_NEW = """
from typing import Literal, Optional
class ServerArgs:
    tp_size: A[int, Arg(help="tp", aliases=["--tensor-parallel-size"])] = 1
    speculative_algorithm: A[Optional[str], "algorithm"] = None
    cuda_graph_bs: A[Optional[List[int]], "sizes"] = None
    disable_overlap_schedule: A[bool, "off"] = False
    attention_backend: A[Optional[Literal["fa3", "triton"]], "backend"] = None
    hidden: A[int, Arg(help="x", no_cli=True)] = 0
    plain: int = 3

    @staticmethod
    def add_cli_args(parser):
        add_cli_args_from_dataclass(parser, ServerArgs)
        parser.add_argument("--config", type=str)
"""

VLLM_CONFIG = """
from dataclasses import dataclass
from typing import Literal, Optional

@config
@dataclass
class SpeculativeConfig:
    method: Optional[str] = None

@dataclass
class ParallelConfig:
    tensor_parallel_size: int = 1
    enable_expert_parallel: bool = False

@dataclass
class SchedulerConfig:
    cuda_graph_sizes: list[int] = None

@dataclass
class VllmConfig:
    speculative_config: Optional[SpeculativeConfig] = None
"""

VLLM_ARGS = """
class EngineArgs:
    @staticmethod
    def add_cli_args(parser):
        parallel_kwargs = get_kwargs(ParallelConfig)
        vllm_kwargs = get_kwargs(VllmConfig)
        group = parser.add_argument_group()
        group.add_argument("--tensor-parallel-size", "-tp", **parallel_kwargs["tensor_parallel_size"])
        group.add_argument("--enable-expert-parallel", **parallel_kwargs["enable_expert_parallel"])
        group.add_argument("--cuda-graph-sizes", **get_kwargs(SchedulerConfig)["cuda_graph_sizes"])
        group.add_argument("--speculative-config", **vllm_kwargs["speculative_config"])
        parser.add_argument("--disable-log-stats", action="store_true")
"""

VLLM_FRONTEND = """
@config
class FrontendArgs:
    port: int = 8000
    api_key: Optional[str] = None

    @classmethod
    def add_cli_args(cls, parser):
        frontend_kwargs = get_kwargs(cls)
        for key, value in frontend_kwargs.items():
            parser.add_argument(f"--{key.replace('_', '-')}", **value)
        return parser
"""

TRTLLM = """
@click.command("serve")
@click.argument("model", type=str)
@click.option("--tensor_parallel_size", "--tp_size", type=int, default=1)
@click.option("--trust_remote_code", is_flag=True, default=False)
@click.option("--config", "--extra_llm_api_options", "extra_llm_api_options", type=str)
@click.option("--backend", type=click.Choice(["pytorch", "tensorrt"]), default="pytorch")
def serve(model, **kwargs):
    pass
"""


def tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def by_name(options) -> dict[str, gen.Option]:
    return {o.names[0]: o for o in options}


def test_sglang_add_argument_calls(tmp_path: Path) -> None:
    got = by_name(sglang_options(tree(tmp_path, {"sglang/srt/server_args.py": SGLANG_OLD})))
    assert got["--tensor-parallel-size"].names == ("--tensor-parallel-size", "--tp-size")
    assert got["--tensor-parallel-size"].dest == "tp_size"  # from_cli_args renames it
    assert got["--speculative-algorithm"].choices == ("EAGLE", "NEXTN")
    assert (got["--cuda-graph-bs"].nargs, got["--cuda-graph-bs"].type) == ("+", "int")
    assert got["--disable-overlap-schedule"].action == "store_true"
    assert got["--enable-foo"].action == "store_true"  # a custom action forcing nargs=0
    assert got["--json-model-override-args"].type == "json"


def test_sglang_annotated_fields(tmp_path: Path) -> None:
    got = by_name(sglang_options(tree(tmp_path, {"sglang/srt/server_args.py": SGLANG_NEW})))
    assert got["--tp-size"].names == ("--tp-size", "--tensor-parallel-size")
    assert got["--tp-size"].dest == "tp_size" and got["--tp-size"].type == "int"
    assert got["--cuda-graph-bs"].nargs == "+" and got["--cuda-graph-bs"].type == "int"
    assert got["--disable-overlap-schedule"].action == "store_true"
    assert got["--attention-backend"].choices == ("fa3", "triton")
    assert "--hidden" not in got and "--plain" not in got  # no_cli, and no Arg at all
    assert "--config" in got


def test_vllm_fields_through_get_kwargs(tmp_path: Path) -> None:
    root = tree(tmp_path, {
        "vllm/config/__init__.py": VLLM_CONFIG,
        "vllm/engine/arg_utils.py": VLLM_ARGS,
        "vllm/entrypoints/openai/cli_args.py": VLLM_FRONTEND + "\ndef make_arg_parser(p):\n    pass\n",
        "vllm/entrypoints/cli/bench.py": 'def f(p):\n    p.add_argument("--num-prompts", type=int)\n',
    })  # fmt: skip
    got = by_name(vllm_options(root))
    assert got["--tensor-parallel-size"].names == ("--tensor-parallel-size", "-tp")
    assert got["--tensor-parallel-size"].type == "int"
    assert got["--enable-expert-parallel"].action == "boolean_optional"
    assert (got["--cuda-graph-sizes"].nargs, got["--cuda-graph-sizes"].type) == ("+", "int")
    assert got["--speculative-config"].type == "json"  # a dataclass field reads JSON
    assert got["--disable-log-stats"].action == "store_true"
    assert got["--port"].type == "int" and "--api-key" in got  # the frontend loop
    assert "--num-prompts" not in got  # vllm bench is not vllm serve


def test_trtllm_click_options(tmp_path: Path) -> None:
    got = by_name(trtllm_options(tree(tmp_path, {"tensorrt_llm/commands/serve.py": TRTLLM})))
    assert got["--tensor_parallel_size"].names == ("--tensor_parallel_size", "--tp_size")
    assert got["--trust_remote_code"].action == "store_true"
    assert got["--config"].dest == "extra_llm_api_options"
    assert got["--backend"].choices == ("pytorch", "tensorrt")


def test_merge_keeps_release_ranges_and_changes(tmp_path: Path) -> None:
    old = sglang_options(tree(tmp_path / "a", {"sglang/srt/server_args.py": SGLANG_OLD}))
    new = sglang_options(tree(tmp_path / "b", {"sglang/srt/server_args.py": SGLANG_NEW}))
    rows = gen.merge([("0.4.0", old), ("0.5.0", new), ("0.5.1", new)])
    spans = {(o.names[0], first, last) for o, first, last in rows}
    assert ("--cuda-graph-bs", "0.4.0", "0.5.1") in spans  # same spelling, nargs and type
    assert ("--speculative-algorithm", "0.4.0", "0.4.0") in spans  # choices changed
    assert ("--speculative-algorithm", "0.5.0", "0.5.1") in spans
    assert ("--enable-foo", "0.4.0", "0.4.0") in spans  # gone in 0.5.0
    text = gen.render("sglang", ["0.4.0", "0.5.0", "0.5.1"], rows)
    table = OptionTable.from_toml(text)
    assert table.releases == ("0.4.0", "0.5.0", "0.5.1") and len(table.rows) == len(rows)


def test_shipped_tables_load_and_cover_releases() -> None:
    tables = OptionTables()
    for framework, first, newest in (("sglang", "0.4.6", "0.5.23"), ("vllm", "0.6.6", "0.34.0")):
        table = tables.get(framework)
        assert (table.releases[0], table.releases[-1]) == (first, newest)
        assert table.allow_abbrev
    assert not tables.get("trtllm").allow_abbrev  # click resolves no prefix
    assert tables.get("sglang") is tables.get("sglang")  # loaded once per OptionTables
    hand = tables.get("sglang").row("speculative_disable_batch_threshold")
    assert hand is not None and hand.type == "int"


def test_a_malformed_table_is_a_table_error() -> None:
    with pytest.raises(TableError):
        OptionTable.from_toml(
            'framework = "x"\nreleases = ["1"]\nallow_abbrev = true\nrows = "--a|a"'
        )
    with pytest.raises(TableError):
        OptionTable.from_toml("rows = [")
    assert tomllib.loads('rows = """x"""')  # the loader, not tomllib, refuses the short row
