"""The kernel language's advanced APIs (PyAsc's ``asc.language.adv``).

Today: ``TCubeTiling``, the matmul tiling struct that ``pyasc.host``'s
tilings fill and kernels take as a parameter. The cube unit (``Matmul``)
and the adv maths family are still to come.
"""

from pyasc.language.adv_tiling import TCubeTiling

__all__ = ["TCubeTiling"]
