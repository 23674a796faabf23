// Part of kernel_operator.h, included only from it: scalar bit helpers and ScalarCast, the
// store-atomic configuration's query, SyncAll through a GM workspace, InitConstValue,
// GetGatherMaskRemainCount, and the system registers, caches, profiling and HCCL context
// (the simulator has no caches or profiler: those calls check their arguments and return what
// the runtime's rt/system.h documents), through the table's adv_more.

namespace AscendC {

// --- scalar bit helpers (on the 64 bits of the value) -------------------------------------

inline int64_t ScalarCountLeadingZero(uint64_t valueIn, sim::Loc loc = {}) {
  const int64_t v[1] = {static_cast<int64_t>(valueIn)};
  return sim::adv_more(PYASC_SIM_ADV_SCALAR_CLZ, v, {}, loc);
}
// How many bits equal countValue (0 or 1).
template <int countValue>
inline int64_t ScalarGetCountOfValue(uint64_t valueIn, sim::Loc loc = {}) {
  const int64_t v[2] = {static_cast<int64_t>(valueIn), countValue};
  return sim::adv_more(PYASC_SIM_ADV_SCALAR_COUNT, v, {}, loc);
}
// The lowest bit position equal to countValue, -1 if none.
template <int countValue>
inline int64_t ScalarGetSFFValue(uint64_t valueIn, sim::Loc loc = {}) {
  const int64_t v[2] = {static_cast<int64_t>(valueIn), countValue};
  return sim::adv_more(PYASC_SIM_ADV_SCALAR_SFF, v, {}, loc);
}
// The bits after the sign bit equal to it, -1 for 0 and -1.
inline int64_t CountBitsCntSameAsSignBit(int64_t valueIn, sim::Loc loc = {}) {
  const int64_t v[1] = {valueIn};
  return sim::adv_more(PYASC_SIM_ADV_SCALAR_SIGN_BITS, v, {}, loc);
}
// A float cast to half or int32_t with roundMode, as Cast casts an element.
template <typename T, typename U, RoundMode roundMode>
inline U ScalarCast(T valueIn, sim::Loc loc = {}) {
  const int64_t v[2] = {sim::dtype<U>::code, static_cast<int64_t>(roundMode)};
  int64_t bits = sim::adv_more(PYASC_SIM_ADV_SCALAR_CAST, v, {}, loc, sim::to_double(valueIn));
  double r;
  std::memcpy(&r, &bits, sizeof r);
  return static_cast<U>(r);
}

// --- the store-atomic configuration, SyncAll through a workspace, InitConstValue ----------

inline void GetStoreAtomicConfig(uint16_t &atomicType, uint16_t &atomicOp, sim::Loc loc = {}) {
  int64_t out[4] = {0, 0, 0, 0};
  const pyasc_sim_lt none[1] = {{0, 0}};
  sim::check(sim::api()->adv_more(sim::ctx, PYASC_SIM_ADV_ATOMIC_CONFIG, nullptr, none,
                                  pyasc_sim_gt{nullptr, 0, 0, -1, 0}, 0, out, loc.file, loc.line));
  atomicType = static_cast<uint16_t>(out[0]), atomicOp = static_cast<uint16_t>(out[1]);
}

// Every block (usedCores of them; 0: all) meets through flags in gmWorkspace, ubWorkspace
// staging them.
template <bool isAIVOnly = true>
inline void SyncAll(const GlobalTensor<int32_t> &gmWorkspace,
                    const LocalTensor<int32_t> &ubWorkspace, const int32_t usedCores = 0,
                    sim::Loc loc = {}) {
  const int64_t v[1] = {usedCores};
  sim::adv_more(PYASC_SIM_ADV_SYNC_ALL_SOFT, v, {ubWorkspace.lt}, loc, 0, gmWorkspace.gt);
}

template <typename T>
struct InitConstValueParams {
  InitConstValueParams() = default;
  InitConstValueParams(const uint16_t repeatTimesIn, const uint16_t blockNumIn,
                       const uint16_t dstGapIn, const T initValueIn)
      : repeatTimes(repeatTimesIn),
        blockNum(blockNumIn),
        dstGap(dstGapIn),
        initValue(initValueIn) {}
  uint16_t repeatTimes = 0;
  uint16_t blockNum = 0;
  uint16_t dstGap = 0;
  T initValue = 0;
};
// repeatTimes runs of blockNum 32-byte blocks of initValue, dstGap blocks apart.
template <typename T, typename U>
inline void InitConstValue(const LocalTensor<T> &dst, const InitConstValueParams<U> &params,
                           sim::Loc loc = {}) {
  const int64_t v[4] = {sim::dtype<T>::code, params.repeatTimes, params.blockNum, params.dstGap};
  sim::adv_more(PYASC_SIM_ADV_INIT_CONST, v, {dst.lt}, loc, sim::to_double(params.initValue));
}

// The elements the last GatherMask kept.
inline int64_t GetGatherMaskRemainCount(sim::Loc loc = {}) {
  return sim::adv_more(PYASC_SIM_ADV_GATHER_MASK_COUNT, nullptr, {}, loc);
}

// --- system registers, caches, profiling --------------------------------------------------

inline int64_t GetProgramCounter(sim::Loc loc = {}) {
  return sim::adv_more(PYASC_SIM_ADV_PROGRAM_COUNTER, nullptr, {}, loc);
}
inline void PrintTimeStamp(uint32_t descId, sim::Loc loc = {}) {
  const int64_t v[1] = {descId};
  sim::adv_more(PYASC_SIM_ADV_TIME_STAMP, v, {}, loc);
}
template <typename T>
inline void DataCachePreload(const GlobalTensor<uint64_t> &src, const T cacheOffset,
                             sim::Loc loc = {}) {
  const int64_t v[1] = {static_cast<int64_t>(cacheOffset)};
  sim::adv_more(PYASC_SIM_ADV_DCACHE_PRELOAD, v, {}, loc, 0, src.gt);
}
inline void ICachePreLoad(const int64_t preFetchLen, sim::Loc loc = {}) {
  const int64_t v[1] = {preFetchLen};
  sim::adv_more(PYASC_SIM_ADV_ICACHE_PRELOAD, v, {}, loc);
}
inline int64_t GetICachePreloadStatus(sim::Loc loc = {}) {
  return sim::adv_more(PYASC_SIM_ADV_ICACHE_STATUS, nullptr, {}, loc);
}
inline int64_t GetTaskRatio(sim::Loc loc = {}) {
  return sim::adv_more(PYASC_SIM_ADV_TASK_RATIO, nullptr, {}, loc);
}
// the name CANN's quant_group_matmul example calls it by
inline int64_t GetTaskRation(sim::Loc loc = {}) {
  return GetTaskRatio(loc);
}
// The architecture as Ascend C encodes it: __NPU_ARCH__'s digits read as hexadecimal.
inline void GetArchVersion(uint32_t &coreVersion) {
  coreVersion = ((__NPU_ARCH__ / 1000) << 12) | ((__NPU_ARCH__ / 100 % 10) << 8) |
                ((__NPU_ARCH__ / 10 % 10) << 4) | (__NPU_ARCH__ % 10);
}

// An address range (in 32-byte units) that scalar, vector or MTE accesses must stay outside
// of; enableBit picks one of the 4 ranges.
struct CheckLocalMemoryIAParam {
  uint8_t enableBit = 0;
  uint32_t startAddr = 0;
  uint32_t endAddr = 0;
  bool isScalarRead = false;
  bool isScalarWrite = false;
  bool isVectorRead = false;
  bool isVectorWrite = false;
  bool isMteRead = false;
  bool isMteWrite = false;
  bool isEnable = false;
};
inline void CheckLocalMemoryIA(const CheckLocalMemoryIAParam &checkParams, sim::Loc loc = {}) {
  const int64_t v[10] = {checkParams.enableBit,     checkParams.startAddr,
                         checkParams.endAddr,       checkParams.isScalarRead,
                         checkParams.isScalarWrite, checkParams.isVectorRead,
                         checkParams.isVectorWrite, checkParams.isMteRead,
                         checkParams.isMteWrite,    checkParams.isEnable};
  sim::adv_more(PYASC_SIM_ADV_CHECK_IA, v, {}, loc);
}

// dumpSize elements from element countOff, printed as DumpTensor prints.
template <typename T>
inline void DumpAccChkPoint(const LocalTensor<T> &tensor, uint32_t index, uint32_t countOff,
                            uint32_t dumpSize, sim::Loc loc = {}) {
  const int64_t v[5] = {sim::dtype<T>::code, 0, index, countOff, dumpSize};
  sim::adv_more(PYASC_SIM_ADV_DUMP_ACC, v, {tensor.lt}, loc);
}
template <typename T>
inline void DumpAccChkPoint(const GlobalTensor<T> &tensor, uint32_t index, uint32_t countOff,
                            uint32_t dumpSize, sim::Loc loc = {}) {
  const int64_t v[5] = {sim::dtype<T>::code, 1, index, countOff, dumpSize};
  const pyasc_sim_lt none[1] = {{0, 0}};
  int64_t out[4] = {0, 0, 0, 0};
  sim::check(sim::api()->adv_more(sim::ctx, PYASC_SIM_ADV_DUMP_ACC, v, none, tensor.gt, 0, out,
                                  loc.file, loc.line));
}
// No profiler on the simulator: the marks are accepted.
inline void MetricsProfStart() {}
inline void MetricsProfStop() {}

// --- the HCCL context registers -----------------------------------------------------------

template <uint32_t index>
inline __gm__ uint8_t *GetHcclContext(sim::Loc loc = {}) {
  const int64_t v[2] = {0, index};
  int64_t bits = sim::adv_more(PYASC_SIM_ADV_HCCL, v, {}, loc);
  __gm__ uint8_t *p;
  std::memcpy(&p, &bits, sizeof p);
  return p;
}
template <uint32_t index>
inline void SetHcclContext(GM_ADDR context, sim::Loc loc = {}) {
  const int64_t v[2] = {1, index};
  sim::adv_more(PYASC_SIM_ADV_HCCL, v, {}, loc, 0,
                pyasc_sim_gt{reinterpret_cast<char *>(context), 0, 0, -1, 0});
}

}  // namespace AscendC
