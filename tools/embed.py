"""Writes a C file defining `const char NAME[]` with the text of a C header.

Lines `#include "rt/FILE.h"` (a path relative to the input, without `..`)
are replaced by that file's text, so that a header split into unit files
still embeds as one self-contained text. Other includes are kept.

Usage: python tools/embed.py INPUT OUTPUT NAME
"""

import os
import re
import sys

_LOCAL = re.compile(r'^#include "(rt/[A-Za-z0-9_]+\.h)"')


def expand(path: str) -> str:
    """The text of path with its local unit includes inlined (one level)."""
    base = os.path.dirname(path)
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = _LOCAL.match(line)
            if m:
                with open(os.path.join(base, m.group(1)), encoding="utf-8") as unit:
                    text = unit.read()
                out.append(text if text.endswith("\n") else text + "\n")
            else:
                out.append(line)
    return "".join(out)


def main() -> None:
    src, dst, name = sys.argv[1:4]
    text = expand(src)
    lines = [f"/* generated from {src.split('/')[-1]} by tools/embed.py */", f"const char {name}[] ="]
    for line in text.splitlines(keepends=True):
        escaped = line.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        lines.append(f'    "{escaped}"')
    lines.append("    ;")
    with open(dst, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
