"""Writes a C file defining `const char NAME[]` with the text of a C header.

Lines `#include "DIR/FILE.h"` (a path relative to the input, without `..`)
for a DIR of _PART_DIRS are replaced by that file's text, and so are a
unit's own `#include "FILE.h"` of a file beside it there (a unit split into
parts, such as rt/cube.h), so that a header split into unit files still
embeds as one self-contained text. Other includes are kept.

Usage: python tools/embed.py INPUT OUTPUT NAME [DEPFILE]
DEPFILE, when given, is a Make-style depfile naming every file inlined, for
the build to rerun when one of them changes.
"""

import os
import re
import sys

# The folders whose headers are parts of the one embedded text: the kernel
# runtime's units (src/compiler/rt) and kernel_operator.h's sections.
_PART_DIRS = ("rt", "kernel_operator")
_LOCAL = re.compile(r'^#include "((?:(?:rt|kernel_operator)/)?[A-Za-z0-9_]+\.h)"')


def _unit(path: str, name: str) -> str | None:
    """The file an include of name in path means, if it is a part to inline."""
    target = os.path.join(os.path.dirname(path), name)
    return target if os.path.basename(os.path.dirname(target)) in _PART_DIRS else None


def expand(path: str, parts: list[str] | None = None) -> str:
    """The text of path with its unit includes inlined, a unit's parts too;
    every file read is appended to parts."""
    if parts is not None:
        parts.append(path)
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = _LOCAL.match(line)
            unit = _unit(path, m.group(1)) if m else None
            if unit:
                text = expand(unit, parts)
                out.append(text if text.endswith("\n") else text + "\n")
            else:
                out.append(line)
    return "".join(out)


def main() -> None:
    src, dst, name = sys.argv[1:4]
    parts: list[str] = []
    text = expand(src, parts)
    lines = [f"/* generated from {src.split('/')[-1]} by tools/embed.py */", f"const char {name}[] ="]
    for line in text.splitlines(keepends=True):
        escaped = line.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        lines.append(f'    "{escaped}"')
    lines.append("    ;")
    with open(dst, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    if len(sys.argv) > 4:
        with open(sys.argv[4], "w", encoding="utf-8") as f:
            f.write(_escape(dst) + ": " + " ".join(_escape(p) for p in parts) + "\n")


def _escape(path: str) -> str:
    """path as a Make depfile writes it (spaces escaped)."""
    return path.replace(" ", "\\ ")


if __name__ == "__main__":
    main()
