"""vLLM's other platform plugins that run speculative decoding with proposers of their own:
tpu-inference (TPU, JAX), vllm-gaudi (HPU), ArcticInference (Snowflake's suffix and Arctic
speculators), vllm-metal (Apple silicon) and vllm-rbln (Rebellions NPUs). One table, rules/paths/vllm_plugins.toml, each
row marked with its plugin as ``framework``, so a frame in a plugin's proposer lands on a
known row and vLLM's own class stays a condition (the plugin ran, not vLLM's CUDA proposer).

Releases: every tag of the plugin's bare mirror (``fetch github:<repo>``; a plugin that tags
each build keeps the newest tag of each base release), then the PyPI releases newer than
the mirror's newest tag (slim wheels, fetch.py). The rows follow vLLM's rules
(vllm_rules.Rules), with a scope widened to the plugins' own layouts: ``spec_dec/``,
``suffix_decoding/`` folders and proposer, MTP, EAGLE or draft files outside a
``spec_decode`` folder (vllm-metal keeps them in ``v1/``).
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass, replace
from pathlib import Path

from packaging.version import InvalidVersion, Version

from path_tables import vllm_rules
from path_tables.releases import FileHistory, Release, git_releases, version_key, zip_releases
from path_tables.rows import MethodRow

MIRRORS = Path("/work/.mirror")
_FOLDERS = ("spec_decode", "spec_dec", "suffix_decoding", "speculative")
_WORDS = ("propos", "speculat", "spec_decode", "eagle", "mtp", "dflash", "dspark", "ngram",
          "medusa", "draft", "suffix")
_BUILD_TAG = re.compile(r"^(v?\d+(?:\.\d+)*)(?:-\d{8}-\d{6}|\.dev\d+)$")  # one tag per build


@dataclass(frozen=True, slots=True)
class Plugin:
    framework: str  # the rows' framework value
    repo: str  # GitHub owner/name
    package: str  # import package folder ("tpu_inference/")
    pypi: str  # PyPI project ("" = none)
    label: str
    runners: tuple[str, ...] = ()  # model runners whose ``method`` dispatch builds the proposer


PLUGINS = (
    Plugin("tpu_inference", "vllm-project/tpu-inference", "tpu_inference/", "tpu-inference",
           "tpu-inference", ("tpu_inference/runner/tpu_runner.py",
                             "tpu_inference/runner/tpu_jax_runner.py")),
    Plugin("vllm_gaudi", "vllm-project/vllm-gaudi", "vllm_gaudi/", "", "vllm-gaudi",
           ("vllm_gaudi/v1/worker/hpu_model_runner.py",)),
    Plugin("arctic_inference", "snowflakedb/ArcticInference", "arctic_inference/",
           "arctic-inference", "ArcticInference", ("arctic_inference/vllm/model_runner.py",)),
    Plugin("vllm_metal", "vllm-project/vllm-metal", "vllm_metal/", "", "vllm-metal",
           ("vllm_metal/v1/model_runner.py",)),
    Plugin("vllm_rbln", "RBLN-SW/vllm-rbln", "vllm_rbln/", "", "vllm-rbln",
           ("vllm_rbln/v1/worker/rbln_model_runner.py",)),
)


class PluginRules(vllm_rules.Rules):
    """vLLM's rules with the plugins' wider scope; methods from the runner's own dispatch."""

    def method_rows(self, history: dict[str, FileHistory]) -> list[MethodRow]:
        """One row per (method, class) the plugin's runner builds, with its releases (a class
        of vLLM's own, NgramProposer, is the one the plugin runs)."""
        return vllm_rules.dispatch_rows(history, replace(self.f, config_files=self.f.runner_files))

    def frame_scope(self, rel: str) -> bool:
        """No runner: its draft functions share vLLM's names (take_draft_token_ids), and a
        caller's line naming one must still find vLLM's row; its text is read for methods."""
        if rel in self.f.runner_files:
            return False
        if super().frame_scope(rel):
            return True
        if not rel.endswith(".py") or not rel.startswith(self.f.root) or "/tests/" in rel:
            return False
        parts = rel.split("/")
        return any(p in _FOLDERS for p in parts[:-1]) or any(w in parts[-1] for w in _WORDS)


def rules(plugin: Plugin) -> PluginRules:
    flavour = vllm_rules.Flavour(plugin.framework, "", plugin.package, plugin.runners, (), (),
                                 plugin.label)
    return PluginRules(flavour)


def mirror(plugin: Plugin) -> Path | None:
    path = MIRRORS / plugin.repo.replace("/", "+") / "repo"
    return path if path.exists() else None


def _release_tags(git_dir: Path) -> dict[str, str]:
    """Version tag -> its release name; a build-tagging plugin's reduced to the newest build
    of each release, named ``v0.1.0.dev20260408202951`` so builds sort as versions."""
    out = subprocess.run(["git", "--git-dir", str(git_dir), "for-each-ref", "--sort=creatordate",
                          "--format=%(refname:short)", "refs/tags"],
                         capture_output=True, text=True, check=True).stdout.split()
    newest_build: dict[str, str] = {}
    kept = {}
    for tag in out:
        if match := _BUILD_TAG.match(tag):
            newest_build[match.group(1)] = tag  # creatordate order: the last one wins
        elif _is_version(tag):
            kept[tag] = tag
    for base, tag in newest_build.items():
        kept[tag] = f"{base}.dev{re.sub(r'[^0-9]', '', tag[len(base):])}"
    return kept


def _is_version(tag: str) -> bool:
    try:
        Version(tag.removeprefix("v"))
    except InvalidVersion:
        return False
    return True


def releases(plugin: Plugin, cache: Path) -> list[Release]:
    """The mirror's tags, then the slim PyPI releases newer than its newest tag."""
    git_dir = mirror(plugin)
    tags = _release_tags(git_dir) if git_dir is not None else {}
    tagged = [replace(r, tag=tags[r.tag]) for r in git_releases(git_dir, "", list(tags))
              ] if git_dir is not None else []
    newest = max((version_key(t) for t in tags.values()), default=(0, Version("0")))
    later = [r for r in zip_releases(cache / plugin.framework, "") if version_key(r.tag) > newest]
    return sorted(tagged + later, key=lambda r: version_key(r.tag))


def newer_on_pypi(plugin: Plugin, versions: list[str]) -> list[str]:
    """Final releases pip lists that are newer than the mirror's newest tag (fetch step)."""
    git_dir = mirror(plugin)
    tags = _release_tags(git_dir) if git_dir is not None else {}
    newest = max((version_key(t) for t in tags.values()), default=(0, Version("0")))
    return [v for v in versions if not Version(v).is_prerelease and not Version(v).is_devrelease
            and version_key(v) > newest]
