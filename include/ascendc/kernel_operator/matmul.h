// Part of kernel_operator.h, included only from it: the cube's core kinds and the adv library's
// Matmul (Ascend C's lib/matmul_intf.h), with its tiling struct and MatmulConfig.
//
// A source that names Matmul or REGIST_MATMUL_OBJ is built with the cube's runtime table
// (PYASC_SIM_CUBE, asc_ascendc_build): each block gets the AIC's L1/L0 buffers, and its launch
// runs groups of one AIC and two AIVs, as a mixed kernel does on the device (GetBlockIdx() on an
// AIV is 2 * group + sub-block), or with ASCENDC_CUBE_ONLY defined one AIC per block. The
// simulated AIVs compute their Matmul calls on cube buffers of their own, so the AIC of a group
// has nothing to serve: REGIST_MATMUL_OBJ returns from the kernel there, as it does on the device
// once the AIC's server loop ends.

// --- the tiling and the Matmul's compile-time configuration (global, as on the device) ------

#include "tcube_tiling.h"

static_assert(sizeof(TCubeTiling) == 49 * sizeof(int32_t), "TCubeTiling has 49 int32 members");

enum class CubeFormat { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR, ROW_MAJOR = ND };
enum class LayoutMode { NONE = 0, BSNGD, SBNGD, BNGS1S2, NORMAL };
enum class BatchMode { NONE = 0, BATCH_LESS_THAN_L1, BATCH_LARGE_THAN_L1, SINGLE_LARGE_THAN_L1 };
enum BatchOutMode { SINGLE_BATCH = 0, MULTI_BATCH, DYNAMIC };
enum class IterateOrder { ORDER_M = 0, ORDER_N, UNDEF };
enum class ScheduleType { INNER_PRODUCT = 0, OUTER_PRODUCT };
enum IterateMode : uint8_t {
  ITERATE_MODE_NORMAL = 1,
  ITERATE_MODE_ALL = 2,
  ITERATE_MODE_BATCH = 4,
  ITERATE_MODE_N_BATCH = 8,
  ITERATE_MODE_DEFAULT = 0xff
};
constexpr uint32_t SHARED_CO1_BUFFER_SIZE = 64 * 1024;

// Which Matmul template the device compiles (Norm, MDL, BasicBlock...). The simulator runs every
// configuration with the same schedule, the tiling's, so the members are only stored.
struct MatmulConfig {
  bool doNorm;
  bool doBasicBlock;
  bool doMultiDataLoad;
  uint32_t basicM;
  uint32_t basicN;
  uint32_t basicK;
  bool intrinsicsCheck;
  bool isNBatch;
  bool enVecND2NZ;
  bool doSpecialBasicBlock;
  uint32_t doMTE2Preload;
  uint32_t singleCoreM;
  uint32_t singleCoreN;
  uint32_t singleCoreK;
  uint32_t stepM;
  uint32_t stepN;
  uint32_t baseMN;
  uint32_t singleCoreMN;
  bool enUnitFlag = true;
  bool isPerTensor;
  bool hasAntiQuantOffset;
  bool doIBShareNorm;
  bool doSpecialMDL;
  bool enableInit = true;
  BatchMode batchMode;
  bool enableEnd = true;
  bool enableGetTensorC = true;
  bool enableSetOrgShape = true;
  bool enableSetBias = true;
  bool enableSetTail = true;
  bool enableQuantVector = true;
  bool enableSetDefineData = true;
  uint8_t iterateMode = ITERATE_MODE_DEFAULT;
  bool enableReuse = true;
  bool enableUBReuse;
  bool enableL1CacheUB;
  bool intraBlockPartSum = false;
  IterateOrder iterateOrder{IterateOrder::UNDEF};
  ScheduleType scheduleType;
  bool enableDoubleCache;
  bool isBiasBatch = true;
  bool enableStaticPadZeros = false;
  bool isPartialOutput = false;
  bool enableMixDualMaster = false;
  bool isA2B2Shared = false;
  bool isEnableChannelSplit = false;
  bool enableKdimReorderLoad = false;
  bool isCO1Shared = false;
  uint32_t sharedCO1BufferSize = SHARED_CO1_BUFFER_SIZE;
  BatchOutMode bmmOutMode = SINGLE_BATCH;
};
#include "matmul_config.h"

namespace AscendC::sim {
// matmul.new's flag bits from the config: 24 its enUnitFlag, which the timing model reads (MMAD
// and FIXPIPE hand L0C over per 512 B), 28 isEnableChannelSplit, 29 isPartialOutput; a config
// of another type keeps
// CFG_NORM's, on
constexpr int config_flag_bits(const MatmulConfig &c) {
  return (c.enUnitFlag ? 1 << 24 : 0) | (c.isEnableChannelSplit ? 1 << 28 : 0) |
         (c.isPartialOutput ? 1 << 29 : 0);
}
constexpr int config_flag_bits(const MatmulApiStaticTiling &t) {
  return config_flag_bits(t.cfg) | 1 << 25;  // 25: a constant tiling
}
template <typename T>
constexpr int config_flag_bits(const T &) {
  return 1 << 24;
}
}  // namespace AscendC::sim

// The cross-core sync intrinsic the device's MIX kernels start with (set_ffts_base_addr is in
// types.h): the Matmul needs no handshake with the group's AIC here.
inline void ffts_cross_core_sync(pipe_t pipe, uint64_t config) {
  (void)pipe, (void)config;
}

namespace AscendC {

// g_coreType's values
constexpr int32_t MIX = 0;
constexpr int32_t AIC = 1;
constexpr int32_t AIV = 2;
constexpr int32_t DEFAULT_C0_SIZE = 32;  // bytes of a fractal's row (C0)

// The Matmul library's integer helpers (CANN's matmul_utils.h): num1 / num2 rounded up, and
// num1 rounded up to a multiple of num2; num2 must be positive.
template <typename T>
inline T Ceil(T num1, T num2, sim::Loc loc = {}) {
  if (!(num2 > 0)) sim::fail_at("Ceil: num2 must be positive", loc);
  return (num1 + num2 - 1) / num2;
}
template <typename T>
inline T CeilAlign(T num1, T num2, sim::Loc loc = {}) {
  return Ceil(num1, num2, loc) * num2;
}

struct MatrixOffset {
  int32_t offset;
  int32_t row, col;
  int32_t height, width;
};

inline TPipe *GetTPipePtr() {
  return sim::cur_pipe;
}
// The system workspace (the host's GM scratch the adv library may use): GM_ADDR as given.
inline void SetSysWorkspace(GM_ADDR workspace) {
  void *p = workspace;
  sim::api()->sys_workspace(sim::ctx, 1, &p);
}
inline GM_ADDR GetSysWorkSpacePtr() {
  void *p = nullptr;
  sim::api()->sys_workspace(sim::ctx, 0, &p);
  return static_cast<GM_ADDR>(p);
}

// The cross-core flags (rt/mix.h): a set's mode 0 reaches every core of a kind in the launch, 1
// the two AIVs of a group, 2 a group's AIC from its AIVs or its AIVs from the AIC. On A2 (dav-2201)
// a wait's modeId has no effect: it takes one from its core's counter of the flag, whichever mode
// raised it (the runtime's mode 3). A wait that can never be released is an error.
template <uint8_t modeId, pipe_t pipe>
inline void CrossCoreSetFlag(uint16_t flagId, sim::Loc loc = {}) {
  sim::check(sim::cube_table(loc)->cross_flag(sim::ctx, flagId, 0, modeId, loc.file, loc.line));
}
template <uint8_t modeId = 0, pipe_t pipe = PIPE_S>
inline void CrossCoreWaitFlag(uint16_t flagId, sim::Loc loc = {}) {
  (void)modeId;
  sim::check(sim::cube_table(loc)->cross_flag(sim::ctx, flagId, 1, 3, loc.file, loc.line));
}

namespace sim {
inline const pyasc_sim_api *cube_api(Loc loc) {
  return cube_table(loc);
}
// The core this block runs on: AIC or AIV.
inline int32_t core_type() {
  const pyasc_sim_api *t = api();
  return t && t->core_info && ctx && t->core_info(ctx, 0) == 1 ? AIC : AIV;
}
// The runtime's LayoutMode codes (matmul.py): 1 NORMAL, 2 BSNGD, 3 SBNGD, 4 BNGS1S2.
constexpr int layout_code(LayoutMode m) {
  return m == LayoutMode::NORMAL    ? 1
         : m == LayoutMode::BSNGD   ? 2
         : m == LayoutMode::SBNGD   ? 3
         : m == LayoutMode::BNGS1S2 ? 4
                                    : 0;
}
// The runtime's codes of where A, B and the bias come from: 0 GM, 1-3 the UB, 4 L1 (TSCM).
constexpr int position_code(TPosition p) {
  return p == TPosition::VECIN     ? 1
         : p == TPosition::VECOUT  ? 2
         : p == TPosition::VECCALC ? 3
         : p == TPosition::TSCM    ? 4
                                   : 0;
}
// matmul.new's flags for the runtime: NZ operands, transposes, C in the UB, layouts, positions.
template <class A, class B, class C, class BIAS>
constexpr int matmul_flags() {
  int f = (A::format == CubeFormat::NZ ? 1 : 0) | (B::format == CubeFormat::NZ ? 2 : 0) |
          (C::format == CubeFormat::NZ ? 4 : 0) | (A::isTrans ? 8 : 0) | (B::isTrans ? 16 : 0) |
          (C::pos != TPosition::GM ? 32 : 0) | (C::format == CubeFormat::ND_ALIGN ? 1 << 26 : 0);
  f |= layout_code(A::layout) << 6 | layout_code(B::layout) << 9 | layout_code(C::layout) << 12;
  f |= position_code(A::pos) << 15 | position_code(B::pos) << 18 | position_code(BIAS::pos) << 21;
  return f;
}
}  // namespace sim

template <TPosition POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false,
          LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false>
struct MatmulType {
  constexpr static TPosition pos = POSITION;
  constexpr static CubeFormat format = FORMAT;
  using T = TYPE;
  using Type = TYPE;
  constexpr static bool isTrans = ISTRANS;
  constexpr static LayoutMode layout = LAYOUT;
  constexpr static bool ibShare = IBSHARE;
};

// Callbacks of the device's custom data movement; the simulator moves data itself.
template <auto DataCopyOut = nullptr, auto CopyA1 = nullptr, auto CopyB1 = nullptr>
struct MatmulCallBackFunc {};

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE,
          const auto &MM_CFG = CFG_NORM, class MM_CB = MatmulCallBackFunc<>>
class Matmul {
  using SrcAT = typename A_TYPE::T;
  using SrcBT = typename B_TYPE::T;
  using DstT = typename C_TYPE::T;
  using BiasT = typename BIAS_TYPE::T;
  static_assert(std::is_same_v<SrcAT, SrcBT>, "Matmul: A and B must have one type");

 public:
  alignas(16) unsigned char mem[PYASC_SIM_MM_BYTES] = {};

  Matmul() = default;
  Matmul(const Matmul &) = delete;
  Matmul &operator=(const Matmul &) = delete;

  void Init(const TCubeTiling *cubeTiling, TPipe *tpipe = nullptr, sim::Loc loc = {}) {
    (void)tpipe;
    if (!cubeTiling) sim::fail_at("Matmul::Init: no tiling", loc);
    constexpr int flags =
        sim::matmul_flags<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE>() | sim::config_flag_bits(MM_CFG);
    sim::check(
        sim::cube_api(loc)->mm_init(sim::ctx, mem, sim::dtype<SrcAT>::code, sim::dtype<DstT>::code,
                                    flags, reinterpret_cast<const int32_t *>(cubeTiling),
                                    sizeof(TCubeTiling) / sizeof(int32_t), loc.file, loc.line));
  }
  // REGIST_MATMUL_OBJ without a TCubeTiling: a MatmulApiStaticTiling MM_CFG's fields (shapes it
  // leaves open come from SetOrgShape/SetTail; open depths and steps are 1); with another
  // config, Init follows.
  void InitStatic(sim::Loc loc = {}) {
    if constexpr (std::is_same_v<std::decay_t<decltype(MM_CFG)>, MatmulApiStaticTiling>) {
      const MatmulApiStaticTiling &s = MM_CFG;
      if (s.baseM <= 0 || s.baseN <= 0 || s.baseK <= 0)
        sim::fail_at(
            "Matmul: its MatmulApiStaticTiling fixes no base block (basicM/N/K): "
            "register it with a TCubeTiling",
            loc);
      auto open = [](int32_t v, int32_t dflt) { return v > 0 ? v : dflt; };
      TCubeTiling t;
      t.usedCoreNum = 1;
      t.M = t.singleCoreM = open(s.singleCoreM, s.baseM);
      t.N = t.singleCoreN = open(s.singleCoreN, s.baseN);
      t.Ka = t.Kb = t.singleCoreK = open(s.singleCoreK, s.baseK);
      t.baseM = s.baseM, t.baseN = s.baseN, t.baseK = s.baseK;
      t.depthA1 = open(s.depthA1, 1), t.depthB1 = open(s.depthB1, 1);
      t.stepM = open(s.stepM, 1), t.stepN = open(s.stepN, 1);
      t.stepKa = open(s.stepKa, 1), t.stepKb = open(s.stepKb, 1);
      t.iterateOrder = s.iterateOrder == 1 ? 1 : 0;
      t.isBias = s.isBias > 0;
      t.dbL0A = open(s.dbL0A, 1), t.dbL0B = open(s.dbL0B, 1), t.dbL0C = open(s.dbL0C, 1);
      Init(&t, nullptr, loc);
    } else {
      (void)loc;
    }
  }
  void SetTensorA(const GlobalTensor<SrcAT> &gm, bool isTransposeA = false, sim::Loc loc = {}) {
    set(0, gm.gt, isTransposeA, loc);
  }
  void SetTensorB(const GlobalTensor<SrcBT> &gm, bool isTransposeB = false, sim::Loc loc = {}) {
    set(1, gm.gt, isTransposeB, loc);
  }
  void SetBias(const GlobalTensor<BiasT> &biasGlobal, sim::Loc loc = {}) {
    set(2, biasGlobal.gt, false, loc);
  }
  void DisableBias(sim::Loc loc = {}) {
    sim::check(sim::cube_api(loc)->mm_end(sim::ctx, mem, 1, loc.file, loc.line));
  }
  void ClearBias(sim::Loc loc = {}) { DisableBias(loc); }
  void SetTail(int tailM = -1, int tailN = -1, int tailK = -1, sim::Loc loc = {}) {
    shape(0, tailM, tailN, tailK, 0, loc);
  }
  void SetSingleShape(int singleM, int singleN, int singleK, sim::Loc loc = {}) {
    shape(0, singleM, singleN, singleK, 0, loc);
  }
  void SetOrgShape(int orgM, int orgN, int orgK, sim::Loc loc = {}) {
    shape(1, orgM, orgN, orgK, orgK, loc);
  }
  void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, sim::Loc loc = {}) {
    shape(1, orgM, orgN, orgKa, orgKb, loc);
  }
  // The next base block (baseM x baseN) in the tiling's order; false once all are done.
  // Iterate<false>() (CANN's asynchronous mode) computes every block for the GetTensorC<false>
  // calls that follow to take in order: here each of them computes the next.
  template <bool sync = true>
  bool Iterate(bool enPartialSum = false, sim::Loc loc = {}) {
    if (enPartialSum) sim::fail_at("Matmul::Iterate: enPartialSum is not simulated", loc);
    async_ = !sync;
    if constexpr (!sync) return true;
    int more = 0;
    sim::check(sim::cube_api(loc)->mm_iterate(sim::ctx, mem, &more, loc.file, loc.line));
    return more != 0;
  }
  // The current block, baseM rows of baseN elements one after the other from co2Local's start.
  template <bool sync = true>
  void GetTensorC(const LocalTensor<DstT> &co2Local, uint8_t enAtomic = 0,
                  bool enSequentialWrite = false, sim::Loc loc = {}) {
    (void)enSequentialWrite;
    if (enAtomic) sim::fail_at("Matmul::GetTensorC: enAtomic needs C in GM", loc);
    if constexpr (!sync) next_async_block(loc);
    sim::check(sim::cube_api(loc)->mm_get_c(sim::ctx, mem, 0, 1, pyasc_sim_gt{}, co2Local.lt,
                                            sim::dtype<DstT>::code, 0, loc.file, loc.line));
  }
  // The current block to its place in C (enAtomic 1 adds, 2 max, 3 min).
  template <bool sync = true>
  void GetTensorC(const GlobalTensor<DstT> &gm, uint8_t enAtomic = 0,
                  bool enSequentialWrite = false, sim::Loc loc = {}) {
    if (enSequentialWrite && enAtomic)
      sim::fail_at("Matmul::GetTensorC: enSequentialWrite with enAtomic is not simulated", loc);
    if constexpr (!sync) next_async_block(loc);
    // enSequentialWrite: the block at gm's start, rows baseN apart (ub 2)
    sim::check(sim::cube_api(loc)->mm_get_c(sim::ctx, mem, 0, enSequentialWrite ? 2 : 0, gm.gt,
                                            pyasc_sim_lt{}, sim::dtype<DstT>::code, enAtomic,
                                            loc.file, loc.line));
  }
  // Every block of the single-core shape to its place in C.
  template <bool sync = true>
  void IterateAll(const GlobalTensor<DstT> &gm, uint8_t enAtomic = 0,
                  bool enSequentialWrite = false, bool waitIterateAll = false, bool fakeMsg = false,
                  sim::Loc loc = {}) {
    (void)waitIterateAll, (void)fakeMsg;
    if (enSequentialWrite)
      sim::fail_at("Matmul::IterateAll: enSequentialWrite to GM is not simulated", loc);
    sim::check(sim::cube_api(loc)->mm_get_c(sim::ctx, mem, 1, 0, gm.gt, pyasc_sim_lt{},
                                            sim::dtype<DstT>::code, enAtomic, loc.file, loc.line));
  }
  template <bool sync = true>
  void IterateAll(const LocalTensor<DstT> &ubCmatrix, uint8_t enAtomic = 0, sim::Loc loc = {}) {
    if (enAtomic) sim::fail_at("Matmul::IterateAll: enAtomic needs C in GM", loc);
    sim::check(sim::cube_api(loc)->mm_get_c(sim::ctx, mem, 1, 1, pyasc_sim_gt{}, ubCmatrix.lt,
                                            sim::dtype<DstT>::code, 0, loc.file, loc.line));
  }
  // The calls complete when they return: nothing to wait for.
  void WaitIterateAll() {}
  void WaitGetTensorC() {}
  template <bool isTurnOnDebug = true>
  MatrixOffset GetOffsetC(sim::Loc loc = {}) {
    int64_t v[5] = {0, 0, 0, 0, 0};
    for (int i = 0; i < 5; i++)
      sim::check(sim::cube_api(loc)->mm_offset_c(sim::ctx, mem, i, &v[i], loc.file, loc.line));
    return MatrixOffset{static_cast<int32_t>(v[0]), static_cast<int32_t>(v[1]),
                        static_cast<int32_t>(v[2]), static_cast<int32_t>(v[3]),
                        static_cast<int32_t>(v[4])};
  }
  void End(sim::Loc loc = {}) {
    async_ = false;
    sim::check(sim::cube_api(loc)->mm_end(sim::ctx, mem, 0, loc.file, loc.line));
  }

  // --- the other members -------------------------------------------------------------------
  // orgKc: C's row length when it exceeds N
  void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc, sim::Loc loc = {}) {
    const int64_t v[5] = {orgM, orgN, orgKa, orgKb, orgKc};
    more(PYASC_SIM_MM_ORG_KC, v, pyasc_sim_gt{}, pyasc_sim_lt{}, 0, loc);
  }
  // every element of A (B) is the scalar
  void SetTensorA(SrcAT aScalar, sim::Loc loc = {}) { scalar(0, aScalar, loc); }
  void SetTensorB(SrcBT bScalar, sim::Loc loc = {}) { scalar(1, bScalar, loc); }
  // A, B or the bias from a LocalTensor at the MatmulType's position (the UB, or L1 for TSCM)
  void SetTensorA(const LocalTensor<SrcAT> &leftMatrix, bool isTransposeA = false,
                  sim::Loc loc = {}) {
    local(0, leftMatrix.lt, sim::dtype<SrcAT>::code, isTransposeA, loc);
  }
  void SetTensorB(const LocalTensor<SrcBT> &rightMatrix, bool isTransposeB = false,
                  sim::Loc loc = {}) {
    local(1, rightMatrix.lt, sim::dtype<SrcBT>::code, isTransposeB, loc);
  }
  void SetBias(const LocalTensor<BiasT> &inputBias, sim::Loc loc = {}) {
    local(2, inputBias.lt, sim::dtype<BiasT>::code, false, loc);
  }
  // the current block to its place in C and to co2Local
  template <bool sync = true>
  void GetTensorC(const GlobalTensor<DstT> &gm, const LocalTensor<DstT> &co2Local,
                  uint8_t enAtomic = 0, bool enSequentialWrite = false, sim::Loc loc = {}) {
    if (enAtomic || enSequentialWrite)
      sim::fail_at(
          "Matmul::GetTensorC(gm, co2Local): enAtomic and enSequentialWrite are not "
          "simulated",
          loc);
    const int64_t v[2] = {sim::dtype<DstT>::code, sim::dtype<DstT>::code};
    more(PYASC_SIM_MM_GET_C_BOTH, v, gm.gt, co2Local.lt, 0, loc);
  }
  // GetTensorC into the UB, done when it returns
  void AsyncGetTensorC(const LocalTensor<DstT> &c, sim::Loc loc = {}) {
    GetTensorC<true>(c, 0, false, loc);
  }
  // the batched forms: batchA (batchB) matrices of A (B), matrixStrideA/B elements apart (0:
  // one after the other)
  void SetBatchNum(int32_t batchA, int32_t batchB, sim::Loc loc = {}) {
    const int64_t v[2] = {batchA, batchB};
    more(PYASC_SIM_MM_BATCH_NUM, v, pyasc_sim_gt{}, pyasc_sim_lt{}, 0, loc);
  }
  // (sync and waitIterateBatch: the simulated cores run IterateBatch to its end)
  template <bool sync = true, bool waitIterateBatch = false>
  void IterateBatch(const GlobalTensor<DstT> &gm, uint32_t batchA, uint32_t batchB,
                    bool enSequentialWrite, const uint32_t matrixStrideA = 0,
                    const uint32_t matrixStrideB = 0, const uint32_t matrixStrideC = 0,
                    const bool enPartialSum = false, const uint8_t enAtomic = 0,
                    sim::Loc loc = {}) {
    batch(gm, batchA, batchB, enSequentialWrite, matrixStrideA, matrixStrideB, matrixStrideC,
          enPartialSum, enAtomic, loc);
  }
  // ... as many as SetBatchNum gave. Ascend C has this form on the cube core (ASCENDC_CUBE_ONLY)
  // and the one above on a mixed kernel's AIV; both are here, and a call whose second argument
  // is not a bool, IterateBatch(c, batchA, batchB, false), takes the one above.
  template <bool sync = true, bool waitIterateBatch = false, typename PartialSum,
            std::enable_if_t<std::is_same_v<PartialSum, bool>, int> = 0>
  void IterateBatch(const GlobalTensor<DstT> &gm, PartialSum enPartialSum, uint8_t enAtomic,
                    bool enSequentialWrite, const uint32_t matrixStrideA = 0,
                    const uint32_t matrixStrideB = 0, const uint32_t matrixStrideC = 0,
                    sim::Loc loc = {}) {
    batch(gm, -1, -1, enSequentialWrite, matrixStrideA, matrixStrideB, matrixStrideC, enPartialSum,
          enAtomic, loc);
  }
  void WaitIterateBatch() {}
  // batchLoop rounds of IterateBatch into the workspace (SetWorkspace), read with
  // GetBatchTensorC; a C in a BSNGD/SBNGD/BNGS1S2 layout lands there in its layout (sync and
  // waitIterateBatch: the simulated cores run it to its end)
  template <bool sync = true, bool waitIterateBatch = false>
  void IterateNBatch(const uint32_t batchLoop, uint32_t batchA, uint32_t batchB,
                     bool enSequentialWrite, const uint32_t matrixStrideA = 0,
                     const uint32_t matrixStrideB = 0, const uint32_t matrixStrideC = 0,
                     sim::Loc loc = {}) {
    if (enSequentialWrite || matrixStrideC)
      sim::fail_at("Matmul::IterateNBatch: enSequentialWrite and matrixStrideC are not simulated",
                   loc);
    const int64_t v[5] = {batchLoop, batchA, batchB, matrixStrideA, matrixStrideB};
    more(PYASC_SIM_MM_ITERATE_N_BATCH, v, pyasc_sim_gt{}, pyasc_sim_lt{}, 0, loc);
  }
  void GetBatchTensorC(const LocalTensor<DstT> &c, uint32_t batchA, uint32_t batchB,
                       bool enSequentialWrite = false, sim::Loc loc = {}) {
    (void)enSequentialWrite;
    const int64_t v[2] = {batchA, batchB};
    more(PYASC_SIM_MM_GET_BATCH_C, v, pyasc_sim_gt{}, c.lt, 0, loc);
  }
  template <bool sync = true>
  GlobalTensor<DstT> GetBatchTensorC(uint32_t batchA, uint32_t batchB,
                                     bool enSequentialWrite = false, sim::Loc loc = {}) {
    (void)enSequentialWrite;
    const int64_t v[2] = {batchA, batchB};
    GlobalTensor<DstT> r;
    sim::check(sim::cube_api(loc)->mm_more(sim::ctx, mem, PYASC_SIM_MM_GET_BATCH_C_GM, v,
                                           pyasc_sim_gt{}, pyasc_sim_lt{}, 0, &r.gt, loc.file,
                                           loc.line));
    return r;
  }
  template <typename T>
  void SetWorkspace(GlobalTensor<T> &addr, sim::Loc loc = {}) {
    const int64_t v[1] = {sizeof(T)};
    more(PYASC_SIM_MM_WORKSPACE, v, addr.gt, pyasc_sim_lt{}, 0, loc);
  }
  // quantised outputs: one scale (a float32's bits in the low half) or one per column
  void SetQuantScalar(const uint64_t quantScalar, sim::Loc loc = {}) {
    const int64_t v[1] = {static_cast<int64_t>(quantScalar)};
    more(PYASC_SIM_MM_QUANT_SCALAR, v, pyasc_sim_gt{}, pyasc_sim_lt{}, 0, loc);
  }
  void SetQuantVector(const GlobalTensor<uint64_t> &quantTensor, sim::Loc loc = {}) {
    const int64_t v[1] = {sizeof(uint64_t)};
    more(PYASC_SIM_MM_QUANT_VECTOR, v, quantTensor.gt, pyasc_sim_lt{}, 0, loc);
  }
  // The simulator multiplies float inputs in float32 (HF32 rounding is not modelled) and runs
  // no callbacks, as for Python kernels: these take their argument and change nothing.
  void SetHF32(bool enableHF32 = false, int32_t transMode = 0) {
    (void)enableHF32, (void)transMode;
  }
  void SetSelfDefineData(const uint64_t dataPtr) { (void)dataPtr; }
  void SetUserDefInfo(const uint64_t tilingPtr) { (void)tilingPtr; }
  // as for Python kernels: PyAsc documents no sparse MatmulType nor its GM layouts
  void SetSparseIndex(const GlobalTensor<uint8_t> &indexGlobal, sim::Loc loc = {}) {
    (void)indexGlobal;
    sim::fail_at("Matmul::SetSparseIndex: sparse matmul is not simulated through Matmul", loc);
  }

 private:
  bool async_ = false;  // after Iterate<false>(): GetTensorC<false> takes the next block
  void next_async_block(sim::Loc loc) {
    if (!async_) return;
    int more = 0;
    sim::check(sim::cube_api(loc)->mm_iterate(sim::ctx, mem, &more, loc.file, loc.line));
    if (!more)
      sim::fail_at("Matmul::GetTensorC<false>: Iterate<false>'s blocks are all taken", loc);
  }
  void more(int op, const int64_t *v, const pyasc_sim_gt &g, const pyasc_sim_lt &t, double f,
            sim::Loc loc) {
    sim::check(
        sim::cube_api(loc)->mm_more(sim::ctx, mem, op, v, g, t, f, nullptr, loc.file, loc.line));
  }
  template <typename T>
  void scalar(int which, T value, sim::Loc loc) {
    const int64_t v[1] = {which};
    more(PYASC_SIM_MM_SET_SCALAR, v, pyasc_sim_gt{}, pyasc_sim_lt{}, sim::to_double(value), loc);
  }
  void local(int which, const pyasc_sim_lt &t, int dt, bool trans, sim::Loc loc) {
    const int64_t v[3] = {which, trans ? 1 : 0, dt};
    more(PYASC_SIM_MM_SET_LOCAL, v, pyasc_sim_gt{}, t, 0, loc);
  }
  void batch(const GlobalTensor<DstT> &gm, int64_t batchA, int64_t batchB, bool sequential,
             uint32_t strideA, uint32_t strideB, uint32_t strideC, bool partialSum, uint8_t atomic,
             sim::Loc loc) {
    if (sequential || strideC || partialSum || atomic)
      sim::fail_at(
          "Matmul::IterateBatch: enSequentialWrite, matrixStrideC, enPartialSum and "
          "enAtomic are not simulated",
          loc);
    const int64_t v[5] = {sim::dtype<DstT>::code, batchA, batchB, strideA, strideB};
    more(PYASC_SIM_MM_ITERATE_BATCH, v, gm.gt, pyasc_sim_lt{}, 0, loc);
  }
  void set(int which, const pyasc_sim_gt &g, bool trans, sim::Loc loc) {
    sim::check(sim::cube_api(loc)->mm_set(sim::ctx, mem, which, g, trans, loc.file, loc.line));
  }
  void shape(int org, int64_t a, int64_t b, int64_t c, int64_t d, sim::Loc loc) {
    sim::check(sim::cube_api(loc)->mm_shape(sim::ctx, mem, org, a, b, c, d, loc.file, loc.line));
  }
};

namespace sim {
inline void regist(Loc loc) {
  (void)loc;
}
// a Matmul without its tiling: Init follows, or its constant tiling gives it
template <class MM>
void regist(Loc loc, MM &mm) {
  mm.InitStatic(loc);
}
template <class MM, typename... Rest>
void regist(Loc loc, MM &mm, const TCubeTiling *tiling, Rest &&...rest) {
  if (tiling)
    mm.Init(tiling, nullptr, loc);
  else
    mm.InitStatic(loc);
  regist(loc, std::forward<Rest>(rest)...);
}
// REGIST_MATMUL_OBJ: true on a group's AIC, which has nothing to serve (the kernel returns),
// unless ASCENDC_CUBE_ONLY is defined: then the AIC runs the Matmul itself, as Ascend C's
// MatmulImpl does (a __mix__ kernel's AIC, CANN's matmul_fused_manual).
template <typename... MMs>
bool regist_matmul(Loc loc, bool cube_only, MMs &&...mms) {
  const pyasc_sim_api *t = cube_api(loc);
  if (!cube_only && t->core_info(ctx, 1) && t->core_info(ctx, 0) == 1) return true;
  regist(loc, std::forward<MMs>(mms)...);
  return false;
}
}  // namespace sim

}  // namespace AscendC

// The core this code runs on (AscendC::AIC or AscendC::AIV).
#define g_coreType (AscendC::sim::core_type())
#define ASCEND_IS_AIC (g_coreType == AscendC::AIC)
#define ASCEND_IS_AIV (g_coreType == AscendC::AIV)

// REGIST_MATMUL_OBJ(pipe, workspace, mm1, &tiling1[, mm2, &tiling2...]): Init each Matmul with
// its tiling (nullptr: Init follows); on a mixed group's AIC the kernel function returns here.
#define REGIST_MATMUL_OBJ(tpipe, workspace, ...)                                                  \
  if ((void)(tpipe), (void)(workspace),                                                           \
      AscendC::sim::regist_matmul(                                                                \
          AscendC::sim::Loc{}, AscendC::sim::cube_only_defined(PYASC_SIM_STR(ASCENDC_CUBE_ONLY)), \
          __VA_ARGS__)) /* NOLINT */                                                              \
  return

// The system workspace is a global function on the device (basic_api's swap_mem header).
using AscendC::GetSysWorkSpacePtr;

// The device's namespace for the adv Matmul (matmul::Matmul, matmul::MatmulType): another name of
// AscendC, as on the device, so that `using namespace matmul;` brings GetBlockIdx and the rest.
namespace matmul = AscendC;
