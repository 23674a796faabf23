"""Row-wise softmax of a float32 matrix: each block takes a band of rows and
each row runs reduce_max, adds (subtract the maximum), exp, reduce_sum and
div. Rows of any length move with data_copy_pad, which copies whole rows
between GM and 32-byte aligned UB rows; the row statistics are read on the
scalar unit, so set_flag/wait_flag order them after the vector unit."""

import numpy as np

import pyasc as asc

CORE_NUM = 8


@asc.jit
def softmax_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, rows: int, rows_per_block: int,
                   cols: asc.ConstExpr[int]) -> None:
    first = asc.get_block_idx() * rows_per_block
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + first * cols)
    y_gm.set_global_buffer(y + first * cols)
    row_bytes = (cols * 4 + 31) // 32 * 32  # one row, padded to whole data blocks
    pipe = asc.TPipe()
    in_queue = asc.TQue(asc.TPosition.VECIN, 1)
    out_queue = asc.TQue(asc.TPosition.VECOUT, 1)
    work = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(in_queue, 1, row_bytes)
    pipe.init_buffer(out_queue, 1, row_bytes)
    pipe.init_buffer(work, row_bytes + 32)
    row_copy = asc.DataCopyExtParams(1, cols * 4, 0, 0, 0)
    for r in range(min(rows_per_block, rows - first)):
        x_in = in_queue.alloc_tensor(asc.float32)
        asc.data_copy_pad(x_in, x_gm[r * cols:], row_copy,
                          asc.DataCopyPadExtParams(asc.float32, False, 0, 0, 0))
        in_queue.enque(x_in)
        softmax_row(in_queue, out_queue, work, row_bytes, cols)
        y_out = out_queue.deque(asc.float32)
        asc.data_copy_pad(y_gm[r * cols:], y_out, row_copy)
        out_queue.free_tensor(y_out)


@asc.jit
def softmax_row(in_queue: asc.TQue, out_queue: asc.TQue, work: asc.TBuf,
                row_bytes: asc.ConstExpr[int], cols: asc.ConstExpr[int]) -> None:
    x_row = in_queue.deque(asc.float32)
    y_row = out_queue.alloc_tensor(asc.float32)
    scratch = work.get(asc.float32)
    stat = scratch[row_bytes // 4:]  # the reductions' result, after the scratch row
    asc.reduce_max(stat, x_row, scratch, cols)
    row_max = scalar_result(stat)
    asc.adds(y_row, x_row, -row_max, cols)
    asc.exp(y_row, y_row, cols)
    asc.reduce_sum(stat, y_row, scratch, cols)
    row_sum = scalar_result(stat)
    asc.duplicate(scratch, row_sum, cols)
    asc.div(y_row, y_row, scratch, cols)
    out_queue.enque(y_row)
    in_queue.free_tensor(x_row)


@asc.jit
def scalar_result(stat: asc.LocalTensor) -> float:
    """stat[0] on the scalar unit, after the vector unit wrote it and before
    it writes there again."""
    asc.set_flag(asc.HardEvent.V_S, 0)
    asc.wait_flag(asc.HardEvent.V_S, 0)
    value = stat.get_value(0)
    asc.set_flag(asc.HardEvent.S_V, 0)
    asc.wait_flag(asc.HardEvent.S_V, 0)
    return value


def softmax(x: np.ndarray, core_num: int = CORE_NUM) -> np.ndarray:
    """Softmax over the last axis of a 2-d float32 array (any shape)."""
    x = np.ascontiguousarray(x, dtype=np.float32)
    rows, cols = x.shape
    y = np.empty_like(x)
    if x.size:
        rows_per_block = -(-rows // core_num)
        blocks = -(-rows // rows_per_block)
        softmax_kernel[blocks](x, y, rows, rows_per_block, cols)
        asc.synchronize()
    return y


def reference(x: np.ndarray) -> np.ndarray:
    e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    result: np.ndarray = e / e.sum(axis=1, keepdims=True)
    return result


if __name__ == "__main__":
    x = np.random.default_rng(0).standard_normal((37, 300)).astype(np.float32) * 4
    y = softmax(x)
    np.testing.assert_allclose(y, reference(x), rtol=2e-6, atol=1e-9)
    print("softmax: matches NumPy on", x.shape, "float32")
