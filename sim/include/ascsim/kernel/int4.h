// ascsim kernel side: int4b_t, the signed 4-bit integer of the Atlas A2 vector and cube units (values -8..7).
// Two elements share a byte, element 2k in the low nibble. The C++ type is one byte wide, so a `__gm__ int4b_t*`
// steps in bytes as on the device (kernels halve element offsets themselves); tensors of int4b_t count elements
// (GetSize) and address them by nibble (operator[] takes element offsets), which is what the helpers below provide.
#ifndef ASCSIM_ASCSIM_KERNEL_INT4_H_
#define ASCSIM_ASCSIM_KERNEL_INT4_H_
#include <cstdint>
#include <string>
#include <type_traits>
#include "../runtime_api.h"

namespace AscendC {
struct int4b_t {
    int8_t v_ = 0;   // one value, sign-extended; inside a tensor the packed nibbles are read through ascsim::nibble_*
    int4b_t() = default;
    template <class I, std::enable_if_t<std::is_integral_v<I>, int> = 0>
    constexpr int4b_t(I v) : v_(int8_t(v < -8 ? -8 : v > 7 ? 7 : v)) {}
    constexpr operator int() const { return v_; }
    constexpr explicit operator float() const { return float(v_); }
};
}  // namespace AscendC

namespace ascsim {
template <class T> inline constexpr bool is_int4_v = std::is_same_v<std::remove_cv_t<T>, AscendC::int4b_t>;
template <class T> inline constexpr uint32_t bits_of_v = is_int4_v<T> ? 4u : 8u * uint32_t(sizeof(T));
// bytes that n elements occupy, and elements that fit in n bytes
template <class T> constexpr uint64_t bytes_of(uint64_t n) { return is_int4_v<T> ? (n + 1) / 2 : n * sizeof(T); }
template <class T> constexpr uint64_t elems_in(uint64_t bytes) { return bytes * 8u / bits_of_v<T>; }
// A tensor view of int4b_t starts on a byte: an odd element offset has no address.
template <class T> inline uint64_t byte_offset(const char* api, uint64_t elems) {
    if constexpr (is_int4_v<T>) {
        if (elems & 1u)
            fail(api, "an int4b_t tensor can only start on a whole byte",
                 "element offset " + std::to_string(elems) + " is odd (two int4b_t elements share one byte)");
        return elems / 2;
    } else {
        return elems * sizeof(T);
    }
}
inline int nibble_get(const void* base, uint64_t i) {
    uint8_t b = static_cast<const uint8_t*>(base)[i / 2];
    int v = (i & 1u) ? (b >> 4) : (b & 0xF);
    return v >= 8 ? v - 16 : v;
}
inline void nibble_set(void* base, uint64_t i, int v) {
    uint8_t& b = static_cast<uint8_t*>(base)[i / 2];
    uint8_t n = uint8_t(v) & 0xF;
    b = (i & 1u) ? uint8_t((b & 0x0F) | (n << 4)) : uint8_t((b & 0xF0) | n);
}
}  // namespace ascsim
#endif  // ASCSIM_ASCSIM_KERNEL_INT4_H_
