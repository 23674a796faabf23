"""``import asc``: Huawei PyAsc's package layout served by pyasc, so that
PyAsc programs run unchanged on pyasc's simulated device.

Every name here is pyasc's own object (``asc.jit is pyasc.jit``): this
package only arranges names. The top level holds the kernel language (as
``asc.language`` does) and the option classes of ``@asc.jit(...)``; the
runtime is ``asc.runtime.config`` and ``asc.lib.runtime``.
"""

from pyasc.language.jit import jit
from pyasc.language.options import CodegenOptions, CompileOptions, LaunchOptions

from asc import language, lib, runtime  # noqa: F401
from asc.language import adv  # noqa: F401  (PyAsc programs say asc.adv.X)
from asc.language import *  # noqa: F401,F403
from asc.language import __all__ as _language_all

__all__ = ["CodegenOptions", "CompileOptions", "LaunchOptions", "jit", *_language_all]
#: PyAsc's package also publishes its language's ``__all__`` under this name
lan_all = list(_language_all)
