"""The worker-path verdict survives the way people paste logs into public threads.

Ten kinds of evidence that decide a path today (a launch command, a server_args dump, worker
frames in a traceback, a faulthandler and a py-spy dump, vLLM's launch and args lines, a
proposer frame, a TensorRT-LLM worker frame, a version line), each with a crash the linker
links, are wrapped in every paste form seen in issue threads, e-mail, CI output, container
and cluster log viewers. Each form must give the verdict (value, worker class, framework,
family, condition) and the crash count the plain text gives: a paste form never loses,
invents or re-decides a crash.

Every line is ours, written in the frameworks' real formats (LOG_FORMATS.md); none is pasted.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest

from spectrace.dialects.flattened import split_flattened
from spectrace.pipeline import analyse

SG = "/usr/local/lib/python3.12/dist-packages/sglang/srt"
VL = "/usr/local/lib/python3.12/dist-packages/vllm"
TR = "/usr/local/lib/python3.12/dist-packages/tensorrt_llm"
VL_TAG = "(EngineCore_DP0 pid=2731) ERROR 11-10 10:15:42 [core.py:710] "

SG_CRASH = [
    "[2026-11-10 10:15:42 TP0] Scheduler hit an exception: Traceback (most recent call last):",
    f'  File "{SG}/managers/scheduler.py", line 2769, in run_scheduler_process',
    "    scheduler.run_event_loop()",
    f'  File "{SG}/layers/attention/flashinfer_backend.py", line 512, in forward_extend',
    "    o = self.prefill_wrapper.forward(q, k, v)",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
]
SG_LAUNCH = [
    "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct \\",
    "    --speculative-algorithm EAGLE --speculative-draft-model-path lmsys/EAGLE-LLaMA3-8B \\",
    "    --speculative-num-steps 5 --speculative-eagle-topk 8 --speculative-num-draft-tokens 64 \\",
    "    --tp 2 --port 30000",
]


def vllm_crash(inner: str, code: str, error: str) -> list[str]:
    """A V1 engine core's fatal error: vLLM repeats its header on every traceback line."""
    body = [
        "EngineCore encountered a fatal error.",
        "Traceback (most recent call last):",
        f'  File "{VL}/v1/engine/core.py", line 701, in run_engine_core',
        "    engine_core.run_busy_loop()",
        f'  File "{VL}/{inner}',
        f"    {code}",
        error,
    ]
    return [VL_TAG + line for line in body]


VL_CRASH = vllm_crash(
    'v1/attention/backends/flash_attn.py", line 540, in forward',
    "flash_attn_varlen_func(q, k, v)",
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB",
)

# kind -> (lines, (value, worker class) the plain text decides or states as a condition)
KINDS: dict[str, tuple[list[str], tuple[str, str | None]]] = {
    "sglang_launch": ([*SG_LAUNCH, "", *SG_CRASH], ("unknown", None)),
    "sglang_dump": (
        [
            "[2026-11-10 10:14:00] server_args=ServerArgs(model_path='meta-llama/Llama-3.1-8B', "
            "tp_size=1, speculative_algorithm='EAGLE3', speculative_draft_model_path='a/eagle3', "
            "speculative_num_steps=3, speculative_eagle_topk=1, speculative_num_draft_tokens=4, "
            "disable_overlap_schedule=True, enable_dp_attention=False)",
            *SG_CRASH,
        ],
        ("unknown", None),  # overlap off: v1 up to 0.5.12, the synchronous V2 from 0.5.13
    ),
    "sglang_v2_frame": (
        [
            "[2026-11-10 10:15:42 TP0] Scheduler hit an exception: Traceback (most recent call "
            "last):",
            f'  File "{SG}/managers/scheduler.py", line 2769, in run_scheduler_process',
            "    scheduler.event_loop_overlap()",
            f'  File "{SG}/speculative/eagle_worker_v2.py", line 301, in forward_batch_generation',
            "    batch_output = self.verify(model_worker_batch)",
            "RuntimeError: The size of tensor a (96) must match the size of tensor b (12) at "
            "non-singleton dimension 0",
        ],
        ("v2", "EAGLEWorkerV2"),
    ),
    "faulthandler": (
        [
            "Fatal Python error: Segmentation fault",
            "",
            "Current thread 0x00007f1d8a1b7480 (most recent call first):",
            f'  File "{SG}/speculative/eagle_worker.py", line 512 in verify',
            f'  File "{SG}/speculative/eagle_worker.py", line 301 in forward_batch_generation',
            f'  File "{SG}/managers/scheduler.py", line 1020 in event_loop_normal',
        ],
        ("v1", "EAGLEWorker"),
    ),
    "pyspy": (
        [
            "[2026-11-10 10:00:00 TP0] Pyspy dump for PID 4242:",
            "Process 4242: sglang::scheduler_TP0",
            "Python v3.12.3 (/usr/bin/python3.12)",
            "",
            'Thread 4242 (active): "MainThread"',
            "    verify (sglang/srt/speculative/eagle_worker_v2.py:610)",
            "    forward_batch_generation (sglang/srt/speculative/eagle_worker_v2.py:290)",
            "    event_loop_overlap (sglang/srt/managers/scheduler.py:1010)",
            "[2026-11-10 10:05:00 TP0] Scheduler watchdog timeout (self.watchdog_timeout=300, "
            "self.soft=False)",
        ],
        ("v2", "EAGLEWorkerV2"),
    ),
    "vllm_serve": (
        [
            "vllm serve meta-llama/Llama-3.1-8B-Instruct \\",
            "    --tensor-parallel-size 2 \\",
            '    --speculative-config \'{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1", '
            '"num_speculative_tokens": 3}\'',
            "",
            *VL_CRASH,
        ],
        ("other", "EagleProposer"),
    ),
    "vllm_args": (
        [
            "(APIServer pid=2602) INFO 11-10 10:14:00 [utils.py:233] non-default args: "
            "{'model_tag': 'meta-llama/Llama-3.1-8B-Instruct', 'speculative_config': "
            "{'method': 'eagle3', 'model': 'yuhuili/EAGLE3-LLaMA3.1', 'num_speculative_tokens': 3}}",
            *VL_CRASH,
        ],
        ("other", "EagleProposer"),
    ),
    "vllm_proposer_frame": (
        vllm_crash(
            'v1/spec_decode/eagle.py", line 236, in propose',
            "logits = self.model.compute_logits(sample_hidden_states)",
            "RuntimeError: CUDA error: device-side assert triggered",
        ),
        # no release: eagle.py's classes also ran other proposers on 0.15-0.19 and 0.23-0.33
        # (DraftModelProposer, Step3p5MTPProposer derive from them): a condition
        ("unknown", None),
    ),
    "trtllm_frame": (
        [
            "Traceback (most recent call last):",
            f'  File "{TR}/_torch/pyexecutor/py_executor.py", line 1420, in _executor_loop',
            "    batch_outputs = self._forward_step(scheduled_batch)",
            f'  File "{TR}/_torch/speculative/ngram.py", line 388, in prepare_draft_tokens',
            "    draft_tokens = self.spec_resource_manager.get_draft_tokens(request)",
            "RuntimeError: CUDA error: an illegal memory access was encountered",
        ],
        ("other", "NGramDrafter"),
    ),
    "version_line": (  # check_env names the release: the launch's condition is settled
        [
            "Python: 3.12.3 (main, Nov  6 2025, 13:44:16) [GCC 13.2.0]",
            "CUDA available: True",
            "sglang: 0.5.2",
            "flashinfer_python: 0.3.1",
            "",
            *SG_LAUNCH,
            "",
            *SG_CRASH,
        ],
        ("v1", "EAGLEWorker"),
    ),
}


def _text(lines: list[str], end: str = "\n") -> str:
    return end.join(lines) + end


def _fenced(open_: str, close: str) -> Callable[[list[str]], str]:
    def form(lines: list[str]) -> str:
        return _text(["The server died with this:", "", open_, *lines, close, "", "Any idea?"])

    return form


def _prefixed(prefix: str | Callable[[int], str]) -> Callable[[list[str]], str]:
    def form(lines: list[str]) -> str:
        return _text([(prefix(n) if callable(prefix) else prefix) + line
                      for n, line in enumerate(lines, 1)])  # fmt: skip

    return form


def _quoted(mark: str) -> Callable[[list[str]], str]:
    return lambda lines: _text([mark + line if line else mark.rstrip() for line in lines])


def _details(lines: list[str]) -> str:
    return _text(["<details>", "<summary>Full log (click to expand)</summary>", "", "```",
                  *lines, "```", "", "</details>"])  # fmt: skip


def _details_one_line(lines: list[str]) -> str:
    return _text(["<details><summary>log</summary>", *lines, "</details>"])


def _reply(lines: list[str]) -> str:
    """A comment, then a reply that quotes it whole (fence included): one crash, not two."""
    original = ["I get this on every start:", "```", *lines, "```"]
    quoted = [("> " + line).rstrip() for line in original]
    return _text([*original, "", "On Tue, Mar 3, 2026 at 9:12 AM someone wrote:", *quoted, "",
                  "Same here with two GPUs."])  # fmt: skip


def _html(lines: list[str]) -> str:
    """Copied from a page's source or an HTML e-mail: entities for the special characters."""
    table = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}
    return _text(["<pre><code>" + "".join(table.get(c, c) for c in line) for line in lines[:1]]
                 + ["".join(table.get(c, c) for c in line) for line in lines[1:]]
                 + ["</code></pre>"])  # fmt: skip


def _indent_with(blank: str) -> Callable[[list[str]], str]:
    def form(lines: list[str]) -> str:
        out = []
        for line in lines:
            body = line.lstrip(" ")
            out.append(blank * ((len(line) - len(body) + 3) // 4 or bool(len(line) - len(body)))
                       + body)  # fmt: skip
        return _text(out)

    return form


def _nbsp_all(lines: list[str]) -> str:
    """A chat client or a rendered page: every blank became a non-breaking space."""
    return _text([line.replace(" ", "\xa0") for line in lines])


def _zero_width(lines: list[str]) -> str:
    """Chat clients mark line starts and break opportunities with U+200B."""
    return _text(["\u200b" + line.replace("/", "/\u200b") for line in lines])


def _json_log(lines: list[str]) -> str:
    """A collector that joined a multi-line record: the whole paste in one ``log`` string."""
    return json.dumps({"time": "2026-11-10T10:15:42.1Z", "stream": "stderr",
                       "log": _text(lines)}) + "\n"  # fmt: skip


def _json_records(lines: list[str]) -> str:
    """A structured logger: one record per line, ``\\n`` kept in the string."""
    return _text([json.dumps({"log": line + "\n", "stream": "stderr",
                              "time": "2026-11-10T10:15:42.1Z"}) for line in lines])  # fmt: skip


def _repr(lines: list[str]) -> str:
    """``print(proc.stderr)`` of bytes: one line of ``\\n`` escapes."""
    return "stderr: " + repr(_text(lines).encode()) + "\n"


def _repr_str(lines: list[str]) -> str:
    """``print(repr(output))``: a str's repr, alone on its line."""
    return repr(_text(lines)) + "\n"


def _ansi(lines: list[str]) -> str:
    """Colour as a terminal or CI viewer keeps it: levels, tags and whole lines."""
    out = []
    for line in lines:
        line = line.replace("ERROR", "\x1b[1;31mERROR\x1b[0m").replace(" pid=", " pid=", 1)
        if line.startswith("("):
            line = "\x1b[36m" + line.replace(") ", ")\x1b[0m ", 1)
        out.append("\x1b[2m" + line + "\x1b[0m" if line.startswith("  ") else line)
    return _text(out)


def _ansi_shown(esc: str) -> Callable[[list[str]], str]:
    """Colour codes as a pager shows them (``^[[31m``) or after a copy lost the ESC byte."""
    return lambda lines: _ansi(lines).replace("\x1b", esc)


def _notebook_cell(lines: list[str]) -> str:
    """A notebook cell's shell escape (``!python -m ...``), its output under it."""
    return _text(["!" + lines[0] if lines[0].startswith(("python", "vllm")) else lines[0],
                  *lines[1:]])  # fmt: skip


def _ipython(lines: list[str]) -> str:
    """An IPython session: a command typed as ``!cmd`` (continuations under ``...:``), then
    its output as printed; other logs printed by a call in a cell."""
    if not lines[0].startswith(("python", "vllm")):
        return _text(["In [3]: out = engine.generate(prompts)", *lines])
    end = lines.index("")
    typed = ["In [3]: !" + lines[0], *("   ...: " + line for line in lines[1:end])]
    return _text([*typed, *lines[end:]])


def _ipynb(lines: list[str]) -> str:
    """A notebook's stream output as its JSON stores it, one string per line."""
    strings = [json.dumps(line + "\n") + "," for line in lines]
    return _text(['  "outputs": [', "    {", '     "name": "stderr",',
                  '     "output_type": "stream",', '     "text": [',
                  *("      " + s for s in strings), "     ]", "    }"])  # fmt: skip


def _pytest(lines: list[str]) -> str:
    return _text([
        "=" * 35 + " FAILURES " + "=" * 35,
        "_" * 30 + " test_spec_server " + "_" * 30,
        "-" * 29 + " Captured stderr call " + "-" * 29,
        *lines,
        "=" * 28 + " short test summary info " + "=" * 28,
        "FAILED tests/test_spec.py::test_spec_server - AssertionError: server exited with 1",
    ])  # fmt: skip


def _cjk(lines: list[str]) -> str:
    return _text(["我在 8 卡 H100 上启动服务时遇到了下面的错误：", "", *lines, "",
                  "请问这是什么原因？谢谢！", "同じエラーが発生しました。ログは上記の通りです。"])  # fmt: skip


def _cjk_inline(lines: list[str]) -> str:
    """Prose glued to the first line with a full-width colon, no blank (Chinese, Japanese)."""
    return _text(["报错信息如下：" + lines[0], *lines[1:], "以上です。"])


def _stacked(*names: str) -> Callable[[list[str]], str]:
    """Forms on top of each other, the first innermost (a reply quoting a code view)."""

    def form(lines: list[str]) -> str:
        for name in names:
            lines = FORMS[name](lines).rstrip("\n").split("\n")
        return _text(lines)

    return form


FORMS: dict[str, Callable[[list[str]], str]] = {
    "plain": _text,
    "fence": _fenced("```", "```"),
    "fence_text": _fenced("```text", "```"),
    "fence_tilde": _fenced("~~~", "~~~"),
    "fence_glued": lambda lines: _text(["```" + lines[0], *lines[1:-1], lines[-1] + "```"]),
    "details": _details,
    "details_one_line": _details_one_line,
    "quote": _quoted("> "),
    "quote_twice": _quoted(">> "),
    "quote_fenced": lambda lines: _text(
        ["> ```", *(("> " + ln).rstrip() for ln in lines), "> ```"]
    ),  # fmt: skip
    "reply_quoting": _reply,
    "gutter_bar": _prefixed(lambda n: f"{n + 11:>3} | "),
    "gutter_blank": _prefixed(lambda n: f"  {n + 11}  "),
    "gutter_cat_n": _prefixed(lambda n: f"{n:>6}\t"),
    "gha_stamp": _prefixed("2026-11-10T10:15:40.1234567Z "),
    "compose": _prefixed("sglang-1  | "),
    "kubectl": _prefixed("[pod/sglang-0/server] "),
    "ray": _prefixed("(RayWorkerWrapper pid=123) "),
    "journald": _prefixed("Nov 10 10:15:40 gpu-node-7 python3[123]: "),
    "slurm": _prefixed("0: "),
    "pytest": _pytest,
    "ipython": _ipython,
    "ipynb": _ipynb,
    "crlf": lambda lines: _text(lines, "\r\n"),
    "tabs": _indent_with("\t"),
    "nbsp_indent": _indent_with("\xa0\xa0"),
    "nbsp_all": _nbsp_all,
    "zero_width": _zero_width,
    "html_entities": _html,
    "json_records": _json_records,
    "json_log": _json_log,
    "bytes_repr": _repr,
    "str_repr": _repr_str,
    "ansi": _ansi,
    "ansi_caret": _ansi_shown("^["),
    "ansi_lost_esc": _ansi_shown(""),
    "notebook_cell": _notebook_cell,
    "cjk_prose": _cjk,
    "cjk_inline": _cjk_inline,
    "indented_code_block": _prefixed("    "),
    "bom_crlf": lambda lines: "\ufeff" + _text(lines, "\r\n"),
    "quote_of_gutter": _stacked("gutter_bar", "quote"),
    "gutter_of_slurm": _stacked("slurm", "gutter_cat_n"),
    "gha_of_ansi": _stacked("ansi", "gha_stamp"),
    "quote_of_json_log": _stacked("json_log", "quote"),
}


def _verdicts(text: str, tmp: Path) -> tuple[int, list[tuple[str | None, ...]]]:
    roots = [i for i in analyse([str(_write(tmp, text))]).incidents if i.root_cause]
    out = []
    for incident in roots:
        p = incident.worker_path
        assert p is not None
        out.append((p.value, p.worker_class, p.framework, p.family, p.conditional))
    return len(roots), out


@cache
def _plain(kind: str, tmp: Path) -> tuple[int, list[tuple[str | None, ...]]]:
    return _verdicts(_text(KINDS[kind][0]), tmp)


@pytest.mark.parametrize("kind", KINDS)
def test_the_plain_text_decides_the_path(kind: str, tmp_path: Path) -> None:
    count, verdicts = _verdicts(_text(KINDS[kind][0]), tmp_path)
    assert count == 1
    value, worker, _framework, _family, condition = verdicts[0]
    assert (value, worker) == KINDS[kind][1]
    assert value != "unknown" or condition  # decided, or a condition the release settles


@pytest.mark.parametrize("form", [f for f in FORMS if f != "plain"])
@pytest.mark.parametrize("kind", KINDS)
def test_a_paste_form_keeps_the_verdict_and_the_crash_count(
    kind: str, form: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    tmp = tmp_path_factory.mktemp("paste")
    assert _verdicts(FORMS[form](KINDS[kind][0]), tmp) == _plain(kind, tmp)


NATIVE = [  # a C++ backtrace numbers its own frames, one a line
    "[TensorRT-LLM][ERROR] Assertion failed: too many draft tokens "
    "(/src/cpp/tensorrt_llm/layers/externalDraftTokensLayer.cpp:143)",
    "1       0x7fe1c1a0b5e2 tensorrt_llm::common::throwRuntimeError(char const*, int, "
    "std::string const&) + 102",
    "2       0x7fe1c1d7c3a4 tensorrt_llm::layers::ExternalDraftTokensLayer<half>::"
    "acceptDraftTokens(int) + 812",
    "3       0x7fe1c1d7e019 tensorrt_llm::layers::DynamicDecodeLayer<half>::forwardAsync(int) + 96",
]


@pytest.mark.parametrize("form", ["plain", "gutter_bar", "gutter_cat_n"])
def test_a_backtrace_that_numbers_its_frames_is_no_gutter(form: str, tmp_path: Path) -> None:
    """Numbers that count up with the lines but open no record keep their place; under a real
    gutter the backtrace's own numbers stay."""
    verdict = _verdicts(FORMS[form](NATIVE), tmp_path)[1][0]
    assert verdict[:2] == ("other", "ExternalDraftTokensLayer")


def test_only_an_escaped_string_that_opens_a_record_is_read_as_lines() -> None:
    """A collector's record of a whole log is split into its lines; a user asking about a
    traceback (a chat client's request log) keeps its line: the question is prose."""
    record = json.dumps({"log": _text(KINDS["sglang_v2_frame"][0]), "stream": "stderr"})
    assert split_flattened(record.encode())[1:] == [
        line.encode() for line in KINDS["sglang_v2_frame"][0]
    ]
    body = json.dumps({"role": "user", "content": "Why does it fail?\n" + _text(SG_CRASH)})
    asked = f"[2026-11-10 10:00:00] sending {body}".encode()
    assert split_flattened(asked) == [asked]


def test_an_entity_outside_the_escaped_set_stays_as_written(tmp_path: Path) -> None:
    lines = [line.replace('"', "&quot;") for line in SG_CRASH]
    lines[-1] += " (a &copy; sign, &lt without its semicolon)"
    (path,) = analyse([str(_write(tmp_path, _text(lines)))]).incidents
    assert path.message.endswith("(a &copy; sign, &lt without its semicolon)")
    assert path.worker_path is not None and path.worker_path.framework == "sglang"


def _write(tmp: Path, text: str) -> Path:
    path = tmp / "thread.log"
    path.write_text(text, encoding="utf-8", newline="")
    return path
