"""Build of the optional C accelerator; everything else is in pyproject.toml.

``optional=True``: where no C compiler is available the install goes on
without ``uts58.kernels._c`` and uts58 runs its pure-Python kernels instead
(``uts58 --version`` says so).  The sources live outside the package, one
file per job (src/kernels/module.c says which); the wheel carries only the
built module.
"""

from setuptools import Extension, setup

SOURCES = ["module.c", "termination.c", "escaping.c", "ada.c", "html.c", "scan.c", "slots.c", "hosts.c"]

setup(
    ext_modules=[
        Extension(
            "uts58.kernels._c",
            [f"src/kernels/{name}" for name in SOURCES],
            depends=["src/kernels/kernels.h"],
            optional=True,
        )
    ]
)
