"""Modelled device time of kernel launches: ``with pyasc.profile() as prof``.

Inside the block every ``@pyasc.jit`` launch, every launch of a fused
``@pyasc.op`` kernel and every launch of a ``pyasc.ascendc.load`` kernel
runs a build that carries the timing model (docs/perf-model.md): each
instruction charges cycles to its pipe from one table of Atlas A2 (910B1)
parameters, pipes overlap except
where the program synchronises, and blocks run in waves over the chip's
cores. Results of the kernels are unchanged; outside the block kernels are
built and run exactly as before (no accounting is compiled in).
"""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass, field
from typing import Any

from pyasc._docs import FILL_ONES_TILED, with_parts
from pyasc.language import jit as _jit

# The model's pipe order (rt/core.h ASC_K_S ...) and msprof's names for them.
_PIPES = ("scalar", "vec", "mte1", "mte2", "mte3", "mac", "fixpipe")
PIPES = ("scalar", "vec", "mac", "mte1", "mte2", "mte3", "fixpipe")
# The pipes msprof op reports for each core kind.
_KIND_PIPES = (("aiv", ("scalar", "vec", "mte2", "mte3")),
               ("aic", ("scalar", "mac", "mte1", "mte2", "fixpipe")))


@dataclass
class BlockRecord:
    """One block (core) of a launch: its modelled cycles and busy cycles per pipe."""

    block_idx: int
    core_kind: str  # "aiv" or "aic"
    wave: int
    cycles: float
    busy: dict[str, float]
    spans: list[tuple[str, float, float, int]]  # (pipe, start, end, line), cycles


@dataclass
class LaunchRecord:
    """One launch as ``msprof op`` summarises it (times in microseconds):
    ``task_duration_us`` (waves of blocks plus the launch overhead),
    ``cycles`` (of the task, launch overhead excluded), ``block_num``,
    ``core_time_us`` (a block's mean time, msprof's aiv_time/aic_time),
    ``pipe_time_us`` and ``pipe_ratio`` (each pipe's mean busy time over
    the blocks, and that over core_time_us)."""

    name: str
    block_num: int
    task_duration_us: float
    cycles: float
    core_time_us: float
    pipe_time_us: dict[str, float]
    pipe_ratio: dict[str, float]
    clock_mhz: float
    blocks: list[BlockRecord] = field(default_factory=list)


def _launch_record(name: str, block_num: int, raw: list[Any]) -> LaunchRecord:
    """Sums a launch's block records (see ``CompiledKernel.profile_records``)."""
    blocks: list[BlockRecord] = []
    waves: dict[int, float] = {}
    mhz, launch_us = 1.0, 0.0
    for idx, kind, _sub, wave, _cores, mhz, launch_us, end, busy, spans in raw:
        blocks.append(BlockRecord(idx, "aic" if kind else "aiv", wave, end,
                                  dict(zip(_PIPES, busy)),
                                  [(_PIPES[p], s, e, line) for p, s, e, line in spans]))
        waves[wave] = max(waves.get(wave, 0.0), end)
    cycles = sum(waves.values())
    n = max(len(blocks), 1)
    core = sum(b.cycles for b in blocks) / n
    pipe_time = {p: sum(b.busy[p] for b in blocks) / n / mhz for p in PIPES}
    ratio = {p: (pipe_time[p] * mhz / core if core else 0.0) for p in PIPES}
    return LaunchRecord(name, block_num, cycles / mhz + launch_us, cycles, core / mhz,
                        pipe_time, ratio, mhz, blocks)


class Profile:
    """The launches recorded inside a ``with pyasc.profile()`` block."""

    def __init__(self) -> None:
        self.launches: list[LaunchRecord] = []
        self._previous: Any = None

    def __enter__(self) -> Profile:
        self._previous = _jit._profile_sink
        _jit.set_profile_sink(self._record)
        return self

    def __exit__(self, *exc: object) -> None:
        _jit.set_profile_sink(self._previous)

    def _record(self, name: str, block_num: int, raw: list[Any]) -> None:
        self.launches.append(_launch_record(name, block_num, raw))

    def rows(self) -> list[list[str]]:
        """The summary as ``msprof op`` names its columns (a header row, then a
        row per launch): times of each core kind's pipes (aiv_: scalar, vec,
        mte2, mte3; aic_: scalar, mac, mte1, mte2, fixpipe), means over that
        kind's blocks; a kind the launch did not use is left empty. A kernel
        that uses the cube without being mixed runs one core per block: the
        blocks that did cube work fill the aic_ columns as well."""
        cols = ["Op Name", "Block Dim", "Task Duration(us)"]
        for kind, pipes in _KIND_PIPES:
            cols.append(f"{kind}_time(us)")
            for p in pipes:
                cols += [f"{kind}_{p}_time(us)", f"{kind}_{p}_ratio"]
        rows = [cols]
        for rec in self.launches:
            row = [rec.name, str(rec.block_num), f"{rec.task_duration_us:.3f}"]
            for kind, pipes in _KIND_PIPES:
                blocks = [b for b in rec.blocks if b.core_kind == kind]
                if kind == "aic" and not blocks:  # cube work on the simulator's one core kind
                    blocks = [b for b in rec.blocks if b.busy["mac"] or b.busy["mte1"] or
                              b.busy["fixpipe"]]
                if not blocks:
                    row += [""] * (1 + 2 * len(pipes))
                    continue
                core = sum(b.cycles for b in blocks) / len(blocks)
                row.append(f"{core / rec.clock_mhz:.3f}")
                for p in pipes:
                    busy = sum(b.busy[p] for b in blocks) / len(blocks)
                    row += [f"{busy / rec.clock_mhz:.3f}", f"{busy / core if core else 0:.3f}"]
            rows.append(row)
        return rows

    def table(self, file: Any = None) -> str:
        """The launches in ``msprof op``'s summary columns (see rows());
        printed (to file if given) and returned."""
        rows = self.rows()
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        text = "\n".join("  ".join(c.rjust(w) for c, w in zip(r, widths)) for r in rows)
        print(text, file=file)
        return text

    def export_csv(self, path: str) -> None:
        """Writes rows() as CSV, as ``msprof op`` writes its OpBasicInfo summary."""
        with open(path, "w", encoding="utf-8", newline="") as f:
            csv.writer(f).writerows(self.rows())

    def export_chrome_trace(self, path: str) -> None:
        """Writes the launches' per-core, per-pipe timeline as Chrome trace
        JSON (opens in Perfetto and chrome://tracing): a process per launch,
        a track per block and pipe, launches one after another."""
        events: list[dict[str, Any]] = []
        offset = 0.0
        for li, rec in enumerate(self.launches):
            events.append({"ph": "M", "name": "process_name", "pid": li,
                           "args": {"name": f"{rec.name} (launch {li})"}})
            starts, t = {}, 0.0
            for wave in sorted({b.wave for b in rec.blocks}):
                starts[wave] = t
                t += max(b.cycles for b in rec.blocks if b.wave == wave)
            for b in rec.blocks:
                base = offset + starts[b.wave] / rec.clock_mhz
                for pi, pipe in enumerate(PIPES):
                    tid = b.block_idx * 16 + pi + (8 if b.core_kind == "aic" else 0)
                    events.append({"ph": "M", "name": "thread_name", "pid": li, "tid": tid,
                                   "args": {"name": f"{b.core_kind} {b.block_idx} {pipe}"}})
                for pipe, start, end, line in b.spans:
                    tid = b.block_idx * 16 + PIPES.index(pipe) + (8 if b.core_kind == "aic"
                                                                   else 0)
                    events.append({"ph": "X", "name": pipe, "pid": li, "tid": tid,
                                   "ts": base + start / rec.clock_mhz,
                                   "dur": (end - start) / rec.clock_mhz,
                                   "args": {"line": line & 0xFFFFF}})
            offset += rec.task_duration_us
        with open(path, "w", encoding="utf-8") as f:
            json.dump({"traceEvents": events, "displayTimeUnit": "ns"}, f)


def read_launches(path: str) -> Profile:
    """The launches a host program recorded with ``PYASC_PROFILE_OUT=path``
    (libasc appends a JSON line per launch of a ``.asc`` program's kernel:
    its name, block_num and block records), as a Profile whose ``launches``
    are LaunchRecords like those of ``pyasc.profile()``."""
    prof = Profile()
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                item = json.loads(line)
                prof.launches.append(_launch_record(str(item["name"]), int(item["block_num"]),
                                                    list(item["records"])))
    return prof


@with_parts(fill_ones=FILL_ONES_TILED)
def profile() -> Profile:
    """Records the kernel launches of a ``with`` block under the timing model.

    ``with pyasc.profile() as prof:`` records every kernel launch inside the
    block (``@pyasc.jit`` kernels, fused ``@pyasc.op`` kernels and Ascend C
    kernels from ``pyasc.ascendc.load``) with the
    timing model of docs/perf-model.md (modelled Atlas A2
    device time, not host time) in ``prof.launches``; ``prof.table()``,
    ``prof.export_csv(path)`` and ``prof.export_chrome_trace(path)`` show
    them. Launches inside wait for their stream, so that their records are
    complete.

    Returns
    -------
    Profile
        A context manager; its ``launches`` are LaunchRecords (task
        duration, pipe busy times, per-block records).

    Examples
    --------
    <<fill_ones>>
    >>> z = np.zeros(64, dtype=np.float32)
    >>> with pyasc.profile() as prof:
    ...     fill_ones[1](z, 64, 64)
    >>> len(prof.launches), prof.launches[0].task_duration_us > 0
    (1, True)
    """
    return Profile()


__all__ = ["BlockRecord", "LaunchRecord", "PIPES", "Profile", "profile", "read_launches"]
