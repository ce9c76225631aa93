// The quantisation / padding / filtering high-level APIs (kernel/hl_quant_pad.h) against references written from
// their documentation: AscendQuant (per tensor and per channel, every overload, half-staged arithmetic, ties to even
// and int8 saturation, AscendQuantConfig), AscendDequant (vector / scalar / uint64_t deqScale, the single-row rule, the
// deprecated forms), AscendAntiQuant (per channel with groups, transposed, per tensor, int4b_t sources, half and
// bfloat16 staging), Pad / UnPad (both Pad scenarios, their tilings through optiling and the serialized kernel struct)
// and DropOut (all mask modes), plus the host helpers (host/quant_pad_tiling.h) and the strict checks. References:
// double precision with an independent nearest-even rounding to half / bfloat16 at each stage the docs describe.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>
#include "kernel_operator.h"
#include "tiling/tiling_api.h"
#include "ascsim/kernel/hl_quant_pad.h"
#include "ascsim/host/quant_pad_tiling.h"

using namespace AscendC;

#include "check.h"

#include "ub_fixture.h"

// ---- references: round a double to binary16 / bfloat16, nearest even (independent of the simulator's code) ----
static double round_bits(double d, int frac_bits, int min_exp, double max_finite) {
    if (std::isnan(d) || std::isinf(d) || d == 0.0) return d;
    int e = 0;
    std::frexp(std::fabs(d), &e);                 // |d| in [2^(e-1), 2^e)
    const int exp = std::max(e - 1, min_exp);     // subnormals share the smallest exponent's spacing
    const double ulp = std::ldexp(1.0, exp - frac_bits);
    const double r = std::nearbyint(std::fabs(d) / ulp) * ulp;   // default FP environment: ties to even
    return std::copysign(r > max_finite ? INFINITY : r, d);
}
static double h_rn(double d) { return round_bits(d, 10, -14, 65504.0); }
static double b_rn(double d) { return round_bits(d, 7, -126, 3.3895313892515355e38); }
static int8_t sat8(double d) {
    if (std::isnan(d)) return 0;
    d = std::nearbyint(d);
    return int8_t(d < -128 ? -128 : d > 127 ? 127 : d);
}
// AscendQuant (docs, 实现原理): src / scale / offset to half, Mul, Add on half, then half -> int8 nearest even
static int8_t ref_quant(double x, double s, double o) { return sat8(h_rn(h_rn(h_rn(x) * h_rn(s)) + h_rn(o))); }

template <class T> static double val(const LocalTensor<T>& t, uint32_t i) { return double(float(t.addr_[i])); }
template <class T> static void fill(const LocalTensor<T>& t, const std::vector<double>& v) {
    for (size_t i = 0; i < v.size(); ++i) t.addr_[i] = T(float(v[i]));
}
// exact comparison of the first want.size() elements, printing the first mismatch
template <class T> static bool equals(const LocalTensor<T>& t, const std::vector<double>& want, uint32_t from = 0) {
    for (size_t i = 0; i < want.size(); ++i) {
        const double got = val(t, uint32_t(from + i));
        if (!(got == want[i] || (std::isnan(got) && std::isnan(want[i])))) {
            std::printf("  [%zu] = %.9g, want %.9g\n", from + i, got, want[i]);
            return false;
        }
    }
    return true;
}
static std::vector<double> randoms(size_t n, double lo, double hi, unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> u(lo, hi);
    std::vector<double> v(n);
    for (auto& x : v) x = u(gen);
    return v;
}

static Fixture* g_fx;
static LocalTensor<uint8_t> tmp_buf(uint32_t bytes) { return g_fx->at<uint8_t>(160 * 1024, bytes); }

// ================= AscendQuant =================
template <class T> static void quant_tensor_tests() {
    Fixture& fx = *g_fx;
    auto tmp = tmp_buf(16 * 1024);
    {   // docs' worked example: src -512 .. 511, scale 0.02, offset 0.9, calCount 1022 -> [-9 -9 -9 ... 11 ...]
        auto src = fx.at<T>(0, 1024);
        auto dst = fx.at<int8_t>(8192, 1024);
        std::vector<double> x(1024);
        for (int i = 0; i < 1024; ++i) x[i] = i - 512;
        fill(src, x);
        std::memset(dst.addr_, 0x55, 1024);
        AscendQuant<T>(dst, src, tmp, 0.02f, 0.9f, 1022);
        CHECK(dst.GetValue(0) == -9 && dst.GetValue(1) == -9 && dst.GetValue(2) == -9 && dst.GetValue(1021) == 11);
        bool ok = true;
        for (int i = 0; i < 1022; ++i) ok = ok && dst.GetValue(i) == ref_quant(x[i], 0.02f, 0.9f);
        CHECK(ok);
        CHECK(dst.GetValue(1022) == 0x55 && dst.GetValue(1023) == 0x55);   // beyond calCount: untouched
        // the whole-tensor form and the framework-buffer forms give the same
        std::memset(dst.addr_, 0, 1024);
        AscendQuant<T>(dst, src, tmp, 0.02f, 0.9f);
        CHECK(dst.GetValue(1023) == ref_quant(511, 0.02f, 0.9f) && dst.GetValue(1022) == 11);
        std::memset(dst.addr_, 0, 1024);
        AscendQuant<T>(dst, src, 0.02f, 0.9f, 1024);
        CHECK(dst.GetValue(0) == -9 && dst.GetValue(1023) == 11);
        std::memset(dst.addr_, 0, 1024);
        AscendQuant<T>(dst, src, 0.02f, 0.9f);
        CHECK(dst.GetValue(512) == 1);   // 0 * 0.02 + 0.9 -> 0.9 -> 1
    }
    {   // ties to even and saturation at the int8 limits
        auto src = fx.at<T>(0, 32);
        auto dst = fx.at<int8_t>(8192, 32);
        const std::vector<double> x = {0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 3.5, -3.5, 126.5, 127.5, 128, 200, -127.5,
                                       -128.5, -129, -300, 1e4, -1e4, 0, 0.49, 0.51, 2.49, 2.51, -2.51, 63.5, 64.5,
                                       -63.5, -64.5, 100.25, 101.5, 102.5, 1};
        const std::vector<int> want = {0, 2, 2, 0, -2, -2, 4, -4, 126, 127, 127, 127, -128, -128, -128, -128, 127, -128,
                                       0, 0, 1, 2, 3, -3, 64, 64, -64, -64, 100, 102, 102, 1};
        fill(src, x);
        AscendQuant<T>(dst, src, tmp, 1.0f, 0.0f, 32);
        bool ok = true;
        for (int i = 0; i < 32; ++i)
            if (dst.GetValue(i) != want[i]) {
                ok = false;
                std::printf("  quant[%d] = %d, want %d\n", i, dst.GetValue(i), want[i]);
            }
        CHECK(ok);
        // the offset is added on half: 2.25 * 1 + 0.25 = 2.5 -> 2 (even); -1.25 - 1.25 = -2.5 -> -2
        src.SetValue(0, T(2.25f)); src.SetValue(1, T(-1.25f));
        AscendQuant<T>(dst, src, tmp, 1.0f, 0.25f, 32);
        CHECK(dst.GetValue(0) == 2);
        AscendQuant<T>(dst, src, tmp, 1.0f, -1.25f, 32);
        CHECK(dst.GetValue(1) == -2);
        // scale is half (0.0999755859375) and Tmp1 is rounded to half: 30 * it = 2.99927 -> 3.0, + 0.5 = 3.5 -> 4
        // (even); one rounding at the end (float arithmetic) would give 3.49927 -> 3
        src.SetValue(2, T(30.0f));
        AscendQuant<T>(dst, src, tmp, 0.1f, 0.5f, 32);
        CHECK(dst.GetValue(2) == ref_quant(30, 0.1f, 0.5f) && dst.GetValue(2) == 4);
        // a scale beyond the half range overflows to inf (docs: a float scale keeps the half range) -> saturates
        src.SetValue(3, T(1.0f)); src.SetValue(4, T(-1.0f));
        AscendQuant<T>(dst, src, tmp, 1e6f, 0.0f, 32);
        CHECK(dst.GetValue(3) == 127 && dst.GetValue(4) == -128);
    }
    {   // random values against the reference, in place (the docs let dst reuse src)
        auto src = fx.at<T>(0, 512);
        auto dst = fx.at<int8_t>(8192, 512);
        const auto x = randoms(512, -300, 300, 11);
        fill(src, x);
        AscendQuant<T>(dst, src, tmp, 0.37f, -1.3f, 512);
        bool ok = true;
        for (int i = 0; i < 512; ++i)
            ok = ok && dst.GetValue(i) == ref_quant(double(float(T(float(x[i])))), 0.37f, -1.3f);
        CHECK(ok);
        auto same = src.template ReinterpretCast<int8_t>();
        AscendQuant<T>(same, src, tmp, 0.37f, -1.3f, 512);
        ok = true;
        for (int i = 0; i < 512; ++i) ok = ok && same.GetValue(i) == dst.GetValue(i);
        CHECK(ok);
    }
}

template <class T> static void quant_channel_tests() {
    Fixture& fx = *g_fx;
    auto tmp = tmp_buf(16 * 1024);
    auto src = fx.at<T>(0, 256);
    auto dst = fx.at<int8_t>(8192, 256);
    auto scale = fx.at<T>(12288, 64), offset = fx.at<T>(16384, 64);
    const auto x = randoms(256, -100, 100, 3), s = randoms(64, -2, 2, 4), o = randoms(64, -5, 5, 5);
    fill(src, x); fill(scale, s); fill(offset, o);
    auto xs = [&](int i) { return double(float(T(float(x[i])))); };
    auto ss = [&](int i) { return double(float(T(float(s[i])))); };
    auto os = [&](int i) { return double(float(T(float(o[i])))); };
    auto check_all = [&](uint32_t cal, uint32_t sc, bool tensor_off, double off) {
        bool ok = true;
        for (uint32_t i = 0; i < cal; ++i) {
            const int8_t want = ref_quant(xs(i), ss(i % sc), tensor_off ? os(i % sc) : off);
            if (dst.GetValue(i) != want) {
                ok = false;
                std::printf("  channel[%u] = %d, want %d\n", i, dst.GetValue(i), want);
                break;
            }
        }
        return ok;
    };
    // the docs' PER_CHANNEL example shape: scaleCount = offsetCount = 64, calCount a multiple of it
    AscendQuant<T>(dst, src, tmp, scale, offset, 64, 64, 192);
    CHECK(check_all(192, 64, true, 0));
    std::memset(dst.addr_, 0x55, 256);
    AscendQuant<T>(dst, src, tmp, scale, offset, 32, 32, 128);   // scale / offset cycle every 32 elements
    CHECK(check_all(128, 32, true, 0) && dst.GetValue(128) == 0x55);
    AscendQuant<T>(dst, src, tmp, scale, T(1.5f), 64, 256);
    CHECK(check_all(256, 64, false, 1.5));
    AscendQuant<T>(dst, src, scale, T(-0.75f), 32, 64);          // framework buffer
    CHECK(check_all(64, 32, false, -0.75));
    AscendQuant<T>(dst, src, scale, offset, 64, 64, 256);
    CHECK(check_all(256, 64, true, 0));
    // whole-tensor forms: scaleCount = scale size, calCount = src size
    std::memset(dst.addr_, 0, 256);
    AscendQuant<T>(dst, src, tmp, scale, offset);
    CHECK(check_all(256, 64, true, 0));
    std::memset(dst.addr_, 0, 256);
    AscendQuant<T>(dst, src, tmp, scale, T(2.0f));
    CHECK(check_all(256, 64, false, 2.0));
    std::memset(dst.addr_, 0, 256);
    AscendQuant<T>(dst, src, scale, offset);
    CHECK(check_all(256, 64, true, 0));
    std::memset(dst.addr_, 0, 256);
    AscendQuant<T>(dst, src, scale, T(2.0f));
    CHECK(check_all(256, 64, false, 2.0));
    // the documented rules
    CHECK(has(throws([&] { AscendQuant<T>(dst, src, tmp, scale, offset, 48, 48, 96); }), "multiple of 32"));
    CHECK(has(throws([&] { AscendQuant<T>(dst, src, tmp, scale, offset, 64, 32, 128); }), "must equal scaleCount"));
    CHECK(has(throws([&] { AscendQuant<T>(dst, src, tmp, scale, offset, 64, 64, 96); }), "multiple of scaleCount"));
    CHECK(has(throws([&] { AscendQuant<T>(dst, src, tmp, scale, T(0.0f), 96, 192); }), "scaleCount (96) exceeds"));
    CHECK(has(throws([&] { AscendQuant<T>(dst, src, tmp, scale, T(0.0f), 64, 320); }), "exceeds srcTensor"));
    auto small = tmp_buf(256);
    CHECK(has(throws([&] { AscendQuant<T>(dst, src, small, scale, T(0.0f), 64, 256); }), "too small"));
    CHECK(throws([&] { AscendQuant<T>(dst, src, tmp_buf(512), scale, T(0.0f), 64, 256); }).empty());
}

constexpr AscendQuantConfig kQuantConst = {64, 0, 0, 512};
constexpr AscendQuantConfig kQuantConstChannel = {128, 32, 32, 512};
constexpr AscendQuantConfig kQuantTooMuchTmp = {64, 0, 0, 4096};
static void quant_config_tests() {
    Fixture& fx = *g_fx;
    auto src = fx.at<half>(0, 256);
    auto dst = fx.at<int8_t>(8192, 256);
    auto scale = fx.at<half>(12288, 64), offset = fx.at<half>(16384, 64);
    fill(src, std::vector<double>(256, 3.0));
    fill(scale, std::vector<double>(64, 2.0));
    fill(offset, std::vector<double>(64, 1.0));
    // constant parameters switched on (calcCount and workLocalSize non-zero): only calcCount elements are computed
    std::memset(dst.addr_, 0x55, 256);
    AscendQuant<half, false, kQuantConst>(dst, src, tmp_buf(1024), 1.0f, 0.0f, 200);
    CHECK(dst.GetValue(0) == 3 && dst.GetValue(63) == 3 && dst.GetValue(64) == 0x55);
    std::memset(dst.addr_, 0x55, 256);
    AscendQuant<half, false, kQuantConstChannel>(dst, src, tmp_buf(1024), scale, offset, 64, 64, 256);
    CHECK(dst.GetValue(0) == 7 && dst.GetValue(127) == 7 && dst.GetValue(128) == 0x55);
    // without a scaleCount in the config the scaleCount form keeps its arguments
    std::memset(dst.addr_, 0x55, 256);
    AscendQuant<half, false, kQuantConst>(dst, src, tmp_buf(1024), scale, offset, 64, 64, 256);
    CHECK(dst.GetValue(255) == 7);
    CHECK(has(throws([&] { AscendQuant<half, false, kQuantTooMuchTmp>(dst, src, tmp_buf(1024), 1.0f, 0.0f, 64); }),
              "workLocalSize"));
}

// ================= AscendDequant =================
static float f32(double d) { return float(d); }
static void dequant_tests() {
    Fixture& fx = *g_fx;
    auto tmp = tmp_buf(16 * 1024);
    auto src = fx.at<int32_t>(0, 32);
    for (int i = 0; i < 32; ++i) src.SetValue(i, i - 16);
    {   // docs' worked example: [4, 8], calCount 6, float deqScale, float dst; columns 6, 7 keep the unscaled source
        auto sc = fx.at<float>(4096, 8);
        fill(sc, {2.2, -2.2, 2.2, -2.2, 2.2, -2.2, 0, 0});
        auto dst = fx.at<float>(8192, 32);
        AscendDequant(dst, src, sc, tmp, {4, 8, 6});
        const std::vector<double> doc = {-35.2, 33.,  -30.8, 28.6, -26.4, 24.2,  -10., -9.,  -17.6, 15.4, -13.2,
                                         11.,   -8.8, 6.6,   -2.,  -1.,   0.,    -2.2, 4.4,  -6.6,  8.8,  -11.,
                                         6.,    7.,   17.6,  -19.8, 22.,  -24.2, 26.4, -28.6, 14.,  15.};
        bool near_doc = true, exact = true;
        for (int i = 0; i < 32; ++i) {
            const int c = i % 8;
            const float want = c < 6 ? f32(double(float(i - 16)) * double(c % 2 ? -2.2f : 2.2f)) : float(i - 16);
            near_doc = near_doc && std::fabs(dst.GetValue(i) - doc[i]) <= 1e-5 * std::fabs(doc[i]) + 1e-6;
            exact = exact && dst.GetValue(i) == want;
        }
        CHECK(near_doc);
        CHECK(exact);
        // the framework-buffer form and the scalar forms (float and bfloat16_t deqScale)
        AscendDequant(dst, src, sc, {4, 8, 6});
        CHECK(dst.GetValue(1) == f32(-15.0 * double(-2.2f)));
        AscendDequant(dst, src, static_cast<float>(2.2), tmp, {4, 8, 6});
        CHECK(dst.GetValue(1) == f32(-15.0 * double(2.2f)) && dst.GetValue(7) == -9.0f);
        AscendDequant(dst, src, bfloat16_t(0.5f), {4, 8, 8});
        CHECK(equals(dst, {-8, -7.5, -7, -6.5, -6, -5.5, -5, -4.5}));
    }
    {   // bfloat16_t dst: rows padded to n_dst = 16 (docs' [4, 8] example, calCount 4); padding columns not written
        auto sc = fx.at<bfloat16_t>(4096, 16);
        fill(sc, {0.5, 1.5, -3, 0.25});
        auto dst = fx.at<bfloat16_t>(8192, 64);
        fill(dst, std::vector<double>(64, 99));
        AscendDequant(dst, src, sc, tmp, {4, 8, 4});
        bool ok = true;
        const double s[4] = {0.5, 1.5, -3, 0.25};
        for (int r = 0; r < 4; ++r)
            for (int c = 0; c < 16; ++c) {
                const double x = r * 8 + c - 16;
                const double want = c < 4 ? b_rn(f32(x * s[c])) : c < 8 ? b_rn(x) : 99;
                ok = ok && val(dst, uint32_t(r * 16 + c)) == want;
            }
        CHECK(ok);
        // float deqScale into bfloat16_t: 257 / 256 and 259 / 256 are bf16 ties -> nearest even
        auto big = fx.at<int32_t>(12288, 8);
        for (int i = 0; i < 8; ++i) big.SetValue(i, 257 + 2 * i);
        auto fsc = fx.at<float>(16384, 8);
        fill(fsc, std::vector<double>(8, 1.0 / 256));
        AscendDequant(dst, big, fsc, {1, 8, 8});
        CHECK(equals(dst, {1.0, 1.015625, 1.015625, 1.03125, 1.03125, 1.046875, 1.046875, 1.0625}));
        AscendDequant(dst, big, 1.0f / 256, tmp, {1, 8, 8});   // the scalar form
        CHECK(val(dst, 0) == 1.0 && val(dst, 1) == 1.015625);
    }
    {   // half dst with a uint64_t deqScale: the float in the low 32 bits, the high bits ignored; 2049 -> 2048 (tie)
        auto sc = fx.at<uint64_t>(4096, 8);
        const float one = 1.0f, third = 1.0f / 3;
        uint32_t b1, b3;
        std::memcpy(&b1, &one, 4); std::memcpy(&b3, &third, 4);
        for (int i = 0; i < 8; ++i) sc.SetValue(i, (uint64_t(0xDEADBEEF) << 32) | (i < 4 ? b1 : b3));
        auto s2 = fx.at<int32_t>(12288, 8);
        const int xs[8] = {2049, 2051, -2049, 7, 100, -100, 3, 1 << 20};
        for (int i = 0; i < 8; ++i) s2.SetValue(i, xs[i]);
        auto dst = fx.at<half>(8192, 16);
        AscendDequant(dst, s2, sc, tmp, {1, 8, 8});
        bool ok = true;
        for (int i = 0; i < 8; ++i) ok = ok && val(dst, i) == h_rn(f32(double(xs[i]) * (i < 4 ? 1.0 : double(third))));
        CHECK(ok && val(dst, 0) == 2048 && val(dst, 1) == 2052 && val(dst, 2) == -2048);
    }
    {   // DEQUANT_WITH_SINGLE_ROW turns {1, 16, 8} into {2, 8, 8}; DEQUANT_WITH_MULTI_ROW scales the first 8 only
        auto sc = fx.at<float>(4096, 8);
        fill(sc, {1, 2, 3, 4, 5, 6, 7, 8});
        auto dst = fx.at<float>(8192, 16);
        AscendDequant(dst, src, sc, tmp, {1, 16, 8});
        CHECK(val(dst, 8) == -8 * 1.0 && val(dst, 15) == -1 * 8.0 && val(dst, 1) == -15 * 2.0);
        AscendDequant<float, float, DEQUANT_WITH_MULTI_ROW>(dst, src, sc, tmp, {1, 16, 8});
        CHECK(val(dst, 8) == -8 && val(dst, 15) == -1 && val(dst, 1) == -30);
        // half dst: calCount 8 is not a multiple of 16 halves, so {1, 16, 8} stays one row
        auto hd = fx.at<half>(12288, 16);
        auto u = fx.at<uint64_t>(16384, 8);
        for (int i = 0; i < 8; ++i) {
            const float f = float(i + 1);
            uint32_t b;
            std::memcpy(&b, &f, 4);
            u.SetValue(i, b);
        }
        AscendDequant(hd, src, u, tmp, {1, 16, 8});
        CHECK(val(hd, 8) == -8 && val(hd, 1) == -30);
    }
    {   // the deprecated forms: one row of calCount elements, each with its own deqScale element
        auto sc = fx.at<float>(4096, 32);
        fill(sc, std::vector<double>(32, 0.5));
        auto dst = fx.at<float>(8192, 32);
        AscendDequant(dst, src, sc, tmp, 16);
        CHECK(val(dst, 0) == -8 && val(dst, 15) == -0.5);
        AscendDequant(dst, src, sc, tmp);
        CHECK(val(dst, 31) == 7.5);
        AscendDequant(dst, src, sc, 8);
        CHECK(val(dst, 7) == -4.5);
        AscendDequant(dst, src, sc);
        CHECK(val(dst, 30) == 7);
        CHECK(has(throws([&] { AscendDequant(dst, src, sc.operator[](24), tmp, 16); }), "deqScale's element count"));
    }
    {   // the documented rules
        auto sc = fx.at<float>(4096, 8);
        auto dst = fx.at<float>(8192, 32);
        CHECK(has(throws([&] { AscendDequant(dst, src, sc, tmp, {2, 6, 6}); }), "multiple of 32 bytes"));
        CHECK(has(throws([&] { AscendDequant(dst, src, sc, tmp, {4, 8, 0}); }), "1 <= calCount <= n"));
        CHECK(has(throws([&] { AscendDequant(dst, src, sc, tmp, {2, 16, 12}); }), "deqScale's element count"));
        CHECK(has(throws([&] { AscendDequant(src.ReinterpretCast<float>(), src, sc, tmp, {4, 8, 8}); }), "overlap"));
        CHECK(has(throws([&] { AscendDequant(dst, src, sc, tmp_buf(256), {4, 8, 8}); }), "too small"));
    }
}

// ================= AscendAntiQuant =================
template <class Out> static double ref_anti(double x, double o, double s, bool has_off) {
    if (std::is_same_v<Out, half>) return h_rn(h_rn(x + (has_off ? o : 0)) * s);
    return b_rn(f32(double(f32(x + (has_off ? o : 0))) * s));   // bf16: Add and Mul on float (docs 图2)
}
template <class Out> static void antiquant_tests() {
    Fixture& fx = *g_fx;
    auto tmp = tmp_buf(16 * 1024);
    auto round_out = [](double v) { return double(float(Out(float(v)))); };
    {   // docs' worked example: src [2, 64] of 1, offset / scale [1, 64] of 2 / 3 -> 9
        auto src = fx.at<int8_t>(0, 128);
        auto off = fx.at<Out>(4096, 64), sc = fx.at<Out>(8192, 64);
        auto dst = fx.at<Out>(12288, 128);
        for (int i = 0; i < 128; ++i) src.SetValue(i, int8_t(1));
        fill(off, std::vector<double>(64, 2));
        fill(sc, std::vector<double>(64, 3));
        AntiQuantShapeInfo shapeInfo = {1, 64, 1, 64};
        AscendAntiQuant<int8_t, Out, false>(dst, src, off, sc, tmp, 2, shapeInfo);
        CHECK(equals(dst, std::vector<double>(128, 9)));
        // the shape from the tensors' ShapeInfo when AntiQuantShapeInfo is left 0; framework buffer form
        const uint32_t shp[2] = {1, 64};
        off.SetShapeInfo(ShapeInfo(2, shp));
        sc.SetShapeInfo(ShapeInfo(2, shp));
        fill(dst, std::vector<double>(128, 0));
        AscendAntiQuant<int8_t, Out, false>(dst, src, off, sc, 2);
        CHECK(equals(dst, std::vector<double>(128, 9)));
        auto bare = fx.at<Out>(4096, 64);
        CHECK(has(throws([&] { AscendAntiQuant<int8_t, Out, false>(dst, src, bare, bare, tmp, 2); }),
                  "shape is unknown"));
    }
    {   // PER_CHANNEL with groups: src [K = 4, N = 32], offset / scale [2, 32] (groupSize 2); random values
        auto src = fx.at<int8_t>(0, 128);
        auto off = fx.at<Out>(4096, 64), sc = fx.at<Out>(8192, 64);
        auto dst = fx.at<Out>(12288, 128);
        std::mt19937 gen(9);
        std::vector<int> x(128);
        for (int i = 0; i < 128; ++i) { x[i] = int(gen() % 256) - 128; src.SetValue(i, int8_t(x[i])); }
        const auto o = randoms(64, -3, 3, 21), s = randoms(64, -0.1, 0.1, 22);
        fill(off, o); fill(sc, s);
        AscendAntiQuant<int8_t, Out, false>(dst, src, off, sc, tmp, 4, {2, 32, 2, 32});
        bool ok = true;
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 32; ++j) {
                const int p = (i / 2) * 32 + j;
                ok = ok && val(dst, i * 32 + j) == ref_anti<Out>(x[i * 32 + j], round_out(o[p]), round_out(s[p]), true);
            }
        CHECK(ok);
        // without offset
        AscendAntiQuant<int8_t, Out, false>(dst, src, sc, tmp, 4, {0, 0, 2, 32});
        ok = true;
        for (int i = 0; i < 128; ++i)
            ok = ok && val(dst, i) == ref_anti<Out>(x[i], 0, round_out(s[(i / 64) * 32 + i % 32]), false);
        CHECK(ok);
        // isTranspose: src [N = 2, K = 64], offset / scale [2, 2] (groupSize 32)
        AscendAntiQuant<int8_t, Out, true>(dst, src, off, sc, tmp, 64, {2, 2, 2, 2});
        ok = true;
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 64; ++j) {
                const int p = i * 2 + j / 32;
                ok = ok && val(dst, i * 64 + j) == ref_anti<Out>(x[i * 64 + j], round_out(o[p]), round_out(s[p]), true);
            }
        CHECK(ok);
        // PER_TENSOR forms
        AscendAntiQuant<int8_t, Out, false>(dst, src, Out(1.5f), Out(0.25f), tmp, 4);
        ok = true;
        for (int i = 0; i < 128; ++i) ok = ok && val(dst, i) == ref_anti<Out>(x[i], 1.5, 0.25, true);
        CHECK(ok);
        AscendAntiQuant<int8_t, Out, true>(dst, src, Out(-0.5f), tmp, 32);
        ok = true;
        for (int i = 0; i < 128; ++i) ok = ok && val(dst, i) == ref_anti<Out>(x[i], 0, -0.5, false);
        CHECK(ok);
        fill(dst, std::vector<double>(128, 0));
        AscendAntiQuant<int8_t, Out, false>(dst, src, Out(1.5f), Out(0.25f), 4);
        CHECK(val(dst, 127) == ref_anti<Out>(x[127], 1.5, 0.25, true));
        // the documented rules
        using AQ = AntiQuantShapeInfo;
        CHECK(has(throws([&] { AscendAntiQuant<int8_t, Out, true>(dst, src, off, sc, tmp, 16, AQ{8, 2, 8, 2}); }),
                  "32-byte aligned"));
        CHECK(has(throws([&] { AscendAntiQuant<int8_t, Out, false>(dst, src, off, sc, tmp, 4, AQ{3, 32, 3, 32}); }),
                  "multiple"));
        CHECK(has(throws([&] { AscendAntiQuant<int8_t, Out, false>(dst, src, off, sc, tmp, 4, AQ{2, 32, 1, 32}); }),
                  "same shape"));
        CHECK(has(throws([&] { AscendAntiQuant<int8_t, Out, false>(dst, src[16], Out(0.0f), Out(1.0f), tmp, 4); }),
                  "32-byte aligned"));
        CHECK(has(throws([&] { AscendAntiQuant<int8_t, Out, false>(dst, src, Out(0.0f), Out(1.0f), tmp, 5); }),
                  "k (5)"));
        auto alias = src.template ReinterpretCast<Out>();
        CHECK(has(throws([&] { AscendAntiQuant<int8_t, Out, false>(alias, src, Out(0.0f), Out(1.0f), tmp, 4); }),
                  "overlap"));
    }
    {   // int4b_t sources (A2 lists int8_t and int4b_t): PER_CHANNEL src [K = 2, N = 64] from bytes, PER_TENSOR,
        // and the 32-byte rules counted in bytes (64 int4b_t per 32 B)
        auto bytes = fx.at<uint8_t>(0, 64);
        auto src = bytes.template ReinterpretCast<int4b_t>();
        auto off = fx.at<Out>(4096, 64), sc = fx.at<Out>(8192, 64);
        auto dst = fx.at<Out>(12288, 128);
        std::mt19937 gen(17);
        std::vector<int> x(128);
        for (int i = 0; i < 128; ++i) { x[i] = int(gen() % 16) - 8; src.SetValue(i, x[i]); }
        const auto o = randoms(64, -3, 3, 23), s = randoms(64, -0.5, 0.5, 24);
        fill(off, o); fill(sc, s);
        AscendAntiQuant<int4b_t, Out, false>(dst, src, off, sc, tmp, 2, {1, 64, 1, 64});
        bool ok = true;
        for (int i = 0; i < 128; ++i)
            ok = ok && val(dst, i) == ref_anti<Out>(x[i], round_out(o[i % 64]), round_out(s[i % 64]), true);
        CHECK(ok);
        AscendAntiQuant<int4b_t, Out, false>(dst, src, Out(1.5f), Out(0.25f), tmp, 2);
        ok = true;
        for (int i = 0; i < 128; ++i) ok = ok && val(dst, i) == ref_anti<Out>(x[i], 1.5, 0.25, true);
        CHECK(ok);
        // 32 int4b_t are 16 B: not a 32-byte length; with isTranspose, K = 32 int4b_t is not 32-byte aligned either
        CHECK(has(throws([&] { AscendAntiQuant<int4b_t, Out, false>(dst, src[96], Out(0.0f), Out(1.0f), tmp, 1); }),
                  "(16 B) must be 32-byte aligned"));
        CHECK(has(throws([&] { AscendAntiQuant<int4b_t, Out, true>(dst, src, Out(0.0f), Out(1.0f), tmp, 32); }),
                  "32 int4b_t elements"));
    }
    {   // the staging: half rounds src + offset to half before the Mul, bfloat16 keeps it in float
        auto src = fx.at<int8_t>(0, 32);
        auto dst = fx.at<Out>(12288, 32);
        for (int i = 0; i < 32; ++i) src.SetValue(i, int8_t(1));
        if (std::is_same_v<Out, half>) {
            // 1 + 2^-11 is a half tie -> 1, then * 3 = 3 (one rounding at the end would give 3.001953125)
            AscendAntiQuant<int8_t, Out, false>(dst, src, Out(0.00048828125f), Out(3.0f), tmp, 1);
            CHECK(val(dst, 0) == 3.0);
        } else {
            // 1 + 2^-8 stays exact in float; * 3 = 3.01171875 -> bf16 3.015625 (a bf16 add would give 3)
            AscendAntiQuant<int8_t, Out, false>(dst, src, Out(0.00390625f), Out(3.0f), tmp, 1);
            CHECK(val(dst, 0) == 3.015625);
        }
    }
}

// ================= Pad / UnPad =================
struct GenPadTiling {   // what the build generates from optiling::PadTiling (the kernel-side struct)
    uint32_t srcHeight, srcWidth, srcOriWidth, dstWidth, typeSize, rowsPerLoop, tmpBufferSize;
};
struct GenUnPadTiling {
    uint32_t srcHeight, srcWidth, typeSize, rowsPerLoop, tmpBufferSize;
};
namespace optiling {
BEGIN_TILING_DATA_DEF(QuantPadTestTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, totalLength);
    TILING_DATA_FIELD_DEF_STRUCT(PadTiling, padTilingData);
    TILING_DATA_FIELD_DEF_STRUCT(UnPadTiling, unpadTilingData);
END_TILING_DATA_DEF;
}  // namespace optiling
struct alignas(8) GenQuantPadTestTilingData {
    uint32_t totalLength;
    alignas(8) GenPadTiling padTilingData;
    alignas(8) GenUnPadTiling unpadTilingData;
};

static void pad_tests() {
    Fixture& fx = *g_fx;
    platform_ascendc::PlatformAscendC plat;
    {   // docs' worked example: half 16 x 15 (0 .. 239) -> 16 x 16, PadParams{0, 1, 321}; the docs' host tiling flow
        optiling::QuantPadTestTilingData td;
        uint32_t mx = 0, mn = 0;
        GetPadMaxMinTmpSize(TensorShape({16, 15}), sizeof(half), mx, mn);
        CHECK(mn == 32 && mx == 16 * 32);
        PadTilingFunc(TensorShape({16, 15}), TensorShape({16, 15}), mn, sizeof(half), td.padTilingData);
        CHECK(td.padTilingData.get_srcHeight() == 16 && td.padTilingData.get_srcWidth() == 15 &&
              td.padTilingData.get_dstWidth() == 16 && td.padTilingData.get_rowsPerLoop() == 1);
        GetUnPadMaxMinTmpSize(plat, TensorShape({16, 16}), sizeof(half), mx, mn);
        UnPadTilingFunc(TensorShape({16, 16}), mx, sizeof(half), td.unpadTilingData);
        td.set_totalLength(240);
        std::vector<uint8_t> raw(td.GetDataSize());
        td.SaveToBuffer(raw.data(), raw.size());
        CHECK(raw.size() == sizeof(GenQuantPadTestTilingData));
        GenQuantPadTestTilingData kt;
        std::memcpy(&kt, raw.data(), sizeof kt);   // GET_TILING_DATA
        CHECK(kt.padTilingData.srcWidth == 15 && kt.padTilingData.typeSize == 2);
        CHECK(kt.unpadTilingData.rowsPerLoop == 16 && kt.totalLength == 240);

        auto src = fx.at<half>(0, 240), dst = fx.at<half>(4096, 256), back = fx.at<half>(8192, 240);
        std::vector<double> x(240);
        for (int i = 0; i < 240; ++i) x[i] = i;
        fill(src, x);
        PadParams padParams{0, 1, 321};
        Pad(dst, src, padParams, tmp_buf(32), kt.padTilingData);
        std::vector<double> want;
        for (int r = 0; r < 16; ++r) { for (int c = 0; c < 15; ++c) want.push_back(r * 15 + c); want.push_back(321); }
        CHECK(equals(dst, want));
        // and back: UnPad 16 x 16 -> 16 x 15 (docs' UnPad example), framework buffer
        UnPadParams unPadParams{0, 1};
        UnPad(back, dst, unPadParams, kt.unpadTilingData);
        CHECK(equals(back, x));
        // the plain-struct host overload and the framework-buffer Pad
        tiling::PadTiling pt;
        PadTilingFunc(TensorShape({16, 15}), TensorShape({16, 15}), 1 << 20, sizeof(half), pt);
        CHECK(pt.rowsPerLoop == 16 && pt.tmpBufferSize == 512);
        GenPadTiling gpt = pt;   // the conversion the build's struct gets
        fill(dst, std::vector<double>(256, 0));
        Pad<half>(dst, src, padParams, gpt);
        CHECK(equals(dst, want));
        CHECK(has(throws([&] { Pad(dst, src, padParams, tmp_buf(256), gpt); }), "too small"));
    }
    {   // left and right pad, float [8, 5] -> [8, 8]: two padValues, the row, one padValue
        tiling::PadTiling t;
        PadTilingFunc(TensorShape({8, 5}), TensorShape({8, 5}), 4096, 4, t);
        auto src = fx.at<float>(0, 40), dst = fx.at<float>(4096, 64);
        const auto x = randoms(40, -10, 10, 31);
        fill(src, x);
        PadParams pp{2, 1, -7};
        Pad(dst, src, pp, tmp_buf(4096), t);
        std::vector<double> want;
        for (int r = 0; r < 8; ++r) {
            want.push_back(-7); want.push_back(-7);
            for (int c = 0; c < 5; ++c) want.push_back(double(float(x[r * 5 + c])));
            want.push_back(-7);
        }
        CHECK(equals(dst, want));
        // in place: the source is read before the destination is written
        fill(dst, x);
        Pad(dst, dst, pp, tmp_buf(4096), t);
        CHECK(equals(dst, want));
        PadParams wide{2, 2, 0};
        CHECK(has(throws([&] { Pad(dst, src, wide, tmp_buf(4096), t); }), "padded width"));
        PadTilingFunc(TensorShape({8, 5}), TensorShape({8, 5}), 16, 4, t);   // below the minimum
        CHECK(has(throws([&] { Pad(dst, src, pp, tmp_buf(4096), t); }), "below GetPadMaxMinTmpSize"));
    }
    {   // scenario 2: int32_t [4, 8] with 6 valid columns, right pad 2 with 5; other columns copied
        tiling::PadTiling t;
        PadTilingFunc(TensorShape({4, 8}), TensorShape({4, 6}), 4096, 4, t);
        auto src = fx.at<int32_t>(0, 32), dst = fx.at<int32_t>(4096, 32);
        for (int i = 0; i < 32; ++i) src.SetValue(i, i);
        PadParams pp{0, 2, 5};
        Pad(dst, src, pp, tmp_buf(4096), t);
        bool ok = true;
        for (int i = 0; i < 32; ++i) ok = ok && dst.GetValue(i) == (i % 8 >= 6 ? 5 : i);
        CHECK(ok);
        PadParams one{0, 1, 9};
        Pad(dst, src, one, tmp_buf(4096), t);
        CHECK(dst.GetValue(6) == 9 && dst.GetValue(7) == 7);
        PadParams left{1, 1, 9};
        CHECK(has(throws([&] { Pad(dst, src, left, tmp_buf(4096), t); }), "only the right side"));
        PadParams three{0, 3, 9};
        CHECK(has(throws([&] { Pad(dst, src, three, tmp_buf(4096), t); }), "padded width"));
        PadTilingFunc(TensorShape({4, 8}), TensorShape({4, 8}), 4096, 4, t);
        CHECK(has(throws([&] { Pad(dst, src, one, tmp_buf(4096), t); }), "already 32-byte aligned"));
        auto fsrc = src.ReinterpretCast<float>();
        CHECK(has(throws([&] { Pad(fsrc, fsrc, one, tmp_buf(4096), t); }), "already 32-byte aligned"));
    }
    {   // 16-bit integers (uint16_t, int16_t) and the data-length rule
        tiling::PadTiling t;
        PadTilingFunc(TensorShape({16, 13}), TensorShape({16, 13}), 4096, 2, t);
        auto src = fx.at<uint16_t>(0, 208), dst = fx.at<uint16_t>(4096, 256);
        for (int i = 0; i < 208; ++i) src.SetValue(i, uint16_t(i * 7));
        PadParams pp{1, 2, 65535};
        Pad(dst, src, pp, tmp_buf(4096), t);
        bool ok = true;
        for (int r = 0; r < 16; ++r)
            for (int c = 0; c < 16; ++c)
                ok = ok && dst.GetValue(r * 16 + c) == (c == 0 || c >= 14 ? 65535 : (r * 13 + c - 1) * 7);
        CHECK(ok);
        auto s16 = fx.at<int16_t>(0, 208), d16 = fx.at<int16_t>(4096, 256);
        PadParams neg{0, 3, -3};
        Pad(d16, s16, neg, tmp_buf(4096), t);
        CHECK(d16.GetValue(13) == -3 && d16.GetValue(15) == -3 && d16.GetValue(16) == s16.GetValue(13));
        auto fd = dst.ReinterpretCast<float>();
        auto fs = src.ReinterpretCast<float>();
        CHECK(has(throws([&] { Pad(fd, fs, pp, tmp_buf(4096), t); }), "typeSize"));
        PadTilingFunc(TensorShape({3, 15}), TensorShape({3, 15}), 4096, 2, t);   // 90 B of source
        CHECK(has(throws([&] { Pad(dst, src, pp, tmp_buf(4096), t); }), "32-byte aligned"));
        tiling::PadTiling empty;
        PadTilingFunc(TensorShape({240}), TensorShape({240}), 4096, 2, empty);
        CHECK(has(throws([&] { Pad(dst, src, pp, tmp_buf(4096), empty); }), "empty shape"));
    }
    {   // UnPad: float [4, 8] -> [4, 5]; the rules on rightPad / leftPad / the width
        tiling::UnPadTiling t;
        uint32_t mx = 0, mn = 0;
        GetUnPadMaxMinTmpSize(plat, TensorShape({4, 8}), 4, mx, mn);
        CHECK(mn == 32 && mx == 128);
        UnPadTilingFunc(TensorShape({4, 8}), mn, 4, t);
        auto src = fx.at<float>(0, 32), dst = fx.at<float>(4096, 32);
        std::vector<double> x(32), want;
        for (int i = 0; i < 32; ++i) x[i] = i * 0.5;
        fill(src, x);
        for (int r = 0; r < 4; ++r) for (int c = 0; c < 5; ++c) want.push_back(x[r * 8 + c]);
        UnPadParams up{0, 3};
        auto tmp = tmp_buf(32);
        UnPad(dst, src, up, tmp, t);
        CHECK(equals(dst, want));
        UnPadParams zero{0, 0}, eight{0, 8}, left{8, 1};
        CHECK(has(throws([&] { UnPad(dst, src, zero, tmp, t); }), "rightPad"));
        CHECK(has(throws([&] { UnPad(dst, src, eight, tmp, t); }), "rightPad"));
        CHECK(has(throws([&] { UnPad(dst, src, left, tmp, t); }), "leftPad"));
        UnPadTilingFunc(TensorShape({4, 15}), 4096, 2, t);
        auto h = fx.at<half>(0, 60), hd = fx.at<half>(4096, 60);
        UnPadParams one{0, 1};
        auto big = tmp_buf(4096);
        CHECK(has(throws([&] { UnPad(hd, h, one, big, t); }), "32-byte aligned"));
        UnPadTilingFunc(TensorShape({4, 16}), 8, 2, t);
        CHECK(has(throws([&] { UnPad(hd, h, one, big, t); }), "below GetUnPadMaxMinTmpSize"));
        GenUnPadTiling g = [] { tiling::UnPadTiling u; UnPadTilingFunc(TensorShape({2, 16}), 64, 2, u); return u; }();
        auto small = tmp_buf(32);
        CHECK(has(throws([&] { UnPad(hd, h, one, small, g); }), "too small"));
    }
}

// ================= DropOut =================
template <class T> static double ref_drop(double x, bool keep, float keepProb) {
    if (!keep) return 0;
    const float factor = 1.0f / keepProb;
    if (std::is_same_v<T, half>) return h_rn(double(float(T(float(x)))) * h_rn(factor));
    return f32(double(float(x)) * double(factor));
}
template <class T> static void dropout_tests() {
    Fixture& fx = *g_fx;
    auto tmp = tmp_buf(16 * 1024);
    auto src = fx.at<T>(0, 512), dst = fx.at<T>(4096, 512);
    auto mask = fx.at<uint8_t>(8192, 1024);
    {   // docs' worked example: byte mode, 32 elements 0 .. 31, keepProb 0.5
        std::vector<double> x(32);
        for (int i = 0; i < 32; ++i) x[i] = i;
        fill(src, x);
        const uint8_t m[32] = {0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 1, 0, 1, 1,
                               0, 0, 1, 0, 0, 1, 1, 1, 1, 0, 1, 0, 1, 1, 1, 0};
        std::memcpy(mask.addr_, m, 32);
        DropOutShapeInfo info;
        info.firstAxis = 1; info.srcLastAxis = 32; info.maskLastAxis = 32;
        DropOut(dst, src, mask, tmp, 0.5f, info);
        CHECK(equals(dst, {0, 2, 0, 0, 0, 0, 0, 0, 16, 0, 20, 22, 24, 0, 28, 30,
                           0, 0, 36, 0, 0, 42, 44, 46, 48, 0, 52, 0, 56, 58, 60, 0}));
        fill(dst, std::vector<double>(32, -1));
        DropOut<T, false, 2>(dst, src, mask, 0.5f, info);   // explicit mode, framework buffer
        CHECK(val(dst, 1) == 2 && val(dst, 0) == 0);
        // in place (docs: src and dst may share memory)
        DropOut(src, src, mask, tmp, 0.5f, info);
        CHECK(val(src, 31) == 0 && val(src, 30) == 60);
    }
    {   // byte mode, the docs' 10-element example (keepProb 0.25 -> x4); any non-zero byte keeps
        fill(src, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
        const uint8_t m[10] = {1, 0, 1, 0, 1, 0, 0, 1, 255, 0};
        std::memcpy(mask.addr_, m, 10);
        DropOutShapeInfo info;
        info.firstAxis = 1; info.srcLastAxis = 10; info.maskLastAxis = 10;
        DropOut(dst, src, mask, tmp, 0.25f, info);
        CHECK(equals(dst, {4, 0, 12, 0, 20, 0, 0, 32, 36, 0}));
    }
    {   // bit mode, dense: least significant bit first (0x95 keeps 0, 2, 4, 7; the docs' 169 keeps 0, 3, 5, 7)
        fill(src, {1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 13, 14, 15, 16, 17, 18});
        mask.SetValue(0, uint8_t(0x95)); mask.SetValue(1, uint8_t(169));
        DropOutShapeInfo info;
        info.firstAxis = 2; info.srcLastAxis = 8; info.maskLastAxis = 1;   // inferred: maskLastAxis * 8 == srcLastAxis
        DropOut(dst, src, mask, tmp, 0.5f, info);
        CHECK(equals(dst, {2, 0, 6, 0, 10, 0, 0, 16, 22, 0, 0, 28, 0, 32, 0, 36}));
    }
    {   // padded byte mask (mode 1 inferred): rows of 16 elements, mask rows of 32 bytes with junk after 16
        const auto x = randoms(32, -50, 50, 41);
        fill(src, x);
        std::mt19937 gen(42);
        std::vector<uint8_t> keep(32);
        for (int r = 0; r < 2; ++r)
            for (int c = 0; c < 32; ++c) {
                const uint8_t b = c < 16 ? uint8_t(gen() % 2) : uint8_t(1);
                mask.SetValue(r * 32 + c, b);
                if (c < 16) keep[r * 16 + c] = b;
            }
        DropOutShapeInfo info;
        info.firstAxis = 2; info.srcLastAxis = 16; info.maskLastAxis = 32;
        DropOut(dst, src, mask, tmp, 0.3f, info);
        bool ok = true;
        for (int i = 0; i < 32; ++i) ok = ok && val(dst, i) == ref_drop<T>(x[i], keep[i], 0.3f);
        CHECK(ok);
        ok = true;   // the mask was compacted in place: its valid bytes are dense at the start
        for (int i = 0; i < 32; ++i) ok = ok && mask.GetValue(i) == keep[i];
        CHECK(ok);
    }
    {   // padded bit mask: rows of 64 elements (8 valid bytes) in mask rows of 32 bytes (mode 4 inferred), and the
        // same data with an explicit mode 4 when the rows are short (16 elements in 32-byte rows would infer mode 1)
        const auto x = randoms(128, -5, 5, 51);
        fill(src, x);
        std::mt19937 gen(52);
        std::vector<uint8_t> keep(128);
        for (int r = 0; r < 2; ++r)
            for (int b = 0; b < 32; ++b) {
                const uint8_t byte = b < 8 ? uint8_t(gen()) : uint8_t(0xFF);
                mask.SetValue(r * 32 + b, byte);
                if (b < 8) for (int k = 0; k < 8; ++k) keep[r * 64 + b * 8 + k] = (byte >> k) & 1;
            }
        DropOutShapeInfo info;
        info.firstAxis = 2; info.srcLastAxis = 64; info.maskLastAxis = 32;
        DropOut(dst, src, mask, tmp, 0.75f, info);
        bool ok = true;
        for (int i = 0; i < 128; ++i) ok = ok && val(dst, i) == ref_drop<T>(x[i], keep[i], 0.75f);
        CHECK(ok);
        for (int r = 0; r < 4; ++r)
            for (int b = 0; b < 32; ++b) mask.SetValue(r * 32 + b, uint8_t(b < 2 ? 0xA5 : 0x00));
        info.firstAxis = 4; info.srcLastAxis = 16; info.maskLastAxis = 32;
        DropOut<T, true, 4>(dst, src, mask, tmp, 0.5f, info);
        ok = true;
        for (int i = 0; i < 64; ++i) ok = ok && val(dst, i) == ref_drop<T>(x[i], (0xA5 >> (i % 8)) & 1, 0.5f);
        CHECK(ok);
        if (std::is_same_v<T, half>) {   // 16 halves are a 32-byte row; 8 floats would be needed for 32 B with float
            CHECK(throws([&] { DropOut<T, false, 4>(dst, src, mask, tmp, 0.5f, info); }).empty());
        } else {
            info.srcLastAxis = 8; info.maskLastAxis = 8;   // 1 valid byte: odd
            CHECK(has(throws([&] { DropOut<T, false, 4>(dst, src, mask, tmp, 0.5f, info); }), "even"));
        }
    }
    {   // the documented rules
        DropOutShapeInfo info;
        info.firstAxis = 1; info.srcLastAxis = 32; info.maskLastAxis = 32;
        CHECK(has(throws([&] { DropOut(dst, src, mask, tmp, 0.0f, info); }), "keepProb"));
        CHECK(has(throws([&] { DropOut(dst, src, mask, tmp, 1.0f, info); }), "keepProb"));
        CHECK(has(throws([&] { DropOut(dst, src, mask, tmp, 1.5f, info); }), "keepProb"));
        info.maskLastAxis = 0;
        CHECK(has(throws([&] { DropOut(dst, src, mask, tmp, 0.5f, info); }), "maskLastAxis must be greater than 0"));
        info.srcLastAxis = 64; info.maskLastAxis = 4;
        CHECK(has(throws([&] { DropOut(dst, src, mask, tmp, 0.5f, info); }), "cannot infer"));
        info.srcLastAxis = 5; info.maskLastAxis = 32;
        CHECK(has(throws([&] { DropOut(dst, src, mask, tmp, 0.5f, info); }), "even"));
        info.srcLastAxis = 12; info.maskLastAxis = 32;
        CHECK(has(throws([&] { DropOut<T, false, 4>(dst, src, mask, tmp, 0.5f, info); }), "multiple of 8"));
        info.srcLastAxis = 32; info.maskLastAxis = 32;
        CHECK(has(throws([&] { DropOut(dst, src, mask, tmp_buf(128), 0.5f, info); }), "too small"));
    }
}

// ================= host helpers and the kernel's temporary-buffer checks =================
static void host_tests() {
    Fixture& fx = *g_fx;
    uint32_t mx = 0, mn = 0;
    GetAscendQuantMaxMinTmpSize(TensorShape(std::vector<int64_t>{1024}), 2, mx, mn);
    CHECK(mn == 512 && mx == 2 * 4096);
    GetAscendQuantMaxMinTmpSize(TensorShape({1024}), 1, mx, mn);
    CHECK(mn == 0 && mx == 0);
    uint32_t live = 0, extra = 0;
    GetAscendQuantTmpBufferFactorSize(live, extra);
    CHECK(live == 4 && extra == 512);
    {   // a kernel sized by the host: minValue passes, one block less fails
        GetAscendQuantMaxMinTmpSize(TensorShape({256}), 4, mx, mn);
        auto src = fx.at<float>(0, 256);
        auto dst = fx.at<int8_t>(4096, 256);
        CHECK(throws([&] { AscendQuant<float>(dst, src, tmp_buf(mn), 1.0f, 0.0f); }).empty());
        CHECK(has(throws([&] { AscendQuant<float>(dst, src, tmp_buf(mn - 32), 1.0f, 0.0f); }), "too small"));
    }
    GetAscendDequantMaxMinTmpSize(TensorShape({2, 1024}), 4, mx, mn);
    CHECK(mn == 512 && mx == 2 * 8192);
    GetAscendDequantTmpBufferFactorSize(TensorShape({2, 1024}), live, extra);
    CHECK(live == 2 && extra == 512);
    GetAscendDequantTmpBufferFactorSize(live, extra);
    CHECK(live == 2);
    const TensorShape aqSrc({64, 512}), aqScale({1, 512});   // the docs' example shapes
    GetAscendAntiQuantMaxMinTmpSize(aqSrc, aqScale, false, ge::DT_INT8, ge::DT_BF16, mx, mn);
    CHECK(mn == 512 && mx == 2 * 64 * 512 * 4);
    CHECK(GetAscendAntiQuantMinTmpSize(aqSrc, aqScale, false, ge::DT_INT8, ge::DT_FLOAT16) == 256);
    CHECK(GetAscendAntiQuantMaxTmpSize(aqSrc, aqScale, false, ge::DT_INT8, ge::DT_FLOAT) == 0);
    GetAscendAntiQuantTmpBufferFactorSize(aqSrc, aqScale, false, ge::DT_INT8, ge::DT_BF16, live, extra);
    CHECK(live == 8 && extra == 512);
    GetDropOutMaxMinTmpSize(TensorShape({16, 64, 64}), 2, false, mx, mn);   // the docs' example shape
    CHECK(mn == 256 && mx == 16 * 64 * 4);
    CHECK(GetDropOutMaxTmpSize(TensorShape({16, 64}), 4, false) == 4096);
    CHECK(GetDropOutMinTmpSize(TensorShape({16, 64}), 4, false) == 256);
    GetPadMaxMinTmpSize(TensorShape({320, 63}), 2, mx, mn);   // the docs' Pad tiling example
    CHECK(mn == 128 && mx == 320 * 128);
    optiling::PadTiling pt;
    PadTilingFunc(TensorShape({320, 63}), TensorShape({320, 63}), mn, 2, pt);
    CHECK(pt.get_rowsPerLoop() == 1 && pt.get_tmpBufferSize() == 128 && pt.get_dstWidth() == 64);
    GetPadMaxMinTmpSize(TensorShape({320, 63, 1}), 2, mx, mn);
    CHECK(mn == 0 && mx == 0);
    {   // the framework-buffer forms need the UB after the last InitBuffer
        TPipe pipe;
        TBuf<TPosition::VECCALC> all;
        pipe.InitBuffer(all, ascsim::kUbBytes - 256);
        auto src = fx.at<half>(0, 64);
        auto dst = fx.at<int8_t>(4096, 64);
        CHECK(has(throws([&] { AscendQuant<half>(dst, src, 1.0f, 0.0f); }), "no UB left"));
        DropOutShapeInfo info;
        info.firstAxis = 1; info.srcLastAxis = 64; info.maskLastAxis = 64;
        CHECK(throws([&] { DropOut(src, src, dst.ReinterpretCast<uint8_t>(), 0.5f, info); }).empty());   // 256 B fit
    }
}

int main() {
    Fixture fx;
    g_fx = &fx;
    quant_tensor_tests<half>();
    quant_tensor_tests<float>();
    quant_channel_tests<half>();
    quant_channel_tests<float>();
    quant_config_tests();
    dequant_tests();
    antiquant_tests<half>();
    antiquant_tests<bfloat16_t>();
    pad_tests();
    dropout_tests<half>();
    dropout_tests<float>();
    host_tests();
    std::printf("PASS %d FAIL %d\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
