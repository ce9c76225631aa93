// Tests of ascsim's missing-synchronisation detector (kernel/sync_check.h, src/runtime.cpp) and the TPipe limit of
// 8 queue buffers per TPosition. Small kernels run on one simulated core bound to the test thread; every scenario
// also checks the computed data against hand-computed values (the simulator itself is synchronous).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>
#include "kernel_operator.h"

using namespace AscendC;

#include "check.h"

alignas(4096) static uint8_t g_ub[ascsim::kUbBytes];
static ascsim::CoreCtx g_ctx;

// A fresh core: UB poisoned, detector attached with the given mode (0 = off) and auto-sync setting.
static void fresh_core(int mode, bool auto_sync = true) {
    ascsim::sync_detach(g_ctx);
    g_ctx = ascsim::CoreCtx();
    g_ctx.ub = g_ub;
    std::memset(g_ub, 0xFF, sizeof g_ub);
    ascsim::bind_test_core(&g_ctx);
    ascsim::sync_attach(g_ctx, mode, auto_sync);
}
static uint64_t reports() { return ascsim::sync_report_count(g_ctx); }
static std::string last() { return ascsim::sync_last_report(g_ctx); }

constexpr int N = 256;   // floats per tile (1 KiB)
static std::vector<float> g_x(4 * N), g_y(4 * N), g_z(4 * N);
static void init_gm() {
    for (int i = 0; i < 4 * N; ++i) { g_x[i] = float(i % 97) * 0.5f; g_y[i] = float(i % 13) - 6.0f; g_z[i] = -1.0f; }
}
static bool z_is_sum(int tiles) {
    for (int i = 0; i < tiles * N; ++i) if (g_z[i] != g_x[i] + g_y[i]) return false;
    return true;
}

// x, y -> TBuf (MTE2), z = x + y (V), z -> GM (MTE3). `sync` bit 0: MTE2_V pair, bit 1: V_MTE3 pair.
static void tbuf_add(int sync) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bz;
    pipe.InitBuffer(bx, N * 4);
    pipe.InitBuffer(by, N * 4);
    pipe.InitBuffer(bz, N * 4);
    GlobalTensor<float> gx, gy, gz;
    gx.SetGlobalBuffer(g_x.data(), 4 * N);
    gy.SetGlobalBuffer(g_y.data(), 4 * N);
    gz.SetGlobalBuffer(g_z.data(), 4 * N);
    LocalTensor<float> x = bx.Get<float>(), y = by.Get<float>(), z = bz.Get<float>();
    DataCopy(x, gx, N);
    DataCopy(y, gy, N);
    if (sync & 1) { SetFlag<HardEvent::MTE2_V>(EVENT_ID0); WaitFlag<HardEvent::MTE2_V>(EVENT_ID0); }
    Add(z, x, y, N);
    if (sync & 2) { SetFlag<HardEvent::V_MTE3>(EVENT_ID0); WaitFlag<HardEvent::V_MTE3>(EVENT_ID0); }
    DataCopy(gz, z, N);
}

// Classic TQue pipeline (double buffered), 4 tiles: relies only on the queues' automatic sync.
static void queue_add() {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> qx, qy;
    TQue<TPosition::VECOUT, 1> qz;
    pipe.InitBuffer(qx, 2, N * 4);
    pipe.InitBuffer(qy, 2, N * 4);
    pipe.InitBuffer(qz, 2, N * 4);
    GlobalTensor<float> gx, gy, gz;
    gx.SetGlobalBuffer(g_x.data(), 4 * N);
    gy.SetGlobalBuffer(g_y.data(), 4 * N);
    gz.SetGlobalBuffer(g_z.data(), 4 * N);
    for (int t = 0; t < 4; ++t) {
        LocalTensor<float> x = qx.AllocTensor<float>(), y = qy.AllocTensor<float>();
        DataCopy(x, gx[t * N], N);
        DataCopy(y, gy[t * N], N);
        qx.EnQue(x);
        qy.EnQue(y);
        x = qx.DeQue<float>();
        y = qy.DeQue<float>();
        LocalTensor<float> z = qz.AllocTensor<float>();
        Add(z, x, y, N);
        qz.EnQue(z);
        qx.FreeTensor(x);
        qy.FreeTensor(y);
        z = qz.DeQue<float>();
        DataCopy(gz[t * N], z, N);
        qz.FreeTensor(z);
    }
}

// WAR: tile 0 is loaded (synced), read by Add, then tile 1 is loaded into the same TBuf. `fix`: 0 nothing,
// 1 SetFlag/WaitFlag<V_MTE2>, 2 PipeBarrier<PIPE_ALL>, 3 raw set_flag/wait_flag(PIPE_V, PIPE_MTE2).
static void tbuf_reload(int fix) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bz;
    pipe.InitBuffer(bx, N * 4);
    pipe.InitBuffer(bz, N * 4);
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer(g_x.data(), 4 * N);
    gz.SetGlobalBuffer(g_z.data(), 4 * N);
    LocalTensor<float> x = bx.Get<float>(), z = bz.Get<float>();
    for (int t = 0; t < 2; ++t) {
        if (t == 1) {
            if (fix == 1) { SetFlag<HardEvent::V_MTE2>(EVENT_ID1); WaitFlag<HardEvent::V_MTE2>(EVENT_ID1); }
            if (fix == 2) PipeBarrier<PIPE_ALL>();
            if (fix == 3) { set_flag(PIPE_V, PIPE_MTE2, EVENT_ID1); wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID1); }
            if (fix == 0 || fix == 4) PipeBarrier<PIPE_V>();   // orders V with itself only: does not help
        }
        DataCopy(x, gx[t * N], N);
        SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
        if (t == 1) { SetFlag<HardEvent::MTE3_V>(EVENT_ID2); WaitFlag<HardEvent::MTE3_V>(EVENT_ID2); }
        Muls(z, x, 2.0f, N);
        SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
        DataCopy(gz[t * N], z, N);
    }
}

// Scalar writes (SetValue, PIPE_S) consumed by a vector instruction: needs S_V unless --cce-auto-sync=on.
static float scalar_then_vector() {
    TPipe pipe;
    TBuf<TPosition::VECCALC> ba, bb;
    pipe.InitBuffer(ba, N * 4);
    pipe.InitBuffer(bb, N * 4);
    LocalTensor<float> a = ba.Get<float>(), b = bb.Get<float>();
    for (int i = 0; i < N; ++i) a.SetValue(i, float(i));
    Adds(b, a, 1.0f, N);
    return b.GetValue(N - 1);
}

// High-level API on a TBuf: x (MTE2) -> Sigmoid (V) -> GM (MTE3). `sync` bit 0: MTE2_V pair, bit 1: V_MTE3 pair.
static void tbuf_sigmoid(int sync) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bz;
    pipe.InitBuffer(bx, N * 4);
    pipe.InitBuffer(bz, N * 4);
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer(g_x.data(), 4 * N);
    gz.SetGlobalBuffer(g_z.data(), 4 * N);
    LocalTensor<float> x = bx.Get<float>(), z = bz.Get<float>();
    DataCopy(x, gx, N);
    if (sync & 1) { SetFlag<HardEvent::MTE2_V>(EVENT_ID0); WaitFlag<HardEvent::MTE2_V>(EVENT_ID0); }
    Sigmoid(z, x, uint32_t(N));
    if (sync & 2) { SetFlag<HardEvent::V_MTE3>(EVENT_ID0); WaitFlag<HardEvent::V_MTE3>(EVENT_ID0); }
    DataCopy(gz, z, N);
}
static bool z_is_sigmoid() {
    for (int i = 0; i < N; ++i)
        if (std::fabs(g_z[i] - 1.0f / (1.0f + std::exp(-g_x[i]))) > 1e-5f) return false;
    return true;
}

// Cube path on an AIC core: A, B (16 x 16 half) GM -> L1 (Nd2Nz, MTE2) -> L0A/L0B (LoadData, MTE1) -> Mmad (M)
// -> L0C -> GM (Fixpipe, FIX), `passes` times (later passes reload L0A/L0B and recompute into the same L0C).
// `sync` bit 0: MTE2_MTE1, bit 1: MTE1_M, bit 2: M_FIX, bit 3 / bit 5 (later passes): M_MTE1 / FIX_M,
// bit 4: Mmad and Fixpipe with unitFlag 3 (the hardware's own M <-> FIX handshake on L0C).
static ascsim::CubeMem* g_cube = new ascsim::CubeMem;
static std::vector<half> g_a(256), g_b(256);
static std::vector<float> g_c(256);
static void as_aic() { g_cube->owner = nullptr; g_ctx.core_type = 1; g_ctx.cube = g_cube; }
static void cube_pipeline(int sync, int passes) {
    as_aic();
    TPipe pipe;
    TBuf<TPosition::A1> a1; TBuf<TPosition::B1> b1; TBuf<TPosition::A2> a2; TBuf<TPosition::B2> b2; TBuf<TPosition::CO1> c1;
    pipe.InitBuffer(a1, 512); pipe.InitBuffer(b1, 512);
    pipe.InitBuffer(a2, 512); pipe.InitBuffer(b2, 512); pipe.InitBuffer(c1, 1024);
    GlobalTensor<half> ga, gb;
    GlobalTensor<float> gc;
    ga.SetGlobalBuffer(g_a.data(), 256);
    gb.SetGlobalBuffer(g_b.data(), 256);
    gc.SetGlobalBuffer(g_c.data(), 256);
    LocalTensor<half> la1 = a1.Get<half>(), lb1 = b1.Get<half>(), la2 = a2.Get<half>(), lb2 = b2.Get<half>();
    LocalTensor<float> lc = c1.Get<float>();
    DataCopy(la1, ga, Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 0));
    DataCopy(lb1, gb, Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 0));
    if (sync & 1) { SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0); WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0); }
    for (int pass = 0; pass < passes; ++pass) {
        if (pass && (sync & 8)) { SetFlag<HardEvent::M_MTE1>(EVENT_ID0); WaitFlag<HardEvent::M_MTE1>(EVENT_ID0); }
        LoadData(la2, la1, LoadData2DParams(0, 1, 1, 0, 0, false, 0));
        LoadData(lb2, lb1, LoadData2DParams(0, 1, 1, 0, 0, true, 0));
        if (sync & 2) { SetFlag<HardEvent::MTE1_M>(EVENT_ID0); WaitFlag<HardEvent::MTE1_M>(EVENT_ID0); }
        if (pass && (sync & 32)) { SetFlag<HardEvent::FIX_M>(EVENT_ID0); WaitFlag<HardEvent::FIX_M>(EVENT_ID0); }
        MmadParams mp; mp.m = 16; mp.n = 16; mp.k = 16; mp.cmatrixInitVal = true;
        if (sync & 16) mp.unitFlag = 3;
        Mmad(lc, la2, lb2, mp);
        if (sync & 4) { SetFlag<HardEvent::M_FIX>(EVENT_ID0); WaitFlag<HardEvent::M_FIX>(EVENT_ID0); }
        FixpipeParamsV220 fp; fp.nSize = 16; fp.mSize = 16; fp.srcStride = 16; fp.dstStride = 16;
        if (sync & 16) fp.unitFlag = 3;
        Fixpipe<float, float, CFG_ROW_MAJOR>(gc, lc, fp);
    }
}
static bool c_is_product() {
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) {
            float e = 0;
            for (int k = 0; k < 16; ++k) e += float(g_a[i * 16 + k]) * float(g_b[k * 16 + j]);
            if (std::fabs(g_c[i * 16 + j] - e) > 1e-3f) return false;
        }
    return true;
}

int main() {
    init_gm();
    // (1) TBuf DataCopy GM->UB then Add without MTE2_V: reported, naming both APIs, pipes, offset and the event
    fresh_core(1);
    tbuf_add(2);
    CHECK(z_is_sum(1));
    CHECK(reports() == 1);   // one report per (API pair, pipes), not one per 32-byte block or operand
    CHECK(has(last(), "missing SetFlag<HardEvent::MTE2_V>/WaitFlag between DataCopy (MTE2) and Add (V) on UB 0x"));
    CHECK(has(last(), "read after write"));
    // ... with the flag pair: clean
    init_gm();
    fresh_core(1);
    tbuf_add(3);
    CHECK(z_is_sum(1));
    CHECK(reports() == 0);

    // (2) queue-based copy-in / compute / copy-out: the TPipe's automatic sync orders everything
    init_gm();
    fresh_core(1);
    queue_add();
    CHECK(z_is_sum(4));
    CHECK(reports() == 0);
    if (reports()) std::printf("queue_add: %s\n", last().c_str());
    // ... also with --cce-auto-sync off (queues need no compiler help)
    init_gm();
    fresh_core(1, false);
    queue_add();
    CHECK(z_is_sum(4));
    CHECK(reports() == 0);

    // (3) vector result copied out of a TBuf without V_MTE3
    init_gm();
    fresh_core(1);
    tbuf_add(1);
    CHECK(z_is_sum(1));
    CHECK(reports() == 1);
    CHECK(has(last(), "missing SetFlag<HardEvent::V_MTE3>/WaitFlag between Add (V) and DataCopy (MTE3)"));

    // (4) WAR: reloading a TBuf block that a vector instruction still reads, without V_MTE2 (PipeBarrier<PIPE_V>
    // does not order MTE2)
    init_gm();
    fresh_core(1);
    tbuf_reload(0);
    CHECK(g_z[0] == g_x[0] * 2 && g_z[N + 5] == g_x[N + 5] * 2);
    CHECK(reports() == 1);
    CHECK(has(last(), "missing SetFlag<HardEvent::V_MTE2>/WaitFlag between Muls (V) and DataCopy (MTE2)"));
    CHECK(has(last(), "write after read"));
    // ... the flag pair, PipeBarrier<PIPE_ALL> (5) and the raw intrinsics each fix it
    for (int fix = 1; fix <= 3; ++fix) {
        init_gm();
        fresh_core(1);
        tbuf_reload(fix);
        CHECK(g_z[N + 5] == g_x[N + 5] * 2);
        CHECK(reports() == 0);
        if (reports()) std::printf("fix %d: %s\n", fix, last().c_str());
    }
    // raw set_flag pairs with WaitFlag<HardEvent> (same event slot)
    fresh_core(1);
    CHECK(throws([] { set_flag(PIPE_MTE2, PIPE_V, EVENT_ID3); WaitFlag<HardEvent::MTE2_V>(EVENT_ID3); }) == "");

    // scalar -> vector: implied by --cce-auto-sync=on, reported without it
    fresh_core(1, true);
    CHECK(scalar_then_vector() == float(N));
    CHECK(reports() == 0);
    fresh_core(1, false);
    CHECK(scalar_then_vector() == float(N));
    CHECK(reports() == 2);   // SetValue -> Adds (S_V) and Adds -> GetValue (V_S)
    CHECK(has(last(), "HardEvent::V_S") || has(last(), "HardEvent::S_V"));

    // operands of unknown role (APIs that only call check_count, e.g. the high-level ones): checked like a read
    // (an earlier MTE3 read is no conflict: RmsNorm's BroadCast reads a tensor that was just copied out) and
    // recorded like a write (a later MTE3 read still needs V_MTE3)
    init_gm();
    fresh_core(1);
    {
        TPipe pipe;
        TBuf<TPosition::VECCALC> bz;
        pipe.InitBuffer(bz, N * 4);
        GlobalTensor<float> gz;
        gz.SetGlobalBuffer(g_z.data(), 4 * N);
        LocalTensor<float> z = bz.Get<float>();
        Duplicate(z, 3.0f, N);
        PipeBarrier<PIPE_ALL>();
        DataCopy(gz, z, N);
        ascsim::check_count("Probe", z, N);
        CHECK(reports() == 0);
        DataCopy(gz[N], z, N);
        CHECK(reports() == 1);
        CHECK(has(last(), "between Probe (V) and DataCopy (MTE3)"));
        CHECK(g_z[N + 7] == 3.0f);
    }

    // (8) a high-level API (Sigmoid) reads a TBuf filled by DataCopy: without MTE2_V the race is reported
    // against the API (its source is a read: "read after write"); with the flag pairs it is clean
    init_gm();
    fresh_core(1);
    tbuf_sigmoid(2);
    CHECK(z_is_sigmoid());
    CHECK(reports() == 1);
    CHECK(has(last(), "missing SetFlag<HardEvent::MTE2_V>/WaitFlag between DataCopy (MTE2) and Sigmoid (V)"));
    CHECK(has(last(), "read after write"));
    init_gm();
    fresh_core(1);
    tbuf_sigmoid(1);   // result copied out without V_MTE3: the API's destination is a PIPE_V write
    CHECK(reports() == 1);
    CHECK(has(last(), "missing SetFlag<HardEvent::V_MTE3>/WaitFlag between Sigmoid (V) and DataCopy (MTE3)"));
    init_gm();
    fresh_core(1);
    tbuf_sigmoid(3);
    CHECK(z_is_sigmoid());
    CHECK(reports() == 0);
    if (reports()) std::printf("sigmoid: %s\n", last().c_str());
    init_gm();
    fresh_core(2);
    CHECK(has(throws([] { tbuf_sigmoid(2); }), "between DataCopy (MTE2) and Sigmoid (V)"));

    // (9) BroadCast / Sum sources are reads: a source that MTE3 is still copying out is no conflict, but the
    // destinations are writes (write after read against an MTE3 read), and reloading a source the API read needs
    // V_MTE2 (write after read, not write after write). A report joins the two pipes, so each race runs on a
    // fresh core.
    for (int scenario = 0; scenario < 5; ++scenario) {
        init_gm();
        fresh_core(1);
        TPipe pipe;
        TBuf<TPosition::VECCALC> bs, bd, bq, bm;
        pipe.InitBuffer(bs, 64 * 4);
        pipe.InitBuffer(bd, 64 * 4);
        pipe.InitBuffer(bq, 32 * 4);
        pipe.InitBuffer(bm, 8 * 4);
        GlobalTensor<float> gx, gz;
        gx.SetGlobalBuffer(g_x.data(), 4 * N);
        gz.SetGlobalBuffer(g_z.data(), 4 * N);
        LocalTensor<float> s = bs.Get<float>(), d = bd.Get<float>(), q = bq.Get<float>(), m = bm.Get<float>();
        const uint32_t dshape[2] = {8, 8}, sshape[2] = {8, 1};
        SumParams sp;
        sp.outter = 4; sp.inner = 8; sp.n = 8;
        DataCopy(s, gx, 64);
        DataCopy(q, gx[64], 32);
        PipeBarrier<PIPE_ALL>();
        if (scenario == 0) {
            DataCopy(gz, s, 8);        // MTE3 reads the BroadCast source ...
            DataCopy(gz[64], q, 32);   // ... and the Sum source
            BroadCast<float, 2, 1>(d, s, dshape, sshape);   // ... while V reads them: read after read, no sync needed
            Sum(m, q, sp);
            CHECK(reports() == 0);
            if (reports()) std::printf("broadcast/sum sources: %s\n", last().c_str());
            bool ok = true;
            for (int r = 0; r < 8; ++r)
                for (int c = 0; c < 8; ++c) ok = ok && d.GetValue(r * 8 + c) == g_x[r];
            CHECK(ok);
            for (int r = 0; r < 4; ++r) {
                float e = 0;
                for (int i = 0; i < 8; ++i) e += g_x[64 + r * 8 + i];
                CHECK(std::fabs(m.GetValue(r) - e) < 1e-4f);
            }
        } else if (scenario == 1) {
            DataCopy(gz[128], d, 64);                       // MTE3 reads d ...
            BroadCast<float, 2, 1>(d, s, dshape, sshape);   // ... while V rewrites it: MTE3_V
            CHECK(reports() == 1);
            CHECK(has(last(), "missing SetFlag<HardEvent::MTE3_V>/WaitFlag between DataCopy (MTE3) and BroadCast (V)"));
            CHECK(has(last(), "write after read"));
        } else if (scenario == 2) {
            DataCopy(gz[256], m, 8);
            Sum(m, q, sp);
            CHECK(reports() == 1);
            CHECK(has(last(), "missing SetFlag<HardEvent::MTE3_V>/WaitFlag between DataCopy (MTE3) and Sum (V)"));
            CHECK(has(last(), "write after read"));
        } else if (scenario == 3) {
            Sum(m, q, sp);
            DataCopy(q, gx, 32);       // reloading Sum's source while V reads it: V_MTE2, write after read
            CHECK(reports() == 1);
            CHECK(has(last(), "missing SetFlag<HardEvent::V_MTE2>/WaitFlag between Sum (V) and DataCopy (MTE2)"));
            CHECK(has(last(), "write after read"));
        } else {
            BroadCast<float, 2, 1>(d, s, dshape, sshape);
            DataCopy(s, gx, 64);       // the same for BroadCast's source
            CHECK(reports() == 1);
            CHECK(has(last(), "between BroadCast (V) and DataCopy (MTE2)") && has(last(), "write after read"));
        }
    }

    // (10) raw intrinsics and sort instructions: sources are reads, destinations writes
    init_gm();
    fresh_core(1);
    {
        TPipe pipe;
        TBuf<TPosition::VECCALC> ba, bb, bi, bo;
        pipe.InitBuffer(ba, 64 * 4);
        pipe.InitBuffer(bb, 64 * 4);
        pipe.InitBuffer(bi, 32 * 4);
        pipe.InitBuffer(bo, 32 * 8);
        GlobalTensor<float> gx, gz;
        gx.SetGlobalBuffer(g_x.data(), 4 * N);
        gz.SetGlobalBuffer(g_z.data(), 4 * N);
        LocalTensor<float> a = ba.Get<float>(), b = bb.Get<float>(), o = bo.Get<float>();
        LocalTensor<uint32_t> ix = bi.Get<uint32_t>();
        DataCopy(a, gx, 64);
        for (int i = 0; i < 32; ++i) ix.SetValue(i, uint32_t(i));
        PipeBarrier<PIPE_ALL>();
        DataCopy(gz, a, 64);   // MTE3 reads a while V reads it below: no report
        copy_ubuf_to_ubuf((__ubuf__ void*)b.GetPhyAddr(), (__ubuf__ void*)a.GetPhyAddr(), 0, 1, 8, 0, 0);
        Sort32(o, a, ix, 1);
        SetVectorMask<float>(0, ~0ull);
        vcadd((__ubuf__ float*)b.GetPhyAddr() + 56, (__ubuf__ float*)a.GetPhyAddr(), 1, 1, 1, 8);
        CHECK(reports() == 0);
        if (reports()) std::printf("raw sources: %s\n", last().c_str());
        float e = 0;
        for (int i = 0; i < 64; ++i) e += g_x[i];
        CHECK(std::fabs(b.GetValue(56) - e) < 1e-3f);
        CHECK(b.GetValue(3) == g_x[3]);
        SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
        WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
        DataCopy(a, gx[64], 64);   // reloading the source the V instructions read: write after read
        CHECK(reports() == 1);
        CHECK(has(last(), "V_MTE2") && has(last(), "write after read"));
        DataCopy(gz, b, 64);       // copy_ubuf_to_ubuf / vcadd results read by MTE3 without V_MTE3
        CHECK(reports() == 2);
        CHECK(has(last(), "V_MTE3"));
    }

    // (11) cube path on an AIC (L1 / L0A / L0B / L0C tracked like UB blocks): each missing edge of the
    // MTE2 -> MTE1 -> M -> FIX chain is reported against the two APIs; with every flag pair it is clean
    for (int i = 0; i < 256; ++i) { g_a[i] = half(float((i * 7) % 11) - 5.0f); g_b[i] = half(float((i * 5) % 9) * 0.25f); }
    struct CubeCase { int sync, passes; const char* want; const char* place; };
    const CubeCase cube_cases[] = {
        {7, 1, nullptr, nullptr},
        {47, 2, nullptr, nullptr},
        {27, 2, nullptr, nullptr},   // unitFlag instead of M_FIX / FIX_M
        {6, 1, "missing SetFlag<HardEvent::MTE2_MTE1>/WaitFlag between DataCopy(Nd2NzParams) (MTE2) and LoadData (MTE1)", " on L1 0x"},
        {5, 1, "missing SetFlag<HardEvent::MTE1_M>/WaitFlag between LoadData (MTE1) and Mmad (M)", " on L0"},
        {3, 1, "missing SetFlag<HardEvent::M_FIX>/WaitFlag between Mmad (M) and Fixpipe (FIX)", " on L0C 0x"},
    };
    for (const CubeCase& cc : cube_cases) {
        std::fill(g_c.begin(), g_c.end(), -1.0f);
        fresh_core(1);
        cube_pipeline(cc.sync, cc.passes);
        CHECK(c_is_product());
        CHECK(reports() == (cc.want ? 1u : 0u));
        if (cc.want) CHECK(has(last(), cc.want));
        if (cc.want) CHECK(has(last(), cc.place));   // the cube memory, not the detector's map
        if (cc.want) CHECK(has(last(), "read after write"));
        if (!cc.want && reports()) std::printf("cube %d: %s\n", cc.sync, last().c_str());
    }
    // later passes without M_MTE1 / FIX_M: reloading L0A while Mmad reads it, recomputing L0C while Fixpipe reads it
    fresh_core(1);
    cube_pipeline(7, 2);
    CHECK(c_is_product());
    CHECK(reports() == 2);   // M_MTE1 (LoadData after Mmad) and FIX_M
    CHECK(has(last(), "missing SetFlag<HardEvent::FIX_M>/WaitFlag between Fixpipe (FIX) and Mmad (M)"));
    CHECK(has(last(), "write after read"));
    fresh_core(2);
    CHECK(has(throws([] { cube_pipeline(3, 1); }), "M_FIX"));
    g_ctx.core_type = 2; g_ctx.cube = nullptr;

    // error mode fails the launch with the same message
    init_gm();
    fresh_core(2);
    std::string e = throws([] { tbuf_add(2); });
    CHECK(has(e, "missing synchronisation between pipes"));
    CHECK(has(e, "MTE2_V"));

    // (6) detector off: nothing is recorded or reported, results unchanged
    init_gm();
    fresh_core(0);
    CHECK(g_ctx.sync == nullptr);
    tbuf_add(0);
    tbuf_reload(0);
    CHECK(reports() == 0);
    CHECK(g_z[N + 5] == g_x[N + 5] * 2);

    // environment parsing (what a launch reads)
    setenv("ASCSIM_SYNC_CHECK", "warn", 1);
    CHECK(ascsim::sync_check_mode_from_env() == 1);
    setenv("ASCSIM_SYNC_CHECK", "error", 1);
    CHECK(ascsim::sync_check_mode_from_env() == 2);
    unsetenv("ASCSIM_SYNC_CHECK");
    CHECK(ascsim::sync_check_mode_from_env() == 0);
    CHECK(ascsim::sync_auto_from_env());
    setenv("ASCSIM_CCE_AUTO_SYNC", "off", 1);
    CHECK(!ascsim::sync_auto_from_env());
    unsetenv("ASCSIM_CCE_AUTO_SYNC");

    // (7) at most 8 queue buffers per TPosition
    fresh_core(0);
    {
        TPipe pipe;
        TQue<TPosition::VECIN, 1> q[9];
        for (int i = 0; i < 8; ++i) pipe.InitBuffer(q[i], 1, 64);
        std::string msg = throws([&] { pipe.InitBuffer(q[8], 1, 64); });
        CHECK(has(msg, "queue buffer number at TPosition VECIN is 9, exceeds the limit 8"));
    }
    {
        TPipe pipe;
        TQue<TPosition::VECIN, 1> a[4];
        TQue<TPosition::VECOUT, 1> b[4];
        TQueBind<TPosition::GM, TPosition::VECIN, 1> g;   // = TQue<VECIN>
        TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> bind;
        for (int i = 0; i < 4; ++i) pipe.InitBuffer(a[i], 2, 64);   // 8 at VECIN (double buffered)
        for (int i = 0; i < 4; ++i) pipe.InitBuffer(b[i], 2, 64);   // 8 at VECOUT: counted separately
        CHECK(has(throws([&] { pipe.InitBuffer(g, 1, 64); }), "TPosition VECIN is 9"));
        a[0].FreeAllEvent();                                          // gives 2 back
        CHECK(throws([&] { pipe.InitBuffer(bind, 1, 64); }) == "");   // counted at its source (VECIN): 7
        CHECK(throws([&] { pipe.InitBuffer(g, 1, 64); }) == "");      // 8
        TQue<TPosition::VECIN, 1> extra;
        CHECK(has(throws([&] { pipe.InitBuffer(extra, 1, 64); }), "exceeds the limit 8"));
        TBuf<TPosition::VECIN> tb;                                    // TBufs hold no event ids
        CHECK(throws([&] { pipe.InitBuffer(tb, 64); }) == "");
        pipe.Reset();
        CHECK(throws([&] { pipe.InitBuffer(extra, 1, 64); }) == "");
    }

    ascsim::sync_detach(g_ctx);
    ascsim::bind_test_core(nullptr);
    std::printf("PASS %d\nFAIL %d\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
