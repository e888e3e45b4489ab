"""Benchmarks: `python -m bench` (or `make bench`). Ratios against a baseline run side by side."""
