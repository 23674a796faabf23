// Part of kernel_operator.h, included only from it: AscendC::Std, Ascend C's own type traits
// (CANN's utils/std/type_traits.h), tuples and utilities. The standard library's where they agree;
// is_floating_point counts half as a floating type, is_integral takes CANN's list of integer types
// and counts an integral_constant as integral; is_one_of, is_one_of_value and is_constant are
// CANN's own.

namespace AscendC {
namespace Std {

using std::add_const;
using std::add_const_t;
using std::add_cv;
using std::add_cv_t;
using std::add_lvalue_reference;
using std::add_lvalue_reference_t;
using std::add_pointer;
using std::add_pointer_t;
using std::add_rvalue_reference;
using std::add_rvalue_reference_t;
using std::add_volatile;
using std::add_volatile_t;
using std::bool_constant;
using std::conditional;
using std::conditional_t;
using std::decay;
using std::decay_t;
using std::enable_if;
using std::enable_if_t;
using std::false_type;
using std::integral_constant;
using std::is_array;
using std::is_array_v;
using std::is_base_of;
using std::is_base_of_v;
using std::is_class;
using std::is_class_v;
using std::is_const;
using std::is_const_v;
using std::is_convertible;
using std::is_convertible_v;
using std::is_function;
using std::is_function_v;
using std::is_pointer;
using std::is_pointer_v;
using std::is_reference;
using std::is_reference_v;
using std::is_same;
using std::is_same_v;
using std::is_union;
using std::is_union_v;
using std::is_void;
using std::is_void_v;
using std::remove_const;
using std::remove_const_t;
using std::remove_cv;
using std::remove_cv_t;
using std::remove_extent;
using std::remove_extent_t;
using std::remove_pointer;
using std::remove_pointer_t;
using std::remove_reference;
using std::remove_reference_t;
using std::remove_volatile;
using std::remove_volatile_t;
using std::true_type;

template <typename T>
struct remove_cvref {
  using type = remove_cv_t<remove_reference_t<T>>;
};
template <typename T>
using remove_cvref_t = typename remove_cvref<T>::type;

template <typename T, typename... Args>
inline constexpr bool is_unqualified_any_of_v = (... || is_same_v<remove_cv_t<T>, Args>);

template <typename T>
struct is_floating_point
    : bool_constant<is_unqualified_any_of_v<T, float, double, long double, half>> {};
template <typename T>
inline constexpr bool is_floating_point_v = is_floating_point<T>::value;

template <typename T>
struct is_integral
    : bool_constant<is_unqualified_any_of_v<T, bool, unsigned long long, long long, unsigned long,
                                            long, unsigned int, int, unsigned short, short,
                                            unsigned char, signed char, char>> {};
template <typename T, T v>
struct is_integral<integral_constant<T, v>> : true_type {};
template <typename T>
inline constexpr bool is_integral_v = is_integral<T>::value;

template <typename T, typename... Args>
struct is_one_of : bool_constant<(... || is_same_v<T, Args>)> {};
template <typename T, typename... Args>
inline constexpr bool is_one_of_v = is_one_of<T, Args...>::value;

template <typename T, T Value, T... Values>
struct is_one_of_value : bool_constant<(... || (Value == Values))> {};
template <typename T, T Value, T... Values>
inline constexpr bool is_one_of_value_v = is_one_of_value<T, Value, Values...>::value;

// Whether T (cv- and reference-qualified or not) is an integral_constant of value n.
template <auto n, typename T>
struct is_constant : false_type {};
template <auto n, typename T>
struct is_constant<n, const T> : is_constant<n, T> {};
template <auto n, typename T>
struct is_constant<n, const T &> : is_constant<n, T> {};
template <auto n, typename T>
struct is_constant<n, T &> : is_constant<n, T> {};
template <auto n, typename T>
struct is_constant<n, T &&> : is_constant<n, T> {};
template <auto n, typename T, T v>
struct is_constant<n, integral_constant<T, v>> : bool_constant<v == n> {};

// CANN's utils/std/tuple.h and utility.h: the standard library's
using std::declval;
using std::forward;
using std::get;
using std::ignore;
using std::index_sequence;
using std::index_sequence_for;
using std::integer_sequence;
using std::make_index_sequence;
using std::make_integer_sequence;
using std::make_tuple;
using std::move;
using std::tie;
using std::tuple;
using std::tuple_element;
using std::tuple_element_t;
using std::tuple_size;
using std::tuple_size_v;

// CANN's utils/std/algorithm.h: max and min of two values of two types
template <typename T, typename U>
constexpr auto max(const T &a, const U &b) {
  return a < b ? b : a;
}
template <typename T, typename U>
constexpr auto min(const T &a, const U &b) {
  return b < a ? b : a;
}

}  // namespace Std
}  // namespace AscendC
