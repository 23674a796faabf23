// Part of kernel_operator.h, included only from it: Ascend C's Layout (CANN's basic API
// kernel_operator_layout.h and kernel_operator_coord.h): a shape and a stride, each an
// AscendC::Std::tuple of integers or of such tuples, built by MakeShape, MakeStride, MakeCoord
// and MakeLayout; a coordinate maps to an offset by Crd2Idx (the sum of each coordinate times its
// stride, nested tuples taken apart). TransData reads its operands' shapes from them.

namespace AscendC {

template <typename... Shapes>
using Shape = Std::tuple<Shapes...>;
template <typename... Strides>
using Stride = Std::tuple<Strides...>;
template <typename... Coords>
using Coord = Std::tuple<Coords...>;

namespace sim {
template <typename T>
struct is_std_tuple : std::false_type {};
template <typename... Ts>
struct is_std_tuple<Std::tuple<Ts...>> : std::true_type {};
}  // namespace sim

template <typename... Ts>
constexpr Shape<Ts...> MakeShape(const Ts &...t) {
  return {t...};
}
template <typename... Ts>
constexpr Stride<Ts...> MakeStride(const Ts &...t) {
  return {t...};
}
template <typename... Ts>
constexpr Coord<Ts...> MakeCoord(const Ts &...t) {
  return {t...};
}

// The elements a shape holds: the product of its modes.
template <typename T>
constexpr int64_t Size(const T &shape) {
  if constexpr (sim::is_std_tuple<T>::value)
    return std::apply([](const auto &...n) { return (int64_t{1} * ... * Size(n)); }, shape);
  else
    return static_cast<int64_t>(shape);
}

// The offset of coord: a tuple coordinate against tuple shape and stride, term by term; an
// integer coordinate against a tuple shape counts through it column-major, as CANN's does.
template <typename T, typename U, typename S>
constexpr auto Crd2Idx(const T &coord, const U &shape, const S &stride) {
  if constexpr (sim::is_std_tuple<T>::value) {
    static_assert(std::tuple_size_v<T> == std::tuple_size_v<U> &&
                      std::tuple_size_v<U> == std::tuple_size_v<S>,
                  "Crd2Idx: the coordinate, shape and stride have as many modes");
    return std::apply(
        [&](const auto &...c) {
          return std::apply(
              [&](const auto &...n) {
                return std::apply([&](const auto &...s) { return (0 + ... + Crd2Idx(c, n, s)); },
                                  stride);
              },
              shape);
        },
        coord);
  } else if constexpr (sim::is_std_tuple<U>::value) {
    // one integer over the modes of a tuple shape: the first mode varies fastest
    int64_t left = static_cast<int64_t>(coord), offset = 0;
    std::apply(
        [&](const auto &...n) {
          std::apply(
              [&](const auto &...s) {
                ((offset += Crd2Idx(left % static_cast<int64_t>(Size(n)), n, s),
                  left /= static_cast<int64_t>(Size(n))),
                 ...);
              },
              stride);
        },
        shape);
    return offset;
  } else {
    (void)shape;
    return static_cast<int64_t>(coord) * static_cast<int64_t>(stride);
  }
}

template <typename T, typename U>
struct Layout : private Std::tuple<T, U> {
  static_assert(sim::is_std_tuple<T>::value && sim::is_std_tuple<U>::value,
                "Layout: the shape and the stride are tuples (MakeShape, MakeStride)");
  constexpr Layout(const T &shape = {}, const U &stride = {}) : Std::tuple<T, U>(shape, stride) {}
  constexpr const Layout &layout() const { return *this; }
  // The shape, or the tuple of its modes I...
  template <size_t... I>
  constexpr auto GetShape() const {
    return pick<0, I...>();
  }
  template <size_t... I>
  constexpr auto GetStride() const {
    return pick<1, I...>();
  }
  template <typename S>
  constexpr auto operator()(const S &coord) const {
    return Crd2Idx(coord, GetShape(), GetStride());
  }

 private:
  template <size_t which, size_t... I>
  constexpr auto pick() const {
    const auto &all = Std::get<which>(static_cast<const Std::tuple<T, U> &>(*this));
    if constexpr (sizeof...(I) == 0)
      return all;
    else
      return Std::make_tuple(Std::get<I>(all)...);
  }
};

template <typename T, typename U>
constexpr auto MakeLayout(const T &shape, const U &stride) {
  return Layout<T, U>(shape, stride);
}

template <typename T>
struct is_layout : std::false_type {};
template <typename T, typename U>
struct is_layout<Layout<T, U>> : std::true_type {};
template <typename T>
constexpr bool is_layout_v = is_layout<T>::value;

}  // namespace AscendC
