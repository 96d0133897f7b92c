"""Generate spectrace's path knowledge tables, rules/paths/<framework>.toml, from the
frameworks' own release trees (the schema is in docs/linking.md, "Path knowledge tables").

    python tools/gen_path_tables.py fetch [--cache DIR]      # once: pip wheels -> slim zips
    python tools/gen_path_tables.py build [--cache DIR] [--out rules/paths] [--only sglang]

``build`` runs offline and deterministically from the cache (slim release zips, the bare
vllm-ascend mirror: ``<cache>/vllm_ascend.git`` or where ``fetch`` put it, the saved
TensorRT-LLM index listing, the saved index pages that date each release for
``published.toml``) and prints a summary: files,
classes and releases per framework. Why generated: a log nobody here has seen still lands on
a known frame when every file and class of the speculative folders, across releases, is in
the table, not only the files someone happened to meet in a sample.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from path_tables import frameworks, published  # noqa: E402
from path_tables.merge import latest, merge  # noqa: E402
from path_tables.rows import render  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CACHE = Path("/work/.cache/spec_releases")
MANIFEST = ROOT / "tests" / "fixtures" / "path_tables_latest.json"


def build(cache: Path, out: Path, only: list[str], manifest_path: Path = MANIFEST) -> int:
    """Write each framework's table and the latest-release manifest the tests check."""
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    for spec in frameworks.SPECS:
        if only and spec.name not in only:
            continue
        releases = spec.releases(cache)
        if not releases:
            print(f"{spec.name}: no releases under {cache} (run fetch): skipped", file=sys.stderr)
            continue
        result = spec.build(releases)
        frames = merge(spec.name, result.frames)
        header = spec.header(releases)
        (out / f"{spec.name}.toml").write_text(
            render(header, frames, result.symbols, result.methods))
        newest = releases[-1].tag
        manifest[spec.name] = {"release": newest, "files": result.latest_files,
                               "releases": [r.tag for r in releases]}
        classes = {c for r in frames for c in r.classes}
        print(f"{spec.name}: {len(releases)} releases ({releases[0].tag}..{newest}), "
              f"{len(frames)} frame rows ({sum(r.source == 'hand' for r in frames)} hand), "
              f"{len(result.latest_files)} files at {newest}, {len(classes)} classes, "
              f"{len(result.symbols)} symbols, {len(result.methods)} methods; "
              f"latest in table {latest(frames)}")
    if not only or "vllm_plugins" in only:
        header, frames, methods, entries = frameworks.build_plugins(cache, out / "vllm_plugins.toml", manifest)
        (out / "vllm_plugins.toml").write_text(render(header, frames, [], methods))
        manifest.update(entries)
        print(f"vllm_plugins: {len(frames)} frame rows, {len(methods)} methods: "
              + ", ".join(f"{k} {v['releases'][0]}..{v['release']}" for k, v in entries.items()))
    manifest_path.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    if not only or "published" in only:
        rows = published.build(cache, frameworks.ascend_mirror(cache), out / "published.toml")
        print(f"published: {rows}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=("fetch", "build"))
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--out", type=Path, default=ROOT / "rules" / "paths")
    parser.add_argument("--only", action="append", default=[])
    parser.add_argument("--manifest", type=Path, default=MANIFEST)
    args = parser.parse_args(argv)
    if args.command == "fetch":
        return frameworks.fetch_all(args.cache, args.only)
    args.out.mkdir(parents=True, exist_ok=True)
    return build(args.cache, args.out, args.only, args.manifest)


if __name__ == "__main__":
    raise SystemExit(main())
