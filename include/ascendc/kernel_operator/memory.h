// Part of kernel_operator.h, included only from it: tensors, TPipe/TQue/TBuf, the kernel context,
// atomic stores and SyncAll.

namespace AscendC {

// --- tensors -----------------------------------------------------------------------------

namespace sim {
// The cube buffer a queue at pos lives in: 0 L1 (A1, B1, C1, C2), 1 L0A (A2), 2 L0B (B2), 3 L0C
// (CO1); -1 the Unified Buffer.
constexpr int cube_buffer(TPosition pos) {
  return pos == TPosition::A1 || pos == TPosition::B1 || pos == TPosition::C1 ||
                 pos == TPosition::C2
             ? 0
         : pos == TPosition::A2  ? 1
         : pos == TPosition::B2  ? 2
         : pos == TPosition::CO1 ? 3
                                 : -1;
}
}  // namespace sim

template <typename T>
class LocalTensor;
namespace sim {
// An operator of two LocalTensors (Ascend C's SymbolOverrideAdd and the rest), which the
// assignment to a LocalTensor runs (vector.h: run).
template <typename T, int Op>
struct SymbolOverride {
  const LocalTensor<T> *src0, *src1;
  void run(const LocalTensor<T> &dst) const;
};
}  // namespace sim

// A LocalTensor's shape as the adv APIs read it (SoftMax takes its rows and row length from
// its source's when no SoftMaxShapeInfo gives them): dims, the original (unpadded) dims,
// the format.
constexpr int32_t K_MAX_SHAPE_DIM = 8;
struct ShapeInfo {
  ShapeInfo() = default;
  ShapeInfo(const uint8_t dim, const uint32_t inputShape[], const uint8_t originalDim,
            const uint32_t inputOriginalShape[], const DataFormat format)
      : shapeDim(dim), originalShapeDim(originalDim), dataFormat(format) {
    for (int i = 0; i < shapeDim && i < K_MAX_SHAPE_DIM; ++i) shape[i] = inputShape[i];
    for (int i = 0; i < originalShapeDim && i < K_MAX_SHAPE_DIM; ++i)
      originalShape[i] = inputOriginalShape[i];
  }
  ShapeInfo(const uint8_t dim, const uint32_t inputShape[],
            const DataFormat format = DataFormat::ND)
      : ShapeInfo(dim, inputShape, dim, inputShape, format) {}
  uint8_t shapeDim = 0;
  uint8_t originalShapeDim = 0;
  uint32_t shape[K_MAX_SHAPE_DIM] = {};
  uint32_t originalShape[K_MAX_SHAPE_DIM] = {};
  DataFormat dataFormat = DataFormat::ND;
};

// How global memory accesses use the L2 cache (GlobalTensor::SetL2CacheHint).
enum class CacheMode {
  CACHE_MODE_DISABLE = 0,
  CACHE_MODE_NORMAL = 1,
  CACHE_MODE_LAST = 2,
  CACHE_MODE_PERSISTENT = 4
};
enum class CacheRwMode { READ = 1, WRITE = 2, RW = 3 };

template <typename T>
class GlobalTensor {
 public:
  using PrimType = T;
  pyasc_sim_gt gt{nullptr, 0, 0, -1, 0};

  void SetGlobalBuffer(__gm__ T *buffer, uint64_t bufferSize, sim::Loc loc = {}) {
    int64_t size = static_cast<int64_t>(bufferSize);
    if constexpr (sim::is_i4_v<T>)  // int4b_t: the runtime holds the size in bytes
      sim::i4({PYASC_SIM_I4_GM_OFFSET, size, 1}, {}, &size, loc);
    sim::check(sim::api()->global_new(sim::ctx, &gt, buffer, size, sizeof(T), loc.file, loc.line));
  }
  void SetGlobalBuffer(__gm__ T *buffer, sim::Loc loc = {}) {
    sim::check(sim::api()->global_new(sim::ctx, &gt, buffer, -1, sizeof(T), loc.file, loc.line));
  }
  GlobalTensor operator[](const uint64_t offset) const {
    GlobalTensor r;
    int64_t off = static_cast<int64_t>(offset);
    if constexpr (sim::is_i4_v<T>) sim::i4({PYASC_SIM_I4_GM_OFFSET, off, 0}, {}, &off, sim::Loc{});
    r.gt = sim::api()->global_slice(gt, off, sizeof(T));
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
  uint64_t GetSize() const {
    const uint64_t n = static_cast<uint64_t>(sim::api()->global_size(gt));
    return sim::is_i4_v<T> ? 2 * n : n;  // int4b_t: two elements a byte
  }
  // A hint for the L2 cache: accesses do not change, the timing model's L2 reads it.
  template <CacheRwMode rwMode = CacheRwMode::RW>
  void SetL2CacheHint(CacheMode mode, sim::Loc loc = {}) {
    const int64_t v[2] = {static_cast<int64_t>(mode), static_cast<int64_t>(rwMode)};
    sim::check(sim::api()->vec_more(sim::ctx, PYASC_SIM_VEC_L2_HINT, v, nullptr, gt, 0.0, nullptr,
                                    loc.file, loc.line));
  }
  // the address of element offset (no memory of its own: a pointer into the launch argument)
  __gm__ T *GetPhyAddr(const uint64_t offset = 0) const {
    if constexpr (sim::is_i4_v<T>) return (*this)[offset].GetPhyAddr();
    return reinterpret_cast<__gm__ T *>(gt.base + gt.lead) + offset;
  }
};

template <typename T>
class LocalTensor {
 public:
  using PrimType = T;
  pyasc_sim_lt lt{0, 0};
  TPosition pos_ = TPosition::VECCALC;  // where its buffer is: GetPosition
  ShapeInfo shape_;                     // SetShapeInfo's (none: 0 dims)

  LocalTensor() = default;
  // static-tensor programming: addr in bytes into the Unified Buffer,
  // tileSize in elements
  // (at a cube position: the byte addr of its buffer, L1, L0A, L0B or L0C)
  LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize, sim::Loc loc = {}) : pos_(pos) {
    const int buf = sim::cube_buffer(pos);
    const pyasc_sim_api *t = sim::api();
    if (pos == TPosition::C2PIPE2GM || pos == TPosition::C2PIPE2LOCAL)
      sim::check(t->fail(sim::ctx, loc.file, loc.line,
                         "LocalTensor: the fixpipe buffer (C2PIPE2GM) is not simulated yet"));
    else if constexpr (sim::is_i4_v<T>)
      lt = sim::i4_lt({PYASC_SIM_I4_NEW, buf, addr, tileSize}, {}, loc);
    else if (buf < 0)
      sim::check(t->local_new(sim::ctx, &lt, addr, tileSize, sizeof(T), loc.file, loc.line));
    else if (!t->cube_local_new)
      sim::check(t->fail(sim::ctx, loc.file, loc.line, "the cube: no cube table for this kernel"));
    else
      sim::check(
          t->cube_local_new(sim::ctx, &lt, buf, addr, tileSize, sizeof(T), loc.file, loc.line));
  }
  LocalTensor operator[](const uint32_t offset) const {
    LocalTensor r;
    r.pos_ = pos_;
    if constexpr (sim::is_i4_v<T>)
      r.lt = sim::i4_lt({PYASC_SIM_I4_SLICE, offset}, {lt}, sim::Loc{});
    else
      r.lt = sim::api()->local_slice(lt, offset, sizeof(T));
    return r;
  }
  T GetValue(const uint32_t index, sim::Loc loc = {}) const {
    double f = 0;
    int64_t i = 0;
    if constexpr (sim::is_i4_v<T>) {
      sim::i4({PYASC_SIM_I4_GET, index}, {lt}, &i, loc);
      return T(static_cast<int>(i));
    }
    sim::check(
        sim::api()->lget(sim::ctx, sim::dtype<T>::code, lt, index, &f, &i, loc.file, loc.line));
    return sim::element<T>(f, i);
  }
  template <typename T1>
  void SetValue(const uint32_t index, const T1 value, sim::Loc loc = {}) const {
    double f;
    int64_t i;
    if constexpr (sim::is_i4_v<T>) {
      sim::i4({PYASC_SIM_I4_SET, index, static_cast<int64_t>(value)}, {lt}, nullptr, loc);
      return;
    }
    sim::element_args(static_cast<T>(value), &f, &i);
    sim::check(
        sim::api()->lset(sim::ctx, sim::dtype<T>::code, lt, index, f, i, loc.file, loc.line));
  }
  uint32_t GetSize() const { return static_cast<uint32_t>(lt.len); }
  // dst = src0 + src1 (and -, *, /, |, &): Ascend C's symbol overloads, the binary count form
  // over all of dst (dst.GetSize() elements), run when assigned.
  sim::SymbolOverride<T, 0> operator+(const LocalTensor &src1) const { return {this, &src1}; }
  sim::SymbolOverride<T, 1> operator-(const LocalTensor &src1) const { return {this, &src1}; }
  sim::SymbolOverride<T, 2> operator*(const LocalTensor &src1) const { return {this, &src1}; }
  sim::SymbolOverride<T, 3> operator/(const LocalTensor &src1) const { return {this, &src1}; }
  sim::SymbolOverride<T, 4> operator|(const LocalTensor &src1) const { return {this, &src1}; }
  sim::SymbolOverride<T, 5> operator&(const LocalTensor &src1) const { return {this, &src1}; }
  template <int Op>
  void operator=(const sim::SymbolOverride<T, Op> &e) {
    e.run(*this);
  }
  // the TPosition of the queue, TBuf or address it came from, as a number
  int32_t GetPosition() const { return static_cast<int32_t>(pos_); }
  void SetShapeInfo(const ShapeInfo &shapeInfo) { shape_ = shapeInfo; }
  ShapeInfo GetShapeInfo() const { return shape_; }
  // bytes: an int4b_t tensor's elements take half a byte each
  uint32_t GetLength() const {
    return static_cast<uint32_t>(sim::is_i4_v<T> ? (lt.len + 1) / 2 : lt.len * sizeof(T));
  }
  uint64_t GetPhyAddr(sim::Loc loc = {}) const { return GetPhyAddr(0, loc); }
  uint64_t GetPhyAddr(const uint32_t offset, sim::Loc loc = {}) const {
    int64_t at = 0;
    if constexpr (sim::is_i4_v<T>) {
      sim::i4({PYASC_SIM_I4_PHY_ADDR, offset}, {lt}, &at, loc);
      return static_cast<uint64_t>(at);
    }
    sim::check(
        sim::api()->local_phy_addr(sim::ctx, lt, offset, sizeof(T), &at, loc.file, loc.line));
    return static_cast<uint64_t>(at);
  }
  void SetSize(const uint32_t size) { lt.len = size; }
  // The buffer's length in bytes (whole elements); SetAddrWithOffset: src's address plus
  // offset of src's elements, as far as src reaches; a buffer's user tag (0 if none).
  void SetBufferLen(uint32_t dataLen, sim::Loc loc = {});
  template <typename T1>
  void SetAddrWithOffset(LocalTensor<T1> &src, uint32_t offset, sim::Loc loc = {});
  void SetUserTag(const int32_t tag, sim::Loc loc = {});
  int32_t GetUserTag(sim::Loc loc = {}) const;
  template <typename CAST_T>
  LocalTensor<CAST_T> ReinterpretCast() const {
    LocalTensor<CAST_T> r;
    r.pos_ = pos_;
    if constexpr (sim::is_i4_v<T> || sim::is_i4_v<CAST_T>) {
      const int64_t from = sim::is_i4_v<T> ? 4 : 8 * sizeof(T),
                    to = sim::is_i4_v<CAST_T> ? 4 : 8 * sizeof(CAST_T);
      r.lt = sim::i4_lt({PYASC_SIM_I4_REINTERPRET, from, to}, {lt}, sim::Loc{});
    } else {
      r.lt = sim::api()->local_cast(lt, sizeof(T), sizeof(CAST_T));
    }
    return r;
  }
};

// --- TPipe, TQue, TBuf -----------------------------------------------------------------------

class TPipe;
namespace sim {
// GetTPipePtr(): the core's latest TPipe still alive (a core runs on one thread)
inline thread_local TPipe *cur_pipe = nullptr;
}  // namespace sim

// A custom TBufPool's memory blocks (GetBufHandle); only their identity matters here.
using TBufHandle = uint8_t *;

namespace sim {
// A TBufPool's state, and a custom pool's (EXTERN_IMPL_BUFPOOL, pool.h): the runtime's pool (a
// TPipe over part of its parent's memory, rt/fwk.h) and the custom pool's bookkeeping.
template <uint32_t bufIDSize>
struct PoolImpl {
  static_assert(bufIDSize >= 1 && bufIDSize <= 16, "a TBufPool's bufIDSize is in [1, 16]");
  alignas(16) unsigned char mem[PYASC_SIM_PIPE_BYTES];
  uint32_t startAddr_ = 0, maxAddr_ = 0;
  uint8_t curBufSize_ = 0;
  uint8_t handles_[bufIDSize] = {};
  PoolImpl() {
    const int64_t v[1] = {bufIDSize};
    api()->pool_more(ctx, PYASC_SIM_POOL_NEW, mem, nullptr, nullptr, v, nullptr, nullptr, 0);
  }
  PoolImpl(const PoolImpl &) = delete;
  PoolImpl &operator=(const PoolImpl &) = delete;
};
// What TPipe, TQue and TBuf do with a pool P (TBufPool or a custom pool): its state is its
// tBufPoolImpl, the one name both kinds have.
struct PoolAccess {
  template <class P>
  static bool init(void *parent, P &pool, uint32_t len, void *share, Loc loc) {
    auto &m = pool.tBufPoolImpl;
    if constexpr (cube_buffer(P::poolPos) >= 0)
      check(api()->fail(ctx, loc.file, loc.line,
                        "InitBufPool: a TBufPool at A1/B1/C1 (L1) is not supported yet"));
    const int64_t v[1] = {len};
    int64_t base = 0;
    check(api()->pool_more(ctx, PYASC_SIM_POOL_INIT, m.mem, parent, share, v, &base, loc.file,
                           loc.line));
    m.startAddr_ = m.maxAddr_ = static_cast<uint32_t>(base);
    m.curBufSize_ = 0;
    return true;
  }
  template <class P>
  static void *mem(P &pool) {
    return pool.tBufPoolImpl.mem;
  }
  // a block of a queue (num blocks) or of a TBuf (num 1, que 0) at the pool's addr
  template <class P>
  static void place(P &pool, void *obj, int que, int64_t num, uint32_t index, uint32_t addr,
                    uint32_t len, Loc loc) {
    if (que) {
      const int64_t v[4] = {num, index, addr, len};
      check(api()->pool_more(ctx, PYASC_SIM_POOL_QUE_BUF, pool.tBufPoolImpl.mem, nullptr, obj, v,
                             nullptr, loc.file, loc.line));
      return;
    }
    if (num != 1 || index != 0)
      check(
          api()->fail(ctx, loc.file, loc.line,
                      "InitBufHandle: a TBuf has one block (InitStartBufHandle's num 1, index 0)"));
    const int64_t v[2] = {addr, len};
    check(api()->pool_more(ctx, PYASC_SIM_POOL_TBUF_BUF, pool.tBufPoolImpl.mem, nullptr, obj, v,
                           nullptr, loc.file, loc.line));
  }
  // the pool's queues end their hand-overs; never fails (destructors call it)
  template <class P>
  static void reset(P &pool) {
    auto &m = pool.tBufPoolImpl;
    api()->pool_more(ctx, PYASC_SIM_POOL_RESET, m.mem, nullptr, nullptr, nullptr, nullptr, nullptr,
                     0);
  }
};
}  // namespace sim

namespace sim {
// que_init's argument: the depth, and above it the positions (each + 1) whose pipes fill and
// drain the queue's buffers, for the timing model's hand-overs (pyasc.profile)
constexpr int que_arg(int32_t depth, TPosition src, TPosition dst) {
  return (depth & 0xffff) | (static_cast<int>(src) + 1) << 16 | (static_cast<int>(dst) + 1) << 24;
}
}  // namespace sim

namespace sim {
// InitStartBufHandle and InitBufHandle, with which a custom TBufPool's
// InitBuffer places a queue's blocks (que 1) or a TBuf's (que 0) itself.
template <class Self, int que>
class PoolHandles {
 public:
  void InitStartBufHandle(TBufHandle startBufhandle, uint8_t num, uint32_t len) {
    (void)startBufhandle, (void)len;
    pool_num_ = num;
  }
  template <typename T>
  void InitBufHandle(T *bufPool, uint32_t index, TBufHandle bufhandle, uint32_t curPoolAddr,
                     uint32_t len, Loc loc = {}) {
    (void)bufhandle;
    PoolAccess::place(*bufPool, static_cast<Self *>(this)->mem, que, pool_num_, index, curPoolAddr,
                      len, loc);
  }

 private:
  uint8_t pool_num_ = 0;
};
}  // namespace sim

template <TPosition pos, int32_t depth, auto mask = 0>
class TQue : public sim::PoolHandles<TQue<pos, depth, mask>, 1> {
 public:
  static constexpr TPosition position = pos;
  alignas(16) unsigned char mem[PYASC_SIM_QUE_BYTES];
  TQue() { sim::api()->que_init(mem, sim::que_arg(depth, pos, pos)); }
  TQue(const TQue &) = delete;
  TQue &operator=(const TQue &) = delete;

  template <typename T>
  LocalTensor<T> AllocTensor(sim::Loc loc = {}) {
    LocalTensor<T> t;
    t.pos_ = pos;
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
    t.pos_ = pos;
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
    tensor.pos_ = pos;
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

// Its buffer is where the cube reads or writes it (GM -> A1: L1), else the UB.
template <TPosition src, TPosition dst, int32_t depth, auto mask = 0>
class TQueBind : public TQue<src, depth, mask> {
 public:
  static constexpr TPosition position = sim::cube_buffer(dst) >= 0 ? dst : src;
  TQueBind() { sim::api()->que_init(this->mem, sim::que_arg(depth, src, dst)); }
};

template <TPosition pos = TPosition::LCM>
class TBuf : public sim::PoolHandles<TBuf<pos>, 0> {
 public:
  alignas(16) unsigned char mem[PYASC_SIM_TBUF_BYTES];
  TBuf() { sim::api()->tbuf_init(mem); }
  TBuf(const TBuf &) = delete;
  TBuf &operator=(const TBuf &) = delete;

  template <typename T>
  LocalTensor<T> Get(sim::Loc loc = {}) {
    LocalTensor<T> t;
    t.pos_ = pos;
    sim::check(sim::api()->tbuf_get(sim::ctx, mem, -1, sizeof(T), &t.lt, loc.file, loc.line));
    return t;
  }
  template <typename T>
  LocalTensor<T> Get(uint32_t len, sim::Loc loc = {}) {
    LocalTensor<T> t;
    t.pos_ = pos;
    sim::check(sim::api()->tbuf_get(sim::ctx, mem, len, sizeof(T), &t.lt, loc.file, loc.line));
    return t;
  }
  template <typename T>
  LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset, sim::Loc loc = {}) {
    LocalTensor<T> t;
    t.pos_ = pos;
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
  TPipe() {
    sim::api()->pipe_init(mem);
    sim::cur_pipe = this;
  }
  ~TPipe() {
    sim::api()->pipe_reset(sim::ctx, mem);
    if (sim::cur_pipe == this) sim::cur_pipe = nullptr;
  }
  TPipe(const TPipe &) = delete;
  TPipe &operator=(const TPipe &) = delete;

  template <class Q>
  bool InitBuffer(Q &que, uint8_t num, uint32_t len, sim::Loc loc = {}) {
    constexpr int buf = sim::cube_buffer(Q::position);
    if constexpr (buf >= 0) {
      const pyasc_sim_api *t = sim::api();
      if (!t->cube_init_buffer)
        sim::check(
            t->fail(sim::ctx, loc.file, loc.line, "the cube: no cube table for this kernel"));
      sim::check(t->cube_init_buffer(sim::ctx, mem, que.mem, num, len, buf, loc.file, loc.line));
    } else {
      sim::check(sim::api()->init_buffer(sim::ctx, mem, que.mem, num, len, loc.file, loc.line));
    }
    return true;
  }
  template <TPosition pos>
  bool InitBuffer(TBuf<pos> &buf, uint32_t len, sim::Loc loc = {}) {
    sim::check(sim::api()->init_tbuf(sim::ctx, mem, buf.mem, len, loc.file, loc.line));
    return true;
  }
  // a TBufPool (or a custom pool) over the next len bytes, or over shareBuf's
  template <class T>
  bool InitBufPool(T &bufPool, uint32_t len, sim::Loc loc = {}) {
    return sim::PoolAccess::init(mem, bufPool, len, nullptr, loc);
  }
  template <class T, class U>
  bool InitBufPool(T &bufPool, uint32_t len, U &shareBuf, sim::Loc loc = {}) {
    return sim::PoolAccess::init(mem, bufPool, len, sim::PoolAccess::mem(shareBuf), loc);
  }
  void Init() {}
  void Destroy() { sim::api()->pipe_reset(sim::ctx, mem); }
  void Reset() { sim::api()->pipe_reset(sim::ctx, mem); }
  template <HardEvent evt>
  TEventID AllocEventID(sim::Loc loc = {}) {
    return event_id(1, static_cast<int>(evt), 0, loc);
  }
  template <HardEvent evt>
  TEventID FetchEventID(sim::Loc loc = {}) {
    return event_id(0, static_cast<int>(evt), 0, loc);
  }
  TEventID FetchEventID(HardEvent evt, sim::Loc loc = {}) {
    return event_id(0, static_cast<int>(evt), 0, loc);
  }
  template <HardEvent evt>
  void ReleaseEventID(TEventID id, sim::Loc loc = {}) {
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
// In a group of an AIC and two AIVs (cube.h), the AIVs are sub-blocks 0 and 1.
inline int64_t GetSubBlockIdx() {
  const pyasc_sim_api *t = sim::api();
  return t->core_info ? t->core_info(sim::ctx, 2) : 0;
}
inline int64_t GetSubBlockNum() {
  const pyasc_sim_api *t = sim::api();
  return t->core_info ? t->core_info(sim::ctx, 3) : 1;
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

}  // namespace AscendC
