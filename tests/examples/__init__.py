"""Tests of the worked examples in examples/, a file per example."""
