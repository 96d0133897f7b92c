"""TensorRT-LLM: rows from a saved listing of its public tree (data/trtllm_index.json).

No release archive of TensorRT-LLM can be had offline here (its wheels live on NVIDIA's own
index, its repository is over the snapshot limit), so the listing records the speculative
folders as the public index holds them: the PyTorch backend's ``_torch/speculative/``, the
ReDrafter model, and the C++ layers, kernels and runtime modules of the engine's speculative
modes. Releases are unknown ("") for every row. Frames in a C++ file and native symbols
(``LookaheadDecodingLayer<float>::forwardAsync``) both name their class: a C++ file's class is
its name in CamelCase, as the tree spells them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from path_tables.common import family_of, pick_class
from path_tables.releases import FileHistory, Release, index_release
from path_tables.rows import FrameRow, MethodRow, SymbolRow

FRAMEWORK = "trtllm"
PACKAGE = ""
LISTING = Path(__file__).resolve().parent / "data" / "trtllm_index.json"
FAMILIES = ("MTP", "EAGLE3", "EAGLE", "NGRAM", "DRAFT_TARGET", "MEDUSA", "LOOKAHEAD", "PARD",
            "DFLASH", "DSPARK", "SUFFIX", "USER_PROVIDED", "SAVE_HIDDEN_STATES",
            "EXPLICIT_DRAFT_TOKENS", "EXTERNAL_DRAFT_TOKENS")
# Words of TensorRT-LLM's own names -> family (SA is its suffix automaton; ReDrafter runs as
# explicit draft tokens; an external drafter feeds draft-target tokens).
_ALIASES = {"SA": "SUFFIX", "SUFFIX_AUTOMATON": "SUFFIX", "REDRAFTER": "EXPLICIT_DRAFT_TOKENS",
            "DRAFT_TOKENS_EXTERNAL": "DRAFT_TARGET", "EXTERNAL_DRAFT_TOKENS": "DRAFT_TARGET",
            "LOOKAHEAD_DECODING": "LOOKAHEAD", "SAVE_STATE": "SAVE_HIDDEN_STATES",
            "DRAFTTARGET": "DRAFT_TARGET", "USERPROVIDED": "USER_PROVIDED", "EAGLE": "EAGLE3",
            "MTP_EAGLE": "MTP", "PLD": "NGRAM"}


def releases(_cache: Path) -> list[Release]:
    return index_release(LISTING, PACKAGE) if LISTING.exists() else []


def frame_scope(rel: str) -> bool:
    return rel.endswith((".py", ".cpp", ".h", ".cu"))


def scope(rel: str) -> bool:
    return frame_scope(rel)


def keep_text(_rel: str) -> bool:
    return False


def _snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).upper()


def family(name: str) -> str:
    """A file, class or mode name -> family (``lookaheadDecodingLayer`` -> LOOKAHEAD)."""
    words = _snake(name).replace(".", "_").split("/")[-1]
    for alias, fam in sorted(_ALIASES.items(), key=lambda kv: -len(kv[0])):
        if words == alias or words.startswith(alias + "_"):
            return fam if fam != "EAGLE3" or alias != "EAGLE" else "EAGLE"
    return family_of(words.lower(), FAMILIES)


def _cpp_class(rel: str) -> str:
    base = rel.rsplit("/", 1)[-1].split(".")[0]
    return base[:1].upper() + base[1:]


def _suffix(rel: str) -> str:
    """From ``_torch/`` / ``models/`` (Python) or ``tensorrt_llm/`` (C++) on."""
    if rel.startswith("cpp/"):
        return rel.removeprefix("cpp/")
    return rel.removeprefix("tensorrt_llm/")


def engine_layers(history: dict[str, FileHistory]) -> dict[str, str]:
    """Family -> its C++ decoding layer, for the families only the TensorRT engine runs: an
    engine speculative_decoding_mode whose family no PyTorch backend mode has (Lookahead,
    Medusa, ReDrafter's explicit draft tokens, the engine's EAGLE-1/2). The engine's buffers,
    modules and algorithm classes of such a family (``LookaheadAlgorithm``,
    ``ExplicitDraftTokensBuffers``) run only under that layer, so they name it."""
    data = json.loads(LISTING.read_text())
    torch = {family(m.removesuffix("_ONE_MODEL")) for m in data["torch_modes"]}
    engine = {family(m) for m in data["engine_modes"]} - torch - {""}
    layers = {}
    for rel in history:
        parts = rel.split("/")
        if rel.startswith("cpp/") and parts[2] == "layers" and _cpp_class(rel).endswith("Layer"):
            if (fam := family(_cpp_class(rel))) in engine:
                layers[fam] = _cpp_class(rel)
    return layers


def _engine_worker(rel: str, fam: str, layers: dict[str, str]) -> str:
    """The decoding layer a C++ file of an engine-only family runs under; the engine EAGLE's
    kernels are left out (the PyTorch backend's EAGLE-3 shares the word and may call them)."""
    if not rel.startswith("cpp/") or fam not in layers:
        return ""
    return "" if fam == "EAGLE" and "/kernels/" in rel else layers[fam]


def frame_rows(history: dict[str, FileHistory]) -> list[tuple[str, FrameRow]]:
    rows = []
    layers = engine_layers(history)
    for rel, entry in sorted(history.items()):
        cpp = rel.startswith("cpp/")
        classes = (_cpp_class(rel),) if cpp and not rel.endswith(".cu") else tuple(sorted(entry.classes))
        fam = family(rel.rsplit("/", 1)[-1].split(".")[0])
        worker = "" if cpp else pick_class(entry.classes, ("Worker", "Drafter"))
        worker = "" if worker in ("Worker", "Drafter") else worker  # an abstract base
        if cpp and rel.split("/")[2] == "layers" and classes[0].endswith("Layer"):
            worker = classes[0]
        role = ("kernel" if "/kernels/" in rel else "worker" if worker else
                "draft_model" if "/models/" in rel else "shared")
        what = (f"TensorRT-LLM {fam or 'speculative'} {'C++ ' if cpp else ''}{role}"
                f"{' ' + worker if worker else ''} ({rel.rsplit('/', 1)[-1]})")
        if not worker and (worker := _engine_worker(rel, fam, layers)):
            what += f", run only under the engine's {worker}"
        rows.append((rel, FrameRow(_suffix(rel), FRAMEWORK, fam, worker, "other" if worker else "",
                                   role, classes, "", False, ("", ""), what, "generated")))
    return rows


def symbol_rows(history: dict[str, FileHistory]) -> list[SymbolRow]:
    """A native symbol naming a speculative C++ class or the speculative kernels' namespace;
    any class of an engine-only family in the runtime namespace (its name opens with the
    family's word: ``tensorrt_llm::runtime::LookaheadDecodingBuffers``) names that family's
    decoding layer."""
    rows = {}
    layers = engine_layers(history)
    for rel in sorted(history):
        if rel.startswith("cpp/") and "/layers/" in rel or "Module" in rel or "Buffers" in rel:
            cls = _cpp_class(rel)
            fam = family(cls)
            if fam:
                worker = cls if cls.endswith("Layer") else _engine_worker(rel, fam, layers)
                rows[cls] = SymbolRow(cls, FRAMEWORK, fam, worker, "other" if worker else "",
                                      f"TensorRT-LLM C++ {cls} ({fam})", "generated")
    for fam, layer in sorted(layers.items()):  # the layers' own classes have rows above
        word = layer.removesuffix("Layer").removesuffix("Decoding")  # LookaheadDecodingLayer -> Lookahead
        pattern = f"tensorrt_llm::runtime::{word}"
        rows[pattern] = SymbolRow(pattern, FRAMEWORK, fam, layer, "other",
                                  f"TensorRT-LLM C++ runtime class of {fam} (runs under {layer})",
                                  "generated")
    rows["speculative_decoding::"] = SymbolRow(
        "speculative_decoding::", FRAMEWORK, "", "", "",
        "TensorRT-LLM speculative-decoding kernels (namespace; family from the kernel name)",
        "generated")
    return [rows[k] for k in sorted(rows)]


def _worker_for(mode: str, classes: set[str], two_model: set[str]) -> str:
    """The class a mode runs on: ModelDrafter for the two-model modes (interface.py's
    has_draft_model), else the class named for the mode (MTP_EAGLE_ONE_MODEL -> MTPEagleWorker)."""
    if mode in two_model:
        return "ModelDrafter" if "ModelDrafter" in classes else ""
    stem = mode.removesuffix("_ONE_MODEL").replace("_", "").lower()
    found = []
    for tail in ("onemodelworker", "worker", "drafter", "decodinglayer", "layer"):
        hit = [c for c in classes if c.lower() == stem + tail]
        if hit and (tail != "onemodelworker" or mode.endswith("_ONE_MODEL")):
            found.append(hit[0])
    # one class, or none: NGRAM has NGramDrafter (ngram.py) and, later, NGramWorker
    # (ngram_worker.py, drafting inside the forward): which release switched is not read
    return found[0] if len(found) == 1 else ""


def method_rows(history: dict[str, FileHistory]) -> list[MethodRow]:
    data = json.loads(LISTING.read_text())
    classes = {c for e in history.values() for c in e.classes}
    classes |= {_cpp_class(rel) for rel in history if rel.startswith("cpp/")}
    classes.add("ExternalDraftTokensLayer" if "ExternalDraftTokensLayer" in classes else "")
    two_model = set(data["two_model_modes"])
    engine_only = data.get("engine_only_types", {})
    rows = []
    for value in data["decoding_types"]:
        fam = family(value)
        # a config only the TensorRT engine backend accepts runs that engine mode's layer
        mode = engine_only.get(value)
        worker = _worker_for(mode, classes, set()) if mode else ""
        what = f"TensorRT-LLM speculative_config decoding_type: {value}"
        what += f" (TensorRT engine backend only: {mode})" if mode else ""
        rows.append(MethodRow(FRAMEWORK, value, fam, worker, "other" if worker else "", ("", ""),
                              what, "generated"))
    for kind, key in (("PyTorch backend SpeculativeDecodingMode", "torch_modes"),
                      ("engine speculative_decoding_mode", "engine_modes")):
        for mode in data[key]:
            worker = _worker_for(mode if mode != "DRAFT_TOKENS_EXTERNAL" else "EXTERNAL_DRAFT_TOKENS",
                                 classes, two_model if key == "torch_modes" else set())
            rows.append(MethodRow(FRAMEWORK, mode, family(mode.removesuffix("_ONE_MODEL")), worker,
                                  "other" if worker else "", ("", ""),
                                  f"TensorRT-LLM {kind} {mode}", "generated"))
    return _dedupe(rows)


def _dedupe(rows: list[MethodRow]) -> list[MethodRow]:
    """One row per value (a mode named by both enums keeps the one naming a worker)."""
    best: dict[str, MethodRow] = {}
    for row in rows:
        if row.value not in best or (row.worker and not best[row.value].worker):
            best[row.value] = row
    return [best[v] for v in sorted(best)]
