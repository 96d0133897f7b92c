"""A ``speculative_config`` dict written in a pasted Python script (or a JSON config file).

People report offline runs by pasting their script: ``speculative_config = {`` with one key
per line, then ``LLM(..., speculative_config=speculative_config)``, or the dict written
inline as the keyword's value. Only the first line holds a config literal, so the scan would
never see the keys: ``PyDictSpan`` holds the lines until the braces balance (bounded) and
hands the joined dict over as one line. The dict is read as data, never run: the balanced
text through ``pyrepr.parse_dict_repr`` (``ast.literal_eval`` per value; a name or a call
keeps its source text; a cut dict keeps its whole members).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from itertools import islice

from spectrace.assemblers.pyrepr import bracketed, parse_dict_repr
from spectrace.assemblers.spec_prose import set_apart
from spectrace.assemblers.vllm_plugins import ascend_method
from spectrace.assemblers.vllm_proposers import method_classes
from spectrace.dialects.base import LogLine

MAX_LINES = 64  # lines one dict may run over
MAX_CHARS = 16_384
# mappings tried per line: each try reads to its closing brace, so a line of thousands of
# nested or repeated ``{"key":`` openings would cost quadratic time; a config opens early
MAX_OPENINGS = 16
# ``speculative_config = {``, ``speculative_config={`` (a keyword), ``"speculative_config": {``
# (JSON / a dict literal); not ``--speculative_config '{`` (a launch flag, read by the launch
# reader), nor ``speculative_config=SpeculativeConfig(`` (a repr, read by vllm_config).
_START = re.compile(r"""(?<![-\w])["']?speculative_config["']?\s*[=:]\s*(?:dict\(\s*)?(\{)""")


def _depth(text: str, depth: int = 0, quote: str = "") -> tuple[int, str]:
    """Open braces outside quotes, and the quote still open, after ``text``."""
    for ch in text:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#":  # a comment: the rest of the line is not code
            break
        elif ch in "{[(":
            depth += 1
        elif ch in "}])":
            depth -= 1
    return depth, quote


# a code comment (a shell or Python ``#``, a commented YAML key), not a Markdown heading
_COMMENT = re.compile(r"^\s*#(?:!|\s{2,}|\s?[a-z_(\-])")
# a conditional expression choosing the dict: ``{...} if flag else None``
_CHOSEN = re.compile(r"\s*\)?\s*if\b")


def commented(text: str) -> bool:
    """The line is a comment in a script or a config file: nothing on it is set."""
    return _COMMENT.match(text) is not None


# a commented-out config key (``#   method: ngram``, ``# speculative-config:``) or script line
_COMMENTED_KEY = re.compile(r"^\s*#(?:!|\s{2,}\S|\s?[a-z_][\w.-]*:[^\S\n]*[^\s,]*[^\S\n]*$)")


# a commented-out environment setting: a YAML/compose entry (``# VLLM_X: "1"``, ``# - VLLM_X=1``)
# or a shell line (``# export VLLM_X=1``) with nothing after it but another comment, never a title
_COMMENTED_SETTING = re.compile(
    r"^\s*#+\s*(?:-\s*|export\s+|ENV\s+)?[`'\"]?[A-Z][A-Z0-9_]*[`'\"]?\s*[:=]\s*[`'\"]?[\w.-]*[`'\"]?\s*(?:#.*)?$"
)


def commented_out(text: str) -> bool:
    """A comment in a script or config file (``commented``) or a commented-out env setting: a
    line a launcher never reads, so nothing on it was set or printed by the run."""
    return commented(text) or _COMMENTED_SETTING.match(text) is not None


def commented_key(text: str) -> bool:
    """A commented-out key or an indented comment, never a lower-case Markdown title."""
    return _COMMENTED_KEY.match(text) is not None


def dict_start(text: str) -> int | None:
    """Where the ``{`` of a speculative_config dict opens in ``text``, if it does."""
    m = _START.search(text)
    return m.start(1) if m is not None else None


def python_spec_dict(text: str) -> dict[str, object] | None:
    """The speculative_config dict a line (or a joined dict) writes, read without running it."""
    at = dict_start(text)
    if at is None or commented(text):
        return None
    inside = bracketed(text, at)
    if inside is not None and _CHOSEN.match(text, at + len(inside) + 2):
        return None  # ``{...} if USE_SPEC else None``: the run may not have passed it
    body = "{" + (inside + "}" if inside is not None else text[at + 1 :])
    values, _complete = parse_dict_repr(body)
    return values or _flow_map(inside)


# A YAML flow mapping with bare keys (``speculative_config: {method: mtp, num_speculative_tokens:
# 1}`` in a ``vllm serve --config`` file): scalars only, the way the YAML file states them.
_FLOW_ITEM = re.compile(r"\s*([A-Za-z_][\w.-]{0,60})\s*:\s*([^,{}\[\]]{0,300}?)\s*")
_FLOW_WORDS: dict[str, object] = {"true": True, "false": False, "null": None, "~": None}


def _flow_map(inside: str | None) -> dict[str, object]:
    """The members of a bare-keyed flow mapping (a nested value ends the reading: {} then)."""
    if inside is None or "{" in inside or "[" in inside:
        return {}
    out: dict[str, object] = {}
    for part in inside.split(","):
        m = _FLOW_ITEM.fullmatch(part)
        if m is None:
            return {}
        raw = m.group(2).strip("'\"")
        out[m.group(1)] = _FLOW_WORDS.get(raw.lower(), _number(raw))
    return out


def _number(raw: str) -> object:
    for kind in (int, float):
        try:
            return kind(raw)
        except ValueError:
            pass
    return raw


# SGLang's server arguments written as a dict or JSON (a ``--config`` file, ``/get_server_info``,
# "my command is {...}"): a mapping that holds the ``speculative_algorithm`` key.
SGLANG_ARGS_LITERALS: tuple[bytes, ...] = (b'"speculative_algorithm"', b"'speculative_algorithm'")
_ARGS_OPEN = re.compile(r"""\{\s*["'][a-z_]{1,60}["']\s*:""")


def sglang_args_dict(text: str) -> dict[str, object] | None:
    """The server-argument mapping a line writes (JSON first: ``true``/``null``; then a Python
    dict read as data), when it holds ``speculative_algorithm``; else None."""
    if "speculative_algorithm" not in text:
        return None
    for m in islice(_ARGS_OPEN.finditer(text), MAX_OPENINGS):
        inside = bracketed(text, m.start())
        body = "{" + (inside + "}" if inside is not None else text[m.start() + 1 :])
        try:
            values = json.loads(body)
        except (ValueError, RecursionError):  # not JSON, or nested past the decoder's depth
            values, _complete = parse_dict_repr(body)
        if isinstance(values, dict) and "speculative_algorithm" in values:
            return {str(k): v for k, v in values.items()}
    return None


# A YAML block mapping under vLLM's key (a ``vllm serve --config`` file, a Helm value):
# ``speculative-config:`` alone on its line, its members indented below it.
_YAML_HEAD = re.compile(r"""^(\s*)(?:-\s+)?["']?speculative[-_]config["']?\s*:\s*(?:#.*)?$""")


# A bare mapping opening on vLLM's ``method`` key (a shell variable's ``SPEC='{"method": "x",``
# continued on the next lines, a JSON file's first member): a speculative config over lines.
_TRACEBACK = re.compile(r"^\W*Traceback \(most recent call last\):")
_METHOD_OPEN = re.compile(r"""\{\s*["']method["']\s*:""")


def span_candidate(text: str) -> bool:
    """The line may open a speculative config written over several lines."""
    keyed = "speculative_config" in text or "speculative-config" in text
    return keyed or _METHOD_OPEN.search(text) is not None


def _opening(text: str) -> int | None:
    """Where a speculative config's ``{`` opens on the line: after the key, else a bare one."""
    at = dict_start(text)
    if at is None and not commented(text) and (bare := _METHOD_OPEN.search(text)) is not None:
        return bare.start()
    return at


@dataclass(slots=True)
class PyDictSpan:
    """Joins the lines of one ``speculative_config`` dict, or of a YAML block under the key;
    ``feed`` returns the whole mapping as one line (at its first line's place) once its
    braces balance or its indentation ends, or when cut."""

    head: LogLine | None = None
    pieces: list[str] = field(default_factory=list)
    depth: int = 0
    quote: str = ""
    indent: int = -1  # a YAML block's key indentation; -1 for a dict
    member: int = -1  # the indentation of its direct members

    @property
    def open(self) -> bool:
        return self.head is not None

    def start(self, line: LogLine) -> bool:
        """Hold a line whose dict does not close on it, or a YAML key with its block below;
        False when there is none or it is whole."""
        if (yaml := _YAML_HEAD.match(line.text)) is not None:
            self.head, self.pieces, self.indent, self.member = line, [], len(yaml.group(1)), -1
            return True
        at = _opening(line.text)
        if at is None:
            return False
        depth, quote = _depth(line.text[at:])
        if depth <= 0:
            return False
        self.head, self.pieces, self.depth, self.quote = line, [line.text], depth, quote
        self.indent = -1
        return True

    def feed(self, line: LogLine) -> LogLine | None:
        head = self.head
        if head is None:
            return None
        if line.source != head.source or line.headed or _TRACEBACK.match(line.text):
            return self.finish()  # (a traceback below a dict the text cut: the dict ends there)
        if self.indent >= 0:
            return self._member(line)
        self.pieces.append(line.text.strip())
        self.depth, self.quote = _depth(line.text, self.depth, "")
        too_long = len(self.pieces) >= MAX_LINES or sum(map(len, self.pieces)) > MAX_CHARS
        return self.finish() if self.depth <= 0 or too_long else None

    def _member(self, line: LogLine) -> LogLine | None:
        """A YAML member line (kept when it is a direct one), or the block's end."""
        body = line.text.lstrip()
        depth = len(line.text) - len(body)
        if not body or depth <= self.indent or len(self.pieces) >= MAX_LINES:
            return self.finish()
        self.member = depth if self.member < 0 else self.member
        if depth == self.member:
            self.pieces.append(body.split(" #", 1)[0].strip())
        return None

    def finish(self) -> LogLine | None:
        head, self.head = self.head, None
        if head is None:
            return None
        if self.indent >= 0:  # a YAML block, as the flow mapping the readers take
            if not self.pieces:
                return None
            members = "{" + ", ".join(self.pieces) + "}"
            return replace(head, text=f"speculative_config: {members}", raw=f"{head.raw} {members}")
        joined = " ".join(self.pieces)
        return replace(head, text=joined, raw=joined)


# ``--speculative-config '{"method": "mtp", ...}'`` quoted inside a sentence ("when serving X
# with --speculative-config '{...}', vLLM builds ..."): the JSON beside vLLM's own flag.
_SENTENCE_FLAG = re.compile(r"--speculative[-_]config[= ]+(['\"]?)(\{[^{}\n]*\})\1")
# A mapping that opens on a quoted key: where a bare speculative config may start.
_BARE_OPEN = re.compile(r"""\{\s*["'][a-z_]{1,40}["']\s*:""")
# keys only vLLM's SpeculativeConfig takes beside ``method`` (a second one makes a bare
# ``{"method": ...}`` a speculative config, not an RPC call or an HTTP record)
_SPEC_KEYS = ("num_speculative_tokens", "draft_tensor_parallel_size", "prompt_lookup_max",
              "prompt_lookup_min", "speculative_token_tree", "disable_padded_drafter_batch")  # fmt: skip
# method words no other JSON uses: enough alone (``{"method": "mtp"}``)
_SPEC_WORDS = re.compile(r"eagle|mtp|ngram|medusa|dflash|dspark|mlp_speculator")
# vLLM's offline example script (examples/offline_inference/spec_decode.py) takes --method
_EXAMPLE_SCRIPT = re.compile(r"\bspec_decode\.py\b.*?\s--method[= ]+([a-z][\w]{1,40})\b")


def sentence_spec_config(text: str) -> str | None:
    """The JSON a line gives as vLLM's speculative config where no launch command or key
    names it: beside ``--speculative-config`` in a sentence; a bare object in vLLM's
    SpeculativeConfig vocabulary (a code block's ``{"method": "eagle3",
    "num_speculative_tokens": 3}``, a shell variable's ``spec='{"method": ...}'``); vLLM's
    example script's ``--method eagle`` (as ``{"method": "eagle"}``)."""
    if commented(text):
        return None
    m = _SENTENCE_FLAG.search(text)
    if m is not None and _apart(text[: m.start()] + " " + text[m.end() :]):
        return None  # another report's, a fix, a plan: not the run's
    if m is not None:
        return m.group(2)
    if (script := _EXAMPLE_SCRIPT.search(text)) is not None:
        return json.dumps({"method": script.group(1)})
    return bare_spec_config(text) if "method" in text else None


# a sentence quoting the flag as the fix or a workaround ("adding ... makes the crash go away")
_FIXES = re.compile(
    r"(?i)\b(?:disappear\w*|go(?:es)? away|went away|avoids?|workaround|docs?|documentation"
    r"|readme|tutorial|recommend\w*|suggest\w*|model[ -]?cards?|plainly"
    r"|for (?:faster|better|higher|best)\b[^.]{0,40}\buse)\b"
)  # or the docs' / a model card's / a recommendation's config, not the one the run used


def _apart(text: str) -> bool:
    """The sentence's own words (its inline code aside) set the quoted flag apart from the run."""
    words = re.sub(r"`[^`]*`", " ", text)
    return set_apart(words, without=False) or _FIXES.search(words) is not None


def bare_spec_config(text: str) -> str | None:
    """The first bare mapping on the line whose ``method`` is a speculative method vLLM
    knows and that reads as a SpeculativeConfig (another of its keys, or a method word no
    other JSON uses); its text, or None."""
    found = bare_spec_configs(text, first=True)
    return found[0] if found else None


def bare_spec_configs(text: str, first: bool = False) -> list[str]:
    """Every such mapping on the line (``first``: stop at the first), in order."""
    if '\\"' in text:  # JSON escaped inside a quoted string (a Helm value, a JSON list item)
        text = text.replace('\\"', '"')
    out: list[str] = []
    for m in islice(_BARE_OPEN.finditer(text), MAX_OPENINGS):
        inside = bracketed(text, m.start())
        if inside is None or _CHOSEN.match(text, m.start() + len(inside) + 2):
            continue  # cut, or chosen by a conditional expression
        values, _complete = parse_dict_repr("{" + inside + "}")
        method = values.get("method")
        if not isinstance(method, str) or not _known_method(method.lower()):
            continue
        if any(key in values for key in _SPEC_KEYS) or _SPEC_WORDS.search(method.lower()):
            out.append("{" + inside + "}")
            if first:
                break
    return out


def _known_method(name: str) -> bool:
    """A method vLLM's tables (or vllm-ascend's) list, or a model-named MTP one."""
    return name in method_classes() or name.endswith("_mtp") or ascend_method(name)


def record_told_apart(text: str) -> bool:
    """A sentence quotes an engine's record in inline code (``If an old release prints
    `SpeculativeConfig(method='draft_model', ...)` for an assistant head, ...``) and its own
    words suppose it, promise it to the reader or cite the docs, with no first person: the record
    is what a reader may meet, not the one the writer's run printed. A record pasted bare, in
    inline code with no sentence around it, or told as the writer's ("our log prints `...`",
    "why does my server print `...`?") stays the run's."""
    if "`" not in text or commented(text):
        return False
    words = re.sub(r"`[^`]*`", " ", text)
    if len(re.findall(r"[A-Za-z]{2,}", words)) < _SENTENCE_WORDS and len(_CJK.findall(words)) < 2 * _SENTENCE_WORDS:
        return False  # a record in inline code with a label, not a sentence around it
    if _WRITER.search(words) is not None:
        return False
    return _READER_MEETS.search(words) is not None or _FIXES.search(words) is not None


_SENTENCE_WORDS = 4  # words outside the inline code that make the line a sentence (CJK: twice as many characters)
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
# the writer's own run told ("we see", "my log", "我们的日志", "私の環境")
_WRITER = re.compile(r"(?i)\b(?:I|I'm|I've|we|we're|we've|my|our|us)\b|我|私|僕|我々")
# a supposition opening the sentence ("If an old release prints `...`", "Should the log show
# `...`"), a how-to's promise of what the reader will meet ("you will see `...`", "expect
# `...`"), or a supposition in Chinese or Japanese ("如果日志打印 `...`", "もしログに `...` と出たら")
_READER_MEETS = re.compile(
    r"(?i)^\W*(?:if|should|in case)\b"
    r"|\byou(?:'ll|\s+will|\s+should|\s+may|\s+might|\s+can)?\s+(?:see|get|find|notice)\b|\bexpect(?:ed)?\b"
    r"|如果|假如|倘若|若是|一旦|会看到|會看到|もし|場合[はに]|と出たら|が出たら"
)
