"""Launch commands pasted into a log or an issue (``python -m sglang.launch_server ...``,
``sglang serve``, ``vllm serve MODEL``, ``python -m vllm.entrypoints.openai.api_server``,
``trtllm-serve MODEL``), read as the server's own parser reads them.

The lines of one command are grouped by ``launch_span``; its tokens go through ``argparse``
built from the framework's option table (``launch_options``), so abbreviations, ``nargs`` lists
and flags read as the server reads them, and an option no release knows stays unknown rather
than guessed. Each flag keeps the line its option token is on. A launch command is weaker
evidence than the ``server_args=`` dump (the dump holds the values after SGLang's own
adjustments), but it is often the only place env vars such as ``SGLANG_ENABLE_SPEC_V2`` show.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace

from spectrace.assemblers.launch_options import OptionTables, convert, parse_tokens
from spectrace.assemblers.launch_table import table_lines
from spectrace.assemblers.launch_words import cut_value, sglang_modules, sglang_script
from spectrace.assemblers.launch_span import _ENTRY as ENTRY
from spectrace.assemblers.launch_span import (
    MAX_OPEN,
    LaunchSpan,
    clean,
    code_flags,
    container_key,
    env_entry,
    from_entry,
    open_quote,
    prose_command,
    sglang_prefixed,
    shell_words,
    tokens_of,
)
from spectrace.assemblers.pyrepr import parse_dict_repr
from spectrace.assemblers.vllm_config import method_from_model
from spectrace.dialects.base import LogLine

_SPEC_OPTION = re.compile(r"(?i)--?(?:method|spec|draft|num[-_]spec)")  # speculation's options
_METHOD_OPTION = re.compile(r"--spec(?:ulative)?[-_](?:decoding[-_])?method")
_ENV = re.compile(
    r"(?:^|[\s;'\"(])(?:export\s+)?((?:SGLANG|VLLM|TRTLLM|TLLM)_[A-Z0-9_]+)=([^\s;'\"]*)"
)
MAX_TOKENS = 1_000  # of one command (real ones hold a few hundred at most); the rest is not read
_SHELL_END = frozenset({"|", "||", "&&", ";", "&", "|&", ">", ">>", "2>&1", "1>", "2>"})
# dests the linker knows by the server_args field name
_FIELDS = {
    # 0.5.14 split the graph sizes into decode and prefill; --cuda-graph-bs sets the decode ones
    "sglang": {
        "cuda_graph_bs_decode": "cuda_graph_bs",
        "cuda_graph_max_bs_decode": "cuda_graph_max_bs",
    },
    "vllm": {
        "tensor_parallel_size": "tp_size",
        "data_parallel_size": "dp_size",
        "pipeline_parallel_size": "pp_size",
    },
    "trtllm": {
        "tensor_parallel_size": "tp_size",
        "pipeline_parallel_size": "pp_size",
        "moe_expert_parallel_size": "ep_size",
    },
}
_SPEC_KEYS = {
    "method": "method",
    "num_speculative_tokens": "num_spec_tokens",
    "model": "draft_model",
}


@dataclass(frozen=True, slots=True)
class LaunchCommand:
    """What one launch command sets: flags by server field name, env assignments, the options
    no release of the server knows (kept as written), and the line each flag was read on."""

    engine: str  # "sglang" | "vllm" | "trtllm"
    flags: dict[str, object] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)
    unknown: tuple[str, ...] = ()
    model: str | None = None
    lines: dict[str, LogLine] = field(default_factory=dict)  # flag or env name -> its line
    # (release, option): an option newer releases refuse (ambiguous, removed): the run predates it
    before: tuple[str, str] | None = None
    # the whole command is shown: an entry point, its last line not continued (a ``\\``), no
    # ``...`` elision, no ``--config`` file, no option cut at the end
    complete: bool = False


def find_env_assignments(text: str) -> dict[str, str]:
    """``SGLANG_ENABLE_SPEC_V2=True python ...`` / ``export SGLANG_...=1`` -> {name: value}."""
    return {m.group(1): m.group(2) for m in _ENV.finditer(text)}


class LaunchReader:
    """Groups fed lines into commands and reads each when it ends. ``feed`` returns whether the
    line belongs to a command and the commands it completed."""

    def __init__(self, tables: OptionTables) -> None:
        self.tables = tables
        # engine -> the release the log names (the caller sets it as it reads version lines)
        self.releases: dict[str, str] = {}
        self._span = LaunchSpan()
        self._lines: list[LogLine] = []
        # per source: the variables its lines set (None: set to several values)
        self._shell: dict[str, dict[str, str | None]] = {}

    def feed(self, line: LogLine) -> tuple[bool, list[LaunchCommand]]:
        if self._span.open and self._span.feed(line):
            self._lines.append(line)
            return True, []
        done = self.close()
        if self._span.start(line):
            self._lines = [line]
            return True, done
        if (assigned := shell_assignment(line.text)) is not None:
            shell, (name, value) = self._shell.setdefault(line.source, {}), assigned
            # set twice to different values (an if/else, a case): which one the command saw
            # is not said
            shell[name] = value if shell.get(name, value) == value else None
        return False, done

    def close(self) -> list[LaunchCommand]:
        """Read the open command (at the end of input, or when a line does not continue it),
        its ``$VAR`` / ``${VAR}`` replaced by what an earlier line of its text set them to."""
        lines, self._lines = self._lines, []
        self._span.close()
        if lines and (shell := self._shell.get(lines[0].source)):
            lines = [expand(line, shell) for line in lines]
        command = read_command(lines, self.tables, self.releases) if lines else None
        return [command] if command is not None else []


# a line that only sets a shell variable (``METHOD=dspark``, ``export ALGO="EAGLE3"``,
# ``SPEC='{"method": "mtp"}'``): a value with no expansion of its own, so the command below
# reads it as written
_ASSIGN = re.compile(
    r"""^\s*(?:export\s+|declare\s+(?:-x\s+)?|local\s+)?([A-Za-z_][A-Za-z0-9_]*)="""
    r"""(?:'([^'\n]*)'|"([^"$`\\\n]*)"|([^\s'"$`;&|<>()\\]+))\s*(?:;\s*)?(?:\s#.*)?$"""
)
_EXPANSION = re.compile(
    r"""(?P<open>(?<!\S)")?\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))"""
    r"""(?P<close>"(?!\S))?"""
)


def shell_assignment(text: str) -> tuple[str, str] | None:
    """(name, value) where the line only assigns a shell variable a literal value."""
    m = _ASSIGN.match(text)
    if m is None:
        return None
    value = next((g for g in m.groups()[1:] if g is not None), "")
    return m.group(1), value


def expand(line: LogLine, shell: dict[str, str | None]) -> LogLine:
    """The line with each ``$NAME`` / ``${NAME}`` the text assigned one value replaced by it (as
    the shell expands it before the server parses its arguments); others stay unseen."""
    if "$" not in line.text:
        return line
    text = _EXPANSION.sub(lambda m: _expanded(m, shell), line.text)
    return line if text == line.text else replace(line, text=text)


def _expanded(m: re.Match[str], shell: dict[str, str | None]) -> str:
    """One expansion's text: the value as written where it holds no quote; a quoted value
    (``SPEC='{"method": "mtp"}'``) only as a whole argument (``"$SPEC"``, ``$SPEC``), single-quoted
    so the command's reader keeps it one argument, as the shell does; else left unseen."""
    value = shell.get(m.group(2) or m.group(3))
    if value is None:
        return m.group(0)
    if not any(q in value for q in "'\"`"):
        return (m.group("open") or "") + value + (m.group("close") or "")
    before, after = m.string[m.start() - 1 : m.start()], m.string[m.end() : m.end() + 1]
    whole = bool(m.group("open")) == bool(m.group("close")) and before in ("", " ", "\t", "=") \
        and after in ("", " ", "\t")  # fmt: skip
    return f"'{value}'" if whole and "'" not in value else m.group(0)


def parse_launch_command(text: str, tables: OptionTables) -> LaunchCommand | None:
    """The command in ``text`` (one line or a pasted block), or None when there is none."""
    lines = [
        LogLine("", i + 1, 0, part, part, "plain", "") for i, part in enumerate(text.splitlines())
    ]
    return read_command(lines, tables)


def read_command(
    lines: list[LogLine], tables: OptionTables, releases: dict[str, str] | None = None
) -> LaunchCommand | None:
    """The command on ``lines``; ``releases`` (engine -> version the log names) picks the
    release whose parser is tried first."""
    releases = releases or {}
    if (entry := env_entry([line.text for line in lines])) is not None:  # a k8s env: entry
        name, value = entry
        return LaunchCommand(_env_engine(name), env={name: value}, lines={name: lines[1]})
    if (rows := table_lines(lines)) is not None:  # a table of options and their values
        return _table_command(rows, tables, releases)
    lines = prose_command(lines) or lines  # entry and flags quoted in prose bullets
    tokens = _scripts(_container_order(lines, _tokens(lines)))
    found = _entry(tokens)
    if found is None:  # flags pasted without their entry point ("Key launch parameters:")
        quoted = _quoted_flags(lines)
        spans = _span_env(lines) if quoted is not None else {}
        if quoted is not None:
            lines, tokens = quoted, _tokens(quoted)
        args = _until_shell_end(tokens)[:MAX_TOKENS]
        # a sentence quoting one flag only one server has names it as surely as a block does
        command = _headless(lines, args, tables, releases, 1 if quoted is not None else 2)
        if command is not None and (spans := {k: v for k, v in spans.items() if _env_engine(k) == command.engine}):
            return replace(command, env=command.env | {k: v for k, (v, _ln) in spans.items()},
                           lines=command.lines | {k: ln for k, (_v, ln) in spans.items()})  # fmt: skip
        env = find_env_assignments("\n".join(clean(line.text) for line in lines))
        if command is None and env:  # "--env SGLANG_ENABLE_SPEC_V2=1" alone still sets the env
            return LaunchCommand(
                _env_engine(next(iter(env))), env=env, lines=dict.fromkeys(env, lines[0])
            )
        return command
    engine, at = found
    args = [(_dashes(t), i) for t, i in _until_shell_end(tokens[at:])[:MAX_TOKENS]]
    model, args = _positional(engine, args, tokens[at - 1][0] == "serve")
    command = _read(engine, lines, args, model, tables, releases.get(engine))
    return replace(command, complete=_complete(command, lines, args))


def _complete(command: LaunchCommand, lines: list[LogLine], args: list[tuple[str, int]]) -> bool:
    """The paste shows the whole command: what it does not set is the server's default."""
    shown = next((ln for ln in reversed(lines) if ln.text.strip()), lines[-1])  # not a blank
    last = clean(shown.text)  # which drops a continuing backslash: look at the raw line
    if shown.text.rstrip(" `*").endswith("\\") or open_quote(last) or "config" in command.flags:
        return False
    if open_quote("\n".join(clean(line.text) for line in lines)):
        return False  # a quote opened in the command never closes: the paste ends inside it
    options = [token for token in command.unknown if token.startswith("-")]
    if any(o.startswith("--spec") for o in options) or (args and args[-1][0] in options):
        return False  # a cut option (``--specul``), not a fork's own option
    if len(args) >= MAX_TOKENS or any("..." in line.text or "…" in line.text for line in lines):
        return False
    if last.rstrip().endswith(("-", "/", "=", ",", "_")):
        return False  # cut inside its last token ("--model-path org/Meta-Llama-3-", "hy_")
    if len(args) >= 2 and cut_value(command.engine, args[-2][0], args[-1][0]):
        return False  # "--reasoning-parser deeps": a registry name cut short
    if _substituted(lines):
        return False
    return bool(command.flags) and not any(token.startswith(_UNSEEN) for token, _ in args)


# tokens whose arguments the paste does not show: a shell variable or ``$(...)`` substitution,
# an argument file (``@args.txt``, read by parsers built with ``fromfile_prefix_chars``)
_UNSEEN = ("$", "@")
_CODE_SPAN = re.compile(r"`([^`\n]+)`")


def _substituted(lines: list[LogLine]) -> bool:
    """A backtick command substitution among the arguments (``--tp 2 `cat spec_flags.txt```):
    its output are arguments the paste does not show. An inline-code span holding the command
    itself or a flag (``Run `vllm serve M`.``, `` `--tp 2` ``) is Markdown, not a substitution."""
    for n, line in enumerate(lines):
        for span in _CODE_SPAN.finditer(line.text):
            body = span.group(1).strip()
            if not body or body.startswith("-") or ENTRY.search(body) is not None:
                continue
            if n > 0 or ENTRY.search(line.text, 0, span.start()) is not None:
                return True
    return False


# a line that opens with a flag (``--tp 2``, ``-tp 2``), as a list item too (``- --tp 2``); not a
# Markdown bullet's words (``- Commits go to master``)
_FLAG_START = re.compile(r"\s*(?:[-*+]\s+)?--?[A-Za-z]")


def _quoted_flags(lines: list[LogLine]) -> list[LogLine] | None:
    """Prose quoting flags as inline code: each line reduced to the flags it quotes (a plain
    flag line stays), so the sentence's words are not read as arguments; None when no line
    quotes any."""
    quoted = [code_flags(line) for line in lines]
    if all(flags is None for flags in quoted):  # "": a sentence whose flags are all set apart
        return None
    out = []
    for line, flags in zip(lines, quoted, strict=True):
        plain_flags = _FLAG_START.match(clean(line.text)) is not None
        out.append(
            replace(line, text=flags if flags is not None else line.text if plain_flags else "")
        )
    return out


def _table_command(rows: list[LogLine], tables: OptionTables, releases: dict[str, str]):
    """The options a table's rows set (``launch_table``), read as a bare flag block, with the
    engine variables its rows assign; never complete (a table shows chosen settings only)."""
    flags = [row if row.text.startswith("--") else replace(row, text="") for row in rows]
    env = {name: (value, row) for row in rows for name, value in find_env_assignments(row.text).items()}
    command = _headless(flags, _tokens(flags)[:MAX_TOKENS], tables, releases)
    if command is None and not env:
        return None
    if command is None:
        command = LaunchCommand(_env_engine(next(iter(env))))
    return replace(command, env=command.env | {name: value for name, (value, _row) in env.items()},
                   lines=command.lines | {name: row for name, (_value, row) in env.items()})  # fmt: skip


# a word before an inline-code env setting that takes it away ("without `X=1`", "unlike the
# sibling's `X=1`", "drop `X=1`"): not the setting the quoted flags run with
_ENV_DENIED = re.compile(r"(?i)\b(?:without|no|not|never|unset|unsets|unsetting|instead of|unlike|drop\w*|remov\w*|except)\W+(?:\w+\W+){0,2}$")


# an inline-code span quoting the option that names the speculative method
_METHOD_SPAN = re.compile(r"`[^`\n]*--speculative[-_](?:algorithm|algo|config|method|model)\b")


def _span_env(lines: list[LogLine]) -> dict[str, tuple[str, LogLine]]:
    """The engine variables a prose line sets in inline code beside the flags it quotes
    ("`SGLANG_ENABLE_SPEC_V2=1` with `--speculative-algorithm EAGLE`, ..."): the settings the
    quoted command runs with, each with its line; none a word before it takes away. Read only
    on a line that also quotes the speculative method's option: beside other flags (a dtype, a
    scheduler option) the switch may be another arm's, whose method only the prose names."""
    found: dict[str, tuple[str, LogLine]] = {}
    for line in lines:
        if _METHOD_SPAN.search(line.text) is None:
            continue
        for span in _CODE_SPAN.finditer(line.text):
            if _ENV_DENIED.search(line.text[: span.start()]):
                continue
            for name, value in find_env_assignments(span.group(1).strip()).items():
                found[name] = (value, line)
    return found


def _env_engine(name: str) -> str:
    """The server an env var belongs to, by its prefix."""
    return "vllm" if name.startswith("VLLM_") else "trtllm" if "LLM_" in name else "sglang"


def _headless(lines: list[LogLine], args: list[tuple[str, int]], tables: OptionTables,
              releases: dict[str, str], least: int = 2):  # fmt: skip
    """A block of bare flags, or a k8s ``args:`` list under an image's own entry point: the
    server whose options take the most of its flags, when one clearly does (``least`` or
    more, and more than any other), else nothing."""
    if (own := sglang_prefixed(args)) is not None:  # an RL framework's `--sglang-<arg>` flags,
        read = _read("sglang", lines, own, None, tables, releases.get("sglang"))  # on its own
        return read if read.flags else None  # command line (`python train.py ...`) or bare
    if not args or not args[0][0].startswith("--"):
        return None
    reads = [_read(engine, lines, args, None, tables, releases.get(engine))
             for engine in ("sglang", "vllm", "trtllm")]  # fmt: skip
    score = sorted(((len(r.flags) - len(r.unknown), i) for i, r in enumerate(reads)), reverse=True)
    (best, i), (second, _) = score[0], score[1]
    if least > 1 and any(_SPEC_OPTION.match(token) for token in reads[i].unknown):
        return None  # a bare block speculating through options the server never had: another
        # program's (``--method mtp`` of a fork's CLI continuing its entry line above)
    return reads[i] if len(reads[i].flags) >= least and best > second else None


def _read(engine: str, lines: list[LogLine], args: list[tuple[str, int]], model: str | None,
          tables: OptionTables, release: str | None) -> LaunchCommand:  # fmt: skip
    if engine == "vllm":
        args = _vllm_spelling(args)
    table = tables.get(engine)
    args = _unglue(args, table)
    parsed = parse_tokens(table, [token for token, _ in args], release)
    flags: dict[str, object] = {}
    where: dict[str, LogLine] = {}
    for dest, (value, index) in parsed.values.items():
        name = _FIELDS[engine].get(dest, dest)
        if name != dest and name in flags:
            continue
        flags[name] = convert(table.row(dest), value)
        where[name] = lines[args[index][1]]
    unknown = tuple(token for token, _ in parsed.extras)
    _stated_method(engine, args, unknown, lines, flags, where)
    _vllm_spec(engine, flags, where)
    env = find_env_assignments("\n".join(clean(line.text) for line in lines))
    where |= {name: lines[0] for name in env}
    return LaunchCommand(engine, flags, env, unknown, model, where, parsed.before)


def _container_order(lines: list[LogLine], tokens: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """A container spec's ``args:`` list written before its ``command:`` list (Kubernetes and
    compose append args to the command whatever their order): the command's tokens first, so
    the flags follow the entry point they are passed to."""
    at = next((i for i, line in enumerate(lines) if i and container_key(line.text) == "command"), None)
    if at is None:  # (the span may start at the first flag item, under an ``args:`` key it left out)
        return tokens
    before, after = [t for t in tokens if t[1] < at], [t for t in tokens if t[1] >= at]
    if not before or _entry(before) is not None or _entry(after) is None:
        return tokens
    return after + before


def _tokens(lines: list[LogLine]) -> list[tuple[str, int]]:
    """(token, index of its line); a quote left open joins the next lines (pasted JSON)."""
    out: list[tuple[str, int]] = []
    i, joins = 0, True
    while i < len(lines) and len(out) < MAX_TOKENS:
        got, j = tokens_of(lines[i].text), i
        joined = clean(lines[i].text)
        while got is None and j + 1 < len(lines) and len(joined) <= MAX_OPEN and joins:
            j += 1
            joined += "\n" + clean(lines[j].text)
            got = tokens_of(joined)
        if got is None:  # never closed (a paste cut inside a quoted value): close it here
            got, j, joins = _closed(clean(lines[i].text)), i, False
        out += [(token, i) for token in got]
        i = j + 1
    return out


def _scripts(tokens: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """A shell script passed as one argument (``docker run IMG bash -c "pip install -U x &&
    python3 -m sglang.launch_server ..."``, ``sh -c '...'``) holding a server's entry point:
    its own words in its place, from the command that holds the entry point (the setup steps
    before it, up to their last ``&&``/``;``, are other commands)."""
    out: list[tuple[str, int]] = []
    for token, at in tokens:
        inner = shell_words(token) if " " in token or "\n" in token else None
        found = _entry([(word, at) for word in inner]) if inner else None
        if inner is None or found is None:
            out.append((token, at))
            continue
        head = max((i for i, word in enumerate(inner[: found[1]]) if word in _SHELL_END), default=-1)
        out += [(word, at) for word in inner[head + 1 :]]
    return out


def _closed(text: str) -> list[str]:
    """The tokens of a line whose quote never closes, read as if it closed at the line's end
    (``--speculative-config '{"method": "eagle", "num_specu`` keeps its complete keys); plain
    words when even that does not read."""
    text = from_entry(text)
    quote = open_quote(text)
    got = tokens_of(text + quote) if quote else None
    return got if got is not None else text.split()


def _unglue(args: list[tuple[str, int]], table) -> list[tuple[str, int]]:
    """``--keep-mm-feature-on-device--speculative-algorithm``: two flags whose blank was lost
    in the paste, split when neither the whole is an option and both halves are."""
    out: list[tuple[str, int]] = []
    for token, line in args:
        cut = token.find("--", 2)
        head, tail = token[:cut], token[cut:]
        if (token.startswith("--") and cut > 2 and "=" not in head and not table.knows(token)
                and table.knows(head) and table.knows(tail.partition("=")[0])):  # fmt: skip
            out += [(head, line), (tail, line)]
        else:
            out.append((token, line))
    return out


# vLLM's offline benchmarks build the engine from the same EngineArgs as the server
_BENCH = ("latency", "throughput")
_BENCH_SCRIPTS = ("benchmark_latency.py", "benchmark_throughput.py")


def _entry(tokens: list[tuple[str, int]]) -> tuple[str, int] | None:
    """The engine and the index of the first argument after its entry point."""
    words = [token for token, _ in tokens]
    for i, word in enumerate(words):
        after = words[i + 1] if i + 1 < len(words) else ""
        base = word.rsplit("/", 1)[-1]
        if word in sglang_modules() or sglang_script(base, after):  # launch_words' table
            return "sglang", i + (1 if word in sglang_modules() else 2)
        if base == "vllm" and after == "serve":
            return "vllm", i + 2
        if base == "vllm" and after == "bench" and i + 2 < len(words) and words[i + 2] in _BENCH:
            return "vllm", i + 3  # vllm bench latency|throughput: the offline engine's args
        if base in _BENCH_SCRIPTS:  # benchmarks/benchmark_latency.py: EngineArgs, same flags
            return "vllm", i + 1
        if word.startswith("vllm.entrypoints.") and word.endswith("api_server"):
            return "vllm", i + 1
        if base == "trtllm-serve":
            return "trtllm", i + (2 if after == "serve" else 1)
        if word.partition(":")[0].endswith("vllm/vllm-openai"):  # the image's entry point
            return "vllm", i + 1
    return None


def _dashes(token: str) -> str:
    """``----speculative-config`` (a slip of the keyboard) as the option it spells: the flag's
    value beside it is still the config the user meant."""
    name = token.lstrip("-")
    return "--" + name if token.startswith("---") and name[:1].isalpha() else token


def _until_shell_end(tokens: list[tuple[str, int]]) -> list[tuple[str, int]]:
    for i, (token, _) in enumerate(tokens):
        if token in _SHELL_END or token.startswith("#"):
            return tokens[:i]
    return tokens


def _positional(engine: str, args: list[tuple[str, int]], serve: bool):
    """``vllm serve MODEL`` / ``trtllm-serve MODEL``: the model right after the entry point;
    ``sglang serve MODEL`` turns it into ``--model-path MODEL`` as SGLang's CLI does."""
    if not args or args[0][0].startswith("-") or (engine == "sglang" and not serve):
        return None, args
    if engine == "sglang":
        return args[0][0], [("--model-path", args[0][1]), *args]
    return args[0][0], args[1:]


def _vllm_spelling(args: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """FlexibleArgumentParser's spellings: ``--a_b`` is ``--a-b``; ``--json-arg.key value``
    fills one key of the JSON argument (merged into one ``--json-arg '{...}'`` here)."""
    out: list[tuple[str, int]] = []
    nested: dict[str, tuple[dict[str, object], int]] = {}
    i = 0
    while i < len(args):
        token, line = args[i]
        i += 1
        if not token.startswith("--"):
            out.append((token, line))
            continue
        name, eq, value = token.partition("=")
        head, dot, key = name.partition(".")
        head = head.replace("_", "-")
        if not dot:
            out.append((head + eq + value, line))
            continue
        if not eq and i < len(args) and not args[i][0].startswith("--"):
            value, i = args[i][0], i + 1
        nested.setdefault(head, ({}, line))[0][key] = _json_scalar(value)
    for head, (values, line) in nested.items():
        out += [(head, line), (json.dumps(values), line)]
    return out


def _json_scalar(value: str) -> object:
    try:
        return json.loads(value)
    except (ValueError, RecursionError):  # nested past the decoder's depth: the text as written
        return value


def _stated_method(
    engine: str,
    args: list[tuple[str, int]],
    unknown: tuple[str, ...],
    lines: list[LogLine],
    flags: dict[str, object],
    where: dict[str, LogLine],
) -> None:
    """A ``--speculative-method X`` no release of vLLM parses (a fork's, a plugin's or a
    user's guess) still says the method the user ran: it outranks the draft-model default a
    bare ``--speculative-model`` implies, which would name the wrong proposer."""
    if engine != "vllm" or "method" in flags:
        return
    for at, (token, line_index) in enumerate(args[:-1]):
        value = args[at + 1][0]
        if token in unknown and _METHOD_OPTION.fullmatch(token) and not value.startswith("-"):
            flags["method"] = value.strip("'\"").lower()
            where["method"] = lines[line_index]
            return


def _vllm_spec(engine: str, flags: dict[str, object], where: dict[str, LogLine]) -> None:
    """``--speculative-config`` JSON -> method / draft_model / num_spec_tokens; V0's
    ``--speculative-model`` named the method by its draft model (``[ngram]``, a name saying
    eagle/eagle3/medusa, as vLLM's own config did); a name saying nothing leaves it open."""
    if engine != "vllm":
        return
    spec = flags.get("speculative_config")
    if isinstance(spec, str) and spec.lstrip().startswith("{"):  # not JSON (``k=7``): the
        spec = parse_dict_repr(spec)[0]  # members that parse still say the method
    if isinstance(spec, dict):
        unsaid = spec.get("method") is None and isinstance(spec.get("model"), str)  # auto-detect
        for key, name in _SPEC_KEYS.items():
            if key in spec and not (unsaid and key == "method"):
                flags[name] = spec[key]
                where[name] = where["speculative_config"]
    if "method" not in flags and (named := method_from_model(flags.get("speculative_model"))):
        flags["method"] = named  # a JSON without method is read by release (vllm_methods)
        where["method"] = where["speculative_model"]
