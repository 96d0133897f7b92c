"""Where SGLang users paste their server arguments besides a shell command: the Python argument
lists of SGLang's own tests and CI, a ServerArgs call or repr, a ``--config`` YAML file, env
switches set from Python; and flags a question only asks about, which are not the run's."""

from __future__ import annotations

import pytest

from spectrace.assemblers.config import ConfigCollector
from spectrace.assemblers.run_config import RunConfig
from spectrace.dialects.base import LogLine


def _config(*texts: str) -> RunConfig:
    collector = ConfigCollector()
    for n, text in enumerate(texts, 1):
        collector.feed(LogLine("ci.log", n, 0, text, text, "plain", ""))
    return collector.result()


def _decided(config: RunConfig) -> list[tuple[str | None, str | None]]:
    return [(e.points_to, e.worker_class) for e in config.path_evidence if e.points_to]


def test_a_test_argument_list_one_item_a_line_is_the_launch() -> None:
    config = _config(
        "    proc = popen_launch_server(",
        "        model, base_url,",
        "        other_args=[",
        '            "--speculative-algorithm",',
        '            "STANDALONE",',
        '            "--speculative-draft-model-path",',
        '            "tiny/draft",',
        '            "--speculative-num-steps",',
        "            4,",
        "        ],",
        "    )",
    )
    algo = config.flags["speculative_algorithm"]
    assert (algo.value, algo.lineno, algo.origin) == ("STANDALONE", 4, "launch_command")
    assert config.flags["speculative_num_steps"].value == 4
    (evidence,) = [e for e in config.path_evidence if e.condition]
    assert "StandaloneWorker" in evidence.condition  # no release: the era's condition


def test_an_inline_argument_list_with_a_release_decides() -> None:
    config = _config(
        "sglang 0.5.2",
        'p = popen_launch_server(m, u, other_args=["--speculative-algorithm", "EAGLE3", '
        '"--speculative-eagle-topk", "1", "--speculative-draft-model-path", DRAFT])',
    )
    assert config.flags["speculative_eagle_topk"].value == 1
    assert _decided(config) == [("v1", "EAGLEWorker")]


def test_the_list_ends_at_its_closing_bracket() -> None:
    config = _config(
        '    args = ["--speculative-algorithm", "NGRAM",',
        '            "--speculative-num-draft-tokens", "8"]',
        '    print("--tp is not set", flush=True)',
    )
    assert config.flags["speculative_num_draft_tokens"].value == 8
    assert "tp_size" not in config.flags


@pytest.mark.parametrize(
    "text",
    [
        'args = ServerArgs(model_path="tiny/t", speculative_algorithm="EAGLE3", speculative_eagle_topk=1)',
        "speculative-algorithm: EAGLE3",  # a --config YAML file, one key a line
        "  speculative_algorithm: 'eagle3'   # the head we trained",
    ],
)
def test_keywords_and_yaml_keys_are_launch_flags(text: str) -> None:
    config = _config("sglang==0.5.3", text)
    flag = config.flags["speculative_algorithm"]
    assert (flag.value, flag.origin) == ("EAGLE3", "launch_command")
    assert _decided(config) == [("v1", "EAGLEWorker")]


def test_yaml_keys_read_with_their_types() -> None:
    config = _config(
        "speculative-algorithm: EAGLE",
        "speculative-eagle-topk: 1",
        "disable-overlap-schedule: true",
    )
    assert config.flags["speculative_eagle_topk"].value == 1
    assert config.flags["disable_overlap_schedule"].value is True


def test_a_repr_without_its_prefix_is_the_dump() -> None:
    config = _config(
        "ServerArgs(model_path='tiny/t', tokenizer_path='tiny/t', tp_size=2, "
        "speculative_algorithm='NGRAM', disable_overlap_schedule=True)"
    )
    assert config.flags["speculative_algorithm"].origin == "server_args"
    assert _decided(config) == [("other", "NGRAMWorker")]


@pytest.mark.parametrize(
    "setting",
    [
        'os.environ["SGLANG_ENABLE_SPEC_V2"] = "1"',
        'monkeypatch.setenv("SGLANG_ENABLE_SPEC_V2", "true")',
        "with envs.SGLANG_ENABLE_SPEC_V2.override(True):",
    ],
)
def test_the_switch_set_from_python(setting: str) -> None:
    config = _config(
        setting, 'engine = sgl.Engine(model_path="tiny/t", speculative_algorithm="EAGLE")'
    )
    assert config.flags["SGLANG_ENABLE_SPEC_V2"].value is True
    assert _decided(config) == [("v2", "EAGLEWorkerV2")]


@pytest.mark.parametrize(
    "question",
    [
        "Should I use `--speculative-algorithm EAGLE` for this model? We are on sglang 0.5.2.",
        "Would it help to add --speculative-algorithm NGRAM here? sglang 0.5.2",
        "Have you tried `--speculative-algorithm STANDALONE`? (sglang 0.5.2)",
        "Maybe try python -m sglang.launch_server --speculative-algorithm EAGLE3 on sglang 0.5.2",
    ],
)
def test_a_flag_a_question_asks_about_names_no_worker(question: str) -> None:
    config = _config(question)
    assert "speculative_algorithm" not in config.flags
    assert not any(e.worker_class or e.condition for e in config.path_evidence)


def test_a_reproduction_line_stays_the_runs_command() -> None:
    config = _config(
        "sglang 0.5.2",
        "You can reproduce it with `python -m sglang.launch_server --speculative-algorithm EAGLE3`",
    )
    assert _decided(config) == [("v1", "EAGLEWorker")]


def test_a_dict_of_server_args_one_member_a_line() -> None:
    config = _config(
        "engine_kwargs = {",
        '    "model_path": "tiny/t",',
        '    "speculative_algorithm": "NGRAM",',
        '    "speculative_num_draft_tokens": 8,',
        "}",
        "llm = sgl.Engine(**engine_kwargs)",
    )
    assert config.flags["speculative_num_draft_tokens"].value == 8
    assert _decided(config) == [("other", "NGRAMWorker")]


def test_a_failing_sglang_test_names_its_family_and_both_settings() -> None:
    config = _config("FAILED test/srt/test_eagle_infer_b.py::TestEAGLEServer::test_abort - boom")
    (evidence,) = [e for e in config.path_evidence if e.condition]
    assert evidence.condition.startswith(
        "v2 (EAGLEWorkerV2) if the test sets SGLANG_ENABLE_SPEC_V2=1"
    )
    assert "v1 (EAGLEWorker)" in evidence.condition and evidence.worker_class is None


def test_a_test_of_a_v1_only_release_decides() -> None:
    config = _config("sglang==0.5.2", "ERROR test/srt/test_standalone_speculative_decoding.py")
    assert _decided(config) == [("v1", "StandaloneWorker")]


def test_another_frameworks_test_names_nothing() -> None:
    config = _config("FAILED tests/v1/e2e/test_eagle_heads.py::TestEagleHead::test_x - boom")
    assert config.path_evidence == []


@pytest.mark.parametrize(
    "entry",
    [
        "python -m sglang_router.launch_server",  # the router co-launching SGLang servers
        "python3 -m dynamo.sglang",  # Dynamo's SGLang worker takes SGLang's server args
        "python -m sglang.bench_offline_throughput",
    ],
)
def test_other_entry_points_that_parse_sglangs_server_args(entry: str) -> None:
    config = _config(
        "sglang==0.5.2", f"{entry} --model-path tiny/t --speculative-algo EAGLE3 --tp 2"
    )
    assert config.flags["speculative_algorithm"].origin == "launch_command"
    assert config.flags["tp_size"].value == 2
    assert _decided(config) == [("v1", "EAGLEWorker")]


def test_an_rl_trainers_override_of_the_rollout_engine_args() -> None:
    config = _config(
        "sglang==0.5.2",
        "python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.name=sglang "
        "+actor_rollout_ref.rollout.engine_kwargs.sglang.speculative_algorithm=NGRAM",
    )
    assert config.flags["speculative_algorithm"].value == "NGRAM"
    assert _decided(config) == [("other", "NGRAMWorker")]
