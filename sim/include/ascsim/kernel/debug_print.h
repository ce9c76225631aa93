// ascsim kernel side: AscendC::printf / PRINTF (the documented on-device print). Each call prints one record on the
// process's stdout, prefixed "[AIV Block i/N] " (AIC on a cube core) as the device does; a core's records stop
// after 30 KB (the default per-core print buffer; the device drops what does not fit). Conversions %d %i %u %x %f
// %s %p with flags, width and precision; the argument's own type decides how it prints, so length modifiers (%ld,
// %lld) and 8/16/64-bit, half and bfloat16_t arguments are all safe. A missing argument prints nothing for its
// conversion; defining ASCENDC_DUMP as 0 turns printing off.
#ifndef ASCSIM_KERNEL_DEBUG_PRINT_H_
#define ASCSIM_KERNEL_DEBUG_PRINT_H_
#include <cstdio>
#include <string>
#include <type_traits>
#include "engine.h"

namespace ascsim {
constexpr uint32_t kPrintBytesPerCore = 30 * 1024;
// Writes one record to stdout in one piece (runtime.cpp), so cores on other threads do not interleave.
void print_record(const char* data, size_t bytes);
inline bool is_one_of(char c, const char* set) {
    for (; *set; ++set) if (*set == c) return true;
    return false;
}

// One argument, formatted for conversion `conv` with the printf flags/width/precision in `spec` (e.g. "%-8.3").
template <class A>
inline void print_arg(std::string& out, std::string spec, char conv, const A& a) {
    using D = std::decay_t<A>;
    char buf[128];
    if constexpr (std::is_same_v<D, half> || std::is_same_v<D, bfloat16_t> || std::is_floating_point_v<D>) {
        spec += conv == 'F' ? 'F' : 'f';
        std::snprintf(buf, sizeof buf, spec.c_str(), double(float(a)));
    } else if constexpr (std::is_integral_v<D> || std::is_enum_v<D>) {
        using I = std::conditional_t<std::is_enum_v<D>, std::underlying_type<D>, std::common_type<D>>;
        using V = typename I::type;
        if (conv == 'x' || conv == 'X' || conv == 'u') {
            spec += "ll";
            spec += conv;
            std::snprintf(buf, sizeof buf, spec.c_str(), (unsigned long long)(std::make_unsigned_t<V>)(V)a);
        } else if (conv == 'f' || conv == 'F') {
            spec += 'f';
            std::snprintf(buf, sizeof buf, spec.c_str(), double(V(a)));
        } else {
            spec += "lld";
            std::snprintf(buf, sizeof buf, spec.c_str(), (long long)(V)a);
        }
    } else if constexpr (std::is_convertible_v<D, const char*>) {
        if (conv == 'p') { spec += 'p'; std::snprintf(buf, sizeof buf, spec.c_str(), static_cast<const void*>(a)); }
        else { spec += 's'; out += a ? std::string(a) : std::string("(null)"); return; }
    } else if constexpr (std::is_pointer_v<D>) {
        if (a == nullptr) { out += "nil"; return; }
        spec += 'p';
        std::snprintf(buf, sizeof buf, spec.c_str(), static_cast<const void*>(a));
    } else {
        static_assert(std::is_arithmetic_v<D>, "AscendC::printf prints integers, floating types, half, bfloat16_t, strings and pointers");
    }
    out += buf;
}

inline void print_args(std::string& out, const char* f) {
    for (; *f; ++f) {
        if (*f == '%' && f[1] == '%') { out += '%'; ++f; }
        else if (*f != '%') out += *f;
        else {   // a conversion without an argument: skip it
            ++f;
            while (*f && !is_one_of(*f, "diuxXfFsp")) ++f;
            if (!*f) return;
        }
    }
}
template <class A, class... Rest>
inline void print_args(std::string& out, const char* f, const A& a, const Rest&... rest) {
    for (; *f; ++f) {
        if (*f != '%') { out += *f; continue; }
        if (f[1] == '%') { out += '%'; ++f; continue; }
        std::string spec = "%";
        ++f;
        while (*f && is_one_of(*f, "-+ #0")) spec += *f++;
        while (*f && ((*f >= '0' && *f <= '9') || *f == '.')) spec += *f++;
        while (*f && is_one_of(*f, "hlLqjzt")) ++f;   // the argument's type decides, not the length modifier
        if (!*f) return;
        if (!is_one_of(*f, "diuxXfFsp")) { out += spec; out += *f; continue; }
        print_arg(out, spec, *f, a);
        return print_args(out, f + 1, rest...);
    }
}

template <class... Args>
inline void kernel_printf(const char* fmt, const Args&... args) {
#if defined(ASCENDC_DUMP) && ASCENDC_DUMP == 0
    return;
#endif
    CoreCtx& c = core();
    if (c.printf_bytes >= kPrintBytesPerCore) return;
    std::string out = std::string("[") + (c.core_type == 1 ? "AIC" : "AIV") + " Block " + std::to_string(c.block_idx) + "/" +
                      std::to_string(c.block_num) + "] ";
    print_args(out, fmt ? fmt : "", args...);
    if (c.printf_bytes + out.size() > kPrintBytesPerCore) { c.printf_bytes = kPrintBytesPerCore; return; }
    c.printf_bytes += uint32_t(out.size());
    print_record(out.data(), out.size());
}
}  // namespace ascsim

namespace AscendC {
template <class... Args> __aicore__ inline void printf(const char* fmt, const Args&... args) { ::ascsim::kernel_printf(fmt, args...); }
template <class... Args> __aicore__ inline void PRINTF(const char* fmt, const Args&... args) { ::ascsim::kernel_printf(fmt, args...); }
}  // namespace AscendC
#endif  // ASCSIM_KERNEL_DEBUG_PRINT_H_
