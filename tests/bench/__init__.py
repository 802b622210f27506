"""Benchmarks for speed, cost and scale (not part of the default test run); see run.py."""
