"""The C-API contract of pyasc._C (tools/capi_contract.py): every function,
constructor, method and property called with wrong types returns or raises
an ordinary exception, never SystemError and never a crash. The script runs
in a process of its own (its calls change global state, and a crash must
fail this test, not end the run)."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import pyasc
from pyasc import _C

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "tools", "capi_contract.py")


class BadIndex:
    def __index__(self) -> int:
        raise ValueError("no index")


def test_every_call_of_the_extension_keeps_the_contract(tmp_path):
    env = dict(os.environ, PYASC_CACHE_DIR=str(tmp_path / "cache"))
    proc = subprocess.run([sys.executable, SCRIPT], capture_output=True, text=True, timeout=900,
                          env=env)
    assert proc.returncode == 0, f"rc {proc.returncode}\n{proc.stdout[-4000:]}{proc.stderr[-4000:]}"
    assert ", 0 broke the contract" in proc.stdout


@pytest.mark.parametrize("call, error", [
    (lambda: _C.KernelDispatcher(b"ab", np.zeros(3)), ValueError),
    (lambda: _C.IRBuilder("k", "k.py").param("x", "not a tuple"), TypeError),
    (lambda: _C.IRBuilder("k", "k.py").var("x", ["int"]), TypeError),
    (lambda: _C._testing_spin({}, BadIndex()), TypeError),
    (lambda: _C._testing_spin(1.0, BadIndex()), ValueError),
])
def test_a_failed_conversion_raises_its_own_error(call, error):
    with pytest.raises(error):
        call()


def test_the_contract_reaches_every_type():
    sys.path.insert(0, os.path.dirname(SCRIPT))
    try:
        import capi_contract
    finally:
        sys.path.pop(0)
    assert capi_contract.missing_factories() == []
    assert {"KernelDispatcher", "IRBuilder", "Tensor", "Stream"} <= set(capi_contract.types())
    assert {"jit_build", "asarray", "memcpy"} <= set(capi_contract.functions())
    assert pyasc.Tensor is _C.Tensor
