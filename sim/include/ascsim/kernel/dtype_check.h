// ascsim kernel side: per-API dtype tables for Atlas A2 (compile-time, like the real toolchain).
#ifndef ASCSIM_ASCSIM_KERNEL_DTYPE_CHECK_H_
#define ASCSIM_ASCSIM_KERNEL_DTYPE_CHECK_H_
#include <type_traits>
#include "defs.h"

namespace ascsim {
template <class T, class... Ts> inline constexpr bool one_of_v = (std::is_same_v<T, Ts> || ...);
}

#define ASCSIM_DTYPE_CHECK(API, T, SUPPORTED, ...) \
    static_assert(::ascsim::one_of_v<T, __VA_ARGS__>, \
                  "Failed to check dtype in " API ", current api support dtype combination is src and dst both: " SUPPORTED ".")
#endif  // ASCSIM_ASCSIM_KERNEL_DTYPE_CHECK_H_
