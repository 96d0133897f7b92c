"""Frames and log lines as other texts copy them (issue 11: the exact-string file search brings
notes, wikis, agent transcripts and terminal copies): a terminal's fixed-width wrap
(dialects/termwrap.py), frames quoted inside one prose line (dialects/flattened.py), paths
escaped for Markdown (dialects/paste.py); and the near misses that must stay as they were: a
table or a listing at a fixed width, a path in prose with no line, a diff header, a log's own
frame line behind its header. Every line is ours, in the frameworks' formats.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from real_logs_helpers import PROBE, roots, run

from spectrace.dialects.flattened import split_flattened
from spectrace.dialects.paste import unpaste
from spectrace.dialects.termwrap import Wrap, wrap_of

SITE = "/opt/conda/lib/python3.10/site-packages"
SG_PREFIX = "2026-04-03 14:57:25.716 ERROR 496007 [ TP4 scheduler.py:3475] "
VL_PREFIX = "(EngineCore_DP0 pid=812) ERROR 09-14 03:12:44 [core.py:710] "


def _tb(*frames: tuple[str, int, str, str], error: str) -> list[str]:
    out = ["Traceback (most recent call last):"]
    for file, line, func, code in frames:
        out += [f'  File "{file}", line {line}, in {func}', f"    {code}"]
    return [*out, error]


SG_TB = _tb((f"{SITE}/sglang/srt/managers/scheduler.py", 2568, "run_batch",
             "batch_result = self.model_worker.forward_batch_generation("),
            (f"{SITE}/sglang/srt/speculative/eagle_worker_v2.py", 736, "forward_batch_generation",
             "self.draft_worker._draft_extend_for_decode("),
            error="TypeError: 'NoneType' object is not subscriptable")  # fmt: skip
VL_TB = _tb((f"{SITE}/vllm/v1/engine/core.py", 352, "step_with_batch_queue",
             "model_output = self.execute_model_with_error_logging("),
            (f"{SITE}/vllm/v1/spec_decode/eagle.py", 245, "propose",
             "draft_token_ids = self.model(input_ids=input_ids)"),
            error="RuntimeError: CUDA error: an illegal memory access was encountered")  # fmt: skip
MRV2_TB = _tb((f"{SITE}/vllm/v1/worker/gpu/model_runner.py", 901, "execute_model",
               "self.speculator.propose(input_batch)"),
              (f"{SITE}/vllm/v1/worker/gpu/spec_decode/eagle/speculator.py", 178, "capture_model",
               "self.cudagraph_manager.capture()"),
              error="AttributeError: 'FlashAttentionMetadata' object has no attribute 'block_tables'")  # fmt: skip
TRT_TB = _tb((f"{SITE}/tensorrt_llm/_torch/pyexecutor/py_executor.py", 1420, "_executor_loop",
              "batch_outputs = self._forward_step(scheduled_batch)"),
             (f"{SITE}/tensorrt_llm/_torch/speculative/model_drafter.py", 388, "prepare_draft_tokens",
              "draft_batch = self._prepare_draft_batch(scheduled_requests)"),
             error="RuntimeError: CUDA error: an illegal memory access was encountered")  # fmt: skip


def _word_wrap(lines: list[str], width: int, prefix: str = "", last_blank: bool = False) -> list[str]:
    """A coding agent's terminal: words that do not fit move down, longer ones are cut; every
    row padded to the width (``last_blank``: the last column always stays blank)."""
    room = width - 1 if last_blank else width
    return [row.ljust(width) for line in lines
            for row in textwrap.wrap(prefix + line, room, break_on_hyphens=False) or [""]]  # fmt: skip


def _fold(lines: list[str], width: int, prefix: str = "") -> list[str]:
    """``fold -w``: every line cut at the width wherever it falls."""
    return [(prefix + line)[i : i + width] for line in lines
            for i in range(0, max(len(prefix + line), 1), width)]  # fmt: skip


def _decided(tmp_path: Path, lines: list[str]) -> tuple[str, str | None]:
    """The first root-cause crash's value and class; a condition holding a class (a file whose
    class changed by release, no release stated) as ("cond", its text)."""
    (crash, *_) = roots(run(tmp_path, lines))
    path = crash.worker_path
    assert path is not None
    if path.value == "unknown" and path.conditional:
        return "cond", path.conditional
    return path.value, path.worker_class


def _holds(got: tuple[str, str | None], decided: tuple[str, str]) -> bool:
    if got[0] == "cond":
        return got[1] is not None and decided[1] in got[1]
    return got[1] == decided[1] and (decided[0] == "other" or got[0] == decided[0])


# --- a terminal's fixed-width wrap -------------------------------------------------------


@pytest.mark.parametrize(("tb", "prefix", "decided"), [
    (SG_TB, SG_PREFIX, ("v2", "EAGLEWorkerV2")),
    (VL_TB, VL_PREFIX, ("v1", "EagleProposer")),
    (MRV2_TB, VL_PREFIX, ("other", "EagleSpeculator")),
    (TRT_TB, "[12/01/2026-10:00:00] [TRT-LLM] [E] ", ("other", "ModelDrafter")),
])  # fmt: skip
@pytest.mark.parametrize("copy", ["word80", "word80_last_blank", "word100", "fold80", "word60"])
def test_a_terminal_wrapped_crash_reads_its_frames(
    tb: list[str], prefix: str, decided: tuple[str, str], copy: str, tmp_path: Path
) -> None:
    """Pieces of one log line joined back: the prefix on the first piece only, a frame's path
    cut inside (``File "/opt/cond`` / ``a/lib/...``), the function on a row of its own."""
    width = int(copy[4:].split("_")[0])
    for head in ("", prefix):
        lines = (_fold(tb, width, head) if copy.startswith("fold")
                 else _word_wrap(tb, width, head, last_blank=copy.endswith("blank")))  # fmt: skip
        assert _holds(_decided(tmp_path, lines), decided), (head, _decided(tmp_path, lines))


def test_a_wrapped_launch_command_reads_its_algorithm(tmp_path: Path) -> None:
    """A command the terminal wrapped: its options go on across rows (``--speculative-`` rows
    open with ``--``, a record opening only where the row above ended the line)."""
    launch = ("SGLANG_ENABLE_SPEC_V2=1 python -m sglang.launch_server --model-path "
              "/models/target-fp8-with-mtp-layers --tp-size 8 --mem-fraction-static 0.9 "
              "--speculative-algorithm NEXTN --speculative-num-steps 3 --speculative-eagle-topk 1")  # fmt: skip
    crash = _tb((f"{SITE}/sglang/srt/managers/scheduler.py", 2568, "run_batch", "x = self.step()"),
                error="RuntimeError: CUDA error: an illegal memory access was encountered")  # fmt: skip
    lines = _word_wrap([launch, *crash], 80)
    path = roots(run(tmp_path, lines))[0].worker_path
    assert path is not None and "NEXTN" in str(path.evidence), path


def _joined(rows: list[str]) -> list[bytes]:
    buf = "\n".join(rows).encode()
    wrap = wrap_of(buf, 0, len(buf))
    out, pos = [], 0
    while pos <= len(buf):
        nl = buf.find(b"\n", pos)
        stop = nl if nl >= 0 else len(buf)
        raw = buf[pos:stop]
        if wrap is not None and wrap.full(raw):
            raw, stop = wrap.join(buf, raw, stop, len(buf))
        out.append(raw)
        pos = stop + 1
    return out


def test_the_pieces_come_back_as_written() -> None:
    line = f'  File "{SITE}/sglang/srt/speculative/eagle_worker_v2.py", line 736, in forward_batch_generation'
    for rows in (_word_wrap([line] * 3, 80, SG_PREFIX, last_blank=True), _fold([line] * 3, 80, SG_PREFIX)):
        assert _joined(rows) == [(SG_PREFIX + line).encode()] * 3


@pytest.mark.parametrize("rows", [
    # a table a tool prints at a fixed width: rows that open alike, none goes on
    ["+" + "-" * 78 + "+", *(f"| GPU {i}  NVIDIA H100 80GB HBM3   On  | 00000000:{i}A:00.0 Off |      0 |".ljust(79) + "|"
                            for i in range(6)), "+" + "-" * 78 + "+"],
    # the same table drawn with box characters (nvitop, rich): full in cells, not in bytes
    ["┌" + "─" * 78 + "┐", *(f"│ GPU {i}  NVIDIA H100 80GB HBM3   On  │ 00000000:{i}A:00.0 Off │      0 │".ljust(79) + "│"
                            for i in range(6)), "└" + "─" * 78 + "┘", "KVArenaFull: the arena cannot grow past 2 blocks"],
    # padded rows whose next word would have fitted: each row is a line of its own
    [w.ljust(80) for w in ("The draft model loads fine on its own and the target too.",
                           "then the server starts and the first request arrives.",
                           "after that every request fails with the same message.",
                           "so the problem is in the speculative path, not the model.",
                           "we tried the older release as well and it fails there.")],
    # an indented row under a full one (a code line, a frame's code) opens a line of its own
    [("x" * 40 + " " + "y" * 38).ljust(80), "    out = self.run(batch)".ljust(80),
     ("z" * 40 + " " + "w" * 38).ljust(80), "    return forward_call(*args)".ljust(80),
     ("q" * 40 + " " + "r" * 38).ljust(80), "  File".ljust(80)],
])  # fmt: skip
def test_rows_that_are_lines_of_their_own_stay(rows: list[str]) -> None:
    assert [r.decode() for r in _joined(rows)] == rows


def test_a_text_with_no_one_width_is_no_terminal_copy() -> None:
    text = "\n".join(["short line", "a" * 90, "b" * 45, "c" * 120, "d" * 61, "e" * 77]).encode()
    assert wrap_of(text, 0, len(text)) is None
    row = b"a" * 40 + b" " * 40  # padded; the next row's word would have fitted after it
    assert Wrap(80, True).join(row + b"\nbb", row, 80, 83) == (row, 80)


def _cell_rows(lines: list[str], width: int) -> list[str]:
    """A terminal's rows of ``width`` cells: a wide (CJK) character takes two, one that no
    longer fits moves to the next row; every row padded with blanks to the width."""
    from rich.cells import cell_len

    rows: list[str] = []
    for line in lines:
        row = ""
        for ch in line:
            if cell_len(row + ch) > width:
                rows.append(row + " " * (width - cell_len(row)))
                row = ""
            row += ch
        rows.append(row + " " * (width - cell_len(row)))
    return rows


HOME = "/home/张伟/服务/venv/lib/python3.10/site-packages"


@pytest.mark.parametrize("width", [80, 100])
def test_a_terminal_copy_with_cjk_text_joins_by_cells(width: int, tmp_path: Path) -> None:
    """Rows holding CJK characters fill the terminal's width in cells, not in bytes: a frame
    whose path has a Chinese directory, cut inside, is joined back and read (session 22)."""
    notes = ["我们在两台机器上启动服务，第一批请求进来之后调度进程就崩溃了，下面是完整的报错信息，请帮忙看看原因是什么。"]
    tb = _tb((f"{HOME}/sglang/srt/managers/scheduler.py", 2568, "run_batch",
              "batch_result = self.model_worker.forward_batch_generation("),
             (f"{HOME}/sglang/srt/speculative/eagle_worker_v2.py", 736, "forward_batch_generation",
              "self.draft_worker._draft_extend_for_decode("),
             error="TypeError: 'NoneType' object is not subscriptable")  # fmt: skip
    rows = _cell_rows(notes + [SG_PREFIX + line for line in tb], width)
    assert any(len(r.encode()) != width for r in rows if not r.isascii())  # bytes are not cells
    assert _holds(_decided(tmp_path, rows), ("v2", "EAGLEWorkerV2")), _decided(tmp_path, rows)
    frame = f'  File "{HOME}/sglang/srt/speculative/eagle_worker_v2.py", line 736, in forward_batch_generation'
    assert (SG_PREFIX + frame).encode() in [j.rstrip() for j in _joined(rows)]


# --- frames quoted inside one prose line -------------------------------------------------


@pytest.mark.parametrize(("line", "decided"), [
    (f"- [Scheduler lifecycle](../patterns/sched.md) - score 3: re_model() File \"{SITE}/vllm/v1/worker/gpu/"
     "spec_decode/eagle/speculator.py\", line 178, in capture_model self.cudagraph_manager.capture() ··· "
     "File \"/x/vllm/v1/worker/gpu/cudagraph_utils.py\", line 91, in capture ...", ("other", "EagleSpeculator")),
    (f"总结：崩溃发生在 File \"{SITE}/sglang/srt/speculative/eagle_worker_v2.py\", line 736, in "
     "forward_batch_generation self.draft_worker._draft_extend_for_decode( 之后进程退出。", ("v2", "EAGLEWorkerV2")),
    (f"The worker died at File \"{SITE}/tensorrt_llm/_torch/speculative/model_drafter.py\", line 388, in "
     "prepare_draft_tokens and every rank stopped with RuntimeError: CUDA error: an illegal memory access.",
     ("other", "ModelDrafter")),
    (f"Summary: File \"{SITE}/vllm/v1/spec_decode/eagle.py\", line 245, in propose draft_token_ids = "
     "self.model(input_ids=input_ids) -> RuntimeError: CUDA error: an illegal memory access was encountered",
     ("v1", "EagleProposer")),
])  # fmt: skip
def test_a_frame_quoted_mid_sentence_is_read(line: str, decided: tuple[str, str], tmp_path: Path) -> None:
    assert _holds(_decided(tmp_path, ["Notes on the failure", "", line, *PROBE]), decided)


@pytest.mark.parametrize("line", [
    VL_PREFIX + f'  File "{SITE}/vllm/v1/spec_decode/eagle.py", line 245, in propose',
    SG_PREFIX + f'  File "{SITE}/sglang/srt/speculative/eagle_worker_v2.py", line 736, in forward_batch_generation',
    f'(EngineCore pid=1)   File "{SITE}/vllm/v1/spec_decode/eagle.py", line 245, in propose [repeated 3x across cluster]',
    "The proposer lives in vllm/v1/spec_decode/eagle.py and the runner calls it once per step of the decode loop.",
    "diff --git a/vllm/v1/spec_decode/eagle.py b/vllm/v1/spec_decode/eagle.py index 3f2a1b0..9c8d7e6 100644 mode",
    f"If it crashes again, look for a line like File \"{SITE}/vllm/v1/spec_decode/eagle.py\", line 245, in propose",
])  # fmt: skip
def test_a_line_that_quotes_no_frames_in_prose_stays_whole(line: str) -> None:
    """A log's frame line behind its header, rank or service tag ends at its function (or a
    bracketed tag); a path with no line, a diff header, a frame the sentence ends with stay."""
    assert split_flattened(line.encode()) == [line.encode()]


@pytest.mark.parametrize("lines", [
    ["The proposer lives in vllm/v1/spec_decode/eagle.py; see also sglang/srt/speculative/eagle_worker_v2.py."],
    ["$ ls -la vllm/v1/spec_decode/", "-rw-r--r-- 1 dev dev 31245 Dec  1 10:00 eagle.py",
     "-rw-r--r-- 1 dev dev  4410 Dec  1 10:00 ngram_proposer.py"],
    ["diff --git a/vllm/v1/spec_decode/eagle.py b/vllm/v1/spec_decode/eagle.py",
     "--- a/vllm/v1/spec_decode/eagle.py", "+++ b/vllm/v1/spec_decode/eagle.py",
     "@@ -245,7 +245,8 @@ class EagleProposer:", "-        draft_token_ids = self.model(input_ids)",
     "+        draft_token_ids = self.model(input_ids=input_ids)"],
])  # fmt: skip
def test_a_path_with_no_frame_shape_reads_no_frame(lines: list[str], tmp_path: Path) -> None:
    """The probe's crash is the only one, and no frame of the file is read."""
    found = roots(run(tmp_path, [*lines, *PROBE]))
    assert len(found) == 1 and all("spec_decode" not in f.file for f in found[0].frames)


# --- paths escaped for Markdown ----------------------------------------------------------


@pytest.mark.parametrize(("text", "plain"), [
    ('  File "/x/vllm/v1/spec\\_decode/eagle.py", line 245, in propose', '  File "/x/vllm/v1/spec_decode/eagle.py", line 245, in propose'),
    ("    return forward\\_call(\\*args, \\*\\*kwargs)", "    return forward_call(*args, **kwargs)"),
    ("  File \"/x/sglang/srt/speculative/eagle\\_worker\\_v2.py\", line 736, in \\_draft\\_extend",
     "  File \"/x/sglang/srt/speculative/eagle_worker_v2.py\", line 736, in _draft_extend"),
])  # fmt: skip
def test_a_markdown_escaped_line_reads_as_written(text: str, plain: str) -> None:
    assert unpaste(text) == plain


def test_a_markdown_export_s_crash_decides(tmp_path: Path) -> None:
    lines = [line.replace("_", "\\_") for line in VL_TB]
    assert _holds(_decided(tmp_path, lines), ("v1", "EagleProposer"))


# --- a frame whose <module> a page took for an HTML tag -----------------------------------


_IMPORTS = [("vllm/v1/worker/gpu_model_runner.py", 64, "from vllm.v1.spec_decode.eagle import EagleProposer"),
            ("vllm/v1/spec_decode/eagle.py", 17, "from vllm.v1.attention.backends.flash_attn import FlashAttentionMetadata"),
            ("vllm/v1/attention/backends/flash_attn.py", 145, "class FlashAttentionMetadataBuilder(")]  # fmt: skip


@pytest.mark.parametrize("form", ["lines", "one line", "one line in prose"])
def test_an_import_chain_whose_module_name_a_page_ate_names_no_class(form: str, tmp_path: Path) -> None:
    """``line 17, in from vllm... import X``: no function is named for a keyword; the frame was
    ``<module>`` (an import), which says nothing of a run, as a whole ``<module>`` frame never did."""
    frames = [(f'  File "/home/dev/vllm-source/{f}", line {n}, in ', f"    {code}") for f, n, code in _IMPORTS]
    error = "ImportError: cannot import name 'get_flash_attn_version'"
    if form == "lines":
        lines = ["Traceback (most recent call last):", *(x for pair in frames for x in pair), error]
    else:
        flat = " ".join(f"{a.strip()} {b.strip()}" for a, b in frames) + " " + error
        lines = [("The lm_eval run fails at import: " if form.endswith("prose") else
                  "Traceback (most recent call last): ") + flat]  # fmt: skip
    found = roots(run(tmp_path, [*lines, *PROBE]))
    assert all(c.worker_path is not None and c.worker_path.value == "unknown"
               and not c.worker_path.conditional for c in found), [c.worker_path for c in found]  # fmt: skip
    assert any(f.function == "<module>" and f.file.endswith("spec_decode/eagle.py")
               for c in found for f in c.frames)  # fmt: skip


def test_a_frame_named_for_a_function_keeps_it(tmp_path: Path) -> None:
    (crash,) = roots(run(tmp_path, VL_TB))
    assert [f.function for f in crash.frames][-1] == "propose"
