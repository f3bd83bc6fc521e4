"""Generated property tables, one module per Unicode version (see tools/gen_tables.py)."""
