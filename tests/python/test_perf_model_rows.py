"""The timing model's strided GM copies (docs/perf-model.md): DataCopyPad,
DataCopyParams and Nd2Nz charge the L2 and HBM row by row at the rows' GM
addresses, and a read's row that crosses line boundaries it need not cross
costs HBM a line per extra piece. The expected cycles are computed here
from the table, not read back from the model."""

import numpy as np
import pytest

import pyasc as asc

MHZ = 1850.0
GM_BYTES_PER_CYCLE = 1.49e12 / (MHZ * 1e6)
GM_LATENCY = 200.0
L2_LINE = 512
AIV_CORES = 48


@asc.jit
def tiles_pad(x: asc.GlobalAddress, n: asc.ConstExpr[int], rows: asc.ConstExpr[int],
              cols: asc.ConstExpr[int], tiles: asc.ConstExpr[int]) -> None:
    """Block b reads `tiles` tiles side by side, each `rows` rows of `cols`
    halves of the n-wide matrix from row b * rows (DataCopyPad)."""
    gm = asc.GlobalTensor()
    gm.set_global_buffer(x, n * rows * asc.get_block_num())
    ub = asc.LocalTensor(asc.float16, asc.TPosition.VECIN, 0, rows * cols)
    for t in range(tiles):
        asc.data_copy_pad(ub, gm[asc.get_block_idx() * rows * n + t * cols:],
                          asc.DataCopyParams(rows, cols * 2, (n - cols) * 2, 0),
                          asc.DataCopyPadParams(False, 0, 0, 0))


@asc.jit
def tiles_nd2nz(x: asc.GlobalAddress, n: asc.ConstExpr[int], rows: asc.ConstExpr[int],
                cols: asc.ConstExpr[int], tiles: asc.ConstExpr[int]) -> None:
    """As tiles_pad, into L1 with DataCopy's ND-to-NZ form."""
    gm = asc.GlobalTensor()
    gm.set_global_buffer(x, n * rows * asc.get_block_num())
    l1 = asc.LocalTensor(asc.float16, asc.TPosition.A1, 0,
                         (rows + 15) // 16 * 16 * ((cols + 15) // 16 * 16))
    for t in range(tiles):
        asc.data_copy(l1, gm[asc.get_block_idx() * rows * n + t * cols:],
                      asc.Nd2NzParams(1, rows, cols, 0, n, (rows + 15) // 16 * 16, 1, 0))


def _mte2(kernel, n, rows, cols, tiles, blocks=AIV_CORES):
    x = np.zeros(n * rows * blocks, np.float16)
    with asc.profile() as prof:
        kernel[blocks, asc.current_stream()](x, n, rows, cols, tiles)
    return [b.busy["mte2"] for b in prof.launches[0].blocks]


def _share():
    """A core's share of the HBM bandwidth when 48 run (bytes a cycle)."""
    return GM_BYTES_PER_CYCLE / AIV_CORES


@pytest.mark.parametrize("kernel", [tiles_pad, tiles_nd2nz], ids=["pad", "nd2nz"])
def test_tiles_side_by_side_each_fetch_their_own_rows(kernel):
    """Four tiles of 16 rows of 512 bytes, side by side in rows 8 KiB apart:
    every row is a line of its own, so each copy waits its latency and
    fetches its 16 lines at the core's share of the HBM (which binds with
    48 cores). A copy seen as one contiguous run from its first byte would
    overlap the next tile's and find most of it in the L2."""
    n, rows, cols, tiles = 4096, 16, 256, 4
    want = tiles * (GM_LATENCY + rows * L2_LINE / _share())
    for busy in _mte2(kernel, n, rows, cols, tiles):
        assert busy == pytest.approx(want, rel=1e-9)


@pytest.mark.parametrize("kernel", [tiles_pad, tiles_nd2nz], ids=["pad", "nd2nz"])
def test_rows_off_their_lines_pay_a_line_per_extra_piece(kernel):
    """Rows of 2,046 bytes, 8,190 bytes apart (the matrix is 4,095 halves
    wide), read as two tiles side by side: most rows start off a line and
    span five lines where four would do; the line a row shares with the
    next tile's row is in the L2 for the second tile, which pays for that
    piece all the same. Against the aligned matrix (4,096 wide, 2,048-byte
    rows), the difference is a line for every row that crosses one more
    boundary than it needs and meets a line already fetched."""
    rows, cols, tiles = 32, 1023, 2
    aligned = _mte2(kernel, 4096, rows, 1024, tiles)
    ragged = _mte2(kernel, 4095, rows, cols, tiles)
    for b, (busy_a, busy_r) in enumerate(zip(aligned, ragged)):
        base = b * rows * 4095 * 2  # the argument starts on a line
        extra = 0
        lines = set()
        for t in range(tiles):
            for r in range(rows):
                start = base + r * 4095 * 2 + t * cols * 2
                end = start + cols * 2
                pieces = list(range(start // L2_LINE, (end - 1) // L2_LINE + 1))
                hits = sum(1 for line in pieces if line in lines)
                fewest = -(-cols * 2 // L2_LINE)
                extra += min(len(pieces) - fewest, hits)
                lines.update(pieces)
        want = busy_a + (len(lines) - rows * tiles * 4 + extra) * L2_LINE / _share()
        assert busy_r == pytest.approx(want, rel=1e-6), f"block {b}"
