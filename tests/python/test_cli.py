"""`python -m pyasc`: the command line."""

from __future__ import annotations

import os
import subprocess
import sys

import pyasc
from pyasc import __main__ as cli
from pyasc import _info


def test_info_prints_devices_properties_and_compiler(run_python):
    r = run_python("-m", "pyasc", "info")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert f"pyasc {pyasc.__version__}" in out
    assert "Ascend910B-sim" in out
    assert "ub_size" in out and "192 KiB" in out
    assert "ai_core_count" in out and "48" in out
    assert "data_block_size" in out
    assert "C compiler" in out
    assert "devices: 1" in out
    assert "Python" in out and "NumPy" in out


def test_info_lists_every_device(run_python):
    r = run_python("-m", "pyasc", "info", env_extra={"PYASC_CPU_DEVICES": "2"})
    assert r.returncode == 0, r.stderr
    assert "devices: 2" in r.stdout
    assert "Ascend910B-sim:0" in r.stdout and "Ascend910B-sim:1" in r.stdout


def test_info_reports_a_runtime_start_failure(run_python):
    r = run_python("-m", "pyasc", "info", env_extra={"PYASC_CPU_DEVICES": "0"})
    assert r.returncode == 0, r.stderr
    assert "runtime failed to start" in r.stdout
    assert "PYASC_CPU_DEVICES" in r.stdout
    assert "C compiler" in r.stdout


def test_info_honours_pyasc_cc(run_python):
    r = run_python("-m", "pyasc", "info", env_extra={"PYASC_CC": "no-such-compiler-xyz"})
    assert r.returncode == 0, r.stderr
    assert "C compiler: - not found on PATH" in r.stdout


def test_no_command_is_a_usage_error(run_python):
    r = run_python("-m", "pyasc")
    assert r.returncode == 2
    assert "usage" in r.stderr.lower()
    r = run_python("-m", "pyasc", "bogus")
    assert r.returncode == 2
    assert "invalid choice" in r.stderr


def test_main_in_process(capsys):
    assert cli.main(["info"]) == 0
    out = capsys.readouterr().out
    assert "Ascend910B-sim" in out and "ub_size" in out
    assert out.strip() == _info.report().strip()


def test_size_formatting():
    assert _info._size(512) == "512 B"
    assert _info._size(192 * 1024) == "192 KiB"
    assert _info._size(3 << 20) == "3 MiB"
    assert _info._size(64 << 30) == "64 GiB"


def test_version_prints_the_version(run_python):
    r = run_python("-m", "pyasc", "--version")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == f"pyasc {pyasc.__version__}"


def test_cache_help_explains_each_action(run_python):
    r = run_python("-m", "pyasc", "cache", "--help")
    assert r.returncode == 0, r.stderr
    assert "info:" in r.stdout and "clear:" in r.stdout


def test_api_listing_wraps_its_lines(capsys):
    assert cli.main(["api"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert max(len(line) for line in lines) <= 200
    assert any(line.startswith("  supported: ") for line in lines)


def test_a_closed_pipe_ends_quietly():
    # `python -m pyasc api | head -1`: the reader is gone before the output
    # is written (the read end is closed at once), so every write fails.
    child = subprocess.Popen([sys.executable, "-m", "pyasc", "api"], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=dict(os.environ))
    child.stdout.close()
    err = child.stderr.read().decode()
    assert child.wait(timeout=60) == 1, err
    assert "Traceback" not in err and "BrokenPipe" not in err
