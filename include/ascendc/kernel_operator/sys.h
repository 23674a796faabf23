// Part of kernel_operator.h, included only from it: the core's initial state (InitSocState),
// constants, type traits (IsSameType), caches and barriers, printf, SetPadValue, Brcb, the
// physical memories (Hardware) and LocalMemAllocator; the scalar min and max.

// The simulated core is a 910B's (Atlas A2): sources that test the architecture take its
// branches, as the device compiler's would.
#ifndef __NPU_ARCH__
#define __NPU_ARCH__ 2201
#endif

// The device compiler's scalar min and max, which kernels call unqualified (CANN's
// softmaxflashv3 example does). Plain overloads, not templates: beside `using namespace std`
// a call with two arguments of one type picks these over std::min exactly.
#define PYASC_SCALAR_MIN_MAX(T)                  \
  inline constexpr T min(const T a, const T b) { \
    return b < a ? b : a;                        \
  }                                              \
  inline constexpr T max(const T a, const T b) { \
    return a < b ? b : a;                        \
  }
PYASC_SCALAR_MIN_MAX(int16_t)
PYASC_SCALAR_MIN_MAX(uint16_t)
PYASC_SCALAR_MIN_MAX(int32_t)
PYASC_SCALAR_MIN_MAX(uint32_t)
PYASC_SCALAR_MIN_MAX(int64_t)
PYASC_SCALAR_MIN_MAX(uint64_t)
PYASC_SCALAR_MIN_MAX(float)
#undef PYASC_SCALAR_MIN_MAX

namespace AscendC {

namespace sim {
// printf's arguments as C's varargs take them: half and bfloat16_t as double.
template <class A>
inline auto printf_arg(A a) {
  if constexpr (std::is_same_v<A, half> || std::is_same_v<A, bfloat16_t>)
    return static_cast<double>(static_cast<float>(a));
  else
    return a;
}
}  // namespace sim

// --- the core's state ------------------------------------------------------------------------

// The state a kernel starts from, as dav-2201 sets it: the vector mask (the runtime's
// InitSocState) and no atomic store.
inline void InitSocState(sim::Loc loc = {}) {
  int64_t out = 0;
  sim::check(sim::api()->vec_more(sim::ctx, PYASC_SIM_VEC_INIT_SOC_STATE, nullptr, nullptr,
                                  GlobalTensor<int32_t>().gt, 0, &out, loc.file, loc.line));
  SetAtomicNone();
}

// No atomic store: DataCopy to global memory writes (SetAtomicNone's register).
inline void DisableDmaAtomic() {
  SetAtomicNone();
}

// --- constants ------------------------------------------------------------------------------

constexpr uint32_t ONE_BLK_SIZE = 32;  // bytes of a data block
constexpr int32_t ONE_REPEAT_BYTE_SIZE = 256;
constexpr uint32_t BLOCK_CUBE = 16;
constexpr uint32_t DEFAULT_BLK_NUM = 8;
constexpr uint8_t DEFAULT_BLK_STRIDE = 1;
constexpr uint8_t DEFAULT_REPEAT_STRIDE = 8;
// the mask argument of a level-0 form whose isSetMask is false (the mask register is used)
constexpr uint64_t MASK_PLACEHOLDER = 0;
// The 910B's (dav-2201) buffer sizes in bytes, as CANN's headers give them: L1 less the
// 128 bytes its Matmul server keeps (KFC_L1_RESERVER_SIZE), the UB and the part of it
// vector code may take below the temporary area (TMP_UB_OFFSET).
#ifndef KFC_L1_RESERVER_SIZE
#define KFC_L1_RESERVER_SIZE 128
#endif
constexpr uint32_t TOTAL_L1_SIZE = 512 * 1024 - KFC_L1_RESERVER_SIZE;
constexpr uint32_t TOTAL_L0A_SIZE = 64 * 1024;
constexpr uint32_t TOTAL_L0B_SIZE = 64 * 1024;
constexpr uint32_t TOTAL_L0C_SIZE = 128 * 1024;
constexpr uint32_t TOTAL_UB_SIZE = 192 * 1024;
constexpr int32_t TOTAL_VEC_LOCAL_SIZE = 184 * 1024;
constexpr uint32_t TMP_UB_OFFSET = 184 * 1024;
constexpr uint32_t SINGLE_MSG_SIZE = 64;
constexpr uint32_t CACHE_LINE_SIZE = 64;

constexpr uint32_t DivCeil(uint32_t a, uint32_t b) {
  return (a + b - 1) / b;
}
constexpr uint32_t AlignUp(uint32_t a, uint32_t b) {
  return DivCeil(a, b) * b;
}

// --- type traits ------------------------------------------------------------------------------

template <typename T, typename U>
struct IsSameType : std::false_type {};
template <typename T>
struct IsSameType<T, T> : std::true_type {};
template <bool cond, typename A, typename B>
struct Conditional : std::conditional<cond, A, B> {};

// --- caches, barriers, task order ------------------------------------------------------------

// The simulated cores have no data cache and their stores reach memory at once: a cache flush
// and a data barrier have nothing to order.
enum class CacheLine : uint8_t { SINGLE_CACHE_LINE, ENTIRE_DATA_CACHE };
enum class DcciDst : uint8_t { CACHELINE_ALL, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };
enum class MemDsbT : uint8_t { ALL, DDR, UB, SEQ };
template <typename T, CacheLine entireType, DcciDst dcciDst>
inline void DataCacheCleanAndInvalid(const GlobalTensor<T> &dst) {
  (void)dst;
}
template <typename T, CacheLine entireType, DcciDst dcciDst>
inline void DataCacheCleanAndInvalid(const LocalTensor<T> &dst) {
  (void)dst;
}
template <typename T, CacheLine entireType>
inline void DataCacheCleanAndInvalid(const GlobalTensor<T> &dst) {
  (void)dst;
}
template <MemDsbT arg0>
inline void DataSyncBarrier() {}
// A scalar access to global memory past the data cache: the element access of a GlobalTensor
// over that one element (checked against the launch's arguments).
template <typename T>
inline void WriteGmByPassDCache(__gm__ T *addr, T value, sim::Loc loc = {}) {
  GlobalTensor<T> g;
  g.SetGlobalBuffer(addr, 1, loc);
  g.SetValue(0, value, loc);
}
template <typename T>
inline T ReadGmByPassDCache(__gm__ T *addr, sim::Loc loc = {}) {
  GlobalTensor<T> g;
  g.SetGlobalBuffer(addr, 1, loc);
  return g.GetValue(0, loc);
}
// A kernel runs alone on the simulator (no SuperKernel fusion): nothing to wait for.
template <pipe_t AIV_PIPE = PIPE_MTE3, pipe_t AIC_PIPE = PIPE_FIX, bool FORCE = false>
inline void SetNextTaskStart() {}
template <bool FORCE = false>
inline void WaitPreTaskEnd() {}

// The cycle counter (the runtime's: the host's clock at the core's 50 MHz).
inline int64_t GetSystemCycle(sim::Loc loc = {}) {
  int64_t out = 0;
  sim::check(sim::api()->vec_more(sim::ctx, PYASC_SIM_VEC_SYSTEM_CYCLE, nullptr, nullptr,
                                  GlobalTensor<int32_t>().gt, 0, &out, loc.file, loc.line));
  return out;
}

// --- printf ---------------------------------------------------------------------------------

// The device's printf, written at once to the host's standard output (blocks run on threads:
// one call's text is not split, but blocks interleave).
template <class... Args>
inline void printf(const char *fmt, Args... args) {
  static std::mutex lock;
  std::lock_guard<std::mutex> hold(lock);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-security"
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  std::printf(fmt, sim::printf_arg(args)...);
#pragma GCC diagnostic pop
  std::fflush(stdout);
}
template <class... Args>
inline void PRINTF(const char *fmt, Args... args) {
  printf(fmt, args...);
}

// --- SetPadValue, Brcb ----------------------------------------------------------------------

// What DataCopyPad GM -> UB with isPad false writes after each row up to its 32-byte boundary.
template <typename T, TPosition pos = TPosition::MAX>
inline void SetPadValue(T paddingValue, sim::Loc loc = {}) {
  int64_t out = 0;
  sim::check(sim::api()->vec_more(sim::ctx, PYASC_SIM_VEC_SET_PAD_VALUE, nullptr, nullptr,
                                  GlobalTensor<T>().gt, sim::to_double(paddingValue), &out,
                                  loc.file, loc.line));
}

// DataCopyPad with DataCopyParams (blockLen and srcStride in bytes on the GM side, dstStride in
// 32-byte blocks in the UB) and the older padding struct, whose paddingValue holds the element's
// bits.
struct DataCopyPadParams {
  DataCopyPadParams() = default;
  DataCopyPadParams(const bool isPadValue, const uint8_t leftPadValue, const uint8_t rightPadValue,
                    const uint64_t padValue)
      : isPad(isPadValue),
        leftPadding(leftPadValue),
        rightPadding(rightPadValue),
        paddingValue(padValue) {}
  bool isPad = false;
  uint8_t leftPadding = 0;
  uint8_t rightPadding = 0;
  uint64_t paddingValue = 0;
};
template <typename T>
inline void DataCopyPad(const LocalTensor<T> &dst, const GlobalTensor<T> &src,
                        const DataCopyParams &dataCopyParams, const DataCopyPadParams &padParams,
                        sim::Loc loc = {}) {
  static_assert(sizeof(T) <= sizeof(uint64_t), "DataCopyPad: elements of at most 8 bytes");
  T value{};
  __builtin_memcpy(static_cast<void *>(&value), &padParams.paddingValue, sizeof(T));
  sim::check(sim::api()->copy_pad_gm_ub(
      sim::ctx, sim::dtype<T>::code, dst.lt, src.gt, dataCopyParams.blockCount,
      dataCopyParams.blockLen, dataCopyParams.srcStride, dataCopyParams.dstStride, padParams.isPad,
      padParams.leftPadding, padParams.rightPadding, sim::to_double(value), loc.file, loc.line));
}
template <typename T>
inline void DataCopyPad(const GlobalTensor<T> &dst, const LocalTensor<T> &src,
                        const DataCopyParams &dataCopyParams, sim::Loc loc = {}) {
  sim::check(sim::api()->copy_pad_ub_gm(sim::ctx, sim::dtype<T>::code, dst.gt, src.lt,
                                        dataCopyParams.blockCount, dataCopyParams.blockLen,
                                        dataCopyParams.srcStride, dataCopyParams.dstStride,
                                        loc.file, loc.line));
}

// --- DataCopy with SliceInfo lists --------------------------------------------------------

constexpr int32_t K_MAX_DIM = 8;
// One dimension of a slice, innermost first: bursts of burstLen 32-byte blocks (single indices
// beyond dimension 0) from startIndex to endIndex, stride apart, in a dimension of shapeValue.
struct SliceInfo {
  SliceInfo() = default;
  SliceInfo(const uint32_t startIndexIn, const uint32_t endIndexIn, const uint32_t strideIn,
            const uint32_t burstLenIn, const uint32_t shapeValueIn = 0)
      : startIndex(startIndexIn),
        endIndex(endIndexIn),
        stride(strideIn),
        burstLen(burstLenIn),
        shapeValue(shapeValueIn) {}
  uint32_t startIndex = 0;
  uint32_t endIndex = 0;
  uint32_t stride = 0;
  uint32_t burstLen = 0;
  uint32_t shapeValue = 0;
};
namespace sim {
// The runtime takes up to 3 dimensions (rt/slice_copy.h); more fail there with a message.
inline void copy_slice(int dir, pyasc_sim_lt l, pyasc_sim_gt g, const SliceInfo dstSliceInfo[],
                       const SliceInfo srcSliceInfo[], uint32_t dimValue, int64_t es, Loc loc) {
  int64_t v[3 + 2 * 5 * 3] = {dir, dimValue, es};
  const uint32_t dims = dimValue <= 3 ? dimValue : 0;
  for (uint32_t side = 0; side < 2; ++side)
    for (uint32_t d = 0; d < dims; ++d) {
      const SliceInfo &f = side ? srcSliceInfo[d] : dstSliceInfo[d];
      int64_t *o = v + 3 + (side * dims + d) * 5;
      o[0] = f.startIndex, o[1] = f.endIndex, o[2] = f.stride, o[3] = f.burstLen;
      o[4] = f.shapeValue;
    }
  int64_t out = 0;
  check(api()->vec_more(ctx, PYASC_SIM_VEC_COPY_SLICE, v, &l, g, 0, &out, loc.file, loc.line));
}
}  // namespace sim
template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src,
                     const SliceInfo dstSliceInfo[], const SliceInfo srcSliceInfo[],
                     const uint32_t dimValue = 1, sim::Loc loc = {}) {
  sim::copy_slice(0, dst.lt, src.gt, dstSliceInfo, srcSliceInfo, dimValue, sizeof(T), loc);
}
template <typename T>
inline void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src,
                     const SliceInfo dstSliceInfo[], const SliceInfo srcSliceInfo[],
                     const uint32_t dimValue = 1, sim::Loc loc = {}) {
  sim::copy_slice(1, src.lt, dst.gt, dstSliceInfo, srcSliceInfo, dimValue, sizeof(T), loc);
}

struct BrcbRepeatParams {
  BrcbRepeatParams() = default;
  BrcbRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t dstRepStrideIn)
      : dstRepStride(dstRepStrideIn), dstBlkStride(dstBlkStrideIn) {}
  uint32_t blockNumber = DEFAULT_BLK_NUM;
  uint16_t dstRepStride = DEFAULT_REPEAT_STRIDE;
  uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
};
// Each of src's 8 * repeatTime elements fills one 32-byte block of dst.
template <typename T>
inline void Brcb(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint8_t repeatTime,
                 const BrcbRepeatParams &repeatParams, sim::Loc loc = {}) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Brcb takes 16- and 32-bit elements");
  const int64_t v[4] = {repeatTime, repeatParams.dstBlkStride, repeatParams.dstRepStride,
                        static_cast<int64_t>(sizeof(T))};
  const pyasc_sim_lt t[2] = {dst.lt, src.lt};
  int64_t out = 0;
  sim::check(sim::api()->vec_more(sim::ctx, PYASC_SIM_VEC_BRCB, v, t, GlobalTensor<T>().gt, 0, &out,
                                  loc.file, loc.line));
}

// --- the physical memories and LocalMemAllocator ------------------------------------------------

enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };

// The memory a logical position is in (dav-2201), and a memory's default position.
constexpr Hardware GetPhyType(TPosition pos) {
  switch (pos) {
    case TPosition::GM:
    case TPosition::CO2:
      return Hardware::GM;
    case TPosition::A1:
    case TPosition::B1:
    case TPosition::C1:
    case TPosition::TSCM:
      return Hardware::L1;
    case TPosition::A2:
      return Hardware::L0A;
    case TPosition::B2:
      return Hardware::L0B;
    case TPosition::CO1:
      return Hardware::L0C;
    case TPosition::C2:
      return Hardware::BIAS;
    default:
      return Hardware::UB;
  }
}
constexpr TPosition GetDefaultPosition(Hardware hard) {
  switch (hard) {
    case Hardware::UB:
      return TPosition::VECCALC;
    case Hardware::L1:
      return TPosition::A1;
    case Hardware::L0A:
      return TPosition::A2;
    case Hardware::L0B:
      return TPosition::B2;
    case Hardware::L0C:
      return TPosition::CO1;
    case Hardware::BIAS:
      return TPosition::C2;
    default:
      return TPosition::MAX;
  }
}

// Static tensors laid out one after another in one memory, from its byte 0 in the order of the
// Alloc calls (no alignment added, as on the device).
template <Hardware hard = Hardware::UB>
class LocalMemAllocator {
  static_assert(hard == Hardware::UB || hard == Hardware::L1 || hard == Hardware::L0A ||
                    hard == Hardware::L0B || hard == Hardware::L0C,
                "LocalMemAllocator: the simulator has the UB, L1, L0A, L0B and L0C");

 public:
  LocalMemAllocator() = default;
  uint32_t GetCurAddr() const { return head_; }

  template <TPosition pos, class DataType, uint32_t tileSize>
  LocalTensor<DataType> Alloc(sim::Loc loc = {}) {
    static_assert(GetPhyType(pos) == hard, "logic pos and hardware pos not matched.");
    return take<DataType>(pos, tileSize, loc);
  }
  template <TPosition pos, class DataType>
  LocalTensor<DataType> Alloc(uint32_t tileSize, sim::Loc loc = {}) {
    static_assert(GetPhyType(pos) == hard, "logic pos and hardware pos not matched.");
    return take<DataType>(pos, tileSize, loc);
  }
  template <class DataType, uint32_t tileSize>
  LocalTensor<DataType> Alloc(sim::Loc loc = {}) {
    return take<DataType>(GetDefaultPosition(hard), tileSize, loc);
  }
  template <class DataType>
  LocalTensor<DataType> Alloc(uint32_t tileSize, sim::Loc loc = {}) {
    return take<DataType>(GetDefaultPosition(hard), tileSize, loc);
  }

 private:
  template <class DataType>
  LocalTensor<DataType> take(TPosition pos, uint32_t tileSize, sim::Loc loc) {
    LocalTensor<DataType> t(pos, head_, tileSize, loc);
    // past 4 GiB the next Alloc's address is out of every buffer, and its constructor says so
    const uint64_t next = uint64_t{head_} + uint64_t{sizeof(DataType)} * tileSize;
    head_ = next > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(next);
    return t;
  }
  uint32_t head_ = 0;
};

// --- GroupBarrier, InitOutput ------------------------------------------------------------------

// The unit that sends a GroupBarrier's messages (only MTE3_MODE on the device).
enum class PipeMode : uint8_t { SCALAR_MODE = 0, MTE3_MODE = 1, MAX };

// arriveSize cores Arrive, waitSize cores Wait until all of them have, round after round; the
// messages live in the waitSize * 512 bytes of GM at groupWorkspace, which the user clears.
template <PipeMode pipeMode>
class GroupBarrier {
 public:
  GroupBarrier(GM_ADDR groupWorkspace, uint32_t arriveSizeIn, uint32_t waitSizeIn,
               sim::Loc loc = {})
      : arrive_(arriveSizeIn), wait_(waitSizeIn) {
    static_assert(pipeMode == PipeMode::MTE3_MODE, "GroupBarrier takes PipeMode::MTE3_MODE");
    ws_.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(groupWorkspace), loc);
  }
  void Arrive(uint32_t arriveIndex, sim::Loc loc = {}) {
    const int64_t v[3] = {arrive_, wait_, arriveIndex};
    int64_t out = 0;
    sim::check(sim::api()->vec_more(sim::ctx, PYASC_SIM_VEC_GROUP_ARRIVE, v, nullptr, ws_.gt, 0,
                                    &out, loc.file, loc.line));
  }
  void Wait(uint32_t waitIndex, sim::Loc loc = {}) {
    const int64_t v[4] = {arrive_, wait_, waitIndex, ++rounds_};
    int64_t out = 0;
    sim::check(sim::api()->vec_more(sim::ctx, PYASC_SIM_VEC_GROUP_WAIT, v, nullptr, ws_.gt, 0, &out,
                                    loc.file, loc.line));
  }
  uint64_t GetWorkspaceLen() { return static_cast<uint64_t>(wait_) * 512; }

 private:
  GlobalTensor<int32_t> ws_;
  int64_t arrive_, wait_, rounds_ = 0;
};

// size elements of gmWorkspaceAddr set to value, stored as DataCopy stores (atomic mode
// included). InitOutput is Fill's former name.
template <typename T>
inline void Fill(GlobalTensor<T> &gmWorkspaceAddr, const uint64_t size, const T value,
                 sim::Loc loc = {}) {
  double f;
  int64_t i;
  sim::element_args(value, &f, &i);
  if constexpr (!sim::is_float_v<T>) f = static_cast<double>(i);
  const int64_t v[2] = {sim::dtype<T>::code, static_cast<int64_t>(size)};
  int64_t out = 0;
  sim::check(sim::api()->vec_more(sim::ctx, PYASC_SIM_VEC_GM_FILL, v, nullptr, gmWorkspaceAddr.gt,
                                  f, &out, loc.file, loc.line));
}
template <typename T>
inline void InitOutput(GlobalTensor<T> gmWorkspaceAddr, uint32_t size, T value = 0,
                       sim::Loc loc = {}) {
  Fill(gmWorkspaceAddr, size, value, loc);
}

}  // namespace AscendC

// GetTPipePtr() is global as well as in AscendC.
using AscendC::GetTPipePtr;

// A check in the kernel: when expr is false, the message and the block stops at the call.
#define ascendc_assert(expr, ...)                                                            \
  do {                                                                                       \
    if (!(expr)) {                                                                           \
      AscendC::printf("[ASSERT] %s:%d: Assertion `%s' failed\n", __FILE__, __LINE__, #expr); \
      AscendC::printf("" __VA_ARGS__);                                                       \
      AscendC::Trap();                                                                       \
    }                                                                                        \
  } while (0)

// CANN's kernel log, as its CPU debug build prints it: KERNEL_LOG(KERNEL_ERROR, "fmt", ...) writes
// "[ERROR][Block_n][file:line] ..." (the format must be a string literal, as in CANN).
#define KERNEL_LOG(level, format, ...) KERNEL_LOG_##level(format, ##__VA_ARGS__)
#define PYASC_KERNEL_LOG_AT(name, format, ...)                \
  AscendC::printf("[" name "][Block_%d][%s:%d] " format "\n", \
                  static_cast<int>(AscendC::GetBlockIdx()), __FILE__, __LINE__, ##__VA_ARGS__)
#define KERNEL_LOG_KERNEL_DEBUG(format, ...) PYASC_KERNEL_LOG_AT("DEBUG", format, ##__VA_ARGS__)
#define KERNEL_LOG_KERNEL_INFO(format, ...) PYASC_KERNEL_LOG_AT("INFO", format, ##__VA_ARGS__)
#define KERNEL_LOG_KERNEL_WARN(format, ...) PYASC_KERNEL_LOG_AT("WARN", format, ##__VA_ARGS__)
#define KERNEL_LOG_KERNEL_ERROR(format, ...) PYASC_KERNEL_LOG_AT("ERROR", format, ##__VA_ARGS__)

// CANN's branch hints, which its kernel headers define for kernels and host code alike.
#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif

// CANN's ASSERT(x) and DEBUG_CODE(code) as its CPU debug build has them (the device build drops
// both): a false x stops the block at the call, as ascendc_assert does.
#ifndef ASSERT
#define ASSERT(x) ascendc_assert(x)
#endif
#define DEBUG_CODE(T) T

// CANN's ASCENDC_ASSERT(cond, behavior) as its CPU debug build has it (the device build drops
// it): a false cond runs behavior and stops the block at the call.
#define ASCENDC_ASSERT(cond, behavior)                                                           \
  do {                                                                                           \
    if (!(cond)) {                                                                               \
      behavior;                                                                                  \
      AscendC::printf("[ASSERT] %s:%d: ASCENDC_ASSERT(%s) failed\n", __FILE__, __LINE__, #cond); \
      AscendC::Trap();                                                                           \
    }                                                                                            \
  } while (0)
