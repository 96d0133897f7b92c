"""Native (C/C++) aborts: each one crash incident with its native frames, its closing
``Aborted (core dumped)`` part of it, a frame run with no message line still a crash.
Lines written by us in the shapes glibc, gdb, c10, ggml and TensorRT-LLM print."""

from __future__ import annotations

from pathlib import Path

import pytest

from spectrace.assemblers.native import native_frames, parse_native_frame, thrower, thrown_in
from spectrace.pipeline import analyse

TLLM_FRAMES = [
    "1       0x7f3a10002000 tensorrt_llm::common::throwRuntimeError(char const*, int, std::string const&) + 90",
    "2       0x7f3a10003000 tensorrt_llm::layers::LookaheadDecodingLayer<half>::forwardAsync(std::shared_ptr<tensorrt_llm::layers::BaseDecodingOutputs> const&) + 2210",
    "3       0x7f3a10004000 tensorrt_llm::runtime::GptDecoderBatched::forwardAsync() + 61",
    "4       0x7f3a10005000 /opt/venv/lib/python3.10/site-packages/tensorrt_llm/libs/libtensorrt_llm.so(+0x9a1b2c) [0x7f3a10005000]",
]  # fmt: skip


def roots(tmp_path: Path, lines: list[str]) -> list:
    path = tmp_path / "native.log"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return [i for i in analyse([str(path)]).incidents if i.root_cause]


def test_glibc_assert_and_its_abort_are_one_crash(tmp_path: Path) -> None:
    (crash,) = roots(tmp_path, [
        "[2026-05-01 09:00:00 TP0] Decode batch. #running-req: 4, #token: 90, token usage: 0.01",
        "python3: /build/csrc/spec/tree_build.cu:212: void fill_tree(int*, int): Assertion `depth < max_depth' failed.",
        "Aborted (core dumped)",
    ])  # fmt: skip
    assert (crash.exception_type, crash.crash_class) == ("AssertionFailure", "native_assert")
    assert "Assertion `depth < max_depth' failed." in crash.message
    assert crash.lines[-1] == "Aborted (core dumped)"


def test_ggml_assert_keeps_its_glibc_backtrace(tmp_path: Path) -> None:
    (crash,) = roots(tmp_path, [
        "/work/ggml/src/ggml-cuda/mmq.cu:140: GGML_ASSERT(src0->ne[0] % 32 == 0) failed",
        "/opt/lib/libggml-base.so(+0x16a3c) [0x7fd0a0016a3c]",
        "/opt/lib/libggml-base.so(ggml_abort+0x15f) [0x7fd0a0016e0f]",
        "/opt/lib/libggml-cuda.so(+0x8f2d1) [0x7fd0a108f2d1]",
        "/opt/bin/llama-server(+0x4a1c0) [0x5600aa04a1c0]",
        "Aborted (core dumped)",
    ])  # fmt: skip
    assert crash.exception_type == "GGML_ASSERT"
    assert "src0->ne[0] % 32 == 0" in crash.message
    assert [(f.module.rsplit("/", 1)[-1], f.symbol) for f in crash.native_frames] == [
        ("libggml-base.so", ""), ("libggml-base.so", "ggml_abort"),
        ("libggml-cuda.so", ""), ("llama-server", ""),
    ]  # fmt: skip
    assert crash.native_frames[2].offset == "0x8f2d1"


def test_terminate_what_frames_and_abort_are_one_crash(tmp_path: Path) -> None:
    (crash,) = roots(tmp_path, [
        "terminate called after throwing an instance of 'tensorrt_llm::common::TllmException'",
        "  what():  [TensorRT-LLM][ERROR] Assertion failed: numTokens <= maxTokens (/src/lookahead.cpp:88)",
        *TLLM_FRAMES,
        "Aborted (core dumped)",
    ])  # fmt: skip
    assert crash.exception_type == "tensorrt_llm::common::TllmException"
    assert crash.message.startswith("[TensorRT-LLM][ERROR] Assertion failed: numTokens")
    symbols = [f.symbol for f in crash.native_frames]
    assert len(symbols) == 4 and "LookaheadDecodingLayer<half>::forwardAsync" in symbols[1]
    assert crash.native_frames[3].module.endswith("libtensorrt_llm.so")


def test_frames_without_their_message_line_are_still_a_crash(tmp_path: Path) -> None:
    (crash,) = roots(tmp_path, ["INFO 05-01 09:00:00 serving", *TLLM_FRAMES, "INFO 05-01 09:00:09 x"])
    assert crash.exception_type == "tensorrt_llm::common::TllmException"
    assert crash.message == (
        "native backtrace with no message line: thrown in "
        "tensorrt_llm::layers::LookaheadDecodingLayer<half>::forwardAsync"
    )
    assert crash.first_seen.lineno == 2 and len(crash.native_frames) == 4


def test_gdb_frames_through_torch_check_fail(tmp_path: Path) -> None:
    (crash,) = roots(tmp_path, [
        "#0  __pthread_kill_implementation (no_tid=0, signo=6, threadid=139) at ./nptl/pthread_kill.c:44",
        "#1  0x00007f11aa042476 in raise () from /lib/x86_64-linux-gnu/libc.so.6",
        "#2  0x00007f11aa0287f3 in abort () from /lib/x86_64-linux-gnu/libc.so.6",
        "#3  0x00007f11b0a1b2c3 in c10::detail::torchCheckFail(char const*, char const*, unsigned int, std::string const&) () from /venv/torch/lib/libc10.so",
        "#4  0x00007f11b2c3d4e5 in at::native::index_select_out_cuda(at::Tensor const&, long, at::Tensor const&, at::Tensor&) () from /venv/torch/lib/libtorch_cuda.so",
    ])  # fmt: skip
    assert crash.exception_type == "c10::Error"
    assert crash.message.endswith("thrown in at::native::index_select_out_cuda")
    assert crash.native_frames[0].location == "./nptl/pthread_kill.c:44"


def test_c10_frames_under_a_python_exception_stay_with_that_traceback(tmp_path: Path) -> None:
    (crash,) = roots(tmp_path, [
        "Traceback (most recent call last):",
        '  File "/srv/run.py", line 7, in <module>',
        "    step()",
        "RuntimeError: index out of range in self",
        "Exception raised from operator() at /pytorch/aten/src/ATen/native/Indexing.cu:1400 (most recent call first):",
        "frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x98 (0x7f0001000098 in /venv/torch/lib/libc10.so)",
        "frame #1: <unknown function> + 0x3a1b2c (0x7f00023a1b2c in /venv/torch/lib/libtorch_cuda.so)",
        "",
    ])  # fmt: skip
    assert (crash.kind, crash.exception_type) == ("traceback", "RuntimeError")
    assert [f.symbol for f in crash.native_frames] == [
        "c10::Error::Error(c10::SourceLocation, std::string)", ""
    ]


def test_the_same_headless_backtrace_on_eight_ranks_is_one_incident(tmp_path: Path) -> None:
    lines = [f"[rank{r}]: {text}" for r in range(8) for text in TLLM_FRAMES]
    (crash,) = roots(tmp_path, lines)
    assert sorted(crash.ranks) == [f"rank{r}" for r in range(8)]


@pytest.mark.parametrize(
    "text",
    ["#3 is the issue number", "1       step 0x10 done", "frame #2 of the video", "0x7f done"],
)
def test_text_that_only_looks_like_a_frame_is_not_one(text: str) -> None:
    assert parse_native_frame(text) is None


def test_a_sampled_stack_names_no_thrower() -> None:
    frames = native_frames([
        "#0  0x00007f00aa11bb22 in pthread_cond_wait () from /lib/libc.so.6",
        "#1  0x00007f00bb22cc33 in ncclProxyProgress () from /venv/nccl/lib/libnccl.so.2",
    ])  # fmt: skip
    assert len(frames) == 2 and thrower(frames) is None
    assert thrown_in(frames) is not None and thrown_in(frames).symbol == "pthread_cond_wait"


def test_watchdog_abort_its_terminate_and_python_abort_are_one_root(tmp_path: Path) -> None:
    c10 = [
        "Exception raised from c10_cuda_check_implementation at /pytorch/c10/cuda/CUDAException.cpp:43 (most recent call first):",
        "frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x96 (0x7f0001000096 in /venv/torch/lib/libc10.so)",
        "frame #1: c10d::ProcessGroupNCCL::WorkNCCL::finishedGPUExecutionInternal() const + 0x56 (0x7f0003000056 in /venv/torch/lib/libtorch_cuda.so)",
    ]  # fmt: skip
    message = "[PG 0 Rank 3] Process group watchdog thread terminated with exception: CUDA error: an illegal memory access was encountered"
    (crash,) = roots(tmp_path, [
        f"[rank3]:[E501 10:00:00.123456 ProcessGroupNCCL.cpp:1595] {message}",
        *(f"[rank3]:{line}" for line in c10),
        "terminate called after throwing an instance of 'c10::DistBackendError'",
        f"  what():  {message}", *c10,
        "Fatal Python error: Aborted", "",
        "Thread 0x00007f0000000001 (most recent call first):", "  <no Python frame>",
    ])  # fmt: skip
    assert crash.crash_class == "cuda_illegal_memory" and crash.ranks == ["rank3"]
    assert "c10d::ProcessGroupNCCL::WorkNCCL::finishedGPUExecutionInternal() const" in [
        f.symbol for f in crash.native_frames
    ]


def test_ggml_assert_with_gdbs_chatter_and_frames_is_one_crash(tmp_path: Path) -> None:
    (crash,) = roots(tmp_path, [
        "/work/ggml/src/ggml-cuda/ggml-cuda.cu:75: GGML_ASSERT(ne00 == ne10) failed",
        *(f"[New LWP {4101 + n}]" for n in range(6)),
        "[Thread debugging using libthread_db enabled]",
        'Using host libthread_db library "/lib/x86_64-linux-gnu/libthread_db.so.1".',
        "0x00007f00aa0ea42f in __GI___wait4 (pid=4110, options=0) at ../sysdeps/unix/sysv/linux/wait4.c:30",
        "30\t../sysdeps/unix/sysv/linux/wait4.c: No such file or directory.",
        "#0  0x00007f00aa0ea42f in __GI___wait4 (pid=4110, options=0) at ../sysdeps/unix/sysv/linux/wait4.c:30",
        "#1  0x00007f00ab11c3e4 in ggml_abort () from /opt/lib/libggml-base.so",
        "#2  0x00007f00ac22d4f5 in ggml_cuda_mul_mat(ggml_tensor const*) () from /opt/lib/libggml-cuda.so",
        "[Inferior 1 (process 4100) detached]",
        "Aborted (core dumped)",
    ])  # fmt: skip
    assert crash.exception_type == "GGML_ASSERT"
    assert [f.index for f in crash.native_frames] == [0, 1, 2]
    assert crash.native_frames[2].module == "/opt/lib/libggml-cuda.so"
