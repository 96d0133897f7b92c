"""What rule gating (spectrace/rulegate.py) saves, as ratios to the ungated way in the same run.

* which rules could match a text: ``GateIndex.candidates`` (one ``in`` per distinct literal)
  against one ``re`` alternation of the same literals (``findall``);
* classifying an exception no rule matches: ``FatalMatcher._first_rule`` (gated) against
  searching every built-in exception rule's pattern in rule order.

Run: ``python benchmarks/bench_rulegate.py`` (prints microseconds per text and ratios; docs/scan.md
quotes it).
"""

from __future__ import annotations

import re

from timing import median_s

from spectrace.assemblers.fatal import FatalMatcher
from spectrace.ruleset import RuleSet

TEXTS = [  # exception texts no built-in rule takes, of the lengths real ones have
    f"{kind}: op {n} failed while {what}"
    for n, (kind, what) in enumerate(
        [
            ("ValueError", "building the batch for request 8123 (input_ids length 4096)"),
            ("KeyError", "'layers.17.mlp.gate_up_proj.weight'"),
            ("RuntimeError", "waiting for the scheduler to hand back the finished requests"),
            ("AssertionError", "len(self.req_to_token_pool.free_slots) >= need"),
        ]
        * 25
    )
]


def main() -> None:
    matcher = FatalMatcher(RuleSet.load())
    gates = matcher._exc_gates
    literals = [lit for lit, _ in gates._literals]
    alternation = re.compile("|".join(map(re.escape, sorted(literals, key=len, reverse=True))))
    n = len(TEXTS)
    per_in = median_s(lambda: [gates.candidates(t) for t in TEXTS], repeat=21) / n
    per_alt = median_s(lambda: [alternation.findall(t) for t in TEXTS], repeat=21) / n
    print(f"{len(literals)} exception-rule literals: candidates {per_in * 1e6:.1f} us/text, "
          f"one alternation {per_alt * 1e6:.1f} us/text, ratio {per_in / per_alt:.2f}x")  # fmt: skip

    rules = matcher._exc_rules
    gated = median_s(lambda: [matcher._first_rule([t], None) for t in TEXTS], repeat=21) / n
    every = median_s(lambda: [[r.pattern.search(t) for r in rules] for t in TEXTS], repeat=21) / n
    print(f"classify, no rule matches ({len(rules)} rules): every rule {every * 1e6:.1f} us, "
          f"gated {gated * 1e6:.1f} us, ratio {gated / every:.2f}x")  # fmt: skip


if __name__ == "__main__":
    main()
