"""An operator (@pyasc.op) called on torch or JAX tensors returns that
framework's tensors (TensorFlow's: test_tensorflow.py), with the values
NumPy computes; a torch input that requires grad is refused with a message
that points to Op.to_torch(), since a direct call records no autograd
history."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc

torch = pytest.importorskip("torch")
jnp = pytest.importorskip("jax.numpy")


@pyasc.op
def scaled_sum(x, y):
    """(x + y) * 2."""
    return (x + y) * 2.0


@pyasc.op
def sum_and_difference(x, y):
    """Two outputs."""
    return x + y, x - y


X = np.arange(12, dtype=np.float32).reshape(3, 4)
Y = np.linspace(-1.0, 1.0, 12, dtype=np.float32).reshape(3, 4)


def test_torch_in_torch_out():
    result = scaled_sum(torch.from_numpy(X.copy()), torch.from_numpy(Y.copy()))
    assert isinstance(result, torch.Tensor)
    assert result.dtype == torch.float32 and tuple(result.shape) == (3, 4)
    np.testing.assert_array_equal(result.numpy(), (X + Y) * np.float32(2.0))


def test_torch_results_of_a_tuple_and_mixed_inputs():
    total, difference = sum_and_difference(torch.from_numpy(X.copy()), Y)
    assert isinstance(total, torch.Tensor) and isinstance(difference, torch.Tensor)
    np.testing.assert_array_equal(total.numpy(), X + Y)
    np.testing.assert_array_equal(difference.numpy(), X - Y)


def test_jax_in_jax_out():
    result = scaled_sum(jnp.asarray(X), jnp.asarray(Y))
    assert type(result).__module__.partition(".")[0] in ("jax", "jaxlib")
    np.testing.assert_array_equal(np.asarray(result), (X + Y) * np.float32(2.0))


def test_numpy_and_pyasc_inputs_still_give_pyasc_tensors():
    assert isinstance(scaled_sum(X, Y), pyasc.Tensor)
    assert isinstance(scaled_sum(pyasc.asarray(X), Y), pyasc.Tensor)


def test_requires_grad_input_points_to_to_torch():
    x = torch.from_numpy(X.copy()).requires_grad_(True)
    with pytest.raises(TypeError, match=r"scaled_sum\.to_torch\(\)") as info:
        scaled_sum(x, torch.from_numpy(Y.copy()))
    assert "detach()" in str(info.value)
    # detached, the same call computes
    result = scaled_sum(x.detach(), torch.from_numpy(Y.copy()))
    np.testing.assert_array_equal(result.numpy(), (X + Y) * np.float32(2.0))
