"""Secrets out of reports: API keys, tokens, passwords in flags, command lines and dumps."""

from __future__ import annotations

import re

MASK = "***"

# Names whose values are secrets wherever they appear (flag names, dump fields, env vars).
# The secret word must END the name: ``hf_token`` is one, ``max_total_num_tokens`` and
# ``tokenizer_path`` are not.
_SECRET_NAME = (
    r"[\w-]*?(?:api[_-]?key|secret[_-]?key|access[_-]?key|token|secret|password|passwd"
    r"|credentials?)(?![\w-])"
)
_SECRET_NAME_RE = re.compile(_SECRET_NAME, re.IGNORECASE)
# A plain number after "token:" is a count (SGLang's "#token: 8421", "#full token: 96"), never
# a secret: no API token is a short run of digits.
_COUNT = r"\d{1,12}(?:\.\d+)?(?=[\s,)\]}]|$)"

_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    # --api-key VALUE, --hf-token=VALUE, ... (command lines)
    (
        re.compile(rf"(--{_SECRET_NAME}(?:=|\s+))(?!-)(\"[^\"]*\"|'[^']*'|\S+)", re.IGNORECASE),
        rf"\1{MASK}",
    ),
    # api_key='...', hf_token="...", password=abc (dumps, env, kwargs)
    (
        re.compile(
            rf"\b({_SECRET_NAME}[\"']?\s*[=:]\s*)(?!None\b|\*\*\*|'\*\*\*'|{_COUNT})"
            rf"(\"[^\"]*\"|'[^']*'|[^\s,)\]}}]+)",
            re.IGNORECASE,
        ),
        rf"\1'{MASK}'",
    ),
    # user:password@host in URLs
    (re.compile(r"(\b[a-z][a-z0-9+.\-]*://[^/\s:@]+:)[^/\s@]+@", re.IGNORECASE), rf"\1{MASK}@"),
    # bare well-known token shapes
    (re.compile(r"\bhf_[A-Za-z0-9]{8,}"), f"hf_{MASK}"),
    (re.compile(r"\bsk-[A-Za-z0-9_\-]{8,}"), f"sk-{MASK}"),
    (re.compile(r"\bgh[pousr]_[A-Za-z0-9]{20,}"), MASK),
    (re.compile(r"\bAKIA[0-9A-Z]{16}\b"), MASK),
    (re.compile(r"\b(Bearer\s+)[A-Za-z0-9._~+/\-]{8,}=*", re.IGNORECASE), rf"\1{MASK}"),
)


# Every pattern above needs one of these (lower-cased); most strings have none and skip the
# eight passes. Substring tests on one lower() copy are ~5x faster than an re.I alternation.
_TRIGGERS = (
    "key", "token", "secret", "passw", "credential", "hf_", "sk-",
    "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "akia", "bearer", "://",
)  # fmt: skip


def redact_text(text: str) -> str:
    """Mask every secret-looking value in a free-text string (log line, command line)."""
    lowered = text.lower()
    if not any(trigger in lowered for trigger in _TRIGGERS):
        return text
    for pattern, replacement in _PATTERNS:
        text = pattern.sub(replacement, text)
    return text


def is_secret_name(name: str) -> bool:
    """True for flag/field names whose value is a secret (``api_key``, ``--hf-token``)."""
    return bool(_SECRET_NAME_RE.fullmatch(name.lstrip("-")))


def redact_value(name: str, value: object) -> object:
    """A flag's value made safe: masked when the name says secret, text values scrubbed."""
    if is_secret_name(name) and value not in (None, "", False, True):
        return MASK
    if isinstance(value, str):
        return redact_text(value)
    if isinstance(value, list | tuple):
        return [redact_value(name, v) for v in value]
    if isinstance(value, dict):
        return {k: redact_value(str(k), v) for k, v in value.items()}
    return value
