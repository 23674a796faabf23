"""What the cube kernels of the timing model's benches share
(perf_model_matmul.py, perf_model_guides.py), and the tests' through
tests/python/cube_helpers.py."""

import pyasc as asc


@asc.jit
def gm_abc(a: asc.GlobalAddress, b: asc.GlobalAddress,
           c: asc.GlobalAddress) -> tuple[asc.GlobalTensor, asc.GlobalTensor, asc.GlobalTensor]:
    """Global tensors over a, b and c (no length)."""
    a_gm = asc.GlobalTensor()
    b_gm = asc.GlobalTensor()
    c_gm = asc.GlobalTensor()
    a_gm.set_global_buffer(a)
    b_gm.set_global_buffer(b)
    c_gm.set_global_buffer(c)
    return a_gm, b_gm, c_gm
