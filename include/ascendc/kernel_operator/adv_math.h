// Part of kernel_operator.h, included only from it: the adv library (lib/math, lib/activation,
// lib/normalization, lib/quantization, lib/sort): the element-wise maths family, Exp's Taylor
// form, Power, Xor, Axpy, SoftMax, RmsNorm, AscendQuant, Concat and Extract, through the
// table's adv_more. A sharedTmpBuffer must hold the least the host query asks for (the maths
// family, Power, Xor, Axpy: as the Python kernel checks it) and counts as written by the vector
// pipe, as the NPU's implementation scribbles over it (SoftMax, RmsNorm, AscendQuant: all of it);
// the simulator needs none.

#include "adv_tiling.h"

namespace AscendC {

namespace sim {
// One adv_more call: the tensors t, the numbers v, a floating value f; the result back.
inline int64_t adv_more(int op, const int64_t *v, std::initializer_list<pyasc_sim_lt> t, Loc loc,
                        double f = 0, pyasc_sim_gt g = {nullptr, 0, 0, -1, 0}) {
  int64_t out[4] = {0, 0, 0, 0};
  check(api()->adv_more(ctx, op, v, t.begin(), g, f, out, loc.file, loc.line));
  return out[0];
}
// A double's bits in an int64_t slot of v.
inline int64_t bits_of(double d) {
  int64_t r;
  std::memcpy(&r, &d, sizeof r);
  return r;
}
// The empty tensor in a slot that a form without a sharedTmpBuffer leaves unused.
inline constexpr pyasc_sim_lt no_tmp{0, 0};
inline void adv_unary(int fn, int dt, pyasc_sim_lt dst, pyasc_sim_lt src, pyasc_sim_lt tmp,
                      bool has_tmp, bool reuse, uint32_t count, int64_t level, Loc loc) {
  // v[4]: no buffer (-1), or whether the API may overwrite a float source (its least buffer
  // depends on it)
  const int64_t v[5] = {fn, dt, count, level, has_tmp ? int64_t{reuse} : -1};
  adv_more(PYASC_SIM_ADV_UNARY, v, {dst, src, tmp}, loc);
}
}  // namespace sim

// The Unified Buffer past the current TPipe's buffers, as a tensor at pos (the adv library's
// stack for its temporary buffers): false, and an error, when none is left.
template <typename T, TPosition pos>
inline bool PopStackBuffer(LocalTensor<T> &popLocal, sim::Loc loc = {}) {
  static_assert(sim::cube_buffer(pos) < 0, "PopStackBuffer: a Unified Buffer position only");
  TPipe *pipe = GetTPipePtr();
  if (!pipe) {
    sim::check(sim::api()->fail(sim::ctx, loc.file, loc.line, "PopStackBuffer: no TPipe"));
    return false;
  }
  int64_t out[2] = {0, 0};
  sim::check(sim::api()->pool_more(sim::ctx, PYASC_SIM_POOL_STACK, pipe->mem, nullptr, nullptr,
                                   nullptr, out, loc.file, loc.line));
  popLocal = LocalTensor<T>(pos, static_cast<uint32_t>(out[0]),
                            static_cast<uint32_t>(out[1] / static_cast<int64_t>(sizeof(T))), loc);
  return true;
}

// --- the element-wise maths: dst[i] = f(src[i]) (half, float; computed in float) --------
#define PYASC_SIM_ADV_MATH(NAME, FN)                                                               \
  template <typename T, bool isReuseSource = false>                                                \
  inline void NAME(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,               \
                   const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount,           \
                   sim::Loc loc = {}) {                                                            \
    sim::adv_unary(FN, sim::dtype<T>::code, dstTensor.lt, srcTensor.lt, sharedTmpBuffer.lt, true,  \
                   isReuseSource, calCount, 0, loc);                                               \
  }                                                                                                \
  template <typename T, bool isReuseSource = false>                                                \
  inline void NAME(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,               \
                   const LocalTensor<uint8_t> &sharedTmpBuffer, sim::Loc loc = {}) {               \
    sim::adv_unary(FN, sim::dtype<T>::code, dstTensor.lt, srcTensor.lt, sharedTmpBuffer.lt, true,  \
                   isReuseSource, srcTensor.GetSize(), 0, loc);                                    \
  }                                                                                                \
  template <typename T, bool isReuseSource = false>                                                \
  inline void NAME(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,               \
                   const uint32_t calCount, sim::Loc loc = {}) {                                   \
    sim::adv_unary(FN, sim::dtype<T>::code, dstTensor.lt, srcTensor.lt, sim::no_tmp, false, false, \
                   calCount, 0, loc);                                                              \
  }                                                                                                \
  template <typename T, bool isReuseSource = false>                                                \
  inline void NAME(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,               \
                   sim::Loc loc = {}) {                                                            \
    sim::adv_unary(FN, sim::dtype<T>::code, dstTensor.lt, srcTensor.lt, sim::no_tmp, false, false, \
                   srcTensor.GetSize(), 0, loc);                                                   \
  }
PYASC_SIM_ADV_MATH(Acos, PYASC_SIM_FN_ACOS)
PYASC_SIM_ADV_MATH(Acosh, PYASC_SIM_FN_ACOSH)
PYASC_SIM_ADV_MATH(Asin, PYASC_SIM_FN_ASIN)
PYASC_SIM_ADV_MATH(Asinh, PYASC_SIM_FN_ASINH)
PYASC_SIM_ADV_MATH(Atan, PYASC_SIM_FN_ATAN)
PYASC_SIM_ADV_MATH(Atanh, PYASC_SIM_FN_ATANH)
PYASC_SIM_ADV_MATH(Ceil, PYASC_SIM_FN_CEIL)
PYASC_SIM_ADV_MATH(Cos, PYASC_SIM_FN_COS)
PYASC_SIM_ADV_MATH(Cosh, PYASC_SIM_FN_COSH)
PYASC_SIM_ADV_MATH(Digamma, PYASC_SIM_FN_DIGAMMA)
PYASC_SIM_ADV_MATH(Erf, PYASC_SIM_FN_ERF)
PYASC_SIM_ADV_MATH(Erfc, PYASC_SIM_FN_ERFC)
PYASC_SIM_ADV_MATH(Floor, PYASC_SIM_FN_FLOOR)
PYASC_SIM_ADV_MATH(Frac, PYASC_SIM_FN_FRAC)
PYASC_SIM_ADV_MATH(Lgamma, PYASC_SIM_FN_LGAMMA)
PYASC_SIM_ADV_MATH(Log, PYASC_SIM_FN_LOG)
PYASC_SIM_ADV_MATH(Round, PYASC_SIM_FN_ROUND)
PYASC_SIM_ADV_MATH(Sign, PYASC_SIM_FN_SIGN)
PYASC_SIM_ADV_MATH(Sin, PYASC_SIM_FN_SIN)
PYASC_SIM_ADV_MATH(Sinh, PYASC_SIM_FN_SINH)
PYASC_SIM_ADV_MATH(Tan, PYASC_SIM_FN_TAN)
PYASC_SIM_ADV_MATH(Tanh, PYASC_SIM_FN_TANH)
PYASC_SIM_ADV_MATH(Trunc, PYASC_SIM_FN_TRUNC)
#undef PYASC_SIM_ADV_MATH

// Exp's adv form: taylorExpandLevel Taylor terms of the fraction (0: the plain exponential).
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
inline void Exp(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal,
                const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount,
                sim::Loc loc = {}) {
  sim::adv_unary(PYASC_SIM_FN_EXP, sim::dtype<T>::code, dstLocal.lt, srcLocal.lt,
                 sharedTmpBuffer.lt, true, isReuseSource, calCount, taylorExpandLevel, loc);
}
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
inline void Exp(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal,
                const uint32_t calCount, sim::Loc loc = {}) {
  sim::adv_unary(PYASC_SIM_FN_EXP, sim::dtype<T>::code, dstLocal.lt, srcLocal.lt, sim::no_tmp,
                 false, false, calCount, taylorExpandLevel, loc);
}

// --- Power (half, float): dst[i] = base ** exponent, either of them a tensor or a scalar ----
// The config picks CANN's algorithm (the intrinsic or a double-float one); both compute
// powf's value here.
enum class PowerAlgo { INTRINSIC = 0, DOUBLE_FLOAT_TECH };
struct PowerConfig {
  PowerAlgo algo = PowerAlgo::INTRINSIC;
};
constexpr PowerConfig defaultPowerConfig = {PowerAlgo::INTRINSIC};
namespace sim {
// scalar: which operand is the scalar s (0 none, 1 the base, 2 the exponent)
template <typename T>
inline void power(const LocalTensor<T> &dst, pyasc_sim_lt base, pyasc_sim_lt exp, int scalar, T s,
                  pyasc_sim_lt tmp, bool has_tmp, uint32_t count, Loc loc) {
  const int64_t v[5] = {0, dtype<T>::code, count, has_tmp ? tmp.len : -1, scalar};
  adv_more(PYASC_SIM_ADV_BINARY, v, {dst.lt, base, exp, tmp}, loc, to_double(s));
}
}  // namespace sim
#define PYASC_SIM_POWER_FORMS(BASE, EXP, BASE_LT, EXP_LT, SCALAR, VALUE, SIZE)                     \
  template <typename T, bool isReuseSource = false,                                                \
            const PowerConfig &config = defaultPowerConfig>                                        \
  inline void Power(const LocalTensor<T> &dstTensor, BASE, EXP,                                    \
                    const LocalTensor<uint8_t> &sharedTmpBuffer, uint32_t calCount,                \
                    sim::Loc loc = {}) {                                                           \
    sim::power<T>(dstTensor, BASE_LT, EXP_LT, SCALAR, VALUE, sharedTmpBuffer.lt, true, calCount,   \
                  loc);                                                                            \
  }                                                                                                \
  template <typename T, bool isReuseSource = false,                                                \
            const PowerConfig &config = defaultPowerConfig>                                        \
  inline void Power(const LocalTensor<T> &dstTensor, BASE, EXP,                                    \
                    const LocalTensor<uint8_t> &sharedTmpBuffer, sim::Loc loc = {}) {              \
    sim::power<T>(dstTensor, BASE_LT, EXP_LT, SCALAR, VALUE, sharedTmpBuffer.lt, true, SIZE, loc); \
  }                                                                                                \
  template <typename T, bool isReuseSource = false,                                                \
            const PowerConfig &config = defaultPowerConfig>                                        \
  inline void Power(const LocalTensor<T> &dstTensor, BASE, EXP, uint32_t calCount,                 \
                    sim::Loc loc = {}) {                                                           \
    sim::power<T>(dstTensor, BASE_LT, EXP_LT, SCALAR, VALUE, sim::no_tmp, false, calCount, loc);   \
  }                                                                                                \
  template <typename T, bool isReuseSource = false,                                                \
            const PowerConfig &config = defaultPowerConfig>                                        \
  inline void Power(const LocalTensor<T> &dstTensor, BASE, EXP, sim::Loc loc = {}) {               \
    sim::power<T>(dstTensor, BASE_LT, EXP_LT, SCALAR, VALUE, sim::no_tmp, false, SIZE, loc);       \
  }
PYASC_SIM_POWER_FORMS(const LocalTensor<T> &src0Tensor, const LocalTensor<T> &src1Tensor,
                      src0Tensor.lt, src1Tensor.lt, 0, T(), src0Tensor.GetSize())
PYASC_SIM_POWER_FORMS(const LocalTensor<T> &src0Tensor, const T &src1Scalar, src0Tensor.lt,
                      sim::no_tmp, 2, src1Scalar, src0Tensor.GetSize())
PYASC_SIM_POWER_FORMS(const T &src0Scalar, const LocalTensor<T> &src1Tensor, sim::no_tmp,
                      src1Tensor.lt, 1, src0Scalar, src1Tensor.GetSize())
#undef PYASC_SIM_POWER_FORMS

// --- Xor (int16, uint16): dst[i] = src0[i] ^ src1[i] ------------------------------------
#define PYASC_SIM_ADV_BINARY(NAME, XOR)                                                            \
  template <typename T, bool isReuseSource = false>                                                \
  inline void NAME(const LocalTensor<T> &dstTensor, const LocalTensor<T> &src0Tensor,              \
                   const LocalTensor<T> &src1Tensor, const LocalTensor<uint8_t> &sharedTmpBuffer,  \
                   const uint32_t calCount, sim::Loc loc = {}) {                                   \
    const int64_t v[4] = {XOR, sim::dtype<T>::code, calCount, sharedTmpBuffer.lt.len};             \
    sim::adv_more(PYASC_SIM_ADV_BINARY, v,                                                         \
                  {dstTensor.lt, src0Tensor.lt, src1Tensor.lt, sharedTmpBuffer.lt}, loc);          \
  }                                                                                                \
  template <typename T, bool isReuseSource = false>                                                \
  inline void NAME(const LocalTensor<T> &dstTensor, const LocalTensor<T> &src0Tensor,              \
                   const LocalTensor<T> &src1Tensor, const LocalTensor<uint8_t> &sharedTmpBuffer,  \
                   sim::Loc loc = {}) {                                                            \
    NAME<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, sharedTmpBuffer,                     \
                           src0Tensor.GetSize(), loc);                                             \
  }                                                                                                \
  template <typename T, bool isReuseSource = false>                                                \
  inline void NAME(const LocalTensor<T> &dstTensor, const LocalTensor<T> &src0Tensor,              \
                   const LocalTensor<T> &src1Tensor, const uint32_t calCount, sim::Loc loc = {}) { \
    const int64_t v[4] = {XOR, sim::dtype<T>::code, calCount, -1};                                 \
    sim::adv_more(PYASC_SIM_ADV_BINARY, v,                                                         \
                  {dstTensor.lt, src0Tensor.lt, src1Tensor.lt, sim::no_tmp}, loc);                 \
  }                                                                                                \
  template <typename T, bool isReuseSource = false>                                                \
  inline void NAME(const LocalTensor<T> &dstTensor, const LocalTensor<T> &src0Tensor,              \
                   const LocalTensor<T> &src1Tensor, sim::Loc loc = {}) {                          \
    NAME<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, src0Tensor.GetSize(), loc);          \
  }
PYASC_SIM_ADV_BINARY(Xor, 1)
#undef PYASC_SIM_ADV_BINARY

// Axpy: dst[i] += src[i] * scalarValue, in float (dst float with a half src allowed).
template <typename T, typename U, bool isReuseSource = false>
inline void Axpy(const LocalTensor<T> &dstTensor, const LocalTensor<U> &srcTensor,
                 const U scalarValue, const LocalTensor<uint8_t> &sharedTmpBuffer,
                 const uint32_t calCount, sim::Loc loc = {}) {
  const int64_t v[4] = {sim::dtype<T>::code, sim::dtype<U>::code, calCount, sharedTmpBuffer.lt.len};
  sim::adv_more(PYASC_SIM_ADV_AXPY, v, {dstTensor.lt, srcTensor.lt, sharedTmpBuffer.lt}, loc,
                sim::to_double(scalarValue));
}

// --- Ascend C's activation, clamp, fmod and index APIs (PyAsc has none of them) -----------
// dst[i] = f(src[i]) or f(src0[i], src1[i]), computed in float: Gelu (its tanh form),
// Sigmoid, Silu, Swish, ClampMin, ClampMax, GeGLU (src0 * gelu(src1)), Fmod, SwiGLU and Arange
// (firstValue + i * diffValue). A sharedTmpBuffer is taken and counted as written; the
// simulator checks no least size for these (the host queries give CANN's).
constexpr uint32_t FMOD_ITERATION_NUM_MAX = 11;
enum class FmodAlgo { NORMAL = 0, ITERATION_COMPENSATION = 1 };
struct FmodConfig {
  FmodAlgo algo = FmodAlgo::NORMAL;
  uint32_t iterationNum = FMOD_ITERATION_NUM_MAX;
};
constexpr FmodConfig DEFAULT_FMOD_CONFIG = {FmodAlgo::NORMAL, FMOD_ITERATION_NUM_MAX};
namespace sim {
template <typename T>
inline void elementwise(int fn, const LocalTensor<T> &dst, pyasc_sim_lt a, pyasc_sim_lt b,
                        double c0, double c1, pyasc_sim_lt tmp, bool has_tmp, int64_t count,
                        Loc loc) {
  const int64_t v[5] = {fn, dtype<T>::code, count, has_tmp ? tmp.len : -1, bits_of(c1)};
  adv_more(PYASC_SIM_ADV_ELEMENTWISE, v, {dst.lt, a, b, tmp}, loc, c0);
}
}  // namespace sim
template <typename T, bool highPrecision = false, bool highPerformance = false>
inline void Gelu(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal,
                 const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t dataSize,
                 sim::Loc loc = {}) {
  sim::elementwise<T>(PYASC_SIM_EW_GELU, dstLocal, srcLocal.lt, sim::no_tmp, 0, 0,
                      sharedTmpBuffer.lt, true, dataSize, loc);
}
template <typename T, bool highPrecision = false, bool highPerformance = false>
inline void Gelu(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal,
                 const uint32_t dataSize, sim::Loc loc = {}) {
  sim::elementwise<T>(PYASC_SIM_EW_GELU, dstLocal, srcLocal.lt, sim::no_tmp, 0, 0, sim::no_tmp,
                      false, dataSize, loc);
}
template <typename T, bool isReuseSource = false>
inline void Sigmoid(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                    const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount,
                    sim::Loc loc = {}) {
  sim::elementwise<T>(PYASC_SIM_EW_SIGMOID, dstTensor, srcTensor.lt, sim::no_tmp, 0, 0,
                      sharedTmpBuffer.lt, true, calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void Sigmoid(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                    const LocalTensor<uint8_t> &sharedTmpBuffer, sim::Loc loc = {}) {
  Sigmoid<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
inline void Sigmoid(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                    const uint32_t calCount, sim::Loc loc = {}) {
  sim::elementwise<T>(PYASC_SIM_EW_SIGMOID, dstTensor, srcTensor.lt, sim::no_tmp, 0, 0, sim::no_tmp,
                      false, calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void Sigmoid(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                    sim::Loc loc = {}) {
  Sigmoid<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
inline void Silu(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal, uint32_t dataSize,
                 sim::Loc loc = {}) {
  sim::elementwise<T>(PYASC_SIM_EW_SILU, dstLocal, srcLocal.lt, sim::no_tmp, 0, 0, sim::no_tmp,
                      false, dataSize, loc);
}
template <typename T, bool isReuseSource = false>
inline void Swish(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal, uint32_t dataSize,
                  const T scalarValue, sim::Loc loc = {}) {
  sim::elementwise<T>(PYASC_SIM_EW_SWISH, dstLocal, srcLocal.lt, sim::no_tmp,
                      sim::to_double(scalarValue), 0, sim::no_tmp, false, dataSize, loc);
}
#define PYASC_SIM_CLAMP(NAME, FN)                                                            \
  template <typename T, bool isReuseSource = false>                                          \
  inline void NAME(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,         \
                   const LocalTensor<uint8_t> &sharedTmpBuffer, const T scalar,              \
                   const uint32_t calCount, sim::Loc loc = {}) {                             \
    sim::elementwise<T>(FN, dstTensor, srcTensor.lt, sim::no_tmp, sim::to_double(scalar), 0, \
                        sharedTmpBuffer.lt, true, calCount, loc);                            \
  }                                                                                          \
  template <typename T, bool isReuseSource = false>                                          \
  inline void NAME(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,         \
                   const T scalar, const uint32_t calCount, sim::Loc loc = {}) {             \
    sim::elementwise<T>(FN, dstTensor, srcTensor.lt, sim::no_tmp, sim::to_double(scalar), 0, \
                        sim::no_tmp, false, calCount, loc);                                  \
  }
PYASC_SIM_CLAMP(ClampMin, PYASC_SIM_EW_CLAMP_MIN)
PYASC_SIM_CLAMP(ClampMax, PYASC_SIM_EW_CLAMP_MAX)
#undef PYASC_SIM_CLAMP
// GeGLU and Fmod: two sources, each with the four forms of a sharedTmpBuffer and a count.
#define PYASC_SIM_EW_BINARY(NAME, FN, ...)                                                         \
  template <__VA_ARGS__>                                                                           \
  inline void NAME(const LocalTensor<T> &dstTensor, const LocalTensor<T> &src0Tensor,              \
                   const LocalTensor<T> &src1Tensor, const LocalTensor<uint8_t> &sharedTmpBuffer,  \
                   const uint32_t calCount, sim::Loc loc = {}) {                                   \
    sim::elementwise<T>(FN, dstTensor, src0Tensor.lt, src1Tensor.lt, 0, 0, sharedTmpBuffer.lt,     \
                        true, calCount, loc);                                                      \
  }                                                                                                \
  template <__VA_ARGS__>                                                                           \
  inline void NAME(const LocalTensor<T> &dstTensor, const LocalTensor<T> &src0Tensor,              \
                   const LocalTensor<T> &src1Tensor, const LocalTensor<uint8_t> &sharedTmpBuffer,  \
                   sim::Loc loc = {}) {                                                            \
    sim::elementwise<T>(FN, dstTensor, src0Tensor.lt, src1Tensor.lt, 0, 0, sharedTmpBuffer.lt,     \
                        true, src0Tensor.GetSize(), loc);                                          \
  }                                                                                                \
  template <__VA_ARGS__>                                                                           \
  inline void NAME(const LocalTensor<T> &dstTensor, const LocalTensor<T> &src0Tensor,              \
                   const LocalTensor<T> &src1Tensor, const uint32_t calCount, sim::Loc loc = {}) { \
    sim::elementwise<T>(FN, dstTensor, src0Tensor.lt, src1Tensor.lt, 0, 0, sim::no_tmp, false,     \
                        calCount, loc);                                                            \
  }                                                                                                \
  template <__VA_ARGS__>                                                                           \
  inline void NAME(const LocalTensor<T> &dstTensor, const LocalTensor<T> &src0Tensor,              \
                   const LocalTensor<T> &src1Tensor, sim::Loc loc = {}) {                          \
    sim::elementwise<T>(FN, dstTensor, src0Tensor.lt, src1Tensor.lt, 0, 0, sim::no_tmp, false,     \
                        src0Tensor.GetSize(), loc);                                                \
  }
PYASC_SIM_EW_BINARY(GeGLU, PYASC_SIM_EW_GEGLU, typename T, bool isReuseSource = false)
PYASC_SIM_EW_BINARY(Fmod, PYASC_SIM_EW_FMOD, typename T, bool isReuseSource = false,
                    const FmodConfig &config = DEFAULT_FMOD_CONFIG)
#undef PYASC_SIM_EW_BINARY
// SwiGLU: dst = src0 * swish(src1, scalarValue). Its tensors are passed as CANN's are.
template <typename T, bool isReuseSource = false>
inline void SwiGLU(LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor0,
                   const LocalTensor<T> &srcTensor1, const float &scalarValue,
                   const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount,
                   sim::Loc loc = {}) {
  sim::elementwise<T>(PYASC_SIM_EW_SWIGLU, dstTensor, srcTensor0.lt, srcTensor1.lt, scalarValue, 0,
                      sharedTmpBuffer.lt, true, calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void SwiGLU(LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor0,
                   const LocalTensor<T> &srcTensor1, const float &scalarValue,
                   const LocalTensor<uint8_t> &sharedTmpBuffer, sim::Loc loc = {}) {
  sim::elementwise<T>(PYASC_SIM_EW_SWIGLU, dstTensor, srcTensor0.lt, srcTensor1.lt, scalarValue, 0,
                      sharedTmpBuffer.lt, true, srcTensor0.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
inline void SwiGLU(LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor0,
                   const LocalTensor<T> &srcTensor1, const float &scalarValue,
                   const uint32_t calCount, sim::Loc loc = {}) {
  sim::elementwise<T>(PYASC_SIM_EW_SWIGLU, dstTensor, srcTensor0.lt, srcTensor1.lt, scalarValue, 0,
                      sim::no_tmp, false, calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void SwiGLU(LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor0,
                   const LocalTensor<T> &srcTensor1, const float &scalarValue, sim::Loc loc = {}) {
  sim::elementwise<T>(PYASC_SIM_EW_SWIGLU, dstTensor, srcTensor0.lt, srcTensor1.lt, scalarValue, 0,
                      sim::no_tmp, false, srcTensor0.GetSize(), loc);
}
template <typename T>
inline void Arange(const LocalTensor<T> &dst, const T firstValue, const T diffValue,
                   const int32_t count, sim::Loc loc = {}) {
  sim::elementwise<T>(PYASC_SIM_EW_ARANGE, dst, sim::no_tmp, sim::no_tmp,
                      sim::to_double(firstValue), sim::to_double(diffValue), sim::no_tmp, false,
                      count, loc);
}

// --- SoftMax over the last axis: sum and max get one 32-byte block per row -------------
// The rows and row length are the SoftMaxShapeInfo's when it gives them, else src's shape when
// SetShapeInfo gave it one (CANN: the tiling is recomputed when they differ from its srcM,
// srcK), else the tiling's. The reduction runs over all srcK elements: CANN's kernels read
// oriSrcK only from a constant SoftmaxConfig.
struct SoftMaxShapeInfo {
  uint32_t srcM;
  uint32_t srcK;
  uint32_t oriSrcM;
  uint32_t oriSrcK;
};
enum class SoftmaxMode {
  SOFTMAX_NORMAL = 0,
  SOFTMAX_OUTPUT_WITHOUT_BRC = 1,
};
struct SoftmaxConfig {
  bool isCheckTiling = true;
  uint32_t oriSrcM = 0;
  uint32_t oriSrcK = 0;
  SoftmaxMode mode = SoftmaxMode::SOFTMAX_NORMAL;
};
inline constexpr SoftmaxConfig SOFTMAX_DEFAULT_CFG = {true, 0, 0, SoftmaxMode::SOFTMAX_NORMAL};
namespace sim {
// The rows and row length of a SoftMax family call (see above).
template <typename T>
inline void softmax_shape(const LocalTensor<T> &src, const SoftMaxTiling &tiling,
                          const SoftMaxShapeInfo &info, int64_t &rows, int64_t &cols) {
  rows = tiling.srcM, cols = tiling.srcK;
  if (info.srcM != 0 && info.srcK != 0) {
    rows = info.srcM, cols = info.srcK;
    return;
  }
  const ShapeInfo shape = src.GetShapeInfo();
  const int dims = shape.shapeDim < K_MAX_SHAPE_DIM ? shape.shapeDim : K_MAX_SHAPE_DIM;
  if (dims > 0) {
    rows = 1, cols = shape.shape[dims - 1];
    for (int i = 0; i + 1 < dims; ++i) rows *= shape.shape[i];
  }
}
template <typename T, typename S>
inline void softmax(const LocalTensor<T> &dst, const LocalTensor<S> &sum, const LocalTensor<S> &max,
                    const LocalTensor<T> &src, pyasc_sim_lt tmp, bool has_tmp,
                    const SoftMaxTiling &tiling, const SoftMaxShapeInfo &info, Loc loc,
                    bool log10_of = false) {
  int64_t rows = 0, cols = 0;
  softmax_shape(src, tiling, info, rows, cols);
  const int64_t v[6] = {dtype<T>::code, dtype<S>::code,         rows,
                        cols,           has_tmp ? tmp.len : -1, log10_of};
  adv_more(PYASC_SIM_ADV_SOFTMAX, v, {dst.lt, sum.lt, max.lt, src.lt, tmp}, loc);
}
}  // namespace sim
#define PYASC_SOFTMAX_TEMPLATE                                                 \
  template <typename T, bool isReuseSource = false, bool isBasicBlock = false, \
            bool isDataFormatNZ = false, const SoftmaxConfig &config = SOFTMAX_DEFAULT_CFG>
PYASC_SOFTMAX_TEMPLATE
inline void SoftMax(const LocalTensor<T> &dstTensor, const LocalTensor<T> &sumTensor,
                    const LocalTensor<T> &maxTensor, const LocalTensor<T> &srcTensor,
                    const SoftMaxTiling &tiling, const SoftMaxShapeInfo &softmaxShapeInfo = {},
                    sim::Loc loc = {}) {
  sim::softmax(dstTensor, sumTensor, maxTensor, srcTensor, sim::no_tmp, false, tiling,
               softmaxShapeInfo, loc);
}
PYASC_SOFTMAX_TEMPLATE
inline void SoftMax(const LocalTensor<half> &dstTensor, const LocalTensor<float> &sumTensor,
                    const LocalTensor<float> &maxTensor, const LocalTensor<half> &srcTensor,
                    const SoftMaxTiling &tiling, const SoftMaxShapeInfo &softmaxShapeInfo = {},
                    sim::Loc loc = {}) {
  sim::softmax(dstTensor, sumTensor, maxTensor, srcTensor, sim::no_tmp, false, tiling,
               softmaxShapeInfo, loc);
}
PYASC_SOFTMAX_TEMPLATE
inline void SoftMax(const LocalTensor<T> &dstTensor, const LocalTensor<T> &sumTensor,
                    const LocalTensor<T> &maxTensor, const LocalTensor<T> &srcTensor,
                    const LocalTensor<uint8_t> &sharedTmpBuffer, const SoftMaxTiling &tiling,
                    const SoftMaxShapeInfo &softmaxShapeInfo = {}, sim::Loc loc = {}) {
  sim::softmax(dstTensor, sumTensor, maxTensor, srcTensor, sharedTmpBuffer.lt, true, tiling,
               softmaxShapeInfo, loc);
}
PYASC_SOFTMAX_TEMPLATE
inline void SoftMax(const LocalTensor<half> &dstTensor, const LocalTensor<float> &sumTensor,
                    const LocalTensor<float> &maxTensor, const LocalTensor<half> &srcTensor,
                    const LocalTensor<uint8_t> &sharedTmpBuffer, const SoftMaxTiling &tiling,
                    const SoftMaxShapeInfo &softmaxShapeInfo = {}, sim::Loc loc = {}) {
  sim::softmax(dstTensor, sumTensor, maxTensor, srcTensor, sharedTmpBuffer.lt, true, tiling,
               softmaxShapeInfo, loc);
}
#undef PYASC_SOFTMAX_TEMPLATE

// LogSoftMax: SoftMax's sum and max, dst the base-10 logarithm of the softmax (CANN's formula).
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
inline void LogSoftMax(const LocalTensor<T> &dst, const LocalTensor<T> &sum,
                       const LocalTensor<T> &max, const LocalTensor<T> &src,
                       const LocalTensor<uint8_t> &sharedTmpBuffer, const LogSoftMaxTiling &tiling,
                       const SoftMaxShapeInfo &softmaxShapeInfo = {}, sim::Loc loc = {}) {
  static_assert(!isDataFormatNZ, "LogSoftMax: the NZ format is not simulated; pass ND rows");
  sim::softmax(dst, sum, max, src, sharedTmpBuffer.lt, true, tiling, softmaxShapeInfo, loc, true);
}

// --- SoftmaxFlashV2: FlashAttention-2's online softmax over a row's blocks ---------------------
namespace sim {
template <typename T, typename S>
inline void softmax_flash2(const LocalTensor<T> &dst, const LocalTensor<S> &sum,
                           const LocalTensor<S> &max, const LocalTensor<T> &src,
                           const LocalTensor<T> &expMax, const LocalTensor<S> &inSum,
                           const LocalTensor<S> &inMax, pyasc_sim_lt tmp, bool has_tmp,
                           bool isUpdate, const SoftMaxTiling &tiling, const SoftMaxShapeInfo &info,
                           Loc loc) {
  int64_t rows = 0, cols = 0;
  softmax_shape(src, tiling, info, rows, cols);
  const int64_t v[6] = {dtype<T>::code, dtype<S>::code, rows,
                        cols,           isUpdate,       has_tmp ? tmp.len : -1};
  adv_more(PYASC_SIM_ADV_SOFTMAX_FLASH2, v,
           {dst.lt, sum.lt, max.lt, src.lt, expMax.lt, inSum.lt, inMax.lt, tmp}, loc);
}
}  // namespace sim
// CANN's forms: data and statistics of one type, or half data with float statistics; each with
// or without a sharedTmpBuffer.
#define PYASC_FLASH2_FORMS(D, S)                                                                  \
  template <typename T, bool isUpdate = false, bool isReuseSource = false,                        \
            bool isBasicBlock = false, bool isDataFormatNZ = false,                               \
            const SoftmaxConfig &config = SOFTMAX_DEFAULT_CFG>                                    \
  inline void SoftmaxFlashV2(const LocalTensor<D> &dstTensor, const LocalTensor<S> &expSumTensor, \
                             const LocalTensor<S> &maxTensor, const LocalTensor<D> &srcTensor,    \
                             const LocalTensor<D> &expMaxTensor,                                  \
                             const LocalTensor<S> &inExpSumTensor,                                \
                             const LocalTensor<S> &inMaxTensor, const SoftMaxTiling &tiling,      \
                             const SoftMaxShapeInfo &softmaxShapeInfo = {}, sim::Loc loc = {}) {  \
    sim::softmax_flash2(dstTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor,              \
                        inExpSumTensor, inMaxTensor, sim::no_tmp, false, isUpdate, tiling,        \
                        softmaxShapeInfo, loc);                                                   \
  }                                                                                               \
  template <typename T, bool isUpdate = false, bool isReuseSource = false,                        \
            bool isBasicBlock = false, bool isDataFormatNZ = false,                               \
            const SoftmaxConfig &config = SOFTMAX_DEFAULT_CFG>                                    \
  inline void SoftmaxFlashV2(                                                                     \
      const LocalTensor<D> &dstTensor, const LocalTensor<S> &expSumTensor,                        \
      const LocalTensor<S> &maxTensor, const LocalTensor<D> &srcTensor,                           \
      const LocalTensor<D> &expMaxTensor, const LocalTensor<S> &inExpSumTensor,                   \
      const LocalTensor<S> &inMaxTensor, const LocalTensor<uint8_t> &sharedTmpBuffer,             \
      const SoftMaxTiling &tiling, const SoftMaxShapeInfo &softmaxShapeInfo = {},                 \
      sim::Loc loc = {}) {                                                                        \
    sim::softmax_flash2(dstTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor,              \
                        inExpSumTensor, inMaxTensor, sharedTmpBuffer.lt, true, isUpdate, tiling,  \
                        softmaxShapeInfo, loc);                                                   \
  }
PYASC_FLASH2_FORMS(T, T)
PYASC_FLASH2_FORMS(half, float)
#undef PYASC_FLASH2_FORMS

// --- SoftmaxGrad, SoftmaxGradFront: (grad - rowsum(grad * src)) * src, or the row sums alone --
namespace sim {
template <typename T>
inline void softmax_grad(const LocalTensor<T> &dst, const LocalTensor<T> &grad,
                         const LocalTensor<T> &src, pyasc_sim_lt tmp, bool has_tmp,
                         const SoftMaxTiling &tiling, bool isFront, const SoftMaxShapeInfo &info,
                         Loc loc) {
  int64_t rows = 0, cols = 0;
  softmax_shape(src, tiling, info, rows, cols);
  const int64_t v[5] = {dtype<T>::code, rows, cols, isFront, has_tmp ? tmp.len : -1};
  adv_more(PYASC_SIM_ADV_SOFTMAX_GRAD, v, {dst.lt, grad.lt, src.lt, tmp}, loc);
}
}  // namespace sim
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
inline void SoftmaxGrad(const LocalTensor<T> &dstTensor, const LocalTensor<T> &gradTensor,
                        const LocalTensor<T> &srcTensor, const SoftMaxTiling &tiling,
                        bool isFront = false, const SoftMaxShapeInfo &softmaxShapeInfo = {},
                        sim::Loc loc = {}) {
  sim::softmax_grad(dstTensor, gradTensor, srcTensor, sim::no_tmp, false, tiling, isFront,
                    softmaxShapeInfo, loc);
}
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
inline void SoftmaxGrad(const LocalTensor<T> &dstTensor, const LocalTensor<T> &gradTensor,
                        const LocalTensor<T> &srcTensor,
                        const LocalTensor<uint8_t> &sharedTmpBuffer, const SoftMaxTiling &tiling,
                        bool isFront = false, const SoftMaxShapeInfo &softmaxShapeInfo = {},
                        sim::Loc loc = {}) {
  sim::softmax_grad(dstTensor, gradTensor, srcTensor, sharedTmpBuffer.lt, true, tiling, isFront,
                    softmaxShapeInfo, loc);
}
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
inline void SoftmaxGradFront(const LocalTensor<T> &dstTensor, const LocalTensor<T> &gradTensor,
                             const LocalTensor<T> &srcTensor, const SoftMaxTiling &tiling,
                             const SoftMaxShapeInfo &softmaxShapeInfo = {}, sim::Loc loc = {}) {
  sim::softmax_grad(dstTensor, gradTensor, srcTensor, sim::no_tmp, false, tiling, true,
                    softmaxShapeInfo, loc);
}
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
inline void SoftmaxGradFront(const LocalTensor<T> &dstTensor, const LocalTensor<T> &gradTensor,
                             const LocalTensor<T> &srcTensor,
                             const LocalTensor<uint8_t> &sharedTmpBuffer,
                             const SoftMaxTiling &tiling,
                             const SoftMaxShapeInfo &softmaxShapeInfo = {}, sim::Loc loc = {}) {
  sim::softmax_grad(dstTensor, gradTensor, srcTensor, sharedTmpBuffer.lt, true, tiling, true,
                    softmaxShapeInfo, loc);
}

// AdjustSoftMaxRes: the rows of softMaxRes whose max has the bits `from` become `to`; true when
// any did. stepSizeMode 0 reads a row's max from its 32-byte block, others one element a row.
template <typename T1, typename T2, bool isDataFormatNZ = false, uint8_t stepSizeMode = 0>
inline bool AdjustSoftMaxRes(const LocalTensor<T1> &softMaxRes, const LocalTensor<T2> &maxTensor,
                             const uint32_t from, const T1 to,
                             const SoftMaxShapeInfo &softmaxShapeInfo, sim::Loc loc = {}) {
  static_assert(!isDataFormatNZ, "AdjustSoftMaxRes: the NZ format is not simulated; pass ND rows");
  const int64_t v[6] = {sim::dtype<T1>::code,  sim::dtype<T2>::code,  static_cast<int64_t>(from),
                        softmaxShapeInfo.srcM, softmaxShapeInfo.srcK, stepSizeMode != 0};
  return sim::adv_more(PYASC_SIM_ADV_SOFTMAX_ADJUST, v, {softMaxRes.lt, maxTensor.lt}, loc,
                       sim::to_double(to)) != 0;
}

// --- RmsNorm over the last axis (hLength) of bLength * sLength rows ---------------------
namespace sim {
template <typename T>
inline void rmsnorm(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                    const LocalTensor<T> &gamma, pyasc_sim_lt tmp, bool has_tmp, T epsilon,
                    const RmsNormTiling &tiling, Loc loc) {
  const int64_t rows = static_cast<int64_t>(tiling.bLength) * tiling.sLength;
  const int64_t v[5] = {dtype<T>::code, rows, tiling.hLength, has_tmp ? tmp.len : -1,
                        bits_of(static_cast<double>(tiling.reciprocalOfHLength))};
  adv_more(PYASC_SIM_ADV_RMSNORM, v, {dst.lt, src.lt, gamma.lt, tmp}, loc, to_double(epsilon));
}
}  // namespace sim
template <typename T, bool isBasicBlock = false>
inline void RmsNorm(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal,
                    const LocalTensor<T> &gammaLocal, const LocalTensor<uint8_t> &sharedTmpBuffer,
                    const T epsilon, const RmsNormTiling &tiling, sim::Loc loc = {}) {
  sim::rmsnorm(dstLocal, srcLocal, gammaLocal, sharedTmpBuffer.lt, true, epsilon, tiling, loc);
}
template <typename T, bool isBasicBlock = false>
inline void RmsNorm(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal,
                    const LocalTensor<T> &gammaLocal, const T epsilon, const RmsNormTiling &tiling,
                    sim::Loc loc = {}) {
  sim::rmsnorm(dstLocal, srcLocal, gammaLocal, sim::no_tmp, false, epsilon, tiling, loc);
}

// --- AscendQuant per tensor: int8 = saturate(rint(src * scale + offset)) ----------------
// Its compile-time config (the 910B's four counts): CANN's per-tensor form on this core only
// checks them in its CPU debug build and computes the same, so here they change nothing.
struct AscendQuantConfig {
  constexpr AscendQuantConfig(const uint32_t calcCount, const uint32_t offsetCount,
                              const uint32_t scaleCount, const uint32_t workLocalSize)
      : calcCount(calcCount),
        offsetCount(offsetCount),
        scaleCount(scaleCount),
        workLocalSize(workLocalSize) {}
  uint32_t calcCount = 0;
  uint32_t offsetCount = 0;
  uint32_t scaleCount = 0;
  uint32_t workLocalSize = 0;
};
constexpr AscendQuantConfig ASCEND_QUANT_DEFAULT_CFG = {0, 0, 0, 0};
template <typename T, bool isReuseSource = false,
          const AscendQuantConfig &config = ASCEND_QUANT_DEFAULT_CFG>
inline void AscendQuant(const LocalTensor<int8_t> &dstTensor, const LocalTensor<T> &srcTensor,
                        const LocalTensor<uint8_t> &sharedTmpBuffer, const float scale,
                        const float offset, const uint32_t calCount, sim::Loc loc = {}) {
  const int64_t v[4] = {sim::dtype<T>::code, calCount, sharedTmpBuffer.lt.len,
                        sim::bits_of(offset)};
  sim::adv_more(PYASC_SIM_ADV_QUANT, v, {dstTensor.lt, srcTensor.lt, sharedTmpBuffer.lt}, loc,
                scale);
}
template <typename T, bool isReuseSource = false,
          const AscendQuantConfig &config = ASCEND_QUANT_DEFAULT_CFG>
inline void AscendQuant(const LocalTensor<int8_t> &dstTensor, const LocalTensor<T> &srcTensor,
                        const float scale, const float offset, const uint32_t calCount,
                        sim::Loc loc = {}) {
  const int64_t v[4] = {sim::dtype<T>::code, calCount, -1, sim::bits_of(offset)};
  sim::adv_more(PYASC_SIM_ADV_QUANT, v, {dstTensor.lt, srcTensor.lt, sim::no_tmp}, loc, scale);
}

// --- AscendDequant: int32 by a per-column scale into half, bfloat16 or float --------------------
enum class DeQuantMode : uint8_t { DEQUANT_WITH_SINGLE_ROW = 0, DEQUANT_WITH_MULTI_ROW };
struct DequantParams {
  uint32_t m;         // rows
  uint32_t n;         // a row's length, 32-byte aligned
  uint32_t calCount;  // the elements of each row scaled (by deqScale's first calCount)
};
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
inline void AscendDequant(const LocalTensor<dstT> &dstTensor, const LocalTensor<int32_t> &srcTensor,
                          const LocalTensor<scaleT> &deqScale, DequantParams params,
                          sim::Loc loc = {}) {
  const int64_t v[6] = {sim::dtype<dstT>::code,
                        sim::dtype<scaleT>::code,
                        params.m,
                        params.n,
                        params.calCount,
                        mode == DeQuantMode::DEQUANT_WITH_SINGLE_ROW};
  sim::adv_more(PYASC_SIM_ADV_DEQUANT, v, {dstTensor.lt, srcTensor.lt, deqScale.lt}, loc);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
inline void AscendDequant(const LocalTensor<dstT> &dstTensor, const LocalTensor<int32_t> &srcTensor,
                          const LocalTensor<scaleT> &deqScale,
                          const LocalTensor<uint8_t> &sharedTmpBuffer, DequantParams params,
                          sim::Loc loc = {}) {
  (void)sharedTmpBuffer;  // the NPU's float copies; the simulator computes in place
  AscendDequant<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, params, loc);
}

// --- Select with a mask of bytes: where the mask is not zero, src1; where it is zero, src0 ---
struct SelectWithBytesMaskShapeInfo {
  uint32_t firstAxis = 0;
  uint32_t srcLastAxis = 0;
  uint32_t maskLastAxis = 0;
};
namespace sim {
template <typename T, typename U>
inline void select(const LocalTensor<T> &dst, const LocalTensor<T> &tensor, T scalar,
                   bool scalarFirst, const LocalTensor<U> &mask,
                   const SelectWithBytesMaskShapeInfo &info, Loc loc) {
  const int64_t v[6] = {dtype<T>::code, dtype<U>::code,   scalarFirst,
                        info.firstAxis, info.srcLastAxis, info.maskLastAxis};
  adv_more(PYASC_SIM_ADV_SELECT, v, {dst.lt, tensor.lt, mask.lt}, loc, to_double(scalar));
}
}  // namespace sim
// The buffer holds the NPU's widened mask; the simulator reads the mask in place.
template <typename T, typename U, bool isReuseMask = true>
inline void Select(const LocalTensor<T> &dst, const LocalTensor<T> &src0, T src1,
                   const LocalTensor<U> &mask, const LocalTensor<uint8_t> &sharedTmpBuffer,
                   const SelectWithBytesMaskShapeInfo &info, sim::Loc loc = {}) {
  (void)sharedTmpBuffer;
  sim::select(dst, src0, src1, false, mask, info, loc);
}
template <typename T, typename U, bool isReuseMask = true>
inline void Select(const LocalTensor<T> &dst, T src0, const LocalTensor<T> &src1,
                   const LocalTensor<U> &mask, const LocalTensor<uint8_t> &sharedTmpBuffer,
                   const SelectWithBytesMaskShapeInfo &info, sim::Loc loc = {}) {
  (void)sharedTmpBuffer;
  sim::select(dst, src1, src0, true, mask, info, loc);
}

// --- Concat / Extract: the sort library's input and output (Atlas A2) -------------------
template <typename T>
inline void Concat(LocalTensor<T> &concatLocal, const LocalTensor<T> &srcLocal,
                   const LocalTensor<T> &tmpLocal, const int32_t repeatTime, sim::Loc loc = {}) {
  const int64_t v[2] = {sim::dtype<T>::code, repeatTime};
  sim::adv_more(PYASC_SIM_ADV_CONCAT, v, {concatLocal.lt, srcLocal.lt, tmpLocal.lt}, loc);
}
template <typename T>
inline void Extract(const LocalTensor<T> &dstValueLocal, const LocalTensor<uint32_t> &dstIndexLocal,
                    const LocalTensor<T> &sortedLocal, const int32_t repeatTime,
                    sim::Loc loc = {}) {
  const int64_t v[2] = {sim::dtype<T>::code, repeatTime};
  sim::adv_more(PYASC_SIM_ADV_EXTRACT, v, {dstValueLocal.lt, dstIndexLocal.lt, sortedLocal.lt},
                loc);
}

// --- DropOut: a byte or a bit of mask per element keeps it (times 1/keepProb) or zeroes it ------
struct DropOutShapeInfo {
  DropOutShapeInfo() {}
  uint32_t firstAxis = 0;
  uint32_t srcLastAxis = 0;
  uint32_t maskLastAxis = 0;
};
namespace sim {
// dropOutMode 0 infers the mode from the shape as CANN does: a mask row longer than the source
// row or as long is bytes, one an eighth as long (or any other) bits; 1, 2 bytes, 3, 4 bits.
template <typename T, uint32_t dropOutMode>
inline void dropout(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                    const LocalTensor<uint8_t> &mask, pyasc_sim_lt tmp, bool has_tmp,
                    float keepProb, const DropOutShapeInfo &info, Loc loc) {
  static_assert(dropOutMode <= 4, "DropOut: dropOutMode is 0 to 4");
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "DropOut: half or float");
  const bool bits = dropOutMode == 0 ? info.srcLastAxis > info.maskLastAxis : dropOutMode >= 3;
  const int64_t v[6] = {dtype<T>::code,    info.firstAxis, info.srcLastAxis,
                        info.maskLastAxis, bits,           has_tmp ? tmp.len : -1};
  adv_more(PYASC_SIM_ADV_DROPOUT, v, {dst.lt, src.lt, mask.lt, tmp}, loc, keepProb);
}
}  // namespace sim
template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
inline void DropOut(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal,
                    const LocalTensor<uint8_t> &maskLocal, const float keepProb,
                    const DropOutShapeInfo &info, sim::Loc loc = {}) {
  sim::dropout<T, dropOutMode>(dstLocal, srcLocal, maskLocal, sim::no_tmp, false, keepProb, info,
                               loc);
}
template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
inline void DropOut(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal,
                    const LocalTensor<uint8_t> &maskLocal,
                    const LocalTensor<uint8_t> &sharedTmpBuffer, const float keepProb,
                    const DropOutShapeInfo &info, sim::Loc loc = {}) {
  sim::dropout<T, dropOutMode>(dstLocal, srcLocal, maskLocal, sharedTmpBuffer.lt, true, keepProb,
                               info, loc);
}

// --- AscendAntiQuant (dav-2201): dst = scale * (src + offset), per channel or per tensor ---------
struct AntiQuantShapeInfo {
  uint32_t offsetHeight{0};
  uint32_t offsetWidth{0};
  uint32_t scaleHeight{0};
  uint32_t scaleWidth{0};
};
namespace sim {
// A per-channel tensor's [height, width]: the shape info's, else its ShapeInfo's (2 axes), else
// one row of its elements.
template <typename T>
inline void antiquant_param_shape(const LocalTensor<T> &t, uint32_t h, uint32_t w, int64_t &height,
                                  int64_t &width) {
  if (h && w) {
    height = h, width = w;
    return;
  }
  const ShapeInfo shape = t.GetShapeInfo();
  if (shape.shapeDim == 2) {
    height = shape.shape[0], width = shape.shape[1];
    return;
  }
  height = 1, width = t.GetSize();
}
template <typename In, typename Out>
inline void antiquant(const LocalTensor<Out> &dst, const LocalTensor<In> &src, pyasc_sim_lt offset,
                      const LocalTensor<Out> *scale, double offsetValue, double scaleValue,
                      bool isTranspose, uint32_t k, int64_t height, int64_t width, Loc loc) {
  static_assert(std::is_same_v<In, int8_t>, "AscendAntiQuant: int8_t source on dav-2201");
  static_assert(std::is_same_v<Out, half> || std::is_same_v<Out, bfloat16_t>,
                "AscendAntiQuant: half or bfloat16_t output");
  // per channel: the source is [k, width] (transposed: [height, k]); per tensor: k rows
  const int64_t total = src.GetSize();
  const int64_t rows = scale ? (isTranspose ? height : k) : k;
  const int64_t cols = scale ? (isTranspose ? k : width) : (k ? total / k : 0);
  const int64_t groups = isTranspose ? width : height;
  const int64_t v[8] = {dtype<In>::code, dtype<Out>::code, scale == nullptr,    rows, cols,
                        groups,          isTranspose,      bits_of(offsetValue)};
  adv_more(PYASC_SIM_ADV_ANTIQUANT, v,
           {dst.lt, src.lt, offset, scale ? scale->lt : pyasc_sim_lt{0, 0}}, loc, scaleValue);
}
}  // namespace sim
namespace sim {
// Per channel: the offset (or, without one, the scale) gives the parameters' shape.
template <typename In, typename Out>
inline void antiquant_channel(const LocalTensor<Out> &dst, const LocalTensor<In> &src,
                              pyasc_sim_lt offset, const LocalTensor<Out> &shaped,
                              const LocalTensor<Out> &scale, uint32_t h, uint32_t w,
                              bool isTranspose, uint32_t k, Loc loc) {
  int64_t height = 0, width = 0;
  antiquant_param_shape(shaped, h, w, height, width);
  antiquant<In, Out>(dst, src, offset, &scale, 0, 0, isTranspose, k, height, width, loc);
}
}  // namespace sim
template <typename InputDataType, typename OutputDataType, bool isTranspose>
inline void AscendAntiQuant(const LocalTensor<OutputDataType> &dst,
                            const LocalTensor<InputDataType> &src,
                            const LocalTensor<OutputDataType> &offset,
                            const LocalTensor<OutputDataType> &scale,
                            const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t k,
                            const AntiQuantShapeInfo &shapeInfo = {}, sim::Loc loc = {}) {
  (void)sharedTmpBuffer;
  sim::antiquant_channel(dst, src, offset.lt, offset, scale, shapeInfo.offsetHeight,
                         shapeInfo.offsetWidth, isTranspose, k, loc);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
inline void AscendAntiQuant(const LocalTensor<OutputDataType> &dst,
                            const LocalTensor<InputDataType> &src,
                            const LocalTensor<OutputDataType> &scale,
                            const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t k,
                            const AntiQuantShapeInfo &shapeInfo = {}, sim::Loc loc = {}) {
  (void)sharedTmpBuffer;
  sim::antiquant_channel(dst, src, pyasc_sim_lt{0, 0}, scale, scale, shapeInfo.scaleHeight,
                         shapeInfo.scaleWidth, isTranspose, k, loc);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
inline void AscendAntiQuant(const LocalTensor<OutputDataType> &dst,
                            const LocalTensor<InputDataType> &src, const OutputDataType offset,
                            const OutputDataType scale, const LocalTensor<uint8_t> &sharedTmpBuffer,
                            const uint32_t k, const AntiQuantShapeInfo &shapeInfo = {},
                            sim::Loc loc = {}) {
  (void)sharedTmpBuffer, (void)shapeInfo;
  sim::antiquant<InputDataType, OutputDataType>(dst, src, pyasc_sim_lt{0, 0}, nullptr,
                                                sim::to_double(offset), sim::to_double(scale),
                                                isTranspose, k, 1, 1, loc);
}

// --- FasterGelu: x / (1 + exp(-1.702 x)), built from the vector API in CANN's order -----------
// (Muls, Exp, Adds, then Div, or Reciprocal and Mul with highPerformance) through the shared
// buffer, a piece of whole repeats at a time, each step rounded to T. highPrecision (half only on
// the NPU) computes as the default here.
template <typename T, bool highPrecision = false, bool highPerformance = false>
inline void FasterGelu(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal,
                       const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t dataSize,
                       sim::Loc loc = {}) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "FasterGelu: half or float");
  constexpr uint32_t perRepeat = 256 / sizeof(T);
  LocalTensor<T> stack = sharedTmpBuffer.template ReinterpretCast<T>();
  const uint32_t piece = stack.GetSize() / perRepeat * perRepeat;
  if (piece == 0 && dataSize > 0) {
    sim::check(sim::api()->fail(sim::ctx, loc.file, loc.line,
                                "FasterGelu: the shared tmp buffer holds less than one repeat"));
    return;
  }
  for (uint32_t at = 0; at < dataSize; at += piece) {
    const int32_t n = static_cast<int32_t>(dataSize - at < piece ? dataSize - at : piece);
    Muls(stack, srcLocal[at], static_cast<T>(-1.702f), n, loc);
    PipeBarrier<PIPE_V>();
    Exp(stack, stack, n, loc);
    PipeBarrier<PIPE_V>();
    Adds(stack, stack, static_cast<T>(1.0f), n, loc);
    PipeBarrier<PIPE_V>();
    if constexpr (highPerformance) {
      Reciprocal(stack, stack, n, loc);
      PipeBarrier<PIPE_V>();
      Mul(dstLocal[at], srcLocal[at], stack, n, loc);
    } else {
      Div(dstLocal[at], srcLocal[at], stack, n, loc);
    }
    PipeBarrier<PIPE_V>();
  }
}
// Without a buffer: the stack's (PopStackBuffer).
template <typename T, bool highPrecision = false, bool highPerformance = false>
inline void FasterGelu(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal,
                       const uint32_t dataSize, sim::Loc loc = {}) {
  LocalTensor<uint8_t> sharedTmpBuffer;
  PopStackBuffer<uint8_t, TPosition::LCM>(sharedTmpBuffer, loc);
  FasterGelu<T, highPrecision, highPerformance>(dstLocal, srcLocal, sharedTmpBuffer, dataSize, loc);
}

}  // namespace AscendC
