"""Started by every Python process the tests start (the root conftest.py puts
this folder on PYTHONPATH): the audit hook of tests/hermetic.py, reporting
to the test process's log (issue 35, D131)."""

import os

if os.environ.get("UTS58_HERMETIC_LOG"):
    import importlib.util

    _spec = importlib.util.spec_from_file_location(
        "_uts58_hermetic", os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "hermetic.py")
    )
    if _spec is not None and _spec.loader is not None:
        _module = importlib.util.module_from_spec(_spec)
        _spec.loader.exec_module(_module)
        _module.install_child(os.environ["UTS58_HERMETIC_LOG"])
