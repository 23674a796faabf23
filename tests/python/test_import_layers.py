"""The packages' import graph (tools/check_imports.py): no import cycle, no
upward import between the kernel front end's layers, no import inside a
function."""

from __future__ import annotations

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_import_graph_is_layered() -> None:
    result = subprocess.run([sys.executable, str(ROOT / "tools" / "check_imports.py"),
                             str(ROOT / "python")], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_import_pyasc_does_not_load_the_code_generator() -> None:
    code = ("import sys, pyasc; "
            "loaded = [m for m in ('pyasc.language.codegen', 'pyasc.language.build') "
            "if m in sys.modules]; assert not loaded, loaded")
    subprocess.run([sys.executable, "-c", code], check=True)
