"""Writes the C header of the NumPy-style docstrings of pyasc's C functions.

The docstrings are data, in docs/docstrings/<family>.py (docs/contributing.md,
"Docstrings"): each file defines TEMPLATE, the sections its family shares,
and ENTRIES, one dict per function with the fields that differ (summary,
the maths, an example's input and output). This renders every entry and
writes, for the extension's method tables (src/binding),

    #define ASC_DOCTEXT_<name> "<the function's docstring>"
    #define ASC_METHDOC_<name> "<the Tensor method's docstring>"

A class is documented as "Stream" (no Returns section) and a method of a
class other than Tensor as "Stream.synchronize" (ASC_DOCTEXT_Stream_synchronize).
An entry is a function (the default; `function: False` for a method only)
and also a Tensor method with `method: True`, whose docstring leaves out
the parameter the method has as self (self_param, "x" by default).

The text signature stays in C, beside the argument parser whose keywords
it names (ASC_DOC in src/binding/binding.h puts the two together).

Usage: python tools/gen_docstrings.py OUTPUT TABLE.py...
"""

from __future__ import annotations

import re
import runpy
import sys
import textwrap
from typing import Any

Entry = dict[str, Any]
_FIELD = re.compile(r"\{([a-z_]+)\}")
_FIELDS = {"name", "summary", "details", "params", "returns", "raises", "example", "method",
           "method_example", "method_raises", "notes", "function", "see_also", "alias_of", "self_param", "method_params"}


def _fill(text: str, entry: Entry) -> str:
    """text with each {field} replaced by the entry's field (twice: a field's
    text may name another); other braces, as in {'xy', 'ij'}, stay."""
    def field(m: re.Match[str]) -> str:
        if m.group(1) not in entry:
            raise SystemExit(f"docstrings: {entry['name']}: no field {m.group(1)!r}")
        return str(entry[m.group(1)])

    for _ in range(2):
        text = _FIELD.sub(field, text)
    return text


def _wrap(text: str, indent: str) -> list[str]:
    """text reflowed at 76 columns, indented: its paragraphs (split by blank
    lines) are refilled, so a table may break its lines anywhere."""
    out: list[str] = []
    for para in text.strip().split("\n\n"):
        if out:
            out.append("")
        words = " ".join(line.strip() for line in para.split("\n"))
        out += textwrap.wrap(words, 76 - len(indent), break_on_hyphens=False,
                             break_long_words=False) or [""]
    return [indent + line if line else "" for line in out]


def _section(title: str, body: list[str]) -> list[str]:
    return [title, "-" * len(title), *body, ""]


def _params(params: list[tuple[str, str, str]], entry: Entry) -> list[str]:
    out = []
    for name, kind, desc in params:
        out.append(f"{name} : {_fill(kind, entry)}")
        out.extend(_wrap(_fill(desc, entry), "    "))
    return out


def render(entry: Entry, method: bool) -> str:
    """The docstring of an entry (its fields already merged with the template's)."""
    name = entry["name"]
    lines = [_fill(entry["summary"], entry), ""]
    details = _fill(entry.get("details", ""), entry).strip()
    if details:
        lines += [*_wrap(details, ""), ""]
    params = entry.get("params", [])
    if method:
        params = entry.get("method_params") or [p for p in params
                                                if p[0] != entry.get("self_param", "x")]
    if params:
        lines += _section("Parameters", _params(params, entry))
    if entry.get("returns"):  # a class has none
        kind, desc = entry["returns"]
        lines += _section("Returns", [_fill(kind, entry), *_wrap(_fill(desc, entry), "    ")])
    raises = entry.get("method_raises", entry.get("raises")) if method else entry.get("raises")
    if raises:
        lines += _section("Raises", _params([(e, "", d) for e, d in raises], entry))
        lines = [line.replace(" : ", "", 1) if line.endswith(" : ") else line
                 for line in lines]
    if entry.get("see_also"):
        lines += _section("See Also", [_fill(entry["see_also"], entry)])
    if entry.get("notes"):
        lines += _section("Notes", _wrap(_fill(entry["notes"], entry), ""))
    example = (method and entry.get("method_example")) or entry.get("example")
    if not example:
        raise SystemExit(f"docstrings: {name}: no example")
    lines += _section("Examples", [_fill(example, entry).strip()])
    return "\n".join(lines).rstrip() + "\n"


def entries(path: str) -> list[tuple[Entry, bool]]:
    """The entries of one table merged with its template, with whether each
    is also a Tensor method."""
    table = runpy.run_path(path)
    template: Entry = table.get("TEMPLATE", {})
    by_name: dict[str, Entry] = {}
    out = []
    for raw in table["ENTRIES"]:
        unknown = set(raw) - _FIELDS - set(template) - set(template.get("fields", ()))
        if unknown:
            raise SystemExit(f"{path}: {raw.get('name')}: unknown fields {sorted(unknown)}")
        base = by_name[raw["alias_of"]] if "alias_of" in raw else {}
        entry = {**template, **base, **raw}
        if "alias_of" in raw and "summary" not in raw:
            entry["summary"] = base["summary"]
        if "alias_of" in raw:
            entry["see_also"] = f"{raw['alias_of']} : the same function under another name."
        by_name[raw["name"]] = entry
        out.append((entry, bool(entry.get("method", False))))
    return out


def c_string(text: str) -> str:
    """text as a C string literal, a line of source per line of text."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    parts = escaped.split("\n")
    return " \\\n  ".join(f'"{p}\\n"' for p in parts[:-1]) + (f' \\\n  "{parts[-1]}"'
                                                               if parts[-1] else "")


def main() -> None:
    dst, *tables = sys.argv[1:]
    lines = ["/* generated from the tables in docs/docstrings by tools/gen_docstrings.py */",
             "#ifndef ASC_DOCSTRINGS_H", "#define ASC_DOCSTRINGS_H", ""]
    seen: set[str] = set()
    for path in tables:
        for entry, method in entries(path):
            name = entry["name"]
            if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*(\.[a-z_][a-z0-9_]*)?", name):
                raise SystemExit(f"{path}: bad name {name!r}")
            forms = [("DOCTEXT", False)] if entry.get("function", True) else []
            forms += [("METHDOC", True)] if method else []
            for macro, as_method in forms:
                ident = f"{macro}_{name.replace('.', '_')}"
                if ident in seen:
                    raise SystemExit(f"{path}: {name} is documented twice")
                seen.add(ident)
                text = c_string(render(entry, as_method))
                lines.append(f"#define ASC_{ident} \\\n  {text}")
    lines += ["", "#endif"]
    with open(dst, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
