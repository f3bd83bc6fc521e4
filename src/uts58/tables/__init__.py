"""Generated tables, one module per Unicode version and kind; written by tools/gen_tables.py, never by hand."""
