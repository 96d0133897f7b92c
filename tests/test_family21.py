"""A crashed run's family and framework read from its own words, flags and page (issue 11, session 21).

Two shapes of unseen texts that lost the run or took another run's method:
- An issue body copied without its newlines (an issue-wiki page, an index mirror, a web copy)
  opens with a Markdown heading (``### Your current environment ... ### Describe the bug ...
  ``` vllm serve M --speculative-model D ...``); the line was read as a shell comment
  (``#python -m ...``), so its launch, the only place the V0 flags name the draft-model worker,
  was lost.
- A report whose crash ran one method and whose "Workaround" section runs another (``## Workaround
  / method: eagle3 / served fine``): the workaround's config is the writer's second run, never the
  crashed one's, in any language (``临时解决方案``, ``回避策``); workarounds that failed too
  (``### Workarounds tried (all fail)``) are the crashed setup's variants and still count.
- An issue page copied with its tracker in a heading (``# vllm-project/vllm#N: [Bug]: ...``, an
  issue wiki's card): the heading names the tracker; with no version line, release or post day
  the tracker's run may be of any era, so its method words give every era's class (a condition),
  never the newest era's alone (the index header ``owner/repo · issue #N`` decided the V1 class
  on a V0-era EAGLE issue); and the page's copy of its own title (``> [Bug]: ...`` under
  "Issue 标题") is the title, read with the title's guards, not a run's line.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.real_logs_helpers import PROBE, assert_no_path, assert_verdict, roots, run

_TB = ["", *PROBE]


def _verdict(tmp_path: Path, lines: list[str]):
    """The path of the text's own crash, or of a probe appended where it shows none."""
    crashes = roots(run(tmp_path, lines))
    if crashes and crashes[0].worker_path is not None and (
        crashes[0].worker_path.value != "unknown" or crashes[0].worker_path.conditional
    ):
        return crashes[0].worker_path
    path = roots(run(tmp_path, [*lines, *_TB]))[-1].worker_path
    assert path is not None
    return path


# --- a flattened issue body that opens with a heading: its launch is the run's ----------------

FLATTENED = {
    "wiki page, V0 draft flags": [
        "# vllm-project/vllm#11111: [Bug]: draft model with TP 4 fails on first request",
        "",
        "| 字段 | 值 |",
        "| --- | --- |",
        "| Issue | [#11111](https://github.com/vllm-project/vllm/issues/11111) |",
        "",
        "### Issue 正文摘录",
        "",
        "### Your current environment vllm 0.6.3 ### 🐛 Describe the bug The server comes up but the"
        " first prompt kills it. Launch: ``` vllm serve Qwen/Qwen2.5-72B-Instruct --tensor-parallel-size 4"
        " --speculative-model Qwen/Qwen2.5-0.5B-Instruct --num-speculative-tokens 4 --use-v2-block-manager"
        " ``` error: ``` RuntimeError: shape mismatch",
    ],
    "bare body, api_server entry": [
        "### Your current environment PyTorch version: 2.5.1 vLLM Version: 0.6.4.post1 ### Model Input"
        " Dumps _No response_ ### 🐛 Describe the bug Spec decode with a small draft crashes on load. ```"
        " python -m vllm.entrypoints.openai.api_server --model meta-llama/Llama-3.1-8B-Instruct"
        " --speculative-model meta-llama/Llama-3.2-1B --num-speculative-tokens 3 ``` ```",
        "Traceback (most recent call last):",
        '  File "/usr/lib/python3.10/site-packages/vllm/worker/worker.py", line 120, in load_model',
        "RuntimeError: CUDA error: out of memory",
    ],
    "Russian heading": [
        "#### Описание ошибки Сервер падает при первом запросе. ``` vllm serve Qwen/Qwen2-7B-Instruct"
        " --speculative-model Qwen/Qwen2-0.5B-Instruct --num-speculative-tokens 5 --use-v2-block-manager"
        " ``` ``` ValueError: too many values to unpack ```",
    ],
}


@pytest.mark.parametrize("name", sorted(FLATTENED))
def test_flattened_heading_body_keeps_its_launch(tmp_path: Path, name: str) -> None:
    # a V0 draft model (``--speculative-model`` with no method) runs through V0's MultiStepWorker
    assert_verdict(_verdict(tmp_path, FLATTENED[name]), "other", "MultiStepWorker")


def test_flattened_heading_bodies_already_read_stay(tmp_path: Path) -> None:
    """Flattened bodies whose launch another reader already took keep their verdict."""
    web = [
        "Title: [Bug]: EAGLE-3 head crashes at startup · Issue #22222 · vllm-project/vllm",
        "URL: https://github.com/vllm-project/vllm/issues/22222",
        "",
        "## Your current environment vLLM 0.10.1 on H100 ## 🐛 Describe the bug Startup dies. ``` vllm"
        ' serve meta-llama/Llama-3.1-8B-Instruct --speculative-config {"method": "eagle3", "model":'
        ' "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3} ``` ``` AssertionError:'
        " hidden size mismatch ```",
    ]
    assert_verdict(_verdict(tmp_path, web), "other", "EagleProposer")
    sglang = [
        "### Checklist - [x] 1. I have searched related issues ### Describe the bug The server crashes"
        " during cuda graph capture with EAGLE3. ``` python3 -m sglang.launch_server --model-path"
        " meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 --speculative-draft-model-path"
        " jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B --speculative-num-steps 5 ``` ### Environment"
        " sglang 0.4.7",
    ]
    assert_verdict(_verdict(tmp_path, sglang), "v1", "EAGLEWorker")


_FLAT_DUMP = (
    "### Your current environment Docker image: vllm/vllm-openai:v0.22.0 ``` vllm serve"
    " Qwen/Qwen3-8B --max-model-len 16384 --max-num-seqs 4 ``` ### 🐛 Describe the bug The server"
    " dies on the first request: > (EngineCore pid=101) ERROR 06-03 03:39:03 [dump_input.py:72]"
    " Dumping input data for V1 LLM engine (v0.22.0) with config: model='Qwen/Qwen3-8B',"
    " {spec} tokenizer='Qwen/Qwen3-8B', dtype=torch.float16, max_seq_len=16384,"
)


def test_flattened_body_keeps_the_dump_past_its_launch(tmp_path: Path) -> None:
    """The launch on a flattened line is read, and so is the engine dump past its fence."""
    spec = "speculative_config=SpeculativeConfig(method='eagle3', model='org/EAGLE3-Qwen3-8B', num_spec_tokens=3),"
    path = _verdict(tmp_path, [_FLAT_DUMP.format(spec=spec)])
    assert path.worker_class == "EagleProposer" or "EagleProposer" in (path.conditional or ""), path
    path = _verdict(tmp_path, [_FLAT_DUMP.format(spec="speculative_config=None,")])
    assert path.value == "none", path


def test_a_commented_out_command_stays_a_comment(tmp_path: Path) -> None:
    """Near miss: ``#vllm serve ...`` is a shell comment, not the run's launch."""
    lines = [
        "### Describe the bug",
        "",
        "#vllm serve Qwen/Qwen2.5-72B-Instruct --speculative-model Qwen/Qwen2.5-0.5B-Instruct"
        " --num-speculative-tokens 4",
        "",
        "Plain serving without any speculation also fails the same way.",
    ]
    path = _verdict(tmp_path, lines)
    assert path.worker_class is None and not path.conditional, path


# --- a workaround section holds another run than the crashed one -----------------------------

_BASE_CRASH = [
    "## Error",
    "```",
    "TypeError: LlamaForCausalLMEagle3.forward() missing 1 required positional argument: 'hidden_states'",
    '  File "vllm/v1/spec_decode/llm_base_proposer.py", line 1520, in dummy_run',
    "    self.model(**kwargs)",
    "RuntimeError: Engine core initialization failed.",
    "```",
]


def test_workaround_method_does_not_decide_the_crash(tmp_path: Path) -> None:
    """The crash fell to the draft-model proposer; the workaround forced eagle3 and served."""
    lines = [
        "# vLLM 0.27.0: a converted drafter crashes in warmup",
        "",
        "## Summary",
        "Method detection has no branch for this checkpoint, so it falls through to the generic",
        "`draft_model` proposer and startup dies during the dummy run.",
        "",
        *_BASE_CRASH,
        "",
        "## Workaround",
        "Set the method by hand:",
        "```yaml",
        "speculative_config:",
        "  method: eagle3",
        "```",
        "Served fine after that.",
    ]
    path = _verdict(tmp_path, lines)
    assert path.worker_class != "EagleProposer", path
    assert path.worker_class == "DraftModelProposer" or "DraftModelProposer" in (path.conditional or ""), path


def test_workaround_chinese_heading(tmp_path: Path) -> None:
    """临时解决方案 (a temporary solution): the ngram server it launches is not the MTP crash's."""
    lines = [
        "## 现象",
        "vLLM 0.11.0 上用 MTP 启动后，第一个请求就崩溃：",
        "```",
        "(EngineCore_DP0 pid=311) ERROR 10-21 09:12:44 [core.py:710] EngineCore encountered a fatal error.",
        "RuntimeError: shape '[1, 7168]' is invalid for input of size 14336",
        "```",
        "启动命令：",
        "vllm serve deepseek-ai/DeepSeek-V3 --tensor-parallel-size 8 --speculative-config"
        ' \'{"method": "deepseek_mtp", "num_speculative_tokens": 1}\'',
        "",
        "## 临时解决方案",
        "先换成 ngram：",
        'vllm serve deepseek-ai/DeepSeek-V3 --tensor-parallel-size 8 --speculative-config \'{"method":'
        ' "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 4}\'',
        "这样可以正常服务。",
    ]
    assert_verdict(_verdict(tmp_path, lines), "other", "EagleProposer")


def test_workaround_japanese_heading(tmp_path: Path) -> None:
    """回避策 (a workaround): the EAGLE3 crash in the V1 eagle proposer is not the ngram run's."""
    lines = [
        "### 現象",
        "vLLM 0.10.2 で EAGLE3 を使うと起動時に落ちる。",
        "Traceback (most recent call last):",
        '  File "/opt/venv/lib/python3.12/site-packages/vllm/v1/spec_decode/eagle.py", line 802, in load_model',
        "    self.model = get_model(vllm_config=self.vllm_config, model_config=draft_model_config)",
        "KeyError: 'layers.0.self_attn.qkv_proj.weight'",
        "",
        "### 回避策",
        "ngram に切り替えると動く:",
        'vllm serve Qwen/Qwen3-32B --speculative-config \'{"method": "ngram", "num_speculative_tokens": 4,'
        ' "prompt_lookup_max": 3}\'',
    ]
    path = _verdict(tmp_path, lines)
    assert path.worker_class != "NgramProposer" and "NgramProposer" not in (path.conditional or ""), path
    assert path.worker_class == "EagleProposer" or "EagleProposer" in (path.conditional or ""), path


def test_workarounds_that_failed_stay_the_crashed_setup(tmp_path: Path) -> None:
    """Near miss: "Workarounds tried (all fail)" lists the crashed setup's variants."""
    lines = [
        "Traceback (most recent call last):",
        '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/spec_decode/llm_base_proposer.py",'
        " line 1300, in propose",
        "    draft = self.model(**inputs)",
        "RuntimeError: CUDA error: device-side assert triggered",
        "",
        "### Workarounds tried (all fail)",
        "| Attempt | Result |",
        "|---|---|",
        '| `--speculative-config \'{"method": "mtp", "num_speculative_tokens": 1}\'` | same assert |',
    ]
    assert_verdict(_verdict(tmp_path, lines), "other", "EagleProposer")


# --- a heading "owner/repo#N: <title>" in a text's head names the tracker ----------------------

TRACKER_HEADS = {
    "Chinese issue wiki, vLLM MTP": (
        [
            "# vllm-project/vllm#30001: [Bug]: MTP crashes with illegal memory access under load",
            "",
            "| 字段 | 值 |",
            "| --- | --- |",
            "| Issue | [#30001](https://github.com/vllm-project/vllm/issues/30001) |",
            "| 状态 | open |",
            "",
            "### Issue 正文摘录",
            "",
            "### 🐛 Describe the bug Serving DeepSeek-V3.2 with MTP enabled, the engine dies after a few"
            " minutes at 256 concurrent requests: CUDA error: an illegal memory access was encountered",
        ],
        ("unknown", "EagleProposer|MTPSpeculator"),  # no release, no day: every era's class
    ),
    "notes heading, SGLang NGRAM": (
        [
            "## sgl-project/sglang#12001 — NGRAM speculative decoding returns garbage after the first batch",
            "",
            "Summary copied from the tracker: with NGRAM speculation on, outputs degrade after the first"
            " batch and the scheduler dies.",
            "RuntimeError: CUDA error: device-side assert triggered",
        ],
        ("other", "NGRAMWorker"),
    ),
    "plain line with kind, vLLM EAGLE3": (
        [
            "vllm-project/vllm issue #28001: [Bug]: EAGLE3 draft fails to load on 0.11.0",
            "",
            "Loading the EAGLE3 head fails at startup with a KeyError for the fc weight.",
            "KeyError: 'model.fc.weight'",
        ],
        ("other", "EagleProposer"),
    ),
}


@pytest.mark.parametrize("name", sorted(TRACKER_HEADS))
def test_titled_tracker_heading_names_the_framework(tmp_path: Path, name: str) -> None:
    lines, (value, cls) = TRACKER_HEADS[name]
    assert_verdict(_verdict(tmp_path, lines), value, cls)


@pytest.mark.parametrize(
    "lines",
    [
        # another repository's tracker (an RL trainer) names no framework
        ["# volcengine/verl#4001: rollout crashes with MTP", "", "The rollout dies when MTP is on.",
         "RuntimeError: CUDA error: an illegal memory access was encountered"],
        # a thread cited in the body is another thread, not this text's tracker
        ["# Notes on the crash", "", "We served DeepSeek with MTP and hit an illegal memory access.",
         "Same as vllm-project/vllm#30001: an illegal memory access under load",
         "RuntimeError: CUDA error: an illegal memory access was encountered"],
    ],
    ids=["other repository", "cited in the body"],
)
def test_titled_heading_near_misses_name_nothing(tmp_path: Path, lines: list[str]) -> None:
    path = _verdict(tmp_path, lines)
    assert path.worker_class is None and not path.conditional, path


# --- an undated tracker thread: every era's class, never the newest era's alone ---------------

UNDATED = {
    "index header, EAGLE script": (
        [
            "vllm-project/vllm · issue #12831 · open",
            "# [Bug]: EAGLE draft crashes on the first request",
            "",
            "Running the EAGLE example with a converted head, the first request fails:",
            "Traceback (most recent call last):",
            '  File "run_eagle.py", line 30, in <module>',
            "    outputs = llm.generate(prompts, sampling_params)",
            "RuntimeError: shape mismatch in the draft head",
        ],
        "MultiStepWorker|EagleProposer",
    ),
    "URL head, MTP": (
        [
            "https://github.com/vllm-project/vllm/issues/40001",
            "",
            "[Bug]: MTP acceptance collapses after 1000 requests",
            "",
            "With MTP on, the server dies after about a thousand requests:",
            "RuntimeError: CUDA error: an illegal memory access was encountered",
        ],
        # V0 ran DeepSeek MTP (its deepseek_mtp, 0.7.3 on) as MultiStepWorker: an undated
        # thread may be of that era too
        "MultiStepWorker|EagleProposer|MTPSpeculator",
    ),
}


@pytest.mark.parametrize("name", sorted(UNDATED))
def test_undated_tracker_thread_names_every_era(tmp_path: Path, name: str) -> None:
    lines, classes = UNDATED[name]
    assert_verdict(_verdict(tmp_path, lines), "unknown", classes)


def test_dated_tracker_thread_still_decides(tmp_path: Path) -> None:
    """Near miss: the release the body names bounds the era (0.6.6: V0's worker)."""
    lines = [*UNDATED["index header, EAGLE script"][0]]
    lines[3] = "Running the EAGLE example with a converted head on vLLM 0.6.6, the first request fails:"
    assert_verdict(_verdict(tmp_path, lines), "other", "MultiStepWorker")


# --- a page's copy of its own title is the title -----------------------------------------------

TITLE_COPIES = {
    "issue wiki, a question": [
        "# vllm-project/vllm#14001: [Bug]: Why doesn't EAGLE reuse the target hidden states?",
        "",
        "### Issue 标题",
        "",
        "> [Bug]: Why doesn't EAGLE reuse the target hidden states?",
        "",
        "### Issue 正文摘录",
        "",
        "In the paper the draft predicts hidden states; the KV cache should come from the target"
        " states, not the approximations.",
    ],
    "web copy, heading under the page title": [
        "Title: [Bug]: Does MTP work with pipeline parallel? · Issue #41001 · vllm-project/vllm",
        "",
        "## [Bug]: Does MTP work with pipeline parallel?",
        "",
        "I read the docs and the code and I am not sure the MTP layer is placed on the last stage.",
    ],
}


@pytest.mark.parametrize("name", sorted(TITLE_COPIES))
def test_title_copy_is_no_run_line(tmp_path: Path, name: str) -> None:
    assert_no_path(tmp_path, TITLE_COPIES[name])


def test_a_line_saying_more_than_the_title_counts(tmp_path: Path) -> None:
    """Near miss: a quoted line that adds to the title is the writer's own line."""
    lines = [
        "# vllm-project/vllm#41002: [Bug]: MTP crash on H20",
        "",
        "### Issue 标题",
        "",
        "> [Bug]: MTP crash on H20 with TP8 and 0.11.0",
        "",
        "RuntimeError: CUDA error: an illegal memory access was encountered",
    ]
    assert_verdict(_verdict(tmp_path, lines), "unknown", "EagleProposer")
