"""Prints pyasc's type promotion table as the Markdown of docs/dtypes.md.

The table is computed by pyasc itself (the result dtype of adding two
tensors), so the document shows what the library does. Usage:

    PYTHONPATH=build/dev/stage python3 tools/dtype_table.py

and paste the output between the promotion-table markers of docs/dtypes.md;
tests/python/test_dtypes.py checks that the two agree.
"""

from __future__ import annotations

import numpy as np

import pyasc

DTYPES = (
    "bool",
    "int8",
    "uint8",
    "int16",
    "uint16",
    "int32",
    "uint32",
    "int64",
    "uint64",
    "float16",
    "bfloat16",
    "float32",
    "float64",
)
SHORT = {
    "bool": "b",
    "int8": "i8",
    "uint8": "u8",
    "int16": "i16",
    "uint16": "u16",
    "int32": "i32",
    "uint32": "u32",
    "int64": "i64",
    "uint64": "u64",
    "float16": "f16",
    "bfloat16": "bf16",
    "float32": "f32",
    "float64": "f64",
}


def promote(a: str, b: str) -> str:
    """pyasc's result dtype for tensors of dtypes a and b."""
    x = pyasc.Tensor(np.zeros(1), dtype=a)
    y = pyasc.Tensor(np.zeros(1), dtype=b)
    return (x + y).dtype.name


def markdown() -> str:
    """The table: one row per left operand, one column per right operand."""
    lines = ["| | " + " | ".join(SHORT[d] for d in DTYPES) + " |", "|---|" + "---|" * len(DTYPES)]
    for a in DTYPES:
        cells = [SHORT[promote(a, b)] for b in DTYPES]
        lines.append(f"| **{SHORT[a]}** | " + " | ".join(cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(markdown())
