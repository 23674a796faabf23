"""Which documented PyAsc APIs pyasc supports, read from the API table
(src/compiler/api_table.def, served by ``_C.api_table()``), and which not,
with the reason (``pyasc._api_unsupported``). ``python -m pyasc api`` prints
it; tools/gen_api_coverage.py writes it to docs/api-coverage.md."""

from __future__ import annotations

import importlib
import textwrap
from dataclasses import dataclass, field

from pyasc import _C, _api_ref
from pyasc._api_unsupported import NOT_SUPPORTED

#: The groups in the order they are reported: PyAsc's documented language
#: groups, then Huawei's ``asc`` top level and ``asc.adv``.
GROUPS = ("core", "fwk", "basic", "adv", "asc", "asc.adv")


@dataclass
class Group:
    """One group's documented names, split into supported and not."""

    name: str
    supported: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)


def table() -> list[dict]:
    """The API table's rows (op, api, operands, pipe, c_rt, ascendc, how)."""
    return _C.api_table()


def table_apis() -> dict[str, list[dict]]:
    """Documented name -> the table rows that implement it."""
    rows: dict[str, list[dict]] = {}
    for row in table():
        if row["api"]:
            rows.setdefault(row["api"], []).append(row)
    return rows


def documented() -> list[str]:
    """Every documented name, as keys of NOT_SUPPORTED spell them."""
    return (list(_api_ref.LANGUAGE) + ["asc." + n for n in _api_ref.ASC_TOPLEVEL]
            + ["asc.adv." + n for n in _api_ref.ASC_ADV])


def group_of(name: str) -> str:
    """The report group of a documented name."""
    if name.startswith("asc.adv."):
        return "asc.adv"
    return "asc" if name.startswith("asc.") else name.split(".", 1)[0]


def _asc_has(name: str) -> bool:
    """Whether Huawei's name resolves in pyasc's ``asc`` package."""
    module, attr = ("asc.language.adv", name[8:]) if name.startswith("asc.adv.") \
        else ("asc", name[4:])
    return hasattr(importlib.import_module(module), attr)


def is_supported(name: str, apis: dict[str, list[dict]] | None = None) -> bool:
    """Language names: a table row names them; ``asc`` names: the object exists."""
    if name.startswith("asc."):
        return _asc_has(name)
    return name in (table_apis() if apis is None else apis)


def coverage() -> list[Group]:
    """Every group with its supported and missing names, sorted."""
    apis = table_apis()
    groups = {g: Group(g) for g in GROUPS}
    for name in documented():
        group = groups[group_of(name)]
        (group.supported if is_supported(name, apis) else group.missing).append(name)
    for group in groups.values():
        group.supported.sort()
        group.missing.sort()
    return list(groups.values())


def report(verbose: bool = True) -> str:
    """The text ``python -m pyasc api`` prints."""
    out = []
    total_ok = total = 0
    for g in coverage():
        n = len(g.supported) + len(g.missing)
        total_ok += len(g.supported)
        total += n
        out.append(f"{g.name}: {len(g.supported)} of {n} supported")
        if verbose:
            out.append(textwrap.fill(", ".join(g.supported) or "-", width=100,
                                     initial_indent="  supported: ", subsequent_indent="    ",
                                     break_on_hyphens=False))
            for name in g.missing:
                out.append(f"  not yet: {name} ({NOT_SUPPORTED.get(name, 'not listed')})")
    out.append(f"total: {total_ok} of {total} documented names supported")
    return "\n".join(out)
