"""PyAsc's ``asc.language``: the kernel language, pyasc's objects under
PyAsc's module layout (core, fwk, basic and adv)."""

from asc.language import adv, basic, core, fwk
from asc.language.basic import *  # noqa: F401,F403
from asc.language.core import *  # noqa: F401,F403
from asc.language.fwk import *  # noqa: F401,F403

__all__ = [*basic.__all__, *core.__all__, *fwk.__all__]
