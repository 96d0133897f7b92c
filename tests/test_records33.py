"""Run notes and records that quote the engine without a launch line (session 33, RECORDS33).

- A note retells its crash as compact frames, ``File "<path>:<line>  <func>`` (the path and its
  line joined by a colon, the quote never closed), a path often cut to ``.../srt/``: each is a
  frame of the traceback, and SGLang's runtime folder names the framework. A crash through
  SGLang's speculative files in a text no block of which is set apart is the note's run for the
  era join; a troubleshooting page's stack is none.
"""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import assert_no_path, assert_verdict, crash_path, run

from spectrace.assemblers.traceback_record import FRAME, frame_of

# --- compact frames retold in a note -----------------------------------------------------------


def test_a_compact_frame_is_read_as_a_frame() -> None:
    m = FRAME.match('File ".../srt/models/dspark.py:233  write_draft_kv')
    assert m is not None
    frame = frame_of(m)
    assert (frame.file, frame.line, frame.function) == (".../srt/models/dspark.py", 233, "write_draft_kv")
    whole = FRAME.match('  File "/opt/app/x.py", line 12, in main')  # the usual frame, unchanged
    assert whole is not None and frame_of(whole).line == 12 and whole["cline"] is None
    assert FRAME.match('File "notes.md:12 is where it says so"') is None  # no .py: no frame


_NOTE = ["# fp8 KV for the block-drafter draft: notes", "", "## Status", "",
         "Boot reaches ready on both boxes (TP2). The first request dies in the DSpark injector:", "",
         "```",
         'File ".../srt/speculative/dspark_components/dspark_kv_inject.py:71  inject_target_hidden',
         'File ".../srt/models/dspark.py:233  write_draft_kv',
         "ValueError: cache dtype float8_e4m3fn does not match value dtype bfloat16",
         "```", "", "## Next", "",
         "Cast the hidden states before the KV write."]


def test_a_notes_compact_frames_through_sglangs_dspark_files_give_its_worker(tmp_path: Path) -> None:
    path = crash_path(run(tmp_path, _NOTE, name="notes.md"))
    assert_verdict(path, "v2", "DSparkWorkerV2")
    assert any("dspark_kv_inject.py" in e.text for e in path.evidence), path.evidence


def test_compact_frames_a_troubleshooting_page_lists_are_no_run(tmp_path: Path) -> None:
    assert_no_path(tmp_path, ["# DSpark troubleshooting", "",
                              "| Symptom | Fix |", "|---|---|",
                              "| `ValueError: cache dtype ... does not match` on the first request | cast the hidden states |", "",
                              "If you see this stack, set the draft KV dtype to the target's:", "",
                              "```",
                              'File ".../srt/speculative/dspark_components/dspark_kv_inject.py:71  inject_target_hidden',
                              'File ".../srt/models/dspark.py:233  write_draft_kv',
                              "ValueError: cache dtype float8_e4m3fn does not match value dtype bfloat16",
                              "```"], name="troubleshooting.md")
