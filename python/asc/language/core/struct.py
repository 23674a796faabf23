"""PyAsc's ``asc.language.core.struct``: ``Struct`` kernel parameters and
their ``Field`` declarations, served by ``pyasc.language.struct``."""

from pyasc.language.struct import *  # noqa: F401,F403
from pyasc.language.struct import __all__  # noqa: F401
