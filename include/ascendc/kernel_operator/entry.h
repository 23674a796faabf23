// Part of kernel_operator.h, included only from it: synchronisation, debugging and the kernel's
// entry (PYASC_SIM_ENTRY).

// asc_ascendc_build defines PYASC_SIM_CUBE (1: the source names a cube API or position, or core
// kinds: libasc hands the kernel the cube's table) and PYASC_SIM_GROUP (1: a mixed kernel's
// groups of an AIC and two AIVs, 2: one AIC per block, 3: one AIV per block, 4: groups, the
// kernel declared mixed; 0: one core per block, no group).
#ifndef PYASC_SIM_CUBE
#define PYASC_SIM_CUBE 0
#endif
#ifndef PYASC_SIM_GROUP
#define PYASC_SIM_GROUP 0
#endif
// The group a kernel's launch runs, read where its entry or launch is written, after the source:
// one AIC per block (2) where ASCENDC_CUBE_ONLY is defined there, else PYASC_SIM_GROUP (the
// source's text names ASCENDC_CUBE_ONLY also where an #if leaves it undefined); a kernel
// declared mixed (PYASC_SIM_GROUP 4) runs its groups (1) either way.
#define PYASC_SIM_STR_(x) #x
#define PYASC_SIM_STR(x) PYASC_SIM_STR_(x)
#define PYASC_SIM_KERNEL_GROUP \
  (::AscendC::sim::kernel_group(PYASC_SIM_STR(ASCENDC_CUBE_ONLY), PYASC_SIM_GROUP))

// The device compiler's globals for the running block (GetBlockIdx()/GetBlockNum()), set at the
// start of each core's run of the kernel function.
inline thread_local int64_t block_idx = 0;
inline thread_local int64_t block_num = 0;

namespace AscendC {

// --- synchronisation and debugging --------------------------------------------------------

template <HardEvent event>
inline void SetFlag(int32_t eventID, sim::Loc loc = {}) {
  sim::check(sim::api()->set_flag(sim::ctx, static_cast<int>(event), eventID, loc.file, loc.line));
}
template <HardEvent event>
inline void WaitFlag(int32_t eventID, sim::Loc loc = {}) {
  sim::check(sim::api()->wait_flag(sim::ctx, static_cast<int>(event), eventID, loc.file, loc.line));
}
template <pipe_t pipe>
inline void PipeBarrier(sim::Loc loc = {}) {
  sim::check(sim::api()->barrier(sim::ctx, static_cast<int>(pipe), loc.file, loc.line));
}
inline void Trap(sim::Loc loc = {}) {
  sim::check(sim::api()->trap(sim::ctx, loc.file, loc.line));
}

// --- the kernel's entry (pyasc.ascendc.load writes PYASC_SIM_ENTRY) -------------------------

namespace sim {

// Each parameter's kind, as the launcher packs it: a address, f float,
// b bool, i integer.
template <typename T>
constexpr char param_kind() {
  if constexpr (std::is_pointer_v<T>)
    return 'a';
  else if constexpr (std::is_same_v<T, bool>)
    return 'b';
  else if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, half> ||
                     std::is_same_v<T, bfloat16_t>)
    return 'f';
  else if constexpr (std::is_integral_v<T> || std::is_enum_v<T>)
    return 'i';
  else if constexpr (std::is_class_v<T> && std::is_trivially_copyable_v<T> &&
                     std::is_default_constructible_v<T>)
    return 'a';  // a struct by value (a tiling): its bytes, in an argument's memory
  else
    return '?';
}
template <typename T>
T param_value(const pyasc_sim_arg &a) {
  if constexpr (param_kind<T>() == 'a' && std::is_class_v<T>) {
    if (!a.v.p || a.n < static_cast<int64_t>(sizeof(T))) {
      api()->fail(ctx, "kernel", 0,
                  "a struct parameter passed by value needs an argument holding its bytes");
      throw Abort{};
    }
    T v;
    __builtin_memcpy(static_cast<void *>(&v), a.v.p, sizeof(T));
    return v;
  } else if constexpr (std::is_pointer_v<T>)
    return reinterpret_cast<T>(a.v.p);
  else if constexpr (std::is_same_v<T, bool>)
    return a.v.i != 0;
  else if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>)
    return T(static_cast<float>(a.v.f));
  else if constexpr (std::is_floating_point_v<T>)
    return static_cast<T>(a.v.f);
  else
    return static_cast<T>(a.v.i);
}

struct ParamText {
  char s[65];
};
template <typename... A>
constexpr ParamText param_text(void (*)(A...)) {
  static_assert(sizeof...(A) <= 64, "a kernel takes at most 64 parameters");
  ParamText p{};
  const char kinds[] = {param_kind<A>()..., '\0'};
  for (std::size_t i = 0; i < sizeof...(A); i++) p.s[i] = kinds[i];
  return p;
}
template <typename... A>
constexpr bool params_supported(void (*)(A...)) {
  return ((param_kind<A>() != '?') && ... && true);
}

template <typename... A, std::size_t... I>
void call(void (*f)(A...), const pyasc_sim_arg *args, std::index_sequence<I...>) {
  (void)args;
  f(param_value<A>(args[I])...);
}

// One block's run of kernel f: 0, or 1 with the message in the context.
template <typename... A>
int run(void *k, const void *args, void (*f)(A...)) {
  const pyasc_sim_api *t = api();
  if (!t || t->version != PYASC_SIM_VERSION) return 1;
  ctx = k;
  int rc = t->begin(k);
  // a kernel that uses the cube gets the AIC's buffers for the block's run
  bool cube = !rc && PYASC_SIM_CUBE && t->cube_begin;
  if (cube && (rc = t->cube_begin(k)) != 0) t->end(k);
  if (!rc) {
    ::block_idx = t->block_idx(k);
    ::block_num = t->block_num(k);
    try {
      call(f, static_cast<const pyasc_sim_arg *>(args), std::index_sequence_for<A...>{});
    } catch (const Abort &) {
    } catch (...) {
      if (!t->failed(k)) t->fail(k, "kernel", 0, "a C++ exception left the kernel function");
    }
    if (cube) t->cube_end(k);
    t->end(k);
    rc = t->failed(k);
  }
  ctx = nullptr;
  return rc;
}

// PYASC_SIM_KERNEL_GROUP: `cube_only` is ASCENDC_CUBE_ONLY's expansion as a string, its own
// name where it is not defined.
constexpr bool cube_only_defined(const char *cube_only) {
  const char *name = "ASCENDC_CUBE_ONLY";
  int i = 0;
  while (cube_only[i] && cube_only[i] == name[i]) i++;
  return cube_only[i] != name[i];
}
constexpr int kernel_group(const char *cube_only, int group) {
  return group == 4 ? 1 : cube_only_defined(cube_only) ? 2 : group;
}

// A block's run: one core, or a group (PYASC_SIM_KERNEL_GROUP) of an AIC and two AIVs (1), one
// AIC (2) or one AIV (3) as a group of one, each core running `core`.
inline int entry(void *k, const void *args, int (*core)(void *, const void *), int group) {
  const pyasc_sim_api *t = api();
  if (!t || t->version != PYASC_SIM_VERSION) return 1;
  if (!group) return core(k, args);
  if (!t->group_run)
    return t->fail(k, "kernel", 0, "the cube: this kernel was not built with the cube's table");
  return t->group_run(k, args, core, group == 1, group == 2);
}

}  // namespace sim
}  // namespace AscendC

// A kernel that calls SyncAll or uses mode-0 cross-core flags has its blocks launched together
// (jit.c reads asc_kernel_all_live); asc_ascendc_build defines PYASC_SIM_ALL_LIVE: 1 (SyncAll),
// or the cores mode 0 spans (2 groups, 3 AIVs, 4 AICs).
#if defined(PYASC_SIM_ALL_LIVE) && PYASC_SIM_ALL_LIVE
#define PYASC_SIM_ALL_LIVE_SYMBOL       \
  extern const int asc_kernel_all_live; \
  const int asc_kernel_all_live = PYASC_SIM_ALL_LIVE;
#else
#define PYASC_SIM_ALL_LIVE_SYMBOL
#endif

// The entry's own names carry a pyasc_ prefix: a kernel may be called k or a.
#define PYASC_SIM_ENTRY(name)                                                              \
  static_assert(AscendC::sim::params_supported(&name),                                     \
                "kernel parameters must be pointers (GM_ADDR), integers, floats, bool or " \
                "structs that are trivially copyable");                                    \
  extern "C" {                                                                             \
  const pyasc_sim_api *pyasc_sim_table = nullptr;                                          \
  extern const int pyasc_sim_checked;                                                      \
  const int pyasc_sim_checked = PYASC_SIM_CHECKED;                                         \
  extern const int pyasc_sim_cube;                                                         \
  const int pyasc_sim_cube = PYASC_SIM_CUBE;                                               \
  extern const int pyasc_sim_profiled;                                                     \
  const int pyasc_sim_profiled = PYASC_SIM_PROFILED;                                       \
  int asc_kernel_entry(void *pyasc_k_, const void *pyasc_args_) {                          \
    return AscendC::sim::entry(                                                            \
        pyasc_k_, pyasc_args_,                                                             \
        [](void *pyasc_kc_, const void *pyasc_a_) {                                        \
          return AscendC::sim::run(pyasc_kc_, pyasc_a_, &name);                            \
        },                                                                                 \
        PYASC_SIM_KERNEL_GROUP);                                                           \
  }                                                                                        \
  PYASC_SIM_ALL_LIVE_SYMBOL                                                                \
  extern const AscendC::sim::ParamText asc_kernel_params;                                  \
  const AscendC::sim::ParamText asc_kernel_params = AscendC::sim::param_text(&name);       \
  }
