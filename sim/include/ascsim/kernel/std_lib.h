// ascsim kernel side: AscendC::Std, the documented subset of the C++ standard library that device code may use
// (min, max, abs, sqrt, integer_sequence, tuple / get / make_tuple, and the type traits). On the CPU they are the
// standard library's own; min and max compare two values of one type, as documented.
#ifndef ASCSIM_ASCSIM_KERNEL_STD_LIB_H_
#define ASCSIM_ASCSIM_KERNEL_STD_LIB_H_
#include <cmath>
#include <cstdlib>
#include <tuple>
#include <type_traits>
#include <utility>

namespace AscendC {
namespace Std {
template <typename T, typename U> inline constexpr auto min(const T& src0, const U& src1) { return src1 < src0 ? src1 : src0; }
template <typename T, typename U> inline constexpr auto max(const T& src0, const U& src1) { return src0 < src1 ? src1 : src0; }
using std::abs;
using std::sqrt;
using std::integer_sequence;
using std::tuple;
using std::get;
using std::make_tuple;
using std::is_convertible;
using std::is_base_of;
using std::is_same;
using std::is_void;
using std::is_integral;
using std::is_floating_point;
using std::is_array;
using std::is_pointer;
using std::is_reference;
using std::is_const;
using std::remove_const;
using std::remove_volatile;
using std::remove_cv;
using std::remove_reference;
using std::remove_pointer;
using std::add_const;
using std::add_volatile;
using std::add_cv;
using std::add_pointer;
using std::add_lvalue_reference;
using std::add_rvalue_reference;
using std::enable_if;
using std::conditional;
using std::integral_constant;
}  // namespace Std
}  // namespace AscendC
#endif  // ASCSIM_ASCSIM_KERNEL_STD_LIB_H_
