"""SGLang start-up refusal: spec v2 switched on with topk 4 (the seed story's next trap)."""

from __future__ import annotations

from logfmt import SITE, Log, traceback_body
from sglang_parts import SG, V2_ON
from stories_sglang import QWEN, QWEN_DRAFT

REFUSAL = "ValueError: Spec v2 currently only supports topk = 1 for speculative decoding."
SA = f"{SG}/server_args.py"
# fmt: off
FRAMES = [
    ("<frozen runpy>", 198, "_run_module_as_main", None),
    ("<frozen runpy>", 88, "_run_code", None),
    (f"{SITE}/sglang/launch_server.py", 29, "<module>", "server_args = prepare_server_args(sys.argv[1:])"),
    (SA, 4012, "prepare_server_args", "return ServerArgs.from_cli_args(raw_args)"),
    (SA, 3650, "from_cli_args", "return cls(**{attr: getattr(args, attr) for attr in attrs})"),
    ("<string>", 330, "__init__", None),
    (SA, 702, "__post_init__", "self._handle_speculative_decoding()"),
    (SA, 1835, "_handle_speculative_decoding", "raise ValueError("),
]
# fmt: on


def v2_topk_rejected() -> tuple[dict[str, bytes], dict]:
    """__post_init__ prints the v2 warning, then raises before logging or the dump exist."""
    log = Log()
    log.add(
        f"SGLANG_ENABLE_SPEC_V2=True python3 -m sglang.launch_server --model-path {QWEN} --tp-size 8 "
        f"--speculative-algorithm EAGLE3 --speculative-draft-model-path {QWEN_DRAFT} "
        "--speculative-num-steps 3 --speculative-eagle-topk 4 --speculative-num-draft-tokens 16 "
        "--speculative-disable-batch-threshold 8"
    )
    log.add(V2_ON)
    first = log.extend(traceback_body(FRAMES, REFUSAL))
    expected = {
        "inputs": ["server.log"],
        "expect": [],
        "incidents": [
            {"exception_type": "ValueError", "message_contains": "Spec v2 currently only supports topk = 1",
             "root_cause": True, "origin_rank": None, "first_line": first},
        ],
        "missing_markers": [],
        "config": {"speculative_eagle_topk": 4, "SGLANG_ENABLE_SPEC_V2": True},
    }  # fmt: skip
    return {"server.log": log.text().encode()}, expected
