"""Host-side matmul tiling (PyAsc's ``asc.lib.host``).

On the host, describe a matmul and get the :class:`TCubeTiling` a kernel's
Matmul needs::

    import pyasc.host as host

    tiling = host.MultiCoreMatmulTiling(host.get_ascendc_platform())
    tiling.set_a_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT16, False)
    tiling.set_b_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT16, False)
    tiling.set_c_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT)
    tiling.set_dim(24)
    tiling.set_shape(512, 1024, 512)
    result = host.TCubeTiling()
    tiling.get_tiling(result)

The tiling is computed in C (libasc, ``src/tiling``) from the device's
buffer sizes; docs/host-tiling.md describes the algorithm. Setters return 0
as Ascend C's do; where Ascend C would return -1 they raise a
:class:`pyasc.Error` subclass saying why.
"""

from __future__ import annotations

import dataclasses
import enum

from pyasc._C import (
    BatchMatmulTiling,
    MatmulApiTiling,
    MatmulApiTilingBase,
    MultiCoreMatmulTiling,
    PlatformAscendC,
    get_ascendc_platform,
)
from pyasc.language.adv_tiling import TCubeTiling
from pyasc.language.core import TPosition
from pyasc.language.matmul_enums import ScheduleType


class CubeFormat(enum.IntEnum):
    """An operand's data format (``matmul_tiling::CubeFormat``); the tiling
    takes ND, NZ and ND_ALIGN matrices and an ND bias."""

    ND = 0
    NZ = 1
    ZN = 2
    ZZ = 3
    NN = 4
    ND_ALIGN = 5
    SCALAR = 6
    VECTOR = 7
    ROW_MAJOR = 8
    COLUMN_MAJOR = 9


class DataType(enum.IntEnum):
    """Element types (``matmul_tiling::DataType``, GE's values). The cube
    unit multiplies DT_FLOAT16, DT_BF16, DT_FLOAT and DT_INT8 (A and B
    alike); DT_BFLOAT16 is another name of DT_BF16."""

    DT_FLOAT = 0
    DT_FLOAT16 = 1
    DT_INT8 = 2
    DT_INT32 = 3
    DT_UINT8 = 4
    DT_INT16 = 6
    DT_UINT16 = 7
    DT_UINT32 = 8
    DT_INT64 = 9
    DT_UINT64 = 10
    DT_DOUBLE = 11
    DT_BOOL = 12
    DT_STRING = 13
    DT_COMPLEX64 = 16
    DT_COMPLEX128 = 17
    DT_QINT8 = 18
    DT_QINT16 = 19
    DT_QINT32 = 20
    DT_QUINT8 = 21
    DT_QUINT16 = 22
    DT_STRING_REF = 24
    DT_DUAL = 25
    DT_VARIANT = 26
    DT_BF16 = 27
    DT_BFLOAT16 = 27
    DT_UNDEFINED = 28
    DT_INT4 = 29
    DT_UINT1 = 30
    DT_INT2 = 31
    DT_MAX = 33


class MatrixTraverse(enum.IntEnum):
    """Which way the kernel walks the output's base blocks."""

    NOSET = 0
    FIRSTM = 1
    FIRSTN = 2


class MatrixMadType(enum.IntEnum):
    """The cube's multiply mode (accepted; it does not change the tiling)."""

    NORMAL = 0
    HF32 = 1
    MXMODE = 2


class DequantType(enum.IntEnum):
    """How an int8 matmul's output is dequantised (accepted; it does not
    change the tiling)."""

    SCALAR = 0
    TENSOR = 1


class CoreMemType(enum.IntEnum):
    """A core memory for ``PlatformAscendC.get_core_mem_size``."""

    L0_A = 0
    L0_B = 1
    L0_C = 2
    L1 = 3
    L2 = 4
    UB = 5
    HBM = 6


@dataclasses.dataclass
class MatmulConfigParams:
    """Matmul configuration for ``set_matmul_config_params`` (only
    ``traverse`` changes this tiling; ``enable_l1_cache_ub`` is not
    supported)."""

    mm_config_type: int = 1
    enable_l1_cache_ub: bool = False
    schedule_type: ScheduleType = ScheduleType.INNER_PRODUCT
    traverse: MatrixTraverse = MatrixTraverse.NOSET
    en_vec_nd2nz: bool = False


class PlatformAscendCManager:
    """Ascend C's platform singleton access."""

    @staticmethod
    def get_instance(soc_version: str | None = None) -> PlatformAscendC:
        """The current device's platform. The simulated device stands in for
        any ``soc_version`` (it is accepted and not checked)."""
        del soc_version
        return get_ascendc_platform()


__all__ = [
    "BatchMatmulTiling",
    "CoreMemType",
    "CubeFormat",
    "DataType",
    "DequantType",
    "MatmulApiTiling",
    "MatmulApiTilingBase",
    "MatmulConfigParams",
    "MatrixMadType",
    "MatrixTraverse",
    "MultiCoreMatmulTiling",
    "PlatformAscendC",
    "PlatformAscendCManager",
    "ScheduleType",
    "TCubeTiling",
    "TPosition",
    "get_ascendc_platform",
]
