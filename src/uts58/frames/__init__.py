"""Data-frame adapters: Dask (``dask``) and Spark (``spark``), over one Arrow schema of links."""
