"""Fleet scale: the per-file scan mapped over local processes or a Ray cluster, merged as one.

The map step is ``tasks.scan_task`` (a file, or a line-aligned range of a big one, plus the
picklable rules and markers -> a picklable ``ScanResult``); every mapper returns the results in
input order, so ``pipeline.analyse`` merges them exactly as it merges a one-process scan.
"""
