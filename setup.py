"""Build of the C parts; everything else is in pyproject.toml.

Two kinds, both optional, so that an install never fails for want of a C
compiler (``uts58 --version`` says what runs):

- ``uts58.kernels._c``, the C accelerator.  Its sources live outside the
  package, one file per job (src/kernels/module.c says which); the wheel
  carries only the built module.  Where it does not build, uts58 runs its
  pure-Python kernels.
- the modules of uts58.base.compiled.COMPILED, compiled by mypyc from their
  own typed source (issue 38).  They are compiled where mypyc is importable
  (mypy is a build requirement) and a C compiler with the Python headers
  works, unless ``UTS58_MYPYC=0``.  Beside them goes a record of the sources
  they were compiled from, so that a source edited after the build (an
  editable install) is run from its ``.py`` file instead (base/compiled.py).
"""

import hashlib
import json
import os
import runpy
import sys
import sysconfig
import tempfile

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

SOURCES = ["module.c", "termination.c", "escaping.c", "ada.c", "html.c", "scan.c", "slots.c", "hosts.c", "runs.c"]
RECORD = runpy.run_path("src/uts58/base/compiled.py")  # (it imports nothing of uts58)

ext_modules = [
    Extension(
        "uts58.kernels._c",
        [f"src/kernels/{name}" for name in SOURCES],
        depends=["src/kernels/kernels.h"],
        optional=True,
    )
]


def _compiler_works() -> bool:
    """Whether a C file that includes Python.h compiles here, as build_ext would compile it."""
    from distutils.ccompiler import new_compiler
    from distutils.sysconfig import customize_compiler

    compiler = new_compiler()
    customize_compiler(compiler)
    with tempfile.TemporaryDirectory() as tmp:
        probe = os.path.join(tmp, "probe.c")
        with open(probe, "w", encoding="ascii") as f:
            f.write("#include <Python.h>\nint uts58_probe(void) { return PY_MAJOR_VERSION; }\n")
        try:
            compiler.compile([probe], output_dir=tmp, include_dirs=[sysconfig.get_paths()["include"]])
        except Exception:  # (CompileError, or no compiler to run at all)
            return False
    return True


def _mypyc_extensions() -> tuple[list[Extension], dict[str, str]]:
    """COMPILED built by mypyc and the SHA-256 of each source it read, or none (and why, on stderr)."""
    if os.environ.get("UTS58_MYPYC", "1") == "0":
        return [], {}
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("uts58: mypyc is not importable; the decision path stays interpreted", file=sys.stderr)
        return [], {}
    if not _compiler_works():
        print("uts58: no working C compiler; the decision path stays interpreted", file=sys.stderr)
        return [], {}
    files = {name: f"src/{name.replace('.', '/')}.py" for name in RECORD["COMPILED"]}
    digests = {}
    for name, path in files.items():  # (before mypyc reads them)
        with open(path, "rb") as f:
            digests[name] = hashlib.sha256(f.read()).hexdigest()
    # One shared library, inside the package; no debug information (40 % of its size).
    built = mypycify(list(files.values()), opt_level="3", debug_level="0", group_name="uts58.base._decision")
    return built, digests


MYPYC, DIGESTS = _mypyc_extensions()


class BuildExt(build_ext):
    """build_ext that writes, beside the compiled modules, the record of the
    sources they were compiled from (into the wheel, or into src/ for an
    editable install); a build without them removes an earlier record."""

    def run(self) -> None:
        super().run()
        package = os.path.dirname(os.path.dirname(self.get_ext_fullpath("uts58.base.compiled")))
        record = os.path.join(os.path.dirname(package), RECORD["RECORD_FILE"])
        if DIGESTS:
            with open(record, "w", encoding="utf-8") as f:
                json.dump(DIGESTS, f, indent=1, sort_keys=True)
        elif os.path.exists(record):
            os.remove(record)


setup(ext_modules=ext_modules + MYPYC, cmdclass={"build_ext": BuildExt})
