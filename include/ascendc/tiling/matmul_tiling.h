// Part of tiling/tiling_api.h: CANN's matmul_tiling classes (MatmulApiTiling,
// MultiCoreMatmulTiling, BatchMatmulTiling) as a thin C++ layer over libasc's asc_tiling_* (the
// one implementation of the search, the one pyasc.host runs; docs/host-tiling.md).
//
// Setters return 0, or -1 with libasc's reason on stderr where libasc refuses the value; the
// context then keeps its earlier value and GetTiling returns -1 until that setter succeeds, so a
// program that does not look at the setters' results still gets -1 from GetTiling, as Ascend C's
// checks there give it. GetTiling returns 0, or -1 (the reason on stderr, the tiling untouched).
#ifndef PYASC_ASCENDC_MATMUL_TILING_H
#define PYASC_ASCENDC_MATMUL_TILING_H

#include <cstdint>
#include <cstdio>
#include <cstring>

#include "../kernel_operator/enum_lists.h"
#include "../kernel_tiling/kernel_tiling.h"
#include "../register/tilingdata_base.h"
#include "asc/runtime.h"
#include "asc/tiling.h"
#include "platform/platform_ascendc.h"

// TCubeTiling's members in Ascend C's order, for the host-side class and the copies below
// (clang-format does not keep a macro list of calls stable).
// clang-format off
#define PYASC_TCUBE_FIELDS(X)                                                                 \
  X(usedCoreNum) X(M) X(N) X(Ka) X(Kb) X(singleCoreM) X(singleCoreN) X(singleCoreK)           \
  X(baseM) X(baseN) X(baseK) X(depthA1) X(depthB1) X(stepM) X(stepN) X(isBias)               \
  X(transLength) X(iterateOrder) X(shareMode) X(shareL1Size) X(shareL0CSize) X(shareUbSize)   \
  X(batchM) X(batchN) X(singleBatchM) X(singleBatchN) X(stepKa) X(stepKb)                     \
  X(depthAL1CacheUB) X(depthBL1CacheUB) X(dbL0A) X(dbL0B) X(dbL0C)                            \
  X(ALayoutInfoB) X(ALayoutInfoS) X(ALayoutInfoN) X(ALayoutInfoG) X(ALayoutInfoD)             \
  X(BLayoutInfoB) X(BLayoutInfoS) X(BLayoutInfoN) X(BLayoutInfoG) X(BLayoutInfoD)             \
  X(CLayoutInfoB) X(CLayoutInfoS1) X(CLayoutInfoN) X(CLayoutInfoG) X(CLayoutInfoS2) X(BatchNum)
// clang-format on

#define PYASC_TCUBE_DEF(name) TILING_DATA_FIELD_DEF(int32_t, name);

namespace optiling {
// The host-side TCubeTiling (set_M, get_M, ..., SaveToBuffer): the same 49 int32 in the same
// order, so its bytes are the kernel's AscendC::tiling::TCubeTiling.
BEGIN_TILING_DATA_DEF(TCubeTiling)
PYASC_TCUBE_FIELDS(PYASC_TCUBE_DEF)
END_TILING_DATA_DEF;
}  // namespace optiling

#undef PYASC_TCUBE_DEF

static_assert(sizeof(AscendC::tiling::TCubeTiling) == sizeof(asc_tcube_tiling),
              "libasc's TCubeTiling and the kernel's have the same members");

namespace matmul_tiling {

// GE's data type numbers; the cube takes DT_FLOAT16, DT_BF16, DT_FLOAT and DT_INT8 operands.
enum class DataType : int32_t {
  PYASC_GE_DATA_TYPES,
  DT_BFLOAT16 = 33,
  DT_HIFLOAT8 = 34,
  DT_FLOAT8_E4M3FN = 35,
  DT_FLOAT8_E5M2 = 36,
  DT_FLOAT4_E2M1 = 37,
  DT_FLOAT8_E8M0 = 38,
  DT_FLOAT4_E1M2 = 39,
  DT_MAX = 40,
};

enum class TPosition : int32_t {
  PYASC_TPOSITIONS,
  MAX,
};

enum class TilingPolicy : int32_t { FIXED_A_TSCM, FIXED_B_TSCM, FIXED_A_B_TSCM, NO_POLICY };

enum class CubeFormat : int32_t {
  ND = 0,
  NZ,
  ZN,
  ZZ,
  NN,
  ND_ALIGN,
  SCALAR,
  VECTOR,
  ROW_MAJOR = ND,
  COLUMN_MAJOR = 8,
};

enum class MatrixTraverse : int32_t { NOSET = 0, FIRSTM = 1, FIRSTN = 2 };
enum class MatrixMadType : int32_t { NORMAL = 0, HF32 = 1, MXMODE = 2 };
enum class DequantType : int32_t { SCALAR = 0, TENSOR = 1 };
enum class ScheduleType : int32_t { INNER_PRODUCT = 0, OUTER_PRODUCT = 1, N_BUFFER_33 = 2 };

struct SysTilingTempBufSize {
  int32_t ubSize = 0;
  int32_t l1Size = 0;
  int32_t l0cSize = 0;
};

// Buffer sizes to tile for instead of the device's (0: the device's).
struct PlatformInfo {
  platform_ascendc::SocVersion socVersion = platform_ascendc::SocVersion::ASCEND910B;
  uint64_t l1Size = 0;
  uint64_t l0CSize = 0;
  uint64_t ubSize = 0;
  uint64_t l0ASize = 0;
  uint64_t l0BSize = 0;
};

struct MatmulConfigParams {
  int32_t mmConfigType;
  bool enableL1CacheUB;
  ScheduleType scheduleType;
  MatrixTraverse traverse;
  bool enVecND2NZ;
  MatmulConfigParams(int32_t mmConfigTypeIn = 1, bool enableL1CacheUBIn = false,
                     ScheduleType scheduleTypeIn = ScheduleType::INNER_PRODUCT,
                     MatrixTraverse traverseIn = MatrixTraverse::NOSET, bool enVecND2NZIn = false)
      : mmConfigType(mmConfigTypeIn),
        enableL1CacheUB(enableL1CacheUBIn),
        scheduleType(scheduleTypeIn),
        traverse(traverseIn),
        enVecND2NZ(enVecND2NZIn) {}
};

class MatmulApiTilingBase {
 public:
  virtual ~MatmulApiTilingBase() = default;

  int32_t SetAType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false) {
    return Done(kSetAType, "SetAType", Type(ASC_TILING_A, pos, type, dataType, isTrans));
  }
  int32_t SetBType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false) {
    return Done(kSetBType, "SetBType", Type(ASC_TILING_B, pos, type, dataType, isTrans));
  }
  int32_t SetCType(TPosition pos, CubeFormat type, DataType dataType) {
    return Done(kSetCType, "SetCType", Type(ASC_TILING_C, pos, type, dataType, false));
  }
  int32_t SetBiasType(TPosition pos, CubeFormat type, DataType dataType) {
    return Done(kSetBiasType, "SetBiasType", Type(ASC_TILING_BIAS, pos, type, dataType, false));
  }
  // Quantisation changes the kernel's arithmetic, not its tiling.
  int32_t SetDequantType(DequantType dequantType) {
    bool ok = dequantType == DequantType::SCALAR || dequantType == DequantType::TENSOR;
    return Done(kSetDequantType, "SetDequantType",
                ok ? ASC_OK
                   : asc_error(ASC_ERR_INVALID_VALUE, "unknown DequantType %d",
                               static_cast<int>(dequantType)));
  }
  virtual int32_t SetShape(int32_t m, int32_t n, int32_t k) {
    return Done(kSetShape, "SetShape", asc_tiling_set_shape(&ctx_, m, n, k));
  }
  int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKIn) {
    return SetOrgShape(orgMIn, orgNIn, orgKIn, orgKIn);
  }
  int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKaIn, int32_t orgKbIn) {
    return Done(kSetOrgShape, "SetOrgShape",
                asc_tiling_set_org_shape(&ctx_, orgMIn, orgNIn, orgKaIn, orgKbIn));
  }
  int32_t SetALayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) {
    return Layout(0, kSetALayout, "SetALayout", b, s, n, g, d);
  }
  int32_t SetBLayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) {
    return Layout(1, kSetBLayout, "SetBLayout", b, s, n, g, d);
  }
  int32_t SetCLayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) {
    return Layout(2, kSetCLayout, "SetCLayout", b, s, n, g, d);
  }
  int32_t SetBatchInfoForNormal(int32_t batchA, int32_t batchB, int32_t m, int32_t n, int32_t k) {
    return Done(kSetBatchInfo, "SetBatchInfoForNormal",
                asc_tiling_set_batch_info(&ctx_, batchA, batchB, m, n, k));
  }
  int32_t SetBatchNum(int32_t batch) {
    return Done(kSetBatchNum, "SetBatchNum", asc_tiling_set_batch_num(&ctx_, batch));
  }
  int32_t EnableBias(bool isBiasIn = false) {
    return Done(kEnableBias, "EnableBias", asc_tiling_enable_bias(&ctx_, isBiasIn));
  }
  int32_t SetBias(bool isBiasIn = false) { return EnableBias(isBiasIn); }
  int32_t SetFixSplit(int32_t baseMIn = -1, int32_t baseNIn = -1, int32_t baseKIn = -1) {
    return Done(kSetFixSplit, "SetFixSplit",
                asc_tiling_set_fix_split(&ctx_, baseMIn, baseNIn, baseKIn));
  }
  int32_t SetBufferSpace(int32_t l1Size = -1, int32_t l0CSize = -1, int32_t ubSize = -1,
                         int32_t btSize = -1) {
    return Done(kSetBufferSpace, "SetBufferSpace",
                asc_tiling_set_buffer_space(&ctx_, l1Size, l0CSize, ubSize, btSize));
  }
  int32_t SetTraverse(MatrixTraverse traverse) {
    return Done(kSetTraverse, "SetTraverse",
                asc_tiling_set_traverse(&ctx_, static_cast<int32_t>(traverse)));
  }
  // HF32 changes the cube's arithmetic, not the tiling.
  int32_t SetMadType(MatrixMadType madType) {
    int v = static_cast<int>(madType);
    return Done(kSetMadType, "SetMadType",
                v >= 0 && v <= 2 ? ASC_OK
                                 : asc_error(ASC_ERR_INVALID_VALUE, "unknown MatrixMadType %d", v));
  }
  int32_t SetSplitRange(int32_t maxBaseM = -1, int32_t maxBaseN = -1, int32_t maxBaseK = -1,
                        int32_t minBaseM = -1, int32_t minBaseN = -1, int32_t minBaseK = -1) {
    const int64_t maxBase[3] = {maxBaseM, maxBaseN, maxBaseK};
    const int64_t minBase[3] = {minBaseM, minBaseN, minBaseK};
    return Done(kSetSplitRange, "SetSplitRange",
                asc_tiling_set_split_range(&ctx_, maxBase, minBase));
  }
  // Accepted and, as in Ascend C, not steering the search.
  int32_t SetDoubleBuffer(bool a, bool b, bool c, bool bias, bool transND2NZ = true,
                          bool transNZ2ND = true) {
    (void)transND2NZ, (void)transNZ2ND;
    return Done(kSetDoubleBuffer, "SetDoubleBuffer",
                asc_tiling_set_double_buffer(&ctx_, a, b, c, bias));
  }
  // Only the traversal bears on this tiling; an L1 cache of UB data is not supported.
  void SetMatmulConfigParams(int32_t mmConfigTypeIn = 1, bool enableL1CacheUBIn = false,
                             ScheduleType scheduleTypeIn = ScheduleType::INNER_PRODUCT,
                             MatrixTraverse traverseIn = MatrixTraverse::NOSET,
                             bool enVecND2NZIn = false) {
    (void)mmConfigTypeIn, (void)enVecND2NZIn;
    asc_status st = enableL1CacheUBIn
                        ? asc_error(ASC_ERR_UNSUPPORTED, "enableL1CacheUB is not supported")
                    : scheduleTypeIn != ScheduleType::INNER_PRODUCT &&
                            scheduleTypeIn != ScheduleType::OUTER_PRODUCT
                        ? asc_error(ASC_ERR_UNSUPPORTED, "ScheduleType %d is not supported",
                                    static_cast<int>(scheduleTypeIn))
                        : asc_tiling_set_traverse(&ctx_, static_cast<int32_t>(traverseIn));
    Done(kSetConfig, "SetMatmulConfigParams", st);
  }
  void SetMatmulConfigParams(const MatmulConfigParams &configParams) {
    SetMatmulConfigParams(configParams.mmConfigType, configParams.enableL1CacheUB,
                          configParams.scheduleType, configParams.traverse,
                          configParams.enVecND2NZ);
  }
  int32_t SetSparse(bool isSparseIn = false) {
    return Done(kSetSparse, "SetSparse", asc_tiling_set_sparse(&ctx_, isSparseIn));
  }
  // After GetTiling the computed size, before it the fixed one (-1: none).
  int32_t GetBaseM() const { return ctx_.has_result ? ctx_.result.baseM : ctx_.base_m; }
  int32_t GetBaseN() const { return ctx_.has_result ? ctx_.result.baseN : ctx_.base_n; }
  int32_t GetBaseK() const { return ctx_.has_result ? ctx_.result.baseK : ctx_.base_k; }

  virtual int64_t GetTiling(optiling::TCubeTiling &tiling) {
    asc_tcube_tiling t;
    if (Compute(&t) != 0) return -1;
#define PYASC_TCUBE_SET(name) tiling.set_##name(t.name);
    PYASC_TCUBE_FIELDS(PYASC_TCUBE_SET)
#undef PYASC_TCUBE_SET
    return 0;
  }
  virtual int64_t GetTiling(AscendC::tiling::TCubeTiling &tiling) {
    asc_tcube_tiling t;
    if (Compute(&t) != 0) return -1;
#define PYASC_TCUBE_COPY(name) tiling.name = t.name;
    PYASC_TCUBE_FIELDS(PYASC_TCUBE_COPY)
#undef PYASC_TCUBE_COPY
    return 0;
  }

 protected:
  MatmulApiTilingBase(asc_tiling_kind kind, const asc_device_props *props) {
    std::memset(&ctx_, 0, sizeof ctx_);
    asc_device_props current;
    if (props == nullptr) {
      asc_status st = asc_device_get_props(asc_device_current(), &current);
      if (st != ASC_OK) {
        Done(kInit, "MatmulApiTiling", st);
        return;
      }
      props = &current;
    }
    Done(kInit, "MatmulApiTiling", asc_tiling_init(&ctx_, kind, props));
  }
  // The device's properties with a PlatformInfo's buffer sizes in place of its own.
  static asc_device_props WithSizes(const PlatformInfo &info) {
    asc_device_props props;
    std::memset(&props, 0, sizeof props);
    if (asc_device_get_props(asc_device_current(), &props) != ASC_OK) return props;
    if (info.l1Size != 0) props.l1_size = static_cast<size_t>(info.l1Size);
    if (info.l0CSize != 0) props.l0c_size = static_cast<size_t>(info.l0CSize);
    if (info.ubSize != 0) props.ub_size = static_cast<size_t>(info.ubSize);
    if (info.l0ASize != 0) props.l0a_size = static_cast<size_t>(info.l0ASize);
    if (info.l0BSize != 0) props.l0b_size = static_cast<size_t>(info.l0BSize);
    return props;
  }

  // The calls whose refusal GetTiling reports: one bit each.
  enum Call : uint32_t {
    kInit,
    kSetAType,
    kSetBType,
    kSetCType,
    kSetBiasType,
    kSetDequantType,
    kSetShape,
    kSetOrgShape,
    kSetALayout,
    kSetBLayout,
    kSetCLayout,
    kSetBatchInfo,
    kSetBatchNum,
    kEnableBias,
    kSetFixSplit,
    kSetBufferSpace,
    kSetTraverse,
    kSetMadType,
    kSetSplitRange,
    kSetDoubleBuffer,
    kSetConfig,
    kSetSparse,
    kSetDim,
    kSetSingleShape,
    kSetSingleRange,
    kSetAlignSplit,
    kSplitK,
    kCallCount
  };
  static_assert(kCallCount <= 32, "one bit per call");

  // Records a call's outcome: 0, or -1 with libasc's message on stderr.
  int32_t Done(Call call, const char *what, asc_status st) {
    if (st == ASC_OK) {
      failed_ &= ~(1u << call);
      return 0;
    }
    failed_ |= 1u << call;
    failedName_[call] = what;
    std::fprintf(stderr, "matmul_tiling: %s: %s\n", what, asc_last_error());
    return -1;
  }
  // The tiling, or -1 when a setter was refused or no tiling fits.
  int Compute(asc_tcube_tiling *out) {
    if (failed_ != 0) {
      for (uint32_t i = 0; i < kCallCount; i++) {
        if (failed_ & (1u << i)) {
          std::fprintf(stderr, "matmul_tiling: GetTiling: %s was refused (its message above)\n",
                       failedName_[i]);
          break;
        }
      }
      return -1;
    }
    asc_status st = asc_tiling_matmul_get(&ctx_, out);
    if (st != ASC_OK) {
      std::fprintf(stderr, "matmul_tiling: GetTiling: %s\n", asc_last_error());
      return -1;
    }
    return 0;
  }

  asc_tiling_ctx ctx_;
  uint32_t failed_ = 0;
  const char *failedName_[kCallCount] = {};

 private:
  asc_status Type(asc_tiling_operand_id which, TPosition pos, CubeFormat type, DataType dataType,
                  bool isTrans) {
    return asc_tiling_set_type(&ctx_, which, static_cast<int32_t>(pos), static_cast<int32_t>(type),
                               static_cast<int32_t>(dataType), isTrans);
  }
  int32_t Layout(int which, Call call, const char *what, int32_t b, int32_t s, int32_t n, int32_t g,
                 int32_t d) {
    const int64_t values[5] = {b, s, n, g, d};
    return Done(call, what, asc_tiling_set_layout(&ctx_, which, values));
  }
};

// One core computes the shape.
class MatmulApiTiling : public MatmulApiTilingBase {
 public:
  MatmulApiTiling() : MatmulApiTilingBase(ASC_TILING_SINGLE_CORE, nullptr) {}
  explicit MatmulApiTiling(const platform_ascendc::PlatformAscendC &ascendcPlatform)
      : MatmulApiTilingBase(ASC_TILING_SINGLE_CORE, &ascendcPlatform.Props()) {}
  explicit MatmulApiTiling(const PlatformInfo &platform)
      : MatmulApiTilingBase(ASC_TILING_SINGLE_CORE, nullptr) {
    asc_device_props props = WithSizes(platform);
    Done(kInit, "MatmulApiTiling", asc_tiling_init(&ctx_, ASC_TILING_SINGLE_CORE, &props));
  }
  using MatmulApiTilingBase::GetTiling;
};

// M and N (and with EnableMultiCoreSplitK, K) spread over up to SetDim cores.
class MultiCoreMatmulTiling : public MatmulApiTilingBase {
 public:
  MultiCoreMatmulTiling() : MatmulApiTilingBase(ASC_TILING_MULTI_CORE, nullptr) {}
  explicit MultiCoreMatmulTiling(const platform_ascendc::PlatformAscendC &ascendcPlatform)
      : MatmulApiTilingBase(ASC_TILING_MULTI_CORE, &ascendcPlatform.Props()) {}
  explicit MultiCoreMatmulTiling(const PlatformInfo &platform)
      : MatmulApiTilingBase(ASC_TILING_MULTI_CORE, nullptr) {
    asc_device_props props = WithSizes(platform);
    Done(kInit, "MultiCoreMatmulTiling", asc_tiling_init(&ctx_, ASC_TILING_MULTI_CORE, &props));
  }
  int32_t SetDim(int32_t dim) { return Done(kSetDim, "SetDim", asc_tiling_set_dim(&ctx_, dim)); }
  int32_t SetShape(int32_t m, int32_t n, int32_t k) override {
    return MatmulApiTilingBase::SetShape(m, n, k);
  }
  virtual int32_t SetSingleShape(int32_t singleMIn = -1, int32_t singleNIn = -1,
                                 int32_t singleKIn = -1) {
    return Done(kSetSingleShape, "SetSingleShape",
                asc_tiling_set_single_shape(&ctx_, singleMIn, singleNIn, singleKIn));
  }
  virtual int32_t SetSingleRange(int32_t maxM = -1, int32_t maxN = -1, int32_t maxK = -1,
                                 int32_t minM = -1, int32_t minN = -1, int32_t minK = -1) {
    const int64_t maxSingle[3] = {maxM, maxN, maxK};
    const int64_t minSingle[3] = {minM, minN, minK};
    return Done(kSetSingleRange, "SetSingleRange",
                asc_tiling_set_single_range(&ctx_, maxSingle, minSingle));
  }
  int32_t SetAlignSplit(int32_t alignM, int32_t alignN, int32_t alignK) {
    return Done(kSetAlignSplit, "SetAlignSplit",
                asc_tiling_set_align_split(&ctx_, alignM, alignN, alignK));
  }
  // singleCoreM/N/K of the last tiling (-1 before one).
  int32_t GetSingleShape(int32_t &shapeM, int32_t &shapeN, int32_t &shapeK) {
    shapeM = ctx_.has_result ? ctx_.result.singleCoreM : -1;
    shapeN = ctx_.has_result ? ctx_.result.singleCoreN : -1;
    shapeK = ctx_.has_result ? ctx_.result.singleCoreK : -1;
    return ctx_.has_result ? 0 : -1;
  }
  // Cores of the last tiling: all of them, along M and along N (-1 before one).
  int32_t GetCoreNum(int32_t &dim, int32_t &mDim, int32_t &nDim) {
    dim = ctx_.has_result ? ctx_.result.usedCoreNum : -1;
    mDim = ctx_.has_result ? ctx_.m_dim : -1;
    nDim = ctx_.has_result ? ctx_.n_dim : -1;
    return ctx_.has_result ? 0 : -1;
  }
  void EnableMultiCoreSplitK(bool flag) {
    Done(kSplitK, "EnableMultiCoreSplitK", asc_tiling_enable_split_k(&ctx_, flag));
  }
  void SetSplitK(bool flag) { EnableMultiCoreSplitK(flag); }
  using MatmulApiTilingBase::GetTiling;
};

// Like MatmulApiTiling, plus the batch fields (SetBatchInfoForNormal, SetBatchNum).
class BatchMatmulTiling : public MatmulApiTilingBase {
 public:
  BatchMatmulTiling() : MatmulApiTilingBase(ASC_TILING_BATCH, nullptr) {}
  explicit BatchMatmulTiling(const platform_ascendc::PlatformAscendC &ascendcPlatform)
      : MatmulApiTilingBase(ASC_TILING_BATCH, &ascendcPlatform.Props()) {}
  // Batches are not spread over cores here: batchCoreM and batchCoreN are 1.
  int32_t GetCoreNum(int32_t &dim, int32_t &mDim, int32_t &nDim, int32_t &batchCoreM,
                     int32_t &batchCoreN) {
    dim = ctx_.has_result ? ctx_.result.usedCoreNum : -1;
    mDim = ctx_.has_result ? ctx_.m_dim : -1;
    nDim = ctx_.has_result ? ctx_.n_dim : -1;
    batchCoreM = ctx_.has_result ? 1 : -1;
    batchCoreN = ctx_.has_result ? 1 : -1;
    return ctx_.has_result ? 0 : -1;
  }
  using MatmulApiTilingBase::GetTiling;
};

}  // namespace matmul_tiling

#endif
