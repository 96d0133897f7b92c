"""The facts one recognised config line sets: a server_args dump, a vLLM config line, a spec
warning, a launch command, an env assignment, a capture or marker line, each with its
evidence.

A layer of the config collector (config.py) over ``ConfigReleases``.
"""

from __future__ import annotations

import re

from spectrace.assemblers.config_literals import CONFIG_LITERALS as CONFIG_LITERALS  # re-export
from spectrace.assemblers.config_release import ConfigReleases
from spectrace.assemblers.launch import LaunchCommand
from spectrace.assemblers.pyrepr import parse_call_kwargs
from spectrace.assemblers.pyconfig import commented_out
from spectrace.assemblers.run_config import DECISIVE_FLAGS, Evidence, FlagValue, trim
from spectrace.assemblers.sglang_eras import rule_flags
from spectrace.assemblers.spec_prose import (
    advised,
    spec_v2_settings,
    switch_apart,
)
from spectrace.assemblers.spec_warnings import match_spec_warning
from spectrace.assemblers.vllm_config import (
    CLI_NAMES,
    VERSION,
    draft_architecture,
    spec_dict_flags,
)
from spectrace.assemblers.vllm_proposers import (
    engine_line_v1,
    legacy_spelling,
    proposer_verdict,
)
from spectrace.assemblers.vllm_release import cut_release
from spectrace.assemblers.vllm_runner import RUNNER_FLAG
from spectrace.dialects.base import LogLine

_TRUTH = dict.fromkeys(("true", "1", "yes", "y"), True) | dict.fromkeys(
    ("false", "0", "no", "n"), False
)
# served models whose ServerArgs hook turns SGLANG_ENABLE_SPEC_V2 on for EAGLE itself
# (_handle_mimo_family / Step3p5ForCausalLM: multi-layer EAGLE; apply_deepseek_v4_defaults)
FORCED_V2_MODEL = re.compile(r"(?i)mimo-?v2|step-?3\.?5|step3p5|deepseek-?v4")
RUNNER_ENV = "VLLM_USE_V2_MODEL_RUNNER"  # vLLM's switch between its V1 runner and the model runner v2
_CAPTION_REACH = 6  # lines under a caption its block may take (a fence, a short YAML / dict)


def env_truth(value: str) -> bool | None:
    """SGLang's parsing of boolean env vars (true/1/yes/y, false/0/no/n)."""
    return _TRUTH.get(value.strip().lower())


class ConfigFacts(ConfigReleases):
    """Applies the flags and evidence of the lines the collector recognised."""

    def _server_args(self, line: LogLine, text: str) -> None:
        values, _complete = parse_call_kwargs(text)
        self._config.engine = "sglang"
        self._config.server_args = values
        self._dump_line = line
        for name in DECISIVE_FLAGS:
            if name in values:
                self._set(name, values[name], line, "server_args")

    def _dump_piece(self, line: LogLine, flags: dict[str, object]) -> None:
        """A dump's fields without its head: ``speculative_algorithm=None`` is the server's
        final value, speculation off; any other value is read as a command's (the fields the
        era rule also needs may lie in the cut part)."""
        self._config.engine = "sglang"
        if "speculative_algorithm" in flags and flags["speculative_algorithm"] is None:
            self._set("speculative_algorithm", None, line, "server_args")
            reason = "server_args dump (its head cut off): speculative_algorithm=None -> speculation off"
            self._config.path_evidence.append(
                Evidence(line.source, line.lineno, trim(line.raw), reason, "none")
            )
            return
        for name, value in flags.items():
            self._set(name, value, line, "launch_command")

    def _vllm(self, line: LogLine, flags: dict[str, object], origin: str) -> None:
        self._config.engine = self._config.engine or "vllm"
        for name, value in flags.items():
            self._set(name, value, line, origin)
        if "speculative_config.method" in flags:
            found = VERSION.search(line.text)  # the engine line names its own release
            shown = (found.group(1) or found.group(2)) if found else None
            whole = shown is not None and found is not None and not cut_release(shown, line.text[found.end():])
            version = shown if whole else self._config.version
            reason, points_to, proposer = proposer_verdict(
                flags["speculative_config.method"],
                version,
                engine_line_v1(line.text),
                legacy_spelling(line.text),
            )
            evidence = Evidence(line.source, line.lineno, trim(line.raw), reason, points_to, proposer)
            self._config.path_evidence.append(evidence)
            if draft_architecture(line.text):
                self._startups.drafted(evidence, line, flags["speculative_config.method"])
            elif origin in ("vllm_config", "vllm_args"):  # a start-up's own record of its method
                drafts = self._startups.stated(line, flags["speculative_config.method"])
                self._config.path_evidence = [e for e in self._config.path_evidence
                                              if not any(e is d for d in drafts)]  # fmt: skip

    def _sentence_spec(self, line: LogLine, quoted: str) -> None:
        """vLLM's flag with its JSON inside a sentence, where no command on the line set it."""
        said = self._config.flags.get("speculative_config.method")
        if said is not None and (said.source, said.lineno) == (line.source, line.lineno):
            return
        self._vllm(line, spec_dict_flags(quoted), "launch_command")

    def _refused(self, line: LogLine, method: str) -> None:
        """``Unsupported speculative method: 'mtp'``: the family asked for, and that no
        proposer ran for it (never a decided class)."""
        self._config.engine = self._config.engine or "vllm"
        self._set("speculative_config.method", method, line, "vllm_config")
        reason = f"vLLM refused speculative method '{method}': no proposer was built for it"
        self._config.path_evidence.append(
            Evidence(line.source, line.lineno, trim(line.raw), reason)
        )

    def _capturing(self, line: LogLine, match: re.Match[str] | None) -> None:
        """The bs being captured, kept only while a capture is unfinished (a capture crash)."""
        if match is not None and int(match.group(2)) < int(match.group(3)):
            self._set("capture_bs", int(match.group(1)), line, "capture_log")
        else:
            self._config.flags.pop("capture_bs", None)

    def _marker(self, line: LogLine, marker: re.Match[str]) -> None:
        """The dynamic-disable patch announcing itself proves its code was loaded."""
        if marker.group(1):
            self._set("speculative_disable_batch_threshold", int(marker.group(1)), line, "marker")
        reason = "the dynamic speculation disable start-up line was logged: its code was loaded"
        self._config.path_evidence.append(
            Evidence(line.source, line.lineno, trim(line.raw), reason)
        )

    def _warning(self, line: LogLine) -> bool:
        warning = match_spec_warning(line.text)
        if warning is None:
            return False
        self._config.engine = self._config.engine or "sglang"
        if warning.eagle_machinery:  # told only when nothing names the algorithm (_single)
            self._machinery = self._machinery or (line, warning.reason)
            return True
        self._warning_era = warning.era or self._warning_era
        self._config.era = self._version_era or warning.era or self._config.era
        self._config.path_evidence.append(
            Evidence(
                line.source,
                line.lineno,
                trim(line.raw),
                warning.reason,
                warning.points_to,
                warning.worker_class,
            )
        )
        if warning.overlap is not None:
            self._set("disable_overlap_schedule", not warning.overlap, line, "warning")
        if warning.spec_v2_env is not None:
            self._set("SGLANG_ENABLE_SPEC_V2", warning.spec_v2_env, line, "warning")
        return True

    def _under_caption(self, line: LogLine) -> bool:
        """The line sits in the block right under a caption that makes it a suggestion, a docs
        example or another's ("Reviewer: please try this yaml:", "The docs example:")."""
        source, lineno = self._caption
        if line.headed or line.ts is not None:
            return False  # a log record is what ran, whatever the caption says
        return line.source == source and 0 < line.lineno - lineno <= _CAPTION_REACH

    def _apply_launch(self, command: LaunchCommand) -> None:
        """Each flag with the line its option was read on (a command may span many lines);
        none from a command under a caption that makes it another's or a suggestion."""
        if command.flags:  # a command with options, not an image named in a sentence
            self._launched_engine(command.engine)
        self._config.engine = self._config.engine or command.engine
        first = next(iter(command.lines.values()), None)
        if first is not None and self._under_caption(first):
            self._spec_said = True  # some speculation was shown: no "none" from another command
            self._caption = ("", -9)  # one command only
            return
        if command.complete and command.engine == "sglang" and first is not None:
            self._plain = self._plain or first  # its algorithm, if any, is among its flags
        elif command.engine == "sglang" and first is not None and "speculative_algorithm" not in command.flags:
            self._cut = self._cut or first  # its algorithm flag may be past the cut
        if not command.complete and command.engine == "vllm" and first is not None:
            self._set("vllm_launch_cut", True, first, "launch_command")  # its spec flags may be cut
        elif command.engine == "vllm" and first is not None:
            self._whole_vllm = self._whole_vllm or first
        for name, value in command.flags.items():
            line = command.lines[name]
            if name == "model_path" and not any(c in str(value) for c in "$@{<"):
                self._served = self._served or str(value)  # a model's name, not "${MODEL_PATH}"
            if name == "model_path" and (forced := FORCED_V2_MODEL.search(str(value))):
                multi = forced.group(0).lower().startswith(("mimo", "step"))  # multi-layer EAGLE
                self._forced_model = "MultiLayerEagleWorkerV2" if multi else "EAGLEWorkerV2"
            if isinstance(value, str) and name == "speculative_algorithm":
                value = value.rstrip(".,;:")  # a command ending a sentence: "... EAGLE."
            if name in DECISIVE_FLAGS:
                self._set(name, value, line, "launch_command")
            elif command.engine == "vllm" and name in CLI_NAMES:
                self._set(f"speculative_config.{CLI_NAMES[name]}", value, line, "launch_command")
            elif command.engine == "vllm" and name == "model":  # the target (its MTP layers)
                self._target = (str(value), line)
            elif command.engine == "trtllm" and name == "backend":  # PyTorch or TRT engine
                self._set("backend", value, line, "launch_command")
            elif command.engine == "sglang" and name == "enable_beta_spec":  # 0.5.3.post2-0.5.4
                self._set(name, value, line, "launch_command")
            elif command.engine == "sglang" and name in rule_flags():  # [[promote]], [[off]] rows
                self._set(name, value, line, "launch_command")  # may rewrite the algorithm
        if command.engine == "sglang" and not command.complete and first is not None and any(
            f.origin == "launch_command" for f in self._config.flags.values()
        ):  # a run its launch shows, whose speculative options may be past the cut: not plain
            self._set("sglang_launch_cut", True, first, "launch_command")
        method = self._config.flags.get("speculative_config.method")
        said = command.lines.get("method") or command.lines.get("speculative_model")
        if command.engine == "vllm" and method is not None and said is not None and (
            method.origin == "launch_command" and (method.source, method.lineno) == (said.source, said.lineno)
        ):  # fmt: skip
            reason, points_to, proposer = proposer_verdict(
                method.value, self._config.version, None, legacy_spelling(said.text)
            )
            reason = reason.replace("vLLM config", "vLLM launch command", 1)
            self._config.path_evidence.append(
                Evidence(said.source, said.lineno, trim(said.raw), reason, points_to, proposer)
            )
        if command.engine == "vllm" and command.model and first is not None:
            self._target = (command.model, first)  # vllm serve MODEL
        if command.before is not None and command.engine == "sglang":
            self._release_bound(command)
        self._runner_entry(command)
        if command.env and first is not None:
            self._env(
                command.lines.get("SGLANG_ENABLE_SPEC_V2", first), command.env, "launch_command"
            )

    def _runner_entry(self, command: LaunchCommand) -> None:
        """vLLM's runner switch set in an entry whose name and value stand on two lines (a
        Kubernetes ``- name: VLLM_USE_V2_MODEL_RUNNER`` / ``value: "1"``), which the runner
        reader, one line at a time, never sees whole: the run's model runner, on the value line."""
        line = command.lines.get(RUNNER_ENV)
        truth = env_truth(command.env.get(RUNNER_ENV, "").strip("`'\""))
        if line is None or truth is None or RUNNER_ENV in line.text or commented_out(line.text):
            return  # (a line naming the switch itself is read by the runner reader)
        self._config.flags.setdefault(RUNNER_FLAG, FlagValue("v2" if truth else "v1", line.source,
                                                             line.lineno, "launch_command"))  # fmt: skip

    def _env(self, line: LogLine, env: dict[str, str], origin: str) -> None:
        stated = spec_v2_settings(line.text) if origin != "launch_command" else set()
        if (origin == "env" and switch_apart(line.text)) or advised(line.text):
            return  # "setting SGLANG_ENABLE_SPEC_V2=1 makes it go away", an error's advice
        self._stated |= stated  # a text comparing both settings names neither
        if len(stated) > 1:  # "tried with =0 and =1": this line names neither
            env = {k: v for k, v in env.items() if k != "SGLANG_ENABLE_SPEC_V2"}
        if "SGLANG_ENABLE_SPEC_V2" not in env and len(stated) == 1:
            env = {"SGLANG_ENABLE_SPEC_V2": "1" if stated.pop() else "0"}  # YAML, JSON, prose
            origin = "prose"
        if "SGLANG_ENABLE_SPEC_V2" in env:
            env["SGLANG_ENABLE_SPEC_V2"] = env["SGLANG_ENABLE_SPEC_V2"].strip("`'\").,:;")
            value = env_truth(env["SGLANG_ENABLE_SPEC_V2"])
            self._set(
                "SGLANG_ENABLE_SPEC_V2",
                value if value is not None else env["SGLANG_ENABLE_SPEC_V2"],
                line,
                origin,
            )
            self._config.path_evidence.append(
                Evidence(
                    line.source,
                    line.lineno,
                    trim(line.raw),
                    f"SGLANG_ENABLE_SPEC_V2={env['SGLANG_ENABLE_SPEC_V2']} "
                    f"{'set at launch' if origin == 'launch_command' else 'named in the log'} "
                    "(0.5.5-0.5.12: decides whether EAGLE runs on the overlap v2 worker)",
                )
            )
