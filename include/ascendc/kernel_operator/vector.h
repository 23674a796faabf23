// Part of kernel_operator.h, included only from it: the vector unit, its count forms, mask forms,
// reductions and the mask register.

namespace AscendC {

// --- the vector unit: count forms ------------------------------------------------------------

#define PYASC_SIM_BINARY(NAME, OP)                                                             \
  template <typename T>                                                                        \
  inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src0,                      \
                   const LocalTensor<T> &src1, const int32_t &count, sim::Loc loc = {}) {      \
    sim::check(sim::api()->binary(sim::ctx, OP, sim::dtype<T>::code, dst.lt, src0.lt, src1.lt, \
                                  count, loc.file, loc.line));                                 \
  }
PYASC_SIM_BINARY(Add, PYASC_SIM_ADD)
PYASC_SIM_BINARY(Sub, PYASC_SIM_SUB)
PYASC_SIM_BINARY(Mul, PYASC_SIM_MUL)
PYASC_SIM_BINARY(Div, PYASC_SIM_DIV)
PYASC_SIM_BINARY(Max, PYASC_SIM_MAX)
PYASC_SIM_BINARY(Min, PYASC_SIM_MIN)
#undef PYASC_SIM_BINARY

#define PYASC_SIM_SCALAR(NAME, OP)                                                               \
  template <typename T, bool isSetMask = true>                                                   \
  inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src,                         \
                   const sim::same_t<T> &scalarValue, const int32_t &count, sim::Loc loc = {}) { \
    sim::check(sim::api()->scalar(sim::ctx, OP, sim::dtype<T>::code, dst.lt, src.lt,             \
                                  sim::to_double(scalarValue), count, loc.file, loc.line));      \
  }
PYASC_SIM_SCALAR(Adds, PYASC_SIM_ADDS)
PYASC_SIM_SCALAR(Muls, PYASC_SIM_MULS)
PYASC_SIM_SCALAR(Maxs, PYASC_SIM_MAXS)
PYASC_SIM_SCALAR(Mins, PYASC_SIM_MINS)
#undef PYASC_SIM_SCALAR

#define PYASC_SIM_UNARY(NAME, OP)                                                              \
  template <typename T>                                                                        \
  inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t &count, \
                   sim::Loc loc = {}) {                                                        \
    sim::check(sim::api()->unary(sim::ctx, OP, sim::dtype<T>::code, dst.lt, src.lt, count,     \
                                 loc.file, loc.line));                                         \
  }
PYASC_SIM_UNARY(Exp, PYASC_SIM_EXP)
PYASC_SIM_UNARY(Ln, PYASC_SIM_LN)
PYASC_SIM_UNARY(Abs, PYASC_SIM_ABS)
PYASC_SIM_UNARY(Sqrt, PYASC_SIM_SQRT)
PYASC_SIM_UNARY(Rsqrt, PYASC_SIM_RSQRT)
PYASC_SIM_UNARY(Reciprocal, PYASC_SIM_RECIPROCAL)
PYASC_SIM_UNARY(Relu, PYASC_SIM_RELU)
#undef PYASC_SIM_UNARY

// The math library's Exp<T, taylorExpandLevel> and Log are in adv_math.h.

template <typename T, bool isSetMask = true>
inline void LeakyRelu(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                      const sim::same_t<T> &scalarValue, const int32_t &count, sim::Loc loc = {}) {
  sim::check(sim::api()->leaky_relu(sim::ctx, sim::dtype<T>::code, dst.lt, src.lt,
                                    sim::to_double(scalarValue), count, loc.file, loc.line));
}

template <typename T>
inline void Duplicate(const LocalTensor<T> &dst, const sim::same_t<T> &scalarValue,
                      const int32_t &count, sim::Loc loc = {}) {
  sim::check(sim::api()->duplicate(sim::ctx, sim::dtype<T>::code, dst.lt,
                                   sim::to_double(scalarValue), count, loc.file, loc.line));
}

// Cast<dst T, src U>
template <typename T, typename U>
inline void Cast(const LocalTensor<T> &dst, const LocalTensor<U> &src, const RoundMode &roundMode,
                 const uint32_t count, sim::Loc loc = {}) {
  if constexpr (sim::is_i4_v<T> || sim::is_i4_v<U>) {  // the runtime's int4b_t cast (rt/int4.h)
    sim::i4({PYASC_SIM_I4_CAST, sim::dtype<T>::code, sim::dtype<U>::code,
             static_cast<int>(roundMode), 2, count, 0, 0, 1, 0, 0, 0, 0},
            {dst.lt, src.lt}, nullptr, loc);
    return;
  }
  sim::check(sim::api()->cast(sim::ctx, sim::dtype<T>::code, sim::dtype<U>::code, dst.lt, src.lt,
                              static_cast<int>(roundMode), count, loc.file, loc.line));
}

// Reductions of count elements: dst[0] the value (ReduceMax/ReduceMin with
// calIndex: dst[1] its index, in dst's bits); sharedTmpBuffer is the
// device's workspace, unused by the simulator.
template <typename T>
inline void ReduceSum(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                      const LocalTensor<T> &sharedTmpBuffer, const int32_t count,
                      sim::Loc loc = {}) {
  (void)sharedTmpBuffer;
  sim::check(sim::api()->reduce(sim::ctx, PYASC_SIM_REDUCE_SUM, sim::dtype<T>::code, dst.lt, src.lt,
                                count, 0, loc.file, loc.line));
}
template <typename T>
inline void ReduceMax(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                      const LocalTensor<T> &sharedTmpBuffer, const int32_t count,
                      bool calIndex = false, sim::Loc loc = {}) {
  (void)sharedTmpBuffer;
  sim::check(sim::api()->reduce(sim::ctx, PYASC_SIM_REDUCE_MAX, sim::dtype<T>::code, dst.lt, src.lt,
                                count, calIndex, loc.file, loc.line));
}
template <typename T>
inline void ReduceMin(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                      const LocalTensor<T> &sharedTmpBuffer, const int32_t count,
                      bool calIndex = false, sim::Loc loc = {}) {
  (void)sharedTmpBuffer;
  sim::check(sim::api()->reduce(sim::ctx, PYASC_SIM_REDUCE_MIN, sim::dtype<T>::code, dst.lt, src.lt,
                                count, calIndex, loc.file, loc.line));
}
// The sum the latest ReduceSum of count elements left in its special register (what it wrote to
// dst[0]); 0 before any.
template <typename T>
inline T GetReduceRepeatSumSpr() {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "GetReduceRepeatSumSpr takes half or float");
  int64_t bits = 0;
  double v = 0;
  sim::api()->vec_more(sim::ctx, PYASC_SIM_VEC_REDUCE_SUM_SPR, nullptr, nullptr, pyasc_sim_gt{}, 0,
                       &bits, nullptr, 0);
  std::memcpy(&v, &bits, sizeof v);
  return static_cast<T>(v);
}
// GetReduceRepeatSumSpr's former name
template <typename T>
inline T GetAccVal() {
  return GetReduceRepeatSumSpr<T>();
}

// --- the element-wise executor: the other count forms and the mask forms ---------------

namespace sim {

// A mask argument: continuous (a count of leading elements) or bits.
struct Mask {
  int kind;
  uint64_t m0, m1;
};
inline Mask mask_of(const uint64_t mask[]) {
  return {1, mask[0], mask[1]};
}
inline Mask mask_of(uint64_t mask) {
  return {0, mask, 0};
}

// One instruction of the runtime's executor, as the C emitter writes it
// (src/compiler/emit_c_vector.c): tensors dst first, then the sources.
struct VRun {
  pyasc_sim_vargs a{};
  int64_t es[3] = {1, 1, 1};
  int nt = 0;
  int first = 0;  // Compare: a repeat spans 256 bytes of the widest source
  explicit VRun(int op, int mode = 0) {
    a.op = op;
    a.mode = mode;
    first = op == PYASC_SIM_VOP_COMPARE || op == PYASC_SIM_VOP_COMPARE_SCALAR;
  }
  template <typename T>
  VRun &t(const LocalTensor<T> &x) {
    a.dt[nt] = dtype<T>::code;
    a.t[nt] = x.lt;
    es[nt] = sizeof(T);
    nt++;
    return *this;
  }
  VRun &scalar(double v) {
    a.scalar = v;
    return *this;
  }
  template <typename U>
  VRun &sel(const LocalTensor<U> &m) {
    a.sel = m.lt;
    a.sel_dt = dtype<U>::code;
    return *this;
  }
  void strides(const int64_t *st, int nst) {
    a.nsrc = nt - 1;
    int64_t widest = 1;
    for (int j = first; j < nt; j++)
      if (es[j] > widest) widest = es[j];
    int half = nst / 2;
    for (int j = 0; j < nt; j++) {
      a.blk[j] = j < half ? st[j] : 1;
      a.rep[j] = j < half ? st[half + j] : 8 * es[j] / widest;
    }
  }
  void count(int64_t n, Loc loc) {
    strides(nullptr, 0);
    a.kind = 2;
    a.set_mask = 1;
    a.m0 = static_cast<uint64_t>(n);
    check(api()->vrun(ctx, &a, loc.file, loc.line));
  }
  void masked(Mask m, bool setMask, int64_t repeat, const int64_t *st, int nst, Loc loc) {
    strides(st, nst);
    a.kind = m.kind;
    a.set_mask = setMask;
    a.m0 = m.m0;
    a.m1 = m.m1;
    a.repeat = repeat;
    check(api()->vrun(ctx, &a, loc.file, loc.line));
  }
};

inline void binary_params(const BinaryRepeatParams &p, int64_t st[6]) {
  st[0] = p.dstBlkStride, st[1] = p.src0BlkStride, st[2] = p.src1BlkStride;
  st[3] = p.dstRepStride, st[4] = p.src0RepStride, st[5] = p.src1RepStride;
}
inline void unary_params(const UnaryRepeatParams &p, int64_t st[4]) {
  st[0] = p.dstBlkStride, st[1] = p.srcBlkStride, st[2] = p.dstRepStride, st[3] = p.srcRepStride;
}

}  // namespace sim

// Binary mask forms (and the count forms the executor runs).
#define PYASC_SIM_BINARY_MASK(NAME, OP)                                                           \
  template <typename T, bool isSetMask = true>                                                    \
  inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src0,                         \
                   const LocalTensor<T> &src1, uint64_t mask[], const uint8_t repeatTime,         \
                   const BinaryRepeatParams &repeatParams, sim::Loc loc = {}) {                   \
    int64_t st[6];                                                                                \
    sim::binary_params(repeatParams, st);                                                         \
    sim::VRun(OP).t(dst).t(src0).t(src1).masked(sim::mask_of(mask), isSetMask, repeatTime, st, 6, \
                                                loc);                                             \
  }                                                                                               \
  template <typename T, bool isSetMask = true>                                                    \
  inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src0,                         \
                   const LocalTensor<T> &src1, uint64_t mask, const uint8_t repeatTime,           \
                   const BinaryRepeatParams &repeatParams, sim::Loc loc = {}) {                   \
    int64_t st[6];                                                                                \
    sim::binary_params(repeatParams, st);                                                         \
    sim::VRun(OP).t(dst).t(src0).t(src1).masked(sim::mask_of(mask), isSetMask, repeatTime, st, 6, \
                                                loc);                                             \
  }
#define PYASC_SIM_BINARY_COUNT(NAME, OP)                                                  \
  template <typename T>                                                                   \
  inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src0,                 \
                   const LocalTensor<T> &src1, const int32_t &count, sim::Loc loc = {}) { \
    sim::VRun(OP).t(dst).t(src0).t(src1).count(count, loc);                               \
  }
PYASC_SIM_BINARY_MASK(Add, PYASC_SIM_VOP_ADD)
PYASC_SIM_BINARY_MASK(Sub, PYASC_SIM_VOP_SUB)
PYASC_SIM_BINARY_MASK(Mul, PYASC_SIM_VOP_MUL)
PYASC_SIM_BINARY_MASK(Div, PYASC_SIM_VOP_DIV)
PYASC_SIM_BINARY_MASK(Max, PYASC_SIM_VOP_MAX)
PYASC_SIM_BINARY_MASK(Min, PYASC_SIM_VOP_MIN)
PYASC_SIM_BINARY_MASK(And, PYASC_SIM_VOP_AND)
PYASC_SIM_BINARY_MASK(Or, PYASC_SIM_VOP_OR)
PYASC_SIM_BINARY_MASK(FusedMulAdd, PYASC_SIM_VOP_FUSED_MUL_ADD)
PYASC_SIM_BINARY_MASK(MulAddDst, PYASC_SIM_VOP_MUL_ADD_DST)
PYASC_SIM_BINARY_MASK(AddRelu, PYASC_SIM_VOP_ADD_RELU)
PYASC_SIM_BINARY_MASK(SubRelu, PYASC_SIM_VOP_SUB_RELU)
PYASC_SIM_BINARY_MASK(FusedMulAddRelu, PYASC_SIM_VOP_FUSED_MUL_ADD_RELU)
PYASC_SIM_BINARY_COUNT(And, PYASC_SIM_VOP_AND)
PYASC_SIM_BINARY_COUNT(Or, PYASC_SIM_VOP_OR)
PYASC_SIM_BINARY_COUNT(FusedMulAdd, PYASC_SIM_VOP_FUSED_MUL_ADD)
PYASC_SIM_BINARY_COUNT(MulAddDst, PYASC_SIM_VOP_MUL_ADD_DST)
PYASC_SIM_BINARY_COUNT(AddRelu, PYASC_SIM_VOP_ADD_RELU)
PYASC_SIM_BINARY_COUNT(SubRelu, PYASC_SIM_VOP_SUB_RELU)
PYASC_SIM_BINARY_COUNT(FusedMulAddRelu, PYASC_SIM_VOP_FUSED_MUL_ADD_RELU)
#undef PYASC_SIM_BINARY_MASK
#undef PYASC_SIM_BINARY_COUNT

namespace sim {
template <typename T, int Op>
void SymbolOverride<T, Op>::run(const LocalTensor<T> &dst) const {
  const int32_t n = static_cast<int32_t>(dst.GetSize());
  if constexpr (Op == 0) Add(dst, *src0, *src1, n);
  if constexpr (Op == 1) Sub(dst, *src0, *src1, n);
  if constexpr (Op == 2) Mul(dst, *src0, *src1, n);
  if constexpr (Op == 3) Div(dst, *src0, *src1, n);
  if constexpr (Op == 4) Or(dst, *src0, *src1, n);
  if constexpr (Op == 5) And(dst, *src0, *src1, n);
}
}  // namespace sim

// Tensor-scalar mask forms (and the count forms of the shifts).
#define PYASC_SIM_SCALAR_MASK(NAME, OP)                                                          \
  template <typename T, bool isSetMask = true>                                                   \
  inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src,                         \
                   const sim::same_t<T> &scalarValue, uint64_t mask[], const uint8_t repeatTime, \
                   const UnaryRepeatParams &repeatParams, sim::Loc loc = {}) {                   \
    int64_t st[4];                                                                               \
    sim::unary_params(repeatParams, st);                                                         \
    sim::VRun(OP)                                                                                \
        .t(dst)                                                                                  \
        .t(src)                                                                                  \
        .scalar(sim::to_double(scalarValue))                                                     \
        .masked(sim::mask_of(mask), isSetMask, repeatTime, st, 4, loc);                          \
  }                                                                                              \
  template <typename T, bool isSetMask = true>                                                   \
  inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src,                         \
                   const sim::same_t<T> &scalarValue, uint64_t mask, const uint8_t repeatTime,   \
                   const UnaryRepeatParams &repeatParams, sim::Loc loc = {}) {                   \
    int64_t st[4];                                                                               \
    sim::unary_params(repeatParams, st);                                                         \
    sim::VRun(OP)                                                                                \
        .t(dst)                                                                                  \
        .t(src)                                                                                  \
        .scalar(sim::to_double(scalarValue))                                                     \
        .masked(sim::mask_of(mask), isSetMask, repeatTime, st, 4, loc);                          \
  }
PYASC_SIM_SCALAR_MASK(Adds, PYASC_SIM_VOP_ADDS)
PYASC_SIM_SCALAR_MASK(Muls, PYASC_SIM_VOP_MULS)
PYASC_SIM_SCALAR_MASK(Maxs, PYASC_SIM_VOP_MAXS)
PYASC_SIM_SCALAR_MASK(Mins, PYASC_SIM_VOP_MINS)
PYASC_SIM_SCALAR_MASK(LeakyRelu, PYASC_SIM_VOP_LEAKY_RELU)
PYASC_SIM_SCALAR_MASK(ShiftLeft, PYASC_SIM_VOP_SHIFT_LEFT)
PYASC_SIM_SCALAR_MASK(ShiftRight, PYASC_SIM_VOP_SHIFT_RIGHT)
#undef PYASC_SIM_SCALAR_MASK
template <typename T, bool isSetMask = true>
inline void ShiftLeft(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                      const sim::same_t<T> &scalarValue, const int32_t &count, sim::Loc loc = {}) {
  sim::VRun(PYASC_SIM_VOP_SHIFT_LEFT)
      .t(dst)
      .t(src)
      .scalar(sim::to_double(scalarValue))
      .count(count, loc);
}
template <typename T, bool isSetMask = true>
inline void ShiftRight(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                       const sim::same_t<T> &scalarValue, const int32_t &count, sim::Loc loc = {}) {
  sim::VRun(PYASC_SIM_VOP_SHIFT_RIGHT)
      .t(dst)
      .t(src)
      .scalar(sim::to_double(scalarValue))
      .count(count, loc);
}
// Axpy<dst T, src U>: dst += src * scalar (the scalar has the source's type).
template <typename T, typename U>
inline void Axpy(const LocalTensor<T> &dst, const LocalTensor<U> &src, const U scalarValue,
                 const int32_t &count, sim::Loc loc = {}) {
  sim::VRun(PYASC_SIM_VOP_AXPY).t(dst).t(src).scalar(sim::to_double(scalarValue)).count(count, loc);
}

template <typename T, typename U, bool isSetMask = true>
inline void Axpy(const LocalTensor<T> &dst, const LocalTensor<U> &src, const U scalarValue,
                 uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams &repeatParams,
                 sim::Loc loc = {}) {
  int64_t st[4];
  sim::unary_params(repeatParams, st);
  sim::VRun(PYASC_SIM_VOP_AXPY)
      .t(dst)
      .t(src)
      .scalar(sim::to_double(scalarValue))
      .masked(sim::mask_of(mask), isSetMask, repeatTime, st, 4, loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void Axpy(const LocalTensor<T> &dst, const LocalTensor<U> &src, const U scalarValue,
                 uint64_t mask, const uint8_t repeatTime, const UnaryRepeatParams &repeatParams,
                 sim::Loc loc = {}) {
  int64_t st[4];
  sim::unary_params(repeatParams, st);
  sim::VRun(PYASC_SIM_VOP_AXPY)
      .t(dst)
      .t(src)
      .scalar(sim::to_double(scalarValue))
      .masked(sim::mask_of(mask), isSetMask, repeatTime, st, 4, loc);
}

// Unary mask forms (and Not's count form).
#define PYASC_SIM_UNARY_MASK(NAME, OP)                                                         \
  template <typename T, bool isSetMask = true>                                                 \
  inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, uint64_t mask[],      \
                   const uint8_t repeatTime, const UnaryRepeatParams &repeatParams,            \
                   sim::Loc loc = {}) {                                                        \
    int64_t st[4];                                                                             \
    sim::unary_params(repeatParams, st);                                                       \
    sim::VRun(OP).t(dst).t(src).masked(sim::mask_of(mask), isSetMask, repeatTime, st, 4, loc); \
  }                                                                                            \
  template <typename T, bool isSetMask = true>                                                 \
  inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, uint64_t mask,        \
                   const uint8_t repeatTime, const UnaryRepeatParams &repeatParams,            \
                   sim::Loc loc = {}) {                                                        \
    int64_t st[4];                                                                             \
    sim::unary_params(repeatParams, st);                                                       \
    sim::VRun(OP).t(dst).t(src).masked(sim::mask_of(mask), isSetMask, repeatTime, st, 4, loc); \
  }
PYASC_SIM_UNARY_MASK(Exp, PYASC_SIM_VOP_EXP)
PYASC_SIM_UNARY_MASK(Ln, PYASC_SIM_VOP_LN)
PYASC_SIM_UNARY_MASK(Abs, PYASC_SIM_VOP_ABS)
PYASC_SIM_UNARY_MASK(Sqrt, PYASC_SIM_VOP_SQRT)
PYASC_SIM_UNARY_MASK(Rsqrt, PYASC_SIM_VOP_RSQRT)
PYASC_SIM_UNARY_MASK(Reciprocal, PYASC_SIM_VOP_RECIPROCAL)
PYASC_SIM_UNARY_MASK(Relu, PYASC_SIM_VOP_RELU)
PYASC_SIM_UNARY_MASK(Not, PYASC_SIM_VOP_NOT)
#undef PYASC_SIM_UNARY_MASK
template <typename T>
inline void Not(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t &count,
                sim::Loc loc = {}) {
  sim::VRun(PYASC_SIM_VOP_NOT).t(dst).t(src).count(count, loc);
}

namespace sim {
// The mask forms of Cast with int4b_t (rt/int4.h).
template <typename T, typename U>
inline void cast_i4(const LocalTensor<T> &dst, const LocalTensor<U> &src, RoundMode round, Mask m,
                    bool isSetMask, uint8_t repeatTime, const int64_t st[4], Loc loc) {
  i4({PYASC_SIM_I4_CAST, dtype<T>::code, dtype<U>::code, static_cast<int>(round), m.kind,
      static_cast<int64_t>(m.m0), static_cast<int64_t>(m.m1), repeatTime, isSetMask, st[0], st[1],
      st[2], st[3]},
     {dst.lt, src.lt}, nullptr, loc);
}
}  // namespace sim

// Cast<dst T, src U> mask forms.
template <typename T, typename U, bool isSetMask = true>
inline void Cast(const LocalTensor<T> &dst, const LocalTensor<U> &src, const RoundMode &roundMode,
                 const uint64_t mask[], const uint8_t repeatTime,
                 const UnaryRepeatParams &repeatParams, sim::Loc loc = {}) {
  int64_t st[4];
  sim::unary_params(repeatParams, st);
  if constexpr (sim::is_i4_v<T> || sim::is_i4_v<U>) {
    sim::cast_i4<T, U>(dst, src, roundMode, sim::mask_of(mask), isSetMask, repeatTime, st, loc);
    return;
  }
  sim::VRun(PYASC_SIM_VOP_CAST, static_cast<int>(roundMode))
      .t(dst)
      .t(src)
      .masked(sim::mask_of(mask), isSetMask, repeatTime, st, 4, loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void Cast(const LocalTensor<T> &dst, const LocalTensor<U> &src, const RoundMode &roundMode,
                 const uint64_t mask, const uint8_t repeatTime,
                 const UnaryRepeatParams &repeatParams, sim::Loc loc = {}) {
  int64_t st[4];
  sim::unary_params(repeatParams, st);
  if constexpr (sim::is_i4_v<T> || sim::is_i4_v<U>) {
    sim::cast_i4<T, U>(dst, src, roundMode, sim::mask_of(mask), isSetMask, repeatTime, st, loc);
    return;
  }
  sim::VRun(PYASC_SIM_VOP_CAST, static_cast<int>(roundMode))
      .t(dst)
      .t(src)
      .masked(sim::mask_of(mask), isSetMask, repeatTime, st, 4, loc);
}

// Compare<src T, dst U>: one result bit per element.
template <typename T, typename U>
inline void Compare(const LocalTensor<U> &dst, const LocalTensor<T> &src0,
                    const LocalTensor<T> &src1, CMPMODE cmpMode, uint32_t count,
                    sim::Loc loc = {}) {
  sim::VRun(PYASC_SIM_VOP_COMPARE, static_cast<int>(cmpMode))
      .t(dst)
      .t(src0)
      .t(src1)
      .count(count, loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void Compare(const LocalTensor<U> &dst, const LocalTensor<T> &src0,
                    const LocalTensor<T> &src1, CMPMODE cmpMode, const uint64_t mask[],
                    uint8_t repeatTime, const BinaryRepeatParams &repeatParams, sim::Loc loc = {}) {
  int64_t st[6];
  sim::binary_params(repeatParams, st);
  sim::VRun(PYASC_SIM_VOP_COMPARE, static_cast<int>(cmpMode))
      .t(dst)
      .t(src0)
      .t(src1)
      .masked(sim::mask_of(mask), isSetMask, repeatTime, st, 6, loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void Compare(const LocalTensor<U> &dst, const LocalTensor<T> &src0,
                    const LocalTensor<T> &src1, CMPMODE cmpMode, const uint64_t mask,
                    uint8_t repeatTime, const BinaryRepeatParams &repeatParams, sim::Loc loc = {}) {
  int64_t st[6];
  sim::binary_params(repeatParams, st);
  sim::VRun(PYASC_SIM_VOP_COMPARE, static_cast<int>(cmpMode))
      .t(dst)
      .t(src0)
      .t(src1)
      .masked(sim::mask_of(mask), isSetMask, repeatTime, st, 6, loc);
}
template <typename T, typename U>
inline void CompareScalar(const LocalTensor<U> &dst, const LocalTensor<T> &src0,
                          const sim::same_t<T> src1Scalar, CMPMODE cmpMode, uint32_t count,
                          sim::Loc loc = {}) {
  sim::VRun(PYASC_SIM_VOP_COMPARE_SCALAR, static_cast<int>(cmpMode))
      .t(dst)
      .t(src0)
      .scalar(sim::to_double(src1Scalar))
      .count(count, loc);
}

template <typename T, typename U, bool isSetMask = true>
inline void CompareScalar(const LocalTensor<U> &dst, const LocalTensor<T> &src0,
                          const sim::same_t<T> src1Scalar, CMPMODE cmpMode, const uint64_t mask[],
                          uint8_t repeatTime, const UnaryRepeatParams &repeatParams,
                          sim::Loc loc = {}) {
  int64_t st[4];
  sim::unary_params(repeatParams, st);
  sim::VRun(PYASC_SIM_VOP_COMPARE_SCALAR, static_cast<int>(cmpMode))
      .t(dst)
      .t(src0)
      .scalar(sim::to_double(src1Scalar))
      .masked(sim::mask_of(mask), isSetMask, repeatTime, st, 4, loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void CompareScalar(const LocalTensor<U> &dst, const LocalTensor<T> &src0,
                          const sim::same_t<T> src1Scalar, CMPMODE cmpMode, const uint64_t mask,
                          uint8_t repeatTime, const UnaryRepeatParams &repeatParams,
                          sim::Loc loc = {}) {
  int64_t st[4];
  sim::unary_params(repeatParams, st);
  sim::VRun(PYASC_SIM_VOP_COMPARE_SCALAR, static_cast<int>(cmpMode))
      .t(dst)
      .t(src0)
      .scalar(sim::to_double(src1Scalar))
      .masked(sim::mask_of(mask), isSetMask, repeatTime, st, 4, loc);
}

// Select<T, mask U>: src1 a tensor or a scalar.
template <typename T, typename U>
inline void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask,
                   const LocalTensor<T> &src0, const LocalTensor<T> &src1, SELMODE selMode,
                   uint32_t count, sim::Loc loc = {}) {
  sim::VRun(PYASC_SIM_VOP_SELECT, static_cast<int>(selMode))
      .t(dst)
      .t(src0)
      .t(src1)
      .sel(selMask)
      .count(count, loc);
}
template <typename T, typename U>
inline void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask,
                   const LocalTensor<T> &src0, sim::same_t<T> src1, SELMODE selMode, uint32_t count,
                   sim::Loc loc = {}) {
  sim::VRun(PYASC_SIM_VOP_SELECTS, static_cast<int>(selMode))
      .t(dst)
      .t(src0)
      .scalar(sim::to_double(src1))
      .sel(selMask)
      .count(count, loc);
}

#define PYASC_SIM_SELECT_MASK(MASK)                                                           \
  template <typename T, typename U, bool isSetMask = true>                                    \
  inline void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask,                \
                     const LocalTensor<T> &src0, const LocalTensor<T> &src1, SELMODE selMode, \
                     MASK, uint8_t repeatTime, const BinaryRepeatParams &repeatParams,        \
                     sim::Loc loc = {}) {                                                     \
    int64_t st[6];                                                                            \
    sim::binary_params(repeatParams, st);                                                     \
    sim::VRun(PYASC_SIM_VOP_SELECT, static_cast<int>(selMode))                                \
        .t(dst)                                                                               \
        .t(src0)                                                                              \
        .t(src1)                                                                              \
        .sel(selMask)                                                                         \
        .masked(sim::mask_of(mask), isSetMask, repeatTime, st, 6, loc);                       \
  }                                                                                           \
  template <typename T, typename U, bool isSetMask = true>                                    \
  inline void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask,                \
                     const LocalTensor<T> &src0, sim::same_t<T> src1, SELMODE selMode, MASK,  \
                     uint8_t repeatTime, const BinaryRepeatParams &repeatParams,              \
                     sim::Loc loc = {}) {                                                     \
    int64_t st[6];                                                                            \
    sim::binary_params(repeatParams, st);                                                     \
    sim::VRun(PYASC_SIM_VOP_SELECTS, static_cast<int>(selMode))                               \
        .t(dst)                                                                               \
        .t(src0)                                                                              \
        .scalar(sim::to_double(src1))                                                         \
        .sel(selMask)                                                                         \
        .masked(sim::mask_of(mask), isSetMask, repeatTime, st, 6, loc);                       \
  }
PYASC_SIM_SELECT_MASK(uint64_t mask[])
PYASC_SIM_SELECT_MASK(uint64_t mask)
#undef PYASC_SIM_SELECT_MASK

// The CMPMASK register and the register forms of Compare and Select.
template <typename T>
inline void SetCmpMask(const LocalTensor<T> &src, sim::Loc loc = {}) {
  sim::check(sim::api()->cmp_mask(sim::ctx, 1, src.lt, sim::dtype<T>::code, loc.file, loc.line));
}
template <typename T>
inline void GetCmpMask(const LocalTensor<T> &dst, sim::Loc loc = {}) {
  sim::check(sim::api()->cmp_mask(sim::ctx, 0, dst.lt, sim::dtype<T>::code, loc.file, loc.line));
}
#define PYASC_SIM_COMPARE_REG(MASK)                                                               \
  template <typename T, bool isSetMask = true>                                                    \
  inline void Compare(const LocalTensor<T> &src0, const LocalTensor<T> &src1, CMPMODE cmpMode,    \
                      MASK, const BinaryRepeatParams &repeatParams, sim::Loc loc = {}) {          \
    int64_t st[6];                                                                                \
    sim::binary_params(repeatParams, st);                                                         \
    sim::Mask m = sim::mask_of(mask);                                                             \
    sim::check(sim::api()->compare_reg(sim::ctx, src0.lt, src1.lt, m.m0, m.m1, st, m.kind,        \
                                       isSetMask, static_cast<int>(cmpMode), sim::dtype<T>::code, \
                                       loc.file, loc.line));                                      \
  }
PYASC_SIM_COMPARE_REG(const uint64_t mask[])
PYASC_SIM_COMPARE_REG(const uint64_t mask)
#undef PYASC_SIM_COMPARE_REG
template <typename T, SELMODE selMode>
inline void Select(const LocalTensor<T> &dst, const LocalTensor<T> &src0,
                   const LocalTensor<T> &src1, uint8_t repeatTime,
                   const BinaryRepeatParams &repeatParams, sim::Loc loc = {}) {
  int64_t st[6];
  sim::binary_params(repeatParams, st);
  sim::check(sim::api()->select_reg(sim::ctx, dst.lt, src0.lt, src1.lt, repeatTime, st,
                                    static_cast<int>(selMode), sim::dtype<T>::code, loc.file,
                                    loc.line));
}
// Select's tensor-scalar mode without a mask (the scalar set by SetCmpMask).
template <typename T, typename U>
inline void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask,
                   const LocalTensor<T> &src0, uint8_t repeatTime,
                   const BinaryRepeatParams &repeatParams, sim::Loc loc = {}) {
  int64_t st[6];
  sim::binary_params(repeatParams, st);
  sim::check(sim::api()->select_reg_scalar(sim::ctx, dst.lt, selMask.lt, src0.lt, repeatTime, st,
                                           sim::dtype<T>::code, sim::dtype<U>::code, loc.file,
                                           loc.line));
}

// Copy (UB -> UB on the vector unit): mask forms only.
template <typename T, bool isSetMask = true>
inline void Copy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint64_t mask[],
                 const uint8_t repeatTime, const CopyRepeatParams &repeatParams,
                 sim::Loc loc = {}) {
  const int64_t st[4] = {repeatParams.dstStride, repeatParams.srcStride, repeatParams.dstRepeatSize,
                         repeatParams.srcRepeatSize};
  sim::VRun(PYASC_SIM_VOP_COPY)
      .t(dst)
      .t(src)
      .masked(sim::mask_of(mask), isSetMask, repeatTime, st, 4, loc);
}
template <typename T, bool isSetMask = true>
inline void Copy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint64_t mask,
                 const uint8_t repeatTime, const CopyRepeatParams &repeatParams,
                 sim::Loc loc = {}) {
  const int64_t st[4] = {repeatParams.dstStride, repeatParams.srcStride, repeatParams.dstRepeatSize,
                         repeatParams.srcRepeatSize};
  sim::VRun(PYASC_SIM_VOP_COPY)
      .t(dst)
      .t(src)
      .masked(sim::mask_of(mask), isSetMask, repeatTime, st, 4, loc);
}

// Duplicate(dst, scalar, mask, repeatTime, dstBlockStride, dstRepeatStride)
template <typename T, bool isSetMask = true>
inline void Duplicate(const LocalTensor<T> &dst, const sim::same_t<T> &scalarValue, uint64_t mask[],
                      const uint8_t repeatTime, const uint16_t dstBlockStride,
                      const uint8_t dstRepeatStride, sim::Loc loc = {}) {
  const int64_t st[2] = {dstBlockStride, dstRepeatStride};
  sim::VRun(PYASC_SIM_VOP_DUPLICATE)
      .t(dst)
      .scalar(sim::to_double(scalarValue))
      .masked(sim::mask_of(mask), isSetMask, repeatTime, st, 2, loc);
}
template <typename T, bool isSetMask = true>
inline void Duplicate(const LocalTensor<T> &dst, const sim::same_t<T> &scalarValue, uint64_t mask,
                      const uint8_t repeatTime, const uint16_t dstBlockStride,
                      const uint8_t dstRepeatStride, sim::Loc loc = {}) {
  const int64_t st[2] = {dstBlockStride, dstRepeatStride};
  sim::VRun(PYASC_SIM_VOP_DUPLICATE)
      .t(dst)
      .scalar(sim::to_double(scalarValue))
      .masked(sim::mask_of(mask), isSetMask, repeatTime, st, 2, loc);
}

// Reductions, mask forms: repeatTime repeats srcRepStride blocks apart.
#define PYASC_SIM_REDUCE_MASK(NAME, WHAT, ...)                                                   \
  template <typename T>                                                                          \
  inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src,                         \
                   const LocalTensor<T> &sharedTmpBuffer, uint64_t mask[],                       \
                   const int32_t repeatTime, const int32_t srcRepStride __VA_ARGS__,             \
                   sim::Loc loc = {}) {                                                          \
    (void)sharedTmpBuffer;                                                                       \
    sim::check(sim::api()->reduce_mask(sim::ctx, WHAT, sim::dtype<T>::code, dst.lt, src.lt, 1,   \
                                       mask[0], mask[1], repeatTime, srcRepStride,               \
                                       PYASC_SIM_CAL_INDEX, loc.file, loc.line));                \
  }                                                                                              \
  template <typename T>                                                                          \
  inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src,                         \
                   const LocalTensor<T> &sharedTmpBuffer, const int32_t mask,                    \
                   const int32_t repeatTime, const int32_t srcRepStride __VA_ARGS__,             \
                   sim::Loc loc = {}) {                                                          \
    (void)sharedTmpBuffer;                                                                       \
    sim::check(sim::api()->reduce_mask(sim::ctx, WHAT, sim::dtype<T>::code, dst.lt, src.lt, 0,   \
                                       static_cast<uint64_t>(mask), 0, repeatTime, srcRepStride, \
                                       PYASC_SIM_CAL_INDEX, loc.file, loc.line));                \
  }
#define PYASC_SIM_CAL_INDEX 0
PYASC_SIM_REDUCE_MASK(ReduceSum, PYASC_SIM_REDUCE_SUM)
#undef PYASC_SIM_CAL_INDEX
#define PYASC_SIM_CAL_INDEX calIndex
PYASC_SIM_REDUCE_MASK(ReduceMax, PYASC_SIM_REDUCE_MAX, , bool calIndex = false)
PYASC_SIM_REDUCE_MASK(ReduceMin, PYASC_SIM_REDUCE_MIN, , bool calIndex = false)
#undef PYASC_SIM_CAL_INDEX
#undef PYASC_SIM_REDUCE_MASK

// Per-repeat reductions: WholeReduce* take the mask before repeatTime,
// BlockReduce* and PairReduceSum after it.
namespace sim {
template <typename T>
inline void rrun(int shape, int what, const LocalTensor<T> &dst, const LocalTensor<T> &src, Mask m,
                 bool setMask, int64_t repeat, int64_t dstRep, int64_t srcBlk, int64_t srcRep,
                 ReduceOrder order, Loc loc) {
  pyasc_sim_rargs r{};
  r.what = what;
  r.shape = shape;
  r.dt = dtype<T>::code;
  r.order = static_cast<int>(order);
  r.dst = dst.lt;
  r.src = src.lt;
  r.kind = m.kind;
  r.set_mask = setMask;
  r.m0 = m.m0;
  r.m1 = m.m1;
  r.repeat = repeat;
  r.dst_rep = dstRep;
  r.src_blk = srcBlk;
  r.src_rep = srcRep;
  check(api()->rrun(ctx, &r, loc.file, loc.line));
}
}  // namespace sim

#define PYASC_SIM_WHOLE(NAME, WHAT, MASK, ...)                                            \
  template <typename T, bool isSetMask = true>                                            \
  inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, MASK,            \
                   const int32_t repeatTime, const int32_t dstRepStride,                  \
                   const int32_t srcBlkStride, const int32_t srcRepStride __VA_ARGS__,    \
                   sim::Loc loc = {}) {                                                   \
    sim::rrun(0, WHAT, dst, src, sim::mask_of(mask), isSetMask, repeatTime, dstRepStride, \
              srcBlkStride, srcRepStride, PYASC_SIM_ORDER, loc);                          \
  }
#define PYASC_SIM_ORDER ReduceOrder::ORDER_VALUE_INDEX
PYASC_SIM_WHOLE(WholeReduceSum, PYASC_SIM_REDUCE_SUM, const uint64_t mask[])
PYASC_SIM_WHOLE(WholeReduceSum, PYASC_SIM_REDUCE_SUM, const int32_t mask)
#undef PYASC_SIM_ORDER
#define PYASC_SIM_ORDER order
PYASC_SIM_WHOLE(WholeReduceMax, PYASC_SIM_REDUCE_MAX, const uint64_t mask[], ,
                ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX)
PYASC_SIM_WHOLE(WholeReduceMax, PYASC_SIM_REDUCE_MAX, const int32_t mask, ,
                ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX)
PYASC_SIM_WHOLE(WholeReduceMin, PYASC_SIM_REDUCE_MIN, const uint64_t mask[], ,
                ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX)
PYASC_SIM_WHOLE(WholeReduceMin, PYASC_SIM_REDUCE_MIN, const int32_t mask, ,
                ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX)
#undef PYASC_SIM_ORDER
#undef PYASC_SIM_WHOLE
#define PYASC_SIM_BLOCK(NAME, SHAPE, WHAT, MASK)                                                   \
  template <typename T, bool isSetMask = true>                                                     \
  inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t repeatTime, \
                   MASK, const int32_t dstRepStride, const int32_t srcBlkStride,                   \
                   const int32_t srcRepStride, sim::Loc loc = {}) {                                \
    sim::rrun(SHAPE, WHAT, dst, src, sim::mask_of(mask), isSetMask, repeatTime, dstRepStride,      \
              srcBlkStride, srcRepStride, ReduceOrder::ORDER_VALUE_INDEX, loc);                    \
  }
PYASC_SIM_BLOCK(BlockReduceSum, 1, PYASC_SIM_REDUCE_SUM, const uint64_t mask[])
PYASC_SIM_BLOCK(BlockReduceSum, 1, PYASC_SIM_REDUCE_SUM, const int32_t mask)
PYASC_SIM_BLOCK(BlockReduceMax, 1, PYASC_SIM_REDUCE_MAX, const uint64_t mask[])
PYASC_SIM_BLOCK(BlockReduceMax, 1, PYASC_SIM_REDUCE_MAX, const int32_t mask)
PYASC_SIM_BLOCK(BlockReduceMin, 1, PYASC_SIM_REDUCE_MIN, const uint64_t mask[])
PYASC_SIM_BLOCK(BlockReduceMin, 1, PYASC_SIM_REDUCE_MIN, const int32_t mask)
PYASC_SIM_BLOCK(PairReduceSum, 2, PYASC_SIM_REDUCE_SUM, const uint64_t mask[])
PYASC_SIM_BLOCK(PairReduceSum, 2, PYASC_SIM_REDUCE_SUM, const int32_t mask)
#undef PYASC_SIM_BLOCK

// The vector mask register.
inline void SetMaskCount() {
  sim::api()->set_mask_mode(sim::ctx, 1);
}
inline void SetMaskNorm() {
  sim::api()->set_mask_mode(sim::ctx, 0);
}
inline void ResetMask() {
  sim::api()->reset_mask(sim::ctx);
}
template <typename T, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(const uint64_t maskHigh, const uint64_t maskLow, sim::Loc loc = {}) {
  sim::check(sim::api()->set_vector_mask(sim::ctx, 1, sim::dtype<T>::code, static_cast<int>(mode),
                                         static_cast<int64_t>(maskHigh),
                                         static_cast<int64_t>(maskLow), loc.file, loc.line));
}
template <typename T, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(int32_t len, sim::Loc loc = {}) {
  sim::check(sim::api()->set_vector_mask(sim::ctx, 0, sim::dtype<T>::code, static_cast<int>(mode),
                                         len, 0, loc.file, loc.line));
}

}  // namespace AscendC
