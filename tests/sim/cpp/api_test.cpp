// Unit tests of ascsim's kernel-side API semantics, run on one simulated core bound to the test thread.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>
#include "kernel_operator.h"

using namespace AscendC;

#include "check.h"
static uint16_t hb(float f) { half h = f; return h.bits_; }

#include "ub_fixture.h"

int main() {
    Fixture fx;
    // --- half / bfloat16 rounding ---
    CHECK(hb(1.0f) == 0x3C00);
    CHECK(hb(65504.0f) == 0x7BFF);
    CHECK(hb(65520.0f) == 0x7C00);                 // rounds up to +inf
    CHECK(hb(5.9604645e-8f) == 0x0001);            // smallest subnormal
    CHECK(hb(2049.0f) == hb(2048.0f));             // tie -> even
    CHECK(hb(2051.0f) == hb(2052.0f));             // tie -> even (up)
    CHECK(float(half(0.1f)) == 0.0999755859375f);
    CHECK(bfloat16_t(1.00390625f).bits_ == 0x3F80);   // tie -> even
    CHECK(bfloat16_t(1.01171875f).bits_ == 0x3F82);   // tie -> even (up)
    CHECK(std::isnan(float(half::from_bits(0x7E00))));
    // the fast (F16C) and the portable conversion paths agree bit for bit
    {
        int bad = 0;
        for (uint32_t b = 0; b < 65536; ++b) {
            float x = ascsim::half_bits_to_float(uint16_t(b)), y = ascsim::soft_half_bits_to_float(uint16_t(b));
            if (!(x == y || (std::isnan(x) && std::isnan(y)))) ++bad;
        }
        uint32_t u = 12345;
        for (int k = 0; k < 2000000; ++k) {
            u = u * 1664525u + 1013904223u;
            float f = ascsim::u2f((u & 0x8FFFFFFFu) | ((u >> 3) & 0x38000000u));   // favour the half range
            uint16_t hw = ascsim::float_to_half_bits(f), sw = ascsim::soft_float_to_half_bits(f);
            if (hw != sw && !(std::isnan(f))) ++bad;
        }
        CHECK(bad == 0);
    }

    // --- Cast round modes ---
    auto f = fx.at<float>(0, 64);
    auto i = fx.at<int32_t>(1024, 64);
    float vals[8] = {2.5f, -2.5f, 1.5f, -1.5f, 0.4f, -0.6f, 3e10f, -3e10f};
    for (int k = 0; k < 8; ++k) f.SetValue(k, vals[k]);
    Cast(i, f, RoundMode::CAST_RINT, 8);
    CHECK(i.GetValue(0) == 2 && i.GetValue(1) == -2 && i.GetValue(2) == 2 && i.GetValue(6) == INT32_MAX && i.GetValue(7) == INT32_MIN);
    Cast(i, f, RoundMode::CAST_ROUND, 8);
    CHECK(i.GetValue(0) == 3 && i.GetValue(1) == -3 && i.GetValue(3) == -2);
    Cast(i, f, RoundMode::CAST_FLOOR, 8);
    CHECK(i.GetValue(3) == -2 && i.GetValue(4) == 0 && i.GetValue(5) == -1);
    Cast(i, f, RoundMode::CAST_CEIL, 8);
    CHECK(i.GetValue(4) == 1 && i.GetValue(5) == 0);
    Cast(i, f, RoundMode::CAST_TRUNC, 8);
    CHECK(i.GetValue(0) == 2 && i.GetValue(5) == 0);
    auto h = fx.at<half>(2048, 64);
    f.SetValue(0, 1.0f + 1.0f / 4096);           // between two halves: 1.0 and 1.0009765625
    Cast(h, f, RoundMode::CAST_ODD, 1);
    CHECK(h.GetValue(0).bits_ == 0x3C01);
    Cast(h, f, RoundMode::CAST_FLOOR, 1);
    CHECK(h.GetValue(0).bits_ == 0x3C00);
    Cast(h, f, RoundMode::CAST_CEIL, 1);
    CHECK(h.GetValue(0).bits_ == 0x3C01);
    {   // fast float<->half/bf16 cast paths agree with the generic per-element conversion
        auto src = fx.at<float>(58368, 200);
        auto hh = fx.at<half>(59392, 200);
        auto bb = fx.at<bfloat16_t>(59904, 200);
        auto back = fx.at<float>(60416, 200);
        uint32_t u = 7;
        for (int k = 0; k < 200; ++k) { u = u * 1664525u + 1013904223u; src.SetValue(k, ascsim::u2f((u & 0x8FFFFFFFu) | 0x38000000u)); }
        int bad = 0;
        Cast(hh, src, RoundMode::CAST_RINT, 199);
        for (int k = 0; k < 199; ++k) if (hh.GetValue(k).bits_ != ascsim::convert<half, float>(src.GetValue(k), ascsim::R_RINT).bits_) ++bad;
        Cast(back, hh, RoundMode::CAST_NONE, 199);
        for (int k = 0; k < 199; ++k) if (back.GetValue(k) != float(hh.GetValue(k))) ++bad;
        Cast(bb, src, RoundMode::CAST_RINT, 199);
        for (int k = 0; k < 199; ++k) if (bb.GetValue(k).bits_ != ascsim::convert<bfloat16_t, float>(src.GetValue(k), ascsim::R_RINT).bits_) ++bad;
        Cast(back, bb, RoundMode::CAST_NONE, 199);
        for (int k = 0; k < 199; ++k) if (back.GetValue(k) != float(bb.GetValue(k))) ++bad;
        CHECK(bad == 0);
    }
    // supported pair, unsupported mode: no instruction on hardware -> strict error
    CHECK(has(throws([&] { Cast(i, f, RoundMode::CAST_NONE, 8); }), "no instruction"));
    auto bf = fx.at<bfloat16_t>(3072, 64);
    CHECK(has(throws([&] { Cast(bf, f, RoundMode::CAST_NONE, 8); }), "CAST_NONE"));

    // --- binary ops: count form and level-0 with mask / strides ---
    auto a = fx.at<float>(4096, 128), b = fx.at<float>(8192, 128), c = fx.at<float>(12288, 128);
    for (int k = 0; k < 128; ++k) { a.SetValue(k, float(k)); b.SetValue(k, 1000.0f); c.SetValue(k, -1.0f); }
    Add(c, a, b, 100);
    CHECK(c.GetValue(0) == 1000.0f && c.GetValue(99) == 1099.0f && c.GetValue(100) == -1.0f);
    for (int k = 0; k < 128; ++k) c.SetValue(k, -1.0f);
    Add(c, a, b, 10, 2, {1, 1, 1, 8, 8, 8});      // first 10 of each 64-element repeat
    CHECK(c.GetValue(9) == 1009.0f && c.GetValue(10) == -1.0f && c.GetValue(64) == 1064.0f && c.GetValue(74) == -1.0f);
    for (int k = 0; k < 128; ++k) c.SetValue(k, -1.0f);
    uint64_t m2[2] = {0x5ull, 0};
    Mul(c, a, b, m2, 1, {2, 1, 1, 8, 8, 8});          // bits 0 and 2; dst block stride 2
    CHECK(c.GetValue(0) == 0.0f && c.GetValue(2) == 2000.0f && c.GetValue(1) == -1.0f);
    // counter mode: mask = total element count
    for (int k = 0; k < 128; ++k) c.SetValue(k, -1.0f);
    SetMaskCount();
    SetVectorMask<float, MaskMode::COUNTER>(0, 70);
    Add<float, false>(c, a, b, MASK_PLACEHOLDER, 1, {1, 1, 1, 8, 8, 8});
    SetMaskNorm();
    ResetMask();
    CHECK(c.GetValue(69) == 1069.0f && c.GetValue(70) == -1.0f);
    auto hs = fx.at<half>(16384, 128);
    Duplicate(hs, half(1.5f), 128);
    Muls(hs, hs, half(2.0f), 128);
    Adds(hs, hs, half(-1.0f), 128);
    CHECK(float(hs.GetValue(127)) == 2.0f);
    {   // the chunked half path (F16C bulk conversion) equals per-element float math + RNE, incl. tails
        auto h1 = fx.at<half>(53248, 300), h2 = fx.at<half>(54272, 300), h3 = fx.at<half>(55296, 300);
        uint32_t u = 99;
        for (int k = 0; k < 300; ++k) {
            u = u * 1664525u + 1013904223u;
            h1.SetValue(k, half(float(int(u % 20001) - 10000) / 77.0f));
            h2.SetValue(k, half(float(int((u >> 8) % 20001) - 10000) / 13.0f));
        }
        Mul(h3, h1, h2, 299);
        int bad = 0;
        for (int k = 0; k < 299; ++k) if (h3.GetValue(k).bits_ != half(float(h1.GetValue(k)) * float(h2.GetValue(k))).bits_) ++bad;
        Exp(h3, h1, 37);
        for (int k = 0; k < 37; ++k) if (h3.GetValue(k).bits_ != half(std::exp(float(h1.GetValue(k)))).bits_) ++bad;
        CHECK(bad == 0);
    }
    Mins(hs, hs, half(1.25f), 64);
    CHECK(float(hs.GetValue(0)) == 1.25f && float(hs.GetValue(64)) == 2.0f);

    // --- DataCopy tail truncation (GM -> UB): 20 halves = 40 B -> only 32 B move ---
    std::vector<half> gm(64, half(7.0f));
    GlobalTensor<half> g;
    g.SetGlobalBuffer(gm.data(), 64);
    auto d = fx.at<half>(20480, 64);
    Duplicate(d, half(0.0f), 64);
    DataCopy(d, g, 20);
    CHECK(float(d.GetValue(15)) == 7.0f && float(d.GetValue(16)) == 0.0f);
    // DataCopyPad: blockLen in bytes, copies exactly 20 halves
    Duplicate(d, half(0.0f), 64);
    DataCopyPad(d, g, DataCopyExtParams{1, 40, 0, 0, 0}, DataCopyPadExtParams<half>{false, 0, 0, half(0.0f)});
    CHECK(float(d.GetValue(19)) == 7.0f && float(d.GetValue(20)) == 0.0f);
    // DataCopy with DataCopyParams: blockLen in 32 B blocks, gaps in blocks
    Duplicate(d, half(0.0f), 64);
    DataCopy(d, g, DataCopyParams{2, 1, 0, 1});
    CHECK(float(d.GetValue(15)) == 7.0f && float(d.GetValue(16)) == 0.0f && float(d.GetValue(32)) == 7.0f);

    // --- atomic accumulation of UB -> GM copies ---
    {
        std::vector<float> acc(8, 1.0f);
        GlobalTensor<float> ga;
        ga.SetGlobalBuffer(acc.data(), 8);
        auto l = fx.at<float>(57344, 8);
        Duplicate(l, 2.5f, 8);
        SetAtomicAdd<float>();
        DataCopy(ga, l, 8);
        DataCopy(ga, l, 8);
        CHECK(acc[3] == 6.0f);   // 1 + 2.5 + 2.5
        SetAtomicNone();
        DataCopy(ga, l, 8);
        CHECK(acc[7] == 2.5f);
        SetAtomicAdd<float>();
        DataCopy(ga, l, 8);
        SetAtomicNone();
        CHECK(acc[0] == 5.0f);
    }

    // --- Fill / InitGlobalMemory (docs: `size` elements of GM set to `value`, through UB and MTE3: an enabled atomic
    // mode applies) ---
    {
        std::vector<int32_t> gi(10000, -1);
        GlobalTensor<int32_t> g32;
        g32.SetGlobalBuffer(gi.data() + 1, 9998);
        InitGlobalMemory(g32, 9000, int32_t(7));   // longer than one staging piece
        CHECK(gi[0] == -1 && gi[1] == 7 && gi[9000] == 7 && gi[9001] == -1);
        std::vector<float> gf(16, 1.0f);
        GlobalTensor<float> gff;
        gff.SetGlobalBuffer(gf.data(), 16);
        Fill(gff, 16, 0.5f);
        CHECK(gf[0] == 0.5f && gf[15] == 0.5f);
        SetAtomicAdd<float>();
        Fill(gff, 8, 2.0f);
        SetAtomicNone();
        CHECK(gf[7] == 2.5f && gf[8] == 0.5f);
        std::vector<half> gh(4, half(0.0f));
        GlobalTensor<half> ghh;
        ghh.SetGlobalBuffer(gh.data(), 4);
        Fill(ghh, 3, half(1.5f));
        CHECK(float(gh[2]) == 1.5f && float(gh[3]) == 0.0f);
    }

    // --- InitSocState: atomic accumulation off, mask mode normal, mask all ones ---
    SetAtomicAdd<float>();
    SetMaskCount();
    SetVectorMask<float>(0, 5);
    InitSocState();
    CHECK(ascsim::core().atomic_op == 0 && !ascsim::core().counter_mode && ascsim::core().mask[0] == ~0ull &&
          ascsim::core().mask[1] == ~0ull);

    // --- ListTensorDesc / TensorDesc on the documented layout (the docs' example: shapes {1,2,3} and {3,4,5}) ---
    {
        std::vector<float> t0(6, 1.0f), t1(60, 2.0f);
        std::vector<uint64_t> blob{72, 3, 1, 2, 3, 3 | (1ull << 32), 3, 4, 5, uint64_t(uintptr_t(t0.data())),
                                   uint64_t(uintptr_t(t1.data()))};
        ListTensorDesc list(blob.data(), 88, 2);
        CHECK(list.GetSize() == 2 && list.GetDataPtr<float>(1) == t1.data());
        uint64_t shape[8];
        TensorDesc<float> desc;
        desc.SetShapeAddr(shape);
        list.GetDesc(desc, 1);
        CHECK(desc.GetDim() == 3 && desc.GetIndex() == 1 && desc.GetShape(0) == 3 && desc.GetShape(2) == 5 &&
              desc.GetDataPtr() == t1.data() && desc.GetDataObj().GetSize() == 60 && desc.GetDataObj().GetValue(59) == 2.0f);
        CHECK(has(throws([&] { list.GetDataPtr<float>(2); }), "tensor index out of range"));
        CHECK(has(throws([&] { desc.GetShape(3); }), "dimension out of range"));
        CHECK(has(throws([&] { ListTensorDesc(blob.data(), 80, 2); }), "tensor list check failed"));   // length
        TensorDesc<float> unset;
        CHECK(has(throws([&] { list.GetDesc(unset, 0); }), "SetShapeAddr"));
        // a 3-d and a 2-d tensor: the device would decode the second descriptor with 3 dims
        std::vector<uint64_t> mixed{64, 3, 1, 2, 3, 2 | (1ull << 32), 4, 5, 0, 0};
        CHECK(has(throws([&] { ListTensorDesc bad(mixed.data()); }), "rank"));
        // pointers only: dim 0, the count in the high word, a filler, the pointers from byte 24
        std::vector<uint64_t> ptrs{24, 2ull << 32, 0xffffffff, uint64_t(uintptr_t(t0.data())), uint64_t(uintptr_t(t1.data()))};
        ListTensorDesc plain(ptrs.data());
        CHECK(plain.GetSize() == 2 && plain.GetDataPtr<float>(0) == t0.data());
    }

    // --- AscendC::Std: the documented standard-library subset ---
    static_assert(Std::is_same<Std::conditional<true, int32_t, float>::type, int32_t>::value);
    static_assert(Std::min(int64_t(3), int64_t(-2)) == -2 && Std::max(uint32_t(3), uint32_t(9)) == 9);
    static_assert(Std::get<1>(Std::make_tuple(1, 2.5f)) == 2.5f);
    static_assert(Std::is_integral<uint8_t>::value && !Std::is_floating_point<int>::value &&
                  Std::is_floating_point<const float>::value);
    CHECK(Std::abs(-3) == 3 && Std::sqrt(16.0f) == 4.0f);

    // --- Compare / Select ---
    auto x = fx.at<float>(24576, 64), y = fx.at<float>(28672, 64);
    for (int k = 0; k < 64; ++k) { x.SetValue(k, float(k)); y.SetValue(k, 10.0f); }
    auto bits = fx.at<uint8_t>(32768, 64);
    Compare(bits, x, y, CMPMODE::LT, 64);
    CHECK(bits.GetValue(0) == 0xFF && bits.GetValue(1) == 0x03 && bits.GetValue(2) == 0x00);
    auto z = fx.at<float>(36864, 64);
    Select(z, bits, x, y, SELMODE::VSEL_TENSOR_TENSOR_MODE, 64);
    CHECK(z.GetValue(9) == 9.0f && z.GetValue(10) == 10.0f && z.GetValue(63) == 10.0f);
    CHECK(has(throws([&] { Compare(bits, i, i, CMPMODE::LT, 64); }), "EQ"));
    {   // level-0 CompareScalar / Compares: on A2 the mask is reserved (every lane of each repeat compares); the
        // tensor-scalar level-0 Select takes the scalar where the bit is 0
        auto xs = fx.at<float>(40960, 128), zs = fx.at<float>(45056, 128);
        for (int k = 0; k < 128; ++k) xs.SetValue(k, float(k));
        auto b2 = fx.at<uint8_t>(49152, 32);
        UnaryRepeatParams up(1, 1, 8, 8);
        CompareScalar(b2, xs, 70.0f, CMPMODE::GE, uint64_t(1), 2, up);          // mask 1 has no effect on A2
        CHECK(b2.GetValue(0) == 0x00 && b2.GetValue(8) == 0xC0 && b2.GetValue(15) == 0xFF);
        uint64_t mk[2] = {1, 0};
        Compares(b2, xs, 3.0f, CMPMODE::LT, mk, 1, up);
        CHECK(b2.GetValue(0) == 0x07 && b2.GetValue(1) == 0x00);
        BinaryRepeatParams bp(1, 1, 1, 8, 8, 8);
        CompareScalar(b2, xs, 70.0f, CMPMODE::GE, uint64_t(64), 2, up);
        Select(zs, b2, xs, -1.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, uint64_t(64), 2, bp);
        CHECK(zs.GetValue(69) == -1.0f && zs.GetValue(70) == 70.0f && zs.GetValue(127) == 127.0f && zs.GetValue(0) == -1.0f);
        uint64_t half_mask[2] = {0xFFFFFFFFull, 0};                             // Select honours its mask: lanes 32..63 untouched
        zs.SetValue(40, 123.0f);
        Select(zs, b2, xs, -2.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, half_mask, 1, bp);
        CHECK(zs.GetValue(0) == -2.0f && zs.GetValue(40) == 123.0f);
    }

    // --- reductions (argument orders differ between families) ---
    for (int k = 0; k < 64; ++k) x.SetValue(k, float(k % 8));
    WholeReduceSum(z, x, 64, 1, 1, 1, 8);
    CHECK(z.GetValue(0) == 224.0f);
    BlockReduceSum(z, x, 1, 64, 8, 1, 8);
    CHECK(z.GetValue(0) == 28.0f && z.GetValue(7) == 28.0f);
    PairReduceSum(z, x, 1, 64, 8, 1, 8);
    CHECK(z.GetValue(0) == 1.0f && z.GetValue(1) == 5.0f);
    x.SetValue(37, 99.0f);
    auto tmp = fx.at<float>(40960, 64);
    ReduceMax(z, x, tmp, 64, true);
    uint32_t idx;
    std::memcpy(&idx, &z.addr_[1], 4);
    CHECK(z.GetValue(0) == 99.0f && idx == 37);
    WholeReduceMax(z, x, 64, 1, 1, 1, 8);
    std::memcpy(&idx, &z.addr_[1], 4);
    CHECK(z.GetValue(0) == 99.0f && idx == 37);
    ReduceSum(z, x, tmp, 64);
    CHECK(z.GetValue(0) == 224.0f - 5.0f + 99.0f);

    // --- Gather / GatherMask / Brcb ---
    auto offs = fx.at<uint32_t>(45056, 8);
    for (int k = 0; k < 8; ++k) offs.SetValue(k, uint32_t((7 - k) * 4));
    for (int k = 0; k < 64; ++k) x.SetValue(k, float(k));
    Gather(z, x, offs, 0, 8);
    CHECK(z.GetValue(0) == 7.0f && z.GetValue(7) == 0.0f);
    uint64_t cnt = 0;
    GatherMask(z, x, uint8_t(2), false, 0, GatherMaskParams{1, 1, 8, 0}, cnt);
    CHECK(cnt == 32 && z.GetValue(0) == 1.0f && z.GetValue(1) == 3.0f);
    Brcb(z, x, 1, BrcbRepeatParams{1, 8});
    CHECK(z.GetValue(0) == 0.0f && z.GetValue(8) == 1.0f && z.GetValue(63) == 7.0f);

    // --- bitwise / shift on 16-bit ints ---
    auto s16 = fx.at<int16_t>(49152, 16), t16 = fx.at<int16_t>(50176, 16);
    Duplicate(s16, int16_t(0x0F0F), 16);
    Duplicate(t16, int16_t(0x00FF), 16);
    And(s16, s16, t16, 16);
    CHECK(s16.GetValue(0) == 0x000F);
    ShiftLeft(s16, s16, int16_t(4), 16);
    CHECK(s16.GetValue(15) == 0x00F0);
    Duplicate(s16, int16_t(-16), 16);
    ShiftRight(s16, s16, int16_t(2), 16);
    CHECK(s16.GetValue(0) == -4);   // arithmetic shift for signed types

    // --- strict checks ---
    CHECK(has(throws([&] { Add(fx.at<float>(ascsim::kUbBytes - 128, 64), a, b, 64); }), "ub address out of bounds"));
    CHECK(has(throws([&] { Add(fx.at<float>(4100, 64), a, b, 64); }), "not aligned"));
    {
        TPipe pipe;
        TQue<TPosition::VECIN, 1> q;
        pipe.InitBuffer(q, 1, 256);
        CHECK(has(throws([&] { q.DeQue<float>(); }), "empty queue"));
        auto t1 = q.AllocTensor<float>();
        CHECK(std::isnan(t1.GetValue(0)));      // never written since InitBuffer: UB garbage (poison)
        CHECK(has(throws([&] { q.AllocTensor<float>(); }), "in use"));
        t1.SetValue(0, 42.0f);
        q.EnQue(t1);
        auto t2 = q.DeQue<float>();
        q.FreeTensor(t2);
        CHECK(has(throws([&] { q.FreeTensor(t2); }), "double FreeTensor"));
        auto t3 = q.AllocTensor<float>();      // the same slot again: its data are what was last written there
        CHECK(t3.GetValue(0) == 42.0f && std::isnan(t3.GetValue(1)));
        q.FreeTensor(t3);
        TBuf<TPosition::VECCALC> tb;
        pipe.InitBuffer(tb, 64);
        // Get beyond the TBuf breaks a documented constraint the device does not check: a warning, and the tensor
        // overlaps the UB after the buffer (here: the rest of the UB), usable up to the end of the UB
        LocalTensor<float> over;
        CHECK(throws([&] { over = tb.Get<float>(32); }).empty());
        CHECK(over.GetSize() == 32 && over.GetPhyAddr() == tb.Get<float>().GetPhyAddr());
        CHECK(throws([&] { Duplicate(over, 2.0f, 32); }).empty() && over.GetValue(31) == 2.0f);
        CHECK(throws([&] { over = tb.GetWithOffset<float>(16, 32); }).empty() && over.GetSize() == 16);
        CHECK(has(throws([&] { tb.GetWithOffset<float>(4, 16); }), "aligned"));
        // an InitBuffer beyond the UB only warns (the device faults on access, and real answers over-allocate
        // buffers they never touch); the first access beyond the UB fails
        TBuf<TPosition::VECCALC> big;
        CHECK(throws([&] { pipe.InitBuffer(big, 200 * 1024); }).empty());
        CHECK(has(throws([&] { Duplicate(big.Get<float>(), 1.0f, 200 * 256); }), "ub address out of bounds"));
    }
    // PopStackBuffer (docs, resource management): a tensor over all the space left at the position, i.e. the UB
    // after the last InitBuffer; it is usable like any UB tensor
    {
        TPipe pipe;
        TBuf<TPosition::VECCALC> t1;
        TQue<TPosition::VECIN, 2> q1;
        pipe.InitBuffer(t1, 1000);            // 1024 B after 32 B alignment
        pipe.InitBuffer(q1, 2, 4096);
        LocalTensor<int16_t> pop;
        CHECK((PopStackBuffer<int16_t, TPosition::LCM>(pop)));
        CHECK(reinterpret_cast<uint8_t*>(pop.GetPhyAddr()) == fx.ub + 1024 + 2 * 4096);
        CHECK(pop.GetSize() == (ascsim::kUbBytes - 1024 - 2 * 4096) / 2 && pop.GetPosition() == TPosition::VECCALC);
        LocalTensor<float> popf;
        CHECK((PopStackBuffer<float, TPosition::VECOUT>(popf)) && popf.GetSize() == (ascsim::kUbBytes - 9216) / 4);
        Duplicate(pop, int16_t(7), int32_t(pop.GetSize()));   // the whole remaining UB, in bounds
        CHECK(pop.GetValue(pop.GetSize() - 1) == 7 && pop.GetValue(0) == 7);
    }
    {   // an error ends the core through the kernel's destructors; one that waits for the events its constructor
        // set (as catlass block classes do) must not turn the report into an abort: the first error is reported
        struct Pipeline {
            Pipeline() { SetFlag<HardEvent::MTE1_MTE2>(3); }
            ~Pipeline() { WaitFlag<HardEvent::MTE1_MTE2>(3); WaitFlag<HardEvent::MTE1_MTE2>(3); }
        };
        std::string e = throws([&] { Pipeline p; Add(fx.at<float>(ascsim::kUbBytes - 128, 64), a, b, 64); });
        CHECK(has(e, "ub address out of bounds"));
    }
    CHECK(has(throws([&] { WholeReduceSum(z, x, 64, 300, 1, 1, 8); }), "repeatTime"));
    CHECK(has(throws([&] { WaitFlag<HardEvent::V_S>(0); }), "timeout"));
    SetFlag<HardEvent::MTE2_V>(1);
    WaitFlag<HardEvent::MTE2_V>(1);
    {   // two fetches of a free id return the same id (nothing is reserved): set, set, wait, wait runs on the device,
        // where the waiting pipe consumes the first set before the second; a third wait would still hang
        TPipe pipe;
        event_t e1 = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(e1);
        event_t e2 = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_V));
        CHECK(e1 == e2);
        SetFlag<HardEvent::MTE2_V>(e2);
        CHECK(throws([&] { WaitFlag<HardEvent::MTE2_V>(e1); WaitFlag<HardEvent::MTE2_V>(e2); }).empty());
        CHECK(has(throws([&] { WaitFlag<HardEvent::MTE2_V>(e1); }), "timeout"));
    }

    // SelectWithBytesMask (documented: mask 0 -> src0, otherwise src1; the mask's extra last-axis columns unused)
    {
        auto src = fx.at<float>(0, 16);        // [2, 8]
        auto dst = fx.at<float>(4096, 16);
        auto mask = fx.at<uint8_t>(8192, 64);  // [2, 32]
        auto tmp = fx.at<uint8_t>(12288, 1024);
        for (int k = 0; k < 16; ++k) src.SetValue(k, float(k));
        for (int k = 0; k < 64; ++k) mask.SetValue(k, uint8_t(k % 3 == 0 ? 1 : 0));
        SelectWithBytesMaskShapeInfo info;
        info.firstAxis = 2;
        info.srcLastAxis = 8;
        info.maskLastAxis = 32;
        SelectWithBytesMask(dst, src, -1.0f, mask, tmp, info);
        // row 1 reads mask[32 + c], not mask[8 + c]: (32 + c) % 3 == 0 for c = 1, 4, 7
        CHECK(dst.GetValue(0) == -1.0f && dst.GetValue(1) == 1.0f && dst.GetValue(3) == -1.0f);
        CHECK(dst.GetValue(8) == 8.0f && dst.GetValue(9) == -1.0f && dst.GetValue(12) == -1.0f && dst.GetValue(15) == -1.0f);
        SelectWithBytesMask(dst, 5.0f, src, mask, tmp, info);   // scalar first: mask 0 -> the scalar
        CHECK(dst.GetValue(0) == 0.0f && dst.GetValue(1) == 5.0f && dst.GetValue(9) == 9.0f && dst.GetValue(8) == 5.0f);
        info.maskLastAxis = 24;   // a multiple of 16 is required
        CHECK(has(throws([&] { SelectWithBytesMask(dst, src, 0.0f, mask, tmp, info); }), "multiple of 16"));
        info.maskLastAxis = 32;
        info.srcLastAxis = 6;     // 24 B: not 32-byte aligned
        CHECK(has(throws([&] { SelectWithBytesMask(dst, src, 0.0f, mask, tmp, info); }), "not 32-byte aligned"));
    }
    // ShapeInfo (documented constructors; without an original shape the original is the shape) on both tensor kinds
    {
        uint32_t shape[2] = {3, 16}, original[2] = {3, 15};
        LocalTensor<float> lt;
        lt.SetShapeInfo(ShapeInfo(2, shape, 2, original, DataFormat::ND));
        CHECK(lt.GetShapeInfo().shapeDim == 2 && lt.GetShapeInfo().shape[1] == 16 && lt.GetShapeInfo().originalShape[1] == 15);
        GlobalTensor<float> gt;
        gt.SetShapeInfo(ShapeInfo(2, shape, DataFormat::NZ));
        CHECK(gt.GetShapeInfo().originalShapeDim == 2 && gt.GetShapeInfo().originalShape[1] == 16 &&
              gt.GetShapeInfo().dataFormat == DataFormat::NZ);
        CHECK(ShapeInfo(1, shape).dataFormat == DataFormat::ND && uint8_t(DataFormat::NC1HWC0) == 3);
        uint32_t nine[9] = {};
        CHECK(has(throws([&] { ShapeInfo(9, nine); }), "dimension count above the maximum"));
    }
    // ===== reductions: the half overflow rule and the ORDER_ONLY_INDEX layout of the older APIs =====
    // Expected values from the boundary-value appendix (Memory vector APIs: the ReduceRepeat<SUM> / ReduceDataBlock<SUM>
    // / ReduceSum tables, successors of WholeReduceSum / BlockReduceSum per the API change list) and the
    // ReduceDataBlock page: half sums are non-saturating by default (overflow -> +-inf, inf/NaN propagate); with
    // CTRL[48] = 0 every partial sum of the tree that comes out +-inf is kept as +-65504 and a NaN as 0. Each
    // partial sum is a half. float keeps inf/NaN in both modes. WholeReduceMax/Min with ORDER_ONLY_INDEX: the index
    // is a uint32_t and dstRepStride counts 4 bytes, also for half (WholeReduceMax page, ReduceRepeat table 3).
    {
        const float inf = INFINITY, nan = NAN;
        auto hs = fx.at<half>(65536, 256), hd = fx.at<half>(81920, 256), ht = fx.at<half>(90112, 256);
        auto fs = fx.at<float>(65536, 64), fd = fx.at<float>(81920, 64);
        auto put = [&](std::initializer_list<float> head, float rest, int n = 128) {   // head values, then `rest`
            int k = 0;
            for (float v : head) hs.addr_[k++] = half(v);
            for (; k < n; ++k) hs.addr_[k] = half(rest);
        };
        auto is = [](half h, float want) {   // bit-exact for numbers (the sign of zero included), any NaN for NaN
            return std::isnan(want) ? std::isnan(float(h)) : h.bits_ == half(want).bits_;
        };
        auto wsum = [&]() { WholeReduceSum(hd, hs, 128, 1, 1, 1, 8); return hd.GetValue(0); };
        CHECK((GetCtrlSpr<48, 48>()) == 1);   // the launch state: INF/NAN mode
        for (int sat = 0; sat < 2; ++sat) {
            SetCtrlSpr<48, 48>(sat ? 0 : 1);
            auto pick = [&](float infnan, float saturated) { return sat ? saturated : infnan; };
            // WholeReduceSum (ReduceRepeat<SUM> table, one repeat of 128 halves)
            put({}, 65504.f);               CHECK_MSG(is(wsum(), pick(inf, 65504.f)), "all MAX, sat %d", sat);
            put({}, -65504.f);              CHECK_MSG(is(wsum(), pick(-inf, -65504.f)), "all MIN, sat %d", sat);
            put({}, -0.f);                  CHECK_MSG(is(wsum(), -0.f), "all -0, sat %d", sat);
            put({}, nan);                   CHECK_MSG(is(wsum(), pick(nan, 0.f)), "all nan, sat %d", sat);
            put({}, inf);                   CHECK_MSG(is(wsum(), pick(inf, 65504.f)), "all inf, sat %d", sat);
            for (int k = 0; k < 128; ++k) hs.addr_[k] = half(k % 2 ? -inf : inf);
            CHECK_MSG(is(wsum(), pick(nan, 0.f)), "inf/-inf alternating, sat %d", sat);
            for (int k = 0; k < 128; ++k) hs.addr_[k] = half(k % 3 == 0 ? inf : k % 3 == 1 ? -inf : nan);
            CHECK_MSG(is(wsum(), pick(nan, 0.f)), "inf/-inf/nan alternating, sat %d", sat);
            put({inf}, 1.f);                CHECK_MSG(is(wsum(), pick(inf, 65504.f)), "127 ones + inf, sat %d", sat);
            put({-inf}, 1.f);               CHECK_MSG(is(wsum(), pick(-inf, -65376.f)), "127 ones + -inf, sat %d", sat);
            put({nan}, 1.f);                CHECK_MSG(is(wsum(), pick(nan, 126.f)), "127 ones + nan, sat %d", sat);
            // the older pages' example [60000, 60000, -30000, 100]: 65504 + (-29904) = 35600 -> 35584 in half arithmetic
            // under saturation (the pages' 35604 is exact arithmetic); inf by default
            put({60000.f, 60000.f, -30000.f, 100.f}, 0.f);
            CHECK_MSG(is(wsum(), pick(inf, 35584.f)), "doc example, sat %d", sat);
            put({65504.f, 16.f}, 0.f);      // 65520 is the rounding boundary: it rounds to inf
            CHECK_MSG(is(wsum(), pick(inf, 65504.f)), "65504 + 16, sat %d", sat);
            put({65504.f, 15.f}, 0.f);      // 65519 rounds back to 65504 in both modes
            CHECK_MSG(is(wsum(), 65504.f), "65504 + 15, sat %d", sat);
            // RepeatReduceSum follows the same rule
            put({}, 65504.f);
            RepeatReduceSum(hd, hs, 1, 128, 0, 1, 1, 8);
            CHECK_MSG(is(hd.GetValue(0), pick(inf, 65504.f)), "RepeatReduceSum all MAX, sat %d", sat);
            // BlockReduceSum (ReduceDataBlock<SUM> table, one DataBlock of 16 halves per result)
            for (int k = 0; k < 128; ++k) {
                int b = k / 16, j = k % 16;
                float v = b == 0 ? 65504.f : b == 1 ? (j % 2 ? -inf : inf) : b == 2 ? (j == 5 ? nan : 1.f)
                        : b == 3 ? nan : b == 4 ? -0.f : b == 5 ? -65504.f : b == 6 ? inf : 1.f;
                hs.addr_[k] = half(v);
            }
            BlockReduceSum(hd, hs, 1, 128, 1, 1, 8);
            const float bwant[2][8] = {{inf, nan, nan, nan, -0.f, -inf, inf, 16.f}, {65504.f, 0.f, 14.f, 0.f, -0.f, -65504.f, 65504.f, 16.f}};
            for (int b = 0; b < 8; ++b) CHECK_MSG(is(hd.GetValue(b), bwant[sat][b]), "BlockReduceSum block %d, sat %d", b, sat);
            // PairReduceSum: one partial sum per pair
            put({65504.f, 65504.f, inf, -inf, nan, 1.f, 65504.f, 16.f, -65504.f, -15.f}, 0.f);
            PairReduceSum(hd, hs, 1, 128, 1, 1, 8);
            const float pwant[2][5] = {{inf, nan, nan, inf, -65504.f}, {65504.f, 0.f, 0.f, 65504.f, -65504.f}};
            for (int p = 0; p < 5; ++p) CHECK_MSG(is(hd.GetValue(p), pwant[sat][p]), "PairReduceSum pair %d, sat %d", p, sat);
            // ReduceSum (its own table; 256 halves = 2 repeats): the count form adds the two repeat sums in order,
            // the level-0 form by the tree; both give the table's values here
            auto rsum = [&](int form) {
                if (form == 0) ReduceSum(hd, hs, ht, 256);
                else ReduceSum(hd, hs, ht, 128, 2, 8);
                return hd.GetValue(0);
            };
            for (int form = 0; form < 2; ++form) {
                put({}, 65504.f, 256);          CHECK_MSG(is(rsum(form), pick(inf, 65504.f)), "ReduceSum all MAX, form %d sat %d", form, sat);
                put({}, -65504.f, 256);         CHECK_MSG(is(rsum(form), pick(-inf, -65504.f)), "ReduceSum all MIN, form %d sat %d", form, sat);
                put({}, nan, 256);              CHECK_MSG(is(rsum(form), pick(nan, 0.f)), "ReduceSum all nan, form %d sat %d", form, sat);
                put({inf, -inf, nan}, 1.f, 256); CHECK_MSG(is(rsum(form), pick(nan, 252.f)), "ReduceSum inf,-inf,nan + 253 ones, form %d sat %d", form, sat);
                put({inf, -inf}, 1.f, 256);     CHECK_MSG(is(rsum(form), pick(nan, 254.f)), "ReduceSum inf,-inf + 254 ones, form %d sat %d", form, sat);
                put({inf}, 1.f, 256);           CHECK_MSG(is(rsum(form), pick(inf, 65504.f)), "ReduceSum 255 ones + inf, form %d sat %d", form, sat);
                put({-inf}, 1.f, 256);          CHECK_MSG(is(rsum(form), pick(-inf, -65248.f)), "ReduceSum 255 ones + -inf, form %d sat %d", form, sat);
                put({nan}, 1.f, 256);           CHECK_MSG(is(rsum(form), pick(nan, 254.f)), "ReduceSum 255 ones + nan, form %d sat %d", form, sat);
            }
            // 256 x 256: each repeat sums to 32768 (finite), the add of the two repeat sums overflows
            put({}, 256.f, 256);
            CHECK_MSG(is(rsum(0), pick(inf, 65504.f)), "ReduceSum cross-repeat overflow, sat %d", sat);
            CHECK(GetAccVal<half>().bits_ == hd.GetValue(0).bits_);
            // float keeps inf / NaN whatever the mode
            for (int k = 0; k < 64; ++k) fs.addr_[k] = 3.4028235e38f;
            WholeReduceSum(fd, fs, 64, 1, 1, 1, 8);
            CHECK_MSG(std::isinf(fd.GetValue(0)) && fd.GetValue(0) > 0, "float all MAX, sat %d", sat);
            fs.addr_[3] = nan;
            WholeReduceSum(fd, fs, 64, 1, 1, 1, 8);
            CHECK_MSG(std::isnan(fd.GetValue(0)), "float nan, sat %d", sat);
        }
        SetCtrlSpr<48, 48>(1);

        // ORDER_ONLY_INDEX: the WholeReduceMax page's half example (4 repeats of 128, the maximum of each at lanes 52,
        // 100, 7, 19) gives [idx 0 idx 0 ...] read as halves, i.e. one uint32_t per repeat
        const uint32_t at[4] = {52, 100, 7, 19};
        auto hs4 = fx.at<half>(65536, 512);
        auto fill4 = [&](int mx) {   // repeat r: r + 1 (MAX) / -(r + 1) / 2 (MIN) everywhere but +-(10 + r) at lane at[r]
            for (int r = 0; r < 4; ++r)
                for (int k = 0; k < 128; ++k)
                    hs4.addr_[r * 128 + k] = half(k == int(at[r]) ? (mx ? 10.f + r : -10.f - r) : float(r + 1) * (mx ? 1.f : -0.5f));
        };
        for (int mx = 1; mx >= 0; --mx) {
            fill4(mx);
            for (int stride : {1, 3}) {
                std::memset(hd.addr_, 0x5A, 256);
                if (mx) WholeReduceMax(hd, hs4, 128, 4, stride, 1, 8, ReduceOrder::ORDER_ONLY_INDEX);
                else WholeReduceMin(hd, hs4, 128, 4, stride, 1, 8, ReduceOrder::ORDER_ONLY_INDEX);
                bool ok = true;
                const uint8_t* bytes = reinterpret_cast<const uint8_t*>(hd.addr_);
                for (int r = 0; r < 4; ++r) {
                    uint32_t got;
                    std::memcpy(&got, bytes + 4 * stride * r, 4);
                    ok &= got == at[r];
                    for (int gap = 4; gap < 4 * stride; ++gap) ok &= bytes[4 * stride * r + gap] == 0x5A;
                }
                for (int b = 4 * stride * 3 + 4; b < 256; ++b) ok &= bytes[b] == 0x5A;
                CHECK_MSG(ok, "Whole%s half ORDER_ONLY_INDEX, dstRepStride %d", mx ? "ReduceMax" : "ReduceMin", stride);
            }
            // GetReduceMaxMinCount still answers the whole call's extreme and its position from the first element
            half v, vi;
            GetReduceMaxMinCount(v, vi);
            CHECK(float(v) == (mx ? 13.f : -13.f) && vi.bits_ == 3 * 128 + 19);
        }
        // the other orders keep their units: ONLY_VALUE one half, VALUE_INDEX two halves
        fill4(1);
        std::memset(hd.addr_, 0x5A, 256);
        WholeReduceMax(hd, hs4, 128, 4, 1, 1, 8, ReduceOrder::ORDER_ONLY_VALUE);
        CHECK(float(hd.GetValue(0)) == 10.f && float(hd.GetValue(3)) == 13.f && hd.GetValue(4).bits_ == 0x5A5A);
        WholeReduceMax(hd, hs4, 128, 4, 1, 1, 8, ReduceOrder::ORDER_VALUE_INDEX);
        CHECK(float(hd.GetValue(6)) == 13.f && hd.GetValue(7).bits_ == 19);
        // float: the index is 4 bytes as well
        auto fs4 = fx.at<float>(65536, 256);
        for (int k = 0; k < 256; ++k) fs4.addr_[k] = k % 64 == 9 + k / 64 ? 100.f : 0.f;
        std::memset(fd.addr_, 0x5A, 64);
        WholeReduceMax(fd, fs4, 64, 4, 1, 1, 8, ReduceOrder::ORDER_ONLY_INDEX);
        bool fok = true;
        for (int r = 0; r < 4; ++r) { uint32_t got; std::memcpy(&got, &fd.addr_[r], 4); fok &= got == uint32_t(9 + r); }
        CHECK(fok && reinterpret_cast<const uint8_t*>(fd.addr_)[16] == 0x5A);
        // the written footprint is 4 bytes a repeat: 4 repeats need 16 bytes before the end of the UB
        auto dEnd16 = fx.at<half>(ascsim::kUbBytes - 16, 8), dEnd8 = fx.at<half>(ascsim::kUbBytes - 8, 4);
        CHECK(throws([&] { WholeReduceMax(dEnd16, hs4, 128, 4, 1, 1, 8, ReduceOrder::ORDER_ONLY_INDEX); }).empty());
        CHECK(has(throws([&] { WholeReduceMax(dEnd8, hs4, 128, 4, 1, 1, 8, ReduceOrder::ORDER_ONLY_INDEX); }), "out of bounds"));
        CHECK(throws([&] { WholeReduceMax(dEnd8, hs4, 128, 4, 1, 1, 8, ReduceOrder::ORDER_ONLY_VALUE); }).empty());
    }
    // ===== reductions: MAX / MIN with inf / NaN in both CTRL[48] modes =====
    // Expected values transcribed from the boundary-value appendix: ReduceDataBlock<MAX/MIN> (tables 33 / 34, one
    // DataBlock), ReduceRepeat<MAX/MIN> (tables 36 / 37, one repeat; the same values) and ReduceMax / ReduceMin
    // (tables 39 / 40: half 256 elements = 2 repeats with the listed specials first and ones after, float 64).
    // BlockReduceMax/Min and WholeReduceMax/Min are the older names of the first two and must agree. The 14 rows of
    // each table: all MIN, all MAX, all 0, all -0, all NaN, all inf, all -inf, inf/-inf/NaN, inf/-inf, inf/NaN,
    // -inf/NaN, ones + one inf, ones + one -inf, ones + one NaN. In the inf/NaN mode a NaN anywhere gives NaN; with
    // saturation on a half result is written NaN -> 0, +-inf -> +-65504, and ReduceMax/Min's second pass compares the
    // per-repeat results so written (hence 1.0 for "inf, NaN + 254 ones"); float ignores the mode. The docs give no
    // index for a NaN result: the simulator reports the first NaN's (checked here in the inf/NaN mode only).
    {
        const float inf = INFINITY, nan = NAN, H = 65504.f, F = 3.4028235e38f;
        auto same_as = [](auto got, float want) {   // bit-exact for numbers (the sign of zero too), any NaN for NaN
            using T = decltype(got);
            if (std::isnan(want)) return std::isnan(float(got));
            T w = T(want);
            return std::memcmp(&got, &w, sizeof(T)) == 0;
        };
        // the row's n values; rows 7-10 alternate their specials, or (`head`) list them once then ones; rows 11-13
        // put their one special at `pos`
        auto row_values = [&](int row, int n, float lo, float hi, bool head, int pos) {
            const float cyc[4][3] = {{inf, -inf, nan}, {inf, -inf, 0.f}, {inf, nan, 0.f}, {-inf, nan, 0.f}};
            const int clen[4] = {3, 2, 2, 2};
            const float all[7] = {lo, hi, 0.f, -0.f, nan, inf, -inf};
            std::vector<float> v(size_t(n), 1.f);
            for (int i = 0; i < n; ++i) {
                if (row < 7) v[i] = all[row];
                else if (row < 11) v[i] = head ? (i < clen[row - 7] ? cyc[row - 7][i] : 1.f) : cyc[row - 7][i % clen[row - 7]];
                else if (i == pos) v[i] = row == 11 ? inf : row == 12 ? -inf : nan;
            }
            return v;
        };
        auto first_index = [](const std::vector<float>& v, float want) {   // first NaN, or the first element == want
            for (size_t i = 0; i < v.size(); ++i)
                if (std::isnan(want) ? std::isnan(v[i]) : v[i] == want) return uint32_t(i);
            return ~0u;
        };
        const float dbmax_h[2][14] = {{-H, H, 0.f, -0.f, nan, inf, -inf, nan, inf, nan, nan, inf, 1.f, nan},
                                      {-H, H, 0.f, -0.f, 0.f, H, -H, 0.f, H, 0.f, 0.f, H, 1.f, 0.f}};
        const float dbmin_h[2][14] = {{-H, H, 0.f, -0.f, nan, inf, -inf, nan, -inf, nan, nan, 1.f, -inf, nan},
                                      {-H, H, 0.f, -0.f, 0.f, H, -H, 0.f, -H, 0.f, 0.f, 1.f, -H, 0.f}};
        const float max_f[14] = {-F, F, 0.f, -0.f, nan, inf, -inf, nan, inf, nan, nan, inf, 1.f, nan};
        const float min_f[14] = {-F, F, 0.f, -0.f, nan, inf, -inf, nan, -inf, nan, nan, 1.f, -inf, nan};
        const float rmax_h_sat[14] = {-H, H, 0.f, -0.f, 0.f, H, -H, 1.f, H, 1.f, 1.f, H, 1.f, 1.f};   // table 39
        // (table 40's saturation column is table 34's; both tables' inf/NaN columns are tables 33 / 34's)
        auto run = [&](auto tag) {
            using T = decltype(tag);
            constexpr bool is_half = std::is_same_v<T, half>;
            constexpr int epr = 256 / int(sizeof(T)), epb = 32 / int(sizeof(T));
            const char* tn = is_half ? "half" : "float";
            auto s = fx.at<T>(65536, 512), d1 = fx.at<T>(81920, 64), d2 = fx.at<T>(86016, 64), w = fx.at<T>(90112, 512);
            auto idx_of = [](T slot) { uint32_t b = 0; std::memcpy(&b, &slot, sizeof(T)); return b; };
            const float lo = is_half ? -H : -F, hi = is_half ? H : F;
            for (int sat = 0; sat < 2; ++sat) {
                SetCtrlSpr<48, 48>(sat ? 0 : 1);
                for (int mx = 1; mx >= 0; --mx) {
                    const char* op = mx ? "MAX" : "MIN";
                    for (int row = 0; row < 14; ++row) {
                        for (int pos : {-1, 0}) {   // rows 11-13: the special last, then first
                            if (row < 11 && pos == 0) continue;
                            const float want0 = is_half ? (mx ? dbmax_h : dbmin_h)[0][row] : (mx ? max_f : min_f)[row];
                            const float want = is_half ? (mx ? dbmax_h : dbmin_h)[sat][row] : want0;
                            // ReduceDataBlock / BlockReduce: every DataBlock of one repeat holds the row
                            auto v = row_values(row, epb, lo, hi, false, pos < 0 ? epb - 1 : pos);
                            for (int i = 0; i < epr; ++i) s.addr_[i] = T(v[size_t(i % epb)]);
                            std::memset(d1.addr_, 0x5A, 256);
                            std::memset(d2.addr_, 0x5A, 256);
                            if (mx) { ReduceDataBlock<ReduceType::MAX, T>(d1, s, epr, 1, 1, 1, 8); BlockReduceMax(d2, s, 1, epr, 1, 1, 8); }
                            else { ReduceDataBlock<ReduceType::MIN, T>(d1, s, epr, 1, 1, 1, 8); BlockReduceMin(d2, s, 1, epr, 1, 1, 8); }
                            bool ok = true;
                            for (int b = 0; b < 8; ++b) ok &= same_as(d1.addr_[b], want) && same_as(d2.addr_[b], want);
                            CHECK_MSG(ok, "ReduceDataBlock / BlockReduce %s %s row %d pos %d sat %d: got %g", op, tn, row, pos, sat, double(float(d1.addr_[0])));
                            // ReduceRepeat / WholeReduce: one repeat, value and index
                            v = row_values(row, epr, lo, hi, false, pos < 0 ? epr - 1 : pos);
                            for (int i = 0; i < epr; ++i) s.addr_[i] = T(v[size_t(i)]);
                            if (mx) { ReduceRepeat<ReduceType::MAX, T>(d1, s, epr, 1, 1, 1, 8); WholeReduceMax(d2, s, epr, 1, 1, 1, 8); }
                            else { ReduceRepeat<ReduceType::MIN, T>(d1, s, epr, 1, 1, 1, 8); WholeReduceMin(d2, s, epr, 1, 1, 1, 8); }
                            const uint32_t widx = first_index(v, want0);   // the pick does not depend on the mode
                            ok = same_as(d1.addr_[0], want) && same_as(d2.addr_[0], want) && idx_of(d1.addr_[1]) == widx &&
                                 idx_of(d2.addr_[1]) == widx;
                            CHECK_MSG(ok, "ReduceRepeat / WholeReduce %s %s row %d pos %d sat %d: got %g idx %u", op, tn, row, pos, sat,
                                      double(float(d1.addr_[0])), idx_of(d1.addr_[1]));
                            // ReduceMax / ReduceMin: the count form and the level-0 form, with the index
                            const int n2 = is_half ? 256 : 64;
                            v = row_values(row, n2, lo, hi, is_half, pos < 0 ? n2 - 1 : pos);
                            for (int i = 0; i < n2; ++i) s.addr_[i] = T(v[size_t(i)]);
                            const float want2 = is_half && sat ? (mx ? rmax_h_sat[row] : dbmin_h[1][row]) : want0;
                            for (int form = 0; form < 2; ++form) {
                                if (form == 0) { if (mx) ReduceMax(d1, s, w, n2, true); else ReduceMin(d1, s, w, n2, true); }
                                else if (mx) ReduceMax(d1, s, w, epr, n2 / epr, 8, true);
                                else ReduceMin(d1, s, w, epr, n2 / epr, 8, true);
                                T gv, gi;
                                GetReduceMaxMinCount(gv, gi);
                                ok = same_as(d1.addr_[0], want2) && same_as(gv, want2);
                                if (!(is_half && sat)) ok &= idx_of(d1.addr_[1]) == first_index(v, want0);
                                CHECK_MSG(ok, "Reduce%s %s form %d row %d pos %d sat %d: got %g idx %u", mx ? "Max" : "Min", tn, form, row,
                                          pos, sat, double(float(d1.addr_[0])), idx_of(d1.addr_[1]));
                            }
                        }
                    }
                }
            }
            SetCtrlSpr<48, 48>(1);
            // the whole call's extreme (GetReduceMaxMinCount) over two repeats: a NaN in the second repeat beats the
            // larger number of the first, and its position counts from the first element
            for (int i = 0; i < 2 * epr; ++i) s.addr_[i] = T(i == 3 ? 100.f : i == epr + 5 ? nan : 1.f);
            for (int api = 0; api < 2; ++api) {
                if (api == 0) WholeReduceMax(d1, s, epr, 2, 1, 1, 8);
                else ReduceRepeat<ReduceType::MAX, T>(d1, s, epr, 2, 1, 1, 8);
                T gv, gi;
                GetReduceMaxMinCount(gv, gi);
                CHECK_MSG(float(d1.addr_[0]) == 100.f && std::isnan(float(d1.addr_[2])) && std::isnan(float(gv)) &&
                              idx_of(gi) == uint32_t(epr + 5), "%s two-repeat register, api %d", tn, api);
            }
        };
        run(half{});
        run(float{});
    }
    std::printf("PASS %d FAIL %d\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
