"""Widgets of the TUI, one per module."""
