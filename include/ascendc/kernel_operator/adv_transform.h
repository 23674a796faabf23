// Part of kernel_operator.h, included only from it: the adv library's tensor transforms, built
// from the basic API as data movement only (so the simulator's results are the NPU's bit for
// bit): Pad and UnPad of a two-axis tensor's rows, and ConfusionTranspose (also named Transpose
// with a TransposeType) of the NZ/ND layouts dav-2201 has (types 1 to 7).
//
// Where CANN's implementation goes through TransDataTo5HD and Brcb passes of the shared tmp
// buffer, these move the same elements with strided UB-to-UB DataCopy bursts (the NZ types),
// masked Duplicate (Pad's aligned case) or element reads and writes between full barriers (Pad's
// unaligned rows, UnPad, the 2-D transpose); the tmp buffer is accepted and not used. A shape or
// parameter CANN's kernel cannot handle fails with a message naming the caller's line.
#include <cstdio>

#include "transform_tiling.h"

namespace AscendC {

struct PadParams {
  uint16_t leftPad = 0;
  uint16_t rightPad = 0;
  int32_t padValue = 0;
};
struct UnPadParams {
  uint16_t leftPad = 0;
  uint16_t rightPad = 0;
};

namespace sim {
template <typename T>
inline void transform_types(const char *api, Loc loc) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4,
                "Pad, UnPad, ConfusionTranspose: elements of 2 or 4 bytes (int16_t, uint16_t, "
                "half, int32_t, uint32_t, float)");
  (void)api, (void)loc;
}
// A tensor holds at least n elements.
template <typename T>
inline void transform_room(const char *api, const char *what, const LocalTensor<T> &t, uint64_t n,
                           Loc loc) {
  if (t.GetSize() < n)
    fail_atf(loc, "%s: %s holds %u elements, the tiling's shape needs %llu", api, what,
             static_cast<unsigned>(t.GetSize()), static_cast<unsigned long long>(n));
}
}  // namespace sim

// --- Pad: a height x width tensor's rows padded to 32 bytes ---------------------------------
// Width 32-byte aligned: dst is src with columns srcOriWidth .. srcOriWidth + rightPad - 1 of
// every row set to padValue (within the row's last block; leftPad must be 0). Width not aligned:
// src's rows lie packed, width apart, and dst's rows are leftPad values, the row, rightPad
// values, which must make the 32-byte aligned width exactly. padValue is cast to T.
template <typename T>
inline void Pad(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                PadParams &padParams, const LocalTensor<uint8_t> &sharedTmpBuffer,
                PadTiling &tiling, sim::Loc loc = {}) {
  (void)sharedTmpBuffer;
  sim::transform_types<T>("Pad", loc);
  constexpr uint32_t epb = 32 / sizeof(T);
  const uint32_t h = tiling.srcHeight, w = tiling.srcWidth, ori = tiling.srcOriWidth;
  const uint32_t left = padParams.leftPad, right = padParams.rightPad;
  const T value = static_cast<T>(padParams.padValue);
  if (h == 0 || w == 0)
    sim::fail_atf(loc, "Pad: the tiling's shape is empty (was PadTilingFunc called?)");
  if (w % epb == 0) {
    if (left != 0)
      sim::fail_atf(loc,
                    "Pad: a 32-byte aligned width (%u) is padded on the right only; "
                    "leftPad must be 0, not %u",
                    w, left);
    if (ori > w || w - ori > epb || right > w - ori)
      sim::fail_atf(loc,
                    "Pad: rightPad %u from the original width %u must stay within the "
                    "last 32-byte block of the width %u",
                    right, ori, w);
    sim::transform_room("Pad", "srcTensor", srcTensor, uint64_t{h} * w, loc);
    sim::transform_room("Pad", "dstTensor", dstTensor, uint64_t{h} * w, loc);
    DataCopy(dstTensor, srcTensor, h * w, loc);
    PipeBarrier<PIPE_V>(loc);
    if (right == 0) return;
    uint64_t mask[2] = {((uint64_t{1} << right) - 1) << (epb - (w - ori)), 0};
    const uint32_t blocks = w / epb;
    // one masked Duplicate of the last block, 255 rows a repeat blocks apart (a row a
    // Duplicate where a row is more than 255 blocks)
    const uint32_t rows = blocks <= 255 ? 255 : 1;
    for (uint32_t r = 0; r < h; r += rows) {
      const uint32_t n = h - r < rows ? h - r : rows;
      Duplicate<T, true>(dstTensor[r * w + w - epb], value, mask, static_cast<uint8_t>(n), 1,
                         static_cast<uint8_t>(blocks <= 255 ? blocks : 0), loc);
    }
    PipeBarrier<PIPE_V>(loc);
    return;
  }
  const uint32_t aligned = (w + epb - 1) / epb * epb;
  if (left + right != aligned - w)
    sim::fail_atf(loc,
                  "Pad: a width of %u (not 32-byte aligned) pads to %u: leftPad + rightPad "
                  "must be %u, not %u",
                  w, aligned, aligned - w, left + right);
  if (tiling.tmpBuffer1BlockNum == 0)
    sim::fail_atf(loc,
                  "Pad: the width %u is not 32-byte aligned and the tiling has no "
                  "tmp buffer (PadTilingFunc's stackBufferSize was 0)",
                  w);
  sim::transform_room("Pad", "srcTensor", srcTensor, uint64_t{h} * w, loc);
  sim::transform_room("Pad", "dstTensor", dstTensor, uint64_t{h} * aligned, loc);
  // Last row first, right to left: dst's element is never before src's, so dst may be src.
  PipeBarrier<PIPE_ALL>(loc);
  for (uint32_t r = h; r-- > 0;) {
    const uint32_t at = r * aligned;
    for (uint32_t c = 0; c < right; ++c) dstTensor.SetValue(at + left + w + c, value, loc);
    for (uint32_t c = w; c-- > 0;)
      dstTensor.SetValue(at + left + c, srcTensor.GetValue(r * w + c, loc), loc);
    for (uint32_t c = 0; c < left; ++c) dstTensor.SetValue(at + c, value, loc);
  }
  PipeBarrier<PIPE_ALL>(loc);
}
template <typename T>
inline void Pad(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                PadParams &padParams, PadTiling &tiling, sim::Loc loc = {}) {
  LocalTensor<uint8_t> none;
  Pad(dstTensor, srcTensor, padParams, none, tiling, loc);
}

// --- UnPad: a 32-byte aligned height x width tensor's rows less their last rightPad ---------
// dst holds the rows packed, width - rightPad apart; rightPad under one 32-byte block. CANN
// does not apply leftPad on dav-2201: it must be 0.
template <typename T>
inline void UnPad(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                  UnPadParams &unPadParams, LocalTensor<uint8_t> &sharedTmpBuffer,
                  UnPadTiling &tiling, sim::Loc loc = {}) {
  (void)sharedTmpBuffer;
  sim::transform_types<T>("UnPad", loc);
  constexpr uint32_t epb = 32 / sizeof(T);
  const uint32_t h = tiling.srcHeight, w = tiling.srcWidth, right = unPadParams.rightPad;
  if (h == 0 || w == 0)
    sim::fail_atf(loc, "UnPad: the tiling's shape is empty (was UnPadTilingFunc called?)");
  if (w % epb != 0)
    sim::fail_atf(loc, "UnPad: the width %u must be 32-byte aligned (%u elements)", w, epb);
  if (unPadParams.leftPad != 0)
    sim::fail_atf(loc, "UnPad: leftPad must be 0 (CANN does not apply it), not %u",
                  static_cast<unsigned>(unPadParams.leftPad));
  if (right >= epb || right >= w)
    sim::fail_atf(loc, "UnPad: rightPad %u must be under one 32-byte block (%u elements)", right,
                  epb);
  const uint32_t kept = w - right;
  sim::transform_room("UnPad", "srcTensor", srcTensor, uint64_t{h} * w, loc);
  sim::transform_room("UnPad", "dstTensor", dstTensor, uint64_t{h} * kept, loc);
  // first row first, left to right: dst's element is never after src's, so dst may be src
  PipeBarrier<PIPE_ALL>(loc);
  for (uint32_t r = 0; r < h; ++r)
    for (uint32_t c = 0; c < kept; ++c)
      dstTensor.SetValue(r * kept + c, srcTensor.GetValue(r * w + c, loc), loc);
  PipeBarrier<PIPE_ALL>(loc);
}
template <typename T>
inline void UnPad(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                  UnPadParams &unPadParams, UnPadTiling &tiling, sim::Loc loc = {}) {
  LocalTensor<uint8_t> none;
  UnPad(dstTensor, srcTensor, unPadParams, none, tiling, loc);
}

// --- ConfusionTranspose / Transpose(..., TransposeType, ConfusionTransposeTiling) -----------
// Shapes from GetTransposeTilingInfo's srcShape [B, N, S, H/N] (H = N * H/N), NZ meaning 16 x 16
// fractals, column blocks outermost ([C/16, R, 16] for an R x C matrix):
//  1 NZ2ND_0213: [B, N] NZ of S x H/N       -> ND [B, S, N, H/N]
//  2 NZ2NZ_0213: [B, N] NZ of S x H/N       -> [B, S] NZ of N x H/N ([H/N/16, N, 16])
//  3 NZ2NZ_012_WITH_N: [B] NZ of S x H      -> [B, N] NZ of S x H/N
//  4 NZ2ND_012_WITH_N: [B] NZ of S x H      -> ND [B, N, S, H/N]
//  5 NZ2ND_012_WITHOUT_N: [B, N] NZ S x H/N -> ND [B, S, H]
//  6 NZ2NZ_012_WITHOUT_N: [B, N] NZ S x H/N -> [B] NZ of S x H
//  7 ND2ND_ONLY: ND [H, W] -> ND [W, H], H and W multiples of 16
// S and H/N are taken 16-aligned (as the tiling holds them); H/N must be a multiple of 16 for
// types 3 to 6. The other types (dav-3510's among them) fail.
namespace sim {
// count runs of 16 elements, the i-th from src[srcAt + i * srcStep] to dst[dstAt + i * dstStep]
// (steps multiples of 16 elements): DataCopy bursts of 16 elements, up to 4095 a call.
template <typename T>
inline void transpose_runs(const LocalTensor<T> &dst, uint64_t dstAt, uint64_t dstStep,
                           const LocalTensor<T> &src, uint64_t srcAt, uint64_t srcStep,
                           uint64_t count, Loc loc) {
  constexpr uint64_t run = 16, len = run * sizeof(T) / 32;
  const uint64_t sg = (srcStep - run) * sizeof(T) / 32, dg = (dstStep - run) * sizeof(T) / 32;
  const bool strided = sg <= 65535 && dg <= 65535;
  for (uint64_t i = 0; i < count;) {
    const uint64_t n = strided ? (count - i < 4095 ? count - i : 4095) : 1;
    DataCopy(dst[static_cast<uint32_t>(dstAt + i * dstStep)],
             src[static_cast<uint32_t>(srcAt + i * srcStep)],
             DataCopyParams(static_cast<uint16_t>(n), static_cast<uint16_t>(len),
                            static_cast<uint16_t>(strided ? sg : 0),
                            static_cast<uint16_t>(strided ? dg : 0)),
             loc);
    i += n;
  }
}
template <typename T>
inline void confusion_transpose(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                                TransposeType type, const ConfusionTransposeTiling &t, Loc loc) {
  transform_types<T>("ConfusionTranspose", loc);
  constexpr uint32_t epb = 32 / sizeof(T);
  const int kind = static_cast<int>(type);
  if (kind < 1 || kind > 7)
    fail_atf(loc, "ConfusionTranspose: TransposeType %d is not one dav-2201 has (1 to 7)", kind);
  if (t.param0 != epb)
    fail_atf(loc,
             "ConfusionTranspose: the tiling is for %u-byte elements, not %u "
             "(GetTransposeTilingInfo's typeSize)",
             t.param0 ? 32 / t.param0 : 0, static_cast<unsigned>(sizeof(T)));
  PipeBarrier<PIPE_V>(loc);
  if (kind == 7) {
    const uint32_t hgt = t.param1, wid = t.param2;
    if (hgt % 16 || wid % 16 || !hgt || !wid)
      fail_atf(loc,
               "ConfusionTranspose: ND2ND_ONLY takes H and W multiples of 16, not "
               "[%u, %u]",
               hgt, wid);
    transform_room("ConfusionTranspose", "src", src, uint64_t{hgt} * wid, loc);
    transform_room("ConfusionTranspose", "dst", dst, uint64_t{hgt} * wid, loc);
    PipeBarrier<PIPE_ALL>(loc);
    for (uint32_t r = 0; r < hgt; ++r)
      for (uint32_t c = 0; c < wid; ++c)
        dst.SetValue(c * hgt + r, src.GetValue(r * wid + c, loc), loc);
    PipeBarrier<PIPE_ALL>(loc);
    return;
  }
  uint64_t b = t.param1, n = t.param2, s = 0, hn = 0;
  if (kind <= 2) {
    hn = t.param3, s = t.param4;
  } else {
    hn = t.param3, s = uint64_t{kind == 3 ? t.param9 : t.param6 * 16};
    if (hn % 16)
      fail_atf(loc, "ConfusionTranspose: type %d takes H/N a multiple of 16, not %llu", kind,
               static_cast<unsigned long long>(hn));
  }
  if (!b || !n || !s || !hn)
    fail_atf(loc,
             "ConfusionTranspose: the tiling's shape is empty (was "
             "GetTransposeTilingInfo called with this type?)");
  const uint64_t h = n * hn, total = b * s * h;
  transform_room("ConfusionTranspose", "src", src, total, loc);
  transform_room("ConfusionTranspose", "dst", dst, total, loc);
  const uint64_t h1s = hn / 16;
  for (uint64_t bi = 0; bi < b; ++bi)
    for (uint64_t ni = 0; ni < n; ++ni)
      for (uint64_t h1 = 0; h1 < h1s; ++h1) {
        // the column block's S runs: an [B, N] NZ of S x H/N, or a [B] NZ of S x H
        const uint64_t perBN = (bi * n + ni) * s * hn + h1 * s * 16;
        const uint64_t perB = bi * s * h + (ni * h1s + h1) * s * 16;
        switch (kind) {
          case 1:
            transpose_runs(dst, (bi * s * n + ni) * hn + h1 * 16, n * hn, src, perBN, 16, s, loc);
            break;
          case 2:
            transpose_runs(dst, bi * s * h + h1 * n * 16 + ni * 16, h, src, perBN, 16, s, loc);
            break;
          case 3:
            transpose_runs(dst, perBN, 16, src, perB, 16, s, loc);
            break;
          case 4:
            transpose_runs(dst, (bi * n + ni) * s * hn + h1 * 16, hn, src, perB, 16, s, loc);
            break;
          case 5:
            transpose_runs(dst, bi * s * h + ni * hn + h1 * 16, h, src, perBN, 16, s, loc);
            break;
          default:  // 6
            transpose_runs(dst, perB, 16, src, perBN, 16, s, loc);
            break;
        }
      }
  PipeBarrier<PIPE_V>(loc);
}
}  // namespace sim

template <typename T>
inline void ConfusionTranspose(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                               const LocalTensor<uint8_t> &sharedTmpBuffer,
                               TransposeType transposeType, const ConfusionTransposeTiling &tiling,
                               sim::Loc loc = {}) {
  (void)sharedTmpBuffer;
  sim::confusion_transpose(dstTensor, srcTensor, transposeType, tiling, loc);
}
template <typename T>
inline void ConfusionTranspose(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                               TransposeType transposeType, const ConfusionTransposeTiling &tiling,
                               sim::Loc loc = {}) {
  sim::confusion_transpose(dstTensor, srcTensor, transposeType, tiling, loc);
}
// CANN's newer name for ConfusionTranspose.
template <typename T>
inline void Transpose(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                      const LocalTensor<uint8_t> &sharedTmpBuffer, TransposeType transposeType,
                      const ConfusionTransposeTiling &tiling, sim::Loc loc = {}) {
  (void)sharedTmpBuffer;
  sim::confusion_transpose(dst, src, transposeType, tiling, loc);
}
template <typename T>
inline void Transpose(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                      TransposeType transposeType, const ConfusionTransposeTiling &tiling,
                      sim::Loc loc = {}) {
  sim::confusion_transpose(dst, src, transposeType, tiling, loc);
}

}  // namespace AscendC
