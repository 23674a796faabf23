"""Each list the Python side shares with C or with another module has one
definition; these tests fail when a copy disagrees with it."""

from __future__ import annotations

import pathlib
import re

from pyasc import _C, host
from pyasc import _fuse_kernel, torch as torch_bridge
from pyasc.language import adv_host, core, matmul_enums
from pyasc.language.ir import args as ir_args
from pyasc.language.lower import adv as lower_adv
from pyasc.language.names import adv_math, dtypes

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _c_enum(path: str, prefix: str) -> list[str]:
    """The member names of the first C enum in path whose members start with prefix."""
    text = (ROOT / path).read_text()
    return [m.lower() for m in re.findall(rf"\b{prefix}([A-Z0-9_]+)\s*[,=}}]", text)]


def test_dtype_codes_follow_asc_dtype() -> None:
    members = [m for m in _c_enum("include/asc/dtype.h", "ASC_") if m != "dtype_count"]
    assert list(dtypes.DTYPE_NAMES) == members[:len(dtypes.DTYPE_NAMES)]
    for name in dtypes.DTYPE_NAMES:
        assert _C.dtype(name).name in (name, "bool")


def test_dtype_codes_have_one_definition() -> None:
    assert ir_args.DTYPE_CODES is dtypes.DTYPE_CODES
    assert _fuse_kernel.DTYPE_CODES is dtypes.DTYPE_CODES
    assert torch_bridge.DTYPE_NAMES is dtypes.DTYPE_NAMES


def test_adv_math_ids_follow_the_runtime() -> None:
    # libasc's table (src/compiler/adv_math.def) numbers the functions; its
    # build checks the runtime's ASC_K_ADV_* enum against the same table.
    assert tuple(_C.adv_math_functions()) == adv_math.MATH_FUNCTIONS
    assert _c_enum("src/compiler/rt/adv_math.h", "ASC_K_ADV_")[:len(adv_math.MATH_FUNCTIONS)] \
        == list(adv_math.MATH_FUNCTIONS)


def test_adv_lists_have_one_definition() -> None:
    assert lower_adv.UNARY is adv_math.UNARY
    assert adv_host.MATH_TMP_FACTORS is adv_math.MATH_TMP_FACTORS


def test_adv_tmp_factors_follow_the_header_table() -> None:
    # include/ascendc/adv_math_tmp.def sizes the buffers for the C++ header's host queries and
    # libasc's check of its kernel calls; the Python kernels and queries use MATH_TMP_FACTORS.
    text = (ROOT / "include/ascendc/adv_math_tmp.def").read_text()
    rows = re.findall(r"^PYASC_ADV_TMP\((\w+), (\w+), (\d+), (\d+), (\d+), (\w+)\)$", text,
                      re.M)
    table = {name: (int(h), int(f), int(r), floor.lower()) for _, name, h, f, r, floor in rows}
    assert list(table.items()) == list(adv_math.MATH_TMP_FACTORS.items())
    assert [name for name, *_ in rows][:len(adv_math.MATH_FUNCTIONS)] == \
        [name.capitalize() for name in adv_math.MATH_FUNCTIONS]


def test_enums_have_one_definition() -> None:
    assert host.TPosition is core.TPosition
    assert host.ScheduleType is matmul_enums.ScheduleType


def test_every_kernel_operator_section_rebuilds_the_embedded_header() -> None:
    # libasc embeds kernel_operator.h with its sections; meson.build names each section as a
    # dependency, or a changed one would leave Ascend C kernels on the old text.
    build = (ROOT / "meson.build").read_text()
    sections = sorted(p.name for p in (ROOT / "include/ascendc/kernel_operator").glob("*.h"))
    assert [s for s in sections if f"'include/ascendc/kernel_operator/{s}'" not in build] == []
