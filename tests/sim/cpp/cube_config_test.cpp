// Unit tests of ascsim's cube configuration registers (kernel/cube_config.h) on one simulated AIC bound to the test
// thread, against references written here from the API documentation:
//   HF32 (SetHF32Mode / SetHF32TransMode) on a float Mmad; LoadData 3D v2 / v2 Pro (img2col) with the FMATRIX,
//   padding, repeat and boundary registers; DataCopy L0C -> GM with the NZ2ND / quant registers, and Fixpipe loading
//   the same registers; the documented strict rules of each.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>
#include "kernel_operator.h"

using namespace AscendC;

#include "../../sim/cpp/check.h"

alignas(4096) static uint8_t g_ub[ascsim::kUbBytes];
static ascsim::CoreCtx g_ctx;
static ascsim::CubeMem* g_cube = new ascsim::CubeMem;

static void as_aic() { g_cube->owner = nullptr; g_ctx.core_type = 1; g_ctx.cube = g_cube; g_ctx.ub = nullptr; }
static void as_aiv() { g_ctx.core_type = 2; g_ctx.cube = nullptr; g_ctx.ub = g_ub; }
static void new_kernel() { as_aic(); g_ctx.cube_cfg = ascsim::CoreCtx::CubeCfg{}; }   // registers start afresh per launch

static uint32_t fbits(float f) { uint32_t b; std::memcpy(&b, &f, 4); return b; }
static float bitsf(uint32_t b) { float f; std::memcpy(&f, &b, 4); return f; }
static bool same_bits(float a, float b) { return fbits(a) == fbits(b); }

// ---------------------------------------------------------------------------------------------------- HF32 ------
// Reference from the documented format (float32 range, 11 explicit mantissa bits; here for normal numbers): x is
// q * 2^(E - 12) with 2048 <= |q| < 4096 after frexp; q is rounded to an integer, ties to even (NEAREST_EVEN) or
// away from zero (NEAREST_ZERO, the Matmul SetHF32 page's transMode 1).
static float hf32_ref(float x, bool ties_away) {
    if (x == 0 || !std::isfinite(x)) return x;
    int e;
    std::frexp(x, &e);
    double scale = std::ldexp(1.0, e - 12), q = double(x) / scale, f = std::floor(q), d = q - f;
    double r = d > 0.5 ? f + 1 : d < 0.5 ? f : ties_away ? (q > 0 ? f + 1 : f) : (std::fmod(f, 2.0) == 0 ? f : f + 1);
    return float(r * scale);
}
// float Zz (L0A) / Zn (L0B) / Nz (L0C) places, C0 = 8
static size_t zz(uint32_t i, uint32_t k, uint32_t kF) { return (size_t(i / 16) * kF + k / 8) * 128 + (i % 16) * 8 + k % 8; }
static size_t zn(uint32_t k, uint32_t j, uint32_t nF) { return (size_t(k / 8) * nF + j / 16) * 128 + (j % 16) * 8 + k % 8; }
static size_t nz(uint32_t i, uint32_t j, uint32_t mF) { return (size_t(j / 16) * mF + i / 16) * 256 + (i % 16) * 16 + j % 16; }

static void test_hf32() {
    new_kernel();
    TPipe pipe;
    TBuf<TPosition::A2> a2; TBuf<TPosition::B2> b2; TBuf<TPosition::CO1> co1; TBuf<TPosition::C2> bt;
    pipe.InitBuffer(a2, 16 * 1024); pipe.InitBuffer(b2, 16 * 1024); pipe.InitBuffer(co1, 16 * 1024); pipe.InitBuffer(bt, 1024);
    LocalTensor<float> la = a2.Get<float>(), lb = b2.Get<float>(), lc = co1.Get<float>(), lbias = bt.Get<float>();
    const uint32_t M = 16, K = 8, N = 16;   // one fractal of K (C0 = 8 for float)
    const float t = 0x1p-12f;
    // values around the HF32 grid of [1, 2) (spacing 2^-11): ties with an even / odd kept bit, above / below half
    const float vals[8] = {1 + t, 1 + 2 * t + t, -(1 + t), 1 + t / 2, 1 + t + 0x1p-20f, 3.0f, 1 + 0x1p-20f, -1.5f - 3 * t};
    // A holds vals on its diagonal band, B is the identity (k == j): C[i][j] = A[i][j] as Mmad saw it
    auto run = [&](bool b_side) {
        for (uint32_t i = 0; i < 16 * 1024 / 4; ++i) { la.addr_[i] = 0; lb.addr_[i] = 0; }
        for (uint32_t i = 0; i < M; ++i)
            for (uint32_t k = 0; k < K; ++k) la.addr_[zz(i, k, 1)] = b_side ? float(i == k) : vals[(i + k) % 8];
        for (uint32_t k = 0; k < K; ++k)
            for (uint32_t j = 0; j < N; ++j) lb.addr_[zn(k, j, 2)] = b_side ? vals[(k + j) % 8] : float(k == j);
        MmadParams mp; mp.m = M; mp.n = N; mp.k = K;
        Mmad(lc, la, lb, mp);
    };
    auto seen = [&](bool b_side, bool hf32, bool away) {   // every C[i][j] that carries one input value
        int bad = 0;
        for (uint32_t i = 0; i < (b_side ? K : M); ++i)
            for (uint32_t j = 0; j < (b_side ? N : K); ++j) {
                float v = vals[(i + j) % 8], want = hf32 ? hf32_ref(v, away) : v;
                bad += !same_bits(lc.addr_[nz(i, j, 1)], want);
            }
        return bad;
    };
    // the reference itself on the documented tie cases: 1 + 2^-12 is a tie with an even kept bit
    CHECK(hf32_ref(1 + t, false) == 1.0f && hf32_ref(1 + t, true) == 1 + 2 * t);
    CHECK(hf32_ref(1 + 3 * t, false) == 1 + 4 * t && hf32_ref(-(1 + t), true) == -(1 + 2 * t));
    run(false);
    CHECK(seen(false, false, false) == 0);                    // default: no HF32, exact float inputs
    SetHF32Mode(HF32Mode::ENABLE);                             // default trans mode: NEAREST_EVEN
    run(false);
    CHECK(seen(false, true, false) == 0);
    CHECK(seen(false, false, false) > 0);                     // the register changes the result
    run(true);
    CHECK(seen(true, true, false) == 0);                      // L0B data is rounded too
    SetHF32TransMode(HF32TransMode::NEAREST_ZERO);
    run(false);
    CHECK(seen(false, true, true) == 0);
    CHECK(seen(false, true, false) > 0);                      // ties go the other way
    CHECK(!same_bits(lc.addr_[nz(0, 0, 1)], 1.0f));          // 1 + 2^-12 rounded away from zero
    // the bias (BiasTable, not L0A / L0B) is not rounded
    for (uint32_t i = 0; i < 16; ++i) lbias.addr_[i] = 1 + 0x1p-20f;
    for (uint32_t i = 0; i < 16 * 1024 / 4; ++i) { la.addr_[i] = 0; lb.addr_[i] = 0; }
    {
        MmadParams mp; mp.m = M; mp.n = N; mp.k = K;
        Mmad(lc, la, lb, lbias, mp);
        CHECK(same_bits(lc.addr_[nz(3, 5, 1)], 1 + 0x1p-20f));
    }
    // a random product: HF32 on equals the reference product of rounded inputs and differs from plain float
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> U(-1, 1);
    const uint32_t m = 20, k = 24, n = 32, mF = 2, kF = 3, nF = 2;
    std::vector<float> A(m * k), B(k * n);
    for (auto& x : A) x = U(rng);
    for (auto& x : B) x = U(rng);
    for (uint32_t i = 0; i < 16 * 1024 / 4; ++i) { la.addr_[i] = 0; lb.addr_[i] = 0; }
    for (uint32_t i = 0; i < m; ++i)
        for (uint32_t kk = 0; kk < k; ++kk) la.addr_[zz(i, kk, kF)] = A[i * k + kk];
    for (uint32_t kk = 0; kk < k; ++kk)
        for (uint32_t j = 0; j < n; ++j) lb.addr_[zn(kk, j, nF)] = B[kk * n + j];
    auto product = [&](bool hf32, bool away) {
        std::vector<double> C(m * n, 0.0);
        for (uint32_t i = 0; i < m; ++i)
            for (uint32_t j = 0; j < n; ++j)
                for (uint32_t kk = 0; kk < k; ++kk) {
                    float a = A[i * k + kk], b = B[kk * n + j];
                    if (hf32) { a = hf32_ref(a, away); b = hf32_ref(b, away); }
                    C[i * n + j] += double(a) * double(b);
                }
        return C;
    };
    auto maxdiff = [&](const std::vector<double>& ref) {
        double e = 0;
        for (uint32_t i = 0; i < m; ++i)
            for (uint32_t j = 0; j < n; ++j) e = std::max(e, std::fabs(ref[i * n + j] - lc.addr_[nz(i, j, mF)]));
        return e;
    };
    MmadParams mp; mp.m = m; mp.n = n; mp.k = k;
    SetHF32TransMode(HF32TransMode::NEAREST_EVEN);
    Mmad(lc, la, lb, mp);
    const double on_vs_hf = maxdiff(product(true, false)), on_vs_fp = maxdiff(product(false, false));
    CHECK_MSG(on_vs_hf < 1e-5 && on_vs_fp > 5e-5, "on: vs hf32 ref %g, vs fp32 ref %g", on_vs_hf, on_vs_fp);
    SetHF32Mode(HF32Mode::DISABLE);                            // the register holds until changed
    Mmad(lc, la, lb, mp);
    const double off_vs_fp = maxdiff(product(false, false));
    CHECK_MSG(off_vs_fp < 1e-5, "off: vs fp32 ref %g", off_vs_fp);
    // the rounding helper on the special values: inf / NaN unchanged, the largest float carries into inf
    CHECK(std::isinf(ascsim_cube_detail::hf32_round(bitsf(0x7F7FFFFFu), 0)));
    CHECK(std::isnan(ascsim_cube_detail::hf32_round(NAN, 1)) && ascsim_cube_detail::hf32_round(-INFINITY, 0) == -INFINITY);
    // strict: out-of-range enumerators, and the AIC-only instruction on a vector core
    CHECK(has(throws([] { SetHF32Mode(HF32Mode(5)); }), "mode"));
    CHECK(has(throws([] { SetHF32TransMode(HF32TransMode(2)); }), "mode"));
    as_aiv();
    CHECK(has(throws([] { SetHF32Mode(HF32Mode::ENABLE); }), "vector core"));
    as_aic();
}

// ------------------------------------------------------------------------------------------- LoadData 3D ------
// img2col reference from the documented definition: feature map NC1HWC0 (N = 1) in L1, one row per output position
// (m = oh * Wo + ow, the window moving along W first), one column per (c1, kh, kw, c0), taps outside the map = pad.
struct Conv {
    int C, H, W, Hk, Wk, sH, sW, dH, dW, pl, pr, pt, pb;
    int Ho() const { return (H + pt + pb - (dH * (Hk - 1) + 1)) / sH + 1; }
    int Wo() const { return (W + pl + pr - (dW * (Wk - 1) + 1)) / sW + 1; }
};
template <class T> static T im2col_ref(const Conv& c, const std::vector<T>& fm, int m, int k, T pad, bool* padded = nullptr) {
    const int C0 = 32 / sizeof(T);
    int c1 = k / (c.Hk * c.Wk * C0), tap = k % (c.Hk * c.Wk * C0) / C0, c0 = k % C0;
    int oh = m / c.Wo(), ow = m % c.Wo(), kh = tap / c.Wk, kw = tap % c.Wk;
    int h = oh * c.sH - c.pt + kh * c.dH, w = ow * c.sW - c.pl + kw * c.dW;
    bool out = h < 0 || h >= c.H || w < 0 || w >= c.W;
    if (padded) *padded = out;
    return out ? pad : fm[((size_t(c1) * c.H + h) * c.W + w) * C0 + c0];
}
// element (r, c) of a Zz matrix with `cols` columns (fractals 16 x C0)
template <class T> static T zz_at(const T* p, int r, int c, int cols) {
    const int C0 = 32 / sizeof(T);
    return p[(size_t(r / 16) * (cols / C0) + c / C0) * 16 * C0 + (r % 16) * C0 + c % C0];
}
static bool same_half(half a, half b) { uint16_t x, y; std::memcpy(&x, &a, 2); std::memcpy(&y, &b, 2); return x == y; }

static constexpr IsResetLoad3dConfig CFG_REG_BOTH = {false, false};
static constexpr IsResetLoad3dConfig CFG_REG_PAD = {true, false};
static constexpr IsResetLoad3dConfig CFG_REG_FM = {false, true};

static void test_load3d() {
    // ---- img2col with stride, dilation and padding: the parameter form against the reference ----
    new_kernel();
    TPipe pipe;
    TBuf<TPosition::A1> a1; TBuf<TPosition::A2> a2; TBuf<TPosition::B2> b2;
    pipe.InitBuffer(a1, 64 * 1024); pipe.InitBuffer(a2, 48 * 1024); pipe.InitBuffer(b2, 48 * 1024);
    LocalTensor<half> src = a1.Get<half>(), dst = a2.Get<half>();
    const Conv cv{32, 5, 6, 2, 3, 1, 2, 2, 1, 1, 0, 1, 2};   // C, H, W, Hk, Wk, strides, dilations, pads l r t b
    const int M = cv.Ho() * cv.Wo(), K = 2 * cv.Hk * cv.Wk * 16, mExt = 32;
    CHECK(cv.Ho() == 6 && cv.Wo() == 3 && K == 192);
    std::vector<half> fm(size_t(cv.C) * cv.H * cv.W);
    for (size_t i = 0; i < fm.size(); ++i) fm[i] = half(float(i % 251 + 1));
    std::memcpy(src.addr_, fm.data(), fm.size() * 2);
    const uint8_t pads[4] = {uint8_t(cv.pl), uint8_t(cv.pr), uint8_t(cv.pt), uint8_t(cv.pb)};
    LoadData3DParamsV2<half> p(pads, cv.H, cv.W, cv.C, K, mExt, 0, 0, cv.sW, cv.sH, cv.Wk, cv.Hk, cv.dW, cv.dH, false, false,
                               half(7.5f));
    const size_t outN = size_t(mExt) * K;
    for (size_t i = 0; i < outN + 256; ++i) dst.addr_[i] = half(-3.0f);
    LoadData(dst, src, p);
    int bad = 0, npad = 0;
    for (int r = 0; r < M; ++r)
        for (int c = 0; c < K; ++c) {
            bool padded;
            half want = im2col_ref(cv, fm, r, c, half(7.5f), &padded);
            npad += padded;
            bad += !same_half(zz_at(dst.addr_, r, c, K), want);
        }
    CHECK_MSG(bad == 0, "%d img2col mismatches", bad);
    CHECK(npad > 100);                                              // the padding value is visible
    CHECK(float(zz_at(dst.addr_, 0, 0, K)) == 7.5f);                // (oh, ow) = (0, 0), tap (0, 0): top-left pad
    CHECK(float(dst.addr_[outN]) == -3.0f);                         // nothing past 2 x 12 fractals
    std::vector<half> ref(dst.addr_, dst.addr_ + outN);
    auto same_as_ref = [&](const half* d) { return std::memcmp(d, ref.data(), outN * 2) == 0; };

    // ---- the register form: SetFmatrix + SetLoadDataPaddingValue, the parameters' fmatrix / pad ignored ----
    LoadData3DParamsV2<half> junk = p;
    junk.l1H = 9; junk.l1W = 4; junk.padList[0] = junk.padList[2] = 0; junk.padValue = half(1.0f);
    new_kernel();
    SetFmatrix(cv.H, cv.W, pads, FmatrixMode::FMATRIX_LEFT);
    SetLoadDataPaddingValue(half(7.5f));
    for (size_t i = 0; i < outN; ++i) dst.addr_[i] = half(-3.0f);
    LoadData<half, CFG_REG_BOTH>(dst, src, junk);
    CHECK(same_as_ref(dst.addr_));
    // the parameter form loads the registers: a register-form load after it sees its values
    new_kernel();
    LoadData(dst, src, p);
    for (size_t i = 0; i < outN; ++i) dst.addr_[i] = half(-3.0f);
    LoadData<half, CFG_REG_BOTH>(dst, src, junk);
    CHECK(same_as_ref(dst.addr_));
    // the parameters do matter in the parameter form (the check above can fail)
    LoadData(dst, src, junk);
    CHECK(!same_as_ref(dst.addr_));
    // mixed: fmatrix from the parameters, pad value from the register (3) and the other way round
    SetLoadDataPaddingValue(half(3.0f));
    LoadData<half, CFG_REG_PAD>(dst, src, p);
    bad = 0;
    for (int r = 0; r < M; ++r)
        for (int c = 0; c < K; ++c) bad += !same_half(zz_at(dst.addr_, r, c, K), im2col_ref(cv, fm, r, c, half(3.0f)));
    CHECK(bad == 0);
    SetFmatrix(cv.H, cv.W, pads, FmatrixMode::FMATRIX_LEFT);
    LoadData<half, CFG_REG_FM>(dst, src, [&] { auto q = junk; q.padValue = half(7.5f); return q; }());
    CHECK(same_as_ref(dst.addr_));
    // v2 Pro: extents and filter packed, FMATRIX and pad from the registers
    {
        LoadData3DParamsV2Pro pro;
        pro.channelSize = cv.C;
        pro.extConfig = (uint64_t(0) << 48) | (uint64_t(0) << 32) | (uint64_t(mExt) << 16) | uint64_t(K);
        pro.filterConfig = (uint64_t(cv.dH) << 40) | (uint64_t(cv.dW) << 32) | (uint64_t(cv.Hk) << 24) | (uint64_t(cv.Wk) << 16) |
                           (uint64_t(cv.sH) << 8) | uint64_t(cv.sW);
        SetLoadDataPaddingValue(half(7.5f));
        for (size_t i = 0; i < outN; ++i) dst.addr_[i] = half(-3.0f);
        LoadData(dst, src, pro);
        CHECK(same_as_ref(dst.addr_));
        // kStartPt / mStartPt select a window of the img2col matrix
        pro.extConfig = (uint64_t(2) << 48) | (uint64_t(48) << 32) | (uint64_t(16) << 16) | uint64_t(32);
        LoadData(dst, src, pro);
        bad = 0;
        for (int r = 0; r < M - 2; ++r)
            for (int c = 0; c < 32; ++c) bad += !same_half(zz_at(dst.addr_, r, c, 32), im2col_ref(cv, fm, r + 2, c + 48, half(7.5f)));
        CHECK(bad == 0);
    }
    // registers unset: the register forms refuse to run on stale state
    new_kernel();
    CHECK(has(throws([&] { LoadData<half, CFG_REG_BOTH>(dst, src, junk); }), "FMATRIX register not set"));
    CHECK(has(throws([&] { LoadData3DParamsV2Pro pro(cv.C, false, false, false, false, false, uint64_t(mExt) << 16 | K, 0x10101010101ull);
                           LoadData(dst, src, pro); }), "FMATRIX register not set"));
    SetFmatrix(cv.H, cv.W, pads, FmatrixMode::FMATRIX_LEFT);
    CHECK(has(throws([&] { LoadData<half, CFG_REG_BOTH>(dst, src, junk); }), "padding register not set"));
    {   // without padding in the window no pad value is needed
        const uint8_t nopad[4] = {0, 0, 0, 0};
        SetFmatrix(cv.H, cv.W, nopad, FmatrixMode::FMATRIX_LEFT);
        LoadData3DParamsV2<half> q(nopad, 1, 1, 16, 16, 16, 0, 0, 1, 1, 1, 1, 1, 1, false, false, half(0.0f));
        CHECK(throws([&] { LoadData<half, CFG_REG_BOTH>(dst, src, q); }).empty());
    }

    // ---- a 2D matrix through img2col (1 x 1 filter, no pad, stride 1): the documented 2D use ----
    // L0A non-transposed equals the LoadData 2D Nz -> Zz path; L0B equals the 2D transposing path (Zn)
    {
        new_kernel();
        const uint32_t rows = 32, cols = 48;
        std::vector<half> g(rows * cols);
        for (size_t i = 0; i < g.size(); ++i) g[i] = half(float(int(i % 509) - 254));
        GlobalTensor<half> gg; gg.SetGlobalBuffer(g.data(), g.size());
        DataCopy(src, gg, Nd2NzParams(1, rows, cols, 0, cols, rows, 1, 0));   // Nz: 3 column blocks of 32 rows
        const uint8_t z[4] = {0, 0, 0, 0};
        LoadData3DParamsV2<half> q(z, 1, rows, cols, cols, rows, 0, 0, 1, 1, 1, 1, 1, 1, false, false, half(0.0f));
        LocalTensor<half> d3 = dst, d2 = dst[8192];
        LoadData(d3, src, q);
        for (uint32_t i = 0; i < rows / 16; ++i)
            LoadData(d2[i * (cols / 16) * 256], src, LoadData2DParams(i, cols / 16, rows / 16, 0, 0, false, 0));
        CHECK(std::memcmp(d3.addr_, d2.addr_, rows * cols * 2) == 0);
        bad = 0;
        for (uint32_t r = 0; r < rows; ++r)
            for (uint32_t c = 0; c < cols; ++c) bad += !same_half(zz_at(d3.addr_, r, c, cols), g[r * cols + c]);
        CHECK(bad == 0);
        LocalTensor<half> e3 = b2.Get<half>(), e2 = e3[8192];
        LoadData(e3, src, q);   // into L0B: B = the matrix (K = rows), Zn
        for (uint32_t i = 0; i < rows / 16; ++i)
            LoadData(e2[i * (cols / 16) * 256], src, LoadData2DParams(i, cols / 16, rows / 16, 0, 0, true, 0));
        CHECK(std::memcmp(e3.addr_, e2.addr_, rows * cols * 2) == 0);
        bad = 0;
        for (uint32_t k = 0; k < rows; ++k)
            for (uint32_t n = 0; n < cols; ++n)
                bad += !same_half(e3.addr_[(size_t(k / 16) * (cols / 16) + n / 16) * 256 + (n % 16) * 16 + k % 16], g[k * cols + n]);
        CHECK(bad == 0);
    }
    // ---- the documented b32 transpose: A^T (k x m) in L1 -> A (m x k) in L0A (Zz), then a float Mmad ----
    {
        new_kernel();
        TPipe pp;
        TBuf<TPosition::A1> f1; TBuf<TPosition::A2> f2; TBuf<TPosition::B2> fb2; TBuf<TPosition::CO1> fc;
        pp.InitBuffer(f1, 8192); pp.InitBuffer(f2, 8192); pp.InitBuffer(fb2, 8192); pp.InitBuffer(fc, 8192);
        const uint32_t m = 20, k = 24, n = 16, mA = 24;   // m padded to whole C0 = 8 channel blocks
        std::vector<float> At(k * m), B(k * n);
        for (uint32_t i = 0; i < k * m; ++i) At[i] = float(int(i * 7 % 23) - 11) * 0.25f;   // At[kk][i] = A[i][kk]
        for (uint32_t i = 0; i < k * n; ++i) B[i] = float(int(i * 5 % 17) - 8) * 0.5f;
        GlobalTensor<float> gt; gt.SetGlobalBuffer(At.data(), At.size());
        LocalTensor<float> l1 = f1.Get<float>(), l0a = f2.Get<float>(), l0b = fb2.Get<float>(), l0c = fc.Get<float>();
        DataCopy(l1, gt, Nd2NzParams(1, k, m, 0, m, k, 1, 0));   // Nz of [k x m]: k positions, m (-> 24) channels
        const uint8_t z[4] = {0, 0, 0, 0};
        LoadData3DParamsV2<float> q(z, 1, k, mA, mA, k, 0, 0, 1, 1, 1, 1, 1, 1, true, false, 0.0f);
        LoadData(l0a, l1, q);
        for (uint32_t kk = 0; kk < k; ++kk)
            for (uint32_t j = 0; j < n; ++j) l0b.addr_[zn(kk, j, 1)] = B[kk * n + j];
        MmadParams mp; mp.m = m; mp.n = n; mp.k = k;
        Mmad(l0c, l0a, l0b, mp);
        bad = 0;
        for (uint32_t i = 0; i < m; ++i)
            for (uint32_t j = 0; j < n; ++j) {
                double ref = 0;
                for (uint32_t kk = 0; kk < k; ++kk) ref += double(At[kk * m + i]) * B[kk * n + j];
                bad += std::fabs(ref - l0c.addr_[nz(i, j, 2)]) > 1e-4;
            }
        CHECK_MSG(bad == 0, "%d transposed-load products differ", bad);
        // without enTranspose the same load is the un-transposed matrix: the product differs
        q.enTranspose = false;
        LoadData(l0a, l1, q);
        Mmad(l0c, l0a, l0b, mp);
        double e = 0;
        for (uint32_t i = 0; i < m; ++i) {
            double ref = 0;
            for (uint32_t kk = 0; kk < k; ++kk) ref += double(At[kk * m + i]) * B[kk * n];
            e = std::max(e, std::fabs(ref - l0c.addr_[nz(i, 0, 2)]));
        }
        CHECK(e > 1e-2);
    }
    // ---- SetLoadDataRepeat: iterations stacked along M (mode 0) or K (mode 1), repeatStride in 16 rows / C0 columns ----
    {
        new_kernel();
        const Conv c2{64, 8, 8, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0};   // 64 positions x 64 channels, a plain matrix
        std::vector<half> f2(size_t(64) * 64);
        for (size_t i = 0; i < f2.size(); ++i) f2[i] = half(float(int(i % 1021) - 510));
        std::memcpy(src.addr_, f2.data(), f2.size() * 2);
        const uint8_t z[4] = {0, 0, 0, 0};
        LoadData3DParamsV2<half> q(z, 8, 8, 64, 16, 16, 16, 0, 1, 1, 1, 1, 1, 1, false, false, half(0.0f));
        for (int i = 0; i < 8192; ++i) dst.addr_[i] = half(-3.0f);
        SetLoadDataRepeat({2, 2, 0});   // two iterations, the second 2 x 16 rows further
        LoadData(dst, src, q);
        bad = 0;
        for (int it = 0; it < 2; ++it)
            for (int r = 0; r < 16; ++r)
                for (int c = 0; c < 16; ++c)
                    bad += !same_half(zz_at(dst.addr_, it * 16 + r, c, 16), im2col_ref(c2, f2, it * 32 + r, 16 + c, half(0.0f)));
        CHECK(bad == 0 && float(dst.addr_[512]) == -3.0f);
        SetLoadDataRepeat({1, 3, 1});   // three iterations along K, each C0 columns further: columns 16..63
        LoadData(dst, src, q);
        bad = 0;
        for (int it = 0; it < 3; ++it)
            for (int r = 0; r < 16; ++r)
                for (int c = 0; c < 16; ++c)
                    bad += !same_half(zz_at(dst.addr_, r, it * 16 + c, 48), im2col_ref(c2, f2, r, 16 + it * 16 + c, half(0.0f)));
        CHECK(bad == 0);
        for (int i = 0; i < 8192; ++i) dst.addr_[i] = half(-3.0f);
        SetLoadDataRepeat({1, 0, 0});   // repeatTime 0: a no-op
        LoadData(dst, src, q);
        CHECK(float(dst.addr_[0]) == -3.0f && float(dst.addr_[255]) == -3.0f);
        SetLoadDataRepeat({0, 1, 0});   // one iteration again: the plain load
        LoadData(dst, src, q);
        CHECK(same_half(zz_at(dst.addr_, 5, 3, 16), im2col_ref(c2, f2, 5, 19, half(0.0f))));
        CHECK(has(throws([] { SetLoadDataRepeat({0, 1, 2}); }), "repeatMode"));
        CHECK(has(throws([] { SetLoadDataRepeat({0, 1, 0, 3}); }), "dstStride"));
    }
    // ---- SetLoadDataBoundary: reads at or past the boundary wrap to the start of L1 ----
    {
        new_kernel();
        std::vector<half> l1img(2048);
        for (int i = 0; i < 512; ++i) l1img[i] = half(float(-1 - i));        // L1 bytes [0, 1024): X
        for (int i = 512; i < 1024; ++i) l1img[i] = half(float(i));          // [1024, 2048): Y
        for (int i = 1024; i < 2048; ++i) l1img[i] = half(float(4000 + i));  // [2048, 4096): Z
        std::memcpy(src.addr_, l1img.data(), l1img.size() * 2);
        const uint8_t z[4] = {0, 0, 0, 0};
        // 64 positions x 16 channels (2 KiB) from L1 offset 1024: rows 0..31 from Y, rows 32..63 past 2048 B
        LoadData3DParamsV2<half> q(z, 1, 64, 16, 16, 64, 0, 0, 1, 1, 1, 1, 1, 1, false, false, half(0.0f));
        LocalTensor<half> s1k = src[512];
        SetLoadDataBoundary(2048);
        LoadData(dst, s1k, q);
        bad = 0;
        for (int r = 0; r < 64; ++r)
            for (int c = 0; c < 16; ++c) {
                int at = 512 + r * 16 + c;                      // element index in L1
                if (at >= 1024) at -= 1024;                     // wrapped by 2048 B
                bad += !same_half(zz_at(dst.addr_, r, c, 16), l1img[at]);
            }
        CHECK(bad == 0);
        CHECK(float(zz_at(dst.addr_, 40, 0, 16)) < 0);        // an X value, not Z
        SetLoadDataBoundary(0);                                 // no boundary: the Z values
        LoadData(dst, s1k, q);
        CHECK(same_half(zz_at(dst.addr_, 40, 0, 16), l1img[512 + 40 * 16]));
        SetLoadDataBoundary(1024);
        CHECK(has(throws([&] { LoadData(dst, s1k, q); }), "boundary"));   // src itself outside the boundary
        CHECK(has(throws([] { SetLoadDataBoundary(1000); }), "1024"));
    }
    // ---- strict rules ----
    {
        new_kernel();
        const uint8_t z[4] = {0, 0, 0, 0};
        LoadData3DParamsV2<half> q(z, 8, 4, 64, 64, 16, 0, 0, 1, 1, 1, 1, 1, 1, false, false, half(0.0f));   // S: 32 x 64
        CHECK(throws([&] { LoadData(dst, src, q); }).empty());
        auto fails = [&](auto mod, const char* what) {
            auto r = q; mod(r);
            return has(throws([&] { LoadData(dst, src, r); }), what);
        };
        CHECK(fails([](auto& r) { r.kStartPt = 8; }, "kStartPt"));
        CHECK(fails([](auto& r) { r.kExtension = 24; }, "kExtension"));   // partial fractal column, not the last
        CHECK(fails([](auto& r) { r.mExtension = 8; }, "mExtension"));    // partial fractal row, not the last
        CHECK(fails([](auto& r) { r.enSmallK = true; }, "enSmallK"));
        CHECK(fails([](auto& r) { r.fMatrixCtrl = true; }, "fMatrixCtrl"));
        CHECK(fails([](auto& r) { r.channelSize = 20; r.kExtension = 20; }, "channelSize 20"));
        CHECK(fails([](auto& r) { r.channelSize = 4; r.kExtension = 4; }, "not simulated"));
        CHECK(fails([](auto& r) { r.strideW = 64; }, "strideW"));
        CHECK(fails([](auto& r) { r.l1H = 40000; }, "32767"));
        CHECK(has(throws([&] { LoadData(src[4096], src, q); }), "L0A"));   // destination in L1
        CHECK(has(throws([&] { SetFmatrix(4, 4, z, FmatrixMode::FMATRIX_RIGHT); }), "FMATRIX_LEFT"));
        CHECK(has(throws([&] { SetFmatrix(0, 4, z, FmatrixMode::FMATRIX_LEFT); }), "l1H"));
        // no-ops: l1H 0, channelSize 0, kExtension 0 leave the destination alone
        for (int i = 0; i < 1024; ++i) dst.addr_[i] = half(-3.0f);
        for (auto mod : {+[](LoadData3DParamsV2<half>& r) { r.l1H = 0; }, +[](LoadData3DParamsV2<half>& r) { r.channelSize = 0; },
                         +[](LoadData3DParamsV2<half>& r) { r.kExtension = 0; }, +[](LoadData3DParamsV2<half>& r) { r.filterW = 0; }}) {
            auto r = q; mod(r);
            LoadData(dst, src, r);
        }
        CHECK(float(dst.addr_[0]) == -3.0f && float(dst.addr_[1023]) == -3.0f);
        // 8-bit data: not into L0B, no transpose into L0A
        LocalTensor<int8_t> s8 = a1.Get<int8_t>(), d8a = a2.Get<int8_t>(), d8b = b2.Get<int8_t>();
        LoadData3DParamsV2<int8_t> q8(z, 4, 4, 32, 32, 16, 0, 0, 1, 1, 1, 1, 1, 1, false, false, int8_t(0));
        CHECK(throws([&] { LoadData(d8a, s8, q8); }).empty());
        CHECK(has(throws([&] { LoadData(d8b, s8, q8); }), "8-bit"));
        q8.enTranspose = true;
        CHECK(has(throws([&] { LoadData(d8a, s8, q8); }), "8-bit"));
        as_aiv();
        CHECK(has(throws([&] { SetLoadDataPaddingValue(half(1.0f)); }), "vector core"));
        as_aic();
    }
}

// ------------------------------------------------------------------------------------ L0C -> GM registers ------
static void test_fixpipe() {
    new_kernel();
    TPipe pipe;
    TBuf<TPosition::CO1> co1; TBuf<TPosition::C2PIPE2GM> fbuf; TBuf<TPosition::C1> c1;
    pipe.InitBuffer(co1, 64 * 1024); pipe.InitBuffer(fbuf, 2048); pipe.InitBuffer(c1, 1024);
    LocalTensor<float> lc = co1.Get<float>();
    // three NZ matrices of 20 x 32 (srcStride 32 rows per column block), 5 x 1024 B apart in L0C
    const uint32_t nd = 3, m = 20, n = 32, srcStride = 32, srcNd = 5, dstStride = 40, dstNd = 807;
    auto val = [](uint32_t q, uint32_t i, uint32_t j) { return float(q * 10000 + i * 100 + j) * (i % 3 == 1 ? -1.0f : 1.0f); };
    for (uint32_t i = 0; i < 16384; ++i) lc.addr_[i] = -7777.0f;
    for (uint32_t q = 0; q < nd; ++q)
        for (uint32_t i = 0; i < m; ++i)
            for (uint32_t j = 0; j < n; ++j) lc.addr_[q * srcNd * 256 + ((j / 16) * srcStride + i) * 16 + j % 16] = val(q, i, j);
    const size_t outN = 3000;
    auto expect = [&](uint32_t count, uint32_t dnd, uint32_t dS, bool relu) {
        std::vector<float> e(outN, -1.0f);
        for (uint32_t q = 0; q < count; ++q)
            for (uint32_t i = 0; i < m; ++i)
                for (uint32_t j = 0; j < n; ++j) {
                    float v = val(q, i, j);
                    e[q * dnd + i * dS + j] = relu && v < 0 ? 0.0f : v;
                }
        return e;
    };
    std::vector<float> out(outN);
    GlobalTensor<float> gout; gout.SetGlobalBuffer(out.data(), out.size());
    auto fresh = [&] { std::fill(out.begin(), out.end(), -1.0f); };

    // ---- NZ2ND with ndNum 3 and strides from SetFixpipeNz2ndFlag ----
    SetFixpipeNz2ndFlag(nd, srcNd, dstNd);
    fresh();
    DataCopy(gout, lc, DataCopyCO12DstParams(n, m, dstStride, srcStride, QuantMode_t::NoQuant, 0, false, true));
    CHECK(out == expect(nd, dstNd, dstStride, false));
    SetFixpipeNz2ndFlag(1, 0, 1);   // one matrix: the register decides
    fresh();
    DataCopy(gout, lc, DataCopyCO12DstParams(n, m, dstStride, srcStride, QuantMode_t::NoQuant, 0, false, true));
    CHECK(out == expect(1, dstNd, dstStride, false));
    // ReLU (reluPre 1) on the way
    SetFixpipeNz2ndFlag(nd, srcNd, dstNd);
    fresh();
    DataCopy(gout, lc, DataCopyCO12DstParams(n, m, dstStride, srcStride, QuantMode_t::NoQuant, 1, false, true));
    CHECK(out == expect(nd, dstNd, dstStride, true));
    // interleaved ND matrices (side by side, rows 64 apart): not an overlap
    SetFixpipeNz2ndFlag(2, srcNd, 32);
    fresh();
    DataCopy(gout, lc, DataCopyCO12DstParams(n, m, 64, srcStride, QuantMode_t::NoQuant, 0, false, true));
    CHECK(out == expect(2, 32, 64, false));

    // ---- Fixpipe: the same move from its parameters, and it loads the registers for a later DataCopy ----
    new_kernel();
    FixpipeParamsV220 fp(n, m, srcStride, dstStride, false);
    fp.ndNum = nd; fp.srcNdStride = srcNd; fp.dstNdStride = dstNd;
    fresh();
    Fixpipe<float, float, CFG_ROW_MAJOR>(gout, lc, fp);
    CHECK(out == expect(nd, dstNd, dstStride, false));
    fresh();
    DataCopy(gout, lc, DataCopyCO12DstParams(n, m, dstStride, srcStride, QuantMode_t::NoQuant, 0, false, true));
    CHECK(out == expect(nd, dstNd, dstStride, false));
    fp.ndNum = 0;                                   // ndNum 0: a no-op (with a warning)
    fresh();
    Fixpipe<float, float, CFG_ROW_MAJOR>(gout, lc, fp);
    CHECK(out == std::vector<float>(outN, -1.0f));

    // ---- scalar quant from SetFixpipePreQuantFlag: int32 L0C -> half (DEQF16) / int8 (REQ8), float -> int8 ----
    new_kernel();
    LocalTensor<int32_t> li = co1.Get<int32_t>();
    for (uint32_t i = 0; i < 16; ++i)
        for (uint32_t j = 0; j < 16; ++j) li.addr_[i * 16 + j] = int32_t(i * 16 + j) * 3 - 300;   // one fractal
    std::vector<half> oh(256);
    std::vector<int8_t> o8(256);
    GlobalTensor<half> goh; goh.SetGlobalBuffer(oh.data(), oh.size());
    GlobalTensor<int8_t> go8; go8.SetGlobalBuffer(o8.data(), o8.size());
    SetFixpipeNz2ndFlag(1, 0, 1);
    auto deq = [&](float scale) {
        SetFixpipePreQuantFlag(uint64_t(fbits(scale)));
        DataCopy(goh, li, DataCopyCO12DstParams(16, 16, 16, 16, QuantMode_t::DEQF16, 0, false, true));
        int bad = 0;
        for (uint32_t i = 0; i < 256; ++i) bad += !same_half(oh[i], half(float(li.addr_[i]) * scale));
        return bad;
    };
    CHECK(deq(0.25f) == 0);
    CHECK(deq(2.0f) == 0);
    CHECK(float(oh[0]) == -600.0f);                 // the second scale is the one applied
    SetFixpipePreQuantFlag(uint64_t(fbits(0.5f)));
    DataCopy(go8, li, DataCopyCO12DstParams(16, 16, 16, 16, QuantMode_t::REQ8, 0, false, true));
    int bad = 0;
    for (uint32_t i = 0; i < 256; ++i)
        bad += o8[i] != int8_t(std::min(127.0f, std::max(-128.0f, std::nearbyint(float(li.addr_[i]) * 0.5f))));
    CHECK(bad == 0 && o8[0] == -128 && o8[255] == 127);
    for (uint32_t i = 0; i < 256; ++i) lc.addr_[i] = float(int(i) - 128) * 0.75f;
    SetFixpipePreQuantFlag(uint64_t(fbits(0.5f)));
    DataCopy(go8, lc, DataCopyCO12DstParams(16, 16, 16, 16, QuantMode_t::QF322B8_PRE, 0, false, true));
    bad = 0;
    for (uint32_t i = 0; i < 256; ++i) bad += o8[i] != int8_t(std::nearbyint(lc.addr_[i] * 0.5f));
    CHECK(bad == 0);
    for (uint32_t i = 0; i < 256; ++i) li.addr_[i] = int32_t(i) * 3 - 300;   // the int32 fractal again
    // a Fixpipe with a scalar mode loads the quant register
    FixpipeParamsV220 fq(16, 16, 16, 16, false);
    fq.quantPre = QuantMode_t::DEQF16; fq.deqScalar = fbits(-1.0f);
    Fixpipe<half, int32_t, CFG_ROW_MAJOR>(goh, li, fq);
    DataCopy(goh, li, DataCopyCO12DstParams(16, 16, 16, 16, QuantMode_t::DEQF16, 0, false, true));
    CHECK(float(oh[0]) == 300.0f);

    // ---- tensor quant from SetFixPipeConfig: per-column scales in the Fixpipe buffer ----
    LocalTensor<uint64_t> fbt = fbuf.Get<uint64_t>();
    for (uint32_t j = 0; j < 256; ++j) fbt.addr_[j] = fbits(float(j + 1) * 0.125f);
    SetFixPipeConfig(fbt);
    DataCopy(goh, li, DataCopyCO12DstParams(16, 16, 16, 16, QuantMode_t::VDEQF16, 0, false, true));
    bad = 0;
    for (uint32_t i = 0; i < 16; ++i)
        for (uint32_t j = 0; j < 16; ++j) bad += !same_half(oh[i * 16 + j], half(float(li.addr_[i * 16 + j]) * float(j + 1) * 0.125f));
    CHECK(bad == 0);
    SetFixPipeConfig(LocalTensor<uint64_t>(), fbt[16]);   // the two-tensor form (reluPre reserved): scales from column 16 on
    DataCopy(goh, li, DataCopyCO12DstParams(16, 16, 16, 16, QuantMode_t::VDEQF16, 0, false, true));
    CHECK(same_half(oh[3], half(float(li.addr_[3]) * 20 * 0.125f)));
    // NZ destination (nz2ndEn false): dstStride counts 32 B blocks between column blocks; the NZ2ND registers unused
    {
        std::vector<float> onz(2048, -1.0f);
        GlobalTensor<float> gnz; gnz.SetGlobalBuffer(onz.data(), onz.size());
        for (uint32_t i = 0; i < 1024; ++i) lc.addr_[i] = float(i);
        SetFixpipeNz2ndFlag(3, 1, 1);
        DataCopy(gnz, lc, DataCopyCO12DstParams(32, 16, 80, 16, QuantMode_t::NoQuant, 0, false, false));
        CHECK(onz[0] == 0.0f && onz[255] == 255.0f && onz[640] == 256.0f && onz[256] == -1.0f && onz[896] == -1.0f);
    }

    // ---- strict rules ----
    new_kernel();
    auto dc = [&](QuantMode_t qm, bool nz2nd) {
        return throws([&] { DataCopy(goh, li, DataCopyCO12DstParams(16, 16, 16, 16, qm, 0, false, nz2nd)); });
    };
    CHECK(has(dc(QuantMode_t::DEQF16, false), "quant register not set"));
    CHECK(has(dc(QuantMode_t::VDEQF16, false), "quant tensor not set"));
    SetFixpipePreQuantFlag(fbits(1.0f));
    CHECK(has(dc(QuantMode_t::DEQF16, true), "NZ2ND register not set"));
    CHECK(dc(QuantMode_t::DEQF16, false).empty());
    CHECK(has(dc(QuantMode_t::NoQuant, false), "quantPre"));        // int32 -> half needs a conversion mode
    LocalTensor<uint64_t> l1t = c1.Get<uint64_t>();
    CHECK(has(throws([&] { SetFixPipeConfig(l1t); }), "Fixpipe buffer"));
    CHECK(throws([&] { SetFixPipeConfig(co1.Get<uint64_t>(), true); }).empty());   // unit-flag clear on an L0C tensor
    SetFixPipeConfig(fbt[240]);                                       // 16 scales left in the 2 KiB buffer
    CHECK(has(throws([&] { DataCopy(goh, li, DataCopyCO12DstParams(32, 16, 32, 16, QuantMode_t::VDEQF16, 0, false, false)); }),
              "out of bounds"));
    CHECK(has(throws([] { SetFixpipeNz2ndFlag(0, 1, 1); }), "ndNum"));
    CHECK(has(throws([] { SetFixpipeNz2ndFlag(2, 0, 100); }), "srcNdStride"));
    CHECK(has(throws([] { SetFixpipeNz2ndFlag(2, 513, 100); }), "srcNdStride"));
    CHECK(has(throws([] { SetFixpipeNz2ndFlag(1, 0, 0); }), "dstNdStride"));
    SetFixpipeNz2ndFlag(2, srcNd, 30);                               // matrix 1 starts 30 elements in: rows collide
    CHECK(has(throws([&] { DataCopy(gout, lc, DataCopyCO12DstParams(n, m, dstStride, srcStride, QuantMode_t::NoQuant, 0, false,
                                                                     true)); }), "overlap"));
    SetFixpipeNz2ndFlag(2, srcNd, 19 * dstStride + 31);              // matrix 1's first row hits matrix 0's last row
    CHECK(has(throws([&] { DataCopy(gout, lc, DataCopyCO12DstParams(n, m, dstStride, srcStride, QuantMode_t::NoQuant, 0, false,
                                                                     true)); }), "overlap"));
    SetFixpipeNz2ndFlag(2, srcNd, 19 * dstStride + 32);              // just clear of it
    CHECK(throws([&] { DataCopy(gout, lc, DataCopyCO12DstParams(n, m, dstStride, srcStride, QuantMode_t::NoQuant, 0, false,
                                                                 true)); }).empty());
    {
        DataCopyCO12DstParams cp(16, 16, 16, 16, QuantMode_t::DEQF16, 0, false, false);
        cp.clipReluPre = 1;
        CHECK(has(throws([&] { DataCopy(goh, li, cp); }), "clipReluPre"));
        cp.clipReluPre = 0; cp.reluPre = 2;
        CHECK(has(throws([&] { DataCopy(goh, li, cp); }), "reluPre"));
    }
    as_aiv();
    CHECK(has(throws([] { SetFixpipePreQuantFlag(0); }), "vector core"));
    as_aic();
}

int main() {
    ascsim::bind_test_core(&g_ctx);
    test_hf32();
    test_load3d();
    test_fixpipe();
    std::printf("PASS %d FAIL %d\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
