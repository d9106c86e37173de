"""Worked examples that use the project as a library (each folder has its own README)."""
