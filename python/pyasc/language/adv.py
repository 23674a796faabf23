"""The kernel language's advanced APIs (PyAsc's ``asc.language.adv``).

``TCubeTiling``, the matmul tiling struct that ``pyasc.host``'s tilings fill
and kernels take as a parameter, and the cube's high-level ``Matmul``
(``MatmulType``, ``MatmulConfig``, ``register_matmul``;
``pyasc.language.matmul``). The adv maths family is still to come.
"""

from pyasc.language.adv_tiling import TCubeTiling
from pyasc.language.matmul import Matmul, MatmulConfig, MatmulType
from pyasc.language.matmul import register_matmul_api as register_matmul

__all__ = ["TCubeTiling", "Matmul", "MatmulConfig", "MatmulType", "register_matmul"]
