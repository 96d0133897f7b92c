"""The triage and diff commands as a user runs them: options, files written, exit codes."""

from __future__ import annotations

import gzip
import io
import json
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import typer
from rich.console import Console
from synthetic import MISSING_MARKER, WORKFLOW_COMMAND, seed_analysis
from typer.testing import CliRunner

from spectrace import inputs, pipeline
from spectrace.commands import register_all
from spectrace.commands.triage import DelayedProgress

ROOT = Path(__file__).resolve().parents[1]
REPORT_SCHEMA = json.loads((ROOT / "spectrace/schemas/report.schema.json").read_text())


def spectrace_exe() -> str:
    found = shutil.which("spectrace") or str(Path(sys.executable).with_name("spectrace"))
    assert Path(found).exists(), "the spectrace console script is not installed"
    return found


def run(*args: str, stdin: str | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [spectrace_exe(), *args], capture_output=True, text=True, input=stdin, cwd=cwd, timeout=120
    )


@pytest.fixture
def app() -> typer.Typer:
    app = typer.Typer()
    register_all(app, ())
    return app


@pytest.fixture
def fake_pipeline(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> dict[str, Any]:
    """analyse() replaced by the synthetic seed story; records what it was called with."""
    calls: dict[str, Any] = {}

    def analyse(
        inputs: list[str], rules: Any = None, expect: Any = (), on_progress: Any = None,
        mapper: Any = None, explain: bool = False,
    ) -> Any:
        calls.update(inputs=inputs, rules=rules, expect=list(expect), mapper=mapper)
        return seed_analysis((MISSING_MARKER,) if calls.get("markers") else ())

    monkeypatch.setattr(pipeline, "analyse", analyse, raising=False)
    (tmp_path / "server.log").write_text("[2026-02-27 21:00:18 TP7] hello\n")
    return calls


def invoke(app: typer.Typer, tmp_path: Path, *args: str) -> Any:
    return CliRunner().invoke(
        app, ["triage", str(tmp_path / "server.log"), *args], catch_exceptions=False
    )


def test_text_report_and_exit_code_1(
    app: typer.Typer, fake_pipeline: dict[str, Any], tmp_path: Path
) -> None:
    result = invoke(app, tmp_path, "--expect", "Dynamic speculation disable enabled")
    assert result.exit_code == 1
    assert "origin TP7 (also TP2)" in result.output and "\x1b[" not in result.output
    assert (
        result.output.rstrip()
        .splitlines()[-1]
        .startswith("spectrace: FAIL: 1 new root-cause incident")
    )
    assert fake_pipeline["expect"] == ["Dynamic speculation disable enabled"]


def test_json_to_file_several_reports_and_summary_on_stdout(
    app: typer.Typer, fake_pipeline: dict[str, Any], tmp_path: Path
) -> None:
    out, sarif, junit = tmp_path / "r.json", tmp_path / "r.sarif", tmp_path / "r.xml"
    result = invoke(
        app,
        tmp_path,
        "--format",
        "json",
        "--output",
        str(out),
        "--report",
        f"sarif={sarif}",
        "--report",
        f"junit={junit}",
    )
    assert result.exit_code == 1
    assert json.loads(out.read_text())["summary"]["exit_code"] == 1
    assert json.loads(sarif.read_text())["version"] == "2.1.0"
    assert ET.parse(junit).getroot().tag == "testsuites"
    assert result.output.startswith("spectrace: FAIL") and len(result.output.splitlines()) == 1


def test_github_format_on_stdout(
    app: typer.Typer, fake_pipeline: dict[str, Any], tmp_path: Path
) -> None:
    result = invoke(app, tmp_path, "--format", "github")
    assert result.output.startswith("::error file=server.log,line=800,title=I1 RuntimeError::")


def test_baseline_round_trip_turns_the_run_green(
    app: typer.Typer, fake_pipeline: dict[str, Any], tmp_path: Path
) -> None:
    baseline = tmp_path / "baseline.json"
    assert invoke(app, tmp_path, "--write-baseline", str(baseline)).exit_code == 1
    result = invoke(app, tmp_path, "--baseline", str(baseline))
    assert (
        result.exit_code == 0
        and "OK: no new root-cause incident" in result.output
        and "[known" in result.output
    )


def test_fail_on_and_redaction_switches(
    app: typer.Typer, fake_pipeline: dict[str, Any], tmp_path: Path
) -> None:
    fake_pipeline["markers"] = True
    assert (
        invoke(app, tmp_path, "--baseline", str(_accept_all(tmp_path))).exit_code == 1
    )  # missing marker
    assert (
        invoke(
            app, tmp_path, "--baseline", str(_accept_all(tmp_path)), "--fail-on", "root-cause"
        ).exit_code
        == 0
    )
    assert "sk-secretsecret123" not in invoke(app, tmp_path, "-f", "json").output
    assert "sk-secretsecret123" in invoke(app, tmp_path, "-f", "json", "--no-redact").output


def _accept_all(tmp_path: Path) -> Path:
    path = tmp_path / "all.txt"
    path.write_text("\n".join(i.signature for i in seed_analysis().incidents) + "\n")
    return path


def test_diff_of_two_json_reports(
    app: typer.Typer, fake_pipeline: dict[str, Any], tmp_path: Path
) -> None:
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    invoke(app, tmp_path, "-f", "json", "-o", str(new))
    doc = json.loads(new.read_text())
    doc["incidents"] = doc["incidents"][1:]
    old.write_text(json.dumps(doc))
    runner = CliRunner()
    result = runner.invoke(
        app, ["diff", str(old), str(new), "--format", "json"], catch_exceptions=False
    )
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert data["summary"] == {"new": 1, "gone": 0, "still": 1, "exit_code": 1}
    assert data["new_incidents"][0]["exception_type"] == "RuntimeError"
    back = runner.invoke(app, ["diff", str(new), str(old)], catch_exceptions=False)
    assert back.exit_code == 0 and "gone (1)" in back.output and "- I1 RuntimeError" in back.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["triage", "no/such/file.log"], "no/such/file.log: no such file"),
        (["triage", "tests/synthetic.py", "--format", "yaml"], "unknown format 'yaml'"),
        (
            ["triage", "tests/synthetic.py", "--fail-on", "often"],
            "--fail-on: unknown value 'often'",
        ),
        (["triage", "tests/synthetic.py", "--report", "sarif"], "--report needs FORMAT=FILE"),
        (["triage", "'no/*.log'"], "no file matches"),
        (
            ["triage", "tests/synthetic.py", "--baseline", "tests/synthetic.py"],
            "malformed baseline line",
        ),
        (["diff", "a.json", "b.json", "--format", "sarif"], "diff --format takes text or json"),
        (
            ["triage", "x.log", "-f", "json", "-o", "r.json", "-f", "github"],
            "--format given 2 times; write more reports with --report",
        ),
    ],
)
def test_bad_usage_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    result = run(*[a.strip("'") for a in args])
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    assert (
        result.stderr.count("\n") == 1
        and message in result.stderr
        and "Traceback" not in result.stderr
    )


def test_empty_directory_is_exit_2(tmp_path: Path) -> None:
    result = run("triage", str(tmp_path))
    assert (
        result.returncode == 2
        and "no log files" in result.stderr
        and "Traceback" not in result.stderr
    )


SAMPLES = sorted(p.parent for p in (ROOT / "sample_logs").glob("*/expected.json"))


def test_seed_story_through_the_installed_command() -> None:
    result = run(
        "triage", "sample_logs/seed_story/", "--expect", "Dynamic speculation disable enabled"
    )
    assert result.returncode == 1 and result.stderr == ""
    out = result.stdout
    assert "\x1b[" not in out  # not a terminal: plain text
    for expected in ("I1 RuntimeError: The size of tensor a (160) must match the size of tensor b (2)",
                     "origin TP7 (also TP3)", "server.log:601", "worker path: v1 (EAGLEWorker)",
                     "disable_overlap_schedule=True", "160 = 10 running requests", "load before: running_req=10",
                     "unexplained numbers: 2", "possible reading: 2 fits no product of the known facts",
                     'finding (missing_marker): expected marker "Dynamic speculation disable enabled"'):  # fmt: skip
        assert expected in out, expected
    assert (
        out.rstrip()
        .splitlines()[-1]
        .startswith("spectrace: FAIL: 1 new root-cause incident; 1 missing marker")
    )


def _check_formats(reports: dict[str, Path]) -> None:
    """Each report file parsed back by a real parser / validated against its schema."""
    sarif_schema = json.loads((ROOT / "tests/fixtures/sarif-schema-2.1.0.json").read_text())
    jsonschema.Draft4Validator(sarif_schema).validate(json.loads(reports["sarif"].read_text()))
    assert ET.parse(reports["junit"]).getroot().tag == "testsuites"
    commands = [
        line for line in reports["github"].read_text().splitlines() if line.startswith("::")
    ]
    assert all(WORKFLOW_COMMAND.match(line) for line in commands)
    assert reports["markdown"].read_text().startswith("## spectrace triage: ")


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_every_sample_gives_its_root_causes_exit_code_and_valid_reports(
    sample: Path, tmp_path: Path
) -> None:
    expected = json.loads((sample / "expected.json").read_text())
    expects = [f"--expect={marker}" for marker in expected["expect"]]
    reports = {fmt: tmp_path / f"report.{fmt}" for fmt in ("sarif", "junit", "github", "markdown")}
    extra = [f"--report={fmt}={path}" for fmt, path in reports.items()]
    result = run("triage", str(sample.relative_to(ROOT)), "--format", "json", *expects, *extra)
    report = json.loads(result.stdout)
    jsonschema.Draft202012Validator(REPORT_SCHEMA).validate(report)
    roots = [i for i in expected["incidents"] if i.get("root_cause") and not i.get("optional")]
    got = [(i["exception_type"], i["origin_rank"]) for i in report["incidents"] if i["root_cause"]]
    assert got == [(i["exception_type"], i.get("origin_rank")) for i in roots]
    missing = [f["message"] for f in report["findings"] if f["kind"] == "missing_marker"]
    assert len(missing) == len(expected["missing_markers"])
    assert result.returncode == (1 if roots or expected["missing_markers"] else 0)
    assert "Traceback" not in result.stderr
    _check_formats(reports)


def test_signatures_survive_a_rerun_with_other_numbers_and_lines(tmp_path: Path) -> None:
    """Same crash, shifted by 7 lines, other times, pids, source line numbers and tensor sizes."""
    data = (ROOT / "sample_logs/seed_story/server.log").read_bytes()  # keeps tqdm's \r redraws
    data = re.sub(rb"line (\d+)", lambda m: b"line %d" % (int(m.group(1)) + 13), data)
    data = data.replace(b"21:00:18", b"22:41:07").replace(b"(160)", b"(96)").replace(b"(2)", b"(4)")
    data = data.replace(b"gpu-node-3:412", b"gpu-node-3:399")
    rerun = tmp_path / "rerun.log"
    rerun.write_bytes(b"[2026-02-27 20:40:00] Init torch distributed begin.\n" * 7 + data)
    result = run("diff", "sample_logs/seed_story/server.log", str(rerun), "--format", "json")
    diff = json.loads(result.stdout)
    assert result.returncode == 0 and diff["summary"] == {
        "new": 0,
        "gone": 0,
        "still": 2,
        "exit_code": 0,
    }
    assert diff["still"][0]["first_seen"]["line"] == 608


def test_baseline_then_rerun_of_a_sample_passes(tmp_path: Path) -> None:
    baseline = tmp_path / "b.json"
    first = run(
        "triage",
        "sample_logs/nccl_watchdog/",
        "--write-baseline",
        str(baseline),
        "-o",
        str(tmp_path / "r.txt"),
    )
    assert first.returncode == 1
    again = run("triage", "sample_logs/nccl_watchdog/", "--baseline", str(baseline))
    assert again.returncode == 0 and "OK: no new root-cause incident" in again.stdout


def test_stdin_and_gzip_inputs(tmp_path: Path) -> None:
    log = (ROOT / "sample_logs/seed_story/server.log").read_text()
    piped = run("triage", "-", "-f", "json", stdin=log)
    assert (
        piped.returncode == 1 and json.loads(piped.stdout)["incidents"][0]["origin_rank"] == "TP7"
    )
    gz = run("triage", "sample_logs/k8s_wrapped/", "-f", "json")
    assert json.loads(gz.stdout)["incidents"][0]["origin_rank"] == "TP7"


def test_diff_of_a_log_against_itself_has_nothing_new() -> None:
    result = run("diff", "sample_logs/seed_story/server.log", "sample_logs/seed_story/")
    assert result.returncode == 0 and "0 new, 0 gone, 2 still there" in result.stdout


@pytest.fixture
def bad_inputs(tmp_path: Path) -> dict[str, Path]:
    """One of each kind of unusable input, plus a good log."""
    files = {
        "binary": tmp_path / "core.log",
        "empty": tmp_path / "empty.log",
        "gzip": tmp_path / "cut.log.gz",
        "good": tmp_path / "server.log",
    }
    files["binary"].write_bytes(bytes(range(256)) * 40)
    files["empty"].write_bytes(b"")
    files["gzip"].write_bytes(gzip.compress(b"[2026-02-27 21:00:18 TP7] hello\n" * 100)[:12])
    files["good"].write_text((ROOT / "sample_logs/seed_story/server.log").read_text())
    return files


@pytest.mark.parametrize(
    ("kind", "message"),
    [
        ("binary", "binary file, not a text log"),
        ("empty", "empty file"),
        ("gzip", "truncated or damaged gzip with no readable data"),
    ],
)
def test_unusable_input_alone_is_exit_2(
    bad_inputs: dict[str, Path], kind: str, message: str
) -> None:
    result = run("triage", str(bad_inputs[kind]))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == f"spectrace: error: {bad_inputs[kind]}: {message}\n"


def test_unusable_inputs_beside_a_good_one_are_skipped_with_a_warning(
    bad_inputs: dict[str, Path],
) -> None:
    result = run("triage", *(str(p) for p in bad_inputs.values()), "-f", "json")
    assert result.returncode == 1
    warnings = result.stderr.splitlines()
    assert len(warnings) == 3 and all(
        w.startswith("spectrace: warning: skipping ") for w in warnings
    )
    assert [f["path"] for f in json.loads(result.stdout)["files"]] == [str(bad_inputs["good"])]


def test_unreadable_file_is_a_one_line_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    locked = tmp_path / "locked.log"
    locked.write_text("x\n")
    real_open = open

    def deny(file: Any, *args: Any, **kwargs: Any) -> Any:
        if str(file) == str(locked):
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr("builtins.open", deny)
    assert inputs.problem(str(locked)) == "permission denied"


def test_truncated_gzip_with_data_is_read_with_a_warning(tmp_path: Path) -> None:
    data = gzip.compress((ROOT / "sample_logs/seed_story/server.log").read_bytes())
    cut = tmp_path / "cut.log.gz"
    cut.write_bytes(data[: len(data) - 200])
    result = run("triage", str(cut), "-f", "json")
    assert result.returncode == 1 and "truncated gzip" in result.stderr
    assert json.loads(result.stdout)["incidents"][0]["origin_rank"] == "TP7"


def test_progress_bar_only_on_a_terminal_and_after_a_second() -> None:
    piped_out = io.StringIO()
    piped = DelayedProgress(Console(file=piped_out, force_terminal=False))
    piped.started -= 5
    piped(10, 100)
    piped.close()
    assert piped_out.getvalue() == ""
    tty_out = io.StringIO()
    tty = DelayedProgress(Console(file=tty_out, force_terminal=True, width=80))
    tty(10, 100)
    assert tty.progress is None  # a fast scan never shows a bar
    tty.started -= 5
    tty(50, 100)
    tty.close()
    assert "scanning" in tty_out.getvalue()


def test_expect_file_adds_markers_skipping_comments(
    app: typer.Typer, fake_pipeline: dict[str, Any], tmp_path: Path
) -> None:
    markers = tmp_path / "markers.txt"
    markers.write_text(
        "# markers our patch prints\nDynamic speculation disable enabled\n\n  Spec v2 is enabled  \n"
    )
    invoke(app, tmp_path, "--expect", "first", "--expect-file", str(markers))
    assert fake_pipeline["expect"] == [
        "first",
        "Dynamic speculation disable enabled",
        "Spec v2 is enabled",
    ]


def test_text_report_says_why_crashes_were_grouped(
    app: typer.Typer, fake_pipeline: dict[str, Any], tmp_path: Path
) -> None:
    out = invoke(app, tmp_path).output
    assert "(RuntimeError | The size of tensor a (<num>) must match" in out
    assert (
        "cuda_graph_runner.py:replay < eagle_worker.py:forward_batch_speculative_generation" in out
    )


def test_warnings_alone_pass_but_stay_in_the_report(tmp_path: Path) -> None:
    api = "(APIServer pid=311) "
    rejected = [
        api + "ERROR 11-30 09:12:44 [serving_chat.py:221] Error in preprocessing prompt inputs",
        api + "ERROR 11-30 09:12:44 [serving_chat.py:221] Traceback (most recent call last):",
        api + '  File "/opt/vllm/entrypoints/openai/serving_chat.py", line 203, in create_chat_completion',
        api + "    ) = await self._preprocess_chat(",
        api + "ValueError: This model's maximum context length is 8192 tokens. However, you requested 9100 tokens.",
        api + "INFO 11-30 09:12:45 [loggers.py:123] Engine 000: Avg prompt throughput: 0.0 tokens/s",
    ]  # fmt: skip
    log = tmp_path / "api.log"
    log.write_text("\n".join(rejected) + "\n")
    passed = run("triage", str(log))
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "ValueError: This model's maximum context length is 8192 tokens" in passed.stdout
    assert "[warning" in passed.stdout and "root cause" not in passed.stdout.split("\n")[0]
    strict = run("triage", str(log), "--fail-on", "any")
    assert strict.returncode == 1
