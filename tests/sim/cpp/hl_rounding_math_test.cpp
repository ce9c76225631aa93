// The high-level math APIs of kernel/hl_rounding_math.h against references written from their documentation:
// Floor / Ceil / Round / Trunc (worked examples, ties and negative values, every representable quarter in a range),
// Acosh / Asinh / Atanh / Lgamma / Digamma (worked examples, double-precision references), ClampMax / ClampMin,
// Xor (int16_t / uint16_t), the high-level Exp (Taylor level) and Axpy (Muls then Add) overloads, each documented
// overload shape, isReuseSource, the strict checks (small or overlapping sharedTmpBuffer, src / dst overlap where the
// docs forbid it, Xor's size rules), and the host tmp-size functions of host/math_tiling.h against the kernel checks.
#include <cfenv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>
#include "kernel_operator.h"
#include "tiling/tiling_api.h"
#include "ascsim/kernel/hl_rounding_math.h"
#include "ascsim/host/math_tiling.h"

using namespace AscendC;

#include "check.h"

#include "ub_fixture.h"

// UB layout of the tests: sources at 0 and 64 KB, destination at 32 KB, the temporary buffer at 128 KB.
constexpr uint32_t kSrc = 0, kDst = 32 * 1024, kSrc1 = 64 * 1024, kTmp = 128 * 1024;
constexpr double kInf = std::numeric_limits<double>::infinity(), kNaN = std::numeric_limits<double>::quiet_NaN();

template <class T> static void put(LocalTensor<T>& t, const std::vector<double>& v) {
    for (size_t i = 0; i < v.size(); ++i) t.SetValue(uint32_t(i), T(float(v[i])));
}
// Every element equals `want` rounded to T (NaN matches NaN) when tol == 0, else lies within tol * max(1, |want|).
template <class T> static bool near(const LocalTensor<T>& t, const std::vector<double>& want, double tol = 0) {
    for (size_t i = 0; i < want.size(); ++i) {
        const double got = float(t.GetValue(uint32_t(i))), w = want[i];
        const bool ok = std::isnan(w)   ? std::isnan(got)
                        : tol == 0      ? got == double(float(T(float(w))))
                        : std::isinf(w) ? got == w
                                        : std::fabs(got - w) <= tol * std::max(1.0, std::fabs(w));
        if (!ok) {
            std::printf("  [%zu] = %.9g, want %.9g\n", i, got, w);
            return false;
        }
    }
    return true;
}
template <class T> static std::vector<double> map(const std::vector<double>& x, double (*f)(double)) {
    std::vector<double> r;
    for (double v : x) r.push_back(f(double(float(T(float(v))))));   // the function of the value T holds
    return r;
}

// References from the documented definitions, computed without the simulator's helpers.
static double ref_round(double x) { return std::nearbyint(x); }   // default mode: nearest, ties to even
static double ref_lgamma(double x) {   // ln|Gamma(x)|, +inf at the poles (0, -1, -2, ...)
    return x <= 0 && x == std::floor(x) ? kInf : std::log(std::fabs(std::tgamma(x)));
}
// psi = d/dx ln|Gamma| by a five-point difference, the step kept well inside the distance to the nearest pole.
static double ref_digamma(double x) {
    const double pole = x > 0 ? x : std::fabs(x - std::round(x));
    const double h = 1e-3 * std::min(1.0, pole);
    auto f = [](double v) { return std::lgamma(v); };
    return (f(x - 2 * h) - 8 * f(x - h) + 8 * f(x + h) - f(x + 2 * h)) / (12 * h);
}

// Which overload shapes exist: Floor has no whole-tensor forms, Trunc has them.
template <class T, class = void> struct FloorWhole : std::false_type {};
template <class T>
struct FloorWhole<T, std::void_t<decltype(Floor<T>(std::declval<LocalTensor<T>&>(), std::declval<LocalTensor<T>&>()))>>
    : std::true_type {};
template <class T, class = void> struct TruncWhole : std::false_type {};
template <class T>
struct TruncWhole<T, std::void_t<decltype(Trunc<T>(std::declval<LocalTensor<T>&>(), std::declval<LocalTensor<T>&>()))>>
    : std::true_type {};

// Rounding APIs on float and half: worked examples, ties, and every quarter in [-lim, lim] (all exact in T).
template <class T> static void rounding(Fixture& fx) {
    auto src = fx.at<T>(kSrc, 4096), dst = fx.at<T>(kDst, 4096), src1 = fx.at<T>(kSrc1, 4096);
    auto tmp = fx.at<uint8_t>(kTmp, 64 * 1024);
    put(src, {-1.5, -0.5, 0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 3.9, -3.9});
    Floor(dst, src, tmp, 10);   // Floor's example, then Floor(3.9) = 3, Floor(-3.9) = -4
    CHECK(near(dst, {-2, -1, 0, 1, 2, 3, 4, 5, 3, -4}));
    Ceil<T, false>(dst, src, 10);
    CHECK(near(dst, {-1, -0.0, 1, 2, 3, 4, 5, 6, 4, -3}));
    Round(dst, src, tmp, 10);   // ties go to the even neighbour, negative ones too
    CHECK(near(dst, {-2, -0.0, 0, 2, 2, 4, 4, 6, 4, -4}));
    Trunc(dst, src, tmp, 10);
    CHECK(near(dst, {-1, -0.0, 0, 1, 2, 3, 4, 5, 3, -3}));
    put(src, {-1.1, 0, 0.9, 1.9, 2.9, 3.9, 4.9, 5.9});   // Ceil's example
    Ceil(dst, src, tmp, 8);
    CHECK(near(dst, {-1, 0, 1, 2, 3, 4, 5, 6}));
    put(src, {3.5, -3.4, 6.6, -4.3, -8.6, 8.8, -8.3, -2.5, -3.5, 0.49});   // Round's examples and more ties
    Round<T>(dst, src, 10);
    CHECK(near(dst, {4, -3, 7, -4, -9, 9, -8, -2, -4, 0}));
    put(src, {9.33, -8.07, -6.38, 8.45, 5.83, 6.46, 4.18, 1.93});   // Trunc's example, all four shapes
    auto whole = fx.at<T>(kSrc, 8);
    Trunc<T, false>(dst, whole);
    CHECK(near(dst, {9, -8, -6, 8, 5, 6, 4, 1}));
    Trunc(src1, whole, tmp);
    CHECK(near(src1, {9, -8, -6, 8, 5, 6, 4, 1}));
    Trunc(dst, src, 3);
    CHECK(near(dst, {9, -8, -6}));
    {   // ties far from zero: float 4194304.5 (2^22 + 0.5), half 512.5 / 513.5 / -1000.5 does not exist in half
        const bool f32 = std::is_same_v<T, float>;
        std::vector<double> x = f32 ? std::vector<double>{4194304.5, 4194305.5, -4194304.5, 8388607.5}
                                    : std::vector<double>{512.5, 513.5, -512.5, -513.5};
        put(src, x);
        Round(dst, src, tmp, 4);
        CHECK(near(dst, map<T>(x, ref_round)));
        Floor(dst, src, tmp, 4);
        CHECK(near(dst, map<T>(x, [](double v) { return std::floor(v); })));
    }
    // every quarter in [-lim, lim]: .25, .5 and .75 fractions on both signs, against the C library in double
    const int lim = std::is_same_v<T, float> ? 1000 : 500;
    std::vector<double> x;
    for (int k = -4 * lim; k <= 4 * lim; ++k) x.push_back(k / 4.0);
    const uint32_t n = uint32_t(x.size());
    auto big = fx.at<T>(kSrc, n), out = fx.at<T>(kDst, n);
    put(big, x);
    Floor(out, big, tmp, n);
    CHECK(near(out, map<T>(x, [](double v) { return std::floor(v); })));
    Ceil(out, big, n);
    CHECK(near(out, map<T>(x, [](double v) { return std::ceil(v); })));
    Round(out, big, tmp, n);
    CHECK(near(out, map<T>(x, ref_round)));
    Trunc(out, big, n);
    CHECK(near(out, map<T>(x, [](double v) { return std::trunc(v); })));
    Trunc(big, big, tmp, n);   // Trunc's docs allow src and dst to overlap: in place
    CHECK(near(big, map<T>(x, [](double v) { return std::trunc(v); })));
    put(big, x);
    Round(big, big, n);   // Round's docs do not forbid it either
    CHECK(near(big, map<T>(x, ref_round)));
    CHECK(has(throws([&] { Floor(big, big, tmp, n); }), "overlap"));   // Floor's and Ceil's docs forbid it
    CHECK(has(throws([&] { Ceil(fx.at<T>(kSrc + 32, n), big, n); }), "overlap"));
}

// The transcendental APIs: worked examples (float, printed to 6 decimals) and random sweeps against double.
template <class T> static void transcendental(Fixture& fx) {
    const bool f32 = std::is_same_v<T, float>;
    const double tol = f32 ? 2e-7 : 1e-3;   // one float ulp and a bit / half precision
    auto src = fx.at<T>(kSrc, 4096), dst = fx.at<T>(kDst, 4096);
    auto tmp = fx.at<uint8_t>(kTmp, 64 * 1024);
    if constexpr (std::is_same_v<T, float>) {
        put(src, {-1, 0, 1, 2, 3, 4});
        Acosh(dst, src, tmp, 6);
        CHECK(near(dst, {kNaN, kNaN, 0, 1.316958, 1.762747, 2.063437}, 1e-6));
        put(src, {0, 0.1, 0.2, 51, 51.100002});
        Asinh(dst, src, tmp, 5);
        CHECK(near(dst, {0, 0.099834, 0.198690, 4.625069, 4.627028}, 1e-6));
        put(src, {0, 0.01, 0.02, 0.99, 1.0, 1.01});
        Atanh(dst, src, tmp, 6);
        CHECK(near(dst, {0, 0.01, 0.020003, 2.646650, kInf, kNaN}, 2e-6));
        put(src, {0, 0.01, 0.02, 0.03, 0.04});
        Lgamma(dst, src, tmp, 5);
        CHECK(near(dst, {kInf, 4.599480, 3.900805, 3.489971, 3.197078}, 1e-6));
        put(src, {5.3675685, 0.26528683, -2.872628, 2.9387941, 9.001339});
        Digamma<float, false>(dst, src, tmp, 5);
        CHECK(near(dst, {1.5843406, -3.978809, -6.2081366, 0.8983184, 2.1407988}, 1e-6));
        put(src, {1, 0.5});   // -Euler's gamma, -gamma - 2 ln 2
        Digamma(dst, src, 2);
        CHECK(near(dst, {-0.57721566490153286, -1.9635100260214235}, tol));
    }
    std::mt19937 gen(11);
    auto sweep = [&](auto api, double lo, double hi, double (*ref)(double), const char* name) {
        std::uniform_real_distribution<double> u(lo, hi);
        std::vector<double> x(1000);
        for (auto& v : x) v = u(gen);
        put(src, x);
        api(dst, src);
        CHECK_MSG(near(dst, map<T>(x, ref), tol), "%s %s", name, f32 ? "float" : "half");
    };
    sweep([&](auto& d, auto& s) { Acosh(d, s, tmp, 1000); }, 1, 60000, [](double v) { return std::acosh(v); }, "Acosh");
    sweep([&](auto& d, auto& s) { Acosh(d, s); }, 1, 3, [](double v) { return std::acosh(v); }, "Acosh");
    sweep([&](auto& d, auto& s) { Asinh(d, s, 1000); }, -60000, 60000, [](double v) { return std::asinh(v); }, "Asinh");
    sweep([&](auto& d, auto& s) { Asinh<T, false>(d, s, tmp); }, -2, 2, [](double v) { return std::asinh(v); },
          "Asinh");
    sweep([&](auto& d, auto& s) { Atanh(d, s, tmp, 1000); }, -0.99, 0.99, [](double v) { return std::atanh(v); },
          "Atanh");
    sweep([&](auto& d, auto& s) { Atanh(d, s, 1000); }, 0.001, 0.99, [](double v) { return std::atanh(v); }, "Atanh");
    // Lgamma away from its zeros at 1 and 2, where a relative tolerance means nothing; both signs
    sweep([&](auto& d, auto& s) { Lgamma(d, s, tmp, 1000); }, 2.5, 30, ref_lgamma, "Lgamma");
    sweep([&](auto& d, auto& s) { Lgamma(d, s, 1000); }, -9.9, 0.9, ref_lgamma, "Lgamma");
    sweep([&](auto& d, auto& s) { Digamma(d, s, tmp, 1000); }, 0.05, 40, ref_digamma, "Digamma");
    sweep([&](auto& d, auto& s) { Digamma(d, s, 1000); }, -9.9, -0.1, ref_digamma, "Digamma");
    for (auto op : {0, 1, 2, 3, 4})   // the forbidden in-place calls
        CHECK(has(throws([&] {
                  if (op == 0) Acosh(src, src, tmp, 64);
                  if (op == 1) Asinh(src, src, 64);
                  if (op == 2) Atanh(fx.at<T>(kSrc + 64, 64), src, tmp, 64);
                  if (op == 3) Lgamma(src, src, tmp, 64);
                  if (op == 4) Digamma(src, src, 64);
              }), "overlap"));
}

template <class T> static void clamp(Fixture& fx) {
    auto src = fx.at<T>(kSrc, 128), dst = fx.at<T>(kDst, 128);
    auto tmp = fx.at<uint8_t>(kTmp, 64 * 1024);
    std::vector<double> x, hi, lo;
    for (int i = 0; i < 128; ++i) x.push_back(i);
    for (double v : x) hi.push_back(std::min(v, 2.0)), lo.push_back(std::max(v, 2.0));
    put(src, x);
    ClampMax<T>(dst, src, tmp, static_cast<T>(2), 128);   // the docs' example: 0 1 2 2 ... 2
    CHECK(near(dst, hi));
    ClampMin<T>(dst, src, tmp, static_cast<T>(2), 128);   // 2 2 2 3 ... 127
    CHECK(near(dst, lo));
    put(src, {-3.5, -0.25, 0.25, 0.5, 0.75, kNaN, -kInf, kInf});
    ClampMax(dst, src, T(0.5f), 8);
    CHECK(near(dst, {-3.5, -0.25, 0.25, 0.5, 0.5, kNaN, -kInf, 0.5}));
    ClampMin(dst, src, T(-0.25f), 8);
    CHECK(near(dst, {-0.25, -0.25, 0.25, 0.5, 0.75, kNaN, -0.25, kInf}));
    CHECK(has(throws([&] { ClampMax(src, src, tmp, T(1.0f), 8); }), "overlap"));
    CHECK(has(throws([&] { ClampMin(src, src, T(1.0f), 8); }), "overlap"));
}

template <class T> static void xor_api(Fixture& fx) {
    auto a = fx.at<T>(kSrc, 8), b = fx.at<T>(kSrc1, 8), dst = fx.at<T>(kDst, 8);
    auto tmp = fx.at<uint8_t>(kTmp, 1024);
    // the docs' example, except that it prints 10 for 13 ^ 6, which is 11 by the rule it states (1101 ^ 0110 = 1011)
    const int x0[8] = {2, 3, 5, 7, 11, 13, 17, 19}, x1[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    const int want[8] = {3, 1, 6, 3, 14, 11, 22, 27};
    for (int i = 0; i < 8; ++i) a.SetValue(i, T(x0[i])), b.SetValue(i, T(x1[i]));
    auto equal = [&](const int* w, int n) {
        for (int i = 0; i < n; ++i)
            if (dst.GetValue(i) != T(w[i])) return false;
        return true;
    };
    Xor(dst, a, b);   // the whole-tensor form, then the other three shapes
    CHECK(equal(want, 8));
    std::memset(dst.addr_, 0, 16);
    Xor(dst, a, b, tmp);
    CHECK(equal(want, 8));
    std::memset(dst.addr_, 0, 16);
    Xor<T, false>(dst, a, b, tmp, 5);
    CHECK(equal(want, 5) && dst.GetValue(5) == T(0));
    Xor(dst, a, b, 8);
    CHECK(equal(want, 8));
    // all bits: sign bit and high byte
    a.SetValue(0, T(0xFFFF)), b.SetValue(0, T(0x0F0F)), a.SetValue(1, T(0x8000)), b.SetValue(1, T(0x8001));
    Xor(dst, a, b, 2);
    CHECK(uint16_t(dst.GetValue(0)) == 0xF0F0 && uint16_t(dst.GetValue(1)) == 0x0001);
    // the docs' rules
    CHECK(has(throws([&] { Xor(dst, a, b, 9); }), "calCount"));
    CHECK(has(throws([&] { Xor(dst, a, fx.at<T>(kSrc1, 4)); }), "same size"));
    CHECK(has(throws([&] { Xor(dst, a, fx.at<T>(kSrc1, 16), tmp); }), "same size"));
    CHECK(has(throws([&] { Xor(a, a, b, 8); }), "overlap"));
    CHECK(has(throws([&] { Xor(fx.at<T>(kSrc1 + 4, 8), a, b, tmp, 4); }), "src1Tensor"));
    CHECK(has(throws([&] { Xor(dst, a, b, fx.at<uint8_t>(kTmp, 224), 8); }), "GetXorMaxMinTmpSize"));
    CHECK(has(throws([&] { Xor(dst, a, b, fx.at<uint8_t>(kSrc1, 256), 8); }), "sharedTmpBuffer overlaps"));
}

int main() {
    Fixture fx;
    std::fesetround(FE_TONEAREST);
    static_assert(!FloorWhole<float>::value && TruncWhole<float>::value && TruncWhole<half>::value,
                  "Floor has only the calCount shapes; Trunc also the whole-tensor ones");

    rounding<float>(fx);
    rounding<half>(fx);
    transcendental<float>(fx);
    transcendental<half>(fx);
    clamp<float>(fx);
    clamp<half>(fx);
    xor_api<int16_t>(fx);
    xor_api<uint16_t>(fx);

    auto tmp = fx.at<uint8_t>(kTmp, 64 * 1024);
    {   // high-level Exp<T, taylorExpandLevel, isReuseSource>: the docs' isReuseSource example (float, level 15)
        auto src = fx.at<float>(kSrc, 16), dst = fx.at<float>(kDst, 16);
        std::vector<double> x;
        for (int i = 0; i < 16; ++i) x.push_back(-7.5 + i);
        put(src, x);
        Exp<float, 15, false>(dst, src, 16);
        CHECK(near(dst, {0.000553084, 0.00150344, 0.00408677, 0.011109, 0.0301974, 0.082085, 0.22313, 0.606531,
                         1.64872, 4.48169, 12.1825, 33.1155, 90.0171, 244.692, 665.142, 1808.04}, 1e-5));
        CHECK(float(src.GetValue(15)) == 7.5f);   // the source kept
        Exp<float, 0>(dst, src, tmp, 16);   // level 0: plain e^x
        CHECK(near(dst, map<float>(x, [](double v) { return std::exp(v); })));
        auto small = fx.at<uint8_t>(kTmp, 2 * 256);
        CHECK(has(throws([&] { Exp<float, 15, false>(dst, src, small, 16); }), "GetExpMaxMinTmpSize"));
        // reusing the float source needs one vector less, and the source no longer holds its values
        CHECK(throws([&] { Exp<float, 15, true>(dst, src, small, 16); }).empty());
        CHECK(near(dst, map<float>(x, [](double v) { return std::exp(v); }), 1e-6));
        CHECK(std::isnan(float(src.GetValue(0))));
        put(src, {0.5, 1.5, -0.5});   // a short expansion shows the model: e^floor(x) * (1 + f + f^2 / 2)
        Exp<float, 2>(dst, src, tmp, 3);
        CHECK(near(dst, {1.625, std::exp(1.0) * 1.625, std::exp(-1.0) * 1.625}, 1e-7));
        CHECK(has(throws([&] { Exp<float, 15>(src, src, tmp, 16); }), "overlap"));
        auto h = fx.at<half>(kSrc, 16), hd = fx.at<half>(kDst, 16);   // the half example (level 15)
        put(h, {0, 0.01, 0.02, 0.03, 5.11});
        Exp<half, 15, true>(hd, h, tmp, 5);
        CHECK(near(hd, {1.0, 1.0100503, 1.0202013, 1.0304545, 165.67036}, 1e-3));
        CHECK(float(h.GetValue(1)) == float(half(0.01f)));   // half ignores isReuseSource
    }
    {   // high-level Axpy: the docs' example, then the rounding of each combination (Muls, then Add)
        auto src = fx.at<half>(kSrc, 512), dst = fx.at<half>(kDst, 512);
        bool ok = true;
        for (int i = 0; i < 512; ++i) src.SetValue(i, half(float(i + 1))), dst.SetValue(i, half(0.0f));
        Axpy(dst, src, static_cast<half>(3.0), tmp, 512);
        for (int i = 0; i < 512; ++i) ok &= float(dst.GetValue(i)) == 3.0f * float(i + 1);
        CHECK(ok);
        const float s = 3.0f, x = float(half(0.1f));   // 3 * x needs 13 bits: half rounds it, float does not
        src.SetValue(0, half(x)), dst.SetValue(0, half(1.0f));
        Axpy<half, half>(dst, src, half(s), tmp, 1);
        CHECK(float(dst.GetValue(0)) == float(half(float(half(s * x)) + 1.0f)));
        auto fdst = fx.at<float>(kDst, 512), fsrc = fx.at<float>(kSrc1, 512);
        fdst.SetValue(0, 1.0f);
        Axpy<float, half>(fdst, src, half(s), tmp, 1);   // mixed: half source, float destination
        CHECK(fdst.GetValue(0) == s * x + 1.0f && fdst.GetValue(0) != float(half(s * x)) + 1.0f);
        fsrc.SetValue(0, 0.1f), fdst.SetValue(0, 1e8f);
        Axpy(fdst, fsrc, 0.3f, tmp, 1);
        CHECK(fdst.GetValue(0) == (0.1f * 0.3f) + 1e8f);
        CHECK(has(throws([&] { Axpy(fdst, fx.at<float>(kDst + 32, 64), 1.0f, tmp, 64); }), "overlap"));
        CHECK(has(throws([&] { Axpy(fdst, fsrc, 1.0f, fx.at<uint8_t>(kTmp, 128), 64); }), "GetAxpyMaxMinTmpSize"));
    }
    {   // isReuseSource on Lgamma / Digamma: float gives up its source and one live vector; half ignores it
        auto src = fx.at<float>(kSrc, 64), dst = fx.at<float>(kDst, 64);
        auto three = fx.at<uint8_t>(kTmp, 3 * 256);
        put(src, {2.5, 3.5});
        CHECK(has(throws([&] { Lgamma<float, false>(dst, src, three, 2); }), "too small"));
        Lgamma<float, true>(dst, src, three, 2);
        CHECK(near(dst, {ref_lgamma(2.5), ref_lgamma(3.5)}, 2e-7) && std::isnan(float(src.GetValue(0))));
        put(src, {2.5, 3.5});
        Digamma<float, true>(dst, src, three, 2);
        CHECK(near(dst, {ref_digamma(2.5), ref_digamma(3.5)}, 2e-7) && std::isnan(float(src.GetValue(1))));
        auto h = fx.at<half>(kSrc, 64), hd = fx.at<half>(kDst, 64);
        put(h, {2.5});
        CHECK(has(throws([&] { Lgamma<half, true>(hd, h, three, 1); }), "GetLgammaMaxMinTmpSize"));
        Lgamma<half, true>(hd, h, tmp, 1);
        CHECK(float(h.GetValue(0)) == 2.5f);
    }
    {   // the host sizes and the kernel's check agree for every API: min passes, min - 32 fails
        const ge::Shape shape({4, 256});
        platform_ascendc::PlatformAscendC plat;
        uint32_t mx = 0, mn = 0, live = 0, extra = 0;
        auto src = fx.at<float>(kSrc, 1024), dst = fx.at<float>(kDst, 1024);
        for (uint32_t i = 0; i < 1024; ++i) src.SetValue(i, 1.5f);
        auto agrees = [&](const char* name, uint32_t need, const std::function<void(LocalTensor<uint8_t>&)>& call) {
            auto enough = fx.at<uint8_t>(kTmp, need), less = fx.at<uint8_t>(kTmp, need - 32);
            const bool ok = throws([&] { call(enough); }).empty() && has(throws([&] { call(less); }), "too small");
            CHECK_MSG(ok, "%s needs %u", name, need);
        };
        GetFloorMaxMinTmpSize(shape, 4, false, mx, mn);
        CHECK(mn == 256 && mx == 4096);
        agrees("Floor", mn, [&](LocalTensor<uint8_t>& t) { Floor(dst, src, t, 1024); });
        GetCeilMaxMinTmpSize(shape, 4, false, mx, mn);
        agrees("Ceil", mn, [&](LocalTensor<uint8_t>& t) { Ceil(dst, src, t, 1024); });
        GetRoundMaxMinTmpSize(plat, shape, 4, false, mx, mn);
        agrees("Round", mn, [&](LocalTensor<uint8_t>& t) { Round(dst, src, t, 1024); });
        GetTruncMaxMinTmpSize(shape, 2, false, mx, mn);
        agrees("Trunc", mn, [&](LocalTensor<uint8_t>& t) { Trunc(dst, src, t); });
        GetAcoshMaxMinTmpSize(shape, 4, false, mx, mn);
        CHECK(mn == 512 && mx == 8192);
        agrees("Acosh", mn, [&](LocalTensor<uint8_t>& t) { Acosh(dst, src, t, 1024); });
        GetAsinhMaxMinTmpSize(shape, 4, false, mx, mn);
        agrees("Asinh", mn, [&](LocalTensor<uint8_t>& t) { Asinh(dst, src, t); });
        GetAtanhMaxMinTmpSize(shape, 4, false, mx, mn);
        agrees("Atanh", mn, [&](LocalTensor<uint8_t>& t) { Atanh(dst, src, t, 8); });
        GetClampMaxMinTmpSize(shape, 4, false, mx, mn);
        agrees("ClampMax", mn, [&](LocalTensor<uint8_t>& t) { ClampMax(dst, src, t, 1.0f, 1024); });
        agrees("ClampMin", mn, [&](LocalTensor<uint8_t>& t) { ClampMin(dst, src, t, 1.0f, 1024); });
        CHECK(has(throws([&] { ClampMax(dst, src, fx.at<uint8_t>(kTmp, 32), 1.0f, 8); }), "GetClampMaxMinTmpSize"));
        GetLgammaMaxMinTmpSize(shape, 4, false, mx, mn);
        CHECK(mn == 1024 && mx == 16384);
        agrees("Lgamma", mn, [&](LocalTensor<uint8_t>& t) { Lgamma(dst, src, t, 1024); });
        GetLgammaMaxMinTmpSize(shape, 4, true, mx, mn);
        CHECK(mn == 768);
        agrees("Lgamma reuse", mn, [&](LocalTensor<uint8_t>& t) { Lgamma<float, true>(dst, src, t, 1024); });
        GetDigammaMaxMinTmpSize(shape, 2, true, mx, mn);
        CHECK(mn == 1024);   // half ignores isReuseSource
        GetDigammaMaxMinTmpSize(shape, 4, true, mx, mn);
        agrees("Digamma reuse", mn, [&](LocalTensor<uint8_t>& t) { Digamma<float, true>(dst, src, t, 1024); });
        GetDigammaMaxMinTmpSize(shape, 4, false, mx, mn);
        agrees("Digamma", mn, [&](LocalTensor<uint8_t>& t) { Digamma(dst, src, t, 1024); });
        CHECK(GetExpMaxMinTmpSize(shape, 4, false, mx, mn) && mn == 768 && mx == 12288);
        agrees("Exp", mn, [&](LocalTensor<uint8_t>& t) { Exp<float, 12>(dst, src, t, 1024); });
        CHECK(!GetExpMaxMinTmpSize(shape, 1, false, mx, mn) && mn == 0 && mx == 0);
        CHECK(!GetExpMaxMinTmpSize(ge::Shape(), 4, false, mx, mn));
        GetAxpyMaxMinTmpSize(shape, 4, false, mx, mn);
        agrees("Axpy", mn, [&](LocalTensor<uint8_t>& t) { Axpy(dst, src, 1.0f, t, 1024); });
        GetXorMaxMinTmpSize(shape, 2, false, mx, mn);
        agrees("Xor", mn, [&](LocalTensor<uint8_t>& t) {
            Xor(fx.at<int16_t>(kDst, 1024), fx.at<int16_t>(kSrc, 1024), fx.at<int16_t>(kSrc1, 1024), t);
        });
        GetFloorTmpBufferFactorSize(2, live, extra);
        CHECK(live == 2 && extra == 256);
        GetRoundTmpBufferFactorSize(plat, 4, live, extra);
        CHECK(live == 1 && extra == 256);
        GetDigammaTmpBufferFactorSize(2, live, extra);
        CHECK(live == 8 && extra == 1024);
        GetXorTmpBufferFactorSize(2, live, extra);
        GetClampTmpBufferFactorSize(4, live, extra);
        GetAcoshTmpBufferFactorSize(4, live, extra);
        GetAsinhTmpBufferFactorSize(4, live, extra);
        GetAtanhTmpBufferFactorSize(4, live, extra);
        GetCeilTmpBufferFactorSize(4, live, extra);
        GetTruncTmpBufferFactorSize(4, live, extra);
        GetLgammaTmpBufferFactorSize(4, live, extra);
        GetAxpyTmpBufferFactorSize(4, live, extra);
        GetExpTmpBufferFactorSize(2, live, extra);
        CHECK(live == 6 && extra == 768);
        // Power's documented pair (both operand shapes) next to hl_tiling.h's one-shape form
        GetPowerMaxMinTmpSize(ge::Shape({128, 128}), ge::Shape({1}), false, 2, false, mx, mn);
        CHECK(mn == 1024 && mx == 4 * 128 * 128 * 4);
        GetPowerMaxMinTmpSize(ge::Shape({1}), ge::Shape({8}), true, 4, false, mx, mn);
        CHECK(mn == 1024 && mx == 1024);
        GetPowerTmpBufferFactorSize(true, true, true, 4, live, extra);
        CHECK(live == 4 && extra == 1024);
    }
    {   // the tmp-less forms take the API's scratch from the UB after the last InitBuffer
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, ascsim::kUbBytes - 512);
        auto src = buf.Get<float>(128), dst = src[64];
        put(src, {1.5, 2.5});
        CHECK(throws([&] { Floor(dst, src, 2); }).empty());   // 256 B needed
        CHECK(has(throws([&] { Lgamma(dst, src, 2); }), "no UB left"));   // 1024 B needed
    }
    {   // int32_t Power is exact integer arithmetic (float pow loses digits past 2^24) and wraps like a vector multiply
        auto b = fx.at<int32_t>(kSrc, 8), e = fx.at<int32_t>(kSrc1, 8), d = fx.at<int32_t>(kDst, 8);
        auto tmp = fx.at<uint8_t>(kTmp, 4096);
        const int32_t bases[4] = {3, -3, 2, 7}, exps[4] = {19, 3, 31, -2};
        for (int i = 0; i < 4; ++i) { b.SetValue(i, bases[i]); e.SetValue(i, exps[i]); }
        Power<int32_t, false>(d, b, e, tmp, 4u);
        CHECK(d.GetValue(0) == 1162261467 && d.GetValue(1) == -27 && d.GetValue(2) == INT32_MIN && d.GetValue(3) == 0);
        Power<int32_t, false>(d, b, int32_t(2), tmp, 2u);
        CHECK(d.GetValue(0) == 9 && d.GetValue(1) == 9);
    }

    std::printf("PASS %d FAIL %d\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
