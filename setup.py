"""Build of the optional C accelerator; everything else is in pyproject.toml.

``optional=True``: where no C compiler is available the install goes on
without ``uts58._speedups`` and uts58 runs its pure-Python code instead.
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("uts58._speedups", ["src/uts58/_speedups.c"], optional=True)])
