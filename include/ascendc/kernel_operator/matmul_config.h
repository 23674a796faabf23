// Part of kernel_operator.h, included only from matmul.h: Ascend C's MatmulConfig builders
// (lib/matmul/tiling.h) with their defaults, the predefined configs, and GetMMConfig with its
// parameter structs. The simulator runs every template with the tiling's schedule; the members
// it reads are enUnitFlag (the timing model) and isEnableChannelSplit (an NZ float C's layout).

namespace AscendC::sim {
// The fields every builder sets alike: a template's flags start from a zeroed config, with the
// members Ascend C initialises in its struct (enableInit, enableEnd...) at their defaults.
constexpr MatmulConfig base_config(bool unit_flag, bool intrinsics, bool batch_loop, bool vec_nd2nz,
                                   BatchMode mode) {
  MatmulConfig c{};
  c.enUnitFlag = unit_flag;
  c.intrinsicsCheck = intrinsics;
  c.isNBatch = batch_loop;
  c.enVecND2NZ = vec_nd2nz;
  c.batchMode = mode;
  c.enableUBReuse = true;
  c.iterateOrder = IterateOrder::UNDEF;
  c.scheduleType = ScheduleType::INNER_PRODUCT;
  return c;
}
}  // namespace AscendC::sim

constexpr MatmulConfig GetNormalConfig(bool intrinsicsLimit = false, bool batchLoop = false,
                                       bool isVecND2NZ = false,
                                       BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1,
                                       bool isMsgReuse = true,
                                       IterateOrder iterateOrder = IterateOrder::UNDEF,
                                       ScheduleType scheduleType = ScheduleType::INNER_PRODUCT,
                                       bool enUnitFlag = true, bool enableMixDualMaster = false,
                                       BatchOutMode bmmOutMode = SINGLE_BATCH) {
  MatmulConfig c =
      AscendC::sim::base_config(enUnitFlag, intrinsicsLimit, batchLoop, isVecND2NZ, bmmMode);
  c.doNorm = true;
  c.enableReuse = isMsgReuse;
  c.iterateOrder = iterateOrder;
  c.scheduleType = scheduleType;
  c.enableMixDualMaster = enableMixDualMaster;
  c.bmmOutMode = bmmOutMode;
  return c;
}

constexpr MatmulConfig GetMDLConfig(bool intrinsicsLimit = false, bool batchLoop = false,
                                    uint32_t doMTE2Preload = 0, bool isVecND2NZ = false,
                                    bool isPerTensor = false, bool hasAntiQuantOffset = false,
                                    bool enUnitFlag = false, bool isMsgReuse = true,
                                    bool enableUBReuse = true, bool enableL1CacheUB = false,
                                    bool enableMixDualMaster = false,
                                    bool enableKdimReorderLoad = false,
                                    bool enableL1BankConflictOptimise = false) {
  (void)enableL1BankConflictOptimise;  // a bank layout of L1, which the simulator has not
  MatmulConfig c = AscendC::sim::base_config(enUnitFlag, intrinsicsLimit, batchLoop, isVecND2NZ,
                                             BatchMode::NONE);
  c.doMultiDataLoad = true;
  c.doMTE2Preload = doMTE2Preload;
  c.isPerTensor = isPerTensor;
  c.hasAntiQuantOffset = hasAntiQuantOffset;
  c.enableReuse = isMsgReuse;
  c.enableUBReuse = enableUBReuse;
  c.enableL1CacheUB = enableL1CacheUB;
  c.enableMixDualMaster = enableMixDualMaster;
  c.enableKdimReorderLoad = enableKdimReorderLoad;
  return c;
}

constexpr MatmulConfig GetSpecialMDLConfig(bool intrinsicsLimit = false, bool batchLoop = false,
                                           uint32_t doMTE2Preload = 0, bool isVecND2NZ = false,
                                           bool isPerTensor = false,
                                           bool hasAntiQuantOffset = false) {
  MatmulConfig c =
      AscendC::sim::base_config(false, intrinsicsLimit, batchLoop, isVecND2NZ, BatchMode::NONE);
  c.doSpecialMDL = true;
  c.doMTE2Preload = doMTE2Preload;
  c.isPerTensor = isPerTensor;
  c.hasAntiQuantOffset = hasAntiQuantOffset;
  return c;
}

constexpr MatmulConfig GetBasicConfig(uint32_t basicM, uint32_t basicN, uint32_t basicK,
                                      bool intrinsicsLimit = false, bool batchLoop = false,
                                      BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1) {
  MatmulConfig c = AscendC::sim::base_config(false, intrinsicsLimit, batchLoop, false, bmmMode);
  c.doBasicBlock = true;
  c.basicM = basicM, c.basicN = basicN, c.basicK = basicK;
  return c;
}

constexpr MatmulConfig GetSpecialBasicConfig(uint32_t basicM, uint32_t basicN, uint32_t basicK,
                                             uint32_t singleCoreM, uint32_t singleCoreN,
                                             uint32_t singleCoreK, uint32_t stepM, uint32_t stepN,
                                             bool intrinsicsLimit = false, bool batchLoop = false,
                                             BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1) {
  MatmulConfig c = GetBasicConfig(basicM, basicN, basicK, intrinsicsLimit, batchLoop, bmmMode);
  c.doBasicBlock = false;
  c.doSpecialBasicBlock = true;
  c.singleCoreM = singleCoreM, c.singleCoreN = singleCoreN, c.singleCoreK = singleCoreK;
  c.stepM = stepM, c.stepN = stepN;
  return c;
}

constexpr MatmulConfig GetIBShareNormConfig(bool intrinsicsLimit = false, bool batchLoop = false,
                                            bool isVecND2NZ = false,
                                            BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1,
                                            bool isDoubleCache = false, bool enUnitFlag = true) {
  MatmulConfig c =
      AscendC::sim::base_config(enUnitFlag, intrinsicsLimit, batchLoop, isVecND2NZ, bmmMode);
  c.doIBShareNorm = true;
  c.enableDoubleCache = isDoubleCache;
  return c;
}

constexpr MatmulConfig CFG_NORM = GetNormalConfig();
constexpr MatmulConfig CFG_MDL = GetMDLConfig();
constexpr MatmulConfig MM_CFG_BB = GetBasicConfig(128, 128, 128);
constexpr MatmulConfig CFG_IBSHARE_NORM = GetIBShareNormConfig();

// --- GetMMConfig<mode>(params...): a template's config with the given groups of members ------

enum class MatmulConfigMode { CONFIG_NORM, CONFIG_MDL, CONFIG_SPECIALMDL, CONFIG_IBSHARE };

struct MatmulShapeParams {
  uint32_t singleCoreM, singleCoreN, singleCoreK;
  uint32_t basicM, basicN, basicK;
};
struct MatmulQuantParams {
  bool isPerTensor;
  bool hasAntiQuantOffset;
};
struct MatmulBatchParams {
  bool isNBatch;
  BatchMode batchMode;
  bool isBiasBatch = true;
  BatchOutMode bmmOutMode = SINGLE_BATCH;
};
struct MatmulFuncParams {
  bool intrinsicsCheck;
  bool enVecND2NZ;
  bool enableDoubleCache;
  bool enableL1CacheUB;
  uint32_t doMTE2Preload;
  IterateOrder iterateOrder;
  ScheduleType scheduleType;
  bool enableReuse = true;
  bool enableUBReuse;
  bool isPartialOutput = false;
  bool isA2B2Shared = false;
  bool isEnableChannelSplit = false;
  bool enableKdimReorderLoad = false;
  bool enableL1BankConflictOptimise = false;
  bool enableRelu = false;
};
struct MatmulBiasParams {
  bool enableSetBias = true;
};

namespace AscendC::sim {
constexpr void apply_mm_params(MatmulConfig &c, const MatmulShapeParams &p) {
  c.singleCoreM = p.singleCoreM, c.singleCoreN = p.singleCoreN, c.singleCoreK = p.singleCoreK;
  c.basicM = p.basicM, c.basicN = p.basicN, c.basicK = p.basicK;
}
constexpr void apply_mm_params(MatmulConfig &c, const MatmulQuantParams &p) {
  c.isPerTensor = p.isPerTensor, c.hasAntiQuantOffset = p.hasAntiQuantOffset;
}
constexpr void apply_mm_params(MatmulConfig &c, const MatmulBatchParams &p) {
  c.isNBatch = p.isNBatch, c.batchMode = p.batchMode, c.isBiasBatch = p.isBiasBatch;
  c.bmmOutMode = p.bmmOutMode;
}
constexpr void apply_mm_params(MatmulConfig &c, const MatmulFuncParams &p) {
  c.intrinsicsCheck = p.intrinsicsCheck, c.enVecND2NZ = p.enVecND2NZ;
  c.enableDoubleCache = p.enableDoubleCache, c.enableL1CacheUB = p.enableL1CacheUB;
  c.doMTE2Preload = p.doMTE2Preload, c.iterateOrder = p.iterateOrder;
  c.scheduleType = p.scheduleType, c.enableReuse = p.enableReuse;
  c.enableUBReuse = p.enableUBReuse, c.isPartialOutput = p.isPartialOutput;
  c.isA2B2Shared = p.isA2B2Shared, c.isEnableChannelSplit = p.isEnableChannelSplit;
  c.enableKdimReorderLoad = p.enableKdimReorderLoad;
}
constexpr void apply_mm_params(MatmulConfig &c, const MatmulBiasParams &p) {
  c.enableSetBias = p.enableSetBias;
}
}  // namespace AscendC::sim

template <MatmulConfigMode configMode, typename... ArgTypes>
constexpr MatmulConfig GetMMConfig(ArgTypes &&...args) {
  MatmulConfig c = configMode == MatmulConfigMode::CONFIG_MDL          ? CFG_MDL
                   : configMode == MatmulConfigMode::CONFIG_SPECIALMDL ? GetSpecialMDLConfig()
                   : configMode == MatmulConfigMode::CONFIG_IBSHARE    ? CFG_IBSHARE_NORM
                                                                       : CFG_NORM;
  (AscendC::sim::apply_mm_params(c, args), ...);
  return c;
}

// --- the constant tiling (GetMatmulApiTiling) ---------------------------------------------------

// Ascend C's MatmulApiStaticTiling: TCubeTiling's fields known at compile time (-1 where the
// config leaves one open) and the config. A Matmul given one as its MM_CFG and registered
// without a TCubeTiling (REGIST_MATMUL_OBJ(..., mm, nullptr)) runs with it: SetOrgShape and
// SetTail give the shapes it leaves open; open depths and steps run as 1.
struct MatmulApiStaticTiling {
  int32_t usedCoreNum = -1, M = -1, N = -1, Ka = -1, Kb = -1;
  int32_t singleCoreM = -1, singleCoreN = -1, singleCoreK = -1;
  int32_t baseM = -1, baseN = -1, baseK = -1, depthA1 = -1, depthB1 = -1;
  int32_t stepM = -1, stepN = -1, isBias = -1, transLength = -1, iterateOrder = -1;
  int32_t shareMode = -1, shareL1Size = -1, shareL0CSize = -1, shareUbSize = -1;
  int32_t stepKa = -1, stepKb = -1, depthAL1CacheUB = -1, depthBL1CacheUB = -1;
  int32_t dbL0A = -1, dbL0B = -1, dbL0C = -1;
  int32_t ALayoutInfoB = -1, ALayoutInfoS = -1, ALayoutInfoN = -1, ALayoutInfoG = -1;
  int32_t ALayoutInfoD = -1, BLayoutInfoB = -1, BLayoutInfoS = -1, BLayoutInfoN = -1;
  int32_t BLayoutInfoG = -1, BLayoutInfoD = -1, CLayoutInfoB = -1, CLayoutInfoS1 = -1;
  int32_t CLayoutInfoN = -1, CLayoutInfoG = -1, CLayoutInfoS2 = -1, BatchNum = -1;
  int32_t mxTypePara = -1;
  MatmulConfig cfg = CFG_NORM;
};

// The constant tiling of mmCFG's fixed base block (basicM/N/K) and single-core shape
// (singleCoreM/N/K), as asc.adv.get_matmul_api_tiling gives it; a config that fixes neither
// leaves every field open. l1Size (0: all of L1) and the types are checked when a Matmul runs
// with it: its blocks must fit the cube's buffers.
namespace AscendC {
template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE>
constexpr MatmulApiStaticTiling GetMatmulApiTiling(const MatmulConfig &mmCFG, int32_t l1Size = 0) {
  (void)l1Size;
  MatmulApiStaticTiling t{};
  t.cfg = mmCFG;
  if (mmCFG.basicM > 0 && mmCFG.basicN > 0 && mmCFG.basicK > 0) {
    t.baseM = static_cast<int32_t>(mmCFG.basicM);
    t.baseN = static_cast<int32_t>(mmCFG.basicN);
    t.baseK = static_cast<int32_t>(mmCFG.basicK);
    t.stepM = mmCFG.stepM > 0 ? static_cast<int32_t>(mmCFG.stepM) : -1;
    t.stepN = mmCFG.stepN > 0 ? static_cast<int32_t>(mmCFG.stepN) : -1;
    t.iterateOrder = static_cast<int32_t>(mmCFG.iterateOrder);
  }
  if (t.baseM > 0 && mmCFG.singleCoreM > 0 && mmCFG.singleCoreN > 0 && mmCFG.singleCoreK > 0) {
    t.singleCoreM = t.M = static_cast<int32_t>(mmCFG.singleCoreM);
    t.singleCoreN = t.N = static_cast<int32_t>(mmCFG.singleCoreN);
    t.singleCoreK = t.Ka = t.Kb = static_cast<int32_t>(mmCFG.singleCoreK);
  }
  return t;
}
}  // namespace AscendC
