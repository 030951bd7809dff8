"""Data in: reading the canonical data files of ``source_data/`` with exact error locations."""
