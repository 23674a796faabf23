// Ascend C's kernel API (namespace AscendC) for pyasc's simulated AI cores.
//
// Ascend C kernels written for a 910B-class NPU (dav-2201) compile with the
// system C++17 compiler against this header and run on the simulator
// through pyasc.ascendc.load(). The names, template parameters and
// overloads follow Huawei's Ascend C API reference; every function is a thin
// typed call into pyasc's C kernel runtime (src/compiler/rt, through the
// table of include/ascendc/pyasc_sim.h), the same code that runs kernels
// written in Python, checked mode included. docs/ascendc.md lists what is
// covered.
//
// A failing call (an out-of-range access, a queue misuse, a missing
// synchronisation in checked mode) stops the block with an error naming the
// file and line of the user's call: every API takes a trailing
// AscendC::sim::Loc, defaulted at the call site.
#ifndef PYASC_ASCENDC_KERNEL_OPERATOR_H
#define PYASC_ASCENDC_KERNEL_OPERATOR_H

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "pyasc_sim.h"

// Address-space and kernel qualifiers of the device compiler: no-ops here.
#define __global__
#define __aicore__
#define __gm__
#define __vector__
#define __cube__
#define __inline__ inline
#define GM_ADDR __gm__ uint8_t *
// The kernel's core kind: the simulator runs vector kernels on AIVs.
#define KERNEL_TASK_TYPE_DEFAULT(type)
#define KERNEL_TASK_TYPE(key, type)

#ifndef PYASC_SIM_CHECKED
#define PYASC_SIM_CHECKED 0
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
  GM,
  A1,
  A2,
  B1,
  B2,
  C1,
  C2,
  CO1,
  CO2,
  VECIN,
  VECOUT,
  VECCALC,
  LCM = VECCALC,
  SPM,
  SHM = SPM,
  TSCM,
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
enum class SELMODE : uint8_t { VSEL_CMPMASK_SPR, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };
enum class MaskMode : uint8_t { NORMAL, COUNTER };
enum class ReduceOrder : uint8_t {
  ORDER_VALUE_INDEX,
  ORDER_INDEX_VALUE,
  ORDER_ONLY_VALUE,
  ORDER_ONLY_INDEX
};

using event_t = int32_t;

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

namespace sim {

// The runtime's dtype codes (include/asc/dtype.h).
template <typename T>
struct dtype;
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

// --- tensors -----------------------------------------------------------------------------

template <typename T>
class LocalTensor;

template <typename T>
class GlobalTensor {
 public:
  using PrimType = T;
  pyasc_sim_gt gt{nullptr, 0, 0, -1, 0};

  void SetGlobalBuffer(__gm__ T *buffer, uint64_t bufferSize, sim::Loc loc = {}) {
    sim::check(sim::api()->global_new(sim::ctx, &gt, buffer, static_cast<int64_t>(bufferSize),
                                      sizeof(T), loc.file, loc.line));
  }
  void SetGlobalBuffer(__gm__ T *buffer, sim::Loc loc = {}) {
    sim::check(sim::api()->global_new(sim::ctx, &gt, buffer, -1, sizeof(T), loc.file, loc.line));
  }
  GlobalTensor operator[](const uint64_t offset) const {
    GlobalTensor r;
    r.gt = sim::api()->global_slice(gt, static_cast<int64_t>(offset), sizeof(T));
    return r;
  }
  T GetValue(const uint64_t offset, sim::Loc loc = {}) const {
    double f = 0;
    int64_t i = 0;
    sim::check(sim::api()->gget(sim::ctx, sim::dtype<T>::code, gt, static_cast<int64_t>(offset), &f,
                                &i, loc.file, loc.line));
    return sim::element<T>(f, i);
  }
  void SetValue(const uint64_t offset, T value, sim::Loc loc = {}) {
    double f;
    int64_t i;
    sim::element_args(value, &f, &i);
    sim::check(sim::api()->gset(sim::ctx, sim::dtype<T>::code, gt, static_cast<int64_t>(offset), f,
                                i, loc.file, loc.line));
  }
  uint64_t GetSize() const { return static_cast<uint64_t>(sim::api()->global_size(gt)); }
};

template <typename T>
class LocalTensor {
 public:
  using PrimType = T;
  pyasc_sim_lt lt{0, 0};

  LocalTensor() = default;
  // static-tensor programming: addr in bytes into the Unified Buffer,
  // tileSize in elements
  LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize, sim::Loc loc = {}) {
    (void)pos;
    sim::check(sim::api()->local_new(sim::ctx, &lt, addr, tileSize, sizeof(T), loc.file, loc.line));
  }
  LocalTensor operator[](const uint32_t offset) const {
    LocalTensor r;
    r.lt = sim::api()->local_slice(lt, offset, sizeof(T));
    return r;
  }
  T GetValue(const uint32_t index, sim::Loc loc = {}) const {
    double f = 0;
    int64_t i = 0;
    sim::check(
        sim::api()->lget(sim::ctx, sim::dtype<T>::code, lt, index, &f, &i, loc.file, loc.line));
    return sim::element<T>(f, i);
  }
  template <typename T1>
  void SetValue(const uint32_t index, const T1 value, sim::Loc loc = {}) const {
    double f;
    int64_t i;
    sim::element_args(static_cast<T>(value), &f, &i);
    sim::check(
        sim::api()->lset(sim::ctx, sim::dtype<T>::code, lt, index, f, i, loc.file, loc.line));
  }
  uint32_t GetSize() const { return static_cast<uint32_t>(lt.len); }
  uint32_t GetLength() const { return static_cast<uint32_t>(lt.len * sizeof(T)); }
  uint64_t GetPhyAddr(sim::Loc loc = {}) const { return GetPhyAddr(0, loc); }
  uint64_t GetPhyAddr(const uint32_t offset, sim::Loc loc = {}) const {
    int64_t at = 0;
    sim::check(
        sim::api()->local_phy_addr(sim::ctx, lt, offset, sizeof(T), &at, loc.file, loc.line));
    return static_cast<uint64_t>(at);
  }
  void SetSize(const uint32_t size) { lt.len = size; }
  template <typename CAST_T>
  LocalTensor<CAST_T> ReinterpretCast() const {
    LocalTensor<CAST_T> r;
    r.lt = sim::api()->local_cast(lt, sizeof(T), sizeof(CAST_T));
    return r;
  }
};

// --- TPipe, TQue, TBuf -----------------------------------------------------------------------

class TPipe;

template <TPosition pos, int32_t depth, auto mask = 0>
class TQue {
 public:
  alignas(16) unsigned char mem[PYASC_SIM_QUE_BYTES];
  TQue() { sim::api()->que_init(mem, depth); }
  TQue(const TQue &) = delete;
  TQue &operator=(const TQue &) = delete;

  template <typename T>
  LocalTensor<T> AllocTensor(sim::Loc loc = {}) {
    LocalTensor<T> t;
    sim::check(sim::api()->alloc_tensor(sim::ctx, mem, &t.lt, sizeof(T), loc.file, loc.line));
    return t;
  }
  template <typename T>
  bool EnQue(const LocalTensor<T> &tensor, sim::Loc loc = {}) {
    sim::check(sim::api()->enque(sim::ctx, mem, tensor.lt, loc.file, loc.line));
    return true;
  }
  template <typename T>
  LocalTensor<T> DeQue(sim::Loc loc = {}) {
    LocalTensor<T> t;
    sim::check(sim::api()->deque(sim::ctx, mem, &t.lt, sizeof(T), loc.file, loc.line));
    return t;
  }
  template <typename T>
  void FreeTensor(LocalTensor<T> &tensor, sim::Loc loc = {}) {
    sim::check(sim::api()->free_tensor(sim::ctx, mem, tensor.lt, loc.file, loc.line));
  }
  // in place (depth 0): the tensor keeps its buffer
  template <typename T>
  void AllocTensor(LocalTensor<T> &tensor, sim::Loc loc = {}) {
    sim::check(sim::api()->alloc_tensor(sim::ctx, mem, &tensor.lt, sizeof(T), loc.file, loc.line));
  }
  template <typename T>
  void DeQue(LocalTensor<T> &tensor, sim::Loc loc = {}) {
    sim::check(sim::api()->deque_inplace(sim::ctx, mem, tensor.lt, &tensor.lt, loc.file, loc.line));
  }
  bool HasTensorInQue() { return sim::api()->que_query(mem, 0) > 0; }
  bool VacantInQue() { return sim::api()->que_query(mem, 1) != 0; }
  int32_t GetTensorCountInQue() { return static_cast<int32_t>(sim::api()->que_query(mem, 0)); }
  bool HasIdleBuffer() { return sim::api()->que_query(mem, 2) != 0; }
  void FreeAllEvent() {}
};

template <TPosition src, TPosition dst, int32_t depth, auto mask = 0>
class TQueBind : public TQue<src, depth, mask> {};

template <TPosition pos = TPosition::LCM>
class TBuf {
 public:
  alignas(16) unsigned char mem[PYASC_SIM_TBUF_BYTES];
  TBuf() { sim::api()->tbuf_init(mem); }
  TBuf(const TBuf &) = delete;
  TBuf &operator=(const TBuf &) = delete;

  template <typename T>
  LocalTensor<T> Get(sim::Loc loc = {}) {
    LocalTensor<T> t;
    sim::check(sim::api()->tbuf_get(sim::ctx, mem, -1, sizeof(T), &t.lt, loc.file, loc.line));
    return t;
  }
  template <typename T>
  LocalTensor<T> Get(uint32_t len, sim::Loc loc = {}) {
    LocalTensor<T> t;
    sim::check(sim::api()->tbuf_get(sim::ctx, mem, len, sizeof(T), &t.lt, loc.file, loc.line));
    return t;
  }
  template <typename T>
  LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset, sim::Loc loc = {}) {
    LocalTensor<T> t;
    sim::check(sim::api()->tbuf_get_with_offset(sim::ctx, mem, size, bufOffset, sizeof(T), &t.lt,
                                                loc.file, loc.line));
    return t;
  }
  template <typename T>
  LocalTensor<T> AllocTensor(sim::Loc loc = {}) {
    return Get<T>(loc);
  }
  template <typename T>
  void FreeTensor(LocalTensor<T> &tensor) {
    (void)tensor;
  }
};

class TPipe {
 public:
  alignas(16) unsigned char mem[PYASC_SIM_PIPE_BYTES];
  TPipe() { sim::api()->pipe_init(mem); }
  ~TPipe() { sim::api()->pipe_reset(sim::ctx, mem); }
  TPipe(const TPipe &) = delete;
  TPipe &operator=(const TPipe &) = delete;

  template <class Q>
  bool InitBuffer(Q &que, uint8_t num, uint32_t len, sim::Loc loc = {}) {
    sim::check(sim::api()->init_buffer(sim::ctx, mem, que.mem, num, len, loc.file, loc.line));
    return true;
  }
  template <TPosition pos>
  bool InitBuffer(TBuf<pos> &buf, uint32_t len, sim::Loc loc = {}) {
    sim::check(sim::api()->init_tbuf(sim::ctx, mem, buf.mem, len, loc.file, loc.line));
    return true;
  }
  void Init() {}
  void Destroy() { sim::api()->pipe_reset(sim::ctx, mem); }
  void Reset() { sim::api()->pipe_reset(sim::ctx, mem); }
  template <HardEvent evt>
  int8_t AllocEventID(sim::Loc loc = {}) {
    return event_id(1, static_cast<int>(evt), 0, loc);
  }
  template <HardEvent evt>
  int8_t FetchEventID(sim::Loc loc = {}) {
    return event_id(0, static_cast<int>(evt), 0, loc);
  }
  template <HardEvent evt>
  void ReleaseEventID(int8_t id, sim::Loc loc = {}) {
    event_id(2, static_cast<int>(evt), id, loc);
  }

 private:
  int8_t event_id(int how, int evt, int64_t id, sim::Loc loc) {
    sim::check(sim::api()->event_id(sim::ctx, mem, how, evt, &id, loc.file, loc.line));
    return static_cast<int8_t>(id);
  }
};

// --- the kernel context --------------------------------------------------------------------

inline int64_t GetBlockIdx() {
  return sim::api()->block_idx(sim::ctx);
}
inline int64_t GetBlockNum() {
  return sim::api()->block_num(sim::ctx);
}
inline int64_t GetSubBlockIdx() {
  return 0;
}
inline int64_t GetSubBlockNum() {
  return 1;
}

// --- the atomic store mode, SyncAll ------------------------------------------------------

enum class AtomicDtype : uint8_t {
  ATOMIC_NONE,
  ATOMIC_F32,
  ATOMIC_F16,
  ATOMIC_S16,
  ATOMIC_S32,
  ATOMIC_S8,
  ATOMIC_BF16
};
enum class AtomicOp : uint8_t { ATOMIC_SUM };

namespace sim {
template <typename T>
constexpr int atomic_dtype() {
  if constexpr (std::is_same_v<T, float>)
    return 1;
  else if constexpr (std::is_same_v<T, half>)
    return 2;
  else if constexpr (std::is_same_v<T, int16_t>)
    return 3;
  else if constexpr (std::is_same_v<T, int32_t>)
    return 4;
  else if constexpr (std::is_same_v<T, int8_t>)
    return 5;
  else if constexpr (std::is_same_v<T, bfloat16_t>)
    return 6;
  else
    return -1;
}
template <typename T>
inline void atomic(int op) {
  static_assert(atomic_dtype<T>() > 0,
                "atomic stores take float, half, bfloat16_t, int8_t, int16_t or int32_t");
  api()->atomic_set(ctx, atomic_dtype<T>(), op);
}
}  // namespace sim

// Stores to global memory (DataCopy, DataCopyPad UB->GM) combine with what
// is there until SetAtomicNone.
template <typename T>
inline void SetAtomicAdd() {
  sim::atomic<T>(0);
}
template <typename T>
inline void SetAtomicMax() {
  sim::atomic<T>(1);
}
template <typename T>
inline void SetAtomicMin() {
  sim::atomic<T>(2);
}
template <typename T>
inline void SetAtomicType() {
  sim::atomic<T>(-1);
}
inline void SetAtomicNone() {
  sim::api()->atomic_set(sim::ctx, 0, 0);
}
template <AtomicDtype type, AtomicOp op>
inline void SetStoreAtomicConfig() {
  sim::api()->atomic_set(sim::ctx, static_cast<int>(type), static_cast<int>(op));
}

// Every block of the launch meets here (the launch then runs all blocks at
// once: at most as many as the device has cores).
template <bool isAIVOnly = true>
inline void SyncAll(sim::Loc loc = {}) {
  sim::check(sim::api()->sync_all(sim::ctx, 0, loc.file, loc.line));
}

// --- data movement --------------------------------------------------------------------------

struct DataCopyExtParams {
  uint16_t blockCount = 1;
  uint32_t blockLen = 0;
  uint32_t srcStride = 0;
  uint32_t dstStride = 0;
  uint32_t rsv = 0;
  DataCopyExtParams() = default;
  DataCopyExtParams(const uint16_t count, const uint32_t len, const uint32_t srcStrideIn,
                    const uint32_t dstStrideIn, const uint32_t rsvIn)
      : blockCount(count),
        blockLen(len),
        srcStride(srcStrideIn),
        dstStride(dstStrideIn),
        rsv(rsvIn) {}
};
template <typename T>
struct DataCopyPadExtParams {
  bool isPad = false;
  uint8_t leftPadding = 0;
  uint8_t rightPadding = 0;
  T paddingValue = T(0);
  DataCopyPadExtParams() = default;
  DataCopyPadExtParams(const bool isPadValue, const uint8_t leftPadValue,
                       const uint8_t rightPadValue, T padValue)
      : isPad(isPadValue),
        leftPadding(leftPadValue),
        rightPadding(rightPadValue),
        paddingValue(padValue) {}
};

template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const uint32_t count,
                     sim::Loc loc = {}) {
  sim::check(sim::api()->copy(sim::ctx, PYASC_SIM_GM_UB, dst.lt, src.gt, dst.lt, count, sizeof(T),
                              loc.file, loc.line));
}
template <typename T>
inline void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t count,
                     sim::Loc loc = {}) {
  sim::check(sim::api()->copy(sim::ctx, PYASC_SIM_UB_GM, src.lt, dst.gt, src.lt, count, sizeof(T),
                              loc.file, loc.line));
}
template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t count,
                     sim::Loc loc = {}) {
  sim::check(sim::api()->copy(sim::ctx, PYASC_SIM_UB_UB, dst.lt, GlobalTensor<T>().gt, src.lt,
                              count, sizeof(T), loc.file, loc.line));
}
// DataCopy with DataCopyParams: blockCount bursts of blockLen 32-byte
// blocks, srcStride/dstStride blocks between them.
struct DataCopyParams {
  uint16_t blockCount = 1;
  uint16_t blockLen = 0;
  uint16_t srcStride = 0;
  uint16_t dstStride = 0;
  DataCopyParams() = default;
  DataCopyParams(const uint16_t count, const uint16_t len, const uint16_t srcStrideIn,
                 const uint16_t dstStrideIn)
      : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn) {}
};
template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src,
                     const DataCopyParams &repeatParams, sim::Loc loc = {}) {
  sim::check(sim::api()->copy_params(sim::ctx, PYASC_SIM_GM_UB, dst.lt, pyasc_sim_lt{0, 0}, src.gt,
                                     repeatParams.blockCount, repeatParams.blockLen,
                                     repeatParams.srcStride, repeatParams.dstStride, sizeof(T),
                                     loc.file, loc.line));
}
template <typename T>
inline void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src,
                     const DataCopyParams &repeatParams, sim::Loc loc = {}) {
  sim::check(sim::api()->copy_params(sim::ctx, PYASC_SIM_UB_GM, pyasc_sim_lt{0, 0}, src.lt, dst.gt,
                                     repeatParams.blockCount, repeatParams.blockLen,
                                     repeatParams.srcStride, repeatParams.dstStride, sizeof(T),
                                     loc.file, loc.line));
}
template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                     const DataCopyParams &repeatParams, sim::Loc loc = {}) {
  sim::check(sim::api()->copy_params(sim::ctx, PYASC_SIM_UB_UB, dst.lt, src.lt,
                                     GlobalTensor<T>().gt, repeatParams.blockCount,
                                     repeatParams.blockLen, repeatParams.srcStride,
                                     repeatParams.dstStride, sizeof(T), loc.file, loc.line));
}

template <typename T>
inline void DataCopyPad(const LocalTensor<T> &dst, const GlobalTensor<T> &src,
                        const DataCopyExtParams &dataCopyParams,
                        const DataCopyPadExtParams<T> &padParams, sim::Loc loc = {}) {
  sim::check(sim::api()->copy_pad_gm_ub(
      sim::ctx, sim::dtype<T>::code, dst.lt, src.gt, dataCopyParams.blockCount,
      dataCopyParams.blockLen, dataCopyParams.srcStride, dataCopyParams.dstStride, padParams.isPad,
      padParams.leftPadding, padParams.rightPadding, sim::to_double(padParams.paddingValue),
      loc.file, loc.line));
}
template <typename T>
inline void DataCopyPad(const GlobalTensor<T> &dst, const LocalTensor<T> &src,
                        const DataCopyExtParams &dataCopyParams, sim::Loc loc = {}) {
  sim::check(sim::api()->copy_pad_ub_gm(sim::ctx, sim::dtype<T>::code, dst.gt, src.lt,
                                        dataCopyParams.blockCount, dataCopyParams.blockLen,
                                        dataCopyParams.srcStride, dataCopyParams.dstStride,
                                        loc.file, loc.line));
}

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

// Cast<dst T, src U> mask forms.
template <typename T, typename U, bool isSetMask = true>
inline void Cast(const LocalTensor<T> &dst, const LocalTensor<U> &src, const RoundMode &roundMode,
                 const uint64_t mask[], const uint8_t repeatTime,
                 const UnaryRepeatParams &repeatParams, sim::Loc loc = {}) {
  int64_t st[4];
  sim::unary_params(repeatParams, st);
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

// --- synchronisation and debugging --------------------------------------------------------

template <HardEvent event>
inline void SetFlag(int32_t eventID, sim::Loc loc = {}) {
  sim::check(sim::api()->set_flag(sim::ctx, static_cast<int>(event), eventID, loc.file, loc.line));
}
template <HardEvent event>
inline void WaitFlag(int32_t eventID, sim::Loc loc = {}) {
  sim::check(sim::api()->wait_flag(sim::ctx, static_cast<int>(event), eventID, loc.file, loc.line));
}
template <pipe_t pipe>
inline void PipeBarrier(sim::Loc loc = {}) {
  sim::check(sim::api()->barrier(sim::ctx, static_cast<int>(pipe), loc.file, loc.line));
}
inline void Trap(sim::Loc loc = {}) {
  sim::check(sim::api()->trap(sim::ctx, loc.file, loc.line));
}

// --- the kernel's entry (pyasc.ascendc.load writes PYASC_SIM_ENTRY) -------------------------

namespace sim {

// Each parameter's kind, as the launcher packs it: a address, f float,
// b bool, i integer.
template <typename T>
constexpr char param_kind() {
  if constexpr (std::is_pointer_v<T>)
    return 'a';
  else if constexpr (std::is_same_v<T, bool>)
    return 'b';
  else if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, half> ||
                     std::is_same_v<T, bfloat16_t>)
    return 'f';
  else if constexpr (std::is_integral_v<T> || std::is_enum_v<T>)
    return 'i';
  else
    return '?';
}
template <typename T>
T param_value(const pyasc_sim_arg &a) {
  if constexpr (std::is_pointer_v<T>)
    return reinterpret_cast<T>(a.v.p);
  else if constexpr (std::is_same_v<T, bool>)
    return a.v.i != 0;
  else if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>)
    return T(static_cast<float>(a.v.f));
  else if constexpr (std::is_floating_point_v<T>)
    return static_cast<T>(a.v.f);
  else
    return static_cast<T>(a.v.i);
}

struct ParamText {
  char s[65];
};
template <typename... A>
constexpr ParamText param_text(void (*)(A...)) {
  static_assert(sizeof...(A) <= 64, "a kernel takes at most 64 parameters");
  ParamText p{};
  const char kinds[] = {param_kind<A>()..., '\0'};
  for (std::size_t i = 0; i < sizeof...(A); i++) p.s[i] = kinds[i];
  return p;
}
template <typename... A>
constexpr bool params_supported(void (*)(A...)) {
  return ((param_kind<A>() != '?') && ... && true);
}

template <typename... A, std::size_t... I>
void call(void (*f)(A...), const pyasc_sim_arg *args, std::index_sequence<I...>) {
  (void)args;
  f(param_value<A>(args[I])...);
}

// One block's run of kernel f: 0, or 1 with the message in the context.
template <typename... A>
int run(void *k, const void *args, void (*f)(A...)) {
  const pyasc_sim_api *t = api();
  if (!t || t->version != PYASC_SIM_VERSION) return 1;
  ctx = k;
  int rc = t->begin(k);
  if (!rc) {
    try {
      call(f, static_cast<const pyasc_sim_arg *>(args), std::index_sequence_for<A...>{});
    } catch (const Abort &) {
    } catch (...) {
      if (!t->failed(k)) t->fail(k, "kernel", 0, "a C++ exception left the kernel function");
    }
    t->end(k);
    rc = t->failed(k);
  }
  ctx = nullptr;
  return rc;
}

}  // namespace sim
}  // namespace AscendC

// A kernel that calls SyncAll has its blocks launched together (jit.c
// reads asc_kernel_all_live); asc_ascendc_build defines PYASC_SIM_ALL_LIVE
// when the source names SyncAll.
#if defined(PYASC_SIM_ALL_LIVE) && PYASC_SIM_ALL_LIVE
#define PYASC_SIM_ALL_LIVE_SYMBOL       \
  extern const int asc_kernel_all_live; \
  const int asc_kernel_all_live = 1;
#else
#define PYASC_SIM_ALL_LIVE_SYMBOL
#endif

#define PYASC_SIM_ENTRY(name)                                                              \
  static_assert(AscendC::sim::params_supported(&name),                                     \
                "kernel parameters must be pointers (GM_ADDR), integers, floats or bool"); \
  extern "C" {                                                                             \
  const pyasc_sim_api *pyasc_sim_table = nullptr;                                          \
  extern const int pyasc_sim_checked;                                                      \
  const int pyasc_sim_checked = PYASC_SIM_CHECKED;                                         \
  int asc_kernel_entry(void *k, const void *args) {                                        \
    return AscendC::sim::run(k, args, &name);                                              \
  }                                                                                        \
  PYASC_SIM_ALL_LIVE_SYMBOL                                                                \
  extern const AscendC::sim::ParamText asc_kernel_params;                                  \
  const AscendC::sim::ParamText asc_kernel_params = AscendC::sim::param_text(&name);       \
  }

#endif
