"""Hypothesis profiles: the CI gate sees the same examples every run; fuzzing hunts new ones.

`SPECTRACE_FUZZ=1 pytest tests/test_properties.py` draws fresh random examples, ten times as
many, so a property is searched hard without ever making the gate fail by luck.
"""

import os

from hypothesis import settings

settings.register_profile("gate", derandomize=True)
settings.register_profile("fuzz", derandomize=False, max_examples=1000)
settings.load_profile("fuzz" if os.environ.get("SPECTRACE_FUZZ") else "gate")
