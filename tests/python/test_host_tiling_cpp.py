"""CANN's C++ host tiling headers on pyasc (include/ascendc/tiling/,
kernel_tiling/, register/; docs/host-tiling.md, "C++"): a host program of
our own, built by ``python -m pyasc asc-compile`` and by CMake with the
``tiling_api``/``register``/``platform`` targets, must give

* from ``matmul_tiling::*::GetTiling`` every TCubeTiling field equal to
  ``pyasc.host``'s for the same calls (several shapes, types, transposes,
  biases, fixed splits, one and many cores, batch), into both
  ``AscendC::tiling::TCubeTiling`` and ``optiling::TCubeTiling`` (whose
  ``SaveToBuffer`` bytes must be the kernel struct's);
* from ``PlatformAscendC`` the device's values as ``pyasc.host`` reports
  them;
* from the TILING_DATA macros bytes laid out as a C struct of the same
  members (NumPy's aligned structured dtype is the reference);
* -1 from a refused setter and from GetTiling after it (the tiling left
  untouched), and 0 again once the setter succeeds;
* from ``ge::Shape`` and ``GetExpMaxMinTmpSize`` the sizes CANN documents.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import pyasc.host as host
from pyasc import _C, asc_driver

pytestmark = pytest.mark.skipif(shutil.which("c++") is None, reason="no C++ compiler")

DT = host.DataType
POS = host.TPosition
FMT = host.CubeFormat
#: (Python name, Ascend C name) of every TCubeTiling member, in order.
FIELDS = list(_C.tiling_fields())

#: kind (0 MatmulApiTiling, 1 MultiCoreMatmulTiling, 2 BatchMatmulTiling),
#: dim, M, N, K, A/B type, C type, bias type, bias, transA, transB, baseM, baseN
CASES = [
    (0, 1, 128, 256, 64, DT.DT_FLOAT16, DT.DT_FLOAT, DT.DT_FLOAT, 0, 0, 0, -1, -1),
    (0, 1, 1000, 17, 333, DT.DT_FLOAT, DT.DT_FLOAT, DT.DT_FLOAT, 1, 1, 0, -1, -1),
    (1, 2, 512, 512, 128, DT.DT_FLOAT16, DT.DT_FLOAT, DT.DT_FLOAT, 0, 0, 0, -1, -1),
    (1, 24, 2048, 4096, 1024, DT.DT_BF16, DT.DT_FLOAT, DT.DT_FLOAT, 1, 0, 1, -1, -1),
    (1, 2, 512, 128, 128, DT.DT_FLOAT16, DT.DT_FLOAT, DT.DT_FLOAT, 1, 0, 0, 128, 64),
    (1, 20, 4096, 96, 2560, DT.DT_INT8, DT.DT_INT32, DT.DT_INT32, 1, 0, 1, -1, -1),
    (1, 3, 31, 4001, 7, DT.DT_FLOAT16, DT.DT_FLOAT16, DT.DT_FLOAT16, 0, 1, 1, -1, -1),
    (2, 1, 64, 96, 320, DT.DT_FLOAT16, DT.DT_FLOAT, DT.DT_FLOAT, 1, 0, 0, -1, -1),
]

PROGRAM = r"""
#include <cstdio>
#include <cstring>
#include <vector>
#include "graph/tensor.h"
#include "kernel_tiling/kernel_tiling.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(InnerData)
TILING_DATA_FIELD_DEF(uint8_t, flag);
TILING_DATA_FIELD_DEF(int64_t, offset);
END_TILING_DATA_DEF;

BEGIN_TILING_DATA_DEF(RoundTripData)
TILING_DATA_FIELD_DEF(uint16_t, rows);
TILING_DATA_FIELD_DEF_ARR(uint32_t, 3, dims);
TILING_DATA_FIELD_DEF(float, scale);
TILING_DATA_FIELD_DEF_STRUCT(InnerData, inner);
TILING_DATA_FIELD_DEF(int8_t, tail);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(RoundTripOp, RoundTripData)
}  // namespace optiling

// matmul_tiling's enums share names with the kernel's global ones (CubeFormat), as in CANN
namespace mt = matmul_tiling;
using mt::BatchMatmulTiling;
using mt::MatmulApiTiling;
using mt::MatmulApiTilingBase;
using mt::MultiCoreMatmulTiling;

static void print_tiling(const AscendC::tiling::TCubeTiling &t) {
PRINT_FIELDS
  std::printf("\n");
}

static void set_up(MatmulApiTilingBase &api, int *v) {
  api.SetAType(mt::TPosition::GM, mt::CubeFormat::ND, static_cast<mt::DataType>(v[5]), v[9] != 0);
  api.SetBType(mt::TPosition::GM, mt::CubeFormat::ND, static_cast<mt::DataType>(v[5]), v[10] != 0);
  api.SetCType(mt::TPosition::GM, mt::CubeFormat::ND, static_cast<mt::DataType>(v[6]));
  api.SetBiasType(mt::TPosition::GM, mt::CubeFormat::ND, static_cast<mt::DataType>(v[7]));
  api.SetOrgShape(v[2], v[3], v[4]);
  api.SetShape(v[2], v[3], v[4]);
  api.EnableBias(v[8] != 0);
  if (v[11] > 0) api.SetFixSplit(v[11], v[12], -1);
  api.SetBufferSpace(-1, -1, -1);
}

static int run_case(int *v) {
  auto *platform = platform_ascendc::PlatformAscendCManager::GetInstance();
  AscendC::tiling::TCubeTiling kernel;
  optiling::TCubeTiling host;
  int64_t rc1, rc2;
  if (v[0] == 0) {
    MatmulApiTiling api(*platform);
    set_up(api, v);
    rc1 = api.GetTiling(kernel);
    rc2 = api.GetTiling(host);
  } else if (v[0] == 1) {
    MultiCoreMatmulTiling api(*platform);
    api.SetDim(v[1]);
    set_up(api, v);
    rc1 = api.GetTiling(kernel);
    rc2 = api.GetTiling(host);
  } else {
    BatchMatmulTiling api(*platform);
    set_up(api, v);
    rc1 = api.GetTiling(kernel);
    rc2 = api.GetTiling(host);
  }
  std::vector<uint8_t> saved(host.GetDataSize());
  host.SaveToBuffer(saved.data(), saved.size());
  bool same = saved.size() == sizeof kernel &&
              std::memcmp(saved.data(), &kernel, sizeof kernel) == 0;
  std::printf("rc %ld %ld same %d\n", (long)rc1, (long)rc2, same ? 1 : 0);
  print_tiling(kernel);
  return 0;
}

static void platform_values() {
  using platform_ascendc::CoreMemType;
  auto *p = platform_ascendc::PlatformAscendCManager::GetInstance("Ascend910B1");
  uint64_t l0a, l0b, l0c, l1, ub, hbm;
  p->GetCoreMemSize(CoreMemType::L0_A, l0a);
  p->GetCoreMemSize(CoreMemType::L0_B, l0b);
  p->GetCoreMemSize(CoreMemType::L0_C, l0c);
  p->GetCoreMemSize(CoreMemType::L1, l1);
  p->GetCoreMemSize(CoreMemType::UB, ub);
  p->GetCoreMemSize(CoreMemType::HBM, hbm);
  std::printf("platform %u %u %u %u %llu %llu %llu %llu %llu %llu %d\n", p->GetCoreNum(),
              p->GetCoreNumAic(), p->GetCoreNumAiv(), p->GetLibApiWorkSpaceSize(),
              (unsigned long long)l0a, (unsigned long long)l0b, (unsigned long long)l0c,
              (unsigned long long)l1, (unsigned long long)ub, (unsigned long long)hbm,
              p->GetSocVersion() == platform_ascendc::SocVersion::ASCEND910B ? 1 : 0);
}

static void round_trip() {
  optiling::RoundTripData d;
  d.set_rows(0xBEEF);
  const uint32_t dims[3] = {7, 0x01020304u, 4000000000u};
  d.set_dims(dims);
  d.set_scale(-1.5f);
  d.inner.set_flag(0xA5);
  d.inner.set_offset(-1234567890123LL);
  d.set_tail(-7);
  optiling::RoundTripData copy = d;  // a copy writes its own values
  copy.set_rows(1);
  std::vector<uint8_t> buf(d.GetDataSize() + 8, 0xCC);
  d.SaveToBuffer(buf.data(), d.GetDataSize());
  std::printf("size %zu get %u %u %d\nbytes", d.GetDataSize(), d.get_rows(), d.get_dims()[2],
              copy.get_rows());
  for (uint8_t b : buf) std::printf(" %02x", b);
  std::printf("\n");
  std::vector<uint8_t> small(d.GetDataSize() - 1, 0xCC);
  d.SaveToBuffer(small.data(), small.size());
  bool untouched = true;
  for (uint8_t b : small) untouched = untouched && b == 0xCC;
  std::printf("small %d registered %s\n", untouched ? 1 : 0,
              optiling::CTilingDataClassFactory::GetInstance()
                  .GetTilingDataClassName("RoundTripOp")
                  .c_str());
}

static void bad_calls() {
  MultiCoreMatmulTiling api(*platform_ascendc::PlatformAscendCManager::GetInstance());
  api.SetDim(2);
  api.SetAType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT16);
  api.SetBType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT16);
  api.SetCType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT);
  api.SetOrgShape(256, 256, 256);
  AscendC::tiling::TCubeTiling t;  // members 0 unless set, as CANN's
  t.M = t.baseM = 0x5A5A5A5A;
  int set = api.SetShape(-3, 256, 256);
  int64_t get = api.GetTiling(t);
  bool untouched = t.M == 0x5A5A5A5A && t.baseM == 0x5A5A5A5A;
  int again = api.SetShape(256, 256, 256);
  int64_t ok = api.GetTiling(t);
  int type = api.SetAType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_INT16);
  int64_t after_type = api.GetTiling(t);
  api.SetAType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT16);
  api.SetFixSplit(4096, 4096, -1);  // no buffer holds such a block
  int64_t split = api.GetTiling(t);
  std::printf("bad %d %ld %d %d %ld %d %ld %ld\n", set, (long)get, untouched ? 1 : 0, again,
              (long)ok, type, (long)after_type, (long)split);
}

static void exp_sizes() {
  const std::vector<std::vector<int64_t>> shapes = {{8192}, {}, {3, 5}, {-1, 4}, {40, 0, 7}};
  for (const auto &dims : shapes) {
    ge::Shape shape(dims);
    for (uint32_t typeSize : {4u, 2u}) {
      for (bool reuse : {false, true}) {
        uint32_t maxValue = 1, minValue = 1;
        bool ok = AscendC::GetExpMaxMinTmpSize(shape, typeSize, reuse, maxValue, minValue);
        std::printf("exp %lld %u %d %d %u %u\n", (long long)shape.GetShapeSize(), typeSize,
                    reuse ? 1 : 0, ok ? 1 : 0, maxValue, minValue);
      }
    }
  }
  ge::Shape s2({6, 7});
  std::printf("shape %zu %lld %lld %u\n", s2.GetDimNum(), (long long)s2.GetDim(1),
              (long long)s2.GetDim(2), s2.SetDim(5, 1) == ge::GRAPH_FAILED ? 1u : 0u);
}

int main() {
  char word[16];
  while (std::scanf("%15s", word) == 1) {
    if (std::strcmp(word, "case") == 0) {
      int v[13];
      for (int &x : v)
        if (std::scanf("%d", &x) != 1) return 2;
      run_case(v);
    } else if (std::strcmp(word, "platform") == 0) {
      platform_values();
    } else if (std::strcmp(word, "roundtrip") == 0) {
      round_trip();
    } else if (std::strcmp(word, "bad") == 0) {
      bad_calls();
    } else if (std::strcmp(word, "exp") == 0) {
      exp_sizes();
    }
  }
  return 0;
}
"""


def _source() -> str:
    prints = "\n".join(f'  std::printf(" {c}=%d", t.{c});' for _, c in FIELDS)
    return PROGRAM.replace("PRINT_FIELDS", prints)


def _stdin() -> str:
    lines = ["platform", "roundtrip", "bad", "exp"]
    lines += ["case " + " ".join(str(int(x)) for x in case) for case in CASES]
    return "\n".join(lines) + "\n"


def _expected(case: tuple[int, ...]) -> dict[str, int]:
    kind, dim, m, n, k, ab, c, bias_t, bias, ta, tb, bm, bn = case
    cls = (host.MatmulApiTiling, host.MultiCoreMatmulTiling, host.BatchMatmulTiling)[kind]
    t = cls(host.get_ascendc_platform())
    if kind == 1:
        t.set_dim(dim)
    t.set_a_type(POS.GM, FMT.ND, ab, bool(ta))
    t.set_b_type(POS.GM, FMT.ND, ab, bool(tb))
    t.set_c_type(POS.GM, FMT.ND, c)
    t.set_bias_type(POS.GM, FMT.ND, bias_t)
    t.set_org_shape(m, n, k)
    t.set_shape(m, n, k)
    t.enable_bias(bool(bias))
    if bm > 0:
        t.set_fix_split(bm, bn, -1)
    t.set_buffer_space(-1, -1, -1)
    r = host.TCubeTiling()
    t.get_tiling(r)
    return {cname: int(getattr(r, py)) for py, cname in FIELDS}


def _check_output(out: str) -> None:
    lines = out.splitlines()
    platform = host.get_ascendc_platform()
    mem = host.CoreMemType
    want = [platform.get_core_num(), platform.get_core_num_aic(), platform.get_core_num_aiv(),
            platform.get_lib_api_work_space_size()]
    want += [platform.get_core_mem_size(t) for t in (mem.L0_A, mem.L0_B, mem.L0_C, mem.L1, mem.UB,
                                                     mem.HBM)]
    assert lines[0].split()[1:] == [str(v) for v in want] + ["1"]

    # the bytes of a C struct of RoundTripData's members (NumPy's aligned layout)
    inner = np.dtype([("flag", "u1"), ("offset", "<i8")], align=True)
    outer = np.dtype([("rows", "<u2"), ("dims", "<u4", (3,)), ("scale", "<f4"),
                      ("inner", inner), ("tail", "i1")], align=True)
    ref = np.zeros(1, outer)
    ref["rows"] = 0xBEEF
    ref["dims"] = [7, 0x01020304, 4000000000]
    ref["scale"] = -1.5
    ref["inner"]["flag"] = 0xA5
    ref["inner"]["offset"] = -1234567890123
    ref["tail"] = -7
    assert lines[1].split() == ["size", str(outer.itemsize), "get", str(0xBEEF), "4000000000", "1"]
    saved = bytes(int(b, 16) for b in lines[2].split()[1:])
    # padding is zero in a saved buffer; what lies past it is the caller's
    assert saved == ref.tobytes() + b"\xcc" * 8
    assert lines[3].split() == ["small", "1", "registered", "RoundTripData"]

    # SetShape(-3) -1, GetTiling -1 and the tiling untouched, then 0 and 0; an int16 A is
    # refused and so is the tiling; a 4096 x 4096 base block fits no buffer
    assert lines[4].split() == ["bad", "-1", "-1", "1", "0", "0", "-1", "-1", "-1"]

    # Exp's scratch: float32 buffers of the input's length, at least 256 bytes each; 3 for
    # float (2 reusing the source), 4 for half (CANN's asc-devkit); an unknown shape fails
    exp = [line.split()[1:] for line in lines[5:25]]
    assert len(exp) == 20 and all(line.startswith("exp ") for line in lines[5:25])
    for size_s, type_size, reuse, ok, max_v, min_v in exp:
        size = int(size_s)
        if size < 0:
            assert (ok, max_v, min_v) == ("0", "1", "1")
            continue
        buffers = (2 if reuse == "1" else 3) if type_size == "4" else 4
        assert (ok, int(min_v), int(max_v)) == ("1", buffers * 256, buffers * max(size * 4, 256))
    assert [e[0] for e in exp[::4]] == ["8192", "0", "15", "-1", "0"]
    assert lines[25].split() == ["shape", "2", "7", "0", "1"]

    rest = lines[26:]
    assert len(rest) == 2 * len(CASES)
    for case, (head, body) in zip(CASES, zip(rest[::2], rest[1::2])):
        assert head.split() == ["rc", "0", "0", "same", "1"], (case, head)
        got = {kv.split("=")[0]: int(kv.split("=")[1]) for kv in body.split()}
        assert got == _expected(case), case


def test_cpp_tiling_matches_pyasc_host(tmp_path: Path) -> None:
    src = tmp_path / "tiling_host.asc"
    src.write_text(_source())
    build = subprocess.run([sys.executable, "-m", "pyasc", "asc-compile", str(src), "-o",
                            str(tmp_path / "tiling_host"), "-Wall", "-Wextra", "-Werror"],
                           capture_output=True, text=True, check=False)
    assert build.returncode == 0, build.stderr
    run = subprocess.run([str(tmp_path / "tiling_host")], input=_stdin(), capture_output=True,
                         text=True, check=False, timeout=120)
    assert run.returncode == 0, run.stderr
    _check_output(run.stdout)
    # the refusals say why
    assert "SetShape" in run.stderr and "SaveToBuffer" in run.stderr


@pytest.mark.skipif(shutil.which("cmake") is None, reason="no cmake")
def test_cmake_targets_of_canns_host_libraries(tmp_path: Path) -> None:
    """A plain C++ program (no ASC language) linking CANN's library names
    gets the headers and libasc from the targets."""
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "main.cpp").write_text(_source())
    (proj / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.16)\n"
        "find_package(ASC REQUIRED)\n"
        "project(tiling_host LANGUAGES CXX)\n"
        "set(CMAKE_CXX_STANDARD 17)\n"
        "add_executable(tiling_host main.cpp)\n"
        "target_link_libraries(tiling_host PRIVATE tiling_api register platform graph_base "
        "unified_dlog ascendalog m dl)\n")
    env = {**os.environ, "PYASC_PYTHON": sys.executable}
    configure = subprocess.run(["cmake", "-S", str(proj), "-B", str(tmp_path / "build"),
                                f"-DASC_DIR={asc_driver.cmake_dir()}"], capture_output=True,
                               text=True, env=env, check=False)
    assert configure.returncode == 0, configure.stdout + configure.stderr
    build = subprocess.run(["cmake", "--build", str(tmp_path / "build")], capture_output=True,
                           text=True, env=env, check=False)
    assert build.returncode == 0, build.stdout + build.stderr
    run = subprocess.run([str(tmp_path / "build" / "tiling_host")], input=_stdin(),
                         capture_output=True, text=True, check=False, timeout=120)
    assert run.returncode == 0, run.stderr
    _check_output(run.stdout)
