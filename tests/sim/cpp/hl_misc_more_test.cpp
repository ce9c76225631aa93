// ReduceXorSum (kernel/hl_misc_more.h, host/misc_more_tiling.h): the doc's worked example (0 xor 1 over 32 elements
// gives 32), random int16 cases against an exact reference (xor as int16_t, summed, saturated to int16), both
// saturation ends, and the strict checks (temporary buffer size / overlap, dst overlapping a source, calCount range).
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>
#include "kernel_operator.h"
#include "tiling/tiling_api.h"
#include "ascsim/kernel/hl_misc_more.h"
#include "ascsim/host/misc_more_tiling.h"

using namespace AscendC;

#include "check.h"

#define EXPECT_FAIL(text, ...) CHECK_MSG(has(throws([&] { __VA_ARGS__; }), text), "expected \"%s\"", text)
#define EXPECT_OK(...) CHECK(throws([&] { __VA_ARGS__; }).empty())

struct Fixture {
    alignas(4096) static inline uint8_t ub[ascsim::kUbBytes];
    ascsim::CoreCtx ctx;
    Fixture() { ctx.ub = ub; std::memset(ub, 0, sizeof ub); ascsim::bind_test_core(&ctx); }
};
static Fixture* g_fx;
static uint32_t g_top = 0;
constexpr uint32_t kTmpOff = 128 * 1024;
template <class X> static LocalTensor<X> alloc(uint32_t count) {
    const uint32_t bytes = (count * uint32_t(sizeof(X)) + 31u) / 32u * 32u;
    LocalTensor<X> t(reinterpret_cast<X*>(g_fx->ub + g_top), count, TPosition::VECCALC);
    std::memset(g_fx->ub + g_top, 0x5A, bytes);
    g_top += bytes;
    return t;
}

static int16_t ref(const std::vector<int16_t>& a, const std::vector<int16_t>& b, size_t n) {
    long long s = 0;
    for (size_t i = 0; i < n; ++i) s += int16_t(uint16_t(a[i]) ^ uint16_t(b[i]));
    return int16_t(s < -32768 ? -32768 : s > 32767 ? 32767 : s);
}

int main() {
    Fixture fx;
    g_fx = &fx;
    LocalTensor<uint8_t> tmp(g_fx->ub + kTmpOff, 64 * 1024, TPosition::VECCALC);
    // worked example
    {
        g_top = 0;
        auto d = alloc<int16_t>(16), a = alloc<int16_t>(32), b = alloc<int16_t>(32);
        for (int i = 0; i < 32; ++i) { a.addr_[i] = 0; b.addr_[i] = 1; }
        uint32_t mx, mn;
        GetReduceXorSumMaxMinTmpSize(ge::Shape({32}), 2, false, mx, mn);
        CHECK(mx == mn && mn > 0);
        LocalTensor<uint8_t> t(g_fx->ub + kTmpOff, mn, TPosition::VECCALC);
        EXPECT_OK(ReduceXorSum<int16_t, false>(d, a, b, t, 32));
        CHECK(d.addr_[0] == 32);
        LocalTensor<uint8_t> small(g_fx->ub + kTmpOff, mn - 32, TPosition::VECCALC);
        EXPECT_FAIL("too small", ReduceXorSum<int16_t, false>(d, a, b, small, 32));
        EXPECT_OK(ReduceXorSum<int16_t>(d, a, b, 16));   // framework-managed tmp
        CHECK(d.addr_[0] == 16);
        EXPECT_FAIL("must not overlap", ReduceXorSum<int16_t>(a, a, b, tmp, 32));
        LocalTensor<uint8_t> over(reinterpret_cast<uint8_t*>(b.addr_), mn, TPosition::VECCALC);
        EXPECT_FAIL("overlaps", ReduceXorSum<int16_t>(d, a, b, over, 32));
        EXPECT_FAIL("must not exceed", ReduceXorSum<int16_t>(d, a, b, tmp, 33));
        EXPECT_FAIL("larger than 0", ReduceXorSum<int16_t>(d, a, b, tmp, 0));
        uint32_t mx2, mn2;
        GetReduceXorSumMaxMinTmpSize(ge::Shape({32}), 2, true, mx2, mn2);
        CHECK(mn2 < mn);
        GetReduceXorSumMaxMinTmpSize(ge::Shape({32}), 4, false, mx2, mn2);
        CHECK(mx2 == 0 && mn2 == 0);
    }
    // random, including negative xors and both saturation ends
    std::mt19937 rng(5);
    for (int c = 0; c < 6; ++c) {
        g_top = 0;
        const uint32_t n = 37 + 50 * c;
        auto d = alloc<int16_t>(16), a = alloc<int16_t>(n), b = alloc<int16_t>(n);
        std::vector<int16_t> av(n), bv(n);
        std::uniform_int_distribution<int> small(-300, 300), big(-32768, 32767);
        for (uint32_t i = 0; i < n; ++i) {
            av[i] = int16_t(c < 3 ? small(rng) : big(rng));
            bv[i] = int16_t(c == 4 ? 0x7F00 : c == 5 ? int16_t(0x8000) : (c < 3 ? small(rng) : big(rng)));
            if (c == 4) av[i] = 0;
            if (c == 5) av[i] = 0;
            a.addr_[i] = av[i]; b.addr_[i] = bv[i];
        }
        EXPECT_OK(ReduceXorSum<int16_t>(d, a, b, tmp, n));
        CHECK_MSG(d.addr_[0] == ref(av, bv, n), "case %d got %d want %d", c, d.addr_[0], ref(av, bv, n));
        if (c == 4) CHECK(d.addr_[0] == 32767);
        if (c == 5) CHECK(d.addr_[0] == -32768);
    }
    std::printf("PASS %d FAIL %d\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
