"""Generator of spectrace's path knowledge tables (rules/paths/*.toml); see gen_path_tables.py."""
