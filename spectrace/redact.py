"""Secrets out of reports: API keys, tokens, passwords in flags, command lines and dumps.

Two kinds of evidence: a secret *name* (``--api-key X``, ``hf_token='...'``) and a secret
*shape* that needs no name beside it (``ghp_...``, ``xoxb-...``, a JWT, a PEM block). The
shapes follow the public secret-scanner rule sets (GitHub, GitLab, Slack, OpenAI/Anthropic,
Hugging Face, AWS, GCP, Azure, Stripe, npm, Databricks), written as our own patterns.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MASK = "***"

# Names whose values are secrets wherever they appear (flag names, dump fields, env vars).
# The secret word must END the name: ``hf_token`` is one, ``max_total_num_tokens`` and
# ``tokenizer_path`` are not.
_SECRET_WORD = (
    r"(?:api[_-]?key|secret[_-]?key|access[_-]?key|account[_-]?key|private[_-]?key(?:[_-]?id)?"
    r"|token|secret|password|passwd|passphrase|credentials?)(?![\w-])"
)
# In ``name=value`` text the match starts at the secret word: whatever precedes it in the name
# stays as it is, and scanning for the word is far cheaper than growing every name lazily.
_SECRET_NAME = rf"[\w-]*?{_SECRET_WORD}"
_SECRET_NAME_RE = re.compile(_SECRET_NAME, re.IGNORECASE)
# A plain number after "token:" is a count (SGLang's "#token: 8421", "#full token: 96"), never
# a secret: no API token is a short run of digits.
_COUNT = r"\d{1,12}(?:\.\d+)?(?=[\s,)\]}]|$)"


@dataclass(frozen=True, slots=True)
class _Rule:
    """One secret shape; it runs only on strings holding one of its lower-case triggers."""

    triggers: tuple[str, ...]
    pattern: re.Pattern[str]
    replacement: str


def _rule(triggers: str, pattern: str, replacement: str, flags: int = 0) -> _Rule:
    return _Rule(tuple(triggers.split()), re.compile(pattern, flags), replacement)


def _shape(triggers: str, pattern: str, keep: str = "") -> _Rule:
    """A token shape masked whole; ``keep`` is the harmless prefix left readable."""
    return _rule(triggers, pattern, f"{keep}{MASK}")


_NAMES = "key token secret passw passphrase credential"
_RULES: tuple[_Rule, ...] = (
    # PEM private keys (GCP service-account JSON carries one with escaped newlines)
    _rule(
        "private",
        r"-----BEGIN ((?:[A-Z]+ )*PRIVATE KEY)-----.*?(?:-----END \1-----|$)",
        rf"-----BEGIN \1-----{MASK}",
        re.DOTALL,
    ),
    # Authorization: Bearer/Basic/token X, "authorization": "X", -H 'Authorization: X'
    _rule(
        "authorization",
        r"(\b(?:proxy-)?authorization[\"']?\s*[:=]\s*[\"']?(?:(?:bearer|basic|token|bot|digest)\s+)?)"
        r"(?!\*\*\*)[^\s\"',;]+",
        rf"\1{MASK}",
        re.IGNORECASE,
    ),
    # --api-key VALUE, --hf-token=VALUE, ... (command lines)
    _rule(
        _NAMES,
        rf"(--{_SECRET_NAME}(?:=|\s+))(?!-)(\"[^\"]*\"|'[^']*'|\S+)",
        rf"\1{MASK}",
        re.IGNORECASE,
    ),
    # api_key='...', hf_token="...", password=abc (dumps, env, kwargs)
    _rule(
        _NAMES,
        rf"({_SECRET_WORD}[\"']?\s*[=:]\s*)(?!None\b|\*\*\*|'\*\*\*'|{_COUNT})"
        rf"(\"[^\"]*\"|'[^']*'|[^\s,)\]}}]+)",
        rf"\1'{MASK}'",
        re.IGNORECASE,
    ),
    # Azure connection strings and SAS URLs: AccountKey=...;  SharedAccessKey=...;  sig=...
    _rule(
        "accountkey sharedaccess",
        r"\b((?:AccountKey|SharedAccessKey|SharedAccessSignature)=)[^;\s\"']+",
        rf"\1{MASK}",
    ),
    _rule("sig=", r"([?&]sig=)[^&\s\"']+", rf"\1{MASK}"),
    # user:password@host in URLs
    _rule("://", r"(\b[a-z][a-z0-9+.\-]*://[^/\s:@]+:)[^/\s@]+@", rf"\1{MASK}@", re.IGNORECASE),
    # bare well-known token shapes
    _shape("github_pat_", r"\bgithub_pat_[A-Za-z0-9_]{20,}", "github_pat_"),
    _shape("ghp_ gho_ ghu_ ghs_ ghr_", r"\bgh[pousr]_[A-Za-z0-9]{20,}"),
    _shape("glpat-", r"\bglpat-[A-Za-z0-9_\-]{20,}", "glpat-"),
    _shape(
        "gldt- glft- glsoat- glrt- glcbt- glptt-",
        r"\bgl(?:dt|ft|soat|rt|cbt|ptt)-[A-Za-z0-9_\-]{20,}",
    ),
    _shape("xox", r"\bxox[abposre]-[A-Za-z0-9\-]{10,}"),
    _shape("xapp-", r"\bxapp-\d-[A-Za-z0-9\-]{10,}"),
    _shape("hf_", r"\bhf_[A-Za-z0-9]{8,}", "hf_"),
    _shape("sk-", r"\bsk-[A-Za-z0-9_\-]{8,}", "sk-"),  # OpenAI sk-/sk-proj-, Anthropic sk-ant-
    _shape("sk_ rk_", r"\b[sr]k_(?:live|test)_[A-Za-z0-9]{16,}"),  # Stripe
    _shape("npm_", r"\bnpm_[A-Za-z0-9]{36}\b"),
    _shape("dapi", r"\bdapi[0-9a-f]{32}\b"),  # Databricks
    _shape("aiza", r"\bAIza[0-9A-Za-z_\-]{35}"),  # Google API key
    _shape(
        "akia asia agpa aida aroa anpa anva aipa",
        r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}\b",  # AWS key ids
    ),
    # JWTs: three base64url parts, the first two JSON objects ("eyJ" = '{"')
    _shape("eyj", r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}"),
    _rule("bearer", r"\b(Bearer\s+)[A-Za-z0-9._~+/\-]{8,}=*", rf"\1{MASK}", re.IGNORECASE),
)
# Most strings hold no trigger at all and skip every pass; substring tests on one lower() copy
# are ~5x faster than an re.I alternation.
_TRIGGERS = tuple(sorted({t for rule in _RULES for t in rule.triggers}))


def redact_text(text: str) -> str:
    """Mask every secret-looking value in a free-text string (log line, command line)."""
    lowered = text.lower()
    if not any(trigger in lowered for trigger in _TRIGGERS):
        return text
    for rule in _RULES:
        if any(trigger in lowered for trigger in rule.triggers):
            text = rule.pattern.sub(rule.replacement, text)
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
