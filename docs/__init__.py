"""(A package, so that pytest imports docs/conftest.py as docs.conftest beside tests/conftest.py.)"""
