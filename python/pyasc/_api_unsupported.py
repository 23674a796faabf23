"""The documented PyAsc names pyasc does not support yet, each with its
reason. The coverage test (tests/python/test_api_coverage.py) fails if a
documented name is neither supported nor listed here, and if a name listed
here has become supported: delete its line when you add the API (a row in
src/compiler/api_table.def, or the object in ``asc`` for top-level names).

Keys: "group.name" of docs/reference/ascend-api-names.txt, "asc.NAME" of
asc-toplevel-names.txt and "asc.adv.NAME" of asc-adv-names.txt.
"""

from __future__ import annotations

INLINE = ("verbatim Ascend C text (asc.inline): the simulator cannot run C++, and user text "
          "never enters generated code")

#: name -> why pyasc does not support it.
NOT_SUPPORTED: dict[str, str] = {
    "asc.inline": INLINE,
}
