"""Secrets never reach a report: keys, tokens, passwords in command lines, dumps and URLs."""

from __future__ import annotations

import pytest

from spectrace.redact import MASK, is_secret_name, redact_text, redact_value


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("python -m sglang.launch_server --model-path m --api-key abc123xyz --tp 8", "abc123xyz"),
        ("vllm serve m --hf-token=hf_AbCdEfGhIjKlMnOp", "hf_AbCdEfGhIjKlMnOp"),
        (
            "server_args=ServerArgs(model_path='m', api_key='s3cr3t-value', tp_size=8)",
            "s3cr3t-value",
        ),
        ('{"admin_api_key": "p@ss"}', "p@ss"),
        ("HF_TOKEN=hf_abcdefghijklmnop python serve.py", "hf_abcdefghijklmnop"),
        ("using key sk-proj-abcdefghijklmnop for eval", "sk-proj-abcdefghijklmnop"),
        ("redis://admin:hunter2@10.0.0.1:6379/0", "hunter2"),
        ("Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.abc", "eyJhbGciOiJIUzI1NiJ9"),
        ("password = hunter2", "hunter2"),
        # bare shapes with no secret word beside them: only the shape can trigger the mask
        ("cloned with ghp_abcdefghijklmnopqrstuvwx1234 ok", "ghp_abcdefghijklmnopqrstuvwx1234"),
        ("aws id AKIAABCDEFGHIJKLMNOP in env", "AKIAABCDEFGHIJKLMNOP"),
        ("header AUTHORIZATION: BEARER abcdefgh12345678", "abcdefgh12345678"),
        ("sent sk-abcdefghij12 upstream", "sk-abcdefghij12"),
        ("HTTPS://root:Sup3rS3cret@mirror.local/simple", "Sup3rS3cret"),
    ],
)
def test_secrets_are_masked(text: str, secret: str) -> None:
    out = redact_text(text)
    assert secret not in out and MASK in out


def test_ordinary_flags_are_left_alone() -> None:
    text = ("ServerArgs(tokenizer_path='m', max_total_num_tokens=4096, speculative_num_draft_tokens=16, "
            "speculative_token_map=None, api_key=None, host='127.0.0.1')")  # fmt: skip
    assert redact_text(text) == text


def test_secret_names() -> None:
    assert (
        is_secret_name("api_key")
        and is_secret_name("--hf-token")
        and is_secret_name("OPENAI_API_KEY")
    )
    assert not is_secret_name("max_total_num_tokens") and not is_secret_name("tokenizer_path")


def test_redact_value_masks_by_name_and_scrubs_nested_text() -> None:
    assert redact_value("api_key", "abc") == MASK
    assert redact_value("api_key", None) is None
    assert redact_value("launch", ["--api-key", "--api-key abc"]) == [
        "--api-key",
        f"--api-key {MASK}",
    ]
    assert redact_value("env", {"HF_TOKEN": "hf_x", "TP": 8}) == {"HF_TOKEN": MASK, "TP": 8}


def test_token_counts_in_load_lines_are_not_secrets() -> None:
    line = "Decode batch, #running-req: 10, #token: 8421, token usage: 0.04, #full token: 96"
    assert redact_text(line) == line
    assert redact_text("token: 8421x") == "token: '***'"  # not a plain number: masked
