// Huawei's securec (the bounds-checked C library CANN's headers bring with them) for host code:
// what CANN's examples call of it. errno_t and the EOK/EINVAL/ERANGE returns are securec's;
// like securec, a copy that does not fit clears the destination and copies nothing.
#ifndef PYASC_ASCENDC_SECUREC_H
#define PYASC_ASCENDC_SECUREC_H

#include <cerrno>
#include <cstddef>
#include <cstring>

#ifndef EOK
#define EOK 0
#endif
typedef int errno_t;

// count bytes of src into dest, which holds destMax; EINVAL for a null pointer, ERANGE (dest
// cleared) when count exceeds destMax.
inline errno_t memcpy_s(void *dest, size_t destMax, const void *src, size_t count) {
  if (dest == nullptr || destMax == 0) return EINVAL;
  if (src == nullptr) {
    std::memset(dest, 0, destMax);
    return EINVAL;
  }
  if (count > destMax) {
    std::memset(dest, 0, destMax);
    return ERANGE;
  }
  std::memmove(dest, src, count);
  return EOK;
}

// count bytes of c into dest, which holds destMax; ERANGE (destMax bytes set) past it.
inline errno_t memset_s(void *dest, size_t destMax, int c, size_t count) {
  if (dest == nullptr || destMax == 0) return EINVAL;
  if (count > destMax) {
    std::memset(dest, c, destMax);
    return ERANGE;
  }
  std::memset(dest, c, count);
  return EOK;
}

#endif
