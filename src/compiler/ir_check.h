/* The op checks' shared helpers and the checks the unit files define, for
 * ir_ops.c's table (ir_op_defs[]):
 *   ir_ops.c          the table, operand kinds and result rules, and the
 *                     checks of the core, vector, cube and adv rows
 *   ir_ops_sort.c     sort, gather_mask, CMPMASK, scalar bits
 *   ir_ops_aipp.c     AIPP, data_copy with SliceInfo
 *   ir_ops_deq.c      DEQSCALE, load_data_with_transpose, sparse matmul
 *   ir_ops_img2col.c  load_data with LoadData2DParamsV2
 * A check returns ASC_OK or the error it reports (asc_error). */
#ifndef ASC_COMPILER_IR_CHECK_H
#define ASC_COMPILER_IR_CHECK_H

#include <stdbool.h>

#include "ir_internal.h"

/* Sets of element dtypes, a bit per asc_dtype. */
#define F16 (1u << ASC_FLOAT16)
#define F32 (1u << ASC_FLOAT32)
#define I16 (1u << ASC_INT16)
#define I32 (1u << ASC_INT32)
/* The unsigned twins Ascend C accepts wherever it takes int16/int32 bits
 * (And, Or, Not, shifts, Duplicate, Copy; compare and select masks). */
#define U16 (1u << ASC_UINT16)
#define U32 (1u << ASC_UINT32)
#define BF16 (1u << ASC_BFLOAT16)
#define I8 (1u << ASC_INT8)
#define U8 (1u << ASC_UINT8)
#define INTS (I8 | U8 | I16 | I32 | (1u << ASC_INT64) | U16 | U32 | (1u << ASC_UINT64))

/* ir_ops.c */
const asc_ir_type *ir_type_at(const asc_ir_module *m, const ir_op *op, int i);
bool ir_is_vector_position(int pos);
asc_status ir_check_local_at(const asc_ir_module *m, const ir_op *op, int i, unsigned allowed,
                             const char *what);
bool ir_is_l1_position(int pos);
bool ir_cube_input_dtype(asc_dtype d);
asc_status ir_cube_position(const asc_ir_module *m, const ir_op *op, int i, bool ok,
                            const char *want);
asc_status ir_check_cube_load_named(const asc_ir_module *m, const ir_op *op, const char *api);
asc_status ir_check_cube_load(const asc_ir_module *m, const ir_op *op);

/* ir_ops_sort.c */
asc_status ir_check_same_locals(const asc_ir_module *m, const ir_op *op, int first, int last,
                                unsigned allowed);
asc_status ir_check_sort32(const asc_ir_module *m, const ir_op *op);
asc_status ir_check_sort(const asc_ir_module *m, const ir_op *op);
asc_status ir_check_mrg_sort(const asc_ir_module *m, const ir_op *op);
asc_status ir_check_proposal(const asc_ir_module *m, const ir_op *op);
asc_status ir_check_sort_len(const asc_ir_module *m, const ir_op *op);
asc_status ir_check_gather_mask(const asc_ir_module *m, const ir_op *op);
asc_status ir_check_gatherb(const asc_ir_module *m, const ir_op *op);
asc_status ir_check_cmp_mask(const asc_ir_module *m, const ir_op *op);
asc_status ir_check_compare_reg(const asc_ir_module *m, const ir_op *op);
asc_status ir_check_select_reg(const asc_ir_module *m, const ir_op *op);
asc_status ir_check_select_reg_scalar(const asc_ir_module *m, const ir_op *op);
/* mmad's dtype rules, checked when it runs: the message in buf, or NULL. */
const char *ir_cube_mmad_problem(const asc_ir_module *m, const ir_op *op, char *buf, size_t n);
/* fixpipe's src dtype rule, checked when it runs: the message in buf, or NULL. */
const char *ir_cube_fixpipe_problem(const asc_ir_module *m, const ir_op *op, char *buf, size_t n);
asc_status ir_check_count_value(const asc_ir_module *m, const ir_op *op);
asc_status ir_check_scalar_cast(const asc_ir_module *m, const ir_op *op);
asc_status ir_check_fused_cast(const asc_ir_module *m, const ir_op *op);
asc_status ir_check_repeat_reduce_sum(const asc_ir_module *m, const ir_op *op);

/* ir_ops_aipp.c */
asc_status ir_check_aipp_set(const asc_ir_module *m, const ir_op *op);
asc_status ir_check_aipp_load(const asc_ir_module *m, const ir_op *op);
asc_status ir_check_slice_copy(const asc_ir_module *m, const ir_op *op);

/* ir_ops_deq.c */
asc_status ir_check_cast_deq(const asc_ir_module *m, const ir_op *op);
asc_status ir_check_add_deq_relu(const asc_ir_module *m, const ir_op *op);
asc_status ir_check_vdeq(const asc_ir_module *m, const ir_op *op);
asc_status ir_check_cube_load_t(const asc_ir_module *m, const ir_op *op);
asc_status ir_check_cube_load_sparse(const asc_ir_module *m, const ir_op *op);
asc_status ir_check_cube_mmad_sparse(const asc_ir_module *m, const ir_op *op);

/* ir_ops_img2col.c */
asc_status ir_check_cube_load2d_v2(const asc_ir_module *m, const ir_op *op);

#endif
