// Enumerator lists that several of CANN's enums share, kept in one place so
// that they cannot drift apart: AscendC::TPosition and matmul_tiling::TPosition
// begin with the same positions, ge::DataType and matmul_tiling::DataType with
// the same numbers. Each enum adds its own tail.
#ifndef PYASC_ASCENDC_ENUM_LISTS_H
#define PYASC_ASCENDC_ENUM_LISTS_H

#define PYASC_TPOSITIONS \
  GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM = VECCALC, SPM, SHM = SPM, TSCM

#define PYASC_GE_DATA_TYPES                                                                 \
  DT_FLOAT = 0, DT_FLOAT16 = 1, DT_INT8 = 2, DT_INT32 = 3, DT_UINT8 = 4, DT_INT16 = 6,      \
  DT_UINT16 = 7, DT_UINT32 = 8, DT_INT64 = 9, DT_UINT64 = 10, DT_DOUBLE = 11, DT_BOOL = 12, \
  DT_STRING = 13, DT_DUAL_SUB_INT8 = 14, DT_DUAL_SUB_UINT8 = 15, DT_COMPLEX64 = 16,         \
  DT_COMPLEX128 = 17, DT_QINT8 = 18, DT_QINT16 = 19, DT_QINT32 = 20, DT_QUINT8 = 21,        \
  DT_QUINT16 = 22, DT_RESOURCE = 23, DT_STRING_REF = 24, DT_DUAL = 25, DT_VARIANT = 26,     \
  DT_BF16 = 27, DT_UNDEFINED = 28, DT_INT4 = 29, DT_UINT1 = 30, DT_INT2 = 31, DT_UINT2 = 32

#endif
