"""Benchmark: verify and ingest against floors measured in the same run (pbem bench)."""
