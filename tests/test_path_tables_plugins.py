"""The generator's rules for vLLM method rows and platform plugins, on release trees of our own:
a method row ends with the class it names, a dispatch branch that asks more than the method is
a special case, a file defining two proposers names none, bases are recorded per class, and a
plugin's rows carry its name with methods from its runner's dispatch."""

from __future__ import annotations

import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

from path_tables import plugins, vllm_rules  # noqa: E402
from path_tables.frameworks import with_bases  # noqa: E402
from path_tables.releases import scan, zip_releases  # noqa: E402

CONFIG = 'from typing import Literal\nSpeculativeMethod = Literal["ngram", "eagle", "zeta_mtp"]\n'


def _zip(folder: Path, version: str, files: dict[str, str], prefix: str) -> None:
    folder.mkdir(exist_ok=True)
    with zipfile.ZipFile(folder / f"{version}.zip", "w") as zf:
        for name, text in files.items():
            zf.writestr(prefix + name, text)


def test_a_method_row_ends_where_its_class_ends(tmp_path: Path) -> None:
    """EagleProposer leaves in 0.9.1 while the methods stay: 0.9.1 keeps the family alone."""
    old = {
        "config.py": CONFIG,
        "v1/spec_decode/eagle.py": "class EagleProposer: pass\n",
        "v1/spec_decode/ngram_proposer.py": "class NgramProposer: pass\n",
    }
    _zip(tmp_path, "0.9.0", old, "vllm/")
    _zip(tmp_path, "0.9.1", {k: v for k, v in old.items() if "eagle" not in k}, "vllm/")
    rules = vllm_rules.Rules(vllm_rules.VLLM)
    history = scan(zip_releases(tmp_path, "vllm/"), rules.scope, rules.keep_text)
    rows = {(m.value, m.worker): m.releases for m in rules.method_rows(history)}
    assert rows[("eagle", "EagleProposer")] == ("v0.9.0", "v0.9.0")
    assert rows[("eagle", "")] == ("v0.9.1", "v0.9.1")
    assert rows[("zeta_mtp", "EagleProposer")] == ("v0.9.0", "v0.9.0")
    assert rows[("ngram", "NgramProposer")] == ("v0.9.0", "v0.9.1")


def test_a_special_branch_does_not_take_the_plain_method() -> None:
    text = (
        "def get(method, cfg):\n"
        "    if method == 'mtp' and cfg.use_gemma_mtp():\n        return GemmaProposer(cfg)\n"
        "    elif method in ('eagle', 'mtp'):\n        return EagleProposer(cfg)\n"
        "    elif method == 'zeta' and cfg.fast():\n        return ZetaProposer(cfg)\n"
        "    elif cfg.use_eagle():\n        return Eagle3Proposer(cfg)\n"
    )
    assert vllm_rules._dispatch_of(text) == {
        "mtp": "EagleProposer",
        "eagle": "EagleProposer",
        "eagle3": "Eagle3Proposer",
        "zeta": "ZetaProposer",
    }


def test_a_plugins_rows_carry_its_name_methods_and_bases(tmp_path: Path) -> None:
    plugin = plugins.Plugin(
        "zeta_plugin",
        "x/zeta",
        "zeta_plugin/",
        "",
        "zeta-plugin",
        ("zeta_plugin/worker/runner.py",),
    )
    runner = (
        "class Runner:\n    def init(self):\n"
        "        if self.speculative_config.method == 'suffix':\n"
        "            self.drafter = ZetaSuffixProposer()\n"
        "        elif self.speculative_config.use_eagle():\n"
        "            self.drafter = HpuZetaEagleProposer(self)\n"
        "    def take_draft_token_ids(self):\n        pass\n"
    )
    _zip(
        tmp_path / "zeta_plugin",
        "0.2.0",
        {
            "worker/runner.py": runner,
            "spec_dec/both.py": "class ZetaSuffixProposer: pass\nclass ZetaArcProposer: pass\n",
            "v1/hpu_eagle.py": "import x\nclass HpuZetaEagleProposer(x.EagleProposer): pass\n",
        },
        "zeta_plugin/",
    )
    releases = plugins.releases(plugin, tmp_path)
    rules = plugins.rules(plugin)
    history = scan(releases, rules.scope, rules.keep_text)
    rows = {
        r.file: with_bases(r, history.get(rel))
        for rel, r in rules.frame_rows(history, rules.import_graph(releases))
    }
    assert set(rows) == {"zeta_plugin/spec_dec/both.py", "zeta_plugin/v1/hpu_eagle.py"}  # no runner
    assert {r.framework for r in rows.values()} == {"zeta_plugin"}
    both, eagle = rows["zeta_plugin/spec_dec/both.py"], rows["zeta_plugin/v1/hpu_eagle.py"]
    assert (both.worker, both.path) == ("", "")  # two proposers in one file: a frame names none
    assert (eagle.worker, eagle.path, eagle.family) == ("HpuZetaEagleProposer", "other", "EAGLE")
    assert eagle.bases == (("HpuZetaEagleProposer", ("EagleProposer",)),)
    methods = {(m.framework, m.value, m.worker) for m in rules.method_rows(history)}
    assert methods == {
        ("zeta_plugin", "suffix", "ZetaSuffixProposer"),
        ("zeta_plugin", "eagle", "HpuZetaEagleProposer"),
        ("zeta_plugin", "eagle3", "HpuZetaEagleProposer"),
    }
