/* The DLPack 1.x exchange structures (https://dmlc.github.io/dlpack/latest/c_api.html),
 * written from the specification: only what pyasc produces and consumes.
 * Layouts are part of the ABI shared with every other DLPack library, so the
 * field order and sizes below must never change. */
#ifndef ASC_DLPACK_H
#define ASC_DLPACK_H

#include <stdint.h>

/* The version pyasc produces; a consumer accepts any 1.x. */
#define DLPACK_MAJOR_VERSION 1
#define DLPACK_MINOR_VERSION 0

/* DLManagedTensorVersioned.flags */
#define DLPACK_FLAG_BITMASK_READ_ONLY (UINT64_C(1) << 0)
#define DLPACK_FLAG_BITMASK_IS_COPIED (UINT64_C(1) << 1)

/* PyCapsule names of the Python exchange protocol; a consumer renames the
 * capsule to the "used_" form once it owns the tensor. */
#define DLPACK_CAPSULE_LEGACY "dltensor"
#define DLPACK_CAPSULE_LEGACY_USED "used_dltensor"
#define DLPACK_CAPSULE_VERSIONED "dltensor_versioned"
#define DLPACK_CAPSULE_VERSIONED_USED "used_dltensor_versioned"

typedef struct {
  uint32_t major;
  uint32_t minor;
} DLPackVersion;

/* Device kinds; the values are fixed by the specification. */
typedef enum {
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLCUDAHost = 3,
  kDLOpenCL = 4,
  kDLVulkan = 7,
  kDLMetal = 8,
  kDLVPI = 9,
  kDLROCM = 10,
  kDLROCMHost = 11,
  kDLExtDev = 12,
  kDLCUDAManaged = 13,
  kDLOneAPI = 14,
  kDLWebGPU = 15,
  kDLHexagon = 16,
  kDLMAIA = 17,
} DLDeviceType;

typedef struct {
  DLDeviceType device_type;
  int32_t device_id;
} DLDevice;

/* Element type codes. */
typedef enum {
  kDLInt = 0,
  kDLUInt = 1,
  kDLFloat = 2,
  kDLOpaqueHandle = 3,
  kDLBfloat = 4,
  kDLComplex = 5,
  kDLBool = 6,
} DLDataTypeCode;

typedef struct {
  uint8_t code;   /* a DLDataTypeCode */
  uint8_t bits;   /* per lane */
  uint16_t lanes; /* 1 for scalars; more for vector types */
} DLDataType;

typedef struct {
  void *data; /* the first element is at data + byte_offset */
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t *shape;
  int64_t *strides; /* in elements; NULL means C-contiguous */
  uint64_t byte_offset;
} DLTensor;

/* The pre-1.0 form, still exchanged in "dltensor" capsules. */
typedef struct DLManagedTensor {
  DLTensor dl_tensor;
  void *manager_ctx;
  void (*deleter)(struct DLManagedTensor *self); /* may be NULL */
} DLManagedTensor;

/* The 1.x form, exchanged in "dltensor_versioned" capsules: the version
 * comes first so that a consumer can check it before reading the rest. */
typedef struct DLManagedTensorVersioned {
  DLPackVersion version;
  void *manager_ctx;
  void (*deleter)(struct DLManagedTensorVersioned *self); /* may be NULL */
  uint64_t flags;
  DLTensor dl_tensor;
} DLManagedTensorVersioned;

_Static_assert(sizeof(DLDevice) == 8, "DLDevice is two 32-bit fields");
_Static_assert(sizeof(DLDataType) == 4, "DLDataType is packed into 32 bits");

#endif
