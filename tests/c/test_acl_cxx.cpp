// ACL's headers compiled as C++, the language of CANN's host programs: a
// round trip through device memory, checked against the host's bytes.
#include <cstdio>
#include <cstring>
#include <vector>

#include "acl/acl.h"

#define CHECK(expr)                                                                   \
  do {                                                                                \
    aclError err_ = (expr);                                                           \
    if (err_ != ACL_SUCCESS) {                                                        \
      const char *msg_ = aclGetRecentErrMsg();                                        \
      std::fprintf(stderr, "%s: %d (%s)\n", #expr, err_, msg_ ? msg_ : "no message"); \
      return 1;                                                                       \
    }                                                                                 \
  } while (0)

int main() {
  const size_t n = 1000;
  std::vector<unsigned char> host(n), back(n, 0);
  for (size_t i = 0; i < n; i++) host[i] = static_cast<unsigned char>(i * 7 + 1);
  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  CHECK(aclrtCreateStream(&stream));
  void *dev = nullptr;
  CHECK(aclrtMalloc(&dev, n, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMemcpyAsync(dev, n, host.data(), n, ACL_MEMCPY_HOST_TO_DEVICE, stream));
  CHECK(aclrtMemcpyAsync(back.data(), n, dev, n, ACL_MEMCPY_DEVICE_TO_HOST, stream));
  CHECK(aclrtSynchronizeStream(stream));
  if (std::memcmp(host.data(), back.data(), n) != 0) {
    std::fprintf(stderr, "the round trip changed the bytes\n");
    return 1;
  }
  // An error code from C++: a bad argument, and its message.
  if (aclrtMalloc(nullptr, n, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_ERROR_INVALID_PARAM) return 1;
  if (aclGetRecentErrMsg() == nullptr) return 1;
  CHECK(aclrtFree(dev));
  CHECK(aclrtDestroyStream(stream));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  return 0;
}
