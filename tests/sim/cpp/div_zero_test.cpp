// Integer division by zero in kernel code: x86 traps (SIGFPE), the device runs on. On a simulated core's thread
// ascsim gives quotient 0 and remainder the dividend (what an aarch64 host computes) and counts it; 8/16/32/64-bit,
// signed and unsigned, register and memory divisors.
#include <cstdint>
#include <cstdio>
#include "kernel_operator.h"
#include "check.h"

template <class T> __attribute__((noinline)) T quo(T a, T b) { return a / b; }
template <class T> __attribute__((noinline)) T rem(T a, T b) { return a % b; }
template <class T> __attribute__((noinline)) T quo_mem(T a, const volatile T* b) { return a / *b; }

template <class T> static void check_width(T a) {
    volatile T zero = 0;
    CHECK(quo<T>(a, zero) == T(0));
    CHECK(rem<T>(a, zero) == a);
    CHECK(quo_mem<T>(a, &zero) == T(0));
    CHECK(quo<T>(a, T(3)) == T(a / 3));   // ordinary divisions are untouched
}

int main() {
    ascsim::CoreCtx ctx;
    ascsim::bind_test_core(&ctx);
    ascsim::install_div_zero_handler();
    check_width<uint8_t>(200);
    check_width<int8_t>(-100);
    check_width<uint16_t>(60000);
    check_width<int16_t>(-30000);
    check_width<uint32_t>(4000000000u);
    check_width<int32_t>(-2000000000);
    check_width<uint64_t>(0x123456789abcdefull);
    check_width<int64_t>(-0x123456789abcdefll);
    CHECK(ascsim::take_div_zero_count() == 8 * 3);
    std::printf("PASS %d FAIL %d\n", g_pass, g_fail);
    return g_fail != 0;
}
