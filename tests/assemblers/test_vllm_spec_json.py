"""vLLM speculative configs outside a flag (round 12): a bare JSON object in a code block or a
shell variable, vLLM's example script's ``--method``, and a launch command shown as a diff hunk
in a pull request (its removed lines are the old config, never read)."""

from __future__ import annotations

from pathlib import Path

import pytest
from asm_helpers import collect_config as collect
from real_logs_helpers import run

from spectrace.assemblers.pyconfig import bare_spec_config
from spectrace.linker import global_worker_path

CRASH = [
    "Traceback (most recent call last):",
    '  File "/srv/app/main.py", line 9, in <module>',
    "RuntimeError: the server went away",
]


@pytest.mark.parametrize(
    ("line", "worker"),
    [('{"model": "org/head-eagle3", "method": "eagle3", "num_speculative_tokens": 3}',
      "EagleProposer"),
     ('{"num_speculative_tokens": 2, "method": "mtp"}', "EagleProposer"),
     ("SPEC='{\"method\": \"ngram\", \"prompt_lookup_max\": 4, \"num_speculative_tokens\": 5}'",
      "NgramProposer"),
     ("python offline/spec_decode.py --num_spec_tokens 4 --method eagle --tp 2",
      "EagleProposer")],
)  # fmt: skip
def test_a_speculative_config_shown_without_its_flag_decides_the_proposer(line, worker) -> None:
    path = global_worker_path(collect(line))
    assert (path.value, path.worker_class, path.framework) == ("other", worker, "vllm")
    assert path.evidence[0].text.startswith(line[:20])


@pytest.mark.parametrize(
    "line",
    ['{"jsonrpc": "2.0", "method": "eagle_fetch", "id": 3}',
     '{"method": "GET", "path": "/v1/models", "num_speculative_tokens": 1}',
     '{"method": "suffix"}',
     '{"method": "draft_model"}'],
)  # fmt: skip
def test_a_method_key_alone_is_not_a_speculative_config(line) -> None:
    assert bare_spec_config(line) is None
    assert global_worker_path(collect(line)).worker_class is None


def test_two_configs_that_build_one_class_decide_it() -> None:
    """A thread comparing an EAGLE-3 fleet and an MTP fleet on one vLLM release: both run
    EagleProposer, so the class is decided whichever fleet crashed."""
    path = global_worker_path(collect(
        '{"model": "org/head-eagle3", "method": "eagle3", "num_speculative_tokens": 3}',
        '{"num_speculative_tokens": 2, "method": "mtp"}'))  # fmt: skip
    assert (path.value, path.worker_class) == ("other", "EagleProposer")


def test_two_configs_that_build_different_classes_decide_neither() -> None:
    path = global_worker_path(collect(
        '{"method": "ngram", "num_speculative_tokens": 4, "prompt_lookup_max": 5}',
        '{"method": "eagle3", "model": "org/head", "num_speculative_tokens": 2}'))  # fmt: skip
    assert (path.value, path.worker_class) == ("unknown", None)
    assert path.conditional is not None
    assert "NgramProposer for the config on line 1" in path.conditional
    assert "EagleProposer for the config on line 2" in path.conditional


DIFF = [
    "docs/tutorials/serving.md",
    "```diff",
    "@@ -40,7 +40,7 @@ vllm serve org/target-model \\",
    " --tensor-parallel-size 4 \\",
    " --max-model-len 8192 \\",
    '---speculative-config \'{"method": "ngram", "num_speculative_tokens": 4}\' \\',
    '+--speculative-config \'{"method": "eagle3", "model": "org/h", '
    '"num_speculative_tokens": 2}\' \\',
    " --port 8000",
    "```",
]


def test_a_diff_hunk_reads_as_the_command_it_leaves(tmp_path: Path) -> None:
    """The hunk header's context starts the command, the context and added lines continue it,
    the removed line (the old method) is not read."""
    (crash,) = run(tmp_path, [*DIFF, *CRASH]).incidents
    path = crash.worker_path
    assert path is not None
    assert (path.value, path.worker_class, path.family) == ("other", "EagleProposer", "EAGLE3")
    assert all("ngram" not in e.text for e in path.evidence)
    assert crash.flags["tp_size"].value == 4


def test_minus_lines_outside_a_hunk_are_bullets_not_removals(tmp_path: Path) -> None:
    lines = ["Steps:", "- vllm serve org/target --speculative-config "
             "'{\"method\": \"ngram\", \"num_speculative_tokens\": 4}'", *CRASH]  # fmt: skip
    (crash,) = run(tmp_path, lines).incidents
    assert crash.worker_path is not None and crash.worker_path.worker_class == "NgramProposer"


@pytest.mark.parametrize("key", ["speculative-config:", "speculative_config:"])
def test_a_yaml_block_under_the_key_is_the_speculative_config(tmp_path: Path, key) -> None:
    """A ``vllm serve --config`` file or a Helm value: the key alone, its members below."""
    lines = ["model: org/target", "tensor-parallel-size: 2", key, "  method: mtp",
             "  num_speculative_tokens: 1", "  draft_tensor_parallel_size: 1", "port: 8000",
             *CRASH]  # fmt: skip
    (crash,) = run(tmp_path, lines).incidents
    path = crash.worker_path
    assert path is not None
    assert (path.value, path.worker_class, path.family) == ("other", "EagleProposer", "MTP")
    assert path.evidence[0].lineno == 3 and "method: mtp" in path.evidence[0].text


def test_a_trtllm_yaml_block_is_left_to_its_own_reader(tmp_path: Path) -> None:
    lines = ["speculative_config:", "  decoding_type: Eagle", "  max_draft_len: 3",
             "  eagle3_one_model: true", *CRASH]  # fmt: skip
    (crash,) = run(tmp_path, lines).incidents
    assert crash.worker_path is not None
    assert crash.worker_path.worker_class == "Eagle3OneModelWorker"


def test_a_null_method_beside_a_draft_model_is_auto_detection_not_off() -> None:
    """``"method": null`` with a draft model lets SpeculativeConfig detect the method from the
    draft: speculation is on (the draft's name says EAGLE), never "speculation off"."""
    config = collect("vllm serve org/target --speculative-config "
                     """'{"method": null, "model": "org/EAGLE-head-8B", "num_speculative_tokens": 3}'""")  # fmt: skip
    path = global_worker_path(config)
    assert path.value != "none" and path.family == "EAGLE"
    off = collect("""vllm serve org/target --speculative-config '{"method": null}'""")
    assert global_worker_path(off).value == "none"
