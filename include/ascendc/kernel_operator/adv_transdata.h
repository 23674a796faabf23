// Part of kernel_operator.h, included only from it: the adv library's TransData, the four format
// changes of 16-bit data CANN's dav-2201 library has (NCDHW to and from NDC1HWC0 and
// FRACTAL_Z_3D), C split into C1 x 16 (and N into N1 x 16 for FRACTAL_Z_3D). NCDHW in the UB
// has each (n, c, d) row of H x W elements padded to 16 (32 bytes), as CANN requires of its input
// and writes as its output (the padding elements of an output are left as they were); the split
// axes' padding in an output is zeros.

namespace AscendC {

struct TransDataConfig {
  DataFormat srcFormat;
  DataFormat dstFormat;
};

template <typename T, typename U>
struct TransDataParams {
  T srcLayout;
  U dstLayout;
};

namespace sim {
// The NCDHW side's sizes and the split axes', checked against the other side's shape.
struct TransDataDims {
  int64_t n, c, d, h, w, c1, n1;
  int64_t hw() const { return h * w; }
  int64_t row() const { return (h * w + 15) / 16 * 16; }
};

template <typename L>
inline int64_t layout_mode(const L &layout, size_t i) {
  int64_t v = 0, at = 0;
  std::apply([&](const auto &...m) { ((v = at++ == static_cast<int64_t>(i) ? Size(m) : v), ...); },
             layout.GetShape());
  return v;
}

template <typename L>
constexpr size_t layout_rank() {
  return std::tuple_size_v<decltype(std::declval<L>().GetShape())>;
}

// The dims from the NCDHW layout and the other's, or a failure naming what disagrees.
template <typename Ncdhw, typename Other>
inline TransDataDims transdata_dims(const Ncdhw &ncdhw, const Other &other, DataFormat format,
                                    Loc loc) {
  static_assert(layout_rank<Ncdhw>() == 5, "TransData: an NCDHW layout has 5 modes");
  TransDataDims t;
  t.n = layout_mode(ncdhw, 0), t.c = layout_mode(ncdhw, 1), t.d = layout_mode(ncdhw, 2);
  t.h = layout_mode(ncdhw, 3), t.w = layout_mode(ncdhw, 4);
  t.c1 = (t.c + 15) / 16, t.n1 = (t.n + 15) / 16;
  if (t.n <= 0 || t.c <= 0 || t.d <= 0 || t.h <= 0 || t.w <= 0)
    fail_at("TransData: the NCDHW shape must be positive", loc);
  bool ok;
  if (format == DataFormat::NDC1HWC0) {
    // [N, D, C1, H, W, C0]
    ok = layout_mode(other, 0) == t.n && layout_mode(other, 1) == t.d &&
         layout_mode(other, 2) == t.c1 && layout_mode(other, 3) == t.h &&
         layout_mode(other, 4) == t.w && layout_mode(other, 5) == 16;
  } else {
    // [D, C1, H, W, N1, N0, C0]
    ok = layout_mode(other, 0) == t.d && layout_mode(other, 1) == t.c1 &&
         layout_mode(other, 2) == t.h && layout_mode(other, 3) == t.w &&
         layout_mode(other, 4) == t.n1 && layout_mode(other, 5) == 16 &&
         layout_mode(other, 6) == 16;
  }
  if (!ok)
    fail_at(format == DataFormat::NDC1HWC0
                ? "TransData: the NDC1HWC0 shape must be [N, D, ceil(C/16), H, W, 16] of the NCDHW "
                  "one"
                : "TransData: the FRACTAL_Z_3D shape must be [D, ceil(C/16), H, W, ceil(N/16), 16, "
                  "16] of the NCDHW one",
            loc);
  return t;
}

// Where element (n, c, d, hw) of the NCDHW tensor is in the other format.
inline int64_t transdata_other_at(const TransDataDims &t, DataFormat format, int64_t n, int64_t c,
                                  int64_t d, int64_t hw) {
  const int64_t c1 = c / 16, c0 = c % 16;
  if (format == DataFormat::NDC1HWC0) return (((n * t.d + d) * t.c1 + c1) * t.hw() + hw) * 16 + c0;
  return ((((d * t.c1 + c1) * t.hw() + hw) * t.n1 * 16) + n) * 16 + c0;
}

template <typename T>
inline void transdata(const LocalTensor<T> &dst, const LocalTensor<T> &src, const TransDataDims &t,
                      DataFormat other, bool toOther, Loc loc) {
  static_assert(sizeof(T) == 2, "TransData: int16_t, uint16_t, half or bfloat16_t data");
  if (toOther) {  // the split axes' padding is zeros
    const int64_t all = other == DataFormat::NDC1HWC0 ? t.n * t.d * t.c1 * t.hw() * 16
                                                      : t.d * t.c1 * t.hw() * t.n1 * 256;
    Duplicate(dst.template ReinterpretCast<uint16_t>(), static_cast<uint16_t>(0),
              static_cast<int32_t>(all), loc);
  }
  PipeBarrier<PIPE_ALL>();
  for (int64_t n = 0; n < t.n; ++n)
    for (int64_t c = 0; c < t.c; ++c)
      for (int64_t d = 0; d < t.d; ++d)
        for (int64_t hw = 0; hw < t.hw(); ++hw) {
          const int64_t at = ((n * t.c + c) * t.d + d) * t.row() + hw;
          const int64_t there = transdata_other_at(t, other, n, c, d, hw);
          if (toOther)
            dst.SetValue(static_cast<uint32_t>(there), src.GetValue(static_cast<uint32_t>(at), loc),
                         loc);
          else
            dst.SetValue(static_cast<uint32_t>(at), src.GetValue(static_cast<uint32_t>(there), loc),
                         loc);
        }
  PipeBarrier<PIPE_ALL>();
}
}  // namespace sim

// TransData<config>(dst, src, [sharedTmpBuffer,] params): params' layouts give the source's and
// the destination's shapes (MakeLayout(MakeShape(...), MakeStride())), NCDHW's unpadded. The
// simulator moves the elements one by one through the scalar unit, so its results are the NPU's
// and the shared buffer is not used; a profile counts scalar work where the NPU transposes.
template <const TransDataConfig &config, typename T, typename U, typename S>
inline void TransData(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                      const LocalTensor<uint8_t> &sharedTmpBuffer,
                      const TransDataParams<U, S> &params, sim::Loc loc = {}) {
  (void)sharedTmpBuffer;
  static_assert(is_layout_v<U> && is_layout_v<S>, "TransData: the params hold two Layouts");
  constexpr DataFormat from = config.srcFormat, to = config.dstFormat;
  constexpr bool toOther = from == DataFormat::NCDHW;
  constexpr DataFormat other = toOther ? to : from;
  static_assert((from == DataFormat::NCDHW || to == DataFormat::NCDHW) &&
                    (other == DataFormat::NDC1HWC0 || other == DataFormat::FRACTAL_Z_3D),
                "TransData: NCDHW to or from NDC1HWC0 or FRACTAL_Z_3D");
  if ASCEND_IS_AIC {
    return;
  }
  if constexpr (toOther) {
    const sim::TransDataDims t =
        sim::transdata_dims(params.srcLayout, params.dstLayout, other, loc);
    sim::transdata(dstTensor, srcTensor, t, other, true, loc);
  } else {
    const sim::TransDataDims t =
        sim::transdata_dims(params.dstLayout, params.srcLayout, other, loc);
    sim::transdata(dstTensor, srcTensor, t, other, false, loc);
  }
}
// Without a buffer: the stack's, as CANN's.
template <const TransDataConfig &config, typename T, typename U, typename S>
inline void TransData(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                      const TransDataParams<U, S> &params, sim::Loc loc = {}) {
  LocalTensor<uint8_t> none;
  TransData<config, T, U, S>(dstTensor, srcTensor, none, params, loc);
}

}  // namespace AscendC
