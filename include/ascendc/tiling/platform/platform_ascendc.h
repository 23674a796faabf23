// CANN's tiling/platform/platform_ascendc.h for pyasc's simulator: what the host asks of the AI
// core it tiles for (core counts, buffer sizes, the library workspace), answered from libasc's
// device properties, the same values pyasc.host.get_ascendc_platform() reports. The simulated
// device is a 910B-class core whatever SoC name a program asks for. Link libasc (the CMake
// targets `platform` or `tiling_api`; docs/host-tiling.md, "C++").
#ifndef PYASC_ASCENDC_PLATFORM_ASCENDC_H
#define PYASC_ASCENDC_PLATFORM_ASCENDC_H

#include <cstdint>
#include <cstdio>
#include <mutex>

#include "asc/runtime.h"

namespace platform_ascendc {

enum class CoreMemType {
  L0_A = 0,
  L0_B = 1,
  L0_C = 2,
  L1 = 3,
  L2 = 4,
  UB = 5,
  HBM = 6,
  FB = 7,
  BT = 8,
  RESERVED
};

// CANN's values; the simulator answers ASCEND910B.
enum class SocVersion {
  ASCEND910 = 0,
  ASCEND910B,
  ASCEND310P,
  ASCEND310B,
  ASCEND950,
  ASCEND910_55,
  ASCEND910_95 = ASCEND950,
  RESERVED_VERSION = 99999
};

enum class ReservedSize { RESERVED_SIZE_8K, RESERVED_SIZE_16K, RESERVED_SIZE_32K };

class PlatformAscendC {
 public:
  PlatformAscendC() = delete;
  // The platform of a device as its properties are now (asc_device_get_props).
  explicit PlatformAscendC(const asc_device_props &props) : props_(props) {}

  // Cores a kernel's blocks run on: the vector (AIV) cores, as on the 910B's separated
  // architecture.
  uint32_t GetCoreNum() const { return static_cast<uint32_t>(props_.ai_core_count); }
  uint32_t GetCoreNumAic() const { return static_cast<uint32_t>(props_.cube_core_count); }
  uint32_t GetCoreNumAiv() const { return static_cast<uint32_t>(props_.ai_core_count); }
  uint32_t GetCoreNumVector() const { return 0; }  // no separate vector cores beside the AIVs
  // Blocks for a launch of sliceNum slices: a mixed kernel's group is one AIC and two AIVs, so a
  // count of AIVs given with AICs is halved into groups, as CANN computes it.
  uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
    if (aicCoreNum == 0 || aivCoreNum == 0 || aicCoreNum == aivCoreNum) return sliceNum;
    uint32_t ratio = aivCoreNum / aicCoreNum;
    if (ratio == 0) return sliceNum;
    return (sliceNum + ratio - 1) / ratio;
  }
  uint32_t CalcTschNumBlocks(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
    return CalcTschBlockDim(sliceNum, aicCoreNum, aivCoreNum);
  }
  // The system workspace Ascend C's library APIs reserve in global memory (16 MiB on a 910B).
  uint32_t GetLibApiWorkSpaceSize() const { return 16u * 1024u * 1024u; }
  // Bytes of a core memory; 0 for one the simulated device does not have (L2, FB), as CANN
  // answers for a memory the SoC lacks.
  void GetCoreMemSize(const CoreMemType &memType, uint64_t &size) const {
    switch (memType) {
      case CoreMemType::L0_A:
        size = props_.l0a_size;
        break;
      case CoreMemType::L0_B:
        size = props_.l0b_size;
        break;
      case CoreMemType::L0_C:
        size = props_.l0c_size;
        break;
      case CoreMemType::L1:
        size = props_.l1_size;
        break;
      case CoreMemType::UB:
        size = props_.ub_size > reserved_ ? props_.ub_size - reserved_ : 0;
        break;
      case CoreMemType::HBM:
        size = props_.global_mem_size;
        break;
      case CoreMemType::BT:
        size = 1024;  // the 910B's BiasTable (not a device property here)
        break;
      default:
        size = 0;
        break;
    }
  }
  // Keeps part of the UB out of GetCoreMemSize(UB), as CANN does for a kernel's own use.
  void ReserveLocalMemory(ReservedSize size) {
    reserved_ = size == ReservedSize::RESERVED_SIZE_8K    ? 8u * 1024u
                : size == ReservedSize::RESERVED_SIZE_16K ? 16u * 1024u
                                                          : 32u * 1024u;
  }
  SocVersion GetSocVersion() const { return SocVersion::ASCEND910B; }
  // The device's libasc properties (pyasc's own accessor, for the matmul tiling).
  const asc_device_props &Props() const { return props_; }

 private:
  asc_device_props props_;
  size_t reserved_ = 0;
};

class PlatformAscendCManager {
 public:
  // The platform of the calling thread's current device (device 0 before aclrtSetDevice), taken
  // once; nullptr (with libasc's message on stderr) when libasc cannot describe it.
  static PlatformAscendC *GetInstance() { return Instance(); }
  // CANN picks the SoC by name; the simulator is one 910B-class device, so the name is accepted
  // and the simulated device described.
  static PlatformAscendC *GetInstance(const char *customSocVersion) {
    (void)customSocVersion;
    return Instance();
  }

 private:
  PlatformAscendCManager() = default;
  static PlatformAscendC *Instance() {
    static std::mutex mtx;
    static PlatformAscendC *instance = nullptr;
    const std::lock_guard<std::mutex> lock(mtx);
    if (instance == nullptr) {
      asc_device_props props;
      asc_status st = asc_device_get_props(asc_device_current(), &props);
      if (st != ASC_OK) {
        std::fprintf(stderr, "platform_ascendc: cannot describe the device: %s\n",
                     asc_last_error());
        return nullptr;
      }
      // The singleton lives as long as the program, as CANN's does.
      static PlatformAscendC platform(props);
      instance = &platform;
    }
    return instance;
  }
};

}  // namespace platform_ascendc

#endif
