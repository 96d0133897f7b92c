"""A document that shows no run gets no path, in any language and copy form (issue 11, session
20): code-study notes (a class skeleton with elided bodies, file line counts, "from the source"
phrasing), a requirements or specification document whose launch section copies a vendor's
command, a tutorial's snippets under numbered headings, a README telling the reader how to enable
a feature and which log lines to expect (``not_run._document``). The same documents holding a
run of their own (a pasted traceback through the writer's tree, a measured result, "we ran")
keep their verdict. Our own texts, a probe traceback appended as measure.py does.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import PROBE, assert_no_path, assert_verdict, crash_path, probed_path, roots, run
from spectrace.worker_path import WorkerPath


_SGLANG_STANDALONE = ["--speculative-algorithm STANDALONE", "--speculative-draft-model-path <small_draft>",
                      "--speculative-num-steps 3", "--speculative-eagle-topk 4",
                      "--speculative-num-draft-tokens 8"]  # fmt: skip
_SGLANG_LAUNCH = ["SGLANG_ENABLE_SPEC_V2=1 python3 -m sglang.launch_server \\",
                  "    --model-path acme/Orbit-MoE-200B \\", "    --tp-size 8 \\",
                  "    --speculative-algorithm EAGLE \\", "    --speculative-num-steps 3 \\",
                  "    --speculative-eagle-topk 1 \\", "    --speculative-num-draft-tokens 4"]  # fmt: skip
_VLLM_SERVE = ["vllm serve /models/Orbit-8B \\", "  --tensor-parallel-size 1 \\", "  --max-model-len 8192 \\",
               "  --speculative-config '{\"model\":\"/models/Orbit-0.5B\",\"method\":\"draft_model\","
               "\"num_speculative_tokens\":5}'"]  # fmt: skip

DOCUMENTS = {
    # code-study notes: a class skeleton with elided bodies, a file's line count, "from the source"
    "study-zh": [
        "## 5. STANDALONE：小模型做 draft", "", "**文件**：`standalone_worker.py`（214 行）", "", "```python",
        "class StandaloneWorker(EAGLEWorker):", "    def __init__(self, server_args, ...):", "        ...",
        "```", "", "**关键 CLI 参数**：", "", "```", *_SGLANG_STANDALONE, "```", "",
        "## 6. DFLASH：块并行 draft", "", "**文件**：`dflash_worker.py`（1180 行，根据源码推测）", ""],
    "study-ja": [
        "## vLLM の EAGLE 実装を読む", "", "ファイル: `vllm/v1/spec_decode/eagle.py`（約 1100 行）", "",
        "```python", "class EagleProposer:", "    def propose(self, target_token_ids, ...): ...",
        "    def load_model(self, target_model): ...", "```", "",
        "ソースコードから読むと、draft は target の hidden states を使う。",
        "method は `--speculative-config '{\"method\":\"eagle3\"}'` で指定する。"],
    "study-en-bare": [
        "Reading the SGLang speculative package (from the source, no run yet):", "",
        "| file | lines |", "|---|---|", "| eagle_worker.py | 1012 |", "| eagle_worker_v2.py | 846 |",
        "| ngram_worker.py | 301 |", "",
        "class EAGLEWorkerV2(BaseSpecWorker):", "    def forward_batch_generation(self, batch): ...",
        "    def verify(self, batch, ...): ...", "",
        "Plan: put the draft on the CPU; see cpu_draft_plan.md."],
    # a requirements / installation document copying a vendor's launch
    "requirements-ru": [
        "## 2. Технические требования к интеграции", "", "### 2.1 Системные требования", "",
        "- GPU: 8x H100 (80GB)", "- RAM: 512GB+", "", "### 2.2 Программное обеспечение", "",
        "```bash", "pip install sglang==0.5.9", "```", "", "**Запуск сервера**:", "```bash", *_SGLANG_LAUNCH, "```",
        "", "### 2.3 API интеграция", ""],
    "requirements-es": [
        "# Orbit en producción", "", "## Requisitos", "", "- 1x H100 80GB", "- vLLM 0.19.1", "",
        "## Instalación", "", "```bash", "pip install vllm==0.19.1", "```", "", "## Despliegue", "",
        "```bash", *_VLLM_SERVE, "```"],
    "spec-en-web": [
        "https://wiki.example.org/platform/specs/orbit-serving", "",
        "# Orbit serving: deployment specification", "", "## 3. Requirements", "",
        "- 2x B200, TensorRT-LLM 1.2.0", "", "## 4. Server launch", "", "```bash",
        "trtllm-serve acme/Orbit-R1-FP4 --tp_size 2 --extra_llm_api_options spec.yaml", "```", "",
        "spec.yaml:", "```yaml", "speculative_config:", "  decoding_type: MTP", "  num_nextn_predict_layers: 3",
        "```"],
    # a tutorial's snippets under numbered headings
    "tutorial-zh": [
        "## 2. EAGLE", "", "### 2.1 核心思想", "", "EAGLE 在特征层面做自回归预测。", "", "```python",
        "from vllm import LLM", "", "llm = LLM(", '    model="acme/Orbit-8B-Instruct",',
        '    speculative_config={"model": "acme/Orbit-8B-eagle3", "method": "eagle3", "num_speculative_tokens": 3},',
        ")", "```", "", "## 3. DFlash", "", "### 3.4 实践", "", "```bash", "# 使用 SGLang 运行 DFlash",
        "python -m sglang.launch_server --model acme/Orbit-8B --speculative-algorithm DFLASH \\",
        "    --speculative-draft-model-path /path/to/dflash-draft", "```"],
    "tutorial-ko": [
        "# 추측 디코딩 튜토리얼", "", "## 1. 개요", "", "MTP 는 모델 자체의 예측 헤드를 draft 로 쓴다.", "",
        "## 2. 사용법", "", "```bash", "python -m sglang.launch_server --model-path acme/Orbit-V3 --tp 8 \\",
        "    --speculative-algorithm NEXTN --speculative-num-steps 3 --speculative-eagle-topk 1 \\",
        "    --speculative-num-draft-tokens 4", "```"],
    "tutorial-en-old-llm": [
        "## 3. Speculative decoding with vLLM", "", "### 3.1 Core idea", "",
        "A small draft proposes tokens; the target verifies them in one pass.", "", "```python",
        "llm = LLM(", '    model="acme/Orbit-8B-Instruct",', '    speculative_model="acme/Orbit-8B-eagle",',
        "    num_speculative_tokens=3,", ")", "```", "", "### 3.2 Pros and cons", ""],
    # a README telling how to enable a patch and which log lines to expect
    "readme-zh": [
        "## 使用", "", "```bash", "export ORBIT_PATCH_OPTIONS='{\"vllm-ascend\": {\"features\": [\"draft_model\"]}}'",
        "", *_VLLM_SERVE, "```", "", "关键日志可关注：", "", "```text", "[orbit-patch] draft_model patch enabled",
        "Loading drafter model...", "```", "", "## CLI 参考", "", "```",
        "python install.py --features '<JSON>'   # 安装并打印 env 提示", "```"],
    "readme-en": [
        "# orbit-spec-patch", "", "## Installation", "", "```bash", "pip install orbit-spec-patch", "```", "",
        "## Usage", "", "```bash", *_VLLM_SERVE, "```", "", "Expected output:", "", "```text",
        "[orbit] adaptive draft patch enabled", "Loading drafter model...", "```"],
}


@pytest.mark.parametrize("name", sorted(DOCUMENTS))
def test_a_document_showing_no_run_getsassert_no_path(tmp_path: Path, name: str) -> None:
    assert_no_path(tmp_path, DOCUMENTS[name])


_OWN_FRAMES = ["Traceback (most recent call last):",
               '  File "/home/dev/sglang/python/sglang/srt/speculative/eagle_worker.py", line 412, in '
               "forward_batch_generation",
               "    logits_output, next_token_ids = self.verify(batch, spec_info)",
               '  File "/home/dev/sglang/python/sglang/srt/speculative/eagle_worker.py", line 690, in verify',
               "    res = spec_info.verify(batch, logits_output, self.token_to_kv_pool_allocator)",
               "RuntimeError: CUDA error: an illegal memory access was encountered"]  # fmt: skip


def test_study_notes_that_paste_the_writers_own_crash_keep_its_path(tmp_path: Path) -> None:
    """The same Chinese notes with a traceback through the writer's tree: the crash is a run."""
    lines = [*DOCUMENTS["study-zh"][:9], "", "我们在 H100 上用 EAGLE 跑的时候崩了：", "", "```", *_OWN_FRAMES, "```"]
    assert_verdict(crash_path(run(tmp_path, lines)), "v1", "EAGLEWorker")


def test_a_requirements_document_with_a_measured_run_keeps_its_path(tmp_path: Path) -> None:
    """A measured result of the writer's own (Russian: "we ran ... got N tok/s") shows the run."""
    lines = [*DOCUMENTS["requirements-ru"][:-2], "", "### 2.4 Результаты", "",
             "Мы запустили сервер с этой командой на 8x H100: 182 tok/s, accept length 3.1."]  # fmt: skip
    assert_verdict(probed_path(tmp_path, lines), "v2", "EAGLEWorkerV2")


def test_a_tutorial_whose_writer_ran_the_launch_keeps_its_path(tmp_path: Path) -> None:
    lines = [*DOCUMENTS["tutorial-ko"], "", "H100 에서 실행했더니 accept length 2.8, 156 tok/s 가 나왔다."]
    assert_verdict(probed_path(tmp_path, lines), "unknown", "EAGLEWorker")


def test_a_readme_with_the_servers_own_log_records_keeps_its_path(tmp_path: Path) -> None:
    """Log records the server printed (stamped lines) are a run, whatever the README's headings."""
    lines = [*DOCUMENTS["readme-en"][:12], "",
             "INFO 09-02 10:11:12 [core.py:75] Initializing a V1 LLM engine (v0.19.1) with config: model='/models/Orbit-8B', "
             "speculative_config=SpeculativeConfig(method='draft_model', model='/models/Orbit-0.5B', num_spec_tokens=5)",
             "INFO 09-02 10:11:40 [gpu_model_runner.py:2100] Loading drafter model..."]  # fmt: skip
    assert_verdict(probed_path(tmp_path, lines), "other", "DraftModelProposer")


# ---- a comparison table: the column with the setting off is a setup of its own ----

_OOM = ["torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.50 GiB. GPU 0 has a total capacity of "
        "79.11 GiB of which 1.90 GiB is free."]  # fmt: skip

COMPARED = {
    "trtllm-mtp-none": [
        "# Orbit-120B on one GB200 with TensorRT-LLM: the load-time wall", "", "Serving with 1.2.1 crashed at load:",
        *_OOM, "", "| Setting | Naive (crashed) | Official recipe |", "|---|---|---|",
        "| Container | `tensorrt-llm/release:1.2.1` | `tensorrt-llm/release:1.3.0rc9` |",
        "| Spec decoding | none | MTP, `num_nextn_predict_layers: 3` |"],
    "trtllm-eagle3-off": [
        "Bring-up notes, Orbit-70B on 2x H200 (TensorRT-LLM 1.1.0)", "", *_OOM, "",
        "| knob | what crashed | what we will run next |", "| --- | --- | --- |",
        "| speculative_config | off | `decoding_type: Eagle3`, `max_draft_len: 3` |"],
    "sglang-eagle-disabled": [
        "SGLang 0.5.9 on 8x H100: the scheduler died at start", "", *_OOM, "",
        "| | run A (this crash) | run B (planned) |", "|---|---|---|",
        "| speculative algorithm | disabled | `--speculative-algorithm EAGLE` |"],
    "vllm-mtp-no": [
        "vLLM 0.19.1 on 1x H100, Orbit-30B", "", *_OOM, "",
        "| | first try | second try |", "|---|---|---|",
        "| speculative decoding | no | `{\"method\": \"mtp\", \"num_speculative_tokens\": 2}` |"],
}


@pytest.mark.parametrize("name", sorted(COMPARED))
def test_a_table_row_comparing_a_setup_with_speculation_off_names_no_run(tmp_path: Path, name: str) -> None:
    assert_no_path(tmp_path, COMPARED[name])


def test_a_table_row_naming_the_runs_own_setting_keeps_its_condition(tmp_path: Path) -> None:
    """A row with one setup (no column saying off) is the run's config."""
    lines = ["# Orbit-120B on one GB200 with TensorRT-LLM 1.2.1: the load-time wall", "", *_OOM, "",
             "| Setting | Value |", "|---|---|", "| Spec decoding | MTP, `num_nextn_predict_layers: 3` |"]  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, lines)), "unknown", "MTPEagleWorker|MTPWorker")


# ---- a document holding a run of its own keeps the run's verdict ----

_NEXTN_LAUNCH = ["python3 -m sglang.launch_server --model-path acme/Orbit-V3 --tp 8 \\",
                 "    --speculative-algorithm NEXTN --speculative-num-steps 3 --speculative-eagle-topk 1 \\",
                 "    --speculative-num-draft-tokens 4"]  # fmt: skip

RUNS_IN_DOCUMENTS = {
    # a lone error line, no traceback header, under a document's headings
    "zh-lone-error": (["## 1. 背景", "", "### 1.1 部署方案", "", "```bash"], [
        *_NEXTN_LAUNCH, "```", "", "[2026-03-02 10:11:12] Scheduler hit an exception:",
        "RuntimeError: CUDA error: an illegal memory access was encountered"]),
    # a rank-prefixed assertion in a Japanese study note
    "ja-rank-assert": (["## 概要", "", "ソースコードを読む前に:", ""], [
        *_NEXTN_LAUNCH, "", "[rank0]: AssertionError"]),
    # a measured table under a Russian requirements heading
    "ru-measured-table": (["## 2. Требования", ""], [
        *_NEXTN_LAUNCH, "", "| batch | tok/s |", "|---|---|", "| 1 | 151.2 |"]),
    # a Spanish tutorial whose writer ran it
    "es-ran": (["## Tutorial", "", "### Instalación", ""], [
        *_NEXTN_LAUNCH, "", "Lo ejecuté en 8x H100 y el servidor se cayó al capturar los CUDA graphs."]),
}


def _first(tmp_path: Path, lines: list[str]) -> WorkerPath:
    """The path of the text's first crash (its own, or the probe's where it has none)."""
    path = roots(run(tmp_path, [*lines, "", *PROBE]))[0].worker_path
    assert path is not None
    return path


@pytest.mark.parametrize("name", sorted(RUNS_IN_DOCUMENTS))
def test_a_document_holding_its_own_run_keeps_the_runs_verdict(tmp_path: Path, name: str) -> None:
    """The run's lines give the same verdict with the document's headings above them as bare."""
    heads, body = RUNS_IN_DOCUMENTS[name]
    bare = _first(tmp_path, body)
    assert bare.worker_class is not None or bare.conditional, bare
    within = _first(tmp_path, [*heads, *body])
    assert (within.value, within.worker_class, within.conditional) == (bare.value, bare.worker_class,
                                                                       bare.conditional)  # fmt: skip
