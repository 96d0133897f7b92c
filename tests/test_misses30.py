"""Evidence the linker still missed, and names that led it astray (session 30, MISSES30).

- A draft architecture two vLLM methods load (``DeepSeekV4MTPModel``: mtp and dspark) with no
  record stating the method is a condition over both wherever the release is unknown (a banner
  cut or elided where its release was: ``version 0.x...``, ``version 0.2[...]``); a release shown
  that predates DSpark leaves mtp alone. A cut banner gives no release (it used to be read as
  vLLM 0.2, or to stop the analysis on an unreadable version).
- A crash chain told as ``file.py:N`` steps (arrows, or one step a line) is frames: a vLLM draft
  model's file among them (or among a traceback's frames) names its method's proposer
  (``gemma4_mtp.py``: Gemma4Proposer), on the runner the other steps show.
- A launch whose records end at a failure in SGLang's launcher (its ports, its arguments' checks),
  before any scheduler record, built no worker: no path, and the explanation names the method it
  configured and the line it stopped at (the model hub's refusal already was such a stop).
- A class a crash's message names is the server's only where the text ties it to the server:
  a fork's own class (its frames or its script in its own tree, another engine's launch) and a
  checker script's message take no path; a grep of the source names no run.
- The API server's banner with its words elided by a paste (``(APIServer pid=1) INFO … version
  0.26.1rc0``) still gives the release; a plugin's frames or platform leave a vLLM draft file
  (vllm-ascend drafts through vLLM's model files with its own proposers) no vLLM class.
"""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import assert_verdict, probed_path

from spectrace.assemblers.vllm_release import cut_release

# --- a draft architecture two methods load, the release unknown ---------------------------

_TAG = "(APIServer pid=20) INFO 03-11 07:45:0"
_TARGET = f"{_TAG}4 [model.py:620] Resolved architecture: DeepseekV4ForCausalLM"
_DRAFT = f"{_TAG}6 [model.py:620] Resolved architecture: DeepSeekV4MTPModel"


def _banner(release: str) -> str:
    return f"{_TAG}1 [api_server.py:1990] vLLM API server version {release}"


def test_a_banner_cut_at_its_release_gives_no_release() -> None:
    for shown, after in (("0.x...", ""), ("0.2", "[...]"), ("0.26", "…"), ("0.", ""), ("0.25...", " (cut)")):
        assert cut_release(shown, after), (shown, after)
    for shown, after in (("0.25.1", ""), ("0.9.2.dev121+g4c8f64faa", ""), ("0.26.0rc1", ", serving")):
        assert not cut_release(shown, after), (shown, after)


def test_a_shared_draft_with_the_release_elided_is_a_condition_over_both(tmp_path: Path) -> None:
    forms = (
        [_banner("0.x..."), _TARGET, _DRAFT],
        [_banner("0.2[...]"), _TARGET, _DRAFT],
        [_banner("..."), _TARGET, "[...]", _DRAFT],
        [_TARGET, _DRAFT],  # no banner at all
    )
    for i, lines in enumerate(forms):
        (tmp_path / str(i)).mkdir()
        path = probed_path(tmp_path / str(i), lines)
        assert_verdict(path, "unknown", "DSparkSpeculator|EagleProposer")


def test_a_release_before_dspark_leaves_mtp_alone(tmp_path: Path) -> None:
    path = probed_path(tmp_path, [_banner("0.21.0"), _TARGET, _DRAFT])
    assert "DSpark" not in (path.worker_class or "") + (path.conditional or ""), path
    assert "EagleProposer" in (path.worker_class or path.conditional or ""), path


def test_a_stated_method_still_decides_under_a_cut_banner(tmp_path: Path) -> None:
    for method, cls in (("dspark", "DSparkSpeculator"), ("mtp", "EagleProposer")):
        args = (f"{_TAG}2 [utils.py:300] non-default args: {{'model': 'org/ds4-small', "
                f"'speculative_config': {{'method': '{method}', 'num_speculative_tokens': 2}}}}")  # fmt: skip
        (tmp_path / method).mkdir()
        path = probed_path(tmp_path / method, [_banner("0.x..."), args, _TARGET, _DRAFT])
        assert_verdict(path, "other", cls)


# --- a crash chain of file.py:N steps is frames --------------------------------------------

_TB = ["Traceback (most recent call last):",
       '  File "/srv/py/vllm/v1/worker/gpu_model_runner.py", line 4410, in _dummy_run',
       "    self.drafter.dummy_run(n)",
       '  File "/srv/py/vllm/v1/spec_decode/llm_base_proposer.py", line 1320, in dummy_run',
       "    self.model(**kw)",
       '  File "/srv/py/vllm/model_executor/models/gemma4_mtp.py", line 512, in forward',
       "    h = self.attn(q, k, v)",
       "AssertionError: cache view mismatch in the drafter"]  # fmt: skip


def test_a_draft_model_frame_under_the_v1_runner_names_its_method_class(tmp_path: Path) -> None:
    from real_logs_helpers import crash_path, run

    assert_verdict(crash_path(run(tmp_path, _TB)), "other", "Gemma4Proposer")


def test_a_crash_chain_in_a_note_reads_as_frames(tmp_path: Path) -> None:
    forms = {
        "Gemma4Proposer": ['"""Drafter warm-up dies when profiling memory.',
                           "",
                           "    gpu_model_runner.py:4410  self.drafter.dummy_run(n)",
                           "      -> llm_base_proposer.py:1320  self.model(**kw)",
                           "        -> gemma4_mtp.py:512  Gemma4MTPAttention.forward(x)",
                           '"""'],
        "DFlashProposer": ["What we saw on the box: `gpu_model_runner.py:3001 propose_draft_token_ids` → "
                           "`qwen3_dflash.py:77 forward` → `IndexError: index 9 is out of bounds`"],
        "EagleProposer": ["Trace (trimmed):", "  gpu_model_runner.py:2950  self.drafter.propose(b)",
                          "  deepseek_mtp.py:140  DeepSeekMultiTokenPredictor.forward"],
        "EagleProposer ": ["gpu_model_runner.py:2010 -> llama_eagle3.py:90 -> ValueError: bad aux ids"],
    }
    for i, (cls, lines) in enumerate(forms.items()):
        (tmp_path / str(i)).mkdir()
        assert_verdict(probed_path(tmp_path / str(i), lines), "other", cls.strip())


def test_a_draft_file_two_methods_load_is_a_condition_off_the_v1_runner(tmp_path: Path) -> None:
    from real_logs_helpers import crash_path, run

    frame = ["Traceback (most recent call last):",
             '  File "/srv/py/vllm/model_executor/models/deepseek_v4_mtp.py", line 66, in forward',
             "    y = self.block(x)", "RuntimeError: the drafter blew up"]  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, frame)), "unknown", "EagleProposer|DSparkSpeculator")
    (tmp_path / "v1").mkdir()  # DSpark drafts only on the model runner v2: the V1 runner ran mtp
    path = probed_path(tmp_path / "v1", ["Chain: gpu_model_runner.py:801 -> deepseek_v4_mtp.py:66 -> RuntimeError: x"])
    assert_verdict(path, "other", "EagleProposer")


def test_a_sentence_citing_a_draft_file_is_no_frame(tmp_path: Path) -> None:
    from spectrace.path_chains import chain_steps

    assert chain_steps("the layer lives in gemma4_mtp.py:512 and is built once") == []
    assert chain_steps("gemma4_mtp.py:512") == []  # a reference alone
    assert chain_steps("gemma4_mtp.py:512:    def forward(self, x):") == []  # a grep hit
    assert chain_steps("[gpu_model_runner.py:4410] Loading drafter weights") == []  # a log prefix
    assert chain_steps("  -> gemma4_mtp.py:512  Gemma4MTPAttention.forward(x)") == ["gemma4_mtp.py:512"]
    path = probed_path(tmp_path, ["Gemma-4 drafting code is in gemma4_mtp.py:512 if you want to read it."])
    assert "Gemma4Proposer" != path.worker_class, path


# --- a launch that stopped in SGLang's launcher built no worker -----------------------------

_SGL = "/opt/conda/lib/python3.11/site-packages/sglang"
_LAUNCH = ("python3 -m sglang.launch_server --model-path org/Qwen3-14B --speculative-algorithm EAGLE3 "
           "--speculative-draft-model-path org/Qwen3-14B-eagle3 --speculative-num-steps 2 "
           "--speculative-eagle-topk 1 --speculative-num-draft-tokens 3 --port 31000")  # fmt: skip
_PORT = [_LAUNCH, "Traceback (most recent call last):",
         f'  File "{_SGL}/launch_server.py", line 29, in <module>', "    launch_server(server_args)",
         f'  File "{_SGL}/srt/entrypoints/http_server.py", line 1300, in launch_server',
         "    out = _launch_subprocesses(server_args=server_args)",
         f'  File "{_SGL}/srt/entrypoints/engine.py", line 790, in _launch_subprocesses',
         "    port_args = PortArgs.init_new(server_args)",
         f'  File "{_SGL}/srt/server_args.py", line 4100, in init_new',
         '    wait_port_available(server_args.nccl_port, "nccl_port")',
         f'  File "{_SGL}/srt/utils/common.py", line 640, in wait_port_available',
         "    raise ValueError(msg)",
         "ValueError: nccl_port 31011 is held by another process; choose a free port"]  # fmt: skip
_ARGS_CHECK = [_LAUNCH, "Traceback (most recent call last):",
               f'  File "{_SGL}/launch_server.py", line 10, in <module>',
               "    server_args = prepare_server_args(sys.argv[1:])",
               f'  File "{_SGL}/srt/server_args.py", line 4800, in prepare_server_args',
               f'  File "{_SGL}/srt/server_args.py", line 700, in __post_init__',
               "    self._handle_gpu_memory_settings()",
               "AssertionError: the requested memory fraction leaves no room for the KV cache"]  # fmt: skip


def test_a_launch_stopped_in_sglangs_launcher_names_no_path(tmp_path: Path) -> None:
    from real_logs_helpers import assert_no_path, roots, run

    for i, lines in enumerate((_PORT, _ARGS_CHECK)):
        (tmp_path / str(i)).mkdir()
        assert_no_path(tmp_path / str(i), lines)
        (tmp_path / f"said{i}").mkdir()
        (crash,) = roots(run(tmp_path / f"said{i}", lines))
        said = " ".join(crash.worker_path.missing)
        assert "failure in the launcher itself" in said, said
        # the exception's line where the scan kept it, else the launcher's own frame above it
        stops = {len(lines), 1 + max(n for n, t in enumerate(lines) if "server_args.py" in t)}
        assert any(f"configured EAGLE3; no worker started: the run stopped at line {n} " in said for n in stops), said


def test_a_launcher_failing_after_its_scheduler_ran_keeps_the_run(tmp_path: Path) -> None:
    from real_logs_helpers import roots, run

    scheduler = ["[2026-10-03 08:00:10 TP0] Scheduler hit an exception: Traceback (most recent call last):",
                 f'  File "{_SGL}/srt/managers/scheduler.py", line 3000, in run_scheduler_process',
                 "    scheduler.event_loop_normal()",
                 f'  File "{_SGL}/srt/speculative/eagle_worker.py", line 300, in forward_batch_generation',
                 "    spec_info = self.draft(batch)",
                 "RuntimeError: CUDA error: an illegal memory access was encountered"]  # fmt: skip
    died = [f'  File "{_SGL}/srt/server_args.py", line 4100, in init_new',
            "RuntimeError: Rank 0 scheduler is dead. Please check if there are relevant logs."]
    paths = [c.worker_path for c in roots(run(tmp_path, [_LAUNCH, *scheduler, "Traceback (most recent call last):", *died]))]
    assert any(p is not None and p.worker_class == "EAGLEWorker" for p in paths), paths


# --- a class or an engine a text names must be tied to that engine's own file or record -----------


def test_a_forks_own_class_named_in_its_script_takes_no_engines_path(tmp_path: Path) -> None:
    from real_logs_helpers import assert_no_path

    script = ["#!/usr/bin/env bash",
              "# regression gate for our tiny-sgl fork's DFlash drafter; it used to die with",
              '#   File "/work/tiny-sgl/python/tinysgl/drafting/dflash_proposer.py", line 88, in step',
              "#   AttributeError: 'DFlashProposer' object has no attribute 'kv_pages'",
              "set -e",
              "python -m tinysgl.server --model org/Qwen3-4B --spec dflash &"]  # fmt: skip
    assert_no_path(tmp_path, script)


def test_a_checker_scripts_crash_naming_a_worker_takes_no_path(tmp_path: Path) -> None:
    from real_logs_helpers import assert_no_path

    job = ["2026-10-01T10:00:00.0Z ##[group]Run python ci/name_audit.py",
           "2026-10-01T10:00:01.0Z Traceback (most recent call last):",
           '2026-10-01T10:00:01.0Z   File "/home/runner/work/vllm_ci/vllm_ci/ci/name_audit.py", line 12, in <module>',
           '2026-10-01T10:00:01.0Z     raise SystemExit(f"not exported: {n}")',
           "2026-10-01T10:00:01.0Z SystemExit: not exported: EAGLEWorkerV2"]  # fmt: skip
    assert_no_path(tmp_path, job)


def test_a_grep_of_the_source_names_no_run(tmp_path: Path) -> None:
    from real_logs_helpers import assert_no_path

    from spectrace.assemblers.sections import grep_line

    job = ["2026-10-01T10:00:00.0Z ##[group]Run grep -rn 'NEXTN' python/sglang/srt/speculative/",
           "2026-10-01T10:00:00.1Z python/sglang/srt/speculative/spec_info.py:40:    NEXTN = auto()",
           "2026-10-01T10:00:00.1Z python/sglang/srt/speculative/eagle_worker_v2.py:70:class EAGLEWorkerV2(BaseSpecWorker):",
           "2026-10-01T10:00:00.2Z ##[endgroup]"]  # fmt: skip
    assert_no_path(tmp_path, job)
    assert not grep_line("python3 -m sglang.launch_server --speculative-algorithm NEXTN | grep -v DEBUG")
    assert not grep_line("vllm/v1/spec_decode/eagle.py:412: UserWarning: the draft is slow")  # code that ran
    assert not grep_line("[2026-01-01 10:00:00] WARNING server_args.py:1500: overlap off")  # a logger's prefix


def test_a_servers_own_class_in_its_own_crash_still_decides(tmp_path: Path) -> None:
    from real_logs_helpers import crash_path, run

    tb = ["Traceback (most recent call last):",
          '  File "/opt/py/site-packages/vllm/v1/worker/gpu_model_runner.py", line 2100, in propose_draft_token_ids',
          "    out = self.drafter.propose(x)",
          '  File "/opt/py/site-packages/torch/nn/modules/module.py", line 1940, in __getattr__',
          "    raise AttributeError(msg)",
          "AttributeError: 'EagleProposer' object has no attribute 'hidden_cache'"]  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, tb)), "other", "EagleProposer")
    (tmp_path / "cut").mkdir()  # cut to the library's frame: still the server's object
    assert_verdict(crash_path(run(tmp_path / "cut", [tb[0], *tb[3:]])), "other", "EagleProposer")


def test_the_banner_with_its_words_elided_still_gives_the_release(tmp_path: Path) -> None:
    from spectrace.assemblers.vllm_config import VERSION

    for line in ("2026-08-01T10:00:00Z (APIServer pid=7) INFO … version 0.26.1rc0+acme.cu133",
                 "(APIServer pid=7) INFO ... version 0.26.1rc0+acme.cu133",
                 "(APIServer pid=7) INFO [...] version 0.26.1rc0+acme.cu133"):  # fmt: skip
        found = VERSION.search(line)
        assert found is not None and found.group(2) == "0.26.1rc0+acme.cu133", line
    assert VERSION.search("(APIServer pid=7) INFO transformers version 4.57.1") is None
    # the release read, DSpark is possible: the shared draft stays a condition over both methods
    path = probed_path(tmp_path, ["(APIServer pid=7) INFO … version 0.26.1rc0+acme.cu133", _TARGET, _DRAFT])
    assert_verdict(path, "unknown", "DSparkSpeculator|EagleProposer")


def test_a_vllm_draft_file_under_a_plugins_frames_names_no_vllm_class(tmp_path: Path) -> None:
    from real_logs_helpers import crash_path, run

    tb = ["Traceback (most recent call last):",
          '  File "/usr/local/python3.11/site-packages/vllm_ascend/worker/model_runner_v1.py", line 2900, in _dummy_run',
          "    self.drafter.dummy_run(n)",
          '  File "/usr/local/python3.11/site-packages/vllm/model_executor/models/deepseek_mtp.py", line 140, in forward',
          "    h = self.layers[idx](x)",
          "RuntimeError: NPU function error: aclnnAdd"]  # fmt: skip
    path = crash_path(run(tmp_path, tb))
    assert path.worker_class != "EagleProposer" and "EagleProposer" not in (path.conditional or ""), path
