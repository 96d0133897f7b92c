"""A vLLM crash whose text names several methods that share the V1 runner's class (EAGLE3 and
MTP both run on ``EagleProposer``) and puts the run on the model runner v2 must never be given
that V1 class: the env switch on, or a frame of MRV2's speculator subpackages
(``vllm/v1/worker/gpu/spec_decode/<method>/speculator.py``), places the run, and each named
method is read on MRV2 by itself. Found on sealed round 50 after its final measurement
(a draft bug report naming "EAGLE3/MTP" with the switch on and an MRV2 frame was decided
``EagleProposer``: wrong). Near misses: the switch off keeps the V1 class; one method named with
the switch on was already MRV2's. Our own lines."""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import crash_path, run

from spectrace.assemblers.vllm_runner import stated_runner
from spectrace.dialects.base import LogLine

_FRAME = '  File "/opt/venv/lib/python3.12/site-packages/vllm/v1/worker/gpu/spec_decode/{pkg}/speculator.py", line 88, in capture'
_CRASH = ["Traceback (most recent call last):", '  File "/opt/venv/bin/vllm", line 8, in <module>',
          "{frame}", "ZeroDivisionError: integer division or modulo by zero"]  # fmt: skip


def _report(title: str, switch: str | None, pkg: str = "autoregressive") -> list[str]:
    body = [f"# {title}", "", "The engine dies while capturing the drafter's graphs."]
    if switch is not None:
        body.append(f"Launched with `VLLM_USE_V2_MODEL_RUNNER={switch}` on an H100 box.")
    return body + [c.replace("{frame}", _FRAME.format(pkg=pkg)) for c in _CRASH]


def _line(text: str) -> LogLine:
    return LogLine(source="t", lineno=1, offset=0, text=text, raw=text, dialect="plain", stream="")


@pytest.mark.parametrize("pkg", ["autoregressive", "multi_module_mtp", "eagle", "dflash2"])
def test_a_frame_in_an_mrv2_speculator_subpackage_states_the_runner(pkg: str) -> None:
    found = stated_runner([_line(_FRAME.format(pkg=pkg))])
    assert found is not None and found[0] == "v2"


def test_a_v1_runner_frame_still_states_v1() -> None:
    line = '  File "/opt/venv/lib/python3.12/site-packages/vllm/v1/worker/gpu_model_runner.py", line 9, in execute_model'
    found = stated_runner([_line(line)])
    assert found is not None and found[0] == "v1"


@pytest.mark.parametrize("title,switch", [
    ("[Bug] EAGLE3/MTP drafter crashes at init", "1"),  # the switch and the frame
    ("[Bug] EAGLE3/MTP drafter crashes at init", None),  # the frame alone
    ("[Bug]: MTP and EAGLE3 both crash during graph capture", "true"),
])
def test_several_methods_on_mrv2_never_get_the_v1_proposer(tmp_path: Path, title: str, switch: str | None) -> None:
    path = crash_path(run(tmp_path, _report(title, switch)))
    assert path.worker_class != "EagleProposer", path
    shown = f"{path.worker_class} {path.conditional}"
    assert "EagleSpeculator" in shown and "EagleProposer" not in shown, shown


def test_one_method_on_mrv2_is_its_speculator(tmp_path: Path) -> None:
    path = crash_path(run(tmp_path, _report("[Bug] EAGLE3 drafter crashes at init", "1")))
    assert (path.value, path.worker_class) == ("other", "EagleSpeculator"), path


def test_the_switch_off_keeps_the_v1_proposer(tmp_path: Path) -> None:
    lines = _report("[Bug] EAGLE3/MTP drafter crashes at init", "0")
    lines = [ln.replace("gpu/spec_decode/autoregressive/speculator.py", "spec_decode/eagle.py") for ln in lines]
    path = crash_path(run(tmp_path, lines))
    assert "EagleProposer" in f"{path.worker_class} {path.conditional}", path
    assert "Speculator" not in f"{path.worker_class} {path.conditional}", path
