"""A crash in vLLM's draft verification under the vllm-ascend plugin's runner: a proposer ran.

vLLM's V1 rejection sampler runs only to verify draft tokens, so a frame there shows
speculation on where no line names the method (an issue form's environment, then the worker's
traceback through the plugin's ``_bookkeeping_sync`` into ``RejectionSampler.parse_output``).
Under the plugin's runner the proposer was one of the plugin's own: the verdict is the
condition over every class the plugin's release builds (vllm_plugins.ascend_proposers; the
release paired with vLLM's where only that is stated), never one of them. On vLLM's own GPU
runner the sampler says nothing of the class (vLLM's proposers are too many to name here).
"""

from __future__ import annotations

from collections.abc import Sequence

from spectrace.assemblers.run_config import Evidence, RunConfig
from spectrace.assemblers.vllm_finish import newest_release, paired_release
from spectrace.assemblers.vllm_plugins import ascend_proposers, plugin_package, verifier_files
from spectrace.assemblers.vllm_release import parse_release
from spectrace.path_evidence import StackFrame


def _verifier(file: str) -> str | None:
    """The [[verifier]] row ``file`` is (``.../vllm/v1/sample/rejection_sampler.py``)."""
    path = file.replace("\\", "/")
    return next((row for row in verifier_files() if path == row or path.endswith("/" + row)), None)


def verified_evidence(frames: Sequence[StackFrame], config: RunConfig) -> list[Evidence]:
    """The condition over the plugin's proposers for the first frame in a verifier file, where
    the crash runs the plugin's code or the run is placed on Ascend; else nothing."""
    site, row = next(((sf, row) for sf in frames if (row := _verifier(sf.frame.file))), (None, None))
    platform = config.flags.get("platform")
    on_plugin = any(plugin_package(sf.frame.file) == "vllm_ascend" for sf in frames) or (
        platform is not None and platform.value == "ascend")  # fmt: skip
    if site is None or not on_plugin or config.engine not in (None, "vllm"):
        return []
    plugin, vllm = config.flags.get("platform_release"), config.flags.get("vllm_prose_release")
    vllm_said = config.version or (str(vllm.value) if vllm is not None else None)
    said = str(plugin.value) if plugin is not None else paired_release(vllm_said)
    release = parse_release(said)
    classes = ascend_proposers(release, None if release else newest_release(config, "vllm_ascend"))
    if not classes:
        return []
    where = f"vllm-ascend {said}" if release is not None else "vllm-ascend (no release in the text)"
    if release is not None and plugin is None:
        where += f" (the release paired with vLLM {vllm_said})"
    condition = f"one of the proposers of {where}: " + ", ".join(classes)
    reason = (f"{site.kind} in {row}: vLLM's V1 rejection sampler verifies "
              f"drafts, under the plugin's runner: {condition}")  # fmt: skip
    return [Evidence(site.source, site.lineno, site.text, reason, None, None, condition,
                     framework="vllm_ascend")]  # fmt: skip
