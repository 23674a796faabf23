"""Each list the Python side shares with C or with another module has one
definition; these tests fail when a copy disagrees with it."""

from __future__ import annotations

import pathlib
import re
import subprocess
import sys

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


def test_every_kernel_operator_section_rebuilds_the_embedded_header(tmp_path) -> None:
    # libasc embeds kernel_operator.h with its sections; tools/embed.py's depfile names every
    # section it inlines, so each must be reached from kernel_operator.h (a section nothing
    # includes would be left out of the text), and the build must use the depfile.
    depfile = tmp_path / "header.d"
    subprocess.run([sys.executable, str(ROOT / "tools/embed.py"),
                    str(ROOT / "include/ascendc/kernel_operator.h"), str(tmp_path / "header.c"),
                    "asc_ascendc_header_source", str(depfile)], check=True)
    inlined = {pathlib.Path(p).name for p in depfile.read_text().split(":", 1)[1].split()}
    sections = sorted(p.name for p in (ROOT / "include/ascendc/kernel_operator").glob("*.h"))
    assert [s for s in sections if s not in inlined] == []
    target = (ROOT / "meson.build").read_text().split("custom_target('ascendc_header_source'")[1]
    assert "depfile:" in target.split("custom_target(")[0]