"""Runs the Ascend C that Huawei's PyAsc generates for its cube tutorials on pyasc's simulator.

The tutorials (hicann/pyasc python/tutorials/03_matmul_mix, 04_matmul_cube_only,
05_matmul_leakyrelu) fill their TCubeTiling with CANN's host tiling, which does not run without
CANN; the values do not enter the generated code, so a copy of each script whose
generate_tiling returns an empty TCubeTiling is handed to EMIT (a driver that runs real PyAsc's
front end, MLIR passes and translation and skips the launch). Each kernel's Ascend C is then
built with pyasc.ascendc.load and launched on the tutorial's shapes, with pyasc.host's tiling
of the tutorial's settings, and compared with NumPy (float64 and float32 references).

Usage: python tools/pyasc_cube_tutorials.py TUTORIALS_DIR REAL_PYASC_PYTHON EMIT_PY [--debug]
(pyasc importable, e.g. PYTHONPATH=build/dev/stage). Nothing generated is kept.
"""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import tempfile

import numpy as np

import pyasc
import pyasc.host as host
from pyasc.language.adv_tiling import TCubeTiling

TUTORIALS = {
    "03_matmul_mix": ("matmul_mix", "matmul_kernel"),
    "04_matmul_cube_only": ("matmul_cube_only", "matmul_kernel"),
    "05_matmul_leakyrelu": ("matmul_leakyrelu", "matmul_leakyrelu_kernel"),
}
# (a launch of used_core_num // 2 blocks needs at least one)
NO_TILING = ("def generate_tiling(m, n, k):\n    t = asc.adv.TCubeTiling()\n"
             "    t.used_core_num = 2\n    return t\n\n\ndef _cann_generate_tiling(m, n, k)")


def emit(tutorials: pathlib.Path, python: str, emit_py: str, out: pathlib.Path) -> None:
    """Each tutorial's generated Ascend C into out/<tutorial>/."""
    for name, (script, _kernel) in TUTORIALS.items():
        text = (tutorials / name / f"{script}.py").read_text(encoding="utf-8")
        if "def generate_tiling(m, n, k)" not in text:
            raise SystemExit(f"{name}: no generate_tiling to replace")
        copy = out / f"{script}.py"
        copy.write_text(text.replace("def generate_tiling(m, n, k)", NO_TILING, 1),
                        encoding="utf-8")
        # the script's own result check fails after the skipped launch: expected
        # real PyAsc is the package `asc` too: none of pyasc's paths
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        done = subprocess.run([python, emit_py, str(out / name), str(copy)], env=env,
                              capture_output=True, text=True, check=False, timeout=600)
        if not list((out / name).glob("*.ascendc.cpp")):
            raise SystemExit(f"{name}: nothing emitted\n{done.stderr[-2000:]}")


def tiling(m: int, n: int, k: int, cores: int, bias: bool, c_pos: host.TPosition,
           fix: tuple[int, int, int] | None = None,
           traverse: host.MatrixTraverse | None = None) -> TCubeTiling:
    """pyasc.host's tiling with the tutorial's settings."""
    t = host.MultiCoreMatmulTiling(host.get_ascendc_platform())
    t.set_a_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT16, False)
    t.set_b_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT16, False)
    t.set_c_type(c_pos, host.CubeFormat.ND, host.DataType.DT_FLOAT)
    t.set_bias_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT)
    t.set_dim(cores)
    t.set_org_shape(m, n, k)
    t.set_shape(m, n, k)
    t.enable_bias(bias)
    if traverse is not None:
        t.set_traverse(traverse)
    if fix is not None:
        t.set_fix_split(*fix)
    t.set_buffer_space(-1, -1, -1)
    out = TCubeTiling()
    if t.get_tiling(out) == -1:
        raise SystemExit("no tiling")
    return out


def run(out: pathlib.Path, debug: bool) -> None:
    """Loads and launches each generated kernel; prints its largest error."""
    rng = np.random.default_rng(0)
    ws, ffts = np.zeros(16 * 1024 * 1024, np.uint8), np.zeros(1, np.uint64)
    for name, (_script, kernel_name) in TUTORIALS.items():
        source = next((out / name).glob(f"{kernel_name}.*.ascendc.cpp")).read_text()
        kernel = pyasc.ascendc.load(source, kernel_name, debug=debug)
        gm = host.TPosition.GM
        if name.startswith("03"):
            m, n, k, alpha = 512, 1024, 512, None
            t = tiling(m, n, k, 48, False, gm)
        elif name.startswith("04"):
            m, n, k, alpha = 128, 30720, 64, None
            t = tiling(m, n, k, 24, False, gm)
        else:
            m, n, k, alpha = 1024, 640, 256, 0.001
            t = tiling(m, n, k, 2, True, host.TPosition.VECCALC, (256, 128, -1),
                       host.MatrixTraverse.FIRSTM)
        a = rng.integers(-5, 5, (m, k)).astype(np.float16)
        b = rng.integers(-5, 5, (k, n)).astype(np.float16)
        bias = rng.integers(-5, 5, (1, n)).astype(np.float32)
        c = np.zeros((m, n), np.float32)
        if name.startswith("03"):  # groups of an AIC and two AIVs, as the tutorial launches
            kernel[48 // 2](a, b, c, t, ws, ffts)
        elif name.startswith("04"):
            kernel[t.used_core_num](a, b, c, bias, t, ws, ffts)
        else:
            kernel[t.used_core_num // 2](a, b, c, bias, alpha, t, ws, ffts)
        errs = []
        for ft in (np.float64, np.float32):
            ref = a.astype(ft) @ b.astype(ft)
            if alpha is not None:
                ref = ref + bias.astype(ft)
                ref = np.where(ref >= 0, ref, ref * ft(np.float32(alpha)))
            errs.append(float(np.abs(c.astype(np.float64) - ref).max()))
        print(f"{name}: {m}x{n}x{k}, max |error| vs NumPy float64 {errs[0]:g}, "
              f"float32 {errs[1]:g}{' (checked mode)' if debug else ''}")


def main() -> None:
    args = [a for a in sys.argv[1:] if a != "--debug"]
    if len(args) != 3:
        raise SystemExit(__doc__)
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp)
        emit(pathlib.Path(args[0]), args[1], args[2], out)
        run(out, "--debug" in sys.argv)


if __name__ == "__main__":
    main()
