"""torch's "npu" device over pyasc's simulated chip (pyasc.npu and the
pyasc._npu_device extension): factories, copies, torch operators, kernels
on npu tensors without copies, pyasc's memory and streams, and when the
device is registered."""

from __future__ import annotations

import copy
import gc
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import asc
import pyasc
from pyasc import memory

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.skipif(not pyasc.npu.registered(),
                                reason="pyasc was built without torch's npu device")

N = 2048
CORES = 8


@asc.jit
def vadd(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, n: int) -> None:
    start = asc.get_block_idx() * n
    x_gm, y_gm, z_gm = asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor()
    x_gm.set_global_buffer(x + start, n)
    y_gm.set_global_buffer(y + start, n)
    z_gm.set_global_buffer(z + start, n)
    xs = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, n)
    ys = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, n * 4, n)
    zs = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, n * 8, n)
    asc.data_copy(xs, x_gm, n)
    asc.data_copy(ys, y_gm, n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.add(zs, xs, ys, n)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, zs, n)


def _allocated() -> int:
    return int(memory.memory_stats()["allocated_bytes"])


def _run(code: str) -> str:
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    return out.stdout


def test_device_is_named_npu():
    t = torch.zeros(3, device="npu")
    assert t.device == torch.device("npu", 0)
    assert t.is_npu and t.device.type == "npu"
    assert torch._C._get_privateuse1_backend_name() == "npu"
    assert "device='npu:0'" in repr(t)


@pytest.mark.parametrize("make", [
    lambda **kw: torch.zeros(4, 5, **kw),
    lambda **kw: torch.ones(7, dtype=torch.float16, **kw),
    lambda **kw: torch.full((3, 2), 2.5, **kw),
    lambda **kw: torch.arange(3, 40, 3, **kw),
    lambda **kw: torch.tensor([[1, -2], [3, 4]], dtype=torch.int32, **kw),
    lambda **kw: torch.linspace(-1, 1, 11, **kw),
    lambda **kw: torch.eye(4, **kw),
])
def test_factories_match_cpu(make):
    npu = make(device="npu")
    cpu = make()
    assert npu.device.type == "npu" and npu.dtype == cpu.dtype and npu.shape == cpu.shape
    np.testing.assert_array_equal(npu.cpu().numpy(), cpu.numpy())


@pytest.mark.parametrize("draw", [torch.rand, torch.randn])
def test_random_factories_draw_from_torchs_generator(draw):
    torch.manual_seed(7)
    cpu = draw(64, 3)
    torch.manual_seed(7)
    npu = draw(64, 3, device="npu")
    np.testing.assert_array_equal(npu.cpu().numpy(), cpu.numpy())


def test_rng_state_is_torchs_cpu_generator():
    torch.npu.manual_seed(11)
    state = torch.npu.get_rng_state()
    first = torch.rand(16, device="npu").cpu()
    torch.npu.set_rng_state(state)
    again = torch.rand(16, device="npu").cpu()
    torch.manual_seed(11)
    cpu = torch.rand(16)
    np.testing.assert_array_equal(first.numpy(), cpu.numpy())
    np.testing.assert_array_equal(again.numpy(), cpu.numpy())
    torch.manual_seed(5)
    with torch.random.fork_rng(device_type="npu"):  # draws inside leave the state as it was
        torch.rand(4, device="npu")
    after = torch.rand(3, device="npu")
    torch.manual_seed(5)
    np.testing.assert_array_equal(after.cpu().numpy(), torch.rand(3).numpy())


def test_empty_has_its_shape_and_dtype():
    t = torch.empty(5, 6, dtype=torch.int16, device="npu")
    assert t.shape == (5, 6) and t.dtype == torch.int16 and t.device.type == "npu"


def test_round_trips_keep_values():
    a = np.random.default_rng(0).standard_normal((6, 9)).astype(np.float32)
    cpu = torch.from_numpy(a)
    for npu in (cpu.npu(), cpu.to("npu"), cpu.to(torch.device("npu:0")), cpu.npu(0)):
        assert npu.device.type == "npu"
        np.testing.assert_array_equal(npu.cpu().numpy(), a)
        np.testing.assert_array_equal(npu.to("cpu").numpy(), a)
    half = cpu.to("npu", dtype=torch.float16)
    np.testing.assert_array_equal(half.cpu().numpy(), a.astype(np.float16))


def test_operators_match_numpy():
    rng = np.random.default_rng(1)
    a = rng.standard_normal((8, 16)).astype(np.float32)
    b = rng.standard_normal((8, 16)).astype(np.float32)
    x, y = torch.from_numpy(a).npu(), torch.from_numpy(b).npu()
    for got, want in [
        (x + y, a + b), (x * y - 2, a * b - 2), (x / (y.abs() + 1), a / (np.abs(b) + 1)),
        (torch.exp(x), np.exp(a)), (torch.relu(x), np.maximum(a, 0)),
        (x @ y.T, a @ b.T), (torch.matmul(x.T, y), a.T @ b),
        (x.sum(), a.sum()), (x.mean(1), a.mean(1)), (x.max(0).values, a.max(0)),
        (x.reshape(4, 32), a.reshape(4, 32)), (x.transpose(0, 1), a.T),
        (torch.cat([x, y], 1), np.concatenate([a, b], 1)), (x[2:6, ::3], a[2:6, ::3]),
        (x[x > 0], a[a > 0]), (x > y, a > b), (x.to(torch.int32), a.astype(np.int32)),
    ]:
        assert got.device.type == "npu"
        np.testing.assert_allclose(got.cpu().numpy(), want, rtol=1e-5, atol=1e-5)
    assert torch.allclose(x + y, y + x)
    assert not torch.allclose(x, y)
    torch.testing.assert_close(x * 2, x + x)
    assert float((x * 0 + 3).sum()) == pytest.approx(3 * a.size)


def test_views_share_memory_and_writes_go_through():
    base = torch.zeros(4, 6, device="npu")
    view = base[1:3, 2:5]
    assert view.data_ptr() == base.data_ptr() + (1 * 6 + 2) * 4
    view.fill_(5)
    base.T[0].copy_(torch.arange(4, dtype=torch.float32))
    want = np.zeros((4, 6), np.float32)
    want[1:3, 2:5] = 5
    want[:, 0] = np.arange(4)
    np.testing.assert_array_equal(base.cpu().numpy(), want)
    base.add_(1)
    base[0] = -1
    want += 1
    want[0] = -1
    np.testing.assert_array_equal(base.cpu().numpy(), want)


def test_storage_copies_and_modules():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    t = torch.from_numpy(a).npu()
    c = copy.deepcopy(t)
    assert c.device.type == "npu" and c.data_ptr() != t.data_ptr()
    np.testing.assert_array_equal(c.cpu().numpy(), a)
    s = torch.empty(0, device="npu").set_(t.untyped_storage(), 0, (3,), (2,))
    np.testing.assert_array_equal(s.cpu().numpy(), a.reshape(-1)[::2])
    lin = torch.nn.Linear(3, 2).npu()
    assert lin.weight.device.type == "npu"
    w, b = lin.weight.detach().cpu().numpy(), lin.bias.detach().cpu().numpy()
    np.testing.assert_allclose(lin(t).detach().cpu().numpy(), a @ w.T + b, rtol=1e-5)


def test_autograd_on_npu_tensors():
    a = np.random.default_rng(3).standard_normal((4, 5)).astype(np.float32)
    x = torch.from_numpy(a).npu().requires_grad_()
    (x * x).sum().backward()
    assert x.grad.device.type == "npu"
    np.testing.assert_allclose(x.grad.cpu().numpy(), 2 * a, rtol=1e-6)


def test_out_argument_is_resized_in_npu_memory():
    out = torch.empty(0, device="npu")
    torch.add(torch.ones(5, device="npu"), 2, out=out)
    assert out.device.type == "npu" and out.shape == (5,)
    np.testing.assert_array_equal(out.cpu().numpy(), np.full(5, 3, np.float32))


def test_kernel_writes_npu_tensors_in_place():
    rng = np.random.default_rng(2)
    a = rng.standard_normal(N).astype(np.float32)
    b = rng.standard_normal(N).astype(np.float32)
    x, y = torch.from_numpy(a).npu(), torch.from_numpy(b).npu()
    z = torch.zeros(N, device="npu")
    ptr = z.data_ptr()
    vadd[CORES, torch.npu.current_stream()](x, y, z, N // CORES)
    assert z.data_ptr() == ptr and z.device.type == "npu"
    np.testing.assert_array_equal(z.cpu().numpy(), a + b)
    assert torch.allclose(z, x + y)


def test_kernel_rejects_a_strided_npu_tensor():
    x = torch.ones(2 * N, device="npu")[::2]
    z = torch.zeros(N, device="npu")
    with pytest.raises(pyasc.InvalidValueError, match="not contiguous"):
        vadd[CORES, torch.npu.current_stream()](x, x, z, N // CORES)


def test_pyasc_shares_npu_tensor_memory():
    t = torch.arange(12, dtype=torch.float32, device="npu").reshape(3, 4)
    p = pyasc.asarray(t)
    assert p.data_ptr == t.data_ptr()
    np.testing.assert_array_equal(p.numpy(), np.arange(12, dtype=np.float32).reshape(3, 4))
    del p


def test_memory_is_pyascs():
    gc.collect()
    before = _allocated()
    t = torch.empty(1 << 20, device="npu")
    assert _allocated() - before >= 4 << 20
    assert torch.npu.memory_allocated() == _allocated()
    del t
    gc.collect()
    assert _allocated() == before


def test_device_module_and_streams():
    assert torch.npu.is_available()
    assert torch.npu.device_count() == pyasc.device_count()
    assert torch.npu.current_device() == pyasc.current_device()
    torch.npu.set_device("npu:0")
    assert torch.npu.current_device() == 0
    assert torch.npu.current_stream() == pyasc.current_stream()
    s = pyasc.Stream()
    with pyasc.stream(s):
        assert torch.npu.current_stream() == s
        x = torch.ones(N, device="npu")
        z = torch.empty(N, device="npu")
        vadd[CORES, torch.npu.current_stream()](x, x, z, N // CORES)
        torch.npu.synchronize()
    np.testing.assert_array_equal(z.cpu().numpy(), np.full(N, 2, np.float32))
    assert torch.npu.current_stream() == pyasc.default_stream()


def test_import_asc_does_not_import_torch_and_registers_when_torch_comes():
    out = _run("""
        import sys
        import asc
        assert "torch" not in sys.modules
        import torch
        t = torch.arange(4, device="npu") * 2
        print(t.device, t.cpu().tolist())
    """)
    assert out.split() == ["npu:0", "[0,", "2,", "4,", "6]"]


def test_torch_imported_first_gets_the_device_at_import_asc():
    out = _run("""
        import torch
        try:
            torch.zeros(1, device="npu")
            raise SystemExit("npu existed before import asc")
        except RuntimeError:
            pass
        import asc
        print(torch.ones(2, device="npu").sum().item(), torch.npu.is_available())
    """)
    assert out.split() == ["2.0", "True"]


def test_installed_torch_npu_is_left_alone(tmp_path):
    (tmp_path / "torch_npu").mkdir()
    (tmp_path / "torch_npu" / "__init__.py").write_text("")
    code = textwrap.dedent("""
        import sys
        sys.path.insert(0, sys.argv[1])
        import torch, asc
        print(torch._C._get_privateuse1_backend_name(), hasattr(torch, "npu"))
    """)
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True,
                         text=True, check=True).stdout
    assert out.split() == ["privateuseone", "False"]
