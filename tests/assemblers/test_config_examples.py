"""A config a text gives as an example (``e.g.``, ``for example``, ``such as``) is one way to
meet a bug's conditions, not the run's config: the family it names may stand, never a class.
Code that only tests for a class (``isinstance``) or imports it names no class either."""

from __future__ import annotations

import pytest
from asm_helpers import collect_config as collect

from spectrace.linker import global_worker_path
from spectrace.path_mentions import class_names

FLAG = "`--speculative-config '{\"method\": \"ngram\", \"num_speculative_tokens\": 3}'`"


@pytest.mark.parametrize(
    "line",
    [f"- spec decode turned on (e.g., {FLAG})",
     f"It fails with any drafter, for example {FLAG} on two ranks",
     f"a proposer such as {FLAG} is enough to see it"],
)  # fmt: skip
def test_a_config_given_as_an_example_names_the_family_and_no_class(line: str) -> None:
    path = global_worker_path(collect(line, "- pipeline parallel size 2"))
    assert path.worker_class is None and path.value != "other"
    assert path.family == "NGRAM"


def test_the_same_config_stated_as_the_run_still_decides() -> None:
    path = global_worker_path(collect(f"I start the server with {FLAG} and it crashes"))
    assert path.worker_class == "NgramProposer"


def test_a_type_test_or_import_of_a_class_is_not_a_mention_of_what_ran() -> None:
    assert class_names("    if isinstance(self.drafter, EagleProposer):") == []
    assert class_names("from vllm.v1.spec_decode.eagle import EagleProposer") == []
    assert [name for name, _sig in class_names("my run crashed inside EagleProposer")] == [
        "EagleProposer"
    ]
