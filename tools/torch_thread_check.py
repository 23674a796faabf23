#!/usr/bin/env python3
"""Checks torch's own float32 maths across its threads, without pyasc.

On the 2-core build machine torch 2.13 (CPU build, MKL vector maths,
OpenMP) sometimes returns a float32 ``torch.sqrt`` whose second half, the
part its second thread computed, is accurate to about 12 bits (relative
error up to 3e-4 instead of 1 ulp), once, early in a process, most often
when the machine is busy. Huawei's ``test_vsqrt`` then fails whoever
provides the device, because its reference is that ``torch.sqrt``. This
script shows it with torch alone: it runs the sequence of torch calls the
failing test makes in fresh processes and counts the processes whose
result is off. With one torch thread (``OMP_NUM_THREADS=1``) it never is,
which is why tools/upstream-suite.sh gives each pytest worker one torch
thread.

usage: tools/torch_thread_check.py [PROCESSES]   (default 30)
"""

from __future__ import annotations

import os
import subprocess
import sys

# One process: a matmul, a float16 sqrt, then the float32 sqrt checked in
# float64. Prints how many elements are off by more than 1e-6 relative.
CHILD = """
import numpy as np, torch
a = torch.rand((1024, 256)) - 0.5
b = torch.rand((256, 512)) - 0.5
_ = a @ b
h = torch.abs(torch.randn(2048, dtype=torch.float16) + 10.0)
_ = torch.sqrt(h)
x = torch.abs(torch.randn(5000) + 10.0)
got = torch.sqrt(x).numpy().astype(np.float64)
want = np.sqrt(x.numpy().astype(np.float64))
print(int((np.abs(got - want) / want > 1e-6).sum()))
"""


def off_processes(count: int, env: dict[str, str]) -> int:
    """How many of ``count`` fresh processes got an inaccurate sqrt."""
    off = 0
    for _ in range(count):
        out = subprocess.run(
            [sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, check=True
        )
        off += int(out.stdout.strip()) != 0
    return off


def main() -> int:
    """Runs the check with torch's default threads and with one thread."""
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    default = {k: v for k, v in os.environ.items() if k not in ("OMP_NUM_THREADS", "MKL_NUM_THREADS")}
    print(f"default threads: {off_processes(count, default)} of {count} processes off")
    single = dict(default, OMP_NUM_THREADS="1")
    print(f"OMP_NUM_THREADS=1: {off_processes(count, single)} of {count} processes off")
    return 0


if __name__ == "__main__":
    sys.exit(main())
