"""Use cases: one transaction per call. The Discord layer and the console call these."""
