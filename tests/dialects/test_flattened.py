"""A vLLM log pasted without its newlines (every record on one line, as issue text outside a
code block shows it) is split back at its headers; other lines are left alone. Lines written
by us in vLLM's formats."""

from __future__ import annotations

import json
from pathlib import Path

from spectrace.dialects.flattened import split_flattened
from spectrace.pipeline import analyse

EC = "(EngineCore_DP0 pid=142) ERROR 11-04 18:03:00 [core.py:708] "
RECORD = [
    EC + "EngineCore failed to start.",
    EC + "Traceback (most recent call last):",
    EC + 'File "/x/vllm/distributed/device_communicators/pynccl.py", line 99, in **init**',
    EC + "self.comm: ncclComm_t = self.nccl.ncclCommInitRank(",
    EC + "RuntimeError: NCCL error: unhandled cuda error (run with NCCL_DEBUG=INFO for details)",
]


def test_a_flattened_record_splits_at_each_header_and_keeps_its_tags() -> None:
    parts = split_flattened(" ".join(RECORD).encode())
    assert parts == [line.encode() for line in RECORD]


def test_v0_headers_without_tags_or_brackets_split_too() -> None:
    v0 = "ERROR 02-10 15:10:20 serving_chat.py:193] "
    lines = [v0 + "Error in preprocessing prompt inputs", v0 + "Traceback (most recent call last):"]
    lines.append(v0 + 'File "/x/vllm/entrypoints/openai/serving_chat.py", line 177, in create')
    assert split_flattened(" ".join(lines).encode()) == [line.encode() for line in lines]


def test_ordinary_lines_and_one_quoted_header_stay_whole() -> None:
    for line in (
        RECORD[4],
        EC + "Retrying after: INFO 11-04 18:02:59 [core.py:1] was the last line we saw from it",
        "x" * 300,
    ):
        assert split_flattened(line.encode()) == [line.encode()]


def test_the_flattened_crash_is_found_whole(tmp_path: Path) -> None:
    path = tmp_path / "issue.txt"
    path.write_text("The server died:\n" + " ".join(RECORD) + "\nAny idea?\n")
    (incident,) = analyse([str(path)]).incidents
    assert (incident.exception_type, incident.crash_class, incident.origin_rank) == (
        "RuntimeError",
        "nccl_error",
        "EngineCore_DP0",
    )
    assert incident.header == "EngineCore failed to start."
    assert [f.function for f in incident.frames] == ["**init**"]


API = "(APIServer pid=4242) "
RAW = [  # vLLM's raw traceback lines: the process tag and no level or stamp
    API + '  File "/x/vllm/config/speculative.py", line 380, in __post_init__',
    API + "    raise NotImplementedError(",
    API + "NotImplementedError: Speculative decoding with a draft model is not supported yet.",
]


def test_a_flattened_raw_traceback_splits_at_its_repeated_process_tag(tmp_path: Path) -> None:
    assert split_flattened(" ".join(RAW).encode()) == [line.encode() for line in RAW]
    path = tmp_path / "issue.txt"
    path.write_text("the result is :\n" + " ".join(RAW) + "\nmy vllm version is 0.13.0\n")
    (incident,) = analyse([str(path)]).incidents
    assert (incident.exception_type, incident.root_cause) == ("NotImplementedError", True)
    assert [f.function for f in incident.frames] == ["__post_init__"]


def test_other_processes_named_in_a_tagged_line_do_not_split_it() -> None:
    line = API + "waiting for (Worker_TP0 pid=7) and (Worker_TP1 pid=8) to report their memory"
    assert split_flattened(line.encode()) == [line.encode()]


TB = 'Traceback (most recent call last):\n  File "/srv/app/step.py", line 12, in run\n    step()\nRuntimeError: boom\n'


def test_a_traceback_inside_an_escaped_error_body_is_found(tmp_path: Path) -> None:
    once = json.dumps({"detail": TB})
    for body in (once, json.dumps(once)):  # escaped once, and again by a second JSON layer
        path = tmp_path / "client.log"
        path.write_text(f"[2026-01-01 10:00:00] request failed: {body}\n", encoding="utf-8")
        (incident,) = analyse([str(path)]).incidents
        assert (incident.exception_type, incident.message) == ("RuntimeError", "boom")
        assert [f.function for f in incident.frames] == ["run"]


def test_an_escaped_traceback_without_frames_stays_one_line() -> None:
    line = ("x" * 100 + ' said "Traceback (most recent call last):\\n" is printed first').encode()
    assert split_flattened(line) == [line]


def test_a_traceback_in_an_echoed_prompt_is_no_crash(tmp_path: Path) -> None:
    """--log-requests echoes prompts; a user asking about a traceback quotes one that never ran
    here (vLLM's 'Received request', SGLang's GenerateReqInput), escaped once or not at all."""
    quoted = json.dumps(TB)[1:-1]
    path = tmp_path / "server.log"
    path.write_text(
        f"INFO 01-01 10:00:00 [logger.py:39] Received request cmpl-7: prompt: 'why? {quoted}', "
        "params: SamplingParams(n=1)\n"
        f"[2026-01-01 10:00:01] Receive: obj=GenerateReqInput(rid='a1', text='why? {quoted}')\n",
        encoding="utf-8",
    )
    assert analyse([str(path)]).incidents == []


def test_a_traceback_quoted_after_other_text_in_an_escaped_string_is_no_crash(tmp_path: Path) -> None:
    body = json.dumps({"role": "user", "content": "Why does this fail?\n" + TB})
    path = tmp_path / "client.log"
    path.write_text(f"[2026-01-01 10:00:00] sending {body}\n", encoding="utf-8")
    assert not analyse([str(path)]).incidents


def test_a_flattened_exception_ends_at_the_code_fence_after_it(tmp_path: Path) -> None:
    """A bug page flattened to one line: the exception's message stops where the paste's fence
    closes, and the prose after it (the next heading, a second paste) is no part of it."""
    site = "/opt/env/lib/python3.12/site-packages/vllm"
    line = (
        "### Describe the bug Loading the draft by folder name fails: ``` "
        f'File "{site}/model_executor/models/utils.py", line 235, in load_weights '
        "loaded = set(self._load_module(weights)) "
        f'File "{site}/model_executor/models/qwen2.py", line 412, in load_weights '
        "param = params_dict[name] KeyError: 'embed_tokens.qweight_type' ``` "
        "### PS: with a plain model name it still fails: ``` File ..."
    )
    path = tmp_path / "page.txt"
    path.write_text(line + "\n")
    (incident,) = analyse([str(path)]).incidents
    assert incident.exception_type == "KeyError"
    assert incident.message == "'embed_tokens.qweight_type'"
    assert [f.function for f in incident.frames] == ["load_weights", "load_weights"]
