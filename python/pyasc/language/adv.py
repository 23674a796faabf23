"""The kernel language's advanced APIs (PyAsc's ``asc.language.adv``).

Inside ``@pyasc.jit`` kernels: the element-wise maths family (``acos`` ...
``trunc``, ``erf``, ``erfc``, ``digamma``, ``lgamma``, ``exp`` with a Taylor
level, ``power``, ``sign``, ``round``, ``frac``, ``xor``, ``axpy``),
``softmax`` with :class:`SoftmaxTiling`, ``rmsnorm`` with
:class:`RmsNormTiling`, ``quant`` with :class:`QuantConfig`, and the sort
helpers ``concat``/``extract``; every one takes an optional shared tmp
buffer (a uint8 LocalTensor) sized on the host by the ``get_*_tmp_size``
queries of :mod:`pyasc.language.adv_host`, re-exported here. See
docs/adv.md. :class:`TCubeTiling` is the matmul tiling the host fills with
``pyasc.host``; the cube's high-level ``Matmul`` (``MatmulType``,
``MatmulConfig``, ``register_matmul``) is :mod:`pyasc.language.matmul`.
"""

from pyasc.language import adv_host
from pyasc.language.adv_host import *  # noqa: F401,F403  (the host queries)
from pyasc.language.adv_tiling import QuantConfig, RmsNormTiling, SoftmaxTiling, TCubeTiling
from pyasc.language.core import KernelBuiltin
from pyasc.language.lower.adv import APIS as _APIS
from pyasc.language.matmul import Matmul, MatmulType
from pyasc.language.matmul_config import MatmulConfig
from pyasc.language.matmul_config import *  # noqa: F401,F403  (Matmul configurations)
from pyasc.language.matmul_config import __all__ as _matmul_config
from pyasc.language.matmul import register_matmul_api as register_matmul
from pyasc.language.matmul_static import MatmulApiStaticTiling, get_matmul_api_tiling

_DOCS = {
    "exp": "exp(dst, src, count, taylor_expand_level, temp_buffer=None, is_reuse_source=False):"
           " e**x, by a Taylor series of taylor_expand_level terms when that is not 0.",
    "power": "power(dst, src0, src1, count=None, temp_buffer=None, is_reuse_source=False): "
             "src0 ** src1 element-wise.",
    "xor": "xor(dst, src0, src1, count=None, temp_buffer=None, is_reuse_source=False): "
           "bitwise exclusive or of int16 tensors.",
    "axpy": "axpy(dst, src, scalar, count=None, temp_buffer=None, is_reuse_source=False): "
            "dst += src * scalar (a float32 dst may take a float16 src).",
    "softmax": "softmax(dst, sum, max, src, tiling, temp_buffer=None, reuse_source=False, "
               "basic_block=False, data_format_nz=False): softmax over the last axis of "
               "tiling.src_m rows of tiling.src_k; sum and max get one 32-byte block per row.",
    "rmsnorm": "rmsnorm(dst, src, gamma, epsilon, tiling, temp_buffer=None, basic_block=False):"
               " src / sqrt(mean(src**2) + epsilon) * gamma over the last axis.",
    "quant": "quant(dst, src, scale, offset, count=None, temp_buffer=None, reuse_source=False, "
             "config=None): int8 = saturate(rint(src * scale + offset)).",
    "concat": "concat(dst, src, tmp, repeat_time): sort's input from src, 16 elements a "
              "repeat.",
    "extract": "extract(dst_value, dst_index, src, repeat_time): values and uint32 (or int32) indices of "
               "sort's (score, index) pairs, 32 a repeat.",
}

for _name in _APIS:
    globals()[_name] = KernelBuiltin(
        f"adv.{_name}",
        _DOCS.get(_name, f"{_name}(dst, src, count=None, temp_buffer=None, "
                         f"is_reuse_source=False): element-wise {_name} (float16 computed in "
                         "float32)."))

__all__ = ["TCubeTiling", "SoftmaxTiling", "RmsNormTiling", "QuantConfig", "Matmul",
           "MatmulType", "register_matmul", "MatmulApiStaticTiling", "get_matmul_api_tiling",
           *_matmul_config, *_APIS, *adv_host.__all__]
