"""The report printed by ``python -m pyasc info``."""

from __future__ import annotations

import os
import platform
import shutil
import subprocess

from pyasc import _C

try:
    import numpy
except ImportError:  # reported as not installed
    numpy = None


def find_c_compiler() -> tuple[str | None, str]:
    """The C compiler the kernel JIT would use (``PYASC_CC`` or cc/gcc/clang
    on PATH) and the first line of its ``--version``."""
    candidates = [os.environ["PYASC_CC"]] if os.environ.get("PYASC_CC") else ["cc", "gcc", "clang"]
    for name in candidates:
        path = shutil.which(name)
        if not path:
            continue
        try:
            out = subprocess.run(
                [path, "--version"], capture_output=True, text=True, timeout=10, check=False
            ).stdout
        except (OSError, subprocess.SubprocessError) as exc:
            return path, f"(cannot run: {exc})"
        return path, out.splitlines()[0] if out else "(no version output)"
    return None, "not found on PATH (the kernel JIT needs one; set PYASC_CC)"


def _size(nbytes: int) -> str:
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if nbytes >= 1 << shift:
            return f"{nbytes / (1 << shift):.4g} {unit}"
    return f"{nbytes} B"


def report() -> str:
    """Devices and their properties, the C compiler and versions, as text."""
    version = _C.libasc_version()  # pyasc.__version__
    lines = [f"pyasc {version} (libasc {version})"]
    lines.append(f"Python {platform.python_version()} on {platform.machine()} {platform.system()}")
    lines.append(f"NumPy {numpy.__version__}" if numpy is not None else "NumPy not installed")
    path, version = find_c_compiler()
    lines.append(f"C compiler: {path or '-'} {version}")
    if _C.init_error:
        lines.append(f"runtime failed to start: {_C.init_error}")
        return "\n".join(lines)
    count = _C.device_count()
    lines.append(f"devices: {count}")
    for index in range(count):
        props = _C.get_device_properties(index)
        lines.append(f"  [{index}] {props.name} (backend {props.backend})")
        for field in props.__match_args__[2:]:
            value = getattr(props, field)
            shown = _size(value) if field.endswith("_size") and field != "data_block_size" else value
            lines.append(f"      {field:16} {shown}")
    return "\n".join(lines)
