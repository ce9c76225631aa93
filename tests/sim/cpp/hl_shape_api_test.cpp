// The shape-driven high-level APIs against references written from their documentation: the pattern reductions
// ReduceSum/Mean/Max/Min/Prod/Any/All<T, Pattern::Reduce::AR|RA> (worked examples of the reduction docs, a random
// case against a double-precision reference, padded rows, strict checks, Max/Min with inf and NaN), CumSum (both axes, lastRow, half rounded
// once) and Broadcast (both axes, unaligned rows, 1-byte types, the axis-0 alignment rule), plus the host tiling
// functions that size their temporary buffers and the kernel's check against them.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>
#include "kernel_operator.h"
#include "tiling/tiling_api.h"

using namespace AscendC;

#include "check.h"

#include "ub_fixture.h"

// Writes rows of `last` values into a tensor whose rows are padded to 32 bytes (the pad holds a large value that
// must never reach a result).
template <class T> static void put_rows(LocalTensor<T>& t, const std::vector<std::vector<float>>& rows) {
    const uint32_t stride = uint32_t((rows[0].size() * sizeof(T) + 31) / 32 * 32 / sizeof(T));
    for (uint32_t i = 0; i < t.GetSize(); ++i) t.SetValue(i, T(99.0f));
    for (size_t r = 0; r < rows.size(); ++r)
        for (size_t c = 0; c < rows[r].size(); ++c) t.SetValue(uint32_t(r * stride + c), T(rows[r][c]));
}
template <class T> static bool equals(const LocalTensor<T>& t, const std::vector<float>& want) {
    for (size_t i = 0; i < want.size(); ++i)
        if (float(t.GetValue(uint32_t(i))) != want[i]) {
            std::printf("  [%zu] = %g, want %g\n", i, double(float(t.GetValue(uint32_t(i)))), double(want[i]));
            return false;
        }
    return true;
}

int main() {
    Fixture fx;
    using AR = Pattern::Reduce::AR;
    using RA = Pattern::Reduce::RA;
    auto tmp = fx.at<uint8_t>(64 * 1024, 64 * 1024);

    // --- pattern reductions: the docs' worked examples ---
    {
        auto src = fx.at<float>(0, 16), dst = fx.at<float>(4096, 8);
        const uint32_t shape[2] = {2, 8};
        put_rows(src, {{0, 4, 2, 0, -1, 2, -1, 7}, {0, 1, -9, 2, 2, 2, 8, 3}});
        ReduceSum<float, AR>(dst, src, tmp, shape, true);
        CHECK(equals(dst, {13, 9}));
        ReduceMean<float, AR, true>(dst, src, tmp, shape, true);
        CHECK(equals(dst, {1.625f, 1.125f}));
        ReduceMax<float, AR>(dst, src, tmp, shape, true);
        CHECK(equals(dst, {7, 8}));
        ReduceMin<float, AR>(dst, src, tmp, shape, true);
        CHECK(equals(dst, {-1, -9}));
        ReduceSum<float, RA>(dst, src, tmp, shape, true);
        CHECK(equals(dst, {0, 5, -7, 2, 1, 4, 7, 10}));
        put_rows(src, {{0, 1, 1, 0, 1, 0, 1, 1}, {0, 1, 0, 1, 0, 1, 1, 0}});
        ReduceAny<float, AR>(dst, src, tmp, shape, true);
        CHECK(equals(dst, {1, 1}));
        ReduceAll<float, AR>(dst, src, tmp, shape, true);
        CHECK(equals(dst, {0, 0}));
        ReduceAll<float, RA>(dst, src, tmp, shape, true);
        CHECK(equals(dst, {0, 1, 0, 0, 0, 0, 1, 0}));
        put_rows(src, {{1, 2, 3, 4, 5, 6, 7, 8}, {1, 2, 0.5f, 4, 0.5f, 0.5f, 5, 6}});
        ReduceProd<float, AR>(dst, src, tmp, shape, true);
        CHECK(equals(dst, {40320, 30}));
    }
    {   // (2, 3): rows padded to 8 floats; the figure examples of ReduceSum/ReduceMax/ReduceMean
        auto src = fx.at<float>(0, 16), dst = fx.at<float>(4096, 8);
        const uint32_t shape[2] = {2, 3};
        put_rows(src, {{1, 2, 3}, {4, 5, 6}});
        ReduceSum<float, RA>(dst, src, tmp, shape, true);
        CHECK(equals(dst, {5, 7, 9}));
        ReduceSum<float, AR>(dst, src, tmp, shape, true);
        CHECK(equals(dst, {6, 15}));
        ReduceMax<float, RA>(dst, src, tmp, shape, true);
        CHECK(equals(dst, {4, 5, 6}));
        ReduceMax<float, AR>(dst, src, shape, true);   // the framework-buffer form
        CHECK(equals(dst, {3, 6}));
        ReduceMean<float, RA>(dst, src, tmp, shape, true);
        CHECK(equals(dst, {2.5f, 3.5f, 4.5f}));
        ReduceMean<float, AR>(dst, src, tmp, shape, true);
        CHECK(equals(dst, {2, 5}));
    }
    {   // half ReduceMax on (2, 5), rows padded to 16 halves; uint8 Any/All
        auto src = fx.at<half>(0, 32), dst = fx.at<half>(4096, 16);
        const uint32_t shape[2] = {2, 5};
        put_rows(src, {{0, 4, 2, 0, -1}, {0, 1, -9, 2, 2}});
        ReduceMax<half, AR>(dst, src, tmp, shape, true);
        CHECK(equals(dst, {4, 2}));
        ReduceMin<half, RA>(dst, src, tmp, shape, true);
        CHECK(equals(dst, {0, 1, -9, 0, -1}));
        auto b = fx.at<uint8_t>(8192, 64), bd = fx.at<uint8_t>(12288, 32);
        const uint32_t bs[2] = {2, 3};
        for (uint32_t i = 0; i < 64; ++i) b.SetValue(i, 7);   // pad bytes
        uint8_t bits[2][3] = {{0, 1, 0}, {0, 1, 1}};
        for (int r = 0; r < 2; ++r) for (int c = 0; c < 3; ++c) b.SetValue(r * 32 + c, bits[r][c]);
        ReduceAny<uint8_t, AR>(bd, b, tmp, bs, true);
        CHECK(bd.GetValue(0) == 1 && bd.GetValue(1) == 1);
        ReduceAll<uint8_t, RA>(bd, b, tmp, bs, true);
        CHECK(bd.GetValue(0) == 0 && bd.GetValue(1) == 1 && bd.GetValue(2) == 0);
    }
    {   // ReduceMax / ReduceMin with inf / NaN, float and half, AR and RA: a NaN anywhere among the reduced elements
        // gives NaN, +-inf order as numbers. The pattern pages say nothing about inf / NaN; this is the rule the
        // boundary-value appendix gives every basic max / min they are built from (Max / Min, ReduceRepeat,
        // ReduceDataBlock, ReduceMax / ReduceMin), which the simulator shares. Saturation mode is not applied here.
        const float inf = INFINITY, nan = NAN;
        const std::vector<std::vector<float>> rows = {{1, 2, 7, 4, -inf}, {inf, 0, nan, 3, 2}, {-inf, -inf, -inf, -inf, -inf}};
        auto same_vals = [](const auto& t, const std::vector<float>& want) {   // NaN matches NaN
            bool ok = true;
            for (size_t i = 0; i < want.size(); ++i) {
                float g = float(t.GetValue(uint32_t(i)));
                if (std::isnan(want[i]) ? !std::isnan(g) : g != want[i]) {
                    std::printf("  [%zu] = %g, want %g\n", i, double(g), double(want[i]));
                    ok = false;
                }
            }
            return ok;
        };
        const uint32_t shape[2] = {3, 5};
        auto fs = fx.at<float>(0, 24), fd = fx.at<float>(4096, 8);
        put_rows(fs, rows);
        ReduceMax<float, AR>(fd, fs, tmp, shape, true);
        CHECK(same_vals(fd, {7, nan, -inf}));
        ReduceMin<float, AR>(fd, fs, tmp, shape, true);
        CHECK(same_vals(fd, {-inf, nan, -inf}));
        ReduceMax<float, RA>(fd, fs, tmp, shape, true);
        CHECK(same_vals(fd, {inf, 2, nan, 4, 2}));
        ReduceMin<float, RA>(fd, fs, tmp, shape, true);
        CHECK(same_vals(fd, {-inf, -inf, nan, -inf, -inf}));
        auto hs = fx.at<half>(0, 48), hd = fx.at<half>(4096, 16);
        put_rows(hs, rows);
        ReduceMax<half, AR>(hd, hs, tmp, shape, true);
        CHECK(same_vals(hd, {7, nan, -inf}));
        ReduceMin<half, AR>(hd, hs, tmp, shape, true);
        CHECK(same_vals(hd, {-inf, nan, -inf}));
        ReduceMax<half, RA>(hd, hs, tmp, shape, true);
        CHECK(same_vals(hd, {inf, 2, nan, 4, 2}));
        ReduceMin<half, RA>(hd, hs, tmp, shape, true);
        CHECK(same_vals(hd, {-inf, -inf, nan, -inf, -inf}));
    }
    {   // a random float case against a double-precision reference (both patterns, a length that is no power of two)
        const uint32_t first = 37, last = 300, stride = 304;
        auto src = fx.at<float>(0, first * stride), dst = fx.at<float>(48 * 1024, 304);
        std::mt19937 gen(7);
        std::uniform_real_distribution<float> u(-1.0f, 1.0f);
        std::vector<std::vector<float>> rows(first, std::vector<float>(last));
        for (auto& r : rows) for (auto& v : r) v = u(gen);
        put_rows(src, rows);
        const uint32_t shape[2] = {first, last};
        ReduceSum<float, AR>(dst, src, tmp, shape, true);
        double worst = 0;
        for (uint32_t r = 0; r < first; ++r) {
            double s = 0;
            for (float v : rows[r]) s += v;
            worst = std::max(worst, std::fabs(double(dst.GetValue(r)) - s));
        }
        CHECK_MSG(worst < 1e-4, "worst AR error %g", worst);
        ReduceMean<float, RA>(dst, src, tmp, shape, true);
        worst = 0;
        for (uint32_t c = 0; c < last; ++c) {
            double s = 0;
            for (uint32_t r = 0; r < first; ++r) s += rows[r][c];
            worst = std::max(worst, std::fabs(double(dst.GetValue(c)) - s / first));
        }
        CHECK_MSG(worst < 1e-6, "worst RA mean error %g", worst);
        CHECK(float(dst.GetValue(0)) != 99.0f);
    }
    {   // strict checks: srcInnerPad false, overlapping operands, a tmp buffer smaller than the host reports
        auto src = fx.at<float>(0, 1024 * 8), dst = fx.at<float>(40 * 1024, 1024);
        const uint32_t shape[2] = {8, 1000};
        for (uint32_t i = 0; i < 8 * 1000; ++i) src.SetValue(i, 1.0f);
        CHECK(has(throws([&] { ReduceSum<float, AR>(dst, src, tmp, shape, false); }), "srcInnerPad"));
        CHECK(has(throws([&] { ReduceSum<float, AR>(src, src, tmp, shape, true); }), "overlap"));
        uint32_t mx = 0, mn = 0;
        GetReduceSumMaxMinTmpSize(ge::Shape({8, 1000}), ge::DT_FLOAT, ReducePattern::AR, true, false, mx, mn);
        CHECK(mn == 8 * 512 * 4 && mx == mn);   // 512 partial sums per row
        auto small = fx.at<uint8_t>(64 * 1024, mn - 32);
        CHECK(has(throws([&] { ReduceSum<float, AR>(dst, src, small, shape, true); }), "too small"));
        auto enough = fx.at<uint8_t>(64 * 1024, mn);
        CHECK(throws([&] { ReduceSum<float, AR>(dst, src, enough, shape, true); }).empty());
        CHECK(float(dst.GetValue(7)) == 1000.0f);
        GetReduceSumMaxMinTmpSize(ge::Shape({16, 32}), ge::DT_FLOAT, ReducePattern::AR, true, false, mx, mn);
        CHECK(mn == 0 && mx == 0);   // a row within one repeat needs no buffer
        GetReduceMeanMaxMinTmpSize(ge::Shape({16, 32}), ge::DT_FLOAT16, ReducePattern::AR, true, false, mx, mn);
        CHECK(mn == 0 && mx == 0);   // half is not supported: nothing reported
        GetReduceMaxMaxMinTmpSize(ge::Shape({4, 100}), ge::DT_FLOAT16, ReducePattern::AR, true, false, mx, mn);
        CHECK(mn == 4 * 16 * 2);    // rows within one repeat: a block of partial extremes per row
        GetReduceMaxMaxMinTmpSize(ge::Shape({4, 200}), ge::DT_FLOAT16, ReducePattern::AR, true, false, mx, mn);
        CHECK(mn == 4 * 128 * 2);   // longer rows: a repeat of partial extremes per row
    }

    // --- CumSum ---
    {
        auto src = fx.at<float>(0, 32), dst = fx.at<float>(4096, 32), last = fx.at<float>(8192, 8);
        for (uint32_t i = 0; i < 32; ++i) src.SetValue(i, 1.0f);
        static constexpr CumSumConfig byRow = {true, false, true};
        static constexpr CumSumConfig byCol = {false, false, true};
        CumSum<float, byRow>(dst, last, src, tmp, CumSumInfo{4, 8});
        CHECK(equals(dst, {1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8}));
        CHECK(equals(last, {1, 2, 3, 4, 5, 6, 7, 8}));   // the result's last row
        CumSum<float, byCol>(dst, last, src, tmp, CumSumInfo{4, 8});
        CHECK(equals(dst, {1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2}) && float(dst.GetValue(31)) == 4.0f);
        CHECK(equals(last, {4, 4, 4, 4, 4, 4, 4, 4}));
        CumSum<float>(dst, last, src, tmp, CumSumInfo{4, 8});   // the default config: last axis with lastRow
        CHECK(float(dst.GetValue(31)) == 8.0f && float(last.GetValue(7)) == 8.0f);
        CHECK(has(throws([&] { CumSum<float, byRow>(dst, last, src, tmp, CumSumInfo{2, 6}); }), "multiple of 32"));
        CHECK(has(throws([&] { CumSum<float, byRow>(dst, last, src, tmp, CumSumInfo{8, 8}); }), "srcTensor"));
    }
    {   // half accumulates in float and rounds once: 2048 + 16 * 1 stays exact, a half running sum would stick at 2048
        auto src = fx.at<half>(0, 32 * 16), dst = fx.at<half>(4096, 32 * 16), last = fx.at<half>(8192, 16);
        for (uint32_t i = 0; i < 32 * 16; ++i) src.SetValue(i, half(i < 16 ? 2048.0f : 1.0f));
        static constexpr CumSumConfig byCol = {false, false, true};
        uint32_t mx = 0, mn = 0;
        GetCumSumMaxMinTmpSize(ge::Shape({32, 16}), 2, false, false, mx, mn);
        CHECK(mn == 32 * 16 * 4 && mx == mn);
        auto t = fx.at<uint8_t>(64 * 1024, mn);
        CumSum<half, byCol>(dst, last, src, t, CumSumInfo{32, 16});
        CHECK(float(last.GetValue(0)) == 2080.0f);   // 2048 + 31 * 1, each partial sum kept in float
        auto small = fx.at<uint8_t>(64 * 1024, mn - 32);
        CHECK(has(throws([&] { CumSum<half, byCol>(dst, last, src, small, CumSumInfo{32, 16}); }), "too small"));
        GetCumSumMaxMinTmpSize(ge::Shape({32, 32}), 2, true, false, mx, mn);
        CHECK(mn == 16 * 32 * 6 && mx == 32 * 32 * 6);
        GetCumSumMaxMinTmpSize(ge::Shape({32, 8}), 2, true, false, mx, mn);
        CHECK(mn == 0 && mx == 0);   // 8 halves are not 32 bytes: nothing reported
    }

    // --- Broadcast ---
    {
        auto src = fx.at<float>(0, 16), dst = fx.at<float>(4096, 256);
        for (uint32_t i = 0; i < 16; ++i) src.SetValue(i, float(i + 1));
        const uint32_t s1[2] = {16, 1}, d1[2] = {16, 16};
        Broadcast<float, 2, 1>(dst, src, d1, s1, tmp);   // the docs' example: row i is sixteen copies of i + 1
        bool ok = true;
        for (uint32_t r = 0; r < 16; ++r) for (uint32_t c = 0; c < 16; ++c) ok &= float(dst.GetValue(r * 16 + c)) == float(r + 1);
        CHECK(ok);
        const uint32_t s2[2] = {3, 1}, d2[2] = {3, 5};   // an unaligned row length is allowed along axis 1: dense rows
        Broadcast<float, 2, 1>(dst, src, d2, s2, tmp);
        CHECK(equals(dst, {1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3}));
        const uint32_t s3[2] = {1, 8}, d3[2] = {3, 8};
        Broadcast<float, 2, 0>(dst, src, d3, s3, tmp);
        CHECK(equals(dst, {1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8}));
        const uint32_t s4[2] = {1, 5}, d4[2] = {3, 5};   // axis 0 needs a 32-byte aligned row
        CHECK(has(throws([&] { Broadcast<float, 2, 0>(dst, src, d4, s4, tmp); }), "multiple of 32"));
        const uint32_t s5[1] = {1}, d5[1] = {6};
        Broadcast<float, 1, 0>(dst, src, d5, s5);
        CHECK(equals(dst, {1, 1, 1, 1, 1, 1}));
        auto b = fx.at<int8_t>(8192, 32), bd = fx.at<int8_t>(12288, 64);
        for (int i = 0; i < 2; ++i) b.SetValue(i, int8_t(-3 - i));
        const uint32_t s6[2] = {2, 1}, d6[2] = {2, 7};
        Broadcast<int8_t, 2, 1>(bd, b, d6, s6, tmp);
        CHECK(bd.GetValue(0) == -3 && bd.GetValue(6) == -3 && bd.GetValue(7) == -4 && bd.GetValue(13) == -4);
        BroadCast<float, 2, 1>(dst, src, d1, s1, tmp);   // the older spelling
        CHECK(float(dst.GetValue(255)) == 16.0f);
    }
    {   // the documented host form and the kernel's check against it
        platform_ascendc::PlatformAscendC plat;
        uint32_t mx = 0, mn = 0;
        GetBroadCastMaxMinTmpSize(plat, ge::Shape({1024, 1}), ge::Shape({1024, 16}), 2, false, mx, mn);
        CHECK(mn == 512 && mx == 32768);
        GetBroadCastMaxMinTmpSize(plat, ge::Shape({1, 8}), ge::Shape({4, 8}), 4, false, mx, mn);
        CHECK(mn == 32 && mx == 32);
        GetBroadCastMaxMinTmpSize(plat, ge::Shape({4, 4}), ge::Shape({4, 4}), 4, false, mx, mn);
        CHECK(mn == 0 && mx == 0);
        GetBroadCastMaxMinTmpSize(plat, ge::Shape({2, 3}), ge::Shape({4, 8}), 4, false, mx, mn);
        CHECK(mn == 0 && mx == 0);   // not a broadcast: nothing reported
        auto src = fx.at<half>(0, 16), dst = fx.at<half>(4096, 16 * 16);
        const uint32_t s[2] = {16, 1}, d[2] = {16, 16};
        GetBroadCastMaxMinTmpSize(plat, ge::Shape({16, 1}), ge::Shape({16, 16}), 2, false, mx, mn);
        auto small = fx.at<uint8_t>(64 * 1024, mn - 32), enough = fx.at<uint8_t>(64 * 1024, mn);
        CHECK(has(throws([&] { Broadcast<half, 2, 1>(dst, src, d, s, small); }), "too small"));
        CHECK(throws([&] { Broadcast<half, 2, 1>(dst, src, d, s, enough); }).empty());
    }

    // --- Arange / ArithProgression (the docs: first + i * diff) ---
    {
        auto f = fx.at<float>(0, 200);
        Arange<float>(f, 1.5f, 0.25f, 200);
        bool ok = true;
        for (int i = 0; i < 200; ++i) ok &= float(f.GetValue(i)) == 1.5f + 0.25f * float(i);   // exact in float
        CHECK(ok);
        auto h = fx.at<half>(4096, 80);
        ArithProgression<half>(h, half(0.0f), half(0.1f), 80);
        // block by block from the first 8 (one rounding for the offset, one for the add), as the docs build it
        CHECK(float(h.GetValue(9)) == float(half(float(h.GetValue(1)) + float(half(8 * float(half(0.1f)))))));
        CHECK(std::fabs(float(h.GetValue(79)) - 7.9f) < 0.01f);
        auto n = fx.at<int32_t>(8192, 100);
        Arange<int32_t>(n, -7, 3, 100);
        CHECK(n.GetValue(0) == -7 && n.GetValue(99) == -7 + 3 * 99);
        CHECK(has(throws([&] { Arange<int32_t>(n, 0, -1, 8); }), "negative"));
        CHECK(has(throws([&] { Arange<float>(f, 0.0f, 1.0f, 0); }), "larger than 0"));
    }
    {   // GetTPipePtr is global as well as AscendC's: one function, reachable both ways
        TPipe pipe;
        CHECK(::GetTPipePtr() == &pipe && AscendC::GetTPipePtr() == &pipe && GetTPipePtr() == &pipe);
    }

    std::printf("PASS %d FAIL %d\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
