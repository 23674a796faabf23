"""One deadlock detector for every wait a block can be in (rt/wait.h):
sync_all, ib_set/ib_wait, wait_pre_block and cross-core flags of every
mode. A launch whose every running block waits, with no wait able to end,
is a KernelError listing each block, what it waits for and the line,
whatever the mix of wait kinds; correct programs are not affected.

Each deadlock runs in a child process with a timeout: a regression hangs
there, not in the test run."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import numpy as np
import pytest

import pyasc
from pyasc.language.options import KernelType
from test_hardening_runtime import interrupt_script

# The scenarios, run as `deadlock.py CASE BLOCKS ARG [checked]`; each wait
# carries a `# XX_NAME` marker so the tests find its line (MARKED).
SCRIPT = """
import sys
import time
import numpy as np
import pyasc
from pyasc.language.options import KernelType

case, blocks, arg = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
debug = len(sys.argv) > 4 and sys.argv[4] == "checked"


def sync_and_ib(ws: pyasc.GlobalAddress, in_sync: int):
    # blocks < in_sync: sync_all; the others wait for block 0's flag
    g = pyasc.GlobalTensor()
    g.set_global_buffer(ws)
    ub = pyasc.LocalTensor(pyasc.int32, pyasc.TPosition.VECCALC, 0, 8)
    if pyasc.get_block_idx() < in_sync:
        pyasc.sync_all()  # SI_SYNC
    else:
        pyasc.ib_wait(g, ub, 0, 0)  # SI_IB_WAIT


def three_kinds(ws: pyasc.GlobalAddress, n: int):
    # block 0 in sync_all, block 1 in ib_wait for block 2, the rest in
    # their first wait_pre_block (which needs a notification nobody sends)
    g = pyasc.GlobalTensor()
    g.set_global_buffer(ws)
    ub = pyasc.LocalTensor(pyasc.int32, pyasc.TPosition.VECCALC, 0, 8)
    b = pyasc.get_block_idx()
    if b == 0:
        pyasc.sync_all()  # TK_SYNC
    elif b == 1:
        pyasc.ib_wait(g, ub, 2, 1)  # TK_IB_WAIT
    else:
        pyasc.wait_pre_block(g, ub)  # TK_PRE_BLOCK


def mode0_and_sync(x: pyasc.GlobalAddress, waiter: int):
    # one AIV waits for a mode-0 flag the others, in sync_all, never set
    if pyasc.get_block_idx() == waiter:
        pyasc.cross_core_wait_flag(1, 0, pyasc.PipeID.PIPE_S)  # MS_CROSS
    else:
        pyasc.sync_all()  # MS_SYNC


def mode0_nobody_sets(x: pyasc.GlobalAddress, n: int):
    pyasc.cross_core_wait_flag(2, 0, pyasc.PipeID.PIPE_S)  # MN_CROSS


def mode0_and_ib(ws: pyasc.GlobalAddress, n: int):
    # block 0 waits for a mode-0 flag; the others for block 0's ib flag
    g = pyasc.GlobalTensor()
    g.set_global_buffer(ws)
    ub = pyasc.LocalTensor(pyasc.int32, pyasc.TPosition.VECCALC, 0, 8)
    if pyasc.get_block_idx() == 0:
        pyasc.cross_core_wait_flag(3, 0, pyasc.PipeID.PIPE_S)  # MI_CROSS
    else:
        pyasc.ib_wait(g, ub, 0, 0)  # MI_IB_WAIT


def group_and_mode0(x: pyasc.GlobalAddress, n: int):
    # a mixed kernel: the AIVs wait for a mode-0 flag nobody sets, the AICs
    # for their AIVs' mode-2 flag, which they never set
    if pyasc.ascend_is_aiv():
        pyasc.cross_core_wait_flag(4, 0, pyasc.PipeID.PIPE_S)  # GM_CROSS
    else:
        pyasc.cross_core_wait_flag(5, 2, pyasc.PipeID.PIPE_S)  # GM_GROUP


def sync_and_endless(ws: pyasc.GlobalAddress, endless: int):
    # block 0 meets block `endless`, which loops for ever
    g = pyasc.GlobalTensor()
    g.set_global_buffer(ws)
    if pyasc.get_block_idx() == endless:
        i = 0
        while i < 1:
            g.set_value(0, i)
    pyasc.sync_all()


kernels = {
    "sync_and_ib": (sync_and_ib, {}),
    "sync_and_endless": (sync_and_endless, {}),
    "three_kinds": (three_kinds, {}),
    "mode0_and_sync": (mode0_and_sync, {"kernel_type": KernelType.AIV_ONLY}),
    "mode0_nobody_sets": (mode0_nobody_sets, {"kernel_type": KernelType.AIV_ONLY}),
    "mode0_and_ib": (mode0_and_ib, {"kernel_type": KernelType.AIV_ONLY}),
    "group_and_mode0": (group_and_mode0, {}),
}
fn, options = kernels[case]
kernel = pyasc.jit(fn, debug=debug, **options)
ws = np.zeros(8 * 8 * blocks, np.int32)
kernel.compile(ws, arg)
start = time.monotonic()
try:
    kernel[blocks](ws, arg)
    print("no error", flush=True)
except pyasc.KernelError as exc:
    print(exc, flush=True)
print("seconds", time.monotonic() - start, flush=True)


@pyasc.jit
def still_works(x: pyasc.GlobalAddress, n: int):
    g = pyasc.GlobalTensor()
    g.set_global_buffer(x)
    g.set_value(pyasc.get_block_idx(), n)


y = np.zeros(8, np.int32)  # the device is still usable
still_works[blocks](y, 7)
assert (y[:blocks] == 7).all(), y
print("ok", flush=True)
"""


# The script's lines ending with a `# XX_NAME` comment: marker -> line.
MARKED = {text.rsplit("# ", 1)[1]: i for i, text in enumerate(SCRIPT.splitlines(), 1)
          if re.search(r"# [A-Z]{2}_[A-Z_]+$", text)}


def run_case(tmp_path, *args: str, env_extra: dict[str, str] | None = None) -> str:
    """Runs SCRIPT with args in a child process; its output. A hang fails
    the test at the timeout instead of hanging the run."""
    script = tmp_path / "deadlock.py"
    script.write_text(SCRIPT)
    env = dict(os.environ, **(env_extra or {}))
    proc = subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True,
                          timeout=120, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.rstrip().endswith("ok"), proc.stdout + proc.stderr
    return proc.stdout


ITEM = re.compile(r"(block|AIC|AIV)s? (\d+)(?:-(\d+))? in (.+?) \(line (\d+)\)")


def report_of(out: str) -> dict[str, tuple[str, int]]:
    """The deadlock report's waits: "block 3" (or "AIC 1", "AIV 2") -> (what
    it waits for, line)."""
    m = re.search(r"deadlock\.py:(\d+): (\w+): deadlock: every running (block|core) waits and "
                  r"no wait can end \(the device would hang\): (.*)", out)
    assert m, out
    waits: dict[str, tuple[str, int]] = {}
    # a mixed kernel's launch names the core that failed first
    for item in re.sub(r" \(on (the AIC|AIV \d)\)$", "", m.group(4).strip()).split("; "):
        one = ITEM.fullmatch(item)
        assert one, (item, out)
        last = int(one.group(3) or one.group(2))
        for i in range(int(one.group(2)), last + 1):
            waits[f"{one.group(1)} {i}"] = (one.group(4), int(one.group(5)))
    # the reporting core is one of those waiting, at its line
    assert int(m.group(1)) in {line for _, line in waits.values()}, out
    return waits


def expected(case: str, blocks: int, arg: int) -> dict[str, tuple[str, int]]:
    """What each core waits for, from the scenario's description in SCRIPT."""
    cross = {"mode0_and_sync": 1, "mode0_nobody_sets": 2, "mode0_and_ib": 3, "group_and_mode0": 4}
    prefix = {"sync_and_ib": "SI", "three_kinds": "TK", "mode0_and_sync": "MS",
              "mode0_nobody_sets": "MN", "mode0_and_ib": "MI", "group_and_mode0": "GM"}[case]
    sync = ("sync_all", MARKED.get(f"{prefix}_SYNC"))
    mode0 = (f"cross_core_wait_flag({cross.get(case, 0)}, mode 0)", MARKED.get(f"{prefix}_CROSS"))
    ib0 = ("ib_wait for block 0's flag of event 0", MARKED.get(f"{prefix}_IB_WAIT"))
    if case == "sync_and_ib":
        return {f"block {b}": sync if b < arg else ib0 for b in range(blocks)}
    if case == "three_kinds":
        return {f"block {b}": sync if b == 0 else
                ("ib_wait for block 2's flag of event 1", MARKED["TK_IB_WAIT"]) if b == 1 else
                (f"wait_pre_block for block {b - 1} (round 1)", MARKED["TK_PRE_BLOCK"])
                for b in range(blocks)}
    if case == "mode0_and_sync":
        return {f"block {b}": mode0 if b == arg else sync for b in range(blocks)}
    if case == "mode0_nobody_sets":
        return {f"block {b}": mode0 for b in range(blocks)}
    if case == "mode0_and_ib":
        return {f"block {b}": mode0 if b == 0 else ib0 for b in range(blocks)}
    assert case == "group_and_mode0"
    group = ("cross_core_wait_flag(5, mode 2)", MARKED["GM_GROUP"])
    return {**{f"AIC {g}": group for g in range(blocks)},
            **{f"AIV {v}": mode0 for v in range(2 * blocks)}}


@pytest.mark.parametrize("case, blocks, arg, mode", [
    ("sync_and_ib", 2, 1, "plain"),         # one block in sync_all, one in ib_wait
    ("sync_and_ib", 3, 2, "checked"),
    ("sync_and_ib", 8, 3, "plain"),
    ("sync_and_ib", 8, 7, "plain"),
    ("three_kinds", 3, 0, "plain"),         # sync_all, ib_wait, wait_pre_block
    ("three_kinds", 8, 0, "checked"),
    ("mode0_and_sync", 2, 0, "plain"),      # a mode-0 flag wait and sync_all
    ("mode0_and_sync", 2, 1, "plain"),
    ("mode0_and_sync", 3, 2, "checked"),
    ("mode0_and_sync", 8, 5, "plain"),
    ("mode0_nobody_sets", 2, 0, "plain"),   # mode-0 flag waits only
    ("mode0_nobody_sets", 8, 0, "plain"),
    ("mode0_and_ib", 2, 0, "plain"),        # a mode-0 flag wait and ib_wait
    ("mode0_and_ib", 3, 0, "checked"),
    ("group_and_mode0", 2, 0, "plain"),     # mode 2 in the groups, mode 0 across them
    ("group_and_mode0", 3, 0, "plain"),
])
def test_a_deadlock_of_any_wait_kinds_lists_every_wait(tmp_path, case, blocks, arg, mode):
    out = run_case(tmp_path, case, str(blocks), str(arg), mode)
    assert report_of(out) == expected(case, blocks, arg), out
    seconds = float(re.search(r"seconds (\S+)", out).group(1))
    assert seconds < 5, out  # found when the last block starts waiting, not by a timeout


def test_a_report_too_long_for_the_message_counts_the_rest(tmp_path):
    """48 blocks each waiting for a different block: the report lists as
    many as fit and counts the others."""
    out = run_case(tmp_path, "three_kinds", "48", "0")
    m = re.search(r"no wait can end \(the device would hang\): (.*); (\d+) more waiting$",
                  out.splitlines()[0])
    assert m, out
    listed = {}
    for item in m.group(1).split("; "):
        one = ITEM.fullmatch(item)
        assert one, (item, out)
        for b in range(int(one.group(2)), int(one.group(3) or one.group(2)) + 1):
            listed[b] = one.group(4)
    want = expected("three_kinds", 48, 0)
    assert listed and all(want[f"block {b}"][0] == what for b, what in listed.items()), out
    assert len(listed) + int(m.group(2)) == 48, out


def test_a_meeting_every_block_reaches_is_no_deadlock(tmp_path):
    out = run_case(tmp_path, "sync_and_ib", "3", "3")  # every block in sync_all
    assert "no error" in out, out


def test_the_watchdog_ends_a_block_in_sync_all(tmp_path):
    """Block 0 waits in sync_all for block 1, which runs for ever: the
    watchdog stops the launch (the sync_all block on its own, or quoting
    block 1's watchdog error) within a fraction of a second of its limit."""
    out = run_case(tmp_path, "sync_and_endless", "2", "1",
                   env_extra={"PYASC_KERNEL_TIMEOUT_MS": "300"})
    assert re.search(r"deadlock\.py:\d+: (sync_all: another block failed before reaching it "
                     r"\(block 1: .*)?the kernel ran longer than PYASC_KERNEL_TIMEOUT_MS=300", out), out
    assert float(re.search(r"seconds (\S+)", out).group(1)) < 3, out


SYNC_CTRL_C_SCRIPT = """
import signal, sys, time
import numpy as np
import pyasc

signal.signal(signal.SIGINT, signal.default_int_handler)
blocks = int(sys.argv[1])


@pyasc.jit
def stuck(x: pyasc.GlobalAddress, n: int):
    g = pyasc.GlobalTensor()
    g.set_global_buffer(x)
    if pyasc.get_block_idx() == n:  # never arrives
        i = 0
        while i < 1:
            g.set_value(0, i)
    pyasc.sync_all()
    g.set_value(1 + pyasc.get_block_idx(), 1)


x = np.zeros(16, np.int64)
stuck.compile(x, blocks - 1)
print("waiting", flush=True)
try:
    stuck[blocks](x, blocks - 1)  # NumPy arrays: a synchronous launch
    print("not interrupted", flush=True)
    sys.exit(1)
except KeyboardInterrupt:
    print("interrupted at", repr(time.monotonic()), flush=True)
y = np.zeros(16, np.int64)
stuck[blocks](y, blocks)  # every block meets: the device still works
assert (y[1:1 + blocks] == 1).all(), y
print("ok", flush=True)
"""


@pytest.mark.parametrize("blocks", [2, 4])
def test_ctrl_c_stops_a_synchronous_launch_stuck_in_sync_all(tmp_path, blocks):
    """The blocks wait in sync_all for one that never arrives (it loops):
    Ctrl-C raises KeyboardInterrupt, whichever block the calling thread
    runs (a sync_all waiter there answers it too)."""
    _, latency = interrupt_script(tmp_path, SYNC_CTRL_C_SCRIPT, str(blocks))
    print(f"{blocks} blocks: KeyboardInterrupt {latency * 1000:.1f} ms after SIGINT")
    assert latency < 2.0  # the target is 100 ms; only a wait that never looks takes seconds


N = 8


@pyasc.jit
def meet_and_hand_over(x: pyasc.GlobalAddress, y: pyasc.GlobalAddress, ws: pyasc.GlobalAddress,
                       rounds: int):
    """Every round: each block writes its slot, all meet in sync_all, block b
    reads block b + 1's slot; then blocks 1.. hand block 0 a flag each
    (ib_set/ib_wait) and block 0 adds up what they wrote."""
    g = pyasc.GlobalTensor()
    g.set_global_buffer(x)
    o = pyasc.GlobalTensor()
    o.set_global_buffer(y)
    w = pyasc.GlobalTensor()
    w.set_global_buffer(ws)
    ub = pyasc.LocalTensor(pyasc.int32, pyasc.TPosition.VECCALC, 0, 8)
    b = pyasc.get_block_idx()
    n = pyasc.get_block_num()
    for r in range(rounds):
        g.set_value(b, (r + 1) * (b + 1))
        pyasc.sync_all()
        o.set_value(r * 64 + b, g.get_value((b + 1) % n))
        pyasc.sync_all()  # nobody rewrites a slot before it was read
        if b == 0:
            total = 0
            for j in range(1, n):
                pyasc.ib_wait(w, ub, j, 0)
                total += o.get_value(r * 64 + j)
            o.set_value(r * 64 + 63, total)
        else:
            pyasc.ib_set(w, ub, b, 0)
        pyasc.sync_all()


@pytest.mark.parametrize("blocks", [2, 5, 8])
def test_sync_all_and_flags_together_give_the_right_result(blocks):
    rounds = 3
    x = np.zeros(64, np.int32)
    y = np.full(64 * rounds, -1, np.int32)
    meet_and_hand_over[blocks](x, y, np.zeros(8 * blocks, np.int32), rounds)
    for r in range(rounds):
        slots = (r + 1) * (np.arange(blocks) + 1)
        read = np.roll(slots, -1)
        np.testing.assert_array_equal(y[r * 64:r * 64 + blocks], read)
        assert y[r * 64 + 63] == read[1:].sum()


@pyasc.jit(kernel_type=KernelType.AIV_ONLY)
def mode0_then_sync_all(x: pyasc.GlobalAddress, y: pyasc.GlobalAddress, rounds: int):
    """Each round the blocks meet twice: on a mode-0 flag, then in sync_all."""
    g = pyasc.GlobalTensor()
    g.set_global_buffer(x)
    o = pyasc.GlobalTensor()
    o.set_global_buffer(y)
    b = pyasc.get_block_idx()
    n = pyasc.get_block_num()
    for r in range(rounds):
        g.set_value(b, r * 10 + b)
        pyasc.cross_core_set_flag(1, 0, pyasc.PipeID.PIPE_S)
        pyasc.cross_core_wait_flag(1, 0, pyasc.PipeID.PIPE_S)
        total = 0
        for j in range(n):
            total += g.get_value(j)
        o.set_value(r * 64 + b, total)
        pyasc.sync_all()


@pytest.mark.parametrize("blocks", [2, 7])
def test_mode0_flags_and_sync_all_together_give_the_right_result(blocks):
    rounds = 3
    x = np.zeros(64, np.int64)
    y = np.full(64 * rounds, -1, np.int64)
    mode0_then_sync_all[blocks](x, y, rounds)
    for r in range(rounds):
        want = sum(r * 10 + b for b in range(blocks))
        np.testing.assert_array_equal(y[r * 64:r * 64 + blocks], want)
