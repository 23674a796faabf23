"""The kernel cache: in memory per JITFunction, on disk per directory.

Disk entries are keyed by a hash of the generated C, the compiler and the
pyasc version; each shared object has a checksum file, so corruption is
detected and the entry rebuilt; writes are atomic, so racing processes leave
one good entry; a directory others may write is refused.

A kernel that is loaded in this process is never corrupted here (its pages
are mapped): corruption tests work on copies of a cache that other processes
built.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import pyasc as asc

BLOCKS = 4
N = 64

KERNEL_SCRIPT = textwrap.dedent('''
    import json
    import os
    import sys
    import time

    import numpy as np

    import pyasc as asc


    @asc.jit
    def cache_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, n: asc.ConstExpr[int]):
        xg = asc.GlobalTensor()
        zg = asc.GlobalTensor()
        xg.set_global_buffer(x + asc.get_block_idx() * n, n)
        zg.set_global_buffer(z + asc.get_block_idx() * n, n)
        t = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, 0, n)
        asc.data_copy(t, xg, n)
        asc.muls(t, t, 3.0, n)
        asc.data_copy(zg, t, n)


    def main():
        # With a rendezvous directory: wait until every racer is ready.
        if len(sys.argv) > 1:
            open(os.path.join(sys.argv[1], f"ready-{os.getpid()}"), "w").close()
            deadline = time.monotonic() + 60
            while not os.path.exists(os.path.join(sys.argv[1], "go")):
                if time.monotonic() > deadline:
                    sys.exit("no go signal")
                time.sleep(0.005)
        x = np.arange(4 * 64, dtype=np.float32)
        z = np.zeros_like(x)
        compiled = cache_kernel.compile(x, z, 64)
        cache_kernel[4](x, z, 64)
        asc.synchronize()
        print(json.dumps({"hit": compiled.cache_hit, "path": compiled.native.path,
                          "ok": bool((z == 3 * x).all())}))


    if __name__ == "__main__":
        main()
''')


def private_dir(path) -> str:
    os.makedirs(path, mode=0o700, exist_ok=True)
    os.chmod(path, 0o700)
    return str(path)


def entries(directory) -> dict[str, list[str]]:
    """The directory's files by kind: so, sum, c, tmp, other."""
    kinds: dict[str, list[str]] = {"so": [], "sum": [], "c": [], "tmp": [], "other": []}
    for name in sorted(os.listdir(directory)):
        if ".tmp-" in name:
            kinds["tmp"].append(name)
        elif name.endswith((".so", ".sum", ".c")):
            kinds[name.rsplit(".", 1)[1]].append(name)
        else:
            kinds["other"].append(name)
    return kinds


def run_script(script, cache_dir, *args, env_extra=None):
    env = dict(os.environ, PYASC_CACHE_DIR=str(cache_dir))
    env.update(env_extra or {})
    proc = subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True,
                          env=env, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def script(tmp_path_factory):
    path = tmp_path_factory.mktemp("kernel-script") / "cache_kernel_script.py"
    path.write_text(KERNEL_SCRIPT)
    return path


@pytest.fixture(scope="module")
def raced_cache(script, tmp_path_factory):
    """A cache built by 4 processes compiling the same kernel at once, and
    what each of them reported."""
    cache = private_dir(tmp_path_factory.mktemp("raced") / "cache")
    rendezvous = str(tmp_path_factory.mktemp("rendezvous"))
    env = dict(os.environ, PYASC_CACHE_DIR=cache)
    procs = [subprocess.Popen([sys.executable, str(script), rendezvous], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=env) for _ in range(4)]
    deadline = time.monotonic() + 120
    while len([f for f in os.listdir(rendezvous) if f.startswith("ready-")]) < 4:
        assert time.monotonic() < deadline and all(p.poll() is None for p in procs), \
            [p.communicate() for p in procs if p.poll() is not None]
        time.sleep(0.01)
    open(os.path.join(rendezvous, "go"), "w").close()
    results = []
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        results.append(json.loads(out.strip().splitlines()[-1]))
    return cache, results


def copy_of(raced_cache, tmp_path) -> str:
    cache, _ = raced_cache
    dst = str(tmp_path / "cache")
    shutil.copytree(cache, dst)
    os.chmod(dst, 0o700)
    return dst


def load_script_kernel(script, cache_dir):
    """The script's kernel as a fresh JITFunction (empty memory cache) using
    cache_dir."""
    spec = importlib.util.spec_from_file_location(f"cache_kernel_script_{id(cache_dir)}", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return asc.jit(module.cache_kernel.fn, cache_dir=cache_dir)


def run_and_check(kernel):
    x = np.arange(BLOCKS * N, dtype=np.float32)
    z = np.zeros_like(x)
    compiled = kernel.compile(x, z, N)
    kernel[BLOCKS](x, z, N)
    asc.synchronize()
    np.testing.assert_array_equal(z, 3 * x)
    return compiled


# --- in memory --------------------------------------------------------------------------------


def test_memory_hit_returns_the_same_compiled_kernel(script, tmp_path):
    kernel = load_script_kernel(script, private_dir(tmp_path / "c"))
    first = run_and_check(kernel)
    assert first.cache_hit is False
    assert run_and_check(kernel) is first
    assert kernel.compile(np.zeros(BLOCKS * N, np.float32), np.zeros(BLOCKS * N, np.float32),
                          N) is first
    # A second JITFunction over the same function finds the disk entry.
    again = load_script_kernel(script, str(tmp_path / "c"))
    second = run_and_check(again)
    assert second is not first and second.cache_hit is True
    assert second.native.path == first.native.path


# --- on disk, across processes ----------------------------------------------------------------


def test_four_processes_racing_leave_one_good_entry(raced_cache):
    cache, results = raced_cache
    assert all(r["ok"] for r in results)
    assert len({r["path"] for r in results}) == 1
    kinds = entries(cache)
    # The generated C is not kept (PYASC_DUMP_PATH keeps it elsewhere).
    assert len(kinds["so"]) == 1 and len(kinds["sum"]) == 1 and kinds["c"] == [], kinds
    assert kinds["tmp"] == [] and kinds["other"] == [], kinds
    assert kinds["so"][0].startswith("cache_kernel-")
    assert os.path.join(cache, kinds["so"][0]) == results[0]["path"]


def test_disk_hit_in_a_fresh_process(raced_cache, script, tmp_path):
    cache = copy_of(raced_cache, tmp_path)
    so = os.path.join(cache, entries(cache)["so"][0])
    os.utime(so, ns=(1_000_000_000, 1_000_000_000))  # a mark that a rebuild would lose
    result = run_script(script, cache)
    assert result == {"hit": True, "path": so, "ok": True}
    assert os.stat(so).st_mtime_ns == 1_000_000_000
    assert entries(cache)["tmp"] == []


def test_builds_in_two_processes_are_byte_identical(script, tmp_path):
    # Racing processes publish .so and .sum separately: only if every build
    # of a kernel has the same bytes can one's .sum never sit beside
    # another's .so (a build's temporary names once reached the object).
    objects = []
    for name in ("a", "b"):
        cache = private_dir(tmp_path / name)
        assert run_script(script, cache)["hit"] is False
        with open(os.path.join(cache, entries(cache)["so"][0]), "rb") as f:
            objects.append(f.read())
    assert objects[0] == objects[1]


def test_a_stale_build_directory_is_removed(script, tmp_path):
    cache = private_dir(tmp_path / "c")
    stale = os.path.join(cache, "old_kernel-0123.tmp-1-2-abcdef")
    fresh = os.path.join(cache, "new_kernel-4567.tmp-3-4-abcdef")
    for d in (stale, fresh):
        os.mkdir(d, 0o700)
        for name in ("kernel.c", "kernel.so"):
            with open(os.path.join(d, name), "w") as f:
                f.write("left by a killed build")
    os.utime(stale, ns=(1_000_000_000, 1_000_000_000))  # 2001: a killed build's
    run_and_check(load_script_kernel(script, cache))  # a publish sweeps the cache
    assert not os.path.exists(stale)
    assert sorted(os.listdir(fresh)) == ["kernel.c", "kernel.so"]  # may be building now


def truncate(path):
    with open(path, "r+b") as f:
        f.truncate(os.path.getsize(path) // 2)


def flip_byte(path):
    with open(path, "r+b") as f:
        f.seek(os.path.getsize(path) // 3)
        b = f.read(1)
        f.seek(-1, os.SEEK_CUR)
        f.write(bytes([b[0] ^ 0x5A]))


@pytest.mark.parametrize("damage", [truncate, flip_byte, os.remove],
                         ids=["truncated", "byte-changed", "checksum-missing"])
@pytest.mark.parametrize("which", ["so", "sum"])
def test_corrupt_entry_is_detected_and_rebuilt(raced_cache, script, tmp_path, damage, which):
    cache = copy_of(raced_cache, tmp_path)
    kinds = entries(cache)
    so = os.path.join(cache, kinds["so"][0])
    size = os.path.getsize(so)
    damage(os.path.join(cache, kinds[which][0]))
    compiled = run_and_check(load_script_kernel(script, cache))  # correct results again
    assert compiled.cache_hit is False
    assert os.path.getsize(so) == size
    rebuilt = entries(cache)
    assert len(rebuilt["so"]) == 1 and len(rebuilt["sum"]) == 1 and rebuilt["tmp"] == []
    # The rebuilt entry is good: the next lookup hits it.
    assert run_and_check(load_script_kernel(script, cache)).cache_hit is True


def test_always_compile_rebuilds(raced_cache, script, tmp_path):
    cache = copy_of(raced_cache, tmp_path)
    so = os.path.join(cache, entries(cache)["so"][0])
    os.utime(so, ns=(1_000_000_000, 1_000_000_000))
    module_kernel = load_script_kernel(script, cache)
    kernel = asc.jit(module_kernel.fn, cache_dir=cache, always_compile=True)
    first = run_and_check(kernel)
    assert first.cache_hit is False
    assert os.stat(so).st_mtime_ns != 1_000_000_000
    os.utime(so, ns=(2_000_000_000, 2_000_000_000))
    second = run_and_check(kernel)  # every compile, even in memory, rebuilds
    assert second.cache_hit is False and second is not first
    assert os.stat(so).st_mtime_ns != 2_000_000_000
    assert len(entries(cache)["so"]) == 1


# --- the directory must be private ------------------------------------------------------------


def test_directory_writable_by_others_is_refused(script, tmp_path):
    cache = private_dir(tmp_path / "shared")
    os.chmod(cache, 0o777)
    with pytest.raises(asc.CompileError, match="writable by other users"):
        run_and_check(load_script_kernel(script, cache))
    os.chmod(cache, 0o770)  # group-writable is just as unsafe
    with pytest.raises(asc.CompileError, match="writable by other users"):
        run_and_check(load_script_kernel(script, cache))
    assert entries(cache)["so"] == []
    os.chmod(cache, 0o700)
    assert run_and_check(load_script_kernel(script, cache)).cache_hit is False


def test_directory_of_another_user_is_refused(script, tmp_path):
    if os.geteuid() != 0:
        pytest.skip("needs root to give a directory to another user")
    cache = private_dir(tmp_path / "theirs")
    os.chown(cache, 65534, 65534)
    with pytest.raises(asc.CompileError, match="belongs to another user"):
        run_and_check(load_script_kernel(script, cache))
    assert entries(cache)["so"] == []


def test_missing_directories_are_created_private(script, tmp_path):
    cache = tmp_path / "a" / "b" / "cache"
    run_and_check(load_script_kernel(script, str(cache)))
    assert (os.stat(cache).st_mode & 0o077) == 0
    assert len(entries(cache)["so"]) == 1


def test_cache_dir_follows_pyasc_cache_dir(monkeypatch, tmp_path):
    monkeypatch.setenv("PYASC_CACHE_DIR", str(tmp_path / "env-cache"))
    assert asc._C.jit_cache_dir() == str(tmp_path / "env-cache")
    assert asc._C.jit_cache_dir(str(tmp_path / "explicit")) == str(tmp_path / "explicit")


# --- python -m pyasc cache, PYASC_DUMP_PATH ---------------------------------------------------


def test_cache_cli_info_and_clear(raced_cache, tmp_path):
    cache = copy_of(raced_cache, tmp_path)
    with open(os.path.join(cache, "notes.txt"), "w") as f:  # not the cache's: left alone
        f.write("keep")
    size = sum(os.path.getsize(os.path.join(cache, n)) for n in os.listdir(cache)
               if n != "notes.txt")
    env = dict(os.environ, PYASC_CACHE_DIR=cache)

    def cli(action):
        proc = subprocess.run([sys.executable, "-m", "pyasc", "cache", action], env=env,
                              capture_output=True, text=True, timeout=60, check=False)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    out = cli("info")
    assert f"kernel cache: {cache}" in out
    assert "kernels: 1" in out and f"size: {size} bytes" in out
    build = os.path.join(cache, "k-0123.tmp-1-2-abcdef")  # a killed build's directory
    os.mkdir(build, 0o700)
    open(os.path.join(build, "kernel.c"), "w").close()
    assert f"removed 3 files from {cache}" in cli("clear")  # .so, .sum and the build
    assert os.listdir(cache) == ["notes.txt"]
    assert "kernels: 0" in cli("info")


def test_dump_path_writes_ir_and_c(script, tmp_path, monkeypatch):
    dump = tmp_path / "dump"
    monkeypatch.setenv("PYASC_DUMP_PATH", str(dump))
    kernel = load_script_kernel(script, private_dir(tmp_path / "c"))
    compiled = run_and_check(kernel)
    assert {"cache_kernel.c", "cache_kernel.ir"} <= set(os.listdir(dump))
    assert (dump / "cache_kernel.ir").read_text() == compiled.ir_text
    assert (dump / "cache_kernel.c").read_text() == compiled.c_source
    assert compiled.ir_text.startswith("kernel @cache_kernel(")
