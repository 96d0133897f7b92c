"""Reading Python reprs from log text without evaluating anything."""

from __future__ import annotations

from spectrace.assemblers.pyrepr import SourceText, parse_call_kwargs, parse_dict_repr


def test_dict_repr_with_awkward_keys_values_and_a_function() -> None:
    text = (
        "{'model': 'Qwen/Qwen3-8B', 'host:port': '0.0.0.0:8000', "
        "'speculative_config': {'method': 'eagle3', 'num_speculative_tokens': 3}, "
        "'logits_processors': [<function bias at 0x7f00aa>], \"it's\": 1}"
    )
    got, complete = parse_dict_repr(text)
    assert complete
    assert got == {
        "model": "Qwen/Qwen3-8B",
        "host:port": "0.0.0.0:8000",
        "speculative_config": {"method": "eagle3", "num_speculative_tokens": 3},
        "logits_processors": SourceText("[<function bias at 0x7f00aa>]"),
        "it's": 1,
    }


def test_truncated_dict_keeps_whole_entries() -> None:
    got, complete = parse_dict_repr("{'model': 'm', 'tensor_parallel_size': 4, 'speculative_con")
    assert not complete
    assert got == {"model": "m", "tensor_parallel_size": 4}


def test_call_with_bare_vllm_values_and_nested_call() -> None:
    got, complete = parse_call_kwargs(
        "VllmConfig(model='m', speculative_config=SpeculativeConfig(method='eagle', model='d', "
        "num_spec_tokens=2), dtype=torch.bfloat16, served_model_name=org/Model-8B-Instruct)"
    )
    assert complete
    assert got == {
        "model": "m",
        "speculative_config": SourceText(
            "SpeculativeConfig(method='eagle', model='d', num_spec_tokens=2)"
        ),
        "dtype": SourceText("torch.bfloat16"),
        "served_model_name": SourceText("org/Model-8B-Instruct"),
    }


def test_escaped_quotes_inside_strings() -> None:
    got, complete = parse_call_kwargs('X(a=\'it\\\'s, here\', b="say \\"hi\\", ok", c=3)')
    assert complete
    assert got == {"a": "it's, here", "b": 'say "hi", ok', "c": 3}


def test_object_repr_after_non_ascii_text_keeps_its_exact_source() -> None:
    got, _ = parse_call_kwargs("X(name='modèle-é', ref=Ref(id='ü', n=2), k=1)")
    assert got == {"name": "modèle-é", "ref": SourceText("Ref(id='ü', n=2)"), "k": 1}
