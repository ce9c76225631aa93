// Unit tests of ascsim's level-2/3 kernel APIs on one simulated core bound to the test thread: the cube data path
// (Nd2Nz, LoadData, LoadDataWithTranspose, Mmad incl. GEMV and bias, Fixpipe quant/relu), raw intrinsics,
// high-level math with temp-buffer checks, and the strict checks of all of them.
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
// get_acc_val() answers the accumulator register: a float sum's bits in its low 32 bits.
static float acc_float(int64_t reg) { float f; uint32_t lo = uint32_t(uint64_t(reg)); std::memcpy(&f, &lo, 4); return f; }

// C[m][n] = A[m][k] * B[k][n] through the whole cube path, tiles of at most 128 x 128 x 128.
static std::vector<float> cube_gemm(const std::vector<half>& A, const std::vector<half>& B, uint32_t m, uint32_t k, uint32_t n,
                                    bool gemv_layout) {
    as_aic();
    TPipe pipe;
    TBuf<TPosition::A1> a1; TBuf<TPosition::B1> b1; TBuf<TPosition::A2> a2; TBuf<TPosition::B2> b2; TBuf<TPosition::CO1> c1;
    pipe.InitBuffer(a1, 128 * 128 * 2); pipe.InitBuffer(b1, 128 * 128 * 2);
    pipe.InitBuffer(a2, 128 * 128 * 2); pipe.InitBuffer(b2, 128 * 128 * 2); pipe.InitBuffer(c1, 128 * 128 * 4);
    GlobalTensor<half> ga, gb; GlobalTensor<float> gc;
    std::vector<float> C(size_t(m) * n, -1.0f);
    ga.SetGlobalBuffer(const_cast<half*>(A.data()), A.size());
    gb.SetGlobalBuffer(const_cast<half*>(B.data()), B.size());
    gc.SetGlobalBuffer(C.data(), C.size());
    uint32_t mA = (m + 15) / 16 * 16, nA = (n + 15) / 16 * 16, kA = (k + 15) / 16 * 16;
    LocalTensor<half> la1 = a1.Get<half>(), lb1 = b1.Get<half>(), la2 = a2.Get<half>(), lb2 = b2.Get<half>();
    LocalTensor<float> lc = c1.Get<float>();
    DataCopy(la1, ga, Nd2NzParams(1, m, k, 0, k, mA, 1, 0));
    DataCopy(lb1, gb, Nd2NzParams(1, k, n, 0, n, kA, 1, 0));
    if (gemv_layout) {   // m == 1: L0A holds the plain row of k elements
        for (uint32_t kk = 0; kk < k; ++kk) la2.addr_[kk] = A[kk];
    } else {
        for (uint32_t i = 0; i < mA / 16; ++i)
            LoadData(la2[i * (kA / 16) * 256], la1, LoadData2DParams(i, kA / 16, mA / 16, 0, 0, false, 0));
    }
    for (uint32_t i = 0; i < kA / 16; ++i)
        LoadData(lb2[i * (nA / 16) * 256], lb1, LoadData2DParams(i, nA / 16, kA / 16, 0, 0, true, 0));
    MmadParams mp; mp.m = m; mp.n = n; mp.k = k; mp.cmatrixInitVal = true;
    Mmad(lc, la2, lb2, mp);
    FixpipeParamsV220 fp; fp.nSize = n; fp.mSize = m; fp.srcStride = mA; fp.dstStride = n;
    Fixpipe<float, float, CFG_ROW_MAJOR>(gc, lc, fp);
    return C;
}

int main() {
    ascsim::bind_test_core(&g_ctx);
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> U(-1, 1);

    // --- GEMM through Nd2Nz / LoadData / Mmad / Fixpipe equals the naive product (aligned, ragged, GEMV) ---
    const uint32_t shapes[][3] = {{32, 48, 16}, {30, 70, 40}, {1, 33, 17}, {128, 128, 128}, {17, 16, 100}};
    for (auto& s : shapes) {
        uint32_t m = s[0], k = s[1], n = s[2];
        std::vector<half> A(size_t(m) * k), B(size_t(k) * n);
        for (auto& x : A) x = half(U(rng));
        for (auto& x : B) x = half(U(rng));
        std::vector<float> C = cube_gemm(A, B, m, k, n, m == 1);
        double err = 0;
        for (uint32_t i = 0; i < m; ++i)
            for (uint32_t j = 0; j < n; ++j) {
                double ref = 0;
                for (uint32_t kk = 0; kk < k; ++kk) ref += double(float(A[i * k + kk])) * float(B[kk * n + j]);
                err = std::max(err, std::fabs(ref - C[i * n + j]));
            }
        CHECK(err < 1e-3);
    }

    // --- Nd2Nz pads the tail of a C0 block with zeros; Zz / Zn / Nz fractal placement ---
    {
        as_aic();
        TPipe pipe; TBuf<TPosition::A1> a1; pipe.InitBuffer(a1, 4096);
        std::vector<half> g(3 * 20);
        for (int i = 0; i < 60; ++i) g[i] = half(float(i));
        GlobalTensor<half> gg; gg.SetGlobalBuffer(g.data(), g.size());
        LocalTensor<half> l = a1.Get<half>();
        DataCopy(l, gg, Nd2NzParams(1, 3, 20, 0, 20, 16, 1, 0));
        CHECK(float(l.addr_[1 * 16 + 2]) == 22.0f);             // row 1, col 2 in column block 0
        CHECK(float(l.addr_[16 * 16 + 0 * 16 + 3]) == 19.0f);   // row 0, col 19 in column block 1
        CHECK(float(l.addr_[16 * 16 + 0 * 16 + 4]) == 0.0f);    // col 20 padded with zero
    }
    // --- LoadDataWithTranspose (b16): one 16x16 block transposed ---
    {
        as_aic();
        TPipe pipe; TBuf<TPosition::A1> a1; TBuf<TPosition::B2> b2; pipe.InitBuffer(a1, 512); pipe.InitBuffer(b2, 512);
        LocalTensor<half> s = a1.Get<half>(), d = b2.Get<half>();
        for (int i = 0; i < 256; ++i) s.addr_[i] = half(float(i));
        LoadDataWithTranspose(d, s, LoadData2dTransposeParams(0, 1, 0, 0, 0));
        CHECK(float(d.addr_[3 * 16 + 5]) == float(5 * 16 + 3));
    }
    // --- DataCopy L1 -> BiasTable (docs: blockLen and dstGap in 64 B units on arch 2201, srcGap in 32 B; src half /
    //     float / int32, dst float / int32; half converts to float): same type, mixed half -> float, gaps, count form ---
    {
        as_aic();
        TPipe pipe; TBuf<TPosition::C1> l1; TBuf<TPosition::C2> bt;
        pipe.InitBuffer(l1, 4096); pipe.InitBuffer(bt, 1024);
        LocalTensor<float> sf = l1.Get<float>(), df = bt.Get<float>();
        LocalTensor<half> sh = l1.Get<half>();
        for (int i = 0; i < 256; ++i) df.addr_[i] = -7.0f;
        for (int i = 0; i < 64; ++i) sf.addr_[i] = float(i) * 0.25f;
        DataCopy(df, sf, DataCopyParams(1, 2, 0, 0));            // 2 x 64 B = 32 floats
        int bad = 0;
        for (int i = 0; i < 32; ++i) bad += df.addr_[i] != float(i) * 0.25f;
        CHECK(bad == 0 && df.addr_[32] == -7.0f);
        for (int i = 0; i < 256; ++i) df.addr_[i] = -7.0f;
        for (int i = 0; i < 128; ++i) sh.addr_[i] = half(float(i) - 60.5f);
        DataCopy(df, sh, DataCopyParams(1, 2, 0, 0));            // 2 x 64 B of half = 64 values, as float
        bad = 0;
        for (int i = 0; i < 64; ++i) bad += df.addr_[i] != float(i) - 60.5f;
        CHECK(bad == 0 && df.addr_[64] == -7.0f);
        for (int i = 0; i < 256; ++i) df.addr_[i] = -7.0f;
        DataCopy(df, sh, DataCopyParams(2, 1, 1, 1));            // 2 blocks of 32 half; src gap 32 B, dst gap 64 B
        bad = 0;
        for (int i = 0; i < 32; ++i) bad += df.addr_[i] != float(i) - 60.5f || df.addr_[48 + i] != float(48 + i) - 60.5f;
        for (int i = 32; i < 48; ++i) bad += df.addr_[i] != -7.0f;
        CHECK(bad == 0);
        for (int i = 0; i < 256; ++i) df.addr_[i] = -7.0f;
        for (int i = 0; i < 64; ++i) sf.addr_[i] = float(i) * 0.25f;   // sh shares the L1 buffer
        DataCopy(df, sf, 20u);                                   // 80 B rounds down to 64 B: 16 floats
        CHECK(df.addr_[15] == 15 * 0.25f && df.addr_[16] == -7.0f);
        CHECK(has(throws([&] { DataCopy(df[8], sf, DataCopyParams(1, 1, 0, 0)); }), "aligned"));   // dst 32 B in
        CHECK(has(throws([&] { DataCopy(df, sf, DataCopyParams(1, 17, 0, 0)); }), "out of bounds"));  // 1088 B > 1 KiB
        CHECK(throws([&] { DataCopy(df, sh, DataCopyParams(0, 4, 0, 0)); }).empty());                // blockCount 0: no-op
    }
    // --- DataCopy GM -> L1 (docs: count rounded down to 32 B; DataCopyParams blockLen / gaps in 32 B blocks; L1
    //     address 32 B-aligned, GM 1 B): the contiguous and the strided form, then into the BiasTable ---
    {
        as_aic();
        std::vector<half> g(512);
        for (int i = 0; i < 512; ++i) g[i] = half(float(i % 200) - 99.0f);
        GlobalTensor<half> gg; gg.SetGlobalBuffer(g.data(), g.size());
        TPipe pipe; TBuf<TPosition::A1> l1; TBuf<TPosition::C2> bt;
        pipe.InitBuffer(l1, 2048); pipe.InitBuffer(bt, 1024);
        LocalTensor<half> d = l1.Get<half>();
        for (int i = 0; i < 1024; ++i) d.addr_[i] = half(-1.0f);
        DataCopy(d, gg, 40u);                                    // 80 B -> 64 B: 32 halves
        CHECK(float(d.addr_[31]) == float(g[31]) && float(d.addr_[32]) == -1.0f);
        DataCopy(d[64], gg[16], DataCopyParams(2, 1, 1, 2));     // 2 x 16 halves; GM gap 16, L1 gap 32 elements
        int bad = 0;
        for (int i = 0; i < 16; ++i)
            bad += float(d.addr_[64 + i]) != float(g[16 + i]) || float(d.addr_[64 + 48 + i]) != float(g[48 + i]);
        for (int i = 16; i < 48; ++i) bad += float(d.addr_[64 + i]) != -1.0f;
        CHECK(bad == 0);
        CHECK(has(throws([&] { DataCopy(d[8], gg, 16u); }), "aligned"));   // L1 destination 16 B in
        LocalTensor<float> b = bt.Get<float>();
        DataCopy(b, d, DataCopyParams(1, 1, 0, 0));              // then L1 -> BiasTable, half -> float
        CHECK(b.addr_[0] == float(g[0]) && b.addr_[31] == float(g[31]));
    }
    // --- LoadDataWithTranspose (b32, two fractals per 16x16 block): dstGap counts from the end of an iteration's
    //     FIRST fractal (docs), so dstGap = 1 / dstFracGap = 0 lays the blocks out contiguously and dstGap = 0 /
    //     dstFracGap = repeat - 1 interleaves them (first fractals 0..r-1, second fractals r..2r-1) ---
    {
        as_aic();
        TPipe pipe; TBuf<TPosition::B1> b1; TBuf<TPosition::B2> b2;
        pipe.InitBuffer(b1, 4 * 1024); pipe.InitBuffer(b2, 8 * 1024);
        LocalTensor<float> s = b1.Get<float>(), d = b2.Get<float>();
        for (int i = 0; i < 1024; ++i) s.addr_[i] = float(i);
        for (int i = 0; i < 2048; ++i) d.addr_[i] = -1.0f;
        const int rep = 4, frac = 128;   // 4 square blocks; a fractal holds 128 floats
        LoadDataWithTranspose(d, s, LoadData2dTransposeParams(0, rep, 1, 1, 0));   // contiguous
        std::vector<float> contiguous(d.addr_, d.addr_ + 2 * rep * frac);
        CHECK(d.addr_[2 * rep * frac] == -1.0f);   // nothing written past 2 * rep fractals
        // square block 0 = source fractals 0 and 1 (16 rows x 8 columns each); its transpose's element (i, j) is the
        // source's (j, i): destination fractal 0 holds rows 0..15, columns 0..7 of the transpose
        CHECK(contiguous[0 * 8 + 1] == s.addr_[1 * 8 + 0] && contiguous[3 * 8 + 5] == s.addr_[5 * 8 + 3]);
        for (int i = 0; i < 2048; ++i) d.addr_[i] = -1.0f;
        LoadDataWithTranspose(d, s, LoadData2dTransposeParams(0, rep, 1, 0, rep - 1));   // interleaved
        int bad = 0;
        for (int r = 0; r < rep; ++r)
            for (int f = 0; f < 2; ++f)
                for (int e = 0; e < frac; ++e)
                    bad += d.addr_[(r + f * rep) * frac + e] != contiguous[(2 * r + f) * frac + e];
        CHECK(bad == 0 && d.addr_[2 * rep * frac] == -1.0f);
    }
    // --- LoadDataWithTranspose (b8, docs): two consecutive 16x32 fractals form one 32x32 square (the first above the
    //     second), the square is transposed and split again into two 16x32 fractals (rows 0..15, rows 16..31) ---
    {
        as_aic();
        TPipe pipe; TBuf<TPosition::B1> b1; TBuf<TPosition::B2> b2;
        pipe.InitBuffer(b1, 4 * 1024); pipe.InitBuffer(b2, 8 * 1024);
        LocalTensor<int8_t> s = b1.Get<int8_t>(), d = b2.Get<int8_t>();
        auto val = [](int blk, int row, int col) { return int8_t((blk * 37 + row * 5 + col) % 127); };
        const int rep = 2;
        for (int b = 0; b < rep; ++b)
            for (int i = 0; i < 32; ++i)
                for (int j = 0; j < 32; ++j) s.addr_[b * 1024 + i * 32 + j] = val(b, i, j);   // square b, row i, col j
        for (int i = 0; i < 8192; ++i) d.addr_[i] = -1;
        LoadDataWithTranspose(d, s, LoadData2dTransposeParams(0, rep, 1, 1, 0));   // contiguous: 2 fractals per square
        int bad = 0;
        for (int b = 0; b < rep; ++b)
            for (int i = 0; i < 32; ++i)
                for (int j = 0; j < 32; ++j) bad += d.addr_[b * 1024 + i * 32 + j] != val(b, j, i);
        CHECK(bad == 0 && d.addr_[rep * 1024] == -1);
        for (int i = 0; i < 8192; ++i) d.addr_[i] = -1;
        LoadDataWithTranspose(d, s, LoadData2dTransposeParams(0, rep, 1, 0, 2));   // dstFracGap 2: second fractal 3 x 512 B on
        bad = 0;
        for (int b = 0; b < rep; ++b)
            for (int f = 0; f < 2; ++f)
                for (int i = 0; i < 16; ++i)
                    for (int j = 0; j < 32; ++j) bad += d.addr_[(b + 3 * f) * 512 + i * 32 + j] != val(b, j, 16 * f + i);
        CHECK(bad == 0 && d.addr_[2 * 512] == -1 && d.addr_[5 * 512] == -1);
    }
    // --- Mmad with bias, accumulation, int8 -> int32 and Fixpipe DEQF16 / F322F16 + relu ---
    {
        as_aic();
        TPipe pipe; TBuf<TPosition::A2> a2; TBuf<TPosition::B2> b2; TBuf<TPosition::CO1> c1; TBuf<TPosition::C2> bt;
        pipe.InitBuffer(a2, 512); pipe.InitBuffer(b2, 512); pipe.InitBuffer(c1, 1024); pipe.InitBuffer(bt, 64);
        LocalTensor<half> la = a2.Get<half>(), lb = b2.Get<half>();
        LocalTensor<float> lc = c1.Get<float>(), lbias = bt.Get<float>();
        for (int i = 0; i < 256; ++i) { la.addr_[i] = half(i % 16 == i / 16 ? 1.0f : 0.0f); lb.addr_[i] = half(-1.0f); }
        for (int j = 0; j < 16; ++j) lbias.addr_[j] = float(j);
        MmadParams mp; mp.m = 16; mp.n = 16; mp.k = 16;
        Mmad(lc, la, lb, lbias, mp);                 // I * (-1) + bias
        CHECK(lc.addr_[2 * 16 + 5] == 4.0f);
        mp.cmatrixInitVal = false;
        Mmad(lc, la, lb, mp);                        // accumulate another -1
        CHECK(lc.addr_[2 * 16 + 5] == 3.0f);
        std::vector<half> out(256);
        GlobalTensor<half> go; go.SetGlobalBuffer(out.data(), 256);
        FixpipeParamsV220 fp(16, 16, 16, 16, true); fp.quantPre = QuantMode_t::F322F16;
        Fixpipe<half, float, CFG_ROW_MAJOR>(go, lc, fp);
        CHECK(float(out[2 * 16 + 5]) == 3.0f && float(out[0]) == 0.0f);   // relu: -1 + 0 -> 0
        fp.quantPre = QuantMode_t::NoQuant;
        CHECK(has(throws([&] { Fixpipe<half, float, CFG_ROW_MAJOR>(go, lc, fp); }), "quantPre"));
        TPipe p2; TBuf<TPosition::A2> ia; TBuf<TPosition::B2> ib; TBuf<TPosition::CO1> ic;
        p2.InitBuffer(ia, 512); p2.InitBuffer(ib, 512); p2.InitBuffer(ic, 1024);
        LocalTensor<int8_t> xa = ia.Get<int8_t>(), xb = ib.Get<int8_t>();
        LocalTensor<int32_t> xc = ic.Get<int32_t>();
        for (int i = 0; i < 512; ++i) { xa.addr_[i] = 2; xb.addr_[i] = 3; }
        MmadParams ip; ip.m = 16; ip.n = 16; ip.k = 32;
        Mmad(xc, xa, xb, ip);
        CHECK(xc.addr_[0] == 192);
        FixpipeParamsV220 dq(16, 16, 16, 16, false); dq.quantPre = QuantMode_t::DEQF16;
        float scale = 0.5f; uint32_t sb; std::memcpy(&sb, &scale, 4); dq.deqScalar = sb;
        Fixpipe<half, int32_t, CFG_ROW_MAJOR>(go, xc, dq);
        CHECK(float(out[17]) == 96.0f);
    }
    // --- strict checks: capacities, alignment, positions, core type, ranges ---
    {
        as_aic();
        TPipe pipe; TBuf<TPosition::CO1> c1; TBuf<TPosition::A2> a2;
        CHECK(has(throws([&] { pipe.InitBuffer(c1, 128 * 1024 + 32); }), "L0C"));
        TPipe p2; TBuf<TPosition::A2> x; TBuf<TPosition::B2> y; TBuf<TPosition::CO1> z;
        p2.InitBuffer(x, 4096); p2.InitBuffer(y, 4096); p2.InitBuffer(z, 4096);
        MmadParams mp; mp.m = 16; mp.n = 16; mp.k = 16;
        CHECK(has(throws([&] { Mmad(z.Get<float>(), x.Get<half>()[16], y.Get<half>(), mp); }), "aligned"));   // L0A +32 B
        CHECK(has(throws([&] { Mmad(z.Get<float>(), y.Get<half>(), y.Get<half>(), mp); }), "must be in L0A"));
        mp.m = 64; mp.n = 64; mp.k = 16;   // C needs 16 KiB, only 4 KiB allocated is fine for the pool but 16 KiB > L0C? no: check footprint vs pool end
        CHECK(throws([&] { Mmad(z.Get<float>()[1024 - 256], x.Get<half>(), y.Get<half>(), mp); }).empty());
        mp.m = 4096;
        CHECK(has(throws([&] { Mmad(z.Get<float>(), x.Get<half>(), y.Get<half>(), mp); }), "4095"));
        as_aiv();
        // shared code of a mixed kernel may initialise cube buffers on the AIV (bookkeeping, as on the device);
        // using them there fails: vector APIs find no UB address, cube APIs refuse to run on an AIV
        TPipe p3; TBuf<TPosition::A1> l1; TBuf<TPosition::A2> l0a; TBuf<TPosition::B2> l0b; TBuf<TPosition::CO1> l0c;
        CHECK(throws([&] { p3.InitBuffer(l1, 1024); p3.InitBuffer(l0a, 4096); p3.InitBuffer(l0b, 4096); p3.InitBuffer(l0c, 4096); }).empty());
        CHECK(has(throws([&] { p3.InitBuffer(l1, 1024 * 1024); }), "L1"));
        CHECK(has(throws([&] { Duplicate(l1.Get<float>(), 1.0f, 64); }), "ub address out of bounds"));
        MmadParams mp2; mp2.m = 16; mp2.n = 16; mp2.k = 16;
        CHECK(has(throws([&] { Mmad(l0c.Get<float>(), l0a.Get<half>(), l0b.Get<half>(), mp2); }), "AIV"));
        CHECK(has(throws([&] { CrossCoreWaitFlag(1); }), "vector-only"));
    }
    // --- raw intrinsics ---
    {
        as_aiv();
        LocalTensor<float> t(reinterpret_cast<float*>(g_ub), 256, TPosition::VECCALC);
        for (int i = 0; i < 256; ++i) t.addr_[i] = float(i);
        SetMaskNorm(); SetVectorMask<float>(0, ~0ull);
        LocalTensor<float> d(reinterpret_cast<float*>(g_ub + 4096), 64, TPosition::VECCALC);
        vcadd(d.addr_, t.addr_, 4, 1, 1, 8, false);
        CHECK(d.addr_[0] == 2016.0f && d.addr_[3] == float(192 * 64 + 2016));
        SetVectorMask<float>(0, 0xFull);
        vcadd((float*)nullptr, t.addr_, 2, 0, 1, 8, true);
        CHECK(acc_float(get_acc_val()) == float(0 + 1 + 2 + 3 + 64 + 65 + 66 + 67));
        SetMaskCount(); SetVectorMask<float>(0, 100);
        vcadd(d.addr_, t.addr_, 1, 0, 1, 8, true);
        CHECK(acc_float(get_acc_val()) == 4950.0f);
        SetMaskNorm(); ResetMask();
        LocalTensor<uint16_t> h(reinterpret_cast<uint16_t*>(g_ub + 8192), 256, TPosition::VECCALC);
        for (int i = 0; i < 256; ++i) h.addr_[i] = uint16_t(i);
        vtranspose(h.addr_, h.addr_);
        CHECK(h.addr_[1] == 16 && h.addr_[16] == 1);
        vector_dup(h.addr_, uint16_t(7), 1, 1, 1, 8, 8);
        CHECK(h.addr_[127] == 7);
        copy_ubuf_to_ubuf(g_ub + 16384, g_ub + 8192, 0, 1, 2, 0, 0);
        CHECK(reinterpret_cast<uint16_t*>(g_ub + 16384)[31] == 7);
    }
    // --- high-level math: values and temp-buffer accounting ---
    {
        as_aiv();
        LocalTensor<float> s(reinterpret_cast<float*>(g_ub), 64, TPosition::VECCALC);
        LocalTensor<float> d(reinterpret_cast<float*>(g_ub + 1024), 64, TPosition::VECCALC);
        LocalTensor<uint8_t> tmp(g_ub + 4096, 1024, TPosition::VECCALC);
        for (int i = 0; i < 64; ++i) s.addr_[i] = float(i) / 16 - 2;
        Sigmoid(d, s, tmp, 64);
        CHECK(std::fabs(d.addr_[0] - 1.0f / (1.0f + std::exp(2.0f))) < 1e-6);
        Power(d, s, 2.0f, tmp, 64u);
        CHECK(std::fabs(d.addr_[0] - 4.0f) < 1e-6);
        Erf(d, s, tmp, 64);
        CHECK(std::fabs(d.addr_[32] - 0.0f) < 1e-6);
        CHECK(has(throws([&] { Sigmoid(d, s, tmp[992], 64); }), "too small"));
        CHECK(has(throws([&] { Sigmoid(d, s, LocalTensor<uint8_t>(g_ub, 1024, TPosition::VECCALC), 64); }), "overlaps"));
        const uint32_t src[2] = {4, 1}, dst[2] = {4, 8};
        LocalTensor<float> b(reinterpret_cast<float*>(g_ub + 8192), 32, TPosition::VECCALC);
        BroadCast<float, 2, 1>(b, s, dst, src, tmp);
        CHECK(b.addr_[0] == s.addr_[0] && b.addr_[9] == s.addr_[1] && b.addr_[31] == s.addr_[3]);
        const uint32_t bad[2] = {2, 1};
        CHECK(has(throws([&] { BroadCast<float, 2, 1>(b, s, dst, bad, tmp); }), "shape"));
    }
    // --- Sum / Mean / SoftMax / SoftmaxGrad on [rows, 32 B-aligned cols] tiles ---
    {
        as_aiv();
        struct Tl { uint32_t srcM, srcK; } tl{2, 16};
        LocalTensor<float> x(reinterpret_cast<float*>(g_ub), 32, TPosition::VECCALC);
        LocalTensor<float> y(reinterpret_cast<float*>(g_ub + 1024), 32, TPosition::VECCALC);
        LocalTensor<float> sm(reinterpret_cast<float*>(g_ub + 2048), 16, TPosition::VECCALC);
        LocalTensor<float> mx(reinterpret_cast<float*>(g_ub + 3072), 16, TPosition::VECCALC);
        LocalTensor<uint8_t> tmp(g_ub + 8192, 4096, TPosition::VECCALC);
        for (int i = 0; i < 32; ++i) x.addr_[i] = float(i % 16) / 4;
        SumParams sp{2, 16, 9};
        Sum(y, x, tmp, sp);
        CHECK(y.addr_[0] == 9.0f && y.addr_[1] == 9.0f);
        MeanParams mp{2, 16, 16};
        Mean(y, x, tmp, mp);
        CHECK(std::fabs(y.addr_[0] - 1.875f) < 1e-6);
        CHECK(has(throws([&] { Sum(y, x, tmp, SumParams{2, 8, 9}); }), "inner"));
        SoftMax<float>(y, sm, mx, x, tmp, tl);
        float se = 0;
        for (int i = 0; i < 16; ++i) se += std::exp(float(i) / 4 - 3.75f);
        CHECK(std::fabs(y.addr_[15] - 1.0f / se) < 1e-6 && mx.addr_[7] == 3.75f && std::fabs(sm.addr_[8] - se) < 1e-4);
        SoftMax<float>(y, sm, mx, x, tmp, tl, SoftMaxShapeInfo{2, 16, 2, 4});   // only 4 valid columns
        CHECK(mx.addr_[0] == 0.75f);
        CHECK(has(throws([&] { SoftMax<float>(y, sm, mx, x, tmp[4064], tl); }), "too small"));
        // the forms without sum / max: the same result, the statistics' buffers untouched
        {
            LocalTensor<float> y2(reinterpret_cast<float*>(g_ub + 5120), 32, TPosition::VECCALC);
            SoftMax<float>(y, sm, mx, x, tmp, tl);
            for (int i = 0; i < 16; ++i) { sm.addr_[i] = -7.0f; mx.addr_[i] = -7.0f; }
            SoftMax<float, false, false>(y2, x, tl);
            bool same = true;
            for (int i = 0; i < 32; ++i) same = same && y2.addr_[i] == y.addr_[i];
            CHECK(same && sm.addr_[0] == -7.0f && mx.addr_[15] == -7.0f);
            for (int i = 0; i < 32; ++i) y2.addr_[i] = 0.0f;
            SoftMax<float>(y2, x, tmp, tl, SoftMaxShapeInfo{2, 16, 2, 16});
            same = true;
            for (int i = 0; i < 32; ++i) same = same && y2.addr_[i] == y.addr_[i];
            CHECK(same);
            CHECK(has(throws([&] { SoftMax<float>(y2, x, tmp[4064], tl); }), "too small"));
        }
        // half data with float sum / max: 8 floats per row's statistic, the result in half
        {
            struct Th { uint32_t srcM, srcK; } th{2, 16};
            LocalTensor<half> xh(reinterpret_cast<half*>(g_ub + 5120), 32, TPosition::VECCALC);
            LocalTensor<half> yh(reinterpret_cast<half*>(g_ub + 6144), 32, TPosition::VECCALC);
            for (int i = 0; i < 32; ++i) xh.addr_[i] = half(float(i % 16) / 4);
            for (int i = 0; i < 16; ++i) { sm.addr_[i] = -7.0f; mx.addr_[i] = -7.0f; }
            SoftMax<half>(yh, sm, mx, xh, tmp, th);
            float se = 0;
            for (int i = 0; i < 16; ++i) se += std::exp(float(i) / 4 - 3.75f);
            CHECK(float(yh.addr_[15]) == float(half(1.0f / se)) && mx.addr_[7] == 3.75f && mx.addr_[8] == 3.75f);
            CHECK(std::fabs(sm.addr_[15] - se) < 1e-4 && sm.addr_[0] == sm.addr_[7]);
            SoftMax(yh, sm, mx, xh, th);   // without template arguments, framework temp
            CHECK(float(yh.addr_[31]) == float(half(1.0f / se)) && float(yh.addr_[16]) == float(half(std::exp(-3.75f) / se)));
        }
        LocalTensor<float> g(reinterpret_cast<float*>(g_ub + 4096), 32, TPosition::VECCALC);
        for (int i = 0; i < 32; ++i) g.addr_[i] = 1.0f;
        SoftMax<float>(y, sm, mx, x, tmp, tl);
        SoftmaxGrad<float>(x, g, y, tmp, tl);   // grad of ones through softmax is zero
        CHECK(std::fabs(x.addr_[3]) < 1e-6);
    }
    std::printf("PASS %d FAIL %d\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
