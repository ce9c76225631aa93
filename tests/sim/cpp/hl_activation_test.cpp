// The high-level activation APIs (kernel/hl_activation.h) and their host queries (host/activation_tiling.h) against
// their documentation: the docs' worked examples (half ones bit for bit where the step-by-step half model reproduces
// them), random inputs against double-precision references written from the documented formulas (half and float,
// every overload shape, highPrecision), references of the formulas the APIs must NOT use (erf-GELU, textbook Swish,
// natural-log LogSoftMax), and the strict checks: a sharedTmpBuffer below the host's minimum, a count beyond an
// operand, operands the docs forbid to overlap, no UB left for the framework's temporary buffer.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>
#include "kernel_operator.h"
#include "ascsim/kernel/hl_activation.h"
#include "tiling/tiling_api.h"
#include "ascsim/host/activation_tiling.h"

using namespace AscendC;

#include "check.h"

#include "ub_fixture.h"

// --- references (double precision), from the documented formulas ---
static double gelu_tanh(double x) {
    return 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
}
static double gelu_erf(double x) { return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0))); }   // must NOT match
static double faster_gelu(double x) { return x / (1 + std::exp(-1.702 * x)); }
static double faster_gelu_v2(double x) {
    const double t = std::min(std::fabs(x) / std::sqrt(2.0), 1.769), s = x > 0 ? 1 : (x < 0 ? -1 : 0);
    return x * (s * (-0.1444 * (t - 1.769) * (t - 1.769) + 0.5) + 0.5);
}
static double silu(double x) { return x / (1 + std::exp(-x)); }
static double swish(double x, double beta) { return x / (1 + std::exp(beta * x)); }         // the doc example's sign
static double swiglu(double x0, double x1, double beta) { return x0 * x1 / (1 + std::exp(-beta * x1)); }
static double geglu(double x0, double x1) { return x0 * gelu_tanh(x1); }
static double reglu(double x0, double x1) { return x0 * std::max(x1, 0.0); }

// the spacing of half values around v
static double half_ulp(double v) {
    const double a = std::fabs(v);
    if (a < 6.103515625e-05) return 5.960464477539063e-08;
    int e;
    std::frexp(a, &e);
    return std::ldexp(1.0, e - 11);
}
// random values in [lo, hi] stored as T; returns what was stored
template <class T>
static std::vector<double> fill(const LocalTensor<T>& t, uint32_t n, double lo, double hi, unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> u(lo, hi);
    std::vector<double> v(n);
    for (uint32_t i = 0; i < n; ++i) { t.SetValue(i, T(float(u(gen)))); v[i] = double(float(t.GetValue(i))); }
    return v;
}
template <class T> static void put(const LocalTensor<T>& t, const std::vector<double>& v) {
    for (size_t i = 0; i < v.size(); ++i) t.SetValue(uint32_t(i), T(float(v[i])));
}
// worst |got - want| / (rel * |want| + abs): <= 1 passes
template <class T>
static double worst(const LocalTensor<T>& t, const std::vector<double>& want, double rel, double abs_) {
    double w = 0;
    for (size_t i = 0; i < want.size(); ++i) {
        const double got = double(float(t.GetValue(uint32_t(i))));
        w = std::max(w, std::fabs(got - want[i]) / (rel * std::fabs(want[i]) + abs_));
    }
    return w;
}
// worst distance in half ulps of the wanted value
static double worst_ulps(const LocalTensor<half>& t, const std::vector<double>& want) {
    double w = 0;
    for (size_t i = 0; i < want.size(); ++i)
        w = std::max(w, std::fabs(double(float(t.GetValue(uint32_t(i)))) - want[i]) / half_ulp(want[i]));
    return w;
}
// how many results equal the wanted values once rounded to T (bit for bit, sign of zero included)
template <class T> static size_t exact(const LocalTensor<T>& t, const std::vector<double>& want) {
    size_t n = 0;
    for (size_t i = 0; i < want.size(); ++i) {
        const float g = float(t.GetValue(uint32_t(i))), w = float(T(float(want[i])));
        n += g == w && std::signbit(g) == std::signbit(w);
    }
    return n;
}
template <class F> static std::vector<double> map(const std::vector<double>& x, F f) {
    std::vector<double> y(x.size());
    for (size_t i = 0; i < x.size(); ++i) y[i] = f(x[i]);
    return y;
}
template <class F> static std::vector<double> map2(const std::vector<double>& a, const std::vector<double>& b, F f) {
    std::vector<double> y(a.size());
    for (size_t i = 0; i < a.size(); ++i) y[i] = f(a[i], b[i]);
    return y;
}

int main() {
    Fixture fx;
    auto tmp = fx.at<uint8_t>(64 * 1024, 64 * 1024);
    const double kF32 = 1e-5;   // float: relative tolerance against the double reference (abs floor 1e-7)

    // ===== the docs' worked examples =====
    {   // Gelu, half: within 3 half ulps of the doc (its device exp rounds differently), most bit for bit
        const std::vector<double> x = {-2.56, -2.395, -2.23, -2.066, -1.9, -1.735, -1.571, -1.406, -1.241, -1.076,
                                       -0.9116, -0.7466, -0.582, -0.417, -0.2522, -0.0874, 0.0774, 0.2423, 0.407,
                                       0.572, 0.737, 0.902, 1.066, 1.231, 1.396, 1.561, 1.726, 1.891, 2.055, 2.22,
                                       2.385, 2.55};
        const std::vector<double> y = {-0.01295471, -0.01953125, -0.02836609, -0.03991699, -0.05453491, -0.07196045,
                                       -0.09130859, -0.11254883, -0.13342285, -0.15185547, -0.16516113, -0.17004395,
                                       -0.16320801, -0.14111328, -0.10101318, -0.04067993, 0.04107666, 0.14428711,
                                       0.26782227, 0.40942383, 0.56689453, 0.7363281, 0.9135742, 1.0966797, 1.2822266,
                                       1.4677734, 1.6533203, 1.8349609, 2.0136719, 2.1914062, 2.3632812, 2.5390625};
        auto src = fx.at<half>(0, 32), dst = fx.at<half>(4096, 32);
        put(src, x);
        Gelu<half, false>(dst, src, tmp, 32);
        const auto yq = map(y, [](double v) { return double(float(half(float(v)))); });   // the printed halves
        CHECK_MSG(worst_ulps(dst, yq) <= 3, "Gelu vs doc: %g ulps", worst_ulps(dst, yq));
        CHECK_MSG(exact(dst, y) >= 27, "Gelu vs doc: %zu of 32 exact", exact(dst, y));
        // the erf form is not what the API computes: the doc's values are far from it
        std::vector<double> xs(32);
        for (int i = 0; i < 32; ++i) xs[i] = double(float(src.GetValue(i)));
        CHECK(worst_ulps(dst, map(xs, gelu_erf)) > 20);
        Gelu<half, false>(dst, src, 32);   // the framework-buffer form
        CHECK(worst_ulps(dst, yq) <= 3);
    }
    {   // FasterGelu, half: bit for bit
        const std::vector<double> x = {-1.83887, -3.60742, 3.12891, -0.620605, 2.0625, -2.77344, -0.04422, -3.54297,
                                       -3.16211, 2.67383, 1.3291, -1.57617, -0.0123901, 3.77539, -1.61621, -0.616699};
        const std::vector<double> y = {-0.0769653, -0.00775528, 3.11328, -0.160034, 2.00195, -0.0244446, -0.021286,
                                       -0.00849152, -0.0144653, 2.64453, 1.20312, -0.100769, -0.00613022, 3.76758,
                                       -0.0969238, -0.159912};
        auto src = fx.at<half>(0, 16), dst = fx.at<half>(4096, 16);
        put(src, x);
        FasterGelu(dst, src, 16);   // the doc's call: defaults, T deduced
        CHECK_MSG(exact(dst, y) == 16, "FasterGelu vs doc: %zu of 16 exact", exact(dst, y));
        FasterGelu<half, false, true>(dst, src, tmp, 16);   // highPerformance
        CHECK(exact(dst, y) == 16);
    }
    {   // FasterGeluV2, half: bit for bit, including the -0 of the saturated negative tail
        const std::vector<double> x = {-1.251, 1.074, -6.137, -9.67, -5.066, -9.44, -3.588, -5.758, -7.484, -5.35,
                                       -9.62, -4.33, -6.66, -3.732, 0.0841, -8.59, -6.3, -4.62, -3.059, -8.34, -8.24,
                                       -7.617, -7.93, -3.592, -3.268, -5.406, -9.49, 5.633, -5.3, -9.36, -6.715,
                                       -5.727};
        std::vector<double> y(32, -0.0);
        y[0] = -0.1411; y[1] = 0.916; y[14] = 0.0486; y[27] = 5.633;
        auto src = fx.at<half>(0, 32), dst = fx.at<half>(4096, 32);
        put(src, x);
        FasterGeluV2(dst, src, tmp, 32);
        CHECK_MSG(exact(dst, y) == 32, "FasterGeluV2 vs doc: %zu of 32 exact", exact(dst, y));
        CHECK(std::signbit(float(dst.GetValue(2))) && float(dst.GetValue(2)) == 0.0f);
    }
    // the float examples of Silu, Swish and SwiGLU share one input
    const std::vector<double> ramp = {-4., -3.7419355, -3.483871, -3.2258065, -2.967742, -2.7096775, -2.451613,
                                      -2.1935484, -1.9354838, -1.6774193, -1.4193548, -1.1612903, -0.9032258,
                                      -0.6451613, -0.38709676, -0.12903225, 0.12903225, 0.38709676, 0.6451613,
                                      0.9032258, 1.1612903, 1.4193548, 1.6774193, 1.9354838, 2.1935484, 2.451613,
                                      2.7096775, 2.967742, 3.2258065, 3.483871, 3.7419355, 4.};
    {   // Silu, float
        const std::vector<double> x = {-100., -50., -20., -10., -5., -4., -3., -2., -1., -0.5, -0.4, -0.3, -0.2, -0.1,
                                       -0.01, 0., 0., 0.01, 0.1, 0.2, 0.3, 0.4, 0.5, 1., 2., 3., 4., 5., 10., 20., 50.,
                                       100.};
        const std::vector<double> y = {-0., -0., -0.00000004, -0.00045398, -0.03346425, -0.07194484, -0.14227761,
                                       -0.23840587, -0.2689414, -0.18877034, -0.16052495, -0.12766725, -0.0900332,
                                       -0.04750208, -0.004975, 0., 0., 0.005025, 0.05249792, 0.10996681, 0.17233276,
                                       0.23947507, 0.31122968, 0.7310586, 1.761594, 2.8577225, 3.928055, 4.9665356,
                                       9.999546, 20., 50., 100.};
        auto src = fx.at<float>(0, 32), dst = fx.at<float>(4096, 32);
        put(src, x);
        Silu(dst, src, 32);
        CHECK_MSG(worst(dst, y, 1e-6, 1e-8) <= 1, "Silu vs doc %g", worst(dst, y, 1e-6, 1e-8));
    }
    {   // Swish, float, beta = -1.702: the doc's values are x / (1 + exp(beta x)), not x * sigmoid(beta x)
        const std::vector<double> y = {-0.00441472, -0.00640367, -0.00924141, -0.01325663, -0.01887952, -0.02665107,
                                       -0.03720944, -0.05122496, -0.06923404, -0.09129371, -0.11635891, -0.14131825,
                                       -0.15980731, -0.16135658, -0.13200021, -0.05746017, 0.07157208, 0.25509655,
                                       0.48380467, 0.74341846, 1.019972, 1.3029958, 1.5861256, 1.8662498, 2.1423235,
                                       2.4144034, 2.6830263, 2.9488626, 3.2125497, 3.4746296, 3.735532, 3.995585};
        auto src = fx.at<float>(0, 32), dst = fx.at<float>(4096, 32);
        put(src, ramp);
        Swish(dst, src, 32, -1.702);   // the doc's call, a double literal for beta
        CHECK_MSG(worst(dst, y, 2e-6, 1e-8) <= 1, "Swish vs doc %g", worst(dst, y, 2e-6, 1e-8));
        // the textbook x * sigmoid(beta x) = x / (1 + exp(-beta x)) is far from the doc's values
        CHECK(worst(dst, map(ramp, [](double x) { return x / (1 + std::exp(1.702 * x)); }), 1e-3, 1e-6) > 1);
    }
    {   // SwiGLU, float, beta = 1, src1 = 0.5: src0 * Swish(src1) with Swish(x) = x * sigmoid(beta x)
        const std::vector<double> y = {-1.2449187, -1.1646013, -1.084284, -1.0039667, -0.9236493, -0.843332, -0.7630147,
                                       -0.68269736, -0.60238, -0.52206266, -0.4417453, -0.361428, -0.28111064,
                                       -0.20079333, -0.12047599, -0.04015867, 0.04015867, 0.12047599, 0.20079333,
                                       0.28111064, 0.361428, 0.4417453, 0.52206266, 0.60238, 0.68269736, 0.7630147,
                                       0.843332, 0.9236493, 1.0039667, 1.084284, 1.1646013, 1.2449187};
        auto s0 = fx.at<float>(0, 32), s1 = fx.at<float>(4096, 32), dst = fx.at<float>(8192, 32);
        put(s0, ramp);
        put(s1, std::vector<double>(32, 0.5));
        float beta = 1.0f;
        SwiGLU(dst, s0, s1, beta);
        CHECK_MSG(worst(dst, y, 2e-7, 1e-9) <= 1, "SwiGLU vs doc %g", worst(dst, y, 2e-7, 1e-9));
        // the swapped roles (Swish(src0) * src1) and the Swish API's sign are not what SwiGLU computes
        CHECK(worst(dst, map(ramp, [](double x) { return swish(x, -1.0) * 0.5; }), 1e-3, 1e-6) > 1);
        CHECK(worst(dst, map(ramp, [](double x) { return x * swish(0.5, 1.0); }), 1e-3, 1e-6) > 1);
    }
    {   // GeGLU, half: src0 = -2.56 + 0.01 i, src1 = 2: the doc prints the first and last three of 512
        auto s0 = fx.at<half>(0, 512), s1 = fx.at<half>(4096, 512), dst = fx.at<half>(8192, 512);
        for (uint32_t i = 0; i < 512; ++i) {
            s0.SetValue(i, half(-2.56f + 0.01f * float(i)));
            s1.SetValue(i, half(2.0f));
        }
        GeGLU<half, false>(dst, s0, s1, 512);
        const float first[3] = {-5.004f, -4.984f, -4.96f}, last[3] = {4.94f, 4.96f, 4.984f};
        bool ok = true;
        for (int i = 0; i < 3; ++i) {
            ok &= float(dst.GetValue(i)) == float(half(first[i]));
            ok &= float(dst.GetValue(509 + i)) == float(half(last[i]));
        }
        auto at = [&](uint32_t i) { return double(float(dst.GetValue(i))); };
        CHECK_MSG(ok, "GeGLU vs doc: %g %g %g ... %g %g %g", at(0), at(1), at(2), at(509), at(510), at(511));
    }
    {   // ReGlu, float: src0 = 2, src1 = -1.6 .. 1.5, calCount 30: dst = src0 * relu(src1); the last two untouched
        auto s0 = fx.at<float>(0, 32), s1 = fx.at<float>(4096, 32), dst = fx.at<float>(8192, 32);
        std::vector<double> x1(32), y(30);
        for (int i = 0; i < 32; ++i) x1[i] = -1.6 + 0.1 * i;
        for (int i = 0; i < 30; ++i) y[i] = i <= 16 ? 0.0 : 0.2 * (i - 16);
        put(s0, std::vector<double>(32, 2.0));
        put(s1, x1);
        dst.SetValue(30, 7.0f); dst.SetValue(31, 7.0f);
        ReGlu(dst, s0, s1, tmp, 30);
        CHECK_MSG(worst(dst, y, 1e-6, 1e-7) <= 1, "ReGlu vs doc %g", worst(dst, y, 1e-6, 1e-7));
        CHECK(float(dst.GetValue(30)) == 7.0f && float(dst.GetValue(31)) == 7.0f);
    }
    {   // LogSoftMax, float [8, 8]: max, sum and dst = log10(softmax) (base 10: the doc's script and values)
        const std::vector<double> x = {-100, -80, -60, -50, -30, -20, -15, -10,
                                       -9, -8, -7, -6, -5, -4, -3, -2,
                                       -1.5, -1, -0.8, -0.6, -0.5, -0.45, -0.4, -0.35,
                                       -0.3, -0.25, -0.2, -0.15, -0.1, -0.05, -0.01, -0.001,
                                       0, 0.001, 0.01, 0.05, 0.1, 0.15, 0.2, 0.25,
                                       0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.8, 1,
                                       1.5, 2, 3, 4, 5, 6, 7, 8,
                                       9, 10, 15, 20, 30, 50, 60, 80};
        const double mx[8] = {-10, -2, -0.35, -0.001, 0.25, 1, 8, 80};
        const double sm[8] = {1.0067834, 1.5814459, 5.971886, 7.051223, 6.880514, 5.239974, 1.5820376, 1.};
        const std::vector<double> y = {
            -39.08944, -30.40355, -21.71766, -17.374716, -8.688826, -4.345881, -2.1744084, -0.00293603,
            -3.2391157, -2.8048213, -2.3705268, -1.9362322, -1.5019379, -1.0676433, -0.6333489, -0.19905435,
            -1.2755501, -1.0584029, -0.971544, -0.88468516, -0.8412557, -0.8195409, -0.7978263, -0.77611154,
            -0.97811854, -0.9564038, -0.93468904, -0.9129743, -0.89125955, -0.86954486, -0.85217315, -0.84826446,
            -0.9461945, -0.94576025, -0.94185156, -0.92447984, -0.90276515, -0.88105035, -0.8593356, -0.8376209,
            -1.0233353, -1.0016205, -0.97990584, -0.95819116, -0.93647635, -0.89304686, -0.806188, -0.7193291,
            -3.022131, -2.8049836, -2.3706892, -1.9363947, -1.5021002, -1.0678058, -0.6335113, -0.1992168,
            -30.834908, -30.400614, -28.229141, -26.057669, -21.714724, -13.028834, -8.685889, 0.};
        auto src = fx.at<float>(0, 64), dst = fx.at<float>(4096, 64);
        auto sum = fx.at<float>(8192, 64), max = fx.at<float>(12288, 64);
        put(src, x);
        tiling::LogSoftMaxTiling t;
        LogSoftMaxTilingFunc(ge::Shape({8, 8}), 4, GetLogSoftMaxMaxTmpSize(ge::Shape({8, 8}), 4, false), t);
        LogSoftMax<float, false>(dst, sum, max, src, tmp, t, SoftMaxShapeInfo{8, 8, 8, 8});
        CHECK_MSG(worst(dst, y, 2e-6, 1e-7) <= 1, "LogSoftMax dst vs doc %g", worst(dst, y, 2e-6, 1e-7));
        std::vector<double> wm(64), ws(64);
        for (int i = 0; i < 64; ++i) { wm[i] = mx[i / 8]; ws[i] = sm[i / 8]; }
        CHECK(worst(max, wm, 1e-7, 0) <= 1);
        CHECK_MSG(worst(sum, ws, 2e-7, 0) <= 1, "LogSoftMax sum vs doc %g", worst(sum, ws, 2e-7, 0));
        std::vector<double> ln(y);   // the natural log would be y / log10(e)
        for (auto& v : ln) v /= std::log10(std::exp(1.0));
        CHECK(worst(dst, ln, 1e-3, 1e-3) > 1);
        LogSoftMax<float>(dst, sum, max, src, tmp, t);   // the shape from the tiling
        CHECK(worst(dst, y, 2e-6, 1e-7) <= 1);
    }

    // ===== random inputs against the references: every overload, half and float =====
    const uint32_t n = 1000;
    {   // the Gelu family; dst and src may be the same tensor
        struct Case { const char* name; double (*ref)(double); int id; };
        const Case cases[3] = {
            {"Gelu", gelu_tanh, 0}, {"FasterGelu", faster_gelu, 1}, {"FasterGeluV2", faster_gelu_v2, 2}};
        for (const auto& c : cases) {
            auto fs = fx.at<float>(0, n), fd = fx.at<float>(8192, n);
            auto hs = fx.at<half>(16384, n), hd = fx.at<half>(24576, n);
            auto xf = fill(fs, n, -8, 8, 11), xh = fill(hs, n, -8, 8, 12);
            auto yf = map(xf, c.ref), yh = map(xh, c.ref);
            auto run_f = [&](int form) {
                if (c.id == 0) form ? Gelu(fd, fs, n) : Gelu(fd, fs, tmp, n);
                if (c.id == 1) form ? FasterGelu(fd, fs, n) : FasterGelu(fd, fs, tmp, n);
                if (c.id == 2) form ? FasterGeluV2(fd, fs, n) : FasterGeluV2(fd, fs, tmp, n);
            };
            for (int form = 0; form < 2; ++form) {
                std::memset(fd.addr_, 0, n * 4);
                run_f(form);
                const double w = worst(fd, yf, kF32, 1e-7);
                CHECK_MSG(w <= 1, "%s float form %d: %g", c.name, form, w);
            }
            // half, default mode (half steps): near the reference; highPrecision: rounded once, within an ulp
            if (c.id == 0) Gelu(hd, hs, tmp, n);
            if (c.id == 1) FasterGelu(hd, hs, n);
            if (c.id == 2) FasterGeluV2(hd, hs, tmp, n);
            CHECK_MSG(worst(hd, yh, 1e-2, 2e-3) <= 1, "%s half: %g", c.name, worst(hd, yh, 1e-2, 2e-3));
            if (c.id == 0) Gelu<half, true>(hd, hs, n);
            if (c.id == 1) FasterGelu<half, true>(hd, hs, tmp, n);
            if (c.id == 2) FasterGeluV2<half, true, true>(hd, hs, n);
            CHECK_MSG(worst_ulps(hd, yh) <= 1, "%s half highPrecision: %g ulps", c.name, worst_ulps(hd, yh));
            // in place
            if (c.id == 0) Gelu(fs, fs, tmp, n);
            if (c.id == 1) FasterGelu(fs, fs, tmp, n);
            if (c.id == 2) FasterGeluV2(fs, fs, n);
            CHECK_MSG(worst(fs, yf, kF32, 1e-7) <= 1, "%s in place", c.name);
        }
        // tanh-GELU and erf-GELU differ by far more than the float tolerance: the float check above can fail
        auto fs = fx.at<float>(0, n), fd = fx.at<float>(8192, n);
        auto xf = fill(fs, n, -8, 8, 11);
        Gelu(fd, fs, n);
        CHECK(worst(fd, map(xf, gelu_erf), 1e-3, 1e-5) > 1);
        // the default half mode is not a single rounding: somewhere it differs from highPrecision
        auto hs = fx.at<half>(16384, n), hd = fx.at<half>(24576, n), hp = fx.at<half>(32768, n);
        fill(hs, n, -8, 8, 12);
        FasterGelu<half>(hd, hs, n);
        FasterGelu<half, true>(hp, hs, n);
        CHECK(std::memcmp(hd.addr_, hp.addr_, n * 2) != 0);
    }
    {   // Silu, Swish
        auto fs = fx.at<float>(0, n), fd = fx.at<float>(8192, n);
        auto hs = fx.at<half>(16384, n), hd = fx.at<half>(24576, n);
        auto xf = fill(fs, n, -10, 10, 21), xh = fill(hs, n, -10, 10, 22);
        Silu(fd, fs, n);
        CHECK_MSG(worst(fd, map(xf, silu), kF32, 1e-7) <= 1, "Silu float %g", worst(fd, map(xf, silu), kF32, 1e-7));
        Silu<half>(hd, hs, n);
        CHECK_MSG(worst(hd, map(xh, silu), 1e-2, 2e-3) <= 1, "Silu half %g", worst(hd, map(xh, silu), 1e-2, 2e-3));
        Swish(fd, fs, n, 0.75f);
        auto ys = map(xf, [](double x) { return swish(x, 0.75); });
        CHECK_MSG(worst(fd, ys, kF32, 1e-7) <= 1, "Swish float %g", worst(fd, ys, kF32, 1e-7));
        Swish<half>(hd, hs, n, half(-1.5f));
        auto yh = map(xh, [](double x) { return swish(x, -1.5); });
        CHECK_MSG(worst(hd, yh, 1e-2, 2e-3) <= 1, "Swish half %g", worst(hd, yh, 1e-2, 2e-3));
    }
    {   // SwiGLU (4 forms), GeGLU (4 forms), ReGlu (2 forms, incl. bfloat16_t)
        auto f0 = fx.at<float>(0, n), f1 = fx.at<float>(4096, n), fd = fx.at<float>(8192, n);
        auto h0 = fx.at<half>(12288, n), h1 = fx.at<half>(16384, n), hd = fx.at<half>(20480, n);
        auto a = fill(f0, n, -4, 4, 31), b = fill(f1, n, -6, 6, 32);
        auto ah = fill(h0, n, -4, 4, 33), bh = fill(h1, n, -6, 6, 34);
        const float beta = -0.8f;
        auto ysw = map2(a, b, [&](double x0, double x1) { return swiglu(x0, x1, beta); });
        for (int form = 0; form < 4; ++form) {
            std::memset(fd.addr_, 0, n * 4);
            if (form == 0) SwiGLU(fd, f0, f1, beta, tmp, n);
            if (form == 1) SwiGLU(fd, f0, f1, beta, tmp);
            if (form == 2) SwiGLU(fd, f0, f1, beta, n);
            if (form == 3) SwiGLU(fd, f0, f1, beta);
            CHECK_MSG(worst(fd, ysw, kF32, 1e-7) <= 1, "SwiGLU float form %d: %g", form, worst(fd, ysw, kF32, 1e-7));
        }
        SwiGLU<half>(hd, h0, h1, beta, tmp, n);
        auto yswh = map2(ah, bh, [&](double x0, double x1) { return swiglu(x0, x1, beta); });
        CHECK_MSG(worst(hd, yswh, 1e-2, 4e-3) <= 1, "SwiGLU half %g", worst(hd, yswh, 1e-2, 4e-3));

        auto yge = map2(a, b, geglu);
        for (int form = 0; form < 4; ++form) {
            std::memset(fd.addr_, 0, n * 4);
            if (form == 0) GeGLU(fd, f0, f1, tmp, n);
            if (form == 1) GeGLU(fd, f0, f1, tmp);
            if (form == 2) GeGLU(fd, f0, f1, n);
            if (form == 3) GeGLU(fd, f0, f1);
            CHECK_MSG(worst(fd, yge, kF32, 1e-7) <= 1, "GeGLU float form %d: %g", form, worst(fd, yge, kF32, 1e-7));
        }
        CHECK(worst(fd, map2(a, b, [](double x0, double x1) { return x0 * gelu_erf(x1); }), 1e-3, 1e-5) > 1);
        CHECK(worst(fd, map2(a, b, [](double x0, double x1) { return x1 * gelu_tanh(x0); }), 1e-3, 1e-5) > 1);
        GeGLU<half>(hd, h0, h1, n);
        auto ygeh = map2(ah, bh, geglu);
        CHECK_MSG(worst(hd, ygeh, 1e-2, 4e-3) <= 1, "GeGLU half %g", worst(hd, ygeh, 1e-2, 4e-3));

        // ReGlu: one multiply of exact values, so T(reference) bit for bit
        auto yre = map2(a, b, reglu);
        ReGlu(fd, f0, f1, tmp, n);
        CHECK(exact(fd, yre) == n);
        ReGlu(fd, f0, f1, n);
        CHECK(exact(fd, yre) == n);
        CHECK(worst(fd, map2(a, b, [](double x0, double x1) { return x1 * std::max(x0, 0.0); }), 1e-3, 1e-5) > 1);
        ReGlu<half>(hd, h0, h1, n);
        CHECK(exact(hd, map2(ah, bh, reglu)) == n);
        auto b0 = fx.at<bfloat16_t>(12288, n), b1 = fx.at<bfloat16_t>(16384, n), bd = fx.at<bfloat16_t>(20480, n);
        auto ab = fill(b0, n, -4, 4, 35), bb = fill(b1, n, -6, 6, 36);
        ReGlu(bd, b0, b1, tmp, n);
        CHECK(exact(bd, map2(ab, bb, reglu)) == n);
    }
    {   // LogSoftMax half and float, rows padded past oriSrcK (the pad must not reach the statistics)
        const uint32_t m = 5, k = 48, ok = 37;
        auto hs = fx.at<half>(0, m * k), hd = fx.at<half>(8192, m * k), hsum = fx.at<half>(16384, m * 16),
             hmax = fx.at<half>(20480, m * 16);
        auto xs = fill(hs, m * k, -6, 6, 41);
        for (uint32_t r = 0; r < m; ++r)
            for (uint32_t c = ok; c < k; ++c) { hs.SetValue(r * k + c, half(50.0f)); xs[r * k + c] = 50; }
        tiling::LogSoftMaxTiling t;
        LogSoftMaxTilingFunc(ge::Shape({m, k}), 2, GetLogSoftMaxMinTmpSize(ge::Shape({m, k}), 2, false), t);
        LogSoftMax<half>(hd, hsum, hmax, hs, tmp, t, SoftMaxShapeInfo{m, k, m, ok});
        double wd = 0, wst = 0;
        for (uint32_t r = 0; r < m; ++r) {
            double mxv = -1e300, s = 0;
            for (uint32_t c = 0; c < ok; ++c) mxv = std::max(mxv, xs[r * k + c]);
            for (uint32_t c = 0; c < ok; ++c) s += std::exp(xs[r * k + c] - mxv);
            for (uint32_t c = 0; c < ok; ++c) {
                const double want = std::log10(std::exp(xs[r * k + c] - mxv) / s);
                wd = std::max(wd, std::fabs(double(float(hd.GetValue(r * k + c))) - want) / half_ulp(want));
            }
            for (uint32_t j = 0; j < 16; ++j) {
                wst = std::max(wst, std::fabs(double(float(hsum.GetValue(r * 16 + j))) - s) / half_ulp(s));
                wst = std::max(wst, std::fabs(double(float(hmax.GetValue(r * 16 + j))) - mxv) / half_ulp(mxv));
            }
        }
        CHECK_MSG(wd <= 1 && wst <= 1, "LogSoftMax half: dst %g, stats %g ulps", wd, wst);
    }

    // ===== host queries, and the kernel's check against them =====
    {
        uint32_t mx = 0, mn = 0;
        GetGeluMaxMinTmpSize(TensorShape(std::vector<int64_t>{1024}), 2, mx, mn);
        CHECK(mn == 768 && mx == 3 * 4096);
        CHECK(GetGeluMaxTmpSize(ge::Shape({1024}), 4) == mx && GetGeluMinTmpSize(ge::Shape({1024}), 4) == mn);
        GetSiluTmpSize(ge::Shape({1024}), 2, false, mx, mn);
        CHECK(mx == 0 && mn == 0);
        GetSwishTmpSize(ge::Shape({1024}), 4, false, mx, mn);
        CHECK(mx == 0 && mn == 0);
        GetSwiGLUMaxMinTmpSize(ge::Shape({1024}), 2, mx, mn, false);
        CHECK(mn == 768 && mx == 3 * 4096);
        uint32_t live = 0, extra = 0;
        for (uint32_t ts : {2u, 4u}) {   // the factor form bounds the max: maxTmp <= live * count * typeSize + extra
            GetSwiGLUTmpBufferFactorSize(ts, live, extra);
            CHECK(live * 1024 * ts + extra >= mx && live * ts == 12 && extra == 768);
            GetGeGLUTmpBufferFactorSize(ts, live, extra);
            CHECK(live * 1024 * ts + extra >= mx);
        }
        GetGeGLUMaxMinTmpSize(ge::Shape({1024}), 2, false, mx, mn);
        CHECK(mn == 768 && mx == 3 * 4096);
        GetReGluMaxMinTmpSize(ge::Shape({8, 128}), 2, false, mx, mn);
        CHECK(mn == 512 && mx == 2 * 4096);
        CHECK(GetLogSoftMaxMinTmpSize(ge::Shape({8, 64}), 4, false) == 512);
        CHECK(GetLogSoftMaxMaxTmpSize(ge::Shape({8, 64}), 4, false) == 4096);
        optiling::LogSoftMaxTiling ot;
        LogSoftMaxTilingFunc(ge::Shape({8, 64}), 4, 1024, ot);
        CHECK(ot.get_srcM() == 8 && ot.get_srcK() == 64 && ot.get_splitM() == 2 && ot.get_rangeM() == 4 &&
              ot.get_tailM() == 0 && ot.get_outMaxK() == 8 && ot.get_reduceSize() == 16 && ot.get_splitSize() == 128);
        tiling::LogSoftMaxTiling pt;
        LogSoftMaxTilingFunc(ge::Shape({3, 16, 32}), 2, 1000, pt);   // M is the product of the leading axes
        CHECK(pt.srcM == 48 && pt.srcK == 32 && pt.splitM == 3 && pt.rangeM == 16 && pt.tailM == 0 && pt.outMaxK == 16);
    }
    {   // each API accepts exactly the host's minimum and rejects 32 B less
        const uint32_t c = 1000;
        auto f0 = fx.at<float>(0, c), f1 = fx.at<float>(4096, c), fd = fx.at<float>(8192, c);
        uint32_t mx = 0, mn = 0;
        GetGeluMaxMinTmpSize(ge::Shape({c}), 4, mx, mn);
        auto ok = fx.at<uint8_t>(64 * 1024, mn), small = fx.at<uint8_t>(64 * 1024, mn - 32);
        CHECK(throws([&] { Gelu(fd, f0, ok, c); }).empty());
        CHECK(has(throws([&] { Gelu(fd, f0, small, c); }), "too small"));
        CHECK(has(throws([&] { FasterGelu(fd, f0, small, c); }), "GetGeluMaxMinTmpSize"));
        CHECK(has(throws([&] { FasterGeluV2(fd, f0, small, c); }), "too small"));
        GetSwiGLUMaxMinTmpSize(ge::Shape({c}), 4, mx, mn, false);
        ok = fx.at<uint8_t>(64 * 1024, mn); small = fx.at<uint8_t>(64 * 1024, mn - 32);
        CHECK(throws([&] { SwiGLU(fd, f0, f1, 1.0f, ok, c); }).empty());
        CHECK(has(throws([&] { SwiGLU(fd, f0, f1, 1.0f, small, c); }), "GetSwiGLUMaxMinTmpSize"));
        GetGeGLUMaxMinTmpSize(ge::Shape({c}), 4, false, mx, mn);
        ok = fx.at<uint8_t>(64 * 1024, mn); small = fx.at<uint8_t>(64 * 1024, mn - 32);
        CHECK(throws([&] { GeGLU(fd, f0, f1, ok, c); }).empty());
        CHECK(has(throws([&] { GeGLU(fd, f0, f1, small, c); }), "too small"));
        GetReGluMaxMinTmpSize(ge::Shape({c}), 4, false, mx, mn);
        ok = fx.at<uint8_t>(64 * 1024, mn); small = fx.at<uint8_t>(64 * 1024, mn - 32);
        CHECK(throws([&] { ReGlu(fd, f0, f1, ok, c); }).empty());
        CHECK(has(throws([&] { ReGlu(fd, f0, f1, small, c); }), "too small"));
        // LogSoftMax [4, 64] float
        auto s = fx.at<float>(0, 256), d = fx.at<float>(4096, 256);
        auto sm = fx.at<float>(8192, 32), mxt = fx.at<float>(12288, 32);
        fill(s, 256, -3, 3, 51);
        tiling::LogSoftMaxTiling t;
        mn = GetLogSoftMaxMinTmpSize(ge::Shape({4, 64}), 4, false);
        LogSoftMaxTilingFunc(ge::Shape({4, 64}), 4, mn, t);
        ok = fx.at<uint8_t>(64 * 1024, mn); small = fx.at<uint8_t>(64 * 1024, mn - 32);
        CHECK(throws([&] { LogSoftMax<float>(d, sm, mxt, s, ok, t); }).empty());
        CHECK(has(throws([&] { LogSoftMax<float>(d, sm, mxt, s, small, t); }), "GetLogSoftMaxMinTmpSize"));
    }

    // ===== strict checks =====
    {
        auto f0 = fx.at<float>(0, 64), f1 = fx.at<float>(4096, 64), fd = fx.at<float>(8192, 64);
        // a count beyond an operand
        CHECK(has(throws([&] { Gelu(fd, f0, tmp, 65); }), "dataSize = 65 exceeds"));
        CHECK(has(throws([&] { Silu(fd, f0, 100); }), "exceeds the 64 elements of srcLocal"));
        CHECK(has(throws([&] { Swish(fx.at<float>(8192, 32), f0, 48, 1.0f); }), "dstLocal"));
        CHECK(has(throws([&] { SwiGLU(fd, f0, fx.at<float>(4096, 16), 1.0f, tmp, 32); }), "srcTensor1"));
        CHECK(has(throws([&] { GeGLU(fd, f0, f1, 80); }), "calCount = 80 exceeds"));
        CHECK(has(throws([&] { ReGlu(fd, f0, f1, tmp, 65); }), "exceeds"));
        // operands the docs forbid to overlap; the Gelu family may run in place
        CHECK(throws([&] { Gelu(f0, f0, tmp, 64); }).empty());
        CHECK(has(throws([&] { Silu(f0, f0, 64); }), "overlaps a source"));
        CHECK(has(throws([&] { Swish(fx.at<float>(32, 64), f0, 64, 1.0f); }), "overlaps a source"));
        CHECK(has(throws([&] { SwiGLU(f1, f0, f1, 1.0f, tmp, 64); }), "overlaps a source"));
        CHECK(has(throws([&] { GeGLU(f0, f0, f1, tmp, 64); }), "overlaps a source"));
        CHECK(has(throws([&] { ReGlu(f1, f0, f1, 64); }), "overlaps a source"));
        auto t_over = fx.at<uint8_t>(4096, 4096);   // on top of f1
        CHECK(has(throws([&] { Gelu(fd, f1, t_over, 64); }), "sharedTmpBuffer overlaps"));
        CHECK(has(throws([&] { ReGlu(fd, f0, f1, t_over, 64); }), "sharedTmpBuffer overlaps"));
        // LogSoftMax: unaligned srcK, a shape beyond the tensors, dst on src
        tiling::LogSoftMaxTiling t;
        LogSoftMaxTilingFunc(ge::Shape({4, 16}), 4, 4096, t);
        auto s = fx.at<float>(0, 64), d = fx.at<float>(4096, 64);
        auto sm = fx.at<float>(8192, 32), mxt = fx.at<float>(12288, 32);
        fill(s, 64, -3, 3, 52);
        const SoftMaxShapeInfo unaligned{4, 12, 4, 12}, too_big{8, 16, 8, 16};
        CHECK(has(throws([&] { LogSoftMax<float>(d, sm, mxt, s, tmp, t, unaligned); }), "32-byte aligned"));
        CHECK(has(throws([&] { LogSoftMax<float>(d, sm, mxt, s, tmp, t, too_big); }), "exceeds"));
        CHECK(has(throws([&] { LogSoftMax<float>(s, sm, mxt, s, tmp, t); }), "overlaps a source"));
        auto on_sum = fx.at<uint8_t>(8192, 512);
        CHECK(has(throws([&] { LogSoftMax<float>(d, sm, mxt, s, on_sum, t); }), "sharedTmpBuffer overlaps"));
        CHECK(throws([&] { LogSoftMax<float>(d, sm, mxt, s, tmp, t); }).empty());
    }
    {   // the framework's temporary buffer is the UB after the last InitBuffer: none left fails, Silu needs none
        TPipe pipe;
        TBuf<TPosition::VECCALC> all;
        pipe.InitBuffer(all, ascsim::kUbBytes - 512);   // 512 B left
        auto f0 = fx.at<float>(0, 64), fd = fx.at<float>(4096, 64), f1 = fx.at<float>(8192, 64);
        CHECK(has(throws([&] { Gelu(fd, f0, 64); }), "no UB left"));
        CHECK(has(throws([&] { GeGLU(fd, f0, f1, 64); }), "no UB left"));
        CHECK(has(throws([&] { SwiGLU(fd, f0, f1, 1.0f, 64); }), "GetSwiGLUMaxMinTmpSize"));
        CHECK(has(throws([&] { FasterGelu(fd, f0, 64); }), "512 B free"));   // the Gelu family needs 768 B
        CHECK(throws([&] { ReGlu(fd, f0, f1, 64); }).empty());                // ReGlu needs 512 B
        CHECK(throws([&] { Silu(fd, f0, 64); }).empty());
        CHECK(throws([&] { Gelu(fd, f0, tmp, 64); }).empty());   // a sharedTmpBuffer instead
    }

    std::printf("PASS %d FAIL %d\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
