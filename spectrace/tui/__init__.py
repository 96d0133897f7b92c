"""The ``spectrace tui`` app: log view, crash list, crash detail and load chart."""
