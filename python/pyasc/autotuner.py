"""Kernel configurations picked by modelled NPU time: ``@pyasc.autotune``.

In the spirit of ``triton.autotune``: a kernel is given a list of
:class:`Config` (values of its ``ConstExpr`` parameters, such as tile
sizes or buffer depths, and optionally a core count); the first launch
for a new key runs every config under ``pyasc.profile()`` on copies of the
array arguments and keeps the one with the shortest modelled Task Duration
(docs/perf-model.md), then every launch with that key runs the kept config
on the real arguments. Host time plays no part, so the choice is the same
on every machine and every run.

    @pyasc.autotune(configs=[pyasc.Config({"tile": 2048, "depth": 1}),
                             pyasc.Config({"tile": 2048, "depth": 2})], key=["n"])
    @pyasc.jit
    def kernel(x, y, n, tile: pyasc.ConstExpr[int], depth: pyasc.ConstExpr[int]): ...

    kernel[8, stream](x, y, n)      # tile and depth come from the best config
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pyasc import _C
from pyasc._docs import FILL_ONES, FILL_ONES_TILED, with_parts
from pyasc.profiler import profile


# the examples' kernel and a tuner of it (a docstring's <<tuner>> line)
_TUNER = FILL_ONES + '\n>>> tuner = pyasc.Autotuner(fill_ones, [pyasc.Config(block_num=1)], ["n"])'


@dataclass(frozen=True)
class Config:
    """One configuration of a kernel for :func:`autotune` to try.

    Parameters
    ----------
    kwargs : dict of str to object, optional
        Keyword arguments of the launch: the kernel's ConstExpr parameters,
        bound by name.
    block_num : int, optional
        When given, replaces the launch's core count.

    Examples
    --------
    >>> str(pyasc.Config({"tile": 64, "depth": 2}, block_num=8))
    'tile=64, depth=2, block_num=8'
    """

    kwargs: dict[str, Any] = field(default_factory=dict)
    block_num: int | None = None

    def __str__(self) -> str:
        parts = [f"{k}={v!r}" for k, v in self.kwargs.items()]
        if self.block_num is not None:
            parts.append(f"block_num={self.block_num}")
        return ", ".join(parts)


def _copy(value: Any) -> Any:
    """A private copy of an array argument (trial launches must not write
    the caller's arrays); anything else as it is."""
    if hasattr(value, "shape") and hasattr(value, "dtype") and hasattr(value, "copy"):
        return value.copy()
    return value


@with_parts(tuner=_TUNER)
class Autotuner:
    """A kernel with its configs, as :func:`autotune` makes it.

    ``tuner[core_num]`` or ``tuner[core_num, stream]`` launches as the
    kernel does (see the module's docstring). ``cache`` maps each key to its
    chosen Config, ``timings`` each key to the modelled microseconds of every
    config (None: the config failed to build or run), ``best_config`` is the
    last used.

    Parameters
    ----------
    kernel : JITFunction
        The ``@pyasc.jit`` kernel.
    configs : sequence of Config
        The configurations to try, at least one.
    key : sequence of str
        The parameters whose values (beside the arrays' shapes and dtypes)
        make a new key, tuned anew.

    Raises
    ------
    ValueError
        If configs is empty, or key names a parameter the kernel lacks.

    Examples
    --------
    <<tuner>>
    >>> tuner.cache, tuner.best_config
    ({}, None)
    """

    def __init__(self, kernel: Any, configs: Sequence[Config], key: Sequence[str]) -> None:
        if not configs:
            raise ValueError("autotune: give at least one Config")
        params = list(kernel.params) if hasattr(kernel, "params") else []
        self._names = [p.name for p in params]
        unknown = [k for k in key if k not in self._names]
        if unknown:
            raise ValueError(f"autotune: key names {unknown} are not parameters of the kernel")
        self.kernel = kernel
        self.configs = list(configs)
        self.key = list(key)
        self.cache: dict[tuple[Any, ...], Config] = {}
        self.timings: dict[tuple[Any, ...], list[tuple[Config, float | None]]] = {}
        self.best_config: Config | None = None

    def __getitem__(self, grid: Any) -> Callable[..., None]:
        if isinstance(grid, tuple) and not 1 <= len(grid) <= 2:
            raise TypeError("tuner[core_num] or tuner[core_num, stream]")
        core_num, stream = (grid + (None,))[:2] if isinstance(grid, tuple) else (grid, None)
        return lambda *args, **kwargs: self.run(core_num, stream, args, kwargs)

    def _key(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...]:
        """Shapes and dtypes of the array arguments, and the values of the
        arguments named in ``key``."""
        named = dict(zip(self._names, args))
        named.update(kwargs)
        parts: list[Any] = []
        for name, value in named.items():
            if hasattr(value, "shape") and hasattr(value, "dtype"):
                parts.append((name, tuple(value.shape), str(value.dtype)))
            elif name in self.key:
                parts.append((name, value))
        return tuple(parts)

    def _launch(self, cfg: Config, core_num: int, stream: Any, args: tuple[Any, ...],
                kwargs: dict[str, Any]) -> None:
        blocks = cfg.block_num if cfg.block_num is not None else core_num
        self.kernel[blocks, stream](*args, **kwargs, **cfg.kwargs)

    def _modelled_us(self, cfg: Config, core_num: int, stream: Any, args: tuple[Any, ...],
                     kwargs: dict[str, Any]) -> float:
        """The config's modelled time on copies of the arguments."""
        trial_args = tuple(_copy(a) for a in args)
        trial_kwargs = {k: _copy(v) for k, v in kwargs.items()}
        with profile() as prof:
            self._launch(cfg, core_num, stream, trial_args, trial_kwargs)
        return sum(rec.task_duration_us for rec in prof.launches)

    def _tune(self, key: tuple[Any, ...], core_num: int, stream: Any, args: tuple[Any, ...],
              kwargs: dict[str, Any]) -> Config:
        """Every config's modelled time; the fastest (the first of equals).
        A config that fails to build or run is skipped; if all fail, the
        first failure is raised."""
        timings: list[tuple[Config, float | None]] = []
        first_error: Exception | None = None
        for cfg in self.configs:
            try:
                timings.append((cfg, self._modelled_us(cfg, core_num, stream, args, kwargs)))
            except _C.Error as err:  # e.g. a tile that does not fit the UB
                timings.append((cfg, None))
                first_error = first_error or err
        self.timings[key] = timings
        ok = [(us, i) for i, (_, us) in enumerate(timings) if us is not None]
        if not ok:
            assert first_error is not None
            raise first_error
        return self.configs[min(ok)[1]]

    @with_parts(tuner=_TUNER)
    def run(self, core_num: int, stream: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        """Launches the key's chosen config, tuning first for a new key.

        ``tuner[core_num, stream](*args, **kwargs)`` calls this.

        Parameters
        ----------
        core_num : int
            The launch's core count (a Config's block_num replaces it).
        stream : Stream or None
            The stream to launch on.
        args, kwargs : tuple and dict
            The launch's arguments.

        Returns
        -------
        None
            Once the launch is queued.

        Examples
        --------
        <<tuner>>
        >>> z = np.zeros(64, dtype=np.float32)
        >>> tuner.run(4, None, (z, 64), {})
        >>> pyasc.synchronize()
        >>> float(z.sum()), str(tuner.best_config)
        (64.0, 'block_num=1')
        """
        key = self._key(args, kwargs)
        cfg = self.cache.get(key)
        if cfg is None:
            cfg = self.cache[key] = self._tune(key, core_num, stream, args, kwargs)
        self.best_config = cfg
        self._launch(cfg, core_num, stream, args, kwargs)


@with_parts(fill_ones=FILL_ONES_TILED)
def autotune(configs: Sequence[Config], key: Sequence[str] = ()) -> Callable[[Any], Autotuner]:
    """Picks a kernel's configuration by modelled device time, as ``triton.autotune``.

    ``@pyasc.autotune(configs=[...], key=[...])`` above ``@pyasc.jit``:
    launches pick the config with the shortest modelled device time, tuned
    once per key (array shapes and dtypes, and the values of the parameters
    named in ``key``) and cached in memory (see the module's docstring).

    Parameters
    ----------
    configs : sequence of Config
        The configurations to try.
    key : sequence of str, optional
        The parameters whose values make a new key.

    Returns
    -------
    callable
        A decorator turning a ``@pyasc.jit`` kernel into an
        :class:`Autotuner`.

    Examples
    --------
    <<fill_ones>>
    >>> tuned = pyasc.autotune([pyasc.Config({"tile": 32}), pyasc.Config({"tile": 64})],
    ...                        key=["n"])(fill_ones)
    >>> z = np.zeros(128, dtype=np.float32)
    >>> tuned[1](z, 128)
    >>> float(z.sum())
    128.0
    >>> [str(cfg) for cfg, us in tuned.timings[next(iter(tuned.timings))]]
    ['tile=32', 'tile=64']
    """
    return lambda kernel: Autotuner(kernel, configs, key)


__all__ = ["Autotuner", "Config", "autotune"]
