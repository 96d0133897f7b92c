"""Which command words launch SGLang, read from ``rules/paths/sglang_entry.toml``; and the
registry names that show a command cut inside its last value (``rules/options/value_names.toml``).

Why: several engines copied SGLang's option names (``--speculative-algorithm``,
``--speculative-num-steps``), so those options alone do not make a run SGLang's; the command
word in front of them does. One table of SGLang's own entry points, and one rule for every
other one: a ``<word> serve`` or ``python -m <package>.<server module>`` that is not in the
table (nor vLLM's or TensorRT-LLM's, which their own readers take) launches another engine.
"""

from __future__ import annotations

import re
from functools import cache

from spectrace.assemblers.release_dates import rules_table

TABLE = "paths/sglang_entry.toml"
VALUES = "options/value_names.toml"  # registry names of options whose choices argparse lacks

# a command word where a command starts (a line's start after prompt or quote marks, a
# backtick, "$(", "&&"): ``ft serve``, ``python3 -m tokenspeed.launch_server``, ``lmdeploy serve
# api_server``; a ``python -m`` module anywhere after a space too, the interpreter's own options
# before ``-m`` aside (``python3 -u -m sgl_jax.launch_server``). A script word is lower case:
# "We serve it with ..." is a sentence
_WORD = re.compile(
    r"(?:^|[\s`$(>])python[\d.]*(?:\s+-X\s*\S+|\s+-(?!m\b)[A-Za-z]{1,3})*\s+-m\s+"
    r"(?P<module>[A-Za-z_][\w.]*)(?P<sub>\s+serve\b)?"
    r"|(?:^[\s>*$]*|`|\$\(|&&\s*)(?:[A-Z_][A-Z0-9_]*=\S*\s+)*(?:[\w.-]*/)*"
    r"(?P<word>[a-z][a-z0-9_.-]*)\s+serve\b"
)
# a module that starts a server (its last part), the only ``python -m`` launches read here
_SERVER_MODULE = re.compile(r"(?:^|\.)(?:launch_server|api_server|serve|server|entrypoints)(?:\.|$)")


@cache
def _table() -> dict[str, list]:
    return rules_table(TABLE)


@cache
def sglang_modules() -> frozenset[str]:
    """The ``python -m`` modules that parse SGLang's ServerArgs from their command line."""
    return frozenset(_table()["modules"])


@cache
def _known_words() -> frozenset[str]:
    """The console-script words whose ``serve`` some reader takes (SGLang's, vLLM's, TRT's)."""
    return frozenset(word for word, _ in [*_table()["scripts"], *_table()["others"]])


@cache
def _not_engines() -> frozenset[str]:
    """The words before ``serve`` that start no engine: a sentence's ("we serve", "the serve
    health check") and the shell's or a task runner's (``make serve``, ``docker``, ``kill``)."""
    return frozenset(str(word) for word in _table().get("not_engines", []))


@cache
def _rollout_repos() -> frozenset[str]:
    return frozenset(str(repo) for repo in _table().get("rollout_repos", []))


def rollout_repo(repo: str) -> bool:
    """``repo`` (owner/name) is an RL trainer whose rollouts always run SGLang (slime, miles)."""
    return repo.lower() in _rollout_repos()


def sglang_script(word: str, after: str) -> bool:
    """``word after`` is SGLang's console script starting its server (``sglang serve``)."""
    return [word.rsplit("/", 1)[-1], after] in _table()["scripts"]


def foreign_entry(text: str) -> bool:
    """The text runs another engine's server (``tokenspeed serve``, ``ft serve``, ``python -m
    lmdeploy.serve.openai.api_server``): options written on its command are that engine's."""
    for m in _WORD.finditer(text):
        if (module := m.group("module")) is not None:
            top = module.split(".", 1)[0]
            server = m.group("sub") is not None or _SERVER_MODULE.search(module) is not None
            if top not in _OWN_PACKAGES and server and module not in sglang_modules():
                return True
        elif (word := m.group("word")) not in _known_words() and word not in _not_engines() \
                and _WRAPPER.search(word) is None:  # fmt: skip
            return True
    return False


# a script file's name (``./serve-kimik3.sh serve``, ``run_server.py serve``): the user's own
# wrapper, which starts whichever engine the text's other lines name; an engine's console
# script is installed under a bare word
_WRAPPER = re.compile(r"\.(?:sh|bash|zsh|py)$")


# packages whose modules this code reads as their own engine's (SGLang's tests and tools too)
_OWN_PACKAGES = frozenset({"sglang", "sglang_router", "dynamo", "vllm", "tensorrt_llm"})


@cache
def _value_names() -> dict[str, dict[str, list[str]]]:
    return rules_table(VALUES)


def cut_value(engine: str, option: str, value: str) -> bool:
    """``value`` of ``option`` is a registry name cut short: a strict prefix of a name the
    engine's registry has (rules/options/value_names.toml), and no name itself."""
    names = _value_names().get(engine, {}).get(option)
    if not names or value in names:
        return False
    return any(name.startswith(value) for name in names)
