"""Writes a C file defining `const char NAME[]` with the bytes of a text file.

Usage: python tools/embed.py INPUT OUTPUT NAME
"""

import sys


def main() -> None:
    src, dst, name = sys.argv[1:4]
    with open(src, encoding="utf-8") as f:
        text = f.read()
    lines = [f"/* generated from {src.split('/')[-1]} by tools/embed.py */", f"const char {name}[] ="]
    for line in text.splitlines(keepends=True):
        escaped = line.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        lines.append(f'    "{escaped}"')
    lines.append("    ;")
    with open(dst, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
