// Kernel APIs for resource pools, pipe sync, debug output, the CTRL register and tiling access, against their
// documentation: TBufPool / TPipe::InitBufPool (contiguous carving, shared pools overlap, bufIDSize and the
// 64-buffer limit, a pool overrun warns), TQueSync (the same flags as SetFlag<HardEvent>), DataSyncBarrier,
// GetDataBlockSizeInBytes, AscendC::printf / PRINTF (the "[AIV Block i/N] " prefix, types decide the conversion, the
// 30 KB per-core budget; pytest checks the printed lines), SetCtrlSpr / GetCtrlSpr / SetSaturationFlag,
// COPY_TILING_WITH_STRUCT / COPY_TILING_WITH_ARRAY and TILING_KEY_LIST.
#include <cstdio>
#include <cstring>
#include "kernel_operator.h"

using namespace AscendC;

#include "check.h"

struct Fixture {
    alignas(4096) static inline uint8_t ub[ascsim::kUbBytes];
    ascsim::CoreCtx ctx;
    Fixture() { ctx.ub = ub; std::memset(ub, 0, sizeof ub); ascsim::bind_test_core(&ctx); }
};

struct Inner { uint32_t a; uint32_t b[3]; };
struct Outer { uint64_t n; Inner inner; };

int main() {
    Fixture fx;
    // --- TBufPool ---
    {
        TPipe pipe;
        TBuf<TPosition::VECCALC> before;
        pipe.InitBuffer(before, 100);                       // 128 B
        TBufPool<TPosition::VECCALC> p0;
        pipe.InitBufPool(p0, 4000);                         // rounded to 4000 -> 4000 (a multiple of 32)
        CHECK(p0.Base() == fx.ub + 128 && p0.Length() == 4000);
        TBufPool<TPosition::VECCALC> p1, p2;
        p0.InitBufPool(p1, 1000);                           // 1024 B from p0's start
        TQue<TPosition::VECIN, 2> q;
        p0.InitBuffer(q, 2, 500);                           // 2 x 512 B after p1
        p0.InitBufPool(p2, 1000, p1);                       // shares p1: same start
        CHECK(p1.Base() == p0.Base() && p1.Length() == 1024);
        CHECK(p2.Base() == p1.Base() && p2.Length() == 1024);
        auto t = q.AllocTensor<float>();
        CHECK(reinterpret_cast<uint8_t*>(t.addr_) == p0.Base() + 1024 && t.GetSize() == 128);
        q.FreeTensor(t);
        TBuf<TPosition::VECCALC> b1, b2;
        p1.InitBuffer(b1, 64);
        p2.InitBuffer(b2, 64);
        auto x = b1.Get<int32_t>(), y = b2.Get<int32_t>();
        x.SetValue(0, 1234);
        CHECK(y.GetValue(0) == 1234);                       // the stages reuse the same memory
        p1.Reset();
        CHECK(x.GetValue(0) == 1234);                       // Reset keeps the pool and its buffers
        // a shared pool may not be longer than the pool it shares; bufIDSize limits the buffers
        TBufPool<TPosition::VECCALC> p3;
        CHECK(has(throws([&] { p0.InitBufPool(p3, 2048, p1); }), "exceeds"));
        TBufPool<TPosition::VECCALC, 2> small;
        pipe.InitBufPool(small, 1024);
        TBuf<TPosition::VECCALC> c1, c2, c3;
        small.InitBuffer(c1, 32);
        small.InitBuffer(c2, 32);
        CHECK(has(throws([&] { small.InitBuffer(c3, 32); }), "bufIDSize"));
        // an L1 pool cannot share a UB pool, nor hand out UB buffers
        TBufPool<TPosition::A1> l1;
        CHECK(has(throws([&] { pipe.InitBufPool(l1, 512, p1); }), "physical memory"));
        TBuf<TPosition::VECCALC> c5;                        // small holds 1024 B: a second 1024 B buffer overruns it
        TBufPool<TPosition::VECCALC> over;
        pipe.InitBufPool(over, 1024);
        over.InitBuffer(c5, 1024);
        over.InitBuffer(c3, 32);                            // warns (pytest checks stderr), the buffer follows
        CHECK(c3.Get<uint8_t>().addr_ == over.Base() + 1024);
        TBufPool<TPosition::VECCALC> uninit;
        TBuf<TPosition::VECCALC> c4;
        CHECK(has(throws([&] { uninit.InitBuffer(c4, 32); }), "before InitBufPool"));
    }

    // --- a TPipe copied into a member (kernels keep one and assign the entry's pipe to it) ---
    {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a, b, c;
        pipe.InitBuffer(a, 64);
        TPipe member;
        member = pipe;                                     // the copy continues after pipe's 64 bytes
        member.InitBuffer(b, 32);
        CHECK(b.Get<uint8_t>().addr_ == fx.ub + 64 && member.UsedBytes() == 96 && pipe.UsedBytes() == 64);
        pipe.InitBuffer(c, 32);                            // the original knows nothing of the copy's buffer
        CHECK(c.Get<uint8_t>().addr_ == fx.ub + 64);
        CHECK(GetTPipePtr() == &member);                   // constructed last
    }
    {   // a reused TPipe: Destroy, then Init allocates from the start again
        TPipe pipe;
        TBuf<TPosition::VECCALC> a, b;
        pipe.InitBuffer(a, 256);
        pipe.Destroy();
        pipe.Init();
        pipe.InitBuffer(b, 32);
        CHECK(b.Get<uint8_t>().addr_ == fx.ub && pipe.UsedBytes() == 32);
        CHECK(pipe.GetBaseAddr(static_cast<int8_t>(TPosition::VECIN)) == fx.ub);
        CHECK(uint32_t(b.Get<uint8_t>().addr_ - pipe.GetBaseAddr(int8_t(TPosition::VECCALC))) == 0);
        pipe.DestroyWithoutPipeAll();
    }

    // --- TQueSync / DataSyncBarrier / GetDataBlockSizeInBytes ---
    {
        static_assert(GetDataBlockSizeInBytes() == 32, "a DataBlock is 32 bytes");
        TQueSync<PIPE_MTE2, PIPE_V> sync;
        sync.SetFlag(3);
        sync.WaitFlag(3);
        sync.SetFlag(4);
        WaitFlag<HardEvent::MTE2_V>(4);                     // the HardEvent spelling waits on the same flag
        CHECK(has(throws([&] { sync.WaitFlag(5); }), "never set"));   // a wait that nothing set would hang the core
        CHECK(has(throws([&] { sync.SetFlag(8); }), "outside 0 ~ 7"));
        DataSyncBarrier<MemDsbT::ALL>();
    }

    // --- printf / PRINTF: pytest reads these lines ---
    {
        int8_t i8 = -5;
        int64_t big = 1ll << 40;
        half h = 1.5f;
        AscendC::printf("ints %d %ld %u %x|\n", i8, big, uint16_t(65535), 255);
        AscendC::printf("floats %f %.2f %5.1f|\n", h, 2.25f, 3.0);
        PRINTF("str %s pct %% missing %d|\n", "ok");
        fx.ctx.block_idx = 3;
        fx.ctx.block_num = 8;
        printf("unqualified %d|\n", 7);                     // with using namespace AscendC this is AscendC::printf
        fx.ctx.printf_bytes = 30 * 1024 - 8;               // the per-core budget is nearly spent: the record is dropped
        AscendC::printf("dropped|\n");
        fx.ctx.block_idx = 0;
        fx.ctx.block_num = 1;
    }

    // --- CTRL register ---
    {
        CHECK((GetCtrlSpr<48, 48>()) == 1);                 // inf/NaN kept, what the simulator computes
        CHECK(GetSaturationFlag<SaturationMode::FLOAT>() == false);
        SetSaturationFlag<SaturationMode::FLOAT>(true);
        CHECK((GetCtrlSpr<48, 48>()) == 0 && GetSaturationFlag<SaturationMode::FLOAT>());
        SetCtrlSpr<48, 48>(1);
        CHECK((GetCtrlSpr<48, 48>()) == 1);
        CHECK((GetCtrlSpr<0, 63>()) == int64_t(1ull << 48));
    }

    // --- tiling access ---
    {
        Outer o{};
        o.n = 9;
        o.inner.a = 5;
        o.inner.b[0] = 1; o.inner.b[1] = 2; o.inner.b[2] = 3;
        GET_TILING_DATA_PTR_WITH_STRUCT(Outer, tp, &o);
        auto reads = [](__tiling_data_ptr__ Outer* p) { return p->inner.b[1]; };   // the qualifier kernels spell
        CHECK(reads(tp) == 2);
        COPY_TILING_WITH_STRUCT(Outer, tp, local);
        COPY_TILING_WITH_STRUCT(Inner, tp->inner, inner);
        COPY_TILING_WITH_ARRAY(uint32_t, 3, tp->inner.b, arr);
        o.n = 0; o.inner.a = 0; o.inner.b[2] = 0;           // copies, not views
        CHECK(local->n == 9 && inner->a == 5 && arr[2] == 3);
        fx.ctx.tiling_key = 7;
        CHECK(TILING_KEY_LIST(3, 7) && !TILING_KEY_LIST(3, 8));
    }

    std::printf("PASS %d FAIL %d\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
