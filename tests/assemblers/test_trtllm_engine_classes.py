"""A built TensorRT engine shows its speculative mode by its network class: the TensorRT
builder's layer names (``[TRT] [W] ReDrafterForLLaMALM/_fwd_helper_L75/...``), the converted
checkpoint's ``"architecture"``, and examples/redrafter/convert_checkpoint.py's own options
(round 29's ReDrafter port came back unknown). Code naming the classes shows no engine."""

from __future__ import annotations

import pytest
from asm_helpers import collect_config as collect

from spectrace.assemblers.trtllm_config import trtllm_spec_flags
from spectrace.linker import global_worker_path


@pytest.mark.parametrize(
    ("line", "layer"),
    [("[11/02/2024-09:14:51] [TRT] [W] MedusaForCausalLm/medusa_head_2/linear_L41/MATRIX_MULTIPLY_0:"
      " profile has no optimal shape", "MedusaDecodingLayer"),
     ("[TRT] [W] ReDrafterForQWenLM/_fwd_helper_L75/_beam_search_candidates_L402/TOPK_1: "
      "k exceeds the extent", "ExplicitDraftTokensLayer"),
     ('    "architecture": "ReDrafterForLLaMALM",', "ExplicitDraftTokensLayer"),
     ("[TRT] [W] EagleForCausalLM/eagle_nets/0/prepare_ctx_inputs_L98/SLICE_3: out of bounds",
      "EagleDecodingLayer")],
)  # fmt: skip
def test_a_built_engines_network_class_names_its_decoding_layer(line: str, layer: str) -> None:
    path = global_worker_path(collect(line))
    assert (path.value, path.worker_class) == ("other", layer)


@pytest.mark.parametrize(
    "line",
    ["python3 convert_checkpoint.py --base_model_checkpoint_dir ./base --drafter_model_dir ./d "
     "--output_dir ./ckpt --redrafter_num_beams 4 --redrafter_draft_len_per_beam 5",
     "                             --redrafter_draft_len_per_beam 3 \\"],
)  # fmt: skip
def test_the_redrafter_converters_options_are_the_explicit_draft_tokens_mode(line: str) -> None:
    assert trtllm_spec_flags(line)["speculative_config.method"] == "explicit_draft_tokens"
    assert global_worker_path(collect(line)).worker_class == "ExplicitDraftTokensLayer"


@pytest.mark.parametrize(
    "line",
    ["from .redrafter.model import ReDrafterForLLaMALM, ReDrafterForQWenLM",
     "    'MedusaForCausalLm',",
     '  "architectures": ["EagleForCausalLM"],',  # a Hugging Face config names no built engine
     "class ReDrafterForLLaMALM(ReDrafterMixin, LLaMAForCausalLM):",
     "Should I pass --redrafter_num_beams to trtllm-build too?"],
)  # fmt: skip
def test_code_and_questions_naming_the_classes_set_no_mode(line: str) -> None:
    assert "speculative_config.method" not in trtllm_spec_flags(line)
