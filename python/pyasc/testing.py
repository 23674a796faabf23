"""Deterministic device work for tests and benchmarks, and timing.

Like ``torch.cuda._sleep``, :func:`spin` and :func:`fail` enqueue real work
on a stream: a kernel that keeps its blocks busy, or a task that fails, to
exercise overlap, ordering and deferred error reporting. :func:`do_bench`
times a function as ``triton.testing.do_bench`` does, and reports the
modelled NPU time of its launches (docs/perf-model.md) beside the host's.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pyasc import _C
from pyasc.profiler import profile


def spin(ms: float, blocks: int = 1, stream: _C.Stream | None = None) -> None:
    """Queues a task whose ``blocks`` blocks each keep a core busy for ``ms``.

    Parameters
    ----------
    ms : float
        How long each block spins, in milliseconds.
    blocks : int, optional
        How many blocks (1 by default).
    stream : Stream, optional
        The stream to queue on (the current one by default).

    Returns
    -------
    None
        Once the task is queued: it runs asynchronously.

    Examples
    --------
    >>> s = pyasc.Stream()
    >>> pyasc.testing.spin(1.0, stream=s)
    >>> s.synchronize()
    >>> s.query()
    True
    """
    _C._testing_spin(ms, blocks, stream)


def fail(message: str, stream: _C.Stream | None = None, kernel: bool = False) -> None:
    """Queues a task that fails with ``message``, to test error handling.

    The failure surfaces at the stream's next synchronisation as
    ``pyasc.DeviceError`` (``pyasc.KernelError`` with ``kernel=True``).

    Parameters
    ----------
    message : str
        The failure's message.
    stream : Stream, optional
        The stream to queue on (the current one by default).
    kernel : bool, optional
        Fail as a kernel does (KernelError) rather than a task (DeviceError).

    Returns
    -------
    None
        Once the task is queued.

    Examples
    --------
    >>> s = pyasc.Stream()
    >>> pyasc.testing.fail("boom", stream=s)
    >>> s.synchronize()
    Traceback (most recent call last):
    ...
    pyasc.DeviceError: test task failed: boom
    """
    _C._testing_fail(message, stream, kernel)


@dataclass
class BenchResult:
    """What :func:`do_bench` measured for one call of the function.

    ``device_us``: the modelled Atlas A2 time of the launches one call
    makes (the sum of their Task Durations, docs/perf-model.md): the NPU's
    time, the same on every run. ``host_ms``: the host's wall time of a
    call (``return_mode`` of the timed runs), the simulator's time, which
    says nothing about the NPU. ``host_quantiles``: the requested
    quantiles of the host times, else None. ``launches``: launches per call."""

    device_us: float
    host_ms: float
    launches: int
    host_quantiles: list[float] | None = None


_MODES = ("mean", "median", "min", "max")


def _host_times(fn: Callable[[], object], warmup: int, rep: int) -> list[float]:
    """Wall times (ms) of rep calls after warmup untimed ones; the device
    work of each call is waited for."""
    for _ in range(warmup):
        fn()
    _C.current_stream().synchronize()
    times = []
    for _ in range(rep):
        t0 = time.perf_counter()
        fn()
        _C.current_stream().synchronize()
        times.append((time.perf_counter() - t0) * 1e3)
    return times


def do_bench(fn: Callable[[], object], warmup: int = 1, rep: int = 3,
             quantiles: Sequence[float] | None = None,
             return_mode: str = "mean") -> BenchResult:
    """Times a function that launches kernels, as ``triton.testing.do_bench``.

    One call under ``pyasc.profile()`` gives the modelled device time of its
    launches (deterministic, so one call is enough); then ``warmup`` untimed
    and ``rep`` timed calls without profiling give the host's wall time.
    ``fn`` runs 1 + warmup + rep times: it must tolerate that (a kernel that
    updates its input in place changes it each time).

    Parameters
    ----------
    fn : callable
        A function of no arguments.
    warmup, rep : int, optional
        How many untimed (1) and timed (3) calls.
    quantiles : sequence of float, optional
        Quantiles of the host times to report, each in [0, 1].
    return_mode : {'mean', 'median', 'min', 'max'}, optional
        How to summarise the host times ('mean').

    Returns
    -------
    BenchResult
        ``device_us``, ``host_ms``, ``launches`` per call and
        ``host_quantiles``.

    Raises
    ------
    ValueError
        If return_mode, rep, warmup or a quantile is out of range.

    Examples
    --------
    >>> r = pyasc.testing.do_bench(lambda: pyasc.testing.spin(0.1), rep=2)
    >>> r.launches, r.host_ms > 0
    (0, True)
    """
    if return_mode not in _MODES:
        raise ValueError(f"do_bench: return_mode must be one of {_MODES}, not {return_mode!r}")
    if rep < 1 or warmup < 0:
        raise ValueError("do_bench: rep must be at least 1 and warmup at least 0")
    if quantiles is not None and any(not 0 <= q <= 1 for q in quantiles):
        raise ValueError("do_bench: quantiles lie in [0, 1]")
    with profile() as prof:
        fn()
    device_us = sum(rec.task_duration_us for rec in prof.launches)
    times = _host_times(fn, warmup, rep)
    summarise: dict[str, Callable[[list[float]], float]] = {
        "mean": statistics.fmean, "median": statistics.median, "min": min, "max": max}
    summary = summarise[return_mode](times)
    qs = None
    if quantiles is not None:
        ordered = sorted(times)
        qs = [ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] for q in quantiles]
    return BenchResult(device_us, summary, len(prof.launches), qs)


__all__ = ["BenchResult", "do_bench", "fail", "spin"]
