// Part of kernel_operator.h, included only from it: TBufPool and custom pools
// (EXTERN_IMPL_BUFPOOL). A pool is a TPipe-like range of the Unified Buffer that TPipe (or a
// pool) hands out; its queues and TBufs take their buffers from it, and a pool may share the
// range of another. The runtime's pool is the one Python kernels' TBufPool uses (rt/fwk.h).

namespace AscendC {

template <TPosition pos, uint32_t bufIDSize = 4>
class TBufPool {
 public:
  static constexpr TPosition poolPos = pos;
  TBufPool() = default;
  TBufPool(const TBufPool &) = delete;
  TBufPool &operator=(const TBufPool &) = delete;

  // a queue's num buffers of len bytes (rounded up to 32) from the pool
  template <class T>
  bool InitBuffer(T &que, uint8_t num, uint32_t len, sim::Loc loc = {}) {
    if constexpr (sim::cube_buffer(T::position) >= 0)
      sim::check(sim::api()->fail(sim::ctx, loc.file, loc.line,
                                  "TBufPool::InitBuffer: the queue's position is not the "
                                  "pool's Unified Buffer"));
    sim::check(
        sim::api()->init_buffer(sim::ctx, tBufPoolImpl.mem, que.mem, num, len, loc.file, loc.line));
    return true;
  }
  template <TPosition bufPos>
  bool InitBuffer(TBuf<bufPos> &buf, uint32_t len, sim::Loc loc = {}) {
    if constexpr (sim::cube_buffer(bufPos) >= 0)
      sim::check(sim::api()->fail(sim::ctx, loc.file, loc.line,
                                  "TBufPool::InitBuffer: the TBuf's position is not the pool's "
                                  "Unified Buffer"));
    sim::check(sim::api()->init_tbuf(sim::ctx, tBufPoolImpl.mem, buf.mem, len, loc.file, loc.line));
    return true;
  }
  // a sub-pool of the next len bytes of this one, or over shareBuf's bytes
  template <class T>
  bool InitBufPool(T &bufPool, uint32_t len, sim::Loc loc = {}) {
    return sim::PoolAccess::init(tBufPoolImpl.mem, bufPool, len, nullptr, loc);
  }
  template <class T, class U>
  bool InitBufPool(T &bufPool, uint32_t len, U &shareBuf, sim::Loc loc = {}) {
    return sim::PoolAccess::init(tBufPoolImpl.mem, bufPool, len, sim::PoolAccess::mem(shareBuf),
                                 loc);
  }
  // The pool's queues end their hand-overs; its buffers stay (another pool sharing its bytes
  // may overwrite them) and serve again when the kernel comes back to this pool.
  void Reset() { sim::PoolAccess::reset(*this); }

 protected:
  sim::PoolImpl<bufIDSize> tBufPoolImpl;

 private:
  friend struct sim::PoolAccess;
};

}  // namespace AscendC

// A user's pool class with its own InitBuffer: TPipe::InitBufPool gives it memory, and it
// places its queues' and TBufs' blocks with InitStartBufHandle/InitBufHandle from GetCurAddr
// on. Reset ends the queues' hand-overs and starts the pool over (address and block count).
#define EXTERN_IMPL_BUFPOOL(EXT_BUFPOOL, POSITION, BUFID_SIZE)                         \
 public:                                                                               \
  static constexpr AscendC::TPosition poolPos = POSITION;                              \
  static constexpr int32_t bufIDSize = BUFID_SIZE;                                     \
  static constexpr bool isTbufPool = true;                                             \
  ~EXT_BUFPOOL() {                                                                     \
    Reset();                                                                           \
  }                                                                                    \
  void Reset() {                                                                       \
    AscendC::sim::PoolAccess::reset(*this);                                            \
    tBufPoolImpl.curBufSize_ = 0;                                                      \
    tBufPoolImpl.maxAddr_ = tBufPoolImpl.startAddr_;                                   \
  }                                                                                    \
  void Init() {                                                                        \
    static_assert(AscendC::sim::cube_buffer(POSITION) <= 0,                            \
                  "TbufPool Position should be one of A1/B1/C1/VECIN/VECOUT/VECCALC"); \
    tBufPoolImpl.curBufSize_ = 0;                                                      \
    tBufPoolImpl.startAddr_ = tBufPoolImpl.maxAddr_ = 0;                               \
  }                                                                                    \
  AscendC::TBufHandle GetBufHandle(uint8_t offset) {                                   \
    return tBufPoolImpl.handles_ + offset;                                             \
  }                                                                                    \
  void SetCurAddr(uint32_t curAddr) {                                                  \
    tBufPoolImpl.maxAddr_ = curAddr;                                                   \
  }                                                                                    \
  uint32_t GetCurAddr() {                                                              \
    return tBufPoolImpl.maxAddr_;                                                      \
  }                                                                                    \
  void SetCurBufSize(uint8_t curBufSize) {                                             \
    tBufPoolImpl.curBufSize_ = curBufSize;                                             \
  }                                                                                    \
  uint8_t GetCurBufSize() {                                                            \
    return tBufPoolImpl.curBufSize_;                                                   \
  }                                                                                    \
                                                                                       \
 protected:                                                                            \
  AscendC::sim::PoolImpl<BUFID_SIZE> tBufPoolImpl;                                     \
                                                                                       \
 private:                                                                              \
  friend struct AscendC::sim::PoolAccess
