"""Per-call overhead of a small pyasc operator through the framework bridges,
next to a plain framework op measured in the same run.

Rows (16 float32 elements, call to result): the seed's my_custom_op
((x + y) * 2.0) through ``to_torch`` next to torch's own ``(x + y) * 2``;
the same under ``torch.autograd`` (forward + backward); through ``to_jax``
inside ``jax.jit`` next to the jitted jnp expression; and pyasc's eager call
and ``pyasc.grad`` without a framework.
Usage: make bench   (or PYTHONPATH=build/dev/stage python bench/framework.py)
"""

from __future__ import annotations

import functools
from typing import Callable

import numpy as np

import pyasc

import bench_timing  # bench/bench_timing.py


best = functools.partial(bench_timing.best, inner=200, warmup=True)


@pyasc.op
def my_custom_op(x, y):
    return (x + y) * 2.0


def row(name: str, ours: float, base: float | None, base_name: str) -> None:
    ratio = f"{ours / base:7.1f}x" if base else "    n/a"
    base_text = f"{base * 1e6:9.1f}" if base else "      n/a"
    print(f"{name:<34} {ours * 1e6:9.1f} {base_text}  {ratio}  ({base_name})")


def main() -> None:
    n = 16
    xa = np.random.default_rng(0).random(n, dtype=np.float32)
    ya = np.random.default_rng(1).random(n, dtype=np.float32)
    print(f"{'16 float32 elements':<34} {'us/call':>9} {'baseline':>9}  {'ratio':>7}")
    xp, yp = pyasc.asarray(xa), pyasc.asarray(ya)
    eager = best(lambda: my_custom_op(xp, yp).numpy())
    base_np = best(lambda: (xa + ya) * 2.0)
    row("pyasc eager op (+ numpy())", eager, base_np, "numpy")
    grad_fn = pyasc.grad(lambda x, y: pyasc.sum(my_custom_op(x, y)))
    row("pyasc.grad", best(lambda: grad_fn(xp, yp).numpy()), eager, "eager op")

    try:
        import torch
    except ImportError:
        torch = None
    if torch is not None:
        top = my_custom_op.to_torch("pyasc_bench")
        xt, yt = torch.from_numpy(xa), torch.from_numpy(ya)
        row("torch bridge forward", best(lambda: top(xt, yt)), best(lambda: (xt + yt) * 2.0),
            "torch op")
        xg, yg = xt.clone().requires_grad_(), yt.clone().requires_grad_()

        def fb(f: Callable[..., object]) -> Callable[[], None]:
            def run() -> None:
                f(xg, yg).sum().backward()

            return run

        row("torch bridge forward+backward", best(fb(top), inner=50),
            best(fb(lambda x, y: (x + y) * 2.0), inner=50), "torch op")
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        jax = None
    if jax is not None:
        jf = jax.jit(my_custom_op.to_jax())
        jref = jax.jit(lambda x, y: (x + y) * 2.0)
        xj, yj = jnp.asarray(xa), jnp.asarray(ya)
        row("jax bridge in jax.jit", best(lambda: jf(xj, yj).block_until_ready()),
            best(lambda: jref(xj, yj).block_until_ready()), "jitted jnp")
        jg = jax.jit(jax.grad(lambda x, y: jnp.sum(jax.jit(my_custom_op.to_jax())(x, y))))
        jgr = jax.jit(jax.grad(lambda x, y: jnp.sum((x + y) * 2.0)))
        row("jax bridge jit(grad)", best(lambda: jg(xj, yj).block_until_ready(), inner=50),
            best(lambda: jgr(xj, yj).block_until_ready(), inner=50), "jitted jnp")


if __name__ == "__main__":
    main()
