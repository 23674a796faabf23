/* The cube unit of the simulated AI core (AIC): its buffers, fractal
 * layouts and the data movement and matrix instructions PyAsc's basic cube
 * APIs lower to (load_data, mmad, fixpipe, the ND<->NZ data_copy forms).
 *
 * Included by generated kernels after asc_kernel_rt.h (it uses that file's
 * float16/bfloat16 conversions and nothing else of it). Every function here
 * works on spans (a pointer and the bytes that may be touched from it): the
 * caller resolves a tensor to the span of its buffer that starts at the
 * tensor, and each function checks every byte it reads or writes against
 * its spans, so a wrong size or stride is an error, never a stray access.
 * Errors return -1 with a sentence in `e->msg`; the caller adds the line.
 *
 * Layouts (C0 = 32 bytes of elements: 16 for fp16/bf16, 32 for int8, 8 for
 * fp32/int32; a fractal is 16 rows x C0, 512 bytes; L0C's fractals are
 * 16 x 16 of fp32/int32, 1 KiB):
 *   NZ (L1, and L0C): element (r, c) of a matrix whose rows are padded to
 *     a multiple of 16 (`rows16`) lies at ((c / C0) * rows16 + r) * C0 + c % C0:
 *     column blocks of C0, one after the other, each rows16 x C0 row-major.
 *   L0A (ZZ): fractal (r / 16, c / C0) at index (r / 16) * K1 + c / C0,
 *     element (r % 16) * C0 + c % C0 inside it (fractals row-major, and
 *     row-major inside).
 *   L0B (ZN): fractal (k / C0, n / 16) at index (k / C0) * N1 + n / 16,
 *     element (n % 16) * C0 + k % C0 inside it: each fractal holds 16
 *     columns of B as rows, so a row of the fractal is a run along K.
 *   L0C (NZ, 16 x 16): element (m, n) at ((n / 16) * M1 + m / 16) * 256
 *     + (m % 16) * 16 + n % 16.
 * load_data copies whole fractals, so an NZ matrix in L1 reaches L0A or
 * L0B by choosing which fractals go where (start index, source stride,
 * destination gap) and transposing each 16 x 16 fractal when asked. */
/* Only kernels that use the cube define ASC_K_CUBE (emit_c.c): the others
 * skip this unit and the intrinsics headers it needs, which would triple
 * their compile time. */
#if defined(ASC_K_CUBE) && !defined(ASC_RT_CUBE_H)
#define ASC_RT_CUBE_H

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>
#define ASC_KC_X86 1
#else
#define ASC_KC_X86 0
#endif

#include "cube_insn.h" /* buffers, spans, ND<->NZ, load_data, mmad, fixpipe */

#include "cube_view.h" /* the kernel's view: tagged LocalTensors, asc_k_cube_* */

#include "cube_matmul.h" /* asc.adv.Matmul on one core */

#include "cube_matmul_batch.h" /* its batch forms and quantised outputs */

#endif /* ASC_K_CUBE && !ASC_RT_CUBE_H */
