"""Assemblers turn attributed lines into records: crashes, shapes, config, load."""
