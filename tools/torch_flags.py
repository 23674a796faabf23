#!/usr/bin/env python3
"""Prints what meson needs to build pyasc's torch "npu" extension against the
torch that this Python imports: the include directories (space-separated),
the library directory and the C++ ABI flag (0 or 1), one a line. Exits 1
when torch cannot be imported."""

from __future__ import annotations

import sys


def main() -> int:
    """Prints the three lines; 1 when torch is missing."""
    try:
        import torch
        from torch.utils import cpp_extension
    except ImportError as e:
        print(f"torch is not importable: {e}", file=sys.stderr)
        return 1
    print(" ".join(cpp_extension.include_paths()))
    print(cpp_extension.library_paths()[0])
    print(int(torch._C._GLIBCXX_USE_CXX11_ABI))
    return 0


if __name__ == "__main__":
    sys.exit(main())
