/* Launching an Ascend C kernel compiled into the host program itself (a
 * `.asc` file built by pyasc's driver, `python -m pyasc asc-compile`), as
 * CANN's `kernel<<<blockDim, l2ctrl, stream>>>(args...)` does.
 *
 * The driver rewrites each `<<<...>>>` launch into a call of
 * AscendC::sim::host_launch (below), which packs the arguments and calls
 * pyasc_sim_launch in libasc: the same launcher as a kernel loaded by
 * pyasc.ascendc.load, so a block runs the same entry with the same runtime
 * table. The launch is asynchronous on the stream (NULL: the current
 * device's default stream); errors come back as ACL codes, with
 * aclGetRecentErrMsg's message (a launch's own error is printed to stderr
 * too: CANN's launches return nothing), and a kernel's failure is reported by the
 * stream's synchronisation (ACL_ERROR_RT_AICORE_EXCEPTION). */
#ifndef PYASC_SIM_LAUNCH_H
#define PYASC_SIM_LAUNCH_H

#include <stdint.h>

#include "pyasc_sim.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A kernel compiled into the program: what a loaded kernel's library
 * declares (kernel_operator.h PYASC_SIM_ENTRY), given by address. */
typedef struct pyasc_sim_kernel {
  const char *name;
  /* one block's run: 0, or 1 with the message in the context */
  int (*entry)(void *k, const void *args);
  const char *params; /* one kind a parameter: 'a' address, 'i', 'b', 'f' */
  /* the slot the kernel's calls read the runtime's table from: set by
   * every launch (checked mode when PYASC_DEBUG is set and not 0) */
  const pyasc_sim_api **table;
  int cube;     /* the kernel uses the cube: the cube's table */
  int all_live; /* 0, or as asc_kernel_all_live (1 SyncAll, 2-4 mode-0 flags) */
} pyasc_sim_kernel;

/* Queues kernel over block_dim blocks on stream (an aclrtStream). An
 * address argument must point into memory from aclrtMalloc (or be NULL):
 * the kernel may reach from it to the end of that allocation. Returns an
 * aclError (0: queued). */
int pyasc_sim_launch(const pyasc_sim_kernel *kernel, uint32_t block_dim, void *stream,
                     const pyasc_sim_arg *args, int nargs);

/* The table the runtime gives a kernel of this kind (cube: it uses the
 * cube) in the mode PYASC_DEBUG asks for: the program's slot holds it from
 * its start, so that host code's half and bfloat16_t conversions, which go
 * through the table, work before any launch. */
const pyasc_sim_api *pyasc_sim_host_table(int cube);

#ifdef __cplusplus
}

/* The C++ side: only with kernel_operator.h, whose entry it reuses. */
#ifdef PYASC_ASCENDC_KERNEL_OPERATOR_H
#include "acl/acl_rt.h"
// The program's one table slot (a kernel's library defines its own: PYASC_SIM_ENTRY); weak, so
// that several .asc files of one program share it.
extern "C" {
__attribute__((weak)) const pyasc_sim_api *pyasc_sim_table = nullptr;
}
namespace AscendC {
namespace sim {
struct HostTable {
  HostTable() {
    if (!pyasc_sim_table) pyasc_sim_table = pyasc_sim_host_table(PYASC_SIM_CUBE);
  }
};
// before the program's own static objects of this file, which follow the header
static const HostTable host_table;
}  // namespace sim
}  // namespace AscendC

namespace AscendC {
namespace sim {

template <auto F, int Group>
int host_block(void *k, const void *args) {
  return entry(
      k, args, [](void *kc, const void *a) { return run(kc, a, F); }, Group);
}

template <typename P, typename T>
pyasc_sim_arg host_arg(T &&value) {
  P v = static_cast<P>(value);
  pyasc_sim_arg a{};
  if constexpr (std::is_class_v<P>) {
    // A struct passed by value travels as a copy in device memory, which the launch may read
    // after this call returns: it is released with the device's memory (aclrtResetDevice,
    // aclFinalize). A failed allocation leaves NULL, which the kernel's entry reports.
    void *copy = nullptr;
    if (aclrtMalloc(&copy, sizeof(P), ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
        aclrtMemcpy(copy, sizeof(P), &v, sizeof(P), ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS)
      copy = nullptr;
    a.v.p = static_cast<char *>(copy);
  } else if constexpr (std::is_pointer_v<P>)
    a.v.p = const_cast<char *>(reinterpret_cast<const char *>(v));
  else if constexpr (std::is_same_v<P, half> || std::is_same_v<P, bfloat16_t>)
    a.v.f = static_cast<float>(v);
  else if constexpr (std::is_floating_point_v<P>)
    a.v.f = static_cast<double>(v);
  else
    a.v.i = static_cast<int64_t>(v);
  return a;
}

template <auto F, int Group, typename... P, typename... T>
int host_launch_as(void (*)(P...), const char *name, uint32_t blocks, void *stream, T &&...args) {
  static_assert(sizeof...(P) == sizeof...(T),
                "the launch passes as many arguments as the kernel takes");
  static_assert(params_supported(F),
                "kernel parameters must be pointers (GM_ADDR), integers, floats, bool or structs "
                "that are trivially copyable");
  static constexpr ParamText params = param_text(F);
  pyasc_sim_arg packed[sizeof...(P) + 1] = {host_arg<P>(static_cast<T &&>(args))...};
  static const pyasc_sim_kernel kernel = {
    name,
    &host_block<F, Group>,
    params.s,
    &pyasc_sim_table,
    PYASC_SIM_CUBE,
#if defined(PYASC_SIM_ALL_LIVE)
    PYASC_SIM_ALL_LIVE
#else
    0
#endif
  };
  return pyasc_sim_launch(&kernel, blocks, stream, packed, static_cast<int>(sizeof...(P)));
}

// A stream as written in a launch: an aclrtStream, nullptr or 0.
template <typename S>
void *host_stream(S &&stream) {
  if constexpr (std::is_pointer_v<std::decay_t<S>>)
    return static_cast<void *>(stream);
  else if constexpr (std::is_null_pointer_v<std::decay_t<S>>)
    return nullptr;
  else
    return reinterpret_cast<void *>(static_cast<intptr_t>(stream));
}

// kernel<<<blocks, l2ctrl, stream>>>(args...), as the driver writes it (l2ctrl is ignored),
// Group the kernel's PYASC_SIM_KERNEL_GROUP where the launch is written.
template <auto F, int Group, typename L, typename S, typename... T>
int host_launch(const char *name, uint32_t blocks, L &&, S &&stream, T &&...args) {
  return host_launch_as<F, Group>(F, name, blocks, host_stream(static_cast<S &&>(stream)),
                                  static_cast<T &&>(args)...);
}

}  // namespace sim
}  // namespace AscendC
#endif
#endif

#endif
