// The high-level Fmod and TransData APIs (kernel/hl_fmod.h, kernel/hl_trans_data.h) and their host size functions
// (host/fmod_trans_data_tiling.h) against references written from the documentation:
//   Fmod: the docs' worked examples (2.0 mod 1.5, -3.0 mod 1.1, the [-2.56, 2.55] mod 2 array), signs (the result
//     keeps the dividend's sign), a zero divisor, the float-step evaluation of a - Trunc(a / b) * b (random sweeps
//     against a reference written here), each of the four overloads, the documented rules (equal source lengths,
//     no src / dst overlap, sharedTmpBuffer apart and large enough) and GetFmodMaxMinTmpSize /
//     GetFmodTmpBufferFactorSize against the kernel's check.
//   TransData: the docs' NCDHW -> NDC1HWC0 example (printed values), all four conversions on small odd shapes (C and
//     N not multiples of 16, H * W not 32-byte aligned) against index arithmetic written here, the HW padding rules
//     of the NCDHW side, every supported dtype, round trips, the parameter checks and GetTransDataMaxMinTmpSize;
//     plus the Layout helpers it takes shapes from.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>
#include "kernel_operator.h"
#include "tiling/tiling_api.h"
#include "ascsim/kernel/hl_fmod.h"
#include "ascsim/kernel/hl_trans_data.h"
#include "ascsim/host/fmod_trans_data_tiling.h"

using namespace AscendC;

#include "check.h"

#include "ub_fixture.h"

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// ---------------------------------------------------------------------------------------------------- Fmod ----

// UB layout of the Fmod tests: src0 at 0, src1 at 32 KB, dst at 64 KB, the temporary buffer at 128 KB.
constexpr uint32_t kA = 0, kB = 32 * 1024, kD = 64 * 1024, kT = 128 * 1024;

template <class T> static void put(LocalTensor<T>& t, const std::vector<double>& v) {
    for (size_t i = 0; i < v.size(); ++i) t.SetValue(uint32_t(i), T(float(v[i])));
}
// Every element equals `want` rounded to T (NaN matches NaN) when tol == 0, else lies within tol of it.
template <class T> static bool near(const LocalTensor<T>& t, const std::vector<double>& want, double tol = 0) {
    for (size_t i = 0; i < want.size(); ++i) {
        const double got = float(t.GetValue(uint32_t(i))), w = want[i];
        const bool ok = std::isnan(w) ? std::isnan(got)
                        : tol == 0    ? got == double(float(T(float(w))))
                                      : std::fabs(got - w) <= tol;
        if (!ok) {
            std::printf("  [%zu] = %.9g, want %.9g\n", i, got, w);
            return false;
        }
    }
    return true;
}
// The documented definition a - Trunc(a / b) * b, evaluated as the A2 NORMAL algorithm does it in this model: the
// operands as T holds them, widened to float, every step rounded to float, the result rounded to T.
template <class T> static double ref_fmod(double a, double b) {
    const float fa = float(T(float(a))), fb = float(T(float(b)));
    volatile float q = fa / fb;   // volatile: keep each step a separate float rounding
    volatile float t = std::trunc(float(q));
    volatile float p = float(t) * fb;
    volatile float r = fa - float(p);
    return double(float(T(float(r))));
}

template <class T> static void fmod_values(Fixture& fx) {
    const bool f32 = std::is_same_v<T, float>;
    auto a = fx.at<T>(kA, 4096), b = fx.at<T>(kB, 4096), d = fx.at<T>(kD, 4096);
    auto tmp = fx.at<uint8_t>(kT, 32 * 1024);
    // the docs' two worked examples
    put(a, {2.0, -3.0}), put(b, {1.5, 1.1});
    Fmod(d, a, b, tmp, 2);
    CHECK(near(d, {0.5, -0.8}, f32 ? 1e-6 : 1e-3));
    // the docs' array: src0 = -2.56, -2.55, ..., 2.55 (512 values), src1 = 2, calCount 512
    std::vector<double> x, two(512, 2.0), want;
    for (int i = 0; i < 512; ++i) x.push_back((i - 256) / 100.0);
    for (double v : x) want.push_back(v - 2.0 * std::trunc(v / 2.0));
    put(a, x), put(b, two);
    Fmod(d, a, b, tmp, 512);
    CHECK(near(d, want, f32 ? 1e-6 : 2e-3));
    CHECK(near(d, {-0.56, -0.55, -0.54}, f32 ? 1e-6 : 2e-3));   // the printed head ...
    CHECK(std::fabs(float(d.GetValue(255)) + 0.01) < 1e-4 && float(d.GetValue(256)) == 0.0f &&
          std::fabs(float(d.GetValue(257)) - 0.01) < 1e-4);          // ... middle ...
    CHECK(std::fabs(float(d.GetValue(511)) - 0.55) < 2e-3 && std::fabs(float(d.GetValue(509)) - 0.53) < 2e-3);
    // signs: the remainder takes the dividend's sign, whatever the divisor's
    put(a, {7, -7, 7, -7, 5.5, -5.5, 1, -1, 0, 6, -6, 0.75});
    put(b, {3, 3, -3, -3, 2, 2, 3, 3, 5, 3, -3, -0.5});
    Fmod(d, a, b, 12);
    CHECK(near(d, {1, -1, 1, -1, 1.5, -1.5, 1, -1, 0, 0, 0, 0.25}));
    CHECK(!std::signbit(float(d.GetValue(10))));   // an exact multiple: +0 from the subtraction, even for -6
    // a zero divisor (and 0 / 0) gives NaN through the formula; so do an infinite dividend and an infinite divisor
    put(a, {1, -1, 0, kInf, 1});
    put(b, {0, 0, 0, 2, kInf});
    Fmod(d, a, b, tmp, 5);
    CHECK(near(d, {kNaN, kNaN, kNaN, kNaN, kNaN}));
    // one float pass: where the quotient rounds up, the exact remainder is lost (1.0f / 0.1f rounds to 10, so 0,
    // while the exact remainder of the two float values is 0.0999999866)
    if constexpr (std::is_same_v<T, float>) {
        put(a, {1.0, 0.7}), put(b, {0.1, 0.1});
        Fmod(d, a, b, 2);
        CHECK(float(d.GetValue(0)) == 0.0f && float(d.GetValue(1)) == 0.0f && std::fmod(1.0f, 0.1f) > 0.09f &&
              std::fmod(0.7f, 0.1f) > 0.09f);
    }
    // random sweeps against the reference, bit for bit (both signs, quotients from below 1 to beyond 2^24)
    std::mt19937 gen(7);
    for (int round = 0; round < 4; ++round) {
        const double lo = round < 2 ? 1e-2 : 0.5, hi = round % 2 ? 1e3 : 60;
        std::uniform_real_distribution<double> mag(lo, hi), sign(-1, 1);
        std::vector<double> xa(2048), xb(2048), w(2048);
        for (int i = 0; i < 2048; ++i) {
            xa[i] = mag(gen) * (sign(gen) < 0 ? -1 : 1) * (f32 ? 1000 : 1);
            xb[i] = mag(gen) / 10 * (sign(gen) < 0 ? -1 : 1);
            w[i] = ref_fmod<T>(xa[i], xb[i]);
        }
        put(a, xa), put(b, xb);
        Fmod(d, a, b, tmp, 2048);
        CHECK_MSG(near(d, w), "%s sweep %d", f32 ? "float" : "half", round);
    }
    // half: widened to float, one narrowing at the end (not a half-precision division)
    if constexpr (std::is_same_v<T, half>) {
        put(a, {1000.5, -333.25}), put(b, {0.3, 7.1});
        Fmod(d, a, b, tmp, 2);
        CHECK(near(d, {ref_fmod<half>(1000.5, 0.3), ref_fmod<half>(-333.25, 7.1)}));
        const float ha = float(half(1000.5f)), hb = float(half(0.3f));
        CHECK(std::fabs(float(d.GetValue(0)) - (ha - std::trunc(ha / hb) * hb)) < 1e-3);
    }
}

// The four overloads and the documented rules.
template <class T> static void fmod_shapes(Fixture& fx) {
    auto a = fx.at<T>(kA, 64), b = fx.at<T>(kB, 64), d = fx.at<T>(kD, 64);
    auto tmp = fx.at<uint8_t>(kT, 4096);
    std::vector<double> xa, xb, w;
    for (int i = 0; i < 64; ++i) xa.push_back(i * 1.25 - 30), xb.push_back((i % 5) + 1.5), w.push_back(0);
    for (int i = 0; i < 64; ++i) w[i] = ref_fmod<T>(xa[i], xb[i]);
    put(a, xa), put(b, xb);
    auto clear = [&] { for (uint32_t i = 0; i < 64; ++i) d.SetValue(i, T(-99.0f)); };
    clear();
    Fmod(d, a, b);   // the whole tensors, framework scratch
    CHECK(near(d, w));
    clear();
    Fmod(d, a, b, tmp);   // the whole tensors, caller's buffer
    CHECK(near(d, w));
    clear();
    Fmod<T, false>(d, a, b, tmp, 10);   // partly: the rest of dst is untouched
    CHECK(near(d, std::vector<double>(w.begin(), w.begin() + 10)) && float(d.GetValue(10)) == -99.0f);
    clear();
    Fmod<T, false, DEFAULT_FMOD_CONFIG>(d, a, b, 33);
    CHECK(near(d, std::vector<double>(w.begin(), w.begin() + 33)) && float(d.GetValue(33)) == -99.0f);
    static constexpr FmodConfig normal = {FmodAlgo::NORMAL, 3};   // NORMAL ignores iterationNum
    Fmod<T, false, normal>(d, a, b, tmp, 64);
    CHECK(near(d, w));
    // the rules
    CHECK(has(throws([&] { Fmod(d, a, fx.at<T>(kB, 32)); }), "same number of elements"));
    CHECK(has(throws([&] { Fmod(d, a, fx.at<T>(kB, 128), tmp); }), "same number of elements"));
    CHECK(has(throws([&] { Fmod(d, a, b, 65); }), "calCount"));
    CHECK(has(throws([&] { Fmod(fx.at<T>(kD, 8), a, b, tmp, 16); }), "calCount"));
    CHECK(has(throws([&] { Fmod(a, a, b, tmp, 64); }), "overlap"));   // in place
    CHECK(has(throws([&] { Fmod(fx.at<T>(kB + 32, 64), a, b, 64); }), "src1Tensor"));
    CHECK(has(throws([&] { Fmod(d, a, b, fx.at<uint8_t>(kD + 64, 1024), 64); }), "sharedTmpBuffer overlaps"));
    CHECK(has(throws([&] { Fmod(d, a, b, fx.at<uint8_t>(kT, 128), 64); }), "GetFmodMaxMinTmpSize"));
    CHECK(has(throws([&] { Fmod(d, a, b, fx.at<uint8_t>(kT + 16, 1024), 64); }), "align"));
    CHECK(throws([&] { Fmod(d, a, a, tmp, 64); }).empty());   // the two sources may be one tensor
    std::vector<double> self;
    for (double v : xa) self.push_back(v == 0 ? kNaN : 0.0);   // x mod x = 0, and 0 mod 0 is NaN
    CHECK(near(d, self) && std::isnan(float(d.GetValue(24))));
}

// Host sizes against the kernel: the minimum passes, 32 bytes less fails; the factor formula gives a count that fits.
template <class T> static void fmod_host(Fixture& fx) {
    constexpr uint32_t ts = sizeof(T);
    uint32_t mx = 1, mn = 1, live = 0, extra = 0;
    GetFmodMaxMinTmpSize(ge::Shape({4, 256}), ts, false, mx, mn);
    const uint32_t nodes = ts == 2 ? 3 : 1;   // the model: float 1 vector, half 3
    CHECK(mn == nodes * 256 && mx == nodes * 1024 * 4);
    uint32_t mx2 = 0, mn2 = 0;
    GetFmodMaxMinTmpSize(ge::Shape({1000}), ts, true, mx2, mn2);   // isReuseSource is reserved
    CHECK(mn2 == mn && mx2 == nodes * 4000);
    auto a = fx.at<T>(kA, 1024), b = fx.at<T>(kB, 1024), d = fx.at<T>(kD, 1024);
    for (uint32_t i = 0; i < 1024; ++i) a.SetValue(i, T(float(i % 17) + 0.5f)), b.SetValue(i, T(3.0f));
    CHECK(throws([&] { Fmod(d, a, b, fx.at<uint8_t>(kT, mn), 1024); }).empty());
    CHECK(has(throws([&] { Fmod(d, a, b, fx.at<uint8_t>(kT, mn - 32), 1024); }), "too small"));
    CHECK(throws([&] { Fmod(d, a, b, fx.at<uint8_t>(kT, mx)); }).empty());
    GetFmodTmpBufferFactorSize(ts, live, extra);
    CHECK(live == nodes * 4 / ts && extra == nodes * 256);
    const uint32_t curr = 2048 + extra;   // a buffer of 2 KB plus the extra part
    const uint32_t count = (curr - extra) / live / ts;
    CHECK(count == (ts == 2 ? 170u : 512u));
    CHECK(throws([&] { Fmod(d, a, b, fx.at<uint8_t>(kT, curr), count); }).empty());
    CHECK(near(d, {0.5, 1.5, 2.5, 0.5}));
}

static void fmod_misc() {
    uint32_t mx = 7, mn = 7;
    GetFmodMaxMinTmpSize(ge::Shape({64}), 1, false, mx, mn);   // no 1-byte Fmod
    CHECK(mx == 0 && mn == 0);
    GetFmodMaxMinTmpSize(ge::Shape(), 4, false, mx, mn);
    CHECK(mx == 0 && mn == 0);
    std::vector<int64_t> shape_vec = {1024};   // the docs' call: shape {1024}, half
    TensorShape shape(shape_vec);
    GetFmodMaxMinTmpSize(shape, 2, false, mx, mn);
    CHECK(mn == 768 && mx == 12288);
    CHECK(FMOD_ITERATION_NUM_MAX == 11 && DEFAULT_FMOD_CONFIG.algo == FmodAlgo::NORMAL &&
          DEFAULT_FMOD_CONFIG.iterationNum == 11 && FmodConfig{}.iterationNum == 11 &&
          int(FmodAlgo::ITERATION_COMPENSATION) == 1);
    {   // the forms without a buffer take the UB after the last InitBuffer
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, ascsim::kUbBytes - 512);
        auto h = buf.Get<half>(192);
        auto a = h[0], b = h[64], d = h[128];
        for (uint32_t i = 0; i < 64; ++i) a.SetValue(i, half(5.0f)), b.SetValue(i, half(2.0f));
        auto f = buf.Get<float>(192);
        auto fa = f[0], fb = f[64], fd = f[128];
        CHECK(throws([&] { Fmod(fd, fa, fb, 64); }).empty());                     // float: 256 B
        CHECK(has(throws([&] { Fmod(d, a, b, 64); }), "no UB left"));             // half: 768 B
    }
}

// ----------------------------------------------------------------------------------------------- TransData ----

// UB layout: source at 0, destination at 48 KB, a round-trip copy at 96 KB, the temporary buffer at 144 KB.
constexpr uint32_t kS = 0, kDst = 48 * 1024, kBack = 96 * 1024, kTmp = 144 * 1024;

static std::mt19937 rng(2024);
template <class T> static uint16_t bits(const T& v) { uint16_t b; std::memcpy(&b, &v, 2); return b; }
template <class T> static void fill_random(LocalTensor<T>& t, uint32_t n) {
    for (uint32_t i = 0; i < n; ++i) { const uint16_t b = uint16_t(rng()); std::memcpy(&t.addr_[i], &b, 2); }
}
static uint32_t up16(uint32_t v) { return (v + 15) / 16 * 16; }

static constexpr TransDataConfig kToNdc = {DataFormat::NCDHW, DataFormat::NDC1HWC0};
static constexpr TransDataConfig kFromNdc = {DataFormat::NDC1HWC0, DataFormat::NCDHW};
static constexpr TransDataConfig kToFz = {DataFormat::NCDHW, DataFormat::FRACTAL_Z_3D};
static constexpr TransDataConfig kFromFz = {DataFormat::FRACTAL_Z_3D, DataFormat::NCDHW};

// Elements of each format in UB, written from the docs' shapes: NCDHW rows of H * W padded to 16 (32 bytes).
struct Geo {
    uint32_t N, C, D, H, W;
    uint32_t C1() const { return (C + 15) / 16; }
    uint32_t N1() const { return (N + 15) / 16; }
    uint32_t HWp() const { return up16(H * W); }
    uint32_t ncdhw() const { return N * C * D * HWp(); }
    uint32_t ndc() const { return N * D * C1() * H * W * 16; }
    uint32_t fz() const { return D * C1() * H * W * N1() * 256; }
};

// NCDHW -> NDC1HWC0 / FRACTAL_Z_3D and back on one shape; the references walk the destination in its own order.
template <class T> static void trans_case(Fixture& fx, Geo g, bool fz) {
    const uint32_t nc = g.ncdhw(), nf = fz ? g.fz() : g.ndc(), HW = g.H * g.W;
    auto src = fx.at<T>(kS, nc), dst = fx.at<T>(kDst, nf), back = fx.at<T>(kBack, nc);
    auto tmp = fx.at<uint8_t>(kTmp, 48 * 1024);
    fill_random(src, nc);   // the HW pad elements too: they must not reach the result
    std::vector<uint16_t> s(nc);
    for (uint32_t i = 0; i < nc; ++i) s[i] = bits(src.addr_[i]);
    auto at_src = [&](uint32_t n, uint32_t c, uint32_t d, uint32_t h, uint32_t w) -> int64_t {
        if (n >= g.N || c >= g.C) return -1;   // a padding slot of the fractal format
        return int64_t(s[((n * g.C + c) * g.D + d) * g.HWp() + h * g.W + w]);
    };
    auto ncdhw_layout = MakeLayout(MakeShape(g.N, g.C, g.D, g.H, g.W), MakeStride());
    bool ok = true;
    uint32_t idx = 0;
    if (!fz) {
        auto ndcLayout = MakeLayout(MakeShape(g.N, g.D, g.C1(), g.H, g.W, 16u), MakeStride());
        TransDataParams<decltype(ncdhw_layout), decltype(ndcLayout)> params = {ncdhw_layout, ndcLayout};
        TransData<kToNdc>(dst, src, tmp, params);
        for (uint32_t n = 0; n < g.N; ++n)
            for (uint32_t d = 0; d < g.D; ++d)
                for (uint32_t c1 = 0; c1 < g.C1(); ++c1)
                    for (uint32_t h = 0; h < g.H; ++h)
                        for (uint32_t w = 0; w < g.W; ++w)
                            for (uint32_t c0 = 0; c0 < 16; ++c0, ++idx) {
                                const int64_t want = at_src(n, c1 * 16 + c0, d, h, w);
                                ok &= bits(dst.addr_[idx]) == (want < 0 ? 0 : want);
                            }
        CHECK_MSG(ok && idx == nf, "NCDHW -> NDC1HWC0 [%u %u %u %u %u]", g.N, g.C, g.D, g.H, g.W);
        TransDataParams<decltype(ndcLayout), decltype(ncdhw_layout)> rev = {ndcLayout, ncdhw_layout};
        TransData<kFromNdc>(back, dst, rev);   // the framework-scratch form
    } else {
        auto fzLayout = MakeLayout(MakeShape(g.D, g.C1(), g.H, g.W, g.N1(), 16u, 16u), MakeStride());
        TransDataParams<decltype(ncdhw_layout), decltype(fzLayout)> params = {ncdhw_layout, fzLayout};
        TransData<kToFz>(dst, src, params);
        for (uint32_t d = 0; d < g.D; ++d)
            for (uint32_t c1 = 0; c1 < g.C1(); ++c1)
                for (uint32_t h = 0; h < g.H; ++h)
                    for (uint32_t w = 0; w < g.W; ++w)
                        for (uint32_t n1 = 0; n1 < g.N1(); ++n1)
                            for (uint32_t n0 = 0; n0 < 16; ++n0)
                                for (uint32_t c0 = 0; c0 < 16; ++c0, ++idx) {
                                    const int64_t want = at_src(n1 * 16 + n0, c1 * 16 + c0, d, h, w);
                                    ok &= bits(dst.addr_[idx]) == (want < 0 ? 0 : want);
                                }
        CHECK_MSG(ok && idx == nf, "NCDHW -> FRACTAL_Z_3D [%u %u %u %u %u]", g.N, g.C, g.D, g.H, g.W);
        TransDataParams<decltype(fzLayout), decltype(ncdhw_layout)> rev = {fzLayout, ncdhw_layout};
        TransData<kFromFz>(back, dst, tmp, rev);
    }
    // the reverse: every real element back in place, the HW pad written with invalid data (0xFFFF here)
    bool same = true, pad = true;
    for (uint32_t row = 0; row < g.N * g.C * g.D; ++row)
        for (uint32_t k = 0; k < g.HWp(); ++k) {
            const uint16_t got = bits(back.addr_[row * g.HWp() + k]);
            if (k < HW) same &= got == s[row * g.HWp() + k];
            else pad &= got == 0xFFFF;
        }
    CHECK_MSG(same && pad, "%s -> NCDHW [%u %u %u %u %u]", fz ? "FRACTAL_Z_3D" : "NDC1HWC0", g.N, g.C, g.D, g.H, g.W);
}

// The reverse conversions from a random fractal tensor: the padding slots of the source are ignored.
template <class T> static void reverse_case(Fixture& fx, Geo g, bool fz) {
    const uint32_t nc = g.ncdhw(), nf = fz ? g.fz() : g.ndc();
    auto src = fx.at<T>(kS, nf), dst = fx.at<T>(kDst, nc + 16);
    auto tmp = fx.at<uint8_t>(kTmp, 48 * 1024);
    fill_random(src, nf);
    for (uint32_t i = 0; i < nc + 16; ++i) std::memset(&dst.addr_[i], 0x5A, 2);
    auto plain = MakeLayout(MakeShape(g.N, g.C, g.D, g.H, g.W), MakeStride());
    if (fz) {
        auto packed = MakeLayout(MakeShape(g.D, g.C1(), g.H, g.W, g.N1(), 16u, 16u), MakeStride());
        TransData<kFromFz>(dst, src, tmp, TransDataParams<decltype(packed), decltype(plain)>{packed, plain});
    } else {
        auto packed = MakeLayout(MakeShape(g.N, g.D, g.C1(), g.H, g.W, 16u), MakeStride());
        TransData<kFromNdc>(dst, src, tmp, TransDataParams<decltype(packed), decltype(plain)>{packed, plain});
    }
    bool ok = true;
    for (uint32_t n = 0; n < g.N; ++n)
        for (uint32_t c = 0; c < g.C; ++c)
            for (uint32_t d = 0; d < g.D; ++d)
                for (uint32_t h = 0; h < g.H; ++h)
                    for (uint32_t w = 0; w < g.W; ++w) {
                        const uint32_t hw = h * g.W + w, c1 = c / 16, c0 = c % 16, n1 = n / 16, n0 = n % 16;
                        const uint32_t from = fz ? ((((d * g.C1() + c1) * g.H * g.W + hw) * g.N1() + n1) * 16 + n0) * 16 + c0
                                                 : (((n * g.D + d) * g.C1() + c1) * g.H * g.W + hw) * 16 + c0;
                        ok &= bits(dst.addr_[((n * g.C + c) * g.D + d) * g.HWp() + hw]) == bits(src.addr_[from]);
                    }
    CHECK_MSG(ok, "%s -> NCDHW from random [%u %u %u %u %u]", fz ? "FRACTAL_Z_3D" : "NDC1HWC0", g.N, g.C, g.D, g.H, g.W);
    bool untouched = true;   // nothing past the padded footprint is written
    for (uint32_t i = nc; i < nc + 16; ++i) untouched &= bits(dst.addr_[i]) == 0x5A5A;
    CHECK(untouched);
}

static void trans_docs_example(Fixture& fx) {
    // The docs' printed example: 512 values 0..511 as [N, C, D, H, W] = [1, 32, 1, 2, 8] (the printed arrays have
    // one D plane although the params beside them say D = 2), output [1, 1, 2, 2, 8, 16].
    auto src = fx.at<half>(kS, 512), dst = fx.at<half>(kDst, 512);
    auto tmp = fx.at<uint8_t>(kTmp, 4096);
    for (int i = 0; i < 512; ++i) src.SetValue(i, half(float(i)));
    auto ncdhwLayout = MakeLayout(MakeShape(1, 32, 1, 2, 8), MakeStride());
    auto ndc1hwc0Layout = MakeLayout(MakeShape(1, 1, 2, 2, 8, 16), MakeStride());
    static constexpr TransDataConfig config = {DataFormat::NCDHW, DataFormat::NDC1HWC0};
    TransDataParams<decltype(ncdhwLayout), decltype(ndc1hwc0Layout)> params = {ncdhwLayout, ndc1hwc0Layout};
    TransData<config>(dst, src, tmp, params);
    auto row = [&](int r, std::initializer_list<int> want) {
        int k = 0;
        for (int v : want) if (float(dst.GetValue(uint32_t(r * 16 + k++))) != float(v)) return false;
        return true;
    };
    CHECK(row(0, {0, 16, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240}));
    CHECK(row(3, {3, 19, 35, 51, 67, 83, 99, 115, 131, 147, 163, 179, 195, 211, 227, 243}));
    CHECK(row(15, {15, 31, 47, 63, 79, 95, 111, 127, 143, 159, 175, 191, 207, 223, 239, 255}));
    CHECK(row(16, {256, 272, 288, 304, 320, 336, 352, 368, 384, 400, 416, 432, 448, 464, 480, 496}));
    CHECK(row(31, {271, 287, 303, 319, 335, 351, 367, 383, 399, 415, 431, 447, 463, 479, 495, 511}));
    // the params the docs print: [1, 32, 2, 2, 8] -> [1, 2, 2, 2, 8, 16] (1024 values)
    auto s2 = fx.at<half>(kS, 1024), d2 = fx.at<half>(kDst, 1024);
    for (int i = 0; i < 1024; ++i) s2.SetValue(i, half(float(i)));
    auto l1 = MakeLayout(MakeShape(1, 32, 2, 2, 8), MakeStride());
    auto l2 = MakeLayout(MakeShape(1, 2, 2, 2, 8, 16), MakeStride());
    TransData<config>(d2, s2, tmp, TransDataParams<decltype(l1), decltype(l2)>{l1, l2});
    bool ok = true;   // dst[0][d][c1][hw][c0] = src[0][c1 * 16 + c0][d][hw] = (c1 * 16 + c0) * 32 + d * 16 + hw
    for (int d = 0; d < 2; ++d)
        for (int c1 = 0; c1 < 2; ++c1)
            for (int hw = 0; hw < 16; ++hw)
                for (int c0 = 0; c0 < 16; ++c0)
                    ok &= float(d2.GetValue(uint32_t(((d * 2 + c1) * 16 + hw) * 16 + c0))) ==
                          float((c1 * 16 + c0) * 32 + d * 16 + hw);
    CHECK(ok);
}

static void trans_rules(Fixture& fx) {
    Geo g{2, 20, 2, 3, 5};   // H * W = 15: each NCDHW row padded to 16
    auto src = fx.at<half>(kS, g.ncdhw()), dst = fx.at<half>(kDst, g.ndc());
    auto tmp = fx.at<uint8_t>(kTmp, 48 * 1024);
    fill_random(src, g.ncdhw());
    auto plain = MakeLayout(MakeShape(2, 20, 2, 3, 5), MakeStride());
    auto good = MakeLayout(MakeShape(2, 2, 2, 3, 5, 16), MakeStride());
    using P = TransDataParams<decltype(plain), decltype(good)>;
    CHECK(throws([&] { TransData<kToNdc>(dst, src, tmp, P{plain, good}); }).empty());
    auto c1wrong = MakeLayout(MakeShape(2, 2, 1, 3, 5, 16), MakeStride());   // C1 must be ceil(20 / 16) = 2
    CHECK(has(throws([&] { TransData<kToNdc>(dst, src, tmp, P{plain, c1wrong}); }), "does not match"));
    auto c0wrong = MakeLayout(MakeShape(2, 2, 2, 3, 5, 8), MakeStride());
    CHECK(has(throws([&] { TransData<kToNdc>(dst, src, tmp, P{plain, c0wrong}); }), "C0 = 16"));
    auto dwrong = MakeLayout(MakeShape(2, 1, 2, 3, 5, 16), MakeStride());
    CHECK(has(throws([&] { TransData<kToNdc>(dst, src, tmp, P{plain, dwrong}); }), "expected [2, 2, 2, 3, 5, 16]"));
    auto rank5 = MakeLayout(MakeShape(2, 2, 2, 15, 16), MakeStride());
    CHECK(has(throws([&] {
              TransData<kToNdc>(dst, src, tmp, TransDataParams<decltype(plain), decltype(rank5)>{plain, rank5});
          }), "dimensions"));
    auto zero = MakeLayout(MakeShape(0, 20, 2, 3, 5), MakeStride());
    CHECK(has(throws([&] { TransData<kToNdc>(dst, src, tmp, P{zero, good}); }), "positive"));
    // the NCDHW source must be padded per row: 2 * 20 * 2 * 15 elements are not enough, 2 * 20 * 2 * 16 are
    CHECK(has(throws([&] { TransData<kToNdc>(dst, fx.at<half>(kS, 2 * 20 * 2 * 15), tmp, P{plain, good}); }),
              "padded"));
    CHECK(has(throws([&] { TransData<kToNdc>(fx.at<half>(kDst, g.ndc() - 1), src, tmp, P{plain, good}); }),
              "dstTensor holds"));
    CHECK(has(throws([&] { TransData<kToNdc>(fx.at<half>(kS + 64, g.ndc()), src, tmp, P{plain, good}); }),
              "overlap"));
    // the temporary buffer: C1 * 16 * HWpad * 2 = 2 * 16 * 16 * 2 = 1024 B here
    CHECK(has(throws([&] { TransData<kToNdc>(dst, src, fx.at<uint8_t>(kTmp, 992), P{plain, good}); }),
              "GetTransDataMaxMinTmpSize"));
    CHECK(throws([&] { TransData<kToNdc>(dst, src, fx.at<uint8_t>(kTmp, 1024), P{plain, good}); }).empty());
    CHECK(has(throws([&] { TransData<kToNdc>(dst, src, fx.at<uint8_t>(kDst + 32, 4096), P{plain, good}); }),
              "sharedTmpBuffer overlaps"));
    CHECK(has(throws([&] { TransData<kToNdc>(fx.at<half>(kDst + 2, g.ndc()), src, tmp, P{plain, good}); }), "align"));
    // FRACTAL_Z_3D: N1 = ceil(N / 16), N0 = 16
    auto fzWrong = MakeLayout(MakeShape(2, 2, 3, 5, 2, 16, 16), MakeStride());   // N = 2 needs N1 = 1
    CHECK(has(throws([&] {
              TransData<kToFz>(fx.at<half>(kDst, 8192), src, tmp,
                               TransDataParams<decltype(plain), decltype(fzWrong)>{plain, fzWrong});
          }), "N1 = ceil(N / 16)"));
}

static void trans_host(Fixture& fx) {
    platform_ascendc::PlatformAscendC plat;
    uint32_t maxSize = 1, minSize = 1;
    // the docs' call: (1, 16, 2, 4, 4) NCDHW -> (1, 2, 1, 4, 4, 16) NDC1HWC0, half
    int32_t n = 1, c = 16, d = 2, h = 4, w = 4, c1 = 1, c0 = 16;
    auto ncdhwShape = TensorShape({n, c, d, h, w});
    auto ndc1hwc0Shape = TensorShape({n, d, c1, h, w, c0});
    TransDataConfig config = {DataFormat::NCDHW, DataFormat::NDC1HWC0};
    bool ret = GetTransDataMaxMinTmpSize(plat, ncdhwShape, ndc1hwc0Shape, TensorDataType::DT_FLOAT16, config, maxSize,
                                         minSize);
    CHECK(ret && maxSize == minSize && minSize == 16 * 16 * 2);
    {   // the kernel takes exactly that much
        auto src = fx.at<half>(kS, 1 * 16 * 2 * 16), dst = fx.at<half>(kDst, 2 * 16 * 16);
        fill_random(src, 512);
        auto a = MakeLayout(MakeShape(n, c, d, h, w), MakeStride());
        auto b = MakeLayout(MakeShape(n, d, c1, h, w, c0), MakeStride());
        static constexpr TransDataConfig cfg = {DataFormat::NCDHW, DataFormat::NDC1HWC0};
        TransDataParams<decltype(a), decltype(b)> params = {a, b};
        CHECK(throws([&] { TransData<cfg>(dst, src, fx.at<uint8_t>(kTmp, minSize), params); }).empty());
        CHECK(has(throws([&] { TransData<cfg>(dst, src, fx.at<uint8_t>(kTmp, minSize - 32), params); }), "too small"));
    }
    {   // FRACTAL_Z_3D, odd sizes: C1 = 2, HWpad = 16 -> 2 * 16 * 16 * 2 B; the kernel agrees
        const TensorShape plain({18, 17, 2, 2, 3}), packed({2, 2, 2, 3, 2, 16, 16});
        CHECK(GetTransDataMaxMinTmpSize(plat, plain, packed, TensorDataType::DT_BF16, {DataFormat::NCDHW,
                                        DataFormat::FRACTAL_Z_3D}, maxSize, minSize) && minSize == 1024 && maxSize == 1024);
        CHECK(GetTransDataMaxMinTmpSize(plat, packed, plain, TensorDataType::DT_INT16, {DataFormat::FRACTAL_Z_3D,
                                        DataFormat::NCDHW}, maxSize, minSize) && minSize == 1024);
        Geo g{18, 17, 2, 2, 3};
        auto src = fx.at<bfloat16_t>(kS, g.fz()), dst = fx.at<bfloat16_t>(kDst, g.ncdhw());
        fill_random(src, g.fz());
        auto lp = MakeLayout(MakeShape(18, 17, 2, 2, 3), MakeStride());
        auto lf = MakeLayout(MakeShape(2, 2, 2, 3, 2, 16, 16), MakeStride());
        TransDataParams<decltype(lf), decltype(lp)> params = {lf, lp};
        CHECK(throws([&] { TransData<kFromFz>(dst, src, fx.at<uint8_t>(kTmp, minSize), params); }).empty());
        CHECK(has(throws([&] { TransData<kFromFz>(dst, src, fx.at<uint8_t>(kTmp, minSize - 32), params); }),
                  "GetTransDataMaxMinTmpSize"));
        CHECK(GetTransDataMaxMinTmpSize(plat, plain, packed, TensorDataType::DT_UINT16, {DataFormat::NCDHW,
                                        DataFormat::FRACTAL_Z_3D}, maxSize, minSize));
    }
    // what it cannot size: float, a conversion outside the four, shapes that disagree
    maxSize = minSize = 5;
    CHECK(!GetTransDataMaxMinTmpSize(plat, ncdhwShape, ndc1hwc0Shape, TensorDataType::DT_FLOAT, config, maxSize,
                                     minSize) && maxSize == 0 && minSize == 0);
    CHECK(!GetTransDataMaxMinTmpSize(plat, ncdhwShape, ndc1hwc0Shape, TensorDataType::DT_FLOAT16,
                                     {DataFormat::NCHW, DataFormat::NC1HWC0}, maxSize, minSize));
    CHECK(!GetTransDataMaxMinTmpSize(plat, ncdhwShape, TensorShape({1, 2, 2, 4, 4, 16}), TensorDataType::DT_FLOAT16,
                                     config, maxSize, minSize));
    CHECK(!GetTransDataMaxMinTmpSize(plat, ncdhwShape, ndc1hwc0Shape, TensorDataType::DT_FLOAT16,
                                     {DataFormat::NDC1HWC0, DataFormat::NCDHW}, maxSize, minSize));   // swapped
    CHECK(GetTransDataMaxMinTmpSize(plat, ndc1hwc0Shape, ncdhwShape, TensorDataType::DT_FLOAT16,
                                    {DataFormat::NDC1HWC0, DataFormat::NCDHW}, maxSize, minSize) && minSize == 512);
    CHECK(GetTransDataMaxMinTmpSize(plat, TensorShape({1, 16, 2, 3, 5}), TensorShape({1, 2, 1, 3, 5, 16}),
                                    TensorDataType::DT_FLOAT16, config, maxSize, minSize) && minSize == 512);
    {   // the form without a buffer takes the UB after the last InitBuffer
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, ascsim::kUbBytes - 768);
        auto all = buf.Get<half>(4096);
        auto src = all[0], dst = all[2048];
        auto a = MakeLayout(MakeShape(1, 16, 2, 4, 4), MakeStride());
        auto b = MakeLayout(MakeShape(1, 2, 1, 4, 4, 16), MakeStride());
        CHECK(throws([&] { TransData<kToNdc>(dst, src, TransDataParams<decltype(a), decltype(b)>{a, b}); }).empty());
        auto a2 = MakeLayout(MakeShape(1, 48, 1, 4, 4), MakeStride());   // C1 = 3: 1536 B of scratch
        auto b2 = MakeLayout(MakeShape(1, 1, 3, 4, 4, 16), MakeStride());
        CHECK(has(throws([&] { TransData<kToNdc>(dst, src, TransDataParams<decltype(a2), decltype(b2)>{a2, b2}); }),
                  "no UB left"));
    }
}

static void layout_helpers() {
    // the Layout pages' examples
    Shape<int, int, int> shape = MakeShape(10, 20, 30);
    Stride<int, int, int> stride = MakeStride(1, 100, 200);
    auto layoutMake = MakeLayout(shape, stride);
    Layout<Shape<int, int, int>, Stride<int, int, int>> layoutInit(shape, stride);
    CHECK(Std::get<0>(layoutMake.GetShape()) == 10 && Std::get<1>(layoutMake.GetShape()) == 20 &&
          Std::get<2>(layoutMake.GetShape()) == 30);
    CHECK(Std::get<0>(layoutInit.GetStride()) == 1 && Std::get<1>(layoutInit.GetStride()) == 100 &&
          Std::get<2>(layoutInit.GetStride()) == 200);
    CHECK(!is_layout<decltype(shape)>::value && !is_layout<decltype(stride)>::value &&
          is_layout<decltype(layoutMake)>::value && is_layout<decltype(layoutInit)>::value);
    const auto& same = layoutInit.layout();
    CHECK(&same == &layoutInit);
    // coordinate to index (Crd2Idx's example: shape (3, 4, 5), stride (20, 5, 1), coordinate (1, 2, 3) -> 33)
    auto l = MakeLayout(MakeShape(3, 4, 5), MakeStride(20, 5, 1));
    CHECK(l(Std::make_tuple(1, 2, 3)) == 33 && l(Std::make_tuple(2, 3, 4)) == 59);
}

int main() {
    Fixture fx;
    fmod_values<float>(fx);
    fmod_values<half>(fx);
    fmod_shapes<float>(fx);
    fmod_shapes<half>(fx);
    fmod_host<float>(fx);
    fmod_host<half>(fx);
    fmod_misc();

    layout_helpers();
    trans_docs_example(fx);
    // the README's sample shapes, then odd ones: C, N not multiples of 16, H * W = 15 / 6 / 1 (padded to 16)
    const Geo shapes[] = {{16, 16, 1, 3, 5}, {2, 20, 2, 3, 5}, {18, 17, 2, 2, 3}, {1, 1, 1, 1, 1}, {3, 33, 1, 4, 4}};
    for (const Geo& g : shapes) {
        trans_case<half>(fx, g, false);
        trans_case<half>(fx, g, true);
        reverse_case<half>(fx, g, false);
        reverse_case<half>(fx, g, true);
    }
    trans_case<int16_t>(fx, {2, 20, 2, 3, 5}, false);
    trans_case<uint16_t>(fx, {18, 17, 2, 2, 3}, true);
    trans_case<bfloat16_t>(fx, {3, 33, 1, 4, 4}, false);
    trans_case<bfloat16_t>(fx, {17, 5, 3, 1, 7}, true);
    reverse_case<int16_t>(fx, {17, 5, 3, 1, 7}, true);
    reverse_case<uint16_t>(fx, {2, 20, 2, 3, 5}, false);
    trans_rules(fx);
    trans_host(fx);

    std::printf("PASS %d FAIL %d\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
