"""Matrix multiplication with the cube's basic APIs, written by hand:
C (m x n) = A (m x k) @ B (k x n), fp16 or bf16 inputs accumulated in
float32 (or int8 into int32).

Each block takes output tiles of BASE_M x BASE_N in turn. Per K step, A and
B go from global memory to L1 as NZ fractals (data_copy with Nd2NzParams),
then load_data moves A's fractals to L0A and B's to L0B (each 16 x 16
fractal transposed), mmad accumulates into L0C, and after the last step
fixpipe writes the tile to global memory, converting float32 to the
output's type. The TQues order the stages as in Ascend C."""

import numpy as np

import pyasc as asc

BASE_M = 128
BASE_N = 128
BASE_K = 64


@asc.jit
def matmul_basic_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
                        m: int, n: int, k: int, quant: asc.ConstExpr[int],
                        c0: asc.ConstExpr[int]) -> None:
    a_gm = asc.GlobalTensor()
    b_gm = asc.GlobalTensor()
    c_gm = asc.GlobalTensor()
    a_gm.set_global_buffer(a, m * k)
    b_gm.set_global_buffer(b, k * n)
    c_gm.set_global_buffer(c, m * n)
    in_type = a.dtype
    acc_type = asc.int32 if in_type == asc.int8 else asc.float32

    pipe = asc.TPipe()
    q_a1 = asc.TQue(asc.TPosition.A1, 1)
    q_b1 = asc.TQue(asc.TPosition.B1, 1)
    q_a2 = asc.TQue(asc.TPosition.A2, 1)
    q_b2 = asc.TQue(asc.TPosition.B2, 1)
    q_co1 = asc.TQue(asc.TPosition.CO1, 1)
    pipe.init_buffer(q_a1, 1, BASE_M * BASE_K * in_type.sizeof())
    pipe.init_buffer(q_b1, 1, BASE_K * BASE_N * in_type.sizeof())
    pipe.init_buffer(q_a2, 1, BASE_M * BASE_K * in_type.sizeof())
    pipe.init_buffer(q_b2, 1, BASE_K * BASE_N * in_type.sizeof())
    pipe.init_buffer(q_co1, 1, BASE_M * BASE_N * 4)

    tiles_n = (n + BASE_N - 1) // BASE_N
    tiles = (m + BASE_M - 1) // BASE_M * tiles_n
    frac = 16 * c0  # elements of one 512-byte fractal
    for t in range(asc.get_block_idx(), tiles, asc.get_block_num()):
        m0 = t // tiles_n * BASE_M
        n0 = t % tiles_n * BASE_N
        tm = min(BASE_M, m - m0)
        tn = min(BASE_N, n - n0)
        m1 = (tm + 15) // 16
        n1 = (tn + 15) // 16
        c1 = q_co1.alloc_tensor(acc_type)
        for k0 in range(0, k, BASE_K):
            sk = min(BASE_K, k - k0)
            k1 = (sk + c0 - 1) // c0
            a1 = q_a1.alloc_tensor(in_type)
            b1 = q_b1.alloc_tensor(in_type)
            # A's rows along the fractal rows, C0 columns of K per fractal
            asc.data_copy(a1, a_gm[m0 * k + k0:], asc.Nd2NzParams(1, tm, sk, 0, k, m1 * 16, 1, 0))
            if c0 == 16:
                # B (k x n): NZ with C0 along N; load_data transposes each fractal
                asc.data_copy(b1, b_gm[k0 * n + n0:],
                              asc.Nd2NzParams(1, sk, tn, 0, n, k1 * 16, 1, 0))
            else:
                # int8: B is passed transposed (n x k), so its NZ fractals are L0B's
                asc.data_copy(b1, b_gm[n0 * k + k0:],
                              asc.Nd2NzParams(1, tn, sk, 0, k, n1 * 16, 1, 0))
            q_a1.enque(a1)
            q_b1.enque(b1)
            a1 = q_a1.deque(in_type)
            b1 = q_b1.deque(in_type)
            a2 = q_a2.alloc_tensor(in_type)
            b2 = q_b2.alloc_tensor(in_type)
            for i in range(m1):
                asc.load_data(a2[i * k1 * frac:], a1, asc.LoadData2DParams(i, k1, m1, 0, 0, False))
            for q in range(k1):
                if c0 == 16:
                    asc.load_data(b2[q * n1 * frac:], b1,
                                  asc.LoadData2DParams(q, n1, k1, 0, 0, True))
                else:
                    asc.load_data(b2[q * n1 * frac:], b1,
                                  asc.LoadData2DParams(q * n1, n1, 1, 0, 0, False))
            q_a1.free_tensor(a1)
            q_b1.free_tensor(b1)
            q_a2.enque(a2)
            q_b2.enque(b2)
            a2 = q_a2.deque(in_type)
            b2 = q_b2.deque(in_type)
            asc.mmad(c1, a2, b2, asc.MmadParams(tm, tn, sk, cmatrix_init_val=k0 == 0))
            q_a2.free_tensor(a2)
            q_b2.free_tensor(b2)
        q_co1.enque(c1)
        c1 = q_co1.deque(acc_type)
        asc.fixpipe(c_gm[m0 * n + n0:], c1,
                    asc.FixpipeParamsV220(tn, tm, m1 * 16, n, quant_pre=quant))
        q_co1.free_tensor(c1)


def matmul_basic(a: np.ndarray, b: np.ndarray, out_dtype: np.typing.DTypeLike | None = None, cores: int = 4) -> np.ndarray:
    """a @ b on the simulated cube; a and b float16 (result float32 unless
    out_dtype says float16), bfloat16 arrays via pyasc tensors, or int8
    (result int32)."""
    m, k = a.shape
    n = b.shape[1]
    if a.dtype == np.int8:
        out, quant, c0, b_in = np.zeros((m, n), np.int32), asc.QuantModes.NoQuant, 32, \
            np.ascontiguousarray(b.T)
    else:
        out_dtype = np.dtype(out_dtype or np.float32)
        quant = asc.QuantModes.F322F16 if out_dtype == np.float16 else asc.QuantModes.NoQuant
        out, c0, b_in = np.zeros((m, n), out_dtype), 16, b
    matmul_basic_kernel[cores](a, b_in, out, m, n, k, int(quant), c0)
    return out


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    a = rng.standard_normal((300, 200)).astype(np.float16)
    b = rng.standard_normal((200, 150)).astype(np.float16)
    c = matmul_basic(a, b)
    ref = a.astype(np.float32) @ b.astype(np.float32)
    print("matmul_basic: max |c - ref| =", float(np.abs(c - ref).max()))
