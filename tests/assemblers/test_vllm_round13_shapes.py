"""Round-13 study shapes (our own lines): a plugin's subclass of vLLM's SpeculativeConfig
printed as its repr (vLLM's class only a condition), a launch flag whose value sits on the next
line, and the class an error message names."""

from __future__ import annotations

from asm_helpers import collect_config as collect

from spectrace.linker import global_worker_path


def test_a_plugins_speculative_config_subclass_keeps_the_family_and_not_vllms_class() -> None:
    line = ("ERROR 03-02 08:00:00 boom: ToyPluginSpeculativeConfig(num_speculative_tokens=2, "
            "model='/m/draft', method='eagle3', draft_tensor_parallel_size=1)")  # fmt: skip
    path = global_worker_path(collect(line))
    assert (path.value, path.worker_class, path.family) == ("unknown", None, "EAGLE3")
    assert path.conditional is not None and "toyplugin plugin" in path.conditional
    plain = line.replace("ToyPluginSpeculativeConfig(", "speculative_config=SpeculativeConfig(")
    assert global_worker_path(collect(plain)).worker_class == "EagleProposer"


def test_a_flag_whose_value_is_pasted_on_the_next_line_is_read_with_it() -> None:
    lines = ["vllm serve /models/q --max-model-len 8192", "--speculative-config",
             "'{\"method\": \"eagle3\", \"model\": \"/m/eagle3-draft\", \"num_speculative_tokens\": 2}'",
             "--max-num-seqs 8"]  # fmt: skip
    path = global_worker_path(collect(*lines))
    assert (path.value, path.worker_class, path.family) == ("other", "EagleProposer", "EAGLE3")
    alone = "'{\"method\": \"suffix\", \"model\": \"/m/x\"}'"  # no SpeculativeConfig by itself
    assert global_worker_path(collect(lines[0], lines[1], alone)).worker_class == (
        "SuffixDecodingProposer")
    apart = [*lines[:2], "", alone]  # a blank line between: the value is not the flag's
    assert global_worker_path(collect(*apart)).worker_class is None
