"""PyAsc's ``asc.runtime``: ``config`` selects the backend, ``launcher``
is the object every launch passes through, ``jit`` the decorator and its
placeholder arguments."""

from asc.runtime import config, jit, launcher  # noqa: F401
