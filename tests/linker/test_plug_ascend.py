"""vllm-ascend threads whose launch is cut inside a quoted or bare JSON value (session 15, PLUG).

A paste that stops inside ``--additional-config '{"...`` or ``--kv-transfer-config {"kv_...``
never shows the end of its command: its speculative flags may sit below the cut, so the
method the title names for the run counts (the plugin's class by its release). Our own lines,
in the shapes of the plugin's bug threads.
"""

from __future__ import annotations

from pathlib import Path

from tests.real_logs_helpers import assert_verdict, crash_path, run

_PROBE = [
    "Traceback (most recent call last):",
    '  File "serve.py", line 1, in <module>',
    "RuntimeError: engine died",
]


def _thread(title: str, body: list[str]) -> list[str]:
    return [
        "vllm-project/vllm-ascend · issue #70001 · open",
        "labels: bug",
        f"# [Bug]: {title}",
        "",
        "someone · description · 2026-05-02",
        *body,
        "",
        *_PROBE,
    ]


def test_single_quoted_json_cut_leaves_the_title_method(tmp_path: Path) -> None:
    """The launch ends inside a single-quoted --additional-config: MTP in the title gives the
    plugin's MTP classes by release (no release shown: a condition)."""
    lines = _thread(
        "Qwen3-Next accuracy drops with MTP num_speculative_tokens=3",
        [
            "```",
            "export HCCL_BUFFSIZE=512",
            "vllm serve /models/Qwen3-Next-80B \\",
            "  --tensor-parallel-size 4 --quantization ascend \\",
            "  --max-model-len 32768 \\",
            '  --additional-config \'{"ascend_scheduler_config": {"enabled": true}, "torchair',
        ],
    )
    assert_verdict(crash_path(run(tmp_path, lines)), "unknown", "MtpProposer|AscendEagleProposer")


def test_bare_json_cut_with_versions_decides_the_plugin_class(tmp_path: Path) -> None:
    """An unquoted JSON value cut in its middle (a double quote left open), versions given on
    one line joined by a full-width comma: the plugin release's class for MTP."""
    lines = _thread(
        "Kimi-K2.6 w8a8，MTP，偶发输出乱码",
        [
            "### Your current environment",
            "vllm==0.19.1，vllm-ascend==0.19.1rc1",
            "```",
            "vllm serve \\",
            "  --model /data/Kimi-K2.6-w8a8 \\",
            "  --tensor-parallel-size 16 --quantization ascend \\",
            '  --kv-transfer-config {"kv_connector": "MooncakeConnectorV1", "kv_role": "kv_produ',
        ],
    )
    assert_verdict(crash_path(run(tmp_path, lines)), "other", "AscendEagleProposer")


def test_closed_quote_complete_launch_stays_plain(tmp_path: Path) -> None:
    """Never wrong: the whole command is shown (its quote closes) and sets no speculative
    option, so MTP in a sentence about another setup decides nothing."""
    lines = _thread(
        "Qwen3 throughput drops after upgrade",
        [
            "```",
            "vllm serve /models/Qwen3-32B --tensor-parallel-size 4 --quantization ascend "
            '--additional-config \'{"ascend_scheduler_config": {"enabled": true}}\'',
            "```",
            "Our other cluster runs MTP without this problem.",
        ],
    )
    path = crash_path(run(tmp_path, lines))
    assert path.worker_class is None and not path.conditional, path


def _script(release_line: str, model: str) -> list[str]:
    return [
        release_line,
        "```",
        "#!/bin/bash",
        "export HCCL_BUFFSIZE=1024",
        f"vllm serve /mnt/{model} \\",
        "  --tensor-parallel-size 8 --quantization ascend \\",
        "  --max-num-seqs 16 \\",
    ]


def test_bare_heading_release_names_the_old_mtp_class(tmp_path: Path) -> None:
    """A bare version heading over the launch script is the plugin's release: MtpProposer for
    MTP up to v0.15.0rc1."""
    lines = _thread("GLM-4.7 MTP acceptance drops at long context", _script("0.14.0rc1:", "GLM-4.7-w8a8"))
    assert_verdict(crash_path(run(tmp_path, lines)), "other", "MtpProposer")


def test_bold_heading_release_names_the_new_mtp_class(tmp_path: Path) -> None:
    """The same heading in bold, on a release after the plugin folded MTP into its EAGLE
    proposer (v0.16.0rc1): AscendEagleProposer."""
    lines = _thread("Qwen3.5 MTP gives empty tool calls", _script("**v0.18.0rc1**", "Qwen3.5-397B"))
    assert_verdict(crash_path(run(tmp_path, lines)), "other", "AscendEagleProposer")


def test_title_release_tag_with_model_named_mtp_release(tmp_path: Path) -> None:
    """A title's bracketed release tag on the plugin's tracker is its release; on 0.11.0 the
    plugin dispatched MTP by the model's method (deepseek_mtp), still MtpProposer."""
    lines = [
        "vllm-project/vllm-ascend · issue #70002 · closed",
        "# [0.11.0][Bug] DeepSeek-V3.2 MTP hangs with aclgraph on A3",
        "",
        "someone · description · 2025-11-02",
        "The server hangs after the first request with MTP on; log below.",
        "",
        *_PROBE,
    ]
    assert_verdict(crash_path(run(tmp_path, lines)), "other", "MtpProposer")


def test_two_release_headings_decide_no_class(tmp_path: Path) -> None:
    """Never wrong: two headings naming releases on each side of the MTP class change (a run
    on each): the release stays open, so no class is decided."""
    body = _script("0.13.0rc3:", "DeepSeek-V4-w8a8") + ["```", ""] + _script("0.18.0rc1:", "DeepSeek-V4-w8a8")
    path = crash_path(run(tmp_path, _thread("DeepSeek-V4 MTP precision differs between releases", body)))
    assert path.worker_class is None, path


def test_heading_on_vllm_tracker_is_not_the_plugin_release(tmp_path: Path) -> None:
    """Never wrong: a bare version heading in vLLM's own thread (no Ascend) sets no plugin
    release: MTP there is vLLM's EagleProposer, never the plugin's class."""
    lines = [
        "vllm-project/vllm · issue #70003 · open",
        "# [Bug]: Qwen3-Next MTP crashes at startup",
        "",
        "someone · description · 2026-01-05",
        "0.13.0:",
        "```",
        "vllm serve Qwen/Qwen3-Next-80B-A3B-Instruct --tensor-parallel-size 4 \\",
        "  --max-num-seqs 16 \\",
        "",
        *_PROBE,
    ]
    path = crash_path(run(tmp_path, lines))
    assert path.worker_class in (None, "EagleProposer"), path
    assert "MtpProposer" not in (path.conditional or ""), path


def test_section_named_draft_on_ascend_is_the_plugin_class(tmp_path: Path) -> None:
    """A cut launch whose section names its EAGLE-3 draft, on the plugin's v0.18.0rc1: the
    method a sentence states still runs the plugin's proposer (AscendEagleProposer), never
    vLLM's CUDA EagleProposer."""
    lines = _thread(
        "Qwen3-32B EAGLE3 acceptance drops after warmup",
        [
            "**v0.18.0rc1**",
            "Target Qwen3-32B and draft [Qwen3-32B-Eagle3](https://huggingface.co/acme/Qwen3-32B-Eagle3):",
            "```",
            "vllm serve /data/Qwen3-32B \\",
            "  --tensor-parallel-size 4 --quantization ascend \\",
            "  --max-num-seqs 32 \\",
        ],
    )
    path = crash_path(run(tmp_path, lines))
    assert path.worker_class in (None, "AscendEagleProposer"), path
    assert path.worker_class != "EagleProposer", path
