"""Debian packages by name: the only way a bench corpus or a test takes the
machine's own files (issue 35, D131).

A folder such as ``/usr/share/doc`` holds whatever someone installed on this
machine; the files of named packages are the same on every machine that has
them at the same version.  So the corpora (bench/realtext.py,
bench/everyday.py) and the real-page tests list their inputs with
``files(packages)`` and install them with ``install(packages)``, never by
walking a system folder.

>>> files([]) == []
True
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterable
from pathlib import Path


def not_installed(packages: Iterable[str]) -> list[str]:
    """The packages dpkg does not have installed (all of them without dpkg)."""
    packages = list(packages)
    if shutil.which("dpkg-query") is None:
        return packages
    out = []
    for pkg in packages:
        done = subprocess.run(["dpkg-query", "-W", "-f=${Status}", pkg], capture_output=True, text=True, check=False)
        if "install ok installed" not in done.stdout:
            out.append(pkg)
    return out


def files(packages: Iterable[str]) -> list[Path]:
    """The regular files (not folders, not symbolic links) the installed
    packages among ``packages`` own, sorted; what dpkg lists, not what a
    folder happens to hold."""
    packages = list(packages)
    missing = set(not_installed(packages))
    present = [p for p in packages if p not in missing]
    if not present:
        return []
    done = subprocess.run(["dpkg-query", "-L", *present], capture_output=True, text=True, check=True)
    out = set()
    for line in done.stdout.splitlines():
        path = Path(line)
        if line.startswith("/") and not path.is_symlink() and path.is_file():
            out.add(path)
    return sorted(out)


def install(packages: Iterable[str]) -> list[str]:
    """apt-get install the packages that the archive has (root and apt-get
    needed); returns the ones it does not have."""
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        raise SystemExit("--install needs root and apt-get")
    missing: list[str] = []
    present: list[str] = []
    for pkg in packages:
        policy = subprocess.run(["apt-cache", "policy", pkg], capture_output=True, text=True, check=False).stdout
        (present if re.search(r"Candidate: (?!\(none\))", policy) else missing).append(pkg)
    if present:
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", *present], check=True, env=env)
    return missing
