"""CANN-style ``.asc`` host programs on the simulator (``python -m pyasc
asc-compile``, pyasc/asc_driver.py; the CMake package ASC; libasc's
pyasc_sim_launch).

* the lexer: launches found where C++ has them, never inside comments,
  string, character or raw string literals, nor taken from templates'
  ``>>>``; lines kept;
* programs written here in the shape of CANN's hello world and add examples
  (ACL for memory, ``kernel<<<blocks, nullptr, stream>>>(...)``), built by
  the driver and by CMake, run, their output checked against NumPy;
* errors: a C++ error at the .asc file's line, a launch with host memory,
  a kernel's out-of-range access in checked mode (ACL's error code).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from pyasc import asc_driver

pytestmark = pytest.mark.skipif(shutil.which("c++") is None, reason="no C++ compiler")

ADD = r"""
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "acl/acl.h"
#include "kernel_operator.h"

// z = (x + y) * scale over blocks; a comment holding k<<<1, nullptr, s>>>(x)
__global__ __aicore__ void axpy_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total, float scale)
{
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> qx, qy;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> qz;
    AscendC::GlobalTensor<float> xg, yg, zg;
    uint32_t len = total / AscendC::GetBlockNum();
    xg.SetGlobalBuffer((__gm__ float *)x + len * AscendC::GetBlockIdx(), len);
    yg.SetGlobalBuffer((__gm__ float *)y + len * AscendC::GetBlockIdx(), len);
    zg.SetGlobalBuffer((__gm__ float *)z + len * AscendC::GetBlockIdx(), len);
    pipe.InitBuffer(qx, 1, len * sizeof(float));
    pipe.InitBuffer(qy, 1, len * sizeof(float));
    pipe.InitBuffer(qz, 1, len * sizeof(float));
    AscendC::LocalTensor<float> a = qx.AllocTensor<float>();
    AscendC::LocalTensor<float> b = qy.AllocTensor<float>();
    AscendC::DataCopy(a, xg, len);
    AscendC::DataCopy(b, yg, len);
    qx.EnQue(a);
    qy.EnQue(b);
    a = qx.DeQue<float>();
    b = qy.DeQue<float>();
    AscendC::LocalTensor<float> c = qz.AllocTensor<float>();
    AscendC::Add(c, a, b, len);
    AscendC::Muls(c, c, scale, len);
    qz.EnQue<float>(c);
    qx.FreeTensor(a);
    qy.FreeTensor(b);
    c = qz.DeQue<float>();
    AscendC::DataCopy(zg, c, len OVERRUN);
    qz.FreeTensor(c);
}

static std::vector<float> load(const char *path, size_t n)
{
    std::vector<float> v(n);
    FILE *f = std::fopen(path, "rb");
    if (!f || std::fread(v.data(), sizeof(float), n, f) != n) std::exit(3);
    std::fclose(f);
    return v;
}

int main(int argc, char *argv[])
{
    const char *text = "not a launch: k<<<1, nullptr, s>>>()";
    std::vector<std::vector<int>> nested;
    (void)text;
    (void)nested;
    uint32_t blocks = 8, total = 8 * 512;
    size_t bytes = total * sizeof(float);
    std::vector<float> xh = load(argv[1], total), yh = load(argv[2], total), zh(total);
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    uint8_t *x, *y, *z;
    aclrtMalloc((void **)&x, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void **)&y, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void **)&z, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(x, bytes, xh.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(y, bytes, yh.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    int launched = axpy_custom<<<blocks, nullptr,
                                 stream>>>(HOST_X, y,
                                           z, total, 0.5f);
    int synced = aclrtSynchronizeStream(stream);
    const char *why = aclGetRecentErrMsg();
    std::printf("launch %d sync %d line %d\n", launched, synced, __LINE__);
    if (why) std::printf("message: %s\n", why);
    aclrtMemcpy(zh.data(), bytes, z, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    FILE *f = std::fopen(argv[3], "wb");
    std::fwrite(zh.data(), sizeof(float), total, f);
    std::fclose(f);
    aclrtFree(x);
    aclrtFree(y);
    aclrtFree(z);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
"""

HELLO = r"""
#include "utils/debug/asc_printf.h"
#include "acl/acl.h"

template <typename T>
__global__ __vector__ void hello(T tag) { printf("block %d of %d tag %d\n", (int)AscendC::GetBlockIdx(),
                                                  (int)AscendC::GetBlockNum(), (int)tag); }

int main()
{
    aclrtSetDevice(0);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    hello<int16_t><<<6, 0, stream>>>(41 + 1);
    // a kernel chosen at compile time through a constexpr pointer, as CANN's
    // matmul_high_performance launches its scenario's
    constexpr auto chosen = []() { return hello<int32_t>; }();
    chosen<<<2, 0, stream>>>(7);
    aclrtSynchronizeStream(stream);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    return 0;
}
"""


def _add_source(host_x: str = "x", overrun: str = "") -> str:
    return ADD.replace("HOST_X", host_x).replace("OVERRUN", overrun)


def _driver(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pyasc", "asc-compile", *args], cwd=cwd,
                          capture_output=True, text=True, check=False)


def _run_add(exe: Path, tmp_path: Path, env: dict[str, str] | None = None
             ) -> tuple[subprocess.CompletedProcess[str], np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(7)
    x = rng.standard_normal(4096).astype(np.float32)
    y = rng.standard_normal(4096).astype(np.float32)
    x.tofile(tmp_path / "x.bin")
    y.tofile(tmp_path / "y.bin")
    run = subprocess.run([str(exe), "x.bin", "y.bin", "z.bin"], cwd=tmp_path, capture_output=True,
                         text=True, check=False, timeout=120,
                         env={**os.environ, **(env or {})})
    z = np.fromfile(tmp_path / "z.bin", dtype=np.float32) if run.returncode == 0 else np.zeros(0)
    return run, x, y, z


# --- the lexer ------------------------------------------------------------------


def test_tokens_give_the_source_back() -> None:
    text = _add_source() + 'auto r = R"x(a<<<b>>>c)x"; char q = \'<\'; int big = 1\'000;'
    assert "".join(t.text for t in asc_driver.tokenize(text)) == text


def test_launches_not_taken_from_comments_strings_or_templates() -> None:
    text = """
    // k<<<1, 2, 3>>>(a);
    /* k<<<1, 2, 3>>>(a); */
    const char *s = "k<<<1, 2, 3>>>(a)";
    const char *r = R"tag(k<<<1, 2, 3>>>(a) )" still raw)tag";
    std::vector<std::vector<std::vector<int>>> v;
    char c = '<';
    """
    assert asc_driver.find_launches(text) == []
    assert "::AscendC::sim::host_launch" not in asc_driver.translate(text)


def test_lone_quotes_do_not_hide_launches() -> None:
    # apostrophes in disabled text and #error lines are no character literals
    text = "#if 0\nit's off\n#endif\n#ifdef X\n#error don't\n#endif\nk<<<1, 0, s>>>(a);\n"
    (launch,) = asc_driver.find_launches(text)
    assert (launch.callee, launch.line) == ("k", 7)


def test_launch_callees_and_arguments() -> None:
    text = ("ns::k<float, std::vector<std::vector<int>>><<<n, nullptr, s>>>(f(a, b), c);\n"
            "plain <<< 2 , 0 , s >>> ( ) ;\n")
    first, second = asc_driver.find_launches(text)
    assert first.callee == "ns::k<float, std::vector<std::vector<int>>>"
    assert first.config == "n, nullptr, s"
    assert first.args == "f(a, b), c"
    assert (first.line, second.line) == (1, 2)
    assert second.callee == "plain" and second.args.strip() == ""


def test_translation_keeps_lines() -> None:
    text = "int a;\nk<<<1,\n 0,\n s>>>(x,\n y);\nint marker;\n"
    out = asc_driver.translate(text, "prog.asc")
    body = out.split('#line 1 "prog.asc"\n', 1)[1]
    assert body.splitlines().index("int marker;") == text.splitlines().index("int marker;")
    assert ('::AscendC::sim::host_launch<k, PYASC_SIM_KERNEL_GROUP>("k", 1,\n 0,\n s, x,\n y)'
            in body)


@pytest.mark.parametrize("text, what", [
    ("k<<<1, 2>>>(a);", "configuration"),
    ("k<<<1, 2, 3>>>;", "a launch is"),
    ("(a)<<<1, 2, 3>>>(b);", "kernel's name"),
    ("int x;\n/* never closed\nk<<<1, 2, 3>>>(a);\n", "unterminated comment"),
])
def test_malformed_launches_name_the_line(text: str, what: str) -> None:
    with pytest.raises(asc_driver.DriverError, match=what) as info:
        asc_driver.find_launches(text, "p.asc")
    assert str(info.value).startswith("p.asc:")


# --- programs -------------------------------------------------------------------


def test_driver_builds_and_runs_an_add_program(tmp_path: Path) -> None:
    (tmp_path / "add.asc").write_text(_add_source())
    built = _driver("add.asc", "-o", "add", "--npu-arch=dav-2201", cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    run, x, y, z = _run_add(tmp_path / "add", tmp_path)
    assert run.returncode == 0, run.stderr
    assert "launch 0 sync 0" in run.stdout
    ref = (x.astype(np.float64) + y) * 0.5
    np.testing.assert_allclose(z, ref, rtol=1e-6, atol=1e-6)


def test_template_kernel_printf_over_blocks(tmp_path: Path) -> None:
    (tmp_path / "hello.asc").write_text(HELLO)
    # compile and link in two steps, as a build system does
    assert _driver("-c", "hello.asc", "-o", "hello.o", cwd=tmp_path).returncode == 0
    linked = _driver("hello.o", "-o", "hello", cwd=tmp_path)
    assert linked.returncode == 0, linked.stderr
    run = subprocess.run([str(tmp_path / "hello")], capture_output=True, text=True, check=True,
                         timeout=60)
    lines = sorted(run.stdout.splitlines())
    assert lines == sorted([f"block {i} of 6 tag 42" for i in range(6)] +
                           [f"block {i} of 2 tag 7" for i in range(2)])


def test_cpp_error_at_the_asc_line(tmp_path: Path) -> None:
    text = _add_source().replace("qz.FreeTensor(c);\n}", "qz.FreeTensor(c);\n    no_such_name = 1;\n}")
    line = text.splitlines().index("    no_such_name = 1;") + 1
    (tmp_path / "bad.asc").write_text(text)
    built = _driver("bad.asc", "-o", "bad", cwd=tmp_path)
    assert built.returncode != 0
    assert f"bad.asc:{line}:" in built.stderr and "no_such_name" in built.stderr


def test_driver_rejects_other_architectures(tmp_path: Path) -> None:
    (tmp_path / "add.asc").write_text(_add_source())
    built = _driver("add.asc", "--npu-arch=dav-3510", cwd=tmp_path)
    assert built.returncode == 2 and "dav-2201" in built.stderr


def test_launch_with_host_memory_is_refused(tmp_path: Path) -> None:
    (tmp_path / "host.asc").write_text(_add_source(host_x="(uint8_t *)xh.data()"))
    assert _driver("host.asc", "-o", "host", cwd=tmp_path).returncode == 0
    run, _, _, _ = _run_add(tmp_path / "host", tmp_path)
    assert "launch 100000 sync 0" in run.stdout  # ACL_ERROR_INVALID_PARAM
    assert "kernel axpy_custom: argument 0" in run.stderr and "not in device memory" in run.stderr


def test_checked_mode_reports_the_kernel_error(tmp_path: Path) -> None:
    text = _add_source(overrun="* 2")
    (tmp_path / "oob.asc").write_text(text)
    assert _driver("oob.asc", "-o", "oob", cwd=tmp_path).returncode == 0
    run, _, _, _ = _run_add(tmp_path / "oob", tmp_path, env={"PYASC_DEBUG": "1"})
    assert "launch 0 sync 507015" in run.stdout  # ACL_ERROR_RT_AICORE_EXCEPTION
    line = text.splitlines().index("    AscendC::DataCopy(zg, c, len * 2);") + 1
    assert f"oob.asc:{line}" in run.stdout
    # printed when it happens too, for programs that do not look
    assert "pyasc: kernel axpy_custom failed: block " in run.stderr
    assert f"oob.asc:{line}" in run.stderr


@pytest.mark.skipif(shutil.which("cmake") is None, reason="no cmake")
def test_cmake_project_with_asc_language(tmp_path: Path) -> None:
    src = tmp_path / "proj"
    src.mkdir()
    text = _add_source().replace("0.5f", "SCALE").replace(
        '#include "kernel_operator.h"', '#include "kernel_operator.h"\n#include "params.h"')
    (src / "add.asc").write_text(text)
    (src / "params.h").write_text("#define SCALE 0.5f\n")
    (src / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.16)\n"
        'set(CMAKE_ASC_ARCHITECTURES "dav-2201" CACHE STRING "arch")\n'
        "find_package(ASC REQUIRED)\n"
        "project(add_sample LANGUAGES ASC CXX)\n"
        "add_executable(demo add.asc)\n"
        "target_compile_options(demo PRIVATE "
        "$<$<COMPILE_LANGUAGE:ASC>:--npu-arch=${CMAKE_ASC_ARCHITECTURES}>)\n")
    env = {**os.environ, "PYASC_PYTHON": sys.executable}
    configure = subprocess.run(
        ["cmake", "-S", str(src), "-B", str(tmp_path / "build"), "-DCMAKE_ASC_RUN_MODE=sim",
         f"-DASC_DIR={asc_driver.cmake_dir()}"], capture_output=True, text=True, env=env,
        check=False)
    assert configure.returncode == 0, configure.stdout + configure.stderr
    for scale in (0.5, 2.0):
        # the second build follows the header's change (the driver's depfile)
        (src / "params.h").write_text(f"#define SCALE {scale}f\n")
        build = subprocess.run(["cmake", "--build", str(tmp_path / "build")],
                               capture_output=True, text=True, env=env, check=False)
        assert build.returncode == 0, build.stdout + build.stderr
        run, x, y, z = _run_add(tmp_path / "build" / "demo", tmp_path)
        assert run.returncode == 0, run.stderr
        np.testing.assert_allclose(z, (x.astype(np.float64) + y) * scale, rtol=1e-6, atol=1e-6)


def test_cmake_refuses_other_architectures(tmp_path: Path) -> None:
    if shutil.which("cmake") is None:
        pytest.skip("no cmake")
    (tmp_path / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.16)\n"
        'set(CMAKE_ASC_ARCHITECTURES "dav-3510")\nfind_package(ASC REQUIRED)\n'
        "project(p LANGUAGES ASC)\n")
    configure = subprocess.run(
        ["cmake", "-S", str(tmp_path), "-B", str(tmp_path / "build"),
         f"-DASC_DIR={asc_driver.cmake_dir()}"], capture_output=True, text=True, check=False,
        env={**os.environ, "PYASC_PYTHON": sys.executable})
    assert configure.returncode != 0 and "dav-2201" in configure.stderr


def test_example_program_with_half_on_the_host(tmp_path: Path) -> None:
    # examples/asc/add_custom.asc converts to and from half in main, before
    # and after its launch: the runtime's table is there from the start
    example = Path(__file__).resolve().parents[2] / "examples" / "asc" / "add_custom.asc"
    built = _driver(str(example), "-o", "add_custom", cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    run = subprocess.run([str(tmp_path / "add_custom")], capture_output=True, text=True,
                         check=False, timeout=120)
    assert run.returncode == 0 and "0 of 16384 sums wrong" in run.stdout, run.stdout + run.stderr


def test_pyascs_own_headers_do_not_count_for_the_traits() -> None:
    # a CMake target (tiling_api) puts the package's headers on the -I path; their comments name
    # ASCENDC_CUBE_ONLY, which must not make a mixed Matmul kernel cube-only
    text = ('#include "kernel_operator.h"\n#include "tiling/tiling_api.h"\n'
            "__global__ __mix__(1, 2) void k(GM_ADDR w) { matmul::Matmul<A, B, C> mm; }\n")
    included = asc_driver.local_includes(text, asc_driver.include_dirs())
    assert included == ""
    # 4: declared mixed (__mix__), which the kernel stays whatever ASCENDC_CUBE_ONLY says
    assert "#define PYASC_SIM_GROUP 4" in asc_driver.translate(text, "k.asc", included)


def test_kernels_in_included_headers_count_for_the_traits(tmp_path: Path) -> None:
    # SyncAll in a header the .asc includes (and one it includes in turn): the blocks must be
    # launched together, as for SyncAll in the .asc itself
    (tmp_path / "inc").mkdir()
    (tmp_path / "kernel.h").write_text('#include "inc/sync.h"\n')
    (tmp_path / "inc" / "sync.h").write_text("inline void meet() { AscendC::SyncAll(); }\n")
    text = '#include "kernel.h"\n#include "missing.h"\n'
    included = asc_driver.local_includes(text, [str(tmp_path)])
    assert "SyncAll" in included
    assert "#define PYASC_SIM_ALL_LIVE 1" in asc_driver.translate(text, "k.asc", included)
    assert "#define PYASC_SIM_ALL_LIVE 0" in asc_driver.translate(text, "k.asc")
    # the driver searches -IDIR (and -I DIR) too
    (tmp_path / "k.asc").write_text('#include "sync.h"\n')
    (tmp_path / "work").mkdir()
    plan = asc_driver.compile_command(["-c", str(tmp_path / "k.asc"), f"-I{tmp_path / 'inc'}"],
                                      str(tmp_path / "work"))
    (translated,) = plan.sources
    assert "#define PYASC_SIM_ALL_LIVE 1" in Path(translated).read_text()
