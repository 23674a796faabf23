"""The documented PyAsc names pyasc does not support yet, each with its
reason. The coverage test (tests/python/test_api_coverage.py) fails if a
documented name is neither supported nor listed here, and if a name listed
here has become supported: delete its line when you add the API (a row in
src/compiler/api_table.def, or the object in ``asc`` for top-level names).

Keys: "group.name" of docs/reference/ascend-api-names.txt, "asc.NAME" of
asc-toplevel-names.txt and "asc.adv.NAME" of asc-adv-names.txt.
"""

from __future__ import annotations

CUBE = "cube unit: the img2col (LoadData3D) loads and sparse matmul are not simulated yet"
INLINE = ("verbatim Ascend C text: the simulator cannot run C++, and user text never enters "
          "generated code")

#: name -> why pyasc does not support it yet.
NOT_SUPPORTED: dict[str, str] = {
    "basic.load_data_with_sparse": CUBE,
    "basic.mmad_with_sparse": CUBE,
    "basic.set_load_data_boundary": CUBE,
    "basic.set_load_data_padding_value": CUBE,
    "basic.set_load_data_repeat": CUBE,
    "asc.LoadData2DParamsV2": CUBE,
    "asc.LoadData3DParamsV1": CUBE,
    "asc.LoadData3DParamsV2": CUBE,
    "asc.LoadData3DParamsV2Pro": CUBE,
    "asc.LoadDataRepeatParam": CUBE,
    "asc.inline": INLINE,
    "asc.load_data_with_sparse": CUBE,
    "asc.mmad_with_sparse": CUBE,
    "asc.set_load_data_boundary": CUBE,
    "asc.set_load_data_padding_value": CUBE,
    "asc.set_load_data_repeat": CUBE,
}
