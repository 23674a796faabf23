"""docs/kernel-language.md runs as written: its ```python blocks, in order, make one
script, run in a fresh interpreter (kernels need a source file), which must
end without an error and print the guide's last line."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "kernel-language.md"


def guide_script() -> str:
    """The guide's Python blocks, in order, as one script."""
    blocks = re.findall(r"^```python\n(.*?)^```$", GUIDE.read_text(encoding="utf-8"),
                        re.S | re.M)
    assert len(blocks) >= 6, "the guide lost its examples"
    return "\n\n".join(blocks)


def test_the_guide_runs_as_written(tmp_path):
    script = tmp_path / "guide.py"
    script.write_text(guide_script(), encoding="utf-8")
    env = dict(os.environ)
    env.pop("PYASC_DEBUG", None)
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=300, env=env, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "checked mode:" in proc.stdout
    assert proc.stdout.rstrip().endswith("guide ok"), proc.stdout
