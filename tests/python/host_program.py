"""A test's C++ host program, built with pyasc's driver (``python -m pyasc asc-compile``, as a
user's CANN program is) against CANN's host tiling headers and run; what the tiling tests of
the library APIs share."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def run_host_program(folder: Path, name: str, source: str) -> subprocess.CompletedProcess[str]:
    """source built as folder/name (-Wall -Wextra -Werror) and run; both must succeed. The run's
    stdout and stderr are in the result."""
    src = folder / f"{name}.asc"
    src.write_text(source)
    build = subprocess.run([sys.executable, "-m", "pyasc", "asc-compile", str(src), "-o",
                            str(folder / name), "-Wall", "-Wextra", "-Werror"],
                           capture_output=True, text=True, check=False)
    assert build.returncode == 0, build.stderr
    run = subprocess.run([str(folder / name)], capture_output=True, text=True, check=False,
                         timeout=60)
    assert run.returncode == 0, run.stderr
    return run


def printed_numbers(run: subprocess.CompletedProcess[str]) -> dict[str, list[int]]:
    """The program's lines `NAME V1 V2 ...` as {NAME: [V1, V2, ...]}."""
    return {line.split()[0]: [int(v) for v in line.split()[1:]]
            for line in run.stdout.splitlines() if line.strip()}
