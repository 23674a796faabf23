"""The documented PyAsc names pyasc does not support yet, each with its
reason. The coverage test (tests/python/test_api_coverage.py) fails if a
documented name is neither supported nor listed here, and if a name listed
here has become supported: delete its line when you add the API (a row in
src/compiler/api_table.def, or the object in ``asc`` for top-level names).

Keys: "group.name" of docs/reference/ascend-api-names.txt, "asc.NAME" of
asc-toplevel-names.txt and "asc.adv.NAME" of asc-adv-names.txt.
"""

from __future__ import annotations

CUBE = "cube unit: sparse matmul and image loads are not simulated yet"
AIPP = "AIPP image preprocessing: not simulated yet"
NOT_YET = "not implemented yet"
INLINE = ("verbatim Ascend C text: the simulator cannot run C++, and user text never enters "
          "generated code")

#: name -> why pyasc does not support it yet.
NOT_SUPPORTED: dict[str, str] = {
    "basic.load_image_to_local": CUBE,
    "basic.set_aipp_functions": AIPP,
    "asc.AippChannelPaddingParams": AIPP,
    "asc.AippColorSpaceConvParams": AIPP,
    "asc.AippDataTypeConvParams": AIPP,
    "asc.AippInputFormat": AIPP,
    "asc.AippPaddingParams": AIPP,
    "asc.AippParams": AIPP,
    "asc.AippSingleLineParams": AIPP,
    "asc.AippSwapParams": AIPP,
    "asc.LoadImageToLocalParams": CUBE,
    "asc.SliceInfo": NOT_YET,
    "asc.inline": INLINE,
    "asc.load_image_to_local": CUBE,
    "asc.set_aipp_functions": AIPP,
}
