"""The registered operators by name: ``pyasc.ops.<name>``.

Every ``@pyasc.op`` function is an attribute of this module under its
registered name, as soon as it is defined::

    @pyasc.op
    def my_custom_op(x, y):
        return (x + y) * 2.0

    pyasc.ops.my_custom_op is my_custom_op   # True

The registry itself lives in ``pyasc.op`` (:func:`pyasc.get_op`,
:func:`pyasc.list_ops`); this module only looks names up in it, so it holds
no other public names that an operator could shadow.
"""

from __future__ import annotations

import sys as _sys

from pyasc._C import InvalidValueError as _InvalidValueError
from pyasc.op import Op as _Op


def __getattr__(name: str) -> _Op:
    try:
        return _sys.modules["pyasc.op"].get_op(name)
    except _InvalidValueError:
        raise AttributeError(f"pyasc.ops has no operator {name!r} (see pyasc.list_ops())") from None


def __dir__() -> list[str]:
    return _sys.modules["pyasc.op"].list_ops()
