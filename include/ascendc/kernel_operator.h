// Ascend C's kernel API (namespace AscendC) for pyasc's simulated AI cores.
//
// Ascend C kernels written for a 910B-class NPU (dav-2201) compile with the
// system C++17 compiler against this header and run on the simulator
// through pyasc.ascendc.load(). The names, template parameters and
// overloads follow Huawei's Ascend C API reference; every function is a thin
// typed call into pyasc's C kernel runtime (src/compiler/rt, through the
// table of include/ascendc/pyasc_sim.h), the same code that runs kernels
// written in Python, checked mode included. docs/ascendc.md lists what is
// covered.
//
// A failing call (an out-of-range access, a queue misuse, a missing
// synchronisation in checked mode) stops the block with an error naming the
// file and line of the user's call: every API takes a trailing
// AscendC::sim::Loc, defaulted at the call site.
#ifndef PYASC_ASCENDC_KERNEL_OPERATOR_H
#define PYASC_ASCENDC_KERNEL_OPERATOR_H

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <mutex>
#include <tuple>
#include <type_traits>
#include <utility>

#include "pyasc_sim.h"

// The sections, in dependency order (each its own include block, so that
// clang-format keeps the order).
#include "kernel_operator/enum_lists.h"
#include "kernel_operator/types.h"

#include "kernel_operator/std.h"

#include "kernel_operator/memory.h"

#include "kernel_operator/pool.h"

#include "kernel_operator/data_copy.h"

#include "kernel_operator/vector.h"

#include "kernel_operator/cube.h"

#include "kernel_operator/matmul.h"

#include "kernel_operator/entry.h"

#include "kernel_operator/sys.h"

#include "kernel_operator/list_tensor.h"

#include "kernel_operator/gather_sort.h"

#include "kernel_operator/cube_more.h"

#include "kernel_operator/adv_math.h"

#include "kernel_operator/vector_fused.h"

#include "kernel_operator/adv_reduce.h"
#include "kernel_operator/adv_transform.h"
#include "kernel_operator/reduce_pattern.h"

#include "kernel_operator/adv_norm.h"

#include "kernel_operator/sys_more.h"

#include "kernel_operator/aipp.h"

#include "kernel_operator/adv_welford.h"

#include "kernel_operator/adv_softmax_v3.h"
#include "kernel_operator/adv_topk.h"

#include "kernel_operator/tensor_layout.h"

#include "kernel_operator/adv_transdata.h"

#endif
