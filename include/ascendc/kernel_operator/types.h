// Part of kernel_operator.h, included only from it: qualifiers, pipes and events, the
// float16/bfloat16 types, strides and the runtime's dtype codes.

// Address-space and kernel qualifiers of the device compiler: no-ops here.
#define __global__
#define __aicore__
#define __gm__
#define __vector__
#define __cube__
// a mixed kernel's cores: (AICs, AIVs) per group, as asc_ascendc_traits groups them
#define __mix__(aic, aiv)
// the system workspace argument of a mixed kernel (the simulator needs no mark on it)
#define __kfc_workspace__
#define __inline__ inline
#define GM_ADDR __gm__ uint8_t *
// The kernel's core kind: the simulator runs vector kernels on AIVs.
#define KERNEL_TASK_TYPE_DEFAULT(type)
#define KERNEL_TASK_TYPE(key, type)

// The FFTS (cross-core synchronisation) base address a mixed kernel sets
// first; PyAsc's generated Ascend C calls it in every kernel, with the
// address the launcher appends as the last argument. The simulator's
// cross-core flags need no such table: nothing to set.
inline void set_ffts_base_addr(uint64_t addr) {
  (void)addr;
}

#ifndef PYASC_SIM_CHECKED
#define PYASC_SIM_CHECKED 0
#endif
// 1: libasc hands the kernel the runtime's profiled table (pyasc.profile, asc_ascendc_build)
#ifndef PYASC_SIM_PROFILED
#define PYASC_SIM_PROFILED 0
#endif

// The slot libasc fills with the runtime's table when it loads the kernel.
extern "C" const pyasc_sim_api *pyasc_sim_table;

enum pipe_t {
  PIPE_S,
  PIPE_V,
  PIPE_M,
  PIPE_MTE1,
  PIPE_MTE2,
  PIPE_MTE3,
  PIPE_ALL,
  PIPE_MTE4,
  PIPE_MTE5,
  PIPE_V2,
  PIPE_FIX
};

// The device compiler's event ids, global as there (SetFlag/WaitFlag take them as integers).
enum event_t : int32_t {
  EVENT_ID0,
  EVENT_ID1,
  EVENT_ID2,
  EVENT_ID3,
  EVENT_ID4,
  EVENT_ID5,
  EVENT_ID6,
  EVENT_ID7
};

enum KernelTaskTypeValue {
  KERNEL_TYPE_AIV_ONLY,
  KERNEL_TYPE_AIC_ONLY,
  KERNEL_TYPE_MIX_AIV_1_0,
  KERNEL_TYPE_MIX_AIC_1_1,
  KERNEL_TYPE_MIX_AIC_1_2
};

namespace AscendC {
namespace sim {

// Where a call was made: the user's file and line (for error messages).
struct Loc {
  const char *file;
  int line;
  Loc(const char *f = __builtin_FILE(), int l = __builtin_LINE()) : file(f), line(l) {}
};

// A failed call unwinds the kernel function to its entry.
struct Abort {};

inline thread_local void *ctx = nullptr;
inline const pyasc_sim_api *api() {
  return pyasc_sim_table;
}
inline void check(int rc) {
  if (rc) throw Abort{};
}

}  // namespace sim
}  // namespace AscendC

// The device's 16-bit floating types: float16 rounds as the vector unit does.
struct half {
  uint16_t bits = 0;
  half() = default;
  half(float x) : bits(AscendC::sim::api()->f2h(x)) {}
  half(double x) : half(static_cast<float>(x)) {}
  half(int x) : half(static_cast<float>(x)) {}
  half(int64_t x) : half(static_cast<float>(x)) {}
  half(uint32_t x) : half(static_cast<float>(x)) {}
  operator float() const { return AscendC::sim::api()->h2f(bits); }
  static half from_bits(uint16_t b) {
    half h;
    h.bits = b;
    return h;
  }
};
struct bfloat16_t {
  uint16_t bits = 0;
  bfloat16_t() = default;
  bfloat16_t(float x) {  // round to nearest even, NaN kept quiet
    uint32_t u;
    __builtin_memcpy(&u, &x, sizeof u);
    if ((u & 0x7fffffffu) > 0x7f800000u)
      bits = static_cast<uint16_t>((u >> 16) | 0x40u);
    else
      bits = static_cast<uint16_t>((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
  }
  bfloat16_t(double x) : bfloat16_t(static_cast<float>(x)) {}
  bfloat16_t(int x) : bfloat16_t(static_cast<float>(x)) {}
  operator float() const {
    uint32_t u = static_cast<uint32_t>(bits) << 16;
    float f;
    __builtin_memcpy(&f, &u, sizeof f);
    return f;
  }
  static bfloat16_t from_bits(uint16_t b) {
    bfloat16_t h;
    h.bits = b;
    return h;
  }
};

namespace AscendC {

enum class TPosition : uint8_t {
  PYASC_TPOSITIONS,
  C2PIPE2GM,  // the fixpipe buffer (quant and relu vectors), which the simulator lacks yet
  C2PIPE2LOCAL,
  MAX
};
using QuePosition = TPosition;

// The runtime numbers HardEvent in this order (rt/core.h asc_k_events).
enum class HardEvent : uint8_t {
  MTE2_MTE1,
  MTE1_MTE2,
  MTE1_M,
  M_MTE1,
  MTE2_V,
  V_MTE2,
  MTE3_V,
  V_MTE3,
  M_V,
  V_M,
  V_V,
  MTE3_MTE1,
  MTE1_MTE3,
  MTE1_V,
  MTE2_M,
  M_MTE2,
  V_MTE1,
  M_FIX,
  FIX_M,
  MTE3_MTE2,
  MTE2_MTE3,
  S_V,
  V_S,
  S_MTE2,
  MTE2_S,
  S_MTE3,
  MTE3_S,
  MTE2_FIX,
  FIX_MTE2,
  FIX_S,
  M_S,
  FIX_MTE3,
  MTE1_FIX,
  FIX_MTE1,
  FIX_FIX,
  MAX
};

enum class RoundMode : uint8_t {
  CAST_NONE,
  CAST_RINT,
  CAST_FLOOR,
  CAST_CEIL,
  CAST_ROUND,
  CAST_TRUNC,
  CAST_ODD
};

enum class CMPMODE : uint8_t { LT, GT, EQ, LE, GE, NE };
// A tensor's data format (ShapeInfo, the transdata tilings).
#ifndef ASCC_ENUM_DATAFORMAT
#define ASCC_ENUM_DATAFORMAT
enum class DataFormat : uint8_t { ND = 0, NZ, NCHW, NC1HWC0, NHWC, NCDHW, NDC1HWC0, FRACTAL_Z_3D };
#endif
enum class SELMODE : uint8_t { VSEL_CMPMASK_SPR, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };
enum class MaskMode : uint8_t { NORMAL, COUNTER };
enum class ReduceOrder : uint8_t {
  ORDER_VALUE_INDEX,
  ORDER_INDEX_VALUE,
  ORDER_ONLY_VALUE,
  ORDER_ONLY_INDEX
};

using ::event_t;
// An event id as TPipe's AllocEventID and FetchEventID hand it out.
using TEventID = int8_t;

// Strides of the mask (level-0) forms, in 32-byte blocks: the block stride
// within a repeat and the repeat stride.
struct BinaryRepeatParams {
  uint8_t dstBlkStride = 1, src0BlkStride = 1, src1BlkStride = 1;
  uint8_t dstRepStride = 8, src0RepStride = 8, src1RepStride = 8;
  BinaryRepeatParams() = default;
  BinaryRepeatParams(const uint8_t dstBlkStrideIn, const uint8_t src0BlkStrideIn,
                     const uint8_t src1BlkStrideIn, const uint8_t dstRepStrideIn,
                     const uint8_t src0RepStrideIn, const uint8_t src1RepStrideIn)
      : dstBlkStride(dstBlkStrideIn),
        src0BlkStride(src0BlkStrideIn),
        src1BlkStride(src1BlkStrideIn),
        dstRepStride(dstRepStrideIn),
        src0RepStride(src0RepStrideIn),
        src1RepStride(src1RepStrideIn) {}
};
struct UnaryRepeatParams {
  uint16_t dstBlkStride = 1, srcBlkStride = 1;
  uint8_t dstRepStride = 8, srcRepStride = 8;
  UnaryRepeatParams() = default;
  UnaryRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t srcBlkStrideIn,
                    const uint8_t dstRepStrideIn, const uint8_t srcRepStrideIn)
      : dstBlkStride(dstBlkStrideIn),
        srcBlkStride(srcBlkStrideIn),
        dstRepStride(dstRepStrideIn),
        srcRepStride(srcRepStrideIn) {}
};
struct CopyRepeatParams {
  uint16_t dstStride = 1, srcStride = 1, dstRepeatSize = 8, srcRepeatSize = 8;
  CopyRepeatParams() = default;
  CopyRepeatParams(const uint16_t dstStrideIn, const uint16_t srcStrideIn, uint16_t dstRepeatSizeIn,
                   uint16_t srcRepeatSizeIn)
      : dstStride(dstStrideIn),
        srcStride(srcStrideIn),
        dstRepeatSize(dstRepeatSizeIn),
        srcRepeatSize(srcRepeatSizeIn) {}
};

// A 4-bit signed integer (-8..7). Tensors hold two to a byte (rt/int4.h counts their
// elements and bytes); one held alone takes a byte, as on the device.
struct int4b_t {
  uint8_t bits = 0;  // the low nibble
  int4b_t() = default;
  int4b_t(int v) : bits(static_cast<uint8_t>(v & 15)) {}
  operator int() const { return bits >= 8 ? static_cast<int>(bits) - 16 : bits; }
};

namespace sim {

// The runtime's dtype codes (include/asc/dtype.h; int4b_t's is the kernels' own, rt/int4.h).
template <typename T>
struct dtype;
template <>
struct dtype<int4b_t> {
  static constexpr int code = 16;
};
template <typename T>
constexpr bool is_i4_v = std::is_same_v<T, int4b_t>;
// An int4b_t form of the runtime (PYASC_SIM_VEC_INT4; v[0] the form, rt/int4.h); out its
// results.
inline void i4(std::initializer_list<int64_t> v, std::initializer_list<pyasc_sim_lt> t,
               int64_t *out, Loc loc) {
  int64_t res[2] = {0, 0};
  check(api()->vec_more(ctx, PYASC_SIM_VEC_INT4, v.begin(), t.begin(), pyasc_sim_gt{}, 0,
                        out ? out : res, loc.file, loc.line));
}
inline pyasc_sim_lt i4_lt(std::initializer_list<int64_t> v, std::initializer_list<pyasc_sim_lt> t,
                          Loc loc) {
  int64_t out[2] = {0, 0};
  i4(v, t, out, loc);
  return pyasc_sim_lt{out[0], out[1]};
}
template <>
struct dtype<bool> {
  static constexpr int code = 0;
};
template <>
struct dtype<int8_t> {
  static constexpr int code = 1;
};
template <>
struct dtype<uint8_t> {
  static constexpr int code = 2;
};
template <>
struct dtype<int16_t> {
  static constexpr int code = 3;
};
template <>
struct dtype<int32_t> {
  static constexpr int code = 4;
};
template <>
struct dtype<int64_t> {
  static constexpr int code = 5;
};
template <>
struct dtype<half> {
  static constexpr int code = 6;
};
template <>
struct dtype<bfloat16_t> {
  static constexpr int code = 7;
};
template <>
struct dtype<float> {
  static constexpr int code = 8;
};
template <>
struct dtype<double> {
  static constexpr int code = 9;
};
template <>
struct dtype<uint16_t> {
  static constexpr int code = 10;
};
template <>
struct dtype<uint32_t> {
  static constexpr int code = 11;
};
template <>
struct dtype<uint64_t> {
  static constexpr int code = 12;
};

// A scalar operand as the runtime takes it, and an element back.
template <typename T>
inline double to_double(const T &x) {
  if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>)
    return static_cast<double>(static_cast<float>(x));
  else
    return static_cast<double>(x);
}
template <typename T>
inline T from_double(double x) {
  if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>)
    return T(static_cast<float>(x));
  else
    return static_cast<T>(x);
}

// An element as the runtime's element access passes it: floating types as
// double, integers as int64 (all 64 bits).
template <typename T>
constexpr bool is_float_v =
    std::is_floating_point_v<T> || std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>;
template <typename T>
inline T element(double f, int64_t i) {
  if constexpr (is_float_v<T>)
    return from_double<T>(f);
  else
    return static_cast<T>(i);
}
template <typename T>
inline void element_args(const T &x, double *f, int64_t *i) {
  if constexpr (is_float_v<T>)
    *f = to_double(x), *i = 0;
  else
    *f = 0, *i = static_cast<int64_t>(x);
}

// A parameter that takes part in no template argument deduction.
template <typename T>
struct same {
  using type = T;
};
template <typename T>
using same_t = typename same<T>::type;

}  // namespace sim

}  // namespace AscendC
