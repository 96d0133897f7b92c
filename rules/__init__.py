"""Built-in rule files (TOML), shipped as package data and read by ``spectrace.ruleset``."""
