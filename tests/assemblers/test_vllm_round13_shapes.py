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
