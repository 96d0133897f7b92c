"""The literals the pipeline pre-filters config lines on: every line the config collector
(config.py) can use contains one, so a line holding none is never read. Each reader's own
literals come from its module; the collector's branch literals are listed here."""

from __future__ import annotations

from spectrace.assemblers.ascend_release import HEADING_LITERALS
from spectrace.assemblers.post_dates import POST_DATE_LITERALS
from spectrace.assemblers.pyconfig import SGLANG_ARGS_LITERALS
from spectrace.assemblers.image_tags import literals as image_literals
from spectrace.assemblers.mtp_models import literals as mtp_literals
from spectrace.assemblers.not_run import LIVE_FIELDS
from spectrace.assemblers.quotes import PLAIN_RUN_LITERALS
from spectrace.assemblers.sglang_kwargs import KWARG_LITERALS
from spectrace.assemblers.sglang_version import VERSION_LITERALS
from spectrace.assemblers.spec_prose import PROSE_LITERALS
from spectrace.assemblers.thread_title import TITLE_LITERALS
from spectrace.assemblers.trtllm_config import LITERALS as TRTLLM_LITERALS
from spectrace.assemblers.trtllm_runners import literals as runner_literals
from spectrace.assemblers.vllm_config import (
    ASCEND_LITERALS,
    PROSE_VERSION_LITERALS,
    SPEC_LINE_LITERALS,
)
from spectrace.assemblers.vllm_finish import SPEC_RECORD_LITERALS
from spectrace.assemblers.vllm_methods import GEMMA4_LITERALS
from spectrace.assemblers.volumes import VOLUME_LITERALS
from spectrace.assemblers.written_days import WRITTEN_DAY_LITERALS

CONFIG_LITERALS: tuple[bytes, ...] = (
    b"server_args=",
    b"speculative_config",
    *SPEC_LINE_LITERALS,
    *GEMMA4_LITERALS,  # a Gemma-4 checkpoint's name (vllm_finish: its MTP is its assistant head's)
    *mtp_literals(),  # a model with MTP layers of its own (vllm_finish: a run of it speculating)
    *SPEC_RECORD_LITERALS,  # vLLM's bench and counter records of a speculating run (vllm_finish)
    *VOLUME_LITERALS,  # a launch's volume option: where a container path's checkpoint lies
    *PLAIN_RUN_LITERALS,  # a reply's writer setting their run apart from a quoted one
    b"Overlap scheduler",
    b"overlap schedule",
    b"overlap scheduler",
    b"Turn off overlap",  # an older release's pipeline-parallel notice ("overlap scheule")
    b"Spec v",
    b"spec v2",
    b"SGLANG_ENABLE_SPEC_V2",
    b"non-default args",
    b"args: Namespace(",
    b"with config:",
    b"python -m sglang",
    b"sglang.launch_server",
    b"sglang_router.launch_server",  # the router co-launching servers, Dynamo's worker, benchmarks
    b"dynamo.sglang",
    b"sglang.bench_",
    b"sglang serve",
    b" serve ",  # another engine's command word (launch_words): the flag lines below are its
    b".launch_server",
    b".api_server",
    b"--speculative",
    b"_speculative_tokens",  # the flag lines of a launch command split over lines
    b"-speculative-tokens",
    b"--tensor-parallel-size",
    b"--tensor_parallel_size",
    b"--tp",
    b"--dp",
    b"--disable-overlap",
    b"--enable-multi-layer-eagle",  # the multi-layer EAGLE workers' flag, in a sentence or table too
    b"--enable-dp-attention",
    b"vllm serve",
    b"vllm.entrypoints",
    b"benchmark_latency.py",  # vLLM's offline benchmarks take the engine's own flags
    b"benchmark_throughput.py",
    b"vllm bench ",
    b"trtllm-serve",
    b"- vllm",  # YAML list items: command: [- vllm, - serve], k8s/compose
    b"- sglang",
    b'"serve"',  # inline lists: command: ["vllm", "serve"]
    b"'serve'",
    # a command folded in a block scalar: the key above its lines (not_run reads a saved YAML
    # file by every key it keeps, ``server_cmd: >`` included)
    b"command: >", b"command: |", b"args: >", b"args: |", b"cmd: >", b"cmd: |",
    *(f.encode() + b":" for f in LIVE_FIELDS),  # a live object's status beside its manifest
    b"vllm/vllm-openai",  # docker run IMAGE --flags: the image's entry point is the server
    b"vllm/engine/arg_utils.py",  # a crash while vLLM builds its config: no proposer yet
    b"error: unrecognized arguments",
    *HEADING_LITERALS,  # a vllm-ascend thread's bare release heading (ascend_release)
    b"ArcticInference",  # a plugin patching vLLM's speculative path (vllm_config.patching_plugin)
    b"arctic_inference",
    b"arctic-inference",
    b"Dynamic speculation",
    b"Capture cuda graph bs",
    b"Capturing batches (bs=",
    b"Capture cuda graph end",
    b"Load weight end",  # a draft model's load line (config.draft_loaded)
    b"_method=",  # a launcher's key=value record of its job (kv_record)
    b"num_speculative_tokens=",
    b'_method": "',  # the same record as JSON or YAML key lines (kv_record)
    b"_method: ",
    b'num_speculative_tokens": ',
    b"num_speculative_tokens: ",
    b"Capture draft",  # the EAGLE-type worker's draft graph capture
    b"Beta spec",
    b"vLLM API server version",
    *ASCEND_LITERALS,
    *PROSE_VERSION_LITERALS,
    b"speculative_model=",
    b"speculative_model =",
    *SGLANG_ARGS_LITERALS,
    *VERSION_LITERALS,
    *(name.encode() + b":" for name in image_literals()),  # an engine image's tag (images.toml)
    b"image to ", b"image: ", b"Image: ",  # an engine's image named in words with its tag
    b"export SGLANG_", b"-e SGLANG_", b"--env SGLANG_",  # a shell setting SGLang's variables
    *TRTLLM_LITERALS,
    *runner_literals(),  # programs that run TensorRT-LLM (Dynamo, Triton), its engine YAML keys
    *PROSE_LITERALS,
    *KWARG_LITERALS,
    *POST_DATE_LITERALS,  # a post's header: its day bounds the release
    *WRITTEN_DAY_LITERALS,  # a writer's own day ("As of today (July 3, 2025)"): bounds it too
    *TITLE_LITERALS,  # a thread's title (thread_title)
    b"peculat",  # a text speaking of speculation: a plain command in it is no "none"
    b"spec decod",
    b"draft model",
    "投机".encode(),
    *(word.encode() for word in ("投機", "推測デコード", "추측 디코딩", "추론 디코딩")),  # ja, ko
    b"<summary>", b"eviewer:", b"aintainer:", b"for comparison", b"works for", b"example:",
    b"uggested", b"not what I", b"please try",
    b"instead:", b"instead for",  # a caption over someone else's or a suggested command
    b"deally", b"would like", b"would love", b"would be nice", b"one would",  # a wished-for
    b"roposed", b"roposal",  # command ("Ideally one would just run:", "Proposed usage:")
    b"omitted", b"truncated", b"trimmed", b"snip", b"redacted", b"elided", b"rest of the",  # cut
    b"MTP",  # "TP8+MTP launch cmd:" over a command cut before its flags (the other names are prose's)
    # a pull request showing an issue's run (config_release._ISSUE_REPRO)
    b"ixes #", b"ixed #", b"loses #", b"esolves #", b"eported ", b"reporter", b"the issue",
    b"original issue", b"ssue #",
)
