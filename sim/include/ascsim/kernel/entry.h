// ascsim kernel side: calls a kernel entry with the GM pointer array that the launcher prepared.
#ifndef ASCSIM_ASCSIM_KERNEL_ENTRY_H_
#define ASCSIM_ASCSIM_KERNEL_ENTRY_H_
#include <utility>
#include "../bridge.h"
#include "../runtime_api.h"

namespace ascsim {
template <class... A, size_t... I>
inline void invoke_entry_impl(void (*f)(A...), uint8_t** a, std::index_sequence<I...>) { f(((A)a[I])...); }
template <class... A> inline void invoke_entry(void (*f)(A...), uint8_t** a, size_t n) {
    if (n != sizeof...(A))
        fail("kernel launch", "kernel parameter count mismatch",
             "the launcher passes " + std::to_string(n) + " GM addresses (inputs, outputs, workspace, tiling) but the kernel entry takes " +
                 std::to_string(sizeof...(A)));
    invoke_entry_impl(f, a, std::index_sequence_for<A...>{});
}
}  // namespace ascsim
#endif  // ASCSIM_ASCSIM_KERNEL_ENTRY_H_
