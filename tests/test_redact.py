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


# One line per secret shape a secret scanner knows, each written with a fake value built
# here (never a real key). The value must vanish from every report string.
_FAKE = "Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"  # 32 base62 characters
_SHAPES = {
    "github classic": f"git clone https://x@github.com/o/r with ghp_{_FAKE}1234",
    "github oauth": f"GH gho_{_FAKE}abcd",
    "github app": f"token ghs_{_FAKE}abcd in use",
    "github fine-grained": f"export GH=github_pat_11ABCDEFG0_{_FAKE}{_FAKE}",
    "gitlab": f"pip install git+https://ci:glpat-{_FAKE[:20]}@gitlab.example/x",
    "slack bot": f"notify via xoxb-123456789012-{_FAKE}",
    "slack user": f"xoxp-1234-5678-{_FAKE}",
    "openai": f"OPENAI_API_KEY set, sk-proj-{_FAKE}",
    "anthropic": f"client(sk-ant-api03-{_FAKE}-{_FAKE})",
    "hugging face": f"huggingface-cli login hf_{_FAKE}",
    "aws key id": "creds ASIAABCDEFGHIJKLMNOP session",
    "aws secret": f"aws_secret_access_key = {_FAKE}/Kx8+Yz",
    "google api key": f"maps AIzaSyA{_FAKE}ab done",
    "gcp private key": (
        '{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\\n'
        f'MIIEv{_FAKE}\\n-----END PRIVATE KEY-----\\n", "client_email": "x@y.iam"}}'
    ),
    "pem block in a message": f"loaded -----BEGIN RSA PRIVATE KEY-----MIIEp{_FAKE}",
    "azure storage": (
        "DefaultEndpointsProtocol=https;AccountName=acct;"
        f"AccountKey={_FAKE}+/=={_FAKE};EndpointSuffix=core.windows.net"
    ),
    "azure service bus": f"Endpoint=sb://x.servicebus.windows.net/;SharedAccessKey={_FAKE}=",
    "azure sas url": f"GET https://a.blob.core.windows.net/c/b?sv=2022-11-02&sig={_FAKE}%3D",
    "jwt": f"cookie eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.{_FAKE}",
    "authorization basic": f"curl -H 'Authorization: Basic {_FAKE}=' http://h/v1/models",
    "authorization json": f'headers={{"Authorization": "token {_FAKE}"}}',
    "stripe": f"billing sk_live_{_FAKE}",
    "npm": f"//registry.npmjs.org/:_authToken=npm_{_FAKE}abcd",
    "databricks": "DATABRICKS host dapi0123456789abcdef0123456789abcdef",
    "url password": f"postgres://svc:{_FAKE}@db:5432/x",
    "launch --api-key": f"python -m sglang.launch_server --model m --api-key {_FAKE} --tp 8",
    "launch --hf-token": f"vllm serve m --hf-token {_FAKE}",
    "passphrase": f"ssl_keyfile_passphrase='{_FAKE}'",
}


@pytest.mark.parametrize("name", sorted(_SHAPES))
def test_every_secret_shape_is_masked(name: str) -> None:
    out = redact_text(_SHAPES[name])
    assert _FAKE not in out and _FAKE[:20] not in out, out
    assert MASK in out


def test_shapes_leave_lookalikes_alone() -> None:
    lines = (
        "[2026-02-27 20:49:03 TP2] Ignore import error when loading sglang.srt.models.glm_ocr",
        "Capture cuda graph bs [1, 2, 4, 8] global_server_args AsiaPacific sk-1 gh_x",
        "Decode batch, #running-req: 10, #token: 8421, accept len: 3.2, gen throughput (token/s): 812",
    )
    for line in lines:
        assert redact_text(line) == line
