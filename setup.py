"""Build of the optional C accelerator; everything else is in pyproject.toml.

``optional=True``: where no C compiler is available the install goes on
without ``uts58.kernels._c`` and uts58 runs its pure-Python kernels instead
(``uts58 --version`` says so).  The sources live outside the package, one
file per job (src/kernels/module.c says which); the wheel carries only the
built module.  ``UTS58_MYPYC=1`` also compiles the modules of
uts58.base.compiled.COMPILED with mypyc (issue 38).
"""

import os
import runpy

from setuptools import Extension, setup

SOURCES = ["module.c", "termination.c", "escaping.c", "ada.c", "html.c", "scan.c", "slots.c", "hosts.c"]

ext_modules = [
    Extension(
        "uts58.kernels._c",
        [f"src/kernels/{name}" for name in SOURCES],
        depends=["src/kernels/kernels.h"],
        optional=True,
    )
]
if os.environ.get("UTS58_MYPYC") == "1":
    # Issue 38: the decision path compiled by mypyc from its own source (opt-in:
    # mypy must be importable where the build runs, e.g. pip's --no-build-isolation).
    from mypyc.build import mypycify

    compiled = runpy.run_path("src/uts58/base/compiled.py")["COMPILED"]
    ext_modules += mypycify([f"src/{name.replace('.', '/')}.py" for name in compiled], opt_level="3")

setup(ext_modules=ext_modules)
