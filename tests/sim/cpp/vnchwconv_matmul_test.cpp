// Unit tests of ascsim's address-list transposes (TransDataTo5HD in its three overloads, TransDataTo5HDImpl and the raw
// scatter_vnchwconv_b8/b16/b32 intrinsics) and the matmul::Matmul batch / quantised variants, on one simulated AIV
// core bound to the test thread. Every transpose is checked element by element against an index formula; batch
// matmul against a naive batched GEMM; the quantised matmul against hand-computed dequantised values.
#include <cmath>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <vector>
#define ASCENDC_CUBE_ONLY   // also compiles the pure-cube IterateBatch(gm, enPartialSum, enAtomic, ...) overload
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "lib/matrix/matmul/tiling.h"   // the toolkit path of the kernel-side MatmulConfig helpers
#include "tiling/tiling_api.h"

using namespace AscendC;

#include "../../sim/cpp/check.h"

alignas(4096) static uint8_t g_ub[ascsim::kUbBytes];
static ascsim::CoreCtx g_ctx;
static void as_aiv() { g_ctx.core_type = 2; g_ctx.cube = nullptr; g_ctx.ub = g_ub; }
template <class T> static T* ub(size_t byteOff) { return reinterpret_cast<T*>(g_ub + byteOff); }
template <class T> static uint16_t bits16(T v) { uint16_t b; std::memcpy(&b, &v, 2); return b; }

// The kernel-side tiling struct the build generates from optiling::TCubeTiling (the fields the matmul object reads).
struct KTiling {
    int32_t M, N, Ka, Kb, singleCoreM, singleCoreN, singleCoreK, baseM, baseN, isBias, BatchNum, ALayoutInfoB, BLayoutInfoB;
};
static KTiling kernel_tiling(const optiling::TCubeTiling& t) {
    return KTiling{t.get_M(), t.get_N(), t.get_Ka(), t.get_Kb(), t.get_singleCoreM(), t.get_singleCoreN(),
                   t.get_singleCoreK(), t.get_baseM(), t.get_baseN(), t.get_isBias(), t.get_BatchNum(),
                   t.get_ALayoutInfoB(), t.get_BLayoutInfoB()};
}
static uint64_t fbits(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }

static void test_transposes() {
    as_aiv();
    // --- b16, uint64_t address lists: NCHW (16 channels x HW 64) -> NC1HWC0, 4 repeats ---
    {
        uint16_t* src = ub<uint16_t>(0);        // [16][64]
        uint16_t* dst = ub<uint16_t>(4096);     // [64][16]
        for (int i = 0; i < 16 * 64; ++i) { src[i] = uint16_t(i * 7 + 3); dst[i] = 0xFFFF; }
        uint64_t dl[16], sl[16];
        for (int i = 0; i < 16; ++i) {
            sl[i] = reinterpret_cast<uint64_t>(src + i * 64);
            dl[i] = reinterpret_cast<uint64_t>(dst + i * 16);
        }
        TransDataTo5HD<half>(dl, sl, TransDataTo5HDParams(false, false, 4, 16, 1));
        int bad = 0;
        for (int hw = 0; hw < 64; ++hw)
            for (int c = 0; c < 16; ++c) bad += dst[hw * 16 + c] != src[c * 64 + hw];
        CHECK(bad == 0);
    }
    // --- b16, LocalTensor lists with a block stride of 2 between source rows (int16) ---
    {
        int16_t* src = ub<int16_t>(16384);      // 16 rows of 32 elements; the transpose reads the first 16 of each
        int16_t* dst = ub<int16_t>(20480);
        for (int i = 0; i < 16 * 32; ++i) src[i] = int16_t(i - 200);
        LocalTensor<int16_t> S(src, 512, TPosition::VECCALC), D(dst, 256, TPosition::VECCALC);
        LocalTensor<int16_t> dl[16], sl[16];
        for (int i = 0; i < 16; ++i) { sl[i] = S[i * 32]; dl[i] = D[i * 16]; }
        TransDataTo5HD<int16_t>(dl, sl, TransDataTo5HDParams(false, false, 1, 0, 0));
        int bad = 0;
        for (int i = 0; i < 16; ++i)
            for (int j = 0; j < 16; ++j) bad += dst[i * 16 + j] != src[j * 32 + i];
        CHECK(bad == 0);
        // repeatTimes 1 with a stride: the operands start one stride past the listed addresses (documented)
        TransDataTo5HD<int16_t>(dl, sl, TransDataTo5HDParams(false, false, 1, 0, 1));
        bad = 0;
        for (int i = 0; i < 16; ++i)
            for (int j = 0; j < 16; ++j) bad += dst[i * 16 + j] != src[j * 32 + 16 + i];
        CHECK(bad == 0);
    }
    // --- b16, LocalTensor<uint64_t> address tensors ---
    {
        uint16_t* src = ub<uint16_t>(24576);
        uint16_t* dst = ub<uint16_t>(25600);
        for (int i = 0; i < 256; ++i) { src[i] = uint16_t(1000 + i); dst[i] = 0; }
        uint64_t* da = ub<uint64_t>(26624);
        uint64_t* sa = ub<uint64_t>(26752);
        for (int i = 0; i < 16; ++i) { da[i] = reinterpret_cast<uint64_t>(dst + i * 16); sa[i] = reinterpret_cast<uint64_t>(src + i * 16); }
        TransDataTo5HD<uint16_t>(LocalTensor<uint64_t>(da, 16, TPosition::VECCALC), LocalTensor<uint64_t>(sa, 16, TPosition::VECCALC),
                                 TransDataTo5HDParams());
        int bad = 0;
        for (int i = 0; i < 16; ++i)
            for (int j = 0; j < 16; ++j) bad += dst[i * 16 + j] != src[j * 16 + i];
        CHECK(bad == 0);
    }
    // --- b32: [32 rows, 8] -> [8, 32 rows] (dst pairs 2i / 2i+1 take source blocks 0-7 / 8-15) ---
    {
        float* x = ub<float>(32768);            // [32][8]
        float* t = ub<float>(34816);            // [8][32]
        for (int i = 0; i < 256; ++i) { x[i] = float(i) * 0.5f - 3; t[i] = -1; }
        LocalTensor<float> X(x, 256, TPosition::VECCALC), Tt(t, 256, TPosition::VECCALC);
        LocalTensor<float> dl[16], sl[16];
        for (int i = 0; i < 16; ++i) sl[i] = X[i * 8];
        for (int i = 0; i < 8; ++i) { dl[2 * i] = Tt[i * 32]; dl[2 * i + 1] = Tt[i * 32 + 8]; }
        TransDataTo5HD<float>(dl, sl, TransDataTo5HDParams(false, false, 2, 2, 16));
        int bad = 0;
        for (int c = 0; c < 8; ++c)
            for (int r = 0; r < 32; ++r) bad += t[c * 32 + r] != x[r * 8 + c];
        CHECK(bad == 0);
    }
    // --- b8: halves selected by srcHighHalf / dstHighHalf; the other destination half is kept ---
    {
        int8_t* src = ub<int8_t>(40960);        // 16 blocks of 32
        int8_t* dst = ub<int8_t>(41984);
        for (int i = 0; i < 512; ++i) { src[i] = int8_t(i % 251 - 120); dst[i] = 99; }
        uint64_t dl[16], sl[16];
        for (int i = 0; i < 16; ++i) { sl[i] = reinterpret_cast<uint64_t>(src + i * 32); dl[i] = reinterpret_cast<uint64_t>(dst + i * 32); }
        TransDataTo5HD<int8_t>(dl, sl, TransDataTo5HDParams(true, false, 1, 0, 0));
        int bad = 0;
        for (int i = 0; i < 16; ++i)
            for (int j = 0; j < 16; ++j) bad += dst[i * 32 + 16 + j] != src[j * 32 + i] || dst[i * 32 + j] != 99;
        CHECK(bad == 0);
        TransDataTo5HD<int8_t>(dl, sl, TransDataTo5HDParams(false, true, 1, 0, 0));
        bad = 0;
        for (int i = 0; i < 16; ++i)
            for (int j = 0; j < 16; ++j) bad += dst[i * 32 + j] != src[j * 32 + 16 + i] || dst[i * 32 + 16 + j] != src[j * 32 + i];
        CHECK(bad == 0);
    }
    // --- TransDataTo5HDImpl: typed pointer lists (as kernels build them from GetPhyAddr()), b16 and b32 ---
    {
        half* src = ub<half>(131072);           // [16 rows][48 cols], 3 repeats of 16 columns
        half* dst = ub<half>(135168);           // [48][16]
        for (int i = 0; i < 16 * 48; ++i) { src[i] = half(float(i % 97) - 40.f); dst[i] = half(0.f); }
        half* sp[16]; half* dp[16];
        for (int i = 0; i < 16; ++i) { sp[i] = src + i * 48; dp[i] = dst + i * 16; }
        TransDataTo5HDImpl(dp, sp, TransDataTo5HDParams(false, false, 3, 16, 1));   // T deduced from the lists
        int bad = 0;
        for (int col = 0; col < 48; ++col)
            for (int r = 0; r < 16; ++r) bad += bits16(dst[col * 16 + r]) != bits16(src[r * 48 + col]);
        CHECK(bad == 0);
        int32_t* x = ub<int32_t>(139264);       // [16][8]
        int32_t* t = ub<int32_t>(143360);       // [8][16]
        for (int i = 0; i < 128; ++i) { x[i] = i * 3 - 50; t[i] = -1; }
        int32_t* xs[16]; int32_t* ts[16];
        for (int i = 0; i < 16; ++i) xs[i] = x + i * 8;
        for (int i = 0; i < 8; ++i) { ts[2 * i] = t + i * 16; ts[2 * i + 1] = t + i * 16 + 8; }
        TransDataTo5HDImpl<int32_t>(ts, xs, TransDataTo5HDParams());
        bad = 0;
        for (int c = 0; c < 8; ++c)
            for (int r = 0; r < 16; ++r) bad += t[c * 16 + r] != x[r * 8 + c];
        CHECK(bad == 0);
        xs[3] = x + 4;   // a source block that is not 32-byte aligned: the same check as the other overloads
        CHECK(has(throws([&] { TransDataTo5HDImpl<int32_t>(ts, xs, TransDataTo5HDParams()); }), "not aligned"));
    }
    // --- raw intrinsics: set_va_reg_sb + scatter_vnchwconv_b16 over 8 repeats (transpose a [128][16] tile) ---
    {
        uint16_t* src = ub<uint16_t>(49152);    // [16 rows][128 cols]
        uint16_t* dst = ub<uint16_t>(53248);    // [128][16]
        for (int i = 0; i < 2048; ++i) { src[i] = uint16_t(i ^ 0x5a5a); dst[i] = 0; }
        uint64_t sa[16], da[16];
        for (int i = 0; i < 16; ++i) { sa[i] = reinterpret_cast<uint64_t>(src + i * 128); da[i] = reinterpret_cast<uint64_t>(dst + i * 16); }
        set_va_reg_sb(VA0, da); set_va_reg_sb(VA1, da + 8); set_va_reg_sb(VA2, sa); set_va_reg_sb(VA3, sa + 8);
        scatter_vnchwconv_b16(VA0, VA2, 8, 16, 1);
        int bad = 0;
        for (int c = 0; c < 128; ++c)
            for (int r = 0; r < 16; ++r) bad += dst[c * 16 + r] != src[r * 128 + c];
        CHECK(bad == 0);
        // the same through another register pair and b32
        float* fs = ub<float>(57344);           // [16][8]
        float* fd = ub<float>(57856);           // [8][16]
        for (int i = 0; i < 128; ++i) { fs[i] = float(i) + 0.25f; fd[i] = 0; }
        uint64_t s2[16], d2[16];
        for (int i = 0; i < 16; ++i) s2[i] = reinterpret_cast<uint64_t>(fs + i * 8);
        for (int i = 0; i < 8; ++i) { d2[2 * i] = reinterpret_cast<uint64_t>(fd + i * 16); d2[2 * i + 1] = reinterpret_cast<uint64_t>(fd + i * 16 + 8); }
        set_va_reg_sb(VA4, d2); set_va_reg_sb(VA5, d2 + 8); set_va_reg_sb(VA6, s2); set_va_reg_sb(VA7, s2 + 8);
        scatter_vnchwconv_b32(VA4, VA6, 1, 0, 0);
        bad = 0;
        for (int c = 0; c < 8; ++c)
            for (int r = 0; r < 16; ++r) bad += fd[c * 16 + r] != fs[r * 8 + c];
        CHECK(bad == 0);
        // b8 through the raw intrinsic
        int8_t* bs = ub<int8_t>(60416);
        int8_t* bd = ub<int8_t>(61440);
        for (int i = 0; i < 512; ++i) { bs[i] = int8_t(i * 3); bd[i] = 0; }
        uint64_t s3[16], d3[16];
        for (int i = 0; i < 16; ++i) { s3[i] = reinterpret_cast<uint64_t>(bs + i * 32); d3[i] = reinterpret_cast<uint64_t>(bd + i * 32); }
        set_va_reg_sb(VA0, d3); set_va_reg_sb(VA1, d3 + 8); set_va_reg_sb(VA2, s3); set_va_reg_sb(VA3, s3 + 8);
        scatter_vnchwconv_b8(VA0, VA2, 1, 0, 0, false, true);
        bad = 0;
        for (int i = 0; i < 16; ++i)
            for (int j = 0; j < 16; ++j) bad += bd[i * 32 + j] != bs[j * 32 + 16 + i];
        CHECK(bad == 0);
    }
    // --- strict checks ---
    {
        uint64_t dl[16], sl[16];
        auto reset = [&] {
            for (int i = 0; i < 16; ++i) { sl[i] = reinterpret_cast<uint64_t>(g_ub + i * 32); dl[i] = reinterpret_cast<uint64_t>(g_ub + 8192 + i * 32); }
        };
        reset();
        CHECK(throws([&] { TransDataTo5HD<half>(dl, sl, TransDataTo5HDParams()); }).empty());
        sl[5] += 2;   // misaligned source block
        std::string e = throws([&] { TransDataTo5HD<half>(dl, sl, TransDataTo5HDParams()); });
        CHECK(has(e, "not aligned") && has(e, "srcList[5]"));
        reset();
        dl[9] = reinterpret_cast<uint64_t>(g_ub + ascsim::kUbBytes);   // just past this core's UB
        e = throws([&] { TransDataTo5HD<half>(dl, sl, TransDataTo5HDParams()); });
        CHECK(has(e, "out of bounds") && has(e, "dstList[9]"));
        reset();
        dl[0] = reinterpret_cast<uint64_t>(g_ub + ascsim::kUbBytes - 64);   // in the UB, but repeat 2 walks out of it
        e = throws([&] { TransDataTo5HD<half>(dl, sl, TransDataTo5HDParams(false, false, 3, 1, 1)); });
        CHECK(has(e, "out of bounds") && has(e, "repeat 2"));
        reset();
        static uint8_t host_buf[64];
        sl[0] = reinterpret_cast<uint64_t>(host_buf);   // not UB memory at all
        CHECK(has(throws([&] { TransDataTo5HD<half>(dl, sl, TransDataTo5HDParams()); }), "out of bounds"));
        reset();
        set_va_reg_sb(VA0, dl); set_va_reg_sb(VA1, dl + 8); set_va_reg_sb(VA2, sl); set_va_reg_sb(VA3, sl + 8);
        CHECK(has(throws([&] { scatter_vnchwconv_b16(VA0, VA2, 256, 0, 0); }), "repeatTime"));
        CHECK(has(throws([&] { scatter_vnchwconv_b16(VA1, VA2, 1, 0, 0); }), "register pair"));
        ascsim::va_regs().loaded = 0x0F;   // VA4..VA7 never loaded
        CHECK(has(throws([&] { scatter_vnchwconv_b16(VA0, VA4, 1, 0, 0); }), "not initialised"));
        CHECK(throws([&] { scatter_vnchwconv_b16(VA0, VA2, 0, 0, 0); }).empty());   // repeat 0: nothing
    }
}

template <class AT, class CT, bool TB = false, matmul::CubeFormat CF = matmul::CubeFormat::ND,
          matmul::LayoutMode L = matmul::LayoutMode::NORMAL, class BiasT = float>
using MM = matmul::Matmul<matmul::MatmulType<TPosition::GM, matmul::CubeFormat::ND, AT, false, L>,
                          matmul::MatmulType<TPosition::GM, matmul::CubeFormat::ND, AT, TB, L>,
                          matmul::MatmulType<TPosition::GM, CF, CT, false, L>, matmul::MatmulType<TPosition::GM, matmul::CubeFormat::ND, BiasT>>;

static void test_batch_matmul() {
    as_aiv();
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> U(-1, 1);
    // --- host tiling for NORMAL batch info ---
    const int M = 24, N = 40, K = 20, BA = 4, BB = 2;
    matmul_tiling::BatchMatmulTiling bt;
    bt.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    bt.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16, true);
    bt.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    bt.SetShape(M, N, K);
    bt.SetOrgShape(M, N, K);
    bt.SetBias(true);
    CHECK(bt.SetBatchInfoForNormal(BA, BB, M, N, K) == 0);
    CHECK(bt.SetBatchInfoForNormal(3, 2, M, N, K) == -1);   // batch counts must be multiples
    CHECK(bt.SetBatchInfoForNormal(BA, BB, M, N, K) == 0);
    optiling::TCubeTiling tc;
    CHECK(bt.GetTiling(tc) == 0);
    CHECK(tc.get_ALayoutInfoB() == BA && tc.get_BLayoutInfoB() == BB && tc.get_CLayoutInfoB() == BA &&
          tc.get_ALayoutInfoS() == M && tc.get_ALayoutInfoD() == K && tc.get_CLayoutInfoS2() == N && tc.get_BatchNum() == BA);
    // the original K sizes may be below the single-core K (a row stride passed there, as flash attention does);
    // an original M or N below the single-core one still fails
    {
        matmul_tiling::MatmulApiTiling st;
        st.SetShape(128, 32, 1024);
        st.SetOrgShape(2048, 512, 1024, 512);
        optiling::TCubeTiling t2;
        CHECK(st.GetTiling(t2) == 0 && t2.get_Kb() == 512 && t2.get_singleCoreK() == 1024);
        st.SetOrgShape(64, 512, 1024, 512);
        CHECK(st.GetTiling(t2) == -1);
    }
    KTiling kt = kernel_tiling(tc);
    // --- GM batch matmul: B transposed ([N, K] per batch), B broadcast over pairs of A batches, bias per batch ---
    std::vector<half> A(size_t(BA) * M * K), B(size_t(BB) * N * K);
    std::vector<float> bias(size_t(BA) * N), C(size_t(BA) * M * N, -7.0f);
    for (auto& x : A) x = half(U(rng));
    for (auto& x : B) x = half(U(rng));
    for (auto& x : bias) x = U(rng);
    GlobalTensor<half> ga, gb; GlobalTensor<float> gc, gbias;
    ga.SetGlobalBuffer(A.data(), A.size()); gb.SetGlobalBuffer(B.data(), B.size());
    gc.SetGlobalBuffer(C.data(), C.size()); gbias.SetGlobalBuffer(bias.data(), bias.size());
    MM<half, float, true> mm;
    mm.Init(&kt);
    mm.SetTensorA(ga); mm.SetTensorB(gb, true); mm.SetBias(gbias);
    mm.IterateBatch(gc, BA, BB, false);
    double err = 0;
    for (int b = 0; b < BA; ++b) {
        int bb = b / (BA / BB);
        for (int i = 0; i < M; ++i)
            for (int j = 0; j < N; ++j) {
                double ref = bias[size_t(b) * N + j];
                for (int k = 0; k < K; ++k)
                    ref += double(float(A[(size_t(b) * M + i) * K + k])) * double(float(B[(size_t(bb) * N + j) * K + k]));
                err = std::max(err, std::fabs(ref - C[(size_t(b) * M + i) * N + j]));
            }
    }
    CHECK(err < 1e-4);
    // the pure-cube form takes the batch counts from SetBatchNum: same result for batches 0..3
    {
        std::vector<float> C2(C.size(), -7.0f);
        GlobalTensor<float> gc2; gc2.SetGlobalBuffer(C2.data(), C2.size());
        mm.SetBatchNum(BA, BB);
        mm.IterateBatch(gc2, false, 0, false);
        CHECK(C2 == C);
    }
    // fewer batches than the tiling's BatchNum is fine; more fails
    CHECK(throws([&] { mm.IterateBatch(gc, 2, 2, false); }).empty());
    CHECK(has(throws([&] { mm.IterateBatch(gc, 8, 2, false); }), "BatchNum"));
    CHECK(has(throws([&] { mm.IterateBatch(gc, 3, 2, false); }), "multiple"));
    // --- UB output: singleCoreN 20 floats is not 32 B aligned -> ND_ALIGN pads each row to 24 ---
    {
        const int m = 4, n = 20, k = 8, nb = 2;
        std::vector<half> a(size_t(nb) * m * k), b(size_t(nb) * k * n);
        for (auto& x : a) x = half(U(rng));
        for (auto& x : b) x = half(U(rng));
        KTiling t2{m, n, k, k, m, n, k, 16, 32, 0, nb, nb, nb};
        GlobalTensor<half> xa, xb;
        xa.SetGlobalBuffer(a.data(), a.size()); xb.SetGlobalBuffer(b.data(), b.size());
        float* c = ub<float>(65536);
        for (int i = 0; i < nb * m * 24; ++i) c[i] = -9.0f;
        LocalTensor<float> cu(c, nb * m * 24, TPosition::VECIN);
        MM<half, float, false, matmul::CubeFormat::ND_ALIGN> mu;
        mu.Init(&t2); mu.SetTensorA(xa); mu.SetTensorB(xb);
        mu.IterateBatch(cu, nb, nb, true);
        double e2 = 0;
        for (int q = 0; q < nb; ++q)
            for (int i = 0; i < m; ++i)
                for (int j = 0; j < n; ++j) {
                    double ref = 0;
                    for (int kk = 0; kk < k; ++kk)
                        ref += double(float(a[(size_t(q) * m + i) * k + kk])) * double(float(b[(size_t(q) * k + kk) * n + j]));
                    e2 = std::max(e2, std::fabs(ref - c[(q * m + i) * 24 + j]));
                }
        CHECK(e2 < 1e-4);
        CHECK(c[20] == -9.0f);   // the padding columns are not written
        MM<half, float> plain;
        plain.Init(&t2); plain.SetTensorA(xa); plain.SetTensorB(xb);
        CHECK(has(throws([&] { plain.IterateBatch(cu, nb, nb, true); }), "ND_ALIGN"));
    }
    // --- unsupported batch variants fail clearly ---
    {
        MM<half, float, false, matmul::CubeFormat::ND, matmul::LayoutMode::NONE> none;
        none.Init(&kt); none.SetTensorA(ga); none.SetTensorB(gb);
        CHECK(has(throws([&] { none.IterateBatch(gc, 2, 2, false); }), "LayoutMode::NORMAL"));
        MM<half, float, false, matmul::CubeFormat::ND, matmul::LayoutMode::BSNGD> bsngd;
        bsngd.Init(&kt); bsngd.SetTensorA(ga); bsngd.SetTensorB(gb);
        CHECK(has(throws([&] { bsngd.IterateBatch(gc, 2, 2, false); }), "not simulated"));
        CHECK(has(throws([&] { mm.IterateBatch(gc, 2, 2, false, 0, 0, 0, true); }), "enPartialSum"));
        CHECK(has(throws([&] { mm.SetHF32(true, 2); }), "transMode"));
    }
    // --- SetHF32: float A / B rounded to HF32 (11 mantissa bits) before the product; C = A * B of one element ---
    {
        float a1 = 1.0f + 0x801p-23f, b1 = 1.0f;   // 1 + 2^-12 + 2^-23: just above the half-way point of HF32's last bit
        std::vector<float> av{a1}, bv{b1}, cv{0.0f};
        GlobalTensor<float> fa, fb, fc;
        fa.SetGlobalBuffer(av.data(), 1); fb.SetGlobalBuffer(bv.data(), 1); fc.SetGlobalBuffer(cv.data(), 1);
        KTiling t1{1, 1, 1, 1, 1, 1, 1, 16, 16, 0, 1, 1, 1};
        MM<float, float> f;
        f.Init(&t1); f.SetTensorA(fa); f.SetTensorB(fb);
        f.IterateAll(fc);
        CHECK(cv[0] == a1);                               // full float32 by default
        f.SetHF32(true);
        f.IterateAll(fc);
        CHECK(cv[0] == 1.0f + 0x1p-11f);                  // rounded up to HF32's last bit
        av[0] = 1.0f + 0x800p-23f;                        // exactly half-way: ties to even keeps 1, ties away rounds up
        f.IterateAll(fc);
        CHECK(cv[0] == 1.0f);
        f.SetHF32(true, 1);
        f.IterateAll(fc);
        CHECK(cv[0] == 1.0f + 0x1p-11f);
        f.SetHF32(false);
        f.IterateAll(fc);
        CHECK(cv[0] == av[0]);
    }
}

static void test_quant_matmul() {
    as_aiv();
    // A [2, 4] = [[1,2,3,4],[-1,-2,-3,-4]], B [4, 3] with B[k][j] = j + 1  ->  C = [[10,20,30],[-10,-20,-30]]
    const int M = 2, N = 3, K = 4;
    std::vector<int8_t> A = {1, 2, 3, 4, -1, -2, -3, -4};
    std::vector<int8_t> B(K * N);
    for (int k = 0; k < K; ++k)
        for (int j = 0; j < N; ++j) B[k * N + j] = int8_t(j + 1);
    KTiling t{M, N, K, K, M, N, K, 16, 16, 0, 0, 0, 0};
    GlobalTensor<int8_t> ga, gb;
    ga.SetGlobalBuffer(A.data(), A.size()); gb.SetGlobalBuffer(B.data(), B.size());
    // int8 x int8 -> int32, no quantisation
    {
        std::vector<int32_t> C(M * N, 0);
        GlobalTensor<int32_t> gc; gc.SetGlobalBuffer(C.data(), C.size());
        MM<int8_t, int32_t, false, matmul::CubeFormat::ND, matmul::LayoutMode::NONE, int32_t> mm;
        mm.Init(&t); mm.SetTensorA(ga); mm.SetTensorB(gb);
        mm.IterateAll(gc);
        CHECK(C[0] == 10 && C[2] == 30 && C[3] == -10 && C[5] == -30);
        CHECK(has(throws([&] { mm.SetQuantScalar(fbits(0.5f)); }), "quantisation does not apply"));
    }
    // SetOrgShape's fifth argument (orgKc) is C's row stride in GM; 0 keeps orgN
    {
        std::vector<int32_t> C(M * 8, -7);
        GlobalTensor<int32_t> gc; gc.SetGlobalBuffer(C.data(), C.size());
        MM<int8_t, int32_t, false, matmul::CubeFormat::ND, matmul::LayoutMode::NONE, int32_t> mm;
        mm.Init(&t); mm.SetTensorA(ga); mm.SetTensorB(gb);
        mm.SetOrgShape(M, N, K, K, 8);
        mm.IterateAll(gc);
        CHECK(C[0] == 10 && C[2] == 30 && C[3] == -7 && C[8] == -10 && C[10] == -30 && C[11] == -7);
        std::fill(C.begin(), C.end(), -7);
        mm.SetOrgShape(M, N, K, K);
        mm.IterateAll(gc);
        CHECK(C[3] == -10 && C[5] == -30 && C[8] == -7);
    }
    // int8 -> half, DEQF16 scalar 0.5, then VDEQF16 with per-column scales; int32 bias added before the scale
    {
        std::vector<half> C(M * N, half(-1.0f));
        GlobalTensor<half> gc; gc.SetGlobalBuffer(C.data(), C.size());
        MM<int8_t, half, false, matmul::CubeFormat::ND, matmul::LayoutMode::NONE, int32_t> mm;
        mm.Init(&t); mm.SetTensorA(ga); mm.SetTensorB(gb);
        CHECK(has(throws([&] { mm.IterateAll(gc); }), "SetQuantScalar"));
        mm.SetQuantScalar(fbits(0.5f));
        mm.IterateAll(gc);
        CHECK(float(C[0]) == 5.0f && float(C[1]) == 10.0f && float(C[2]) == 15.0f && float(C[4]) == -10.0f);
        std::vector<uint64_t> sc = {fbits(1.0f), fbits(0.25f), fbits(2.0f)};
        GlobalTensor<uint64_t> gs; gs.SetGlobalBuffer(sc.data(), sc.size());
        mm.SetQuantVector(gs);
        mm.IterateAll(gc);
        CHECK(float(C[0]) == 10.0f && float(C[1]) == 5.0f && float(C[2]) == 60.0f && float(C[3]) == -10.0f && float(C[5]) == -60.0f);
        std::vector<int32_t> bias = {2, -4, 6};
        GlobalTensor<int32_t> gbias; gbias.SetGlobalBuffer(bias.data(), bias.size());
        mm.SetBias(gbias);
        mm.SetQuantScalar(fbits(0.5f));
        mm.IterateAll(gc);
        CHECK(float(C[0]) == 6.0f && float(C[1]) == 8.0f && float(C[2]) == 18.0f && float(C[3]) == -4.0f);
        // quantisation is not supported with IterateBatch
        MM<int8_t, half, false, matmul::CubeFormat::ND, matmul::LayoutMode::NORMAL, int32_t> bm;
        bm.Init(&t); bm.SetTensorA(ga); bm.SetTensorB(gb); bm.SetQuantScalar(fbits(0.5f));
        CHECK(has(throws([&] { bm.IterateBatch(gc, 1, 1, false); }), "quantisation"));
    }
    // int8 -> int8 requantisation (REQ8) saturates: scale 10 -> 100, 200 -> 127, -300 -> -128
    {
        std::vector<int8_t> C(M * N, 0);
        GlobalTensor<int8_t> gc; gc.SetGlobalBuffer(C.data(), C.size());
        MM<int8_t, int8_t, false, matmul::CubeFormat::ND, matmul::LayoutMode::NONE, int32_t> mm;
        mm.Init(&t); mm.SetTensorA(ga); mm.SetTensorB(gb);
        mm.SetQuantScalar(fbits(10.0f));
        mm.IterateAll(gc);
        CHECK(C[0] == 100 && C[1] == 127 && C[2] == 127 && C[3] == -100 && C[5] == -128);
    }
    // half -> int8 (QF322B8_PRE): float accumulate then scale and round to nearest
    {
        std::vector<half> Ah = {half(1.5f), half(0.5f)}, Bh = {half(2.0f), half(-3.0f)};   // [1,2] x [2,1]... as M=1,K=2,N=1
        KTiling th{1, 1, 2, 2, 1, 1, 2, 16, 16, 0, 0, 0, 0};
        std::vector<int8_t> C(1, 0);
        GlobalTensor<half> xa, xb; GlobalTensor<int8_t> gc;
        xa.SetGlobalBuffer(Ah.data(), 2); xb.SetGlobalBuffer(Bh.data(), 2); gc.SetGlobalBuffer(C.data(), 1);
        MM<half, int8_t, false, matmul::CubeFormat::ND, matmul::LayoutMode::NONE, float> mm;
        mm.Init(&th); mm.SetTensorA(xa); mm.SetTensorB(xb);
        CHECK(has(throws([&] { mm.IterateAll(gc); }), "SetQuant"));
        mm.SetQuantScalar(fbits(-4.0f));   // (3 - 1.5) * -4 = -6
        mm.IterateAll(gc);
        CHECK(C[0] == -6);
    }
}

// through lib/matrix/matmul/tiling.h: a constant config as kernels declare one (flash-attention style)
constexpr MatmulConfig kExceedCfg = GetNormalConfig(true);
static_assert(kExceedCfg.intrinsicsCheck && kExceedCfg.doNorm && !GetMDLConfig().doNorm, "MatmulConfig helpers");
// the documented MDL parameters (the docs' own call spells all twelve)
constexpr MatmulConfig kMdlCfg = GetMDLConfig(true, false, 2, false, false, false, false, true, true, false, false, false);
static_assert(kMdlCfg.doMultiDataLoad && !kMdlCfg.doNorm && kMdlCfg.intrinsicsCheck && kMdlCfg.doMTE2Preload == 2 &&
              !kMdlCfg.enUnitFlag && !GetMDLConfig().enUnitFlag, "GetMDLConfig parameters");
// the toolkit declares them at global scope: unqualified in a namespace of the kernel's own, without `using namespace`
namespace kernel_scope {
constexpr MatmulConfig kCfg = ::GetNormalConfig(false, false, false, BatchMode::BATCH_LESS_THAN_L1);
static_assert(!kCfg.intrinsicsCheck && ::CFG_NORM.doNorm, "global MatmulConfig names");
static_assert(AscendC::IsSameType<AscendC::Conditional<false, int, CubeFormat>::type, CubeFormat>::value &&
              AscendC::IsSameType<AscendC::Conditional<true, int, LayoutMode>::type, int>::value, "Conditional");
}

int main() {
    ascsim::bind_test_core(&g_ctx);
    test_transposes();
    test_batch_matmul();
    test_quant_matmul();
    std::printf("PASS %d FAIL %d\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
