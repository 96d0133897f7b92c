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
