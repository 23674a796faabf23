/* The runtime of kernels compiled for the simulated AI cores, one file per
 * unit under rt/. Generated C carries this text with each unit include
 * below replaced by that file (tools/embed.py inlines them at build time),
 * so a kernel stays one self-contained translation unit that needs only
 * libc; jit.c includes it as a header for the context and argument types.
 * Each unit may use those listed before it, so the order matters and
 * clang-format must not sort it. An API's runtime function goes into the
 * file of its unit, next to its row in api_table.def. */
/* clang-format off */
#include "rt/tcc_compat.h"       /* GCC builtins for TinyCC, the first tier */
#include "rt/core.h"             /* context, size arithmetic, checked mode, fp16, scalars */
#include "rt/memory.h"           /* global memory, the Unified Buffer, TPipe/TQue/TBuf */
#include "rt/wait.h"             /* waits on other blocks and cores, deadlocks, sync_all */
#include "rt/pool.h"             /* the launch's pool of the buffers of cores blocks add */
#include "rt/fwk.h"              /* atomic store mode, TBufPool, tensor setters, user tags */
#include "rt/data_move.h"        /* data_copy, element access */
#include "rt/vmath.h"            /* exp, log, sqrt, sin... on arrays: the launcher's SLEEF */
#include "rt/vector.h"           /* vector arithmetic, the mask register, executor, cast */
#include "rt/gather.h"           /* transpose, gather, scatter, brcb */
#include "rt/reduce.h"           /* reductions */
#include "rt/data_move_params.h" /* data_copy with DataCopyParams, data_copy_pad */
#include "rt/sync_debug.h"       /* printf, dump_tensor, trap */
#include "rt/system.h"           /* system counter, caches, workspace, inter-block sync */
#include "rt/layout.h"           /* transpose (TransposeParamsExt), trans_data_to_5hd */
#include "rt/tensor_desc.h"      /* ListTensorDesc, TensorDesc: tensor lists in GM */
#include "rt/cube.h"             /* cube unit; its parts rt/cube_{insn,view,matmul}.h */
#include "rt/cube_sparse.h"      /* 4:2 sparse matmul, int8/float32 transposed loads */
#include "rt/mix.h"              /* core groups (AIC + 2 AIVs), cross-core flags */
#include "rt/adv_math.h"         /* adv library: maths, softmax, rmsnorm, quant, sort I/O */
#include "rt/fwk_cube.h"         /* init_const_value (cube buffers) */
#include "rt/sort.h"             /* sort32, sort, mrg_sort, region proposals */
#include "rt/mask_bits.h"        /* gather_mask, gatherb, CMPMASK, scalar bit operations */
#include "rt/fused_cast.h"       /* add_relu_cast, sub_relu_cast, mul_cast, repeat_reduce_sum */
#include "rt/deq.h"              /* DEQSCALE: set_deq_scale, cast_deq, add_deq_relu */
#include "rt/img2col.h"          /* img2col loads (LoadData3D*), their registers */
#include "rt/aipp.h"             /* AIPP: set_aipp_functions, load_image_to_local */
#include "rt/slice_copy.h"       /* data_copy with SliceInfo lists */
#include "rt/int4.h"             /* int4b_t: 4-bit elements, Cast to and from half */
#include "rt/cube_int4.h"        /* int4b_t on the cube: s4 mmad, its loads */
/* clang-format on */
