"""vLLM 0.33 sample: the EAGLE-3 drafter fails to load, so the engine core never starts."""

from __future__ import annotations

from datetime import datetime

from logfmt import PYLIB, SITE, Clock, Log, traceback_body, vllm33
from vllm_parts import VL, record

MODEL, DRAFT = "Qwen/Qwen3-32B", "RedHatAI/Qwen3-8B-speculator.eagle3"
WHY = "EAGLE-3 draft hidden size 4096 does not match the target hidden size 5120; the draft was trained for another target model."
INIT_FAILED = "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {'EngineCore': 1}"


def core_init_frames() -> list[tuple[str, int, str, str | None]]:
    core = f"{VL}/v1/engine/core.py"
    return [
        (core, 1039, "run_engine_core", "engine_core = EngineCoreProc(*args, engine_index=dp_rank, **kwargs)"),
        (core, 812, "__init__", "super().__init__("),
        (core, 118, "__init__", "self.model_executor = executor_class(vllm_config)"),
        (f"{VL}/v1/executor/abstract.py", 103, "__init__", "self._init_executor()"),
        (f"{VL}/v1/executor/uniproc_executor.py", 52, "_init_executor", "self.driver_worker.load_model()"),
        (f"{VL}/v1/worker/gpu_worker.py", 290, "load_model", "self.model_runner.load_model(eep_scale_up=eep_scale_up)"),
        (f"{VL}/v1/worker/gpu_model_runner.py", 4120, "load_model", "self.drafter.load_model(self.model)"),
        (f"{VL}/v1/spec_decode/eagle.py", 1187, "load_model", "raise ValueError("),
    ]  # fmt: skip


def api_frames() -> list[tuple[str, int, str, str | None]]:
    return [
        ("/usr/local/bin/vllm", 10, "<module>", "sys.exit(main())"),
        (f"{VL}/entrypoints/cli/main.py", 73, "main", "args.dispatch_function(args)"),
        (f"{VL}/entrypoints/cli/serve.py", 60, "cmd", "uvloop.run(run_server(args))"),
        (f"{SITE}/uvloop/__init__.py", 96, "run", "return __asyncio.run("),
        (f"{VL}/entrypoints/openai/api_server.py", 2014, "run_server", "await run_server_worker(listen_address, sock, args, **uvicorn_kwargs)"),
        (f"{VL}/entrypoints/openai/api_server.py", 2030, "run_server_worker", "async with build_async_engine_client("),
        (f"{VL}/v1/engine/core_client.py", 510, "__init__", "with launch_core_engines(vllm_config, executor_class, log_stats) as ("),
        (f"{PYLIB}/contextlib.py", 144, "__exit__", "next(self.gen)"),
        (f"{VL}/v1/engine/utils.py", 941, "launch_core_engines", "wait_for_engine_startup("),
        (f"{VL}/v1/engine/utils.py", 1022, "wait_for_engine_startup", "raise RuntimeError("),
    ]  # fmt: skip


def vllm_v033() -> tuple[dict[str, bytes], dict]:
    """TP1 (uni executor): the drafter's load_model raises inside EngineCore start-up."""
    log, clock = Log(), Clock(datetime(1900, 3, 14, 10, 21, 30))
    api, core = ("APIServer", 640), ("EngineCore", 812)
    log.add(vllm33(*api, "INFO", clock.now, "api_server.py:1990", "vLLM API server version 0.33.0"))
    log.add(
        vllm33(
            *api,
            "INFO",
            clock.tick(0.01),
            "utils.py:301",
            f"non-default args: {{'model_tag': '{MODEL}', 'model': '{MODEL}', 'speculative_config': {{'method': 'eagle3', 'model': '{DRAFT}', 'num_speculative_tokens': 5}}}}",
        )
    )
    log.add(
        vllm33(
            *core,
            "INFO",
            clock.tick(6.2),
            "core.py:95",
            f"Initializing a V1 LLM engine (v0.33.0) with config: model='{MODEL}', speculative_config=SpeculativeConfig(method='eagle3', model='{DRAFT}', num_spec_tokens=5), tokenizer='{MODEL}', skip_tokenizer_init=False, tokenizer_mode=auto, revision=None, trust_remote_code=False, dtype=torch.bfloat16, max_seq_len=40960, tensor_parallel_size=1, pipeline_parallel_size=1, data_parallel_size=1, enforce_eager=False, kv_cache_dtype=auto, seed=0, served_model_name={MODEL}, enable_prefix_caching=True",
        )
    )
    log.add(
        vllm33(
            *core,
            "INFO",
            clock.tick(2.4),
            "gpu_model_runner.py:3301",
            f"Starting to load model {MODEL}...",
        )
    )
    log.add(
        "Loading safetensors checkpoint shards:   0% Completed | 0/17 [00:00<?, ?it/s]\rLoading safetensors checkpoint shards: 100% Completed | 17/17 [00:21<00:00,  1.24s/it]"
    )
    log.add(
        vllm33(
            *core,
            "INFO",
            clock.tick(22.0),
            "default_loader.py:291",
            "Loading weights took 21.18 seconds",
        )
    )
    log.add(
        vllm33(*core, "INFO", clock.tick(0.3), "eagle.py:1160", f"Loading drafter model {DRAFT}...")
    )
    at = clock.tick(1.7)
    first = log.extend(
        record(
            *core,
            "ERROR",
            at,
            "core.py:1048",
            "\n".join(
                ["EngineCore failed to start."]
                + traceback_body(core_init_frames(), f"ValueError: {WHY}")
            ),
            fmt=vllm33,
        )
    )
    log.add(
        "Process EngineCore:"
    )  # 0.33 no longer wraps stderr: the multiprocessing dump is untagged
    plain = [(f"{PYLIB}/multiprocessing/process.py", 314, "_bootstrap", "self.run()"),
             (f"{PYLIB}/multiprocessing/process.py", 108, "run", "self._target(*self._args, **self._kwargs)"),
             (f"{VL}/v1/engine/core.py", 1052, "run_engine_core", "raise e")] + core_init_frames()  # fmt: skip
    log.extend(traceback_body(plain, f"ValueError: {WHY}"))
    died = log.add(
        vllm33(
            *api,
            "ERROR",
            clock.tick(0.8),
            "utils.py:1019",
            "Process EngineCore (PID: 812) died with exit code 1",
        )
    )
    api_first = log.extend(traceback_body(api_frames(), INIT_FAILED))
    expected = {
        "inputs": ["vllm_serve.log"],
        "expect": [],
        "incidents": [
            {
                "exception_type": "ValueError", "message_contains": "EAGLE-3 draft hidden size 4096", "root_cause": True,
                "origin_rank": "EngineCore", "first_line": first, "worker_path": "other", "worker_class": "EagleProposer",
            },
            {"root_cause": False, "caused_by": 0, "exception_type": "RuntimeError", "message_contains": "Engine core initialization failed", "first_line": api_first},
            {"optional": True, "root_cause": False, "caused_by": 0, "message_contains": "died with exit code 1", "first_line": died},
        ],
        "missing_markers": [],
    }  # fmt: skip
    return {"vllm_serve.log": log.text().encode()}, expected
