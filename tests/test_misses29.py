"""Evidence the readers had but did not read as one run's (session 29, MISSES29).

- vLLM logs one start-up as: the API server's arguments, the target's ``Resolved architecture``,
  the draft's ``Resolved architecture`` (SpeculativeConfig building the draft's ModelConfig),
  then the engine core's config record. The draft's architecture is the draft of the method its
  start-up states, not a second run with a method of its own (a DSpark run's draft resolves to
  the checkpoint's MTP model).
- A launch written as a two-column table of options and values (``| `--speculative-algorithm`
  | `EAGLE` |``) sets those options; a table of more columns, of defaults or of descriptions
  sets none.
"""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import assert_no_path, assert_verdict, probed_path

from spectrace.assemblers.launch_table import table_row

# --- a draft's architecture record is its start-up's draft --------------------------------

_ARGS = ("(APIServer pid=3) INFO 10-02 09:00:00 [api_utils.py:273] non-default args: {'model': "
         "'acme/dsv4-mini', 'speculative_config': {'method': 'dspark', 'num_speculative_tokens': 2}}")  # fmt: skip
_TARGET = "(APIServer pid=3) INFO 10-02 09:00:04 [model.py:619] Resolved architecture: DeepseekV4ForCausalLM"
_DRAFT = "(APIServer pid=3) INFO 10-02 09:00:05 [model.py:619] Resolved architecture: DeepSeekV4MTPModel"
_ENGINE = ("(EngineCore pid=40) INFO 10-02 09:00:11 [core.py:114] Initializing a V1 LLM engine "
           "(v0.25.2.dev0+g1234567) with config: model='acme/dsv4-mini', speculative_config="
           "SpeculativeConfig(method='dspark', model='acme/dsv4-mini', num_spec_tokens=2)")  # fmt: skip
_MRV2 = "(Worker pid=41) INFO 10-02 09:00:14 [gpu_worker.py:360] Using V2 Model Runner"
_BANNER = "(APIServer pid=3) INFO 10-02 09:00:00 [api_server.py:1000] vLLM API server version 0.25.2.dev0+g1234567"
_NGRAM_ARGS = _ARGS.replace("'dspark'", "'ngram'").replace("09:00:00", "11:30:00")


def _bare(line: str) -> str:
    """The same record with no process tag (an offline ``LLM()`` run, or a one-process log)."""
    return line.split(") ", 1)[1]


def test_the_draft_architecture_of_a_stated_start_up_is_its_draft(tmp_path: Path) -> None:
    forms = (
        [_BANNER, _ARGS, _TARGET, _DRAFT, _ENGINE, _MRV2],  # the whole start-up
        [_BANNER, _ARGS, _TARGET, _DRAFT],  # it died before the engine core started
        [_bare(x) for x in (_TARGET, _DRAFT, _ENGINE, _MRV2)],  # offline: no arguments record
    )
    for i, lines in enumerate(forms):
        (tmp_path / str(i)).mkdir()
        assert_verdict(probed_path(tmp_path / str(i), lines), "other", "DSparkSpeculator")


def test_a_draft_architecture_of_another_start_up_still_shows_another_run(tmp_path: Path) -> None:
    forms = (
        # a second start-up (new arguments) whose own draft is read as a method of its own
        [_ARGS, _TARGET, _DRAFT, _ENGINE, _NGRAM_ARGS, _TARGET, _DRAFT],
        # ngram loads no draft model: an MTP architecture beside it is no draft of that run
        [_NGRAM_ARGS, _TARGET, _DRAFT],
    )
    for i, lines in enumerate(forms):
        (tmp_path / str(i)).mkdir()
        path = probed_path(tmp_path / str(i), lines)
        assert path.worker_class is None and "several runs" in (path.conditional or ""), path


def test_a_draft_architecture_of_the_stated_family_still_names_its_class(tmp_path: Path) -> None:
    # vLLM runs method mtp on Gemma4Proposer where the draft's model type is Gemma 4's MTP head:
    # the architecture refines the stated method, so its class stays among the open ones
    args = ("(APIServer pid=5) INFO 10-02 09:00:00 [utils.py:273] non-default args: {'model': "
            "'google/gemma-4-31b-it', 'speculative_config': {'method': 'mtp', 'num_speculative_tokens': 3}}")
    lines = ["(APIServer pid=5) INFO 10-02 09:00:00 [api_server.py:1000] vLLM API server version 0.22.0",
             args, _TARGET.replace("DeepseekV4ForCausalLM", "Gemma4ForConditionalGeneration"),
             _DRAFT.replace("DeepSeekV4MTPModel", "Gemma4MTPModel")]  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert "Gemma4Proposer" in (path.conditional or path.worker_class or ""), path


def test_a_draft_architecture_two_methods_load_alone_is_a_condition_over_both(tmp_path: Path) -> None:
    # a DeepSeek-V4 target's MTP layers resolve to DeepSeekV4MTPModel for method mtp and for
    # method dspark alike: with no record stating the method, neither is pinned
    engine = "(EngineCore pid=40) INFO 10-02 09:00:11 [core.py:121] Initializing a V1 LLM engine ..."
    forms = ([_BANNER, _TARGET, _DRAFT, engine], [_bare(x) for x in (_BANNER, _TARGET, _DRAFT)])
    for i, lines in enumerate(forms):
        (tmp_path / str(i)).mkdir()
        path = probed_path(tmp_path / str(i), lines)
        assert path.worker_class is None and "DSparkSpeculator" in (path.conditional or ""), path
    (tmp_path / "stated").mkdir()  # a record stating mtp pins it
    stated = _ARGS.replace("'dspark'", "'mtp'")
    path = probed_path(tmp_path / "stated", [_BANNER, stated, _TARGET, _DRAFT])
    named = path.worker_class or path.conditional or ""
    assert "Speculator" in named or "Proposer" in named, path
    assert "DSpark" not in named, path


# --- a table of options and values --------------------------------------------------------


def test_a_two_column_table_of_options_is_the_launch(tmp_path: Path) -> None:
    forms = (
        (["# Runtime for the 8-GPU MiMo node", "", "| Setting | Value |", "|---|---|",
          "| `--tp-size` | `8` |", "| `--enable-multi-layer-eagle` | enabled |",
          "| `--speculative-algorithm` | `EAGLE` |", "| `--speculative-num-steps` | `3` |",
          "| `--speculative-eagle-topk` | `1` |", "| `--page-size` | `64` |", "",
          "With a page size of one the server stopped at start-up:", "",
          "ValueError: the attention backend wants page_size=64, got 1"],
         "unknown", "MultiLayerEagleWorker|MultiLayerEagleWorkerV2"),
        (["Deployment record for host gpu-07 (sglang 0.5.9)", "",
          "  | flag | value |", "  | :--- | :--- |", "  | **--model-path** | Qwen/Qwen3-32B |",
          "  | **--speculative-algorithm** | NGRAM |", "  | **--speculative-num-draft-tokens** | 8 |",
          "  | **--tp** | 4 |", "", "The scheduler went down on the third request."],
         "other", "NGRAMWorker"),
        (["We started the box yesterday with:", "", "| Option | Setting |", "|--------|---------|",
          "| --model | acme/llama-8b |", "| --tensor-parallel-size | 2 |",
          '| --speculative-config | {"method": "eagle3", "model": "acme/eagle3-8b", '
          '"num_speculative_tokens": 3} |', "| --max-model-len | 8192 |", "", "Ten minutes later the engine died:",
          "ERROR 03-02 10:11:12 [core.py:400] EngineCore failed"],
         "other", "EagleProposer"),
    )
    for i, (lines, value, classes) in enumerate(forms):
        (tmp_path / str(i)).mkdir()
        assert_verdict(probed_path(tmp_path / str(i), lines), value, classes)


def test_tables_that_document_or_compare_options_set_none(tmp_path: Path) -> None:
    forms = (
        ["# Server arguments", "", "## Speculative decoding", "", "| Argument | Default |", "|---|---|",
         "| `--speculative-algorithm` | `None` |", "| `--speculative-num-steps` | `None` |",
         "| `--enable-multi-layer-eagle` | `False` |", "", "## Parallelism", "",
         "| Argument | Default |", "|---|---|", "| `--tp-size` | `1` |"],
        ["## Flags", "", "| Flag | What it does |", "|---|---|",
         "| `--speculative-algorithm` | Which drafting algorithm the server runs. |",
         "| `--speculative-num-steps` | How many draft steps come before each verify. |"],
        ["# Tuning EAGLE-3 on SGLang", "", "## Settings", "", "| Parameter | Value |", "| --- | --- |",
         "| `--speculative-algorithm` | `EAGLE3` |", "| `--speculative-num-steps` | `2` |",
         "| `--speculative-eagle-topk` | `4` |", "", "## Tips", "",
         "Raise topk for long prompts and lower the steps as the batch grows."],
        # a lesson's summary: two option rows among other settings, then steps to follow
        ["# Lesson 3: a drafter on one GPU", "", "| Part | Setting |", "|---|---|",
         "| Target | `/models/acme-12b` |", "| `--speculative-config` | "
         '`{"method":"dspark","model":"/models/acme-dspark","num_speculative_tokens":7}` |',
         "| `--tensor-parallel-size` | `1` |", "| Service | `acme-spec`, port `8000` |", "",
         "## Step 1: deploy", "", "kubectl apply -f serve.yaml", "", "## Step 2: measure", "",
         "kubectl logs deploy/acme-spec | grep 'Mean acceptance length'"],
    )
    for i, lines in enumerate(forms):
        (tmp_path / str(i)).mkdir()
        assert_no_path(tmp_path / str(i), lines)


def test_a_table_row_is_two_cells_an_option_then_one_value() -> None:
    assert table_row("| `--speculative-num-steps` | `3` |") == ("--speculative-num-steps", "3")
    assert table_row("`--page-size` | `64` |") == ("--page-size", "64")  # a peeled row
    assert table_row("| SGLANG_ENABLE_SPEC_V2 | 1 |") == ("SGLANG_ENABLE_SPEC_V2", "1")
    assert table_row("| steps | `--speculative-num-steps 3` | n/a |") is None  # three columns
    assert table_row("| Setting | Value |") is None  # the header
    assert table_row("a | b") is None
