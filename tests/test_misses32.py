"""Evidence the linker still missed (session 32, MISSES32).

- A model runner v2 speculator draws its graph-capture progress bar under its own name
  ("Capturing dspark CUDA graphs (FULL):  40%|..."): a stderr that kept the bars alone shows
  that speculator ran, as its capture record naming the speculator would. A name
  whose graph manager several classes share (``eagle``: every autoregressive head, MTP's
  too) decides no class; a bar inside a sentence or one a page tells the reader to expect is
  no run.
"""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import assert_no_path, assert_verdict, probed_path

# --- a speculator's capture progress bar ----------------------------------------------------

_E = "(EngineCore pid=4242)"


def _bars(name: str) -> list[str]:
    return [f"{_E} Model weights in memory after 6.4 s (7.9 GiB)",
            f"{_E} Capturing CUDA graphs (PIECEWISE): 35%|###5      | 7/20 [00:01<00:01,  9.90it/s]",
            f"{_E} Capturing CUDA graphs (FULL): 100%|##########| 20/20 [00:02<00:00,  9.80it/s]",
            f"{_E} Capturing {name} CUDA graphs (FULL):  30%|###       | 6/20 [00:00<00:01, 60.10it/s]"]


def test_a_speculators_own_capture_bar_names_it(tmp_path: Path) -> None:
    assert_verdict(probed_path(tmp_path, _bars("dspark")), "other", "DSparkSpeculator")


def test_a_bar_of_a_graph_manager_shared_by_several_heads_decides_none(tmp_path: Path) -> None:
    path = probed_path(tmp_path, _bars("eagle"))
    assert path.worker_class is None, path  # MTP's head draws the same bar


def test_the_targets_bars_alone_name_no_speculator(tmp_path: Path) -> None:
    assert_no_path(tmp_path, _bars("dspark")[:3])


def test_a_bar_quoted_inside_a_sentence_is_no_run(tmp_path: Path) -> None:
    assert_no_path(tmp_path, ["# Serving notes", "",
                              "On a good start the dspark graphs bar reads `Capturing dspark CUDA graphs (FULL)` then the API opens."])


def test_a_bar_a_page_tells_the_reader_to_expect_is_no_run(tmp_path: Path) -> None:
    assert_no_path(tmp_path, ["## Checking the draft", "", "Once the server is up you should see this bar:", "",
                              f"{_E} Capturing dspark CUDA graphs (FULL):  95%|#########5| 19/20 [00:00<00:00, 80.00it/s]"])
