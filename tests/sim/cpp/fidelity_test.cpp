// Fidelity of ascsim against the documented device behaviour (issue 14): reduction order and precision, the
// reduction overloads real kernels call, and the GM out-of-bounds model that follows torch_npu's allocator.
// Every expected value is computed here from the documentation's description, independently of the simulator:
// - ReduceSum/WholeReduceSum: a binary tree inside a repeat, adjacent pairs first (data0+data1, data2+data3, ...);
//   every partial sum is a T. half overflow: by default (CTRL[48] = 1, non-saturating) a half partial sum past the
//   range is +-inf (boundary-value appendix, ReduceSum table); in saturation mode (CTRL[48] = 0) it is kept as
//   +-65504 and a NaN as 0 (the ReduceDataBlock page's example [60000, 60000, -30000, 100] -> 35604);
//   on A2 the count form adds the per-repeat results in order, the level-0 (mask/repeat) form by the tree again.
// - GetAccVal<T>(): the count-form ReduceSum result; the untyped GetAccVal()/get_acc_val(): the accumulator
//   register, the result's bit pattern in its low bytes (kernels reinterpret it).
// - ReduceMax/ReduceMin: value then index (bits in a T slot), the index counting from the start of the source.
// - TQue FreeTensor: frees the tensor's own buffer, also when called through another queue of the core.
// - GM: tensors are blocks of one segment (size + 32 B rounded up to 512 B); reads past a tensor inside the
//   segment warn, writes into the tensor's own padding warn, writes reaching the next block fail naming both.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include "kernel_operator.h"

using namespace AscendC;

#include "check.h"

#include "ub_fixture.h"

// The documented tree over `lanes` values (a power of two), in T's precision; half as in saturation mode (an inf
// partial sum becomes +-65504, a NaN 0).
template <class T> static T doc_add(T a, T b) {
    T r = T(float(a) + float(b));
    if (sizeof(T) == 2 && std::isnan(float(r))) r = T(0.0f);
    else if (sizeof(T) == 2 && std::isinf(float(r))) r = T(float(r) > 0 ? 65504.0f : -65504.0f);
    return r;
}
template <class T> static T doc_tree(std::vector<T> v) {
    size_t n = 1;
    while (n < v.size()) n *= 2;
    v.resize(n, T(0.0f));
    while (n > 1) {
        n /= 2;
        for (size_t i = 0; i < n; ++i) v[i] = doc_add(v[2 * i], v[2 * i + 1]);
    }
    return v[0];
}
static uint32_t bits_of(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }
// The low sizeof(T) bytes of the 64-bit accumulator register, read as T (what the kernels' reinterpret_cast does).
template <class T> static T acc_low(uint64_t reg) { T v; std::memcpy(&v, &reg, sizeof(T)); return v; }

int main() {
    Fixture fx;
    // --- one repeat: adjacent pairs first. [1e8, 1, -1e8, 1]: (1e8+1) + (-1e8+1) = 0 in float, whereas pairing
    // lanes i and i+2 gives 2 and a sequential sum gives 1.
    auto x = fx.at<float>(0, 4096), z = fx.at<float>(65536, 64), tmp = fx.at<float>(98304, 4096);
    for (int k = 0; k < 64; ++k) x.SetValue(k, 0.0f);
    x.SetValue(0, 1e8f); x.SetValue(1, 1.0f); x.SetValue(2, -1e8f); x.SetValue(3, 1.0f);
    WholeReduceSum(z, x, 64, 1, 1, 1, 8);
    CHECK(z.GetValue(0) == 0.0f);
    ReduceSum(z, x, tmp, 4);   // count form: the tail repeat's inactive lanes are 0
    CHECK(z.GetValue(0) == 0.0f);

    // --- half: the doc's overflow example, also through the count form and the raw vcadd. Default (non-saturating)
    // mode: 60000 + 60000 is inf and stays inf; saturation mode (CTRL[48] = 0): 65504, then the rest is added.
    auto h = fx.at<half>(0, 128), hz = fx.at<half>(65536, 128), ht = fx.at<half>(98304, 128);
    for (int k = 0; k < 128; ++k) h.SetValue(k, half(0.0f));
    h.SetValue(0, half(60000.0f)); h.SetValue(1, half(60000.0f)); h.SetValue(2, half(-30000.0f)); h.SetValue(3, half(100.0f));
    // ideal arithmetic gives the doc's 35604; every partial sum rounds to half: 65504 + half(-29900) = 35600 -> 35584 (ties to even)
    half doc_example = doc_tree(std::vector<half>{half(60000.0f), half(60000.0f), half(-30000.0f), half(100.0f)});
    CHECK(std::fabs(float(doc_example) - 35604.0f) <= 32.0f);   // one half ulp at this magnitude
    for (int sat = 0; sat < 2; ++sat) {
        SetCtrlSpr<48, 48>(sat ? 0 : 1);
        const uint16_t want = sat ? doc_example.bits_ : uint16_t(0x7C00);   // +inf by default
        WholeReduceSum(hz, h, 128, 1, 1, 1, 8);
        CHECK(hz.GetValue(0).bits_ == want);
        ReduceSum(hz, h, ht, 4);
        CHECK(hz.GetValue(0).bits_ == want);
        SetVectorMask<half, MaskMode::NORMAL>(~0ull, ~0ull);
        vcadd((__ubuf__ half*)hz.GetPhyAddr(), (__ubuf__ half*)h.GetPhyAddr(), 1, 1, 1, 8, false);
        CHECK(hz.GetValue(0).bits_ == want);
    }
    SetCtrlSpr<48, 48>(1);

    // --- 2048 floats of mixed magnitude: count form = per-repeat tree, repeat sums added in order; level-0 form =
    // per-repeat tree, then the tree again over the 32 repeat sums. The two orders give different floats here.
    uint32_t seed = 7;
    std::vector<float> data(2048);
    for (auto& v : data) {
        seed = seed * 1664525u + 1013904223u;
        float mant = float(seed >> 8) / float(1u << 24) - 0.5f;
        v = mant * std::ldexp(1.0f, int(seed % 23) - 4);
        x.SetValue(uint32_t(&v - data.data()), v);
    }
    std::vector<float> rep(32);
    for (int r = 0; r < 32; ++r) rep[r] = doc_tree(std::vector<float>(data.begin() + 64 * r, data.begin() + 64 * r + 64));
    float in_order = rep[0];
    for (int r = 1; r < 32; ++r) in_order = in_order + rep[r];
    float by_tree = doc_tree(rep);
    double exact = 0;
    for (float v : data) exact += v;
    CHECK(bits_of(in_order) != bits_of(by_tree));   // the test data tells the two documented orders apart
    ReduceSum(z, x, tmp, 2048);
    CHECK_MSG(bits_of(z.GetValue(0)) == bits_of(in_order), "count form %.9g, documented %.9g (tree %.9g, exact %.9g)",
              z.GetValue(0), in_order, by_tree, exact);
    ReduceSum(z, x, tmp, 64, 32, 8);   // level-0: mask 64, 32 repeats, srcRepStride 8
    CHECK_MSG(bits_of(z.GetValue(0)) == bits_of(by_tree), "level-0 form %.9g, documented %.9g", z.GetValue(0), by_tree);
    uint64_t full[2] = {~0ull, 0};
    ReduceSum(z, x, tmp, full, 32, 8);
    CHECK(bits_of(z.GetValue(0)) == bits_of(by_tree));
    CHECK(std::fabs(double(z.GetValue(0)) - exact) <= 1e-5 * std::fabs(exact) + 1e-3);
    // vcadd in accumulate mode (what the count form runs on A2): the same order as the count form
    SetMaskCount();
    SetVectorMask<float, MaskMode::COUNTER>(0, 2048);
    vcadd(nullptr, (__ubuf__ float*)x.GetPhyAddr(), 0, 1, 1, 8, true);   // a bare nullptr, as kernels write it
    SetMaskNorm();
    CHECK(bits_of(acc_low<float>(get_acc_val())) == bits_of(in_order));

    // --- the accumulator register (GetAccVal / get_acc_val). The documented GetAccVal<T>() answers the count-form
    // ReduceSum's result as T; the untyped GetAccVal() and the raw get_acc_val() answer the register, whose low bytes
    // are that result's bit pattern: norm kernels sum through vcadd in accumulate mode and do
    // `uint64_t v = GetAccVal(); float s = *reinterpret_cast<float*>(&v);`. A sum that is negative or not an integer
    // tells the bit pattern from a numeric conversion (int64(-2.75) = -2, whose low 32 bits read as float are NaN).
    {
        auto a = fx.at<float>(0, 128);
        const float vals[5] = {-1.5f, 0.25f, -2.0f, 0.125f, 0.375f};   // exact in float: the sum is -2.75 in any order
        for (int k = 0; k < 128; ++k) a.SetValue(k, k < 5 ? vals[k] : 0.0f);
        const float want = -2.75f;
        ReduceSum(z, a, tmp, 100);
        CHECK(z.GetValue(0) == want);
        CHECK(GetAccVal<float>() == want);
        uint64_t reg = GetAccVal();
        CHECK(bits_of(acc_low<float>(reg)) == bits_of(want));
        CHECK(bits_of(acc_low<float>(get_acc_val())) == bits_of(want));
        // accumulate-mode vcadd, the way the norm kernels call it: whole repeats under a 64-lane mask, then the tail
        // under a 5-lane mask; each call leaves its own sum in the register
        for (int k = 64; k < 69; ++k) a.SetValue(k, vals[k - 64] * 2.0f);   // tail repeat sums to -5.5
        AscendCUtils::SetMask<float>(64);
        vcadd(nullptr, (__ubuf__ float*)a.GetPhyAddr(), 1, 1, 1, 8, true);
        uint64_t body = get_acc_val();
        AscendCUtils::SetMask<float>(5);
        vcadd(nullptr, (__ubuf__ float*)a[64].GetPhyAddr(), 1, 1, 1, 8, true);
        uint64_t tail = GetAccVal();
        CHECK(acc_low<float>(body) == -2.75f);
        CHECK(acc_low<float>(tail) == -5.5f);
        CHECK(!std::isnan(acc_low<float>(body) + acc_low<float>(tail)) && acc_low<float>(body) + acc_low<float>(tail) == -8.25f);
        ResetMask();
        // half: the register holds the half result's 16 bits
        auto ha = fx.at<half>(0, 128), hd = fx.at<half>(65536, 16);
        for (int k = 0; k < 128; ++k) ha.SetValue(k, half(k < 5 ? vals[k] : 0.0f));
        ReduceSum(hd, ha, fx.at<half>(98304, 128), 37);
        CHECK(float(hd.GetValue(0)) == want);
        CHECK(GetAccVal<half>().bits_ == hd.GetValue(0).bits_);
        CHECK(uint16_t(uint64_t(GetAccVal()) & 0xFFFFu) == hd.GetValue(0).bits_);
    }

    // --- dstRepStride units: PairReduceSum counts 128 B (half a repeat), BlockReduceSum 8 results, RepeatReduceSum
    // one result element; so stride 1 packs consecutive repeats' results
    {
        for (int k = 0; k < 256; ++k) x.SetValue(k, float(k));
        auto pr = fx.at<float>(65536, 256);
        for (int k = 0; k < 256; ++k) pr.SetValue(k, -1.0f);
        PairReduceSum(pr, x, 2, 64, 1, 1, 8);
        CHECK(pr.GetValue(0) == 1.0f && pr.GetValue(31) == 125.0f && pr.GetValue(32) == 129.0f && pr.GetValue(63) == 253.0f);
        BlockReduceSum(pr, x, 2, 64, 1, 1, 8);
        CHECK(pr.GetValue(0) == 28.0f && pr.GetValue(7) == 476.0f && pr.GetValue(8) == 540.0f);
        auto hb2 = fx.at<half>(98304, 256), hr = fx.at<half>(131072, 64);
        for (int k = 0; k < 256; ++k) hb2.SetValue(k, half(float(k % 16)));
        BlockReduceSum(hr, hb2, 2, 128, 1, 1, 8);   // half: 8 results = 16 B per unit
        CHECK(float(hr.GetValue(8)) == 120.0f && float(hr.GetValue(15)) == 120.0f);
        RepeatReduceSum(pr, x, 3, 64, 0, 1, 1, 8);
        CHECK(pr.GetValue(0) == 2016.0f && pr.GetValue(1) == 6112.0f && pr.GetValue(2) == 10208.0f);
    }

    // --- ReduceMax / ReduceMin, level-0 overloads with calIndex (mask, repeatTimes, srcRepStride)
    for (int k = 0; k < 256; ++k) x.SetValue(k, float((k * 37) % 101));
    x.SetValue(150, 500.0f);
    x.SetValue(200, -7.0f);
    x.SetValue(201, -7.0f);
    uint32_t idx = 0;
    ReduceMax(z, x, tmp, 64, 4, 8, true);
    std::memcpy(&idx, &z.addr_[1], 4);
    CHECK(z.GetValue(0) == 500.0f && idx == 150);
    {   // GetReduceMaxMinCount hands the index back as integer bits in a T (the docs: reinterpret it)
        float v = 0, iv = 0;
        GetReduceMaxMinCount<float>(v, iv);
        uint32_t ib;
        std::memcpy(&ib, &iv, 4);
        CHECK(v == 500.0f && ib == 150);
    }
    {   // counter-mode WholeReduceMax over 256 elements: per-repeat results in dst (index within the repeat), and
        // the register GetReduceMaxMinCount reads holds the extreme of all of them, indexed from the first element
        SetMaskCount();
        SetVectorMask<float, MaskMode::COUNTER>(0, 256);
        WholeReduceMax<float, false>(z, x, MASK_PLACEHOLDER, 1, 1, 1, 8);
        SetMaskNorm();
        ResetMask();
        uint32_t lane;
        std::memcpy(&lane, &z.addr_[5], 4);
        CHECK(z.GetValue(4) == 500.0f && lane == 150 - 128);
        float v = 0, iv = 0;
        GetReduceMaxMinCount<float>(v, iv);
        uint32_t ib;
        std::memcpy(&ib, &iv, 4);
        CHECK(v == 500.0f && ib == 150);
    }
    ReduceMin(z, x, tmp, 64, 4, 8, true);
    std::memcpy(&idx, &z.addr_[1], 4);
    CHECK(z.GetValue(0) == -7.0f && idx == 200);   // ties: the first
    ReduceMax(z, x, tmp, 64, 2, 8, true);          // only the first two repeats: 150 is outside
    std::memcpy(&idx, &z.addr_[1], 4);
    CHECK(z.GetValue(0) == 100.0f && idx < 128 && x.GetValue(idx) == 100.0f);
    uint64_t low32[2] = {0xFFFFFFFFull, 0};   // first 32 lanes of every repeat: 150 (lane 22 of repeat 2) counts
    ReduceMax(z, x, tmp, low32, 4, 8, true);
    std::memcpy(&idx, &z.addr_[1], 4);
    CHECK(z.GetValue(0) == 500.0f && idx == 150);
    x.SetValue(150, 0.0f);
    ReduceMax(z, x, tmp, low32, 4, 8, true);   // repeat 3, lanes 0-31 = elements 192-223 hold no 100
    std::memcpy(&idx, &z.addr_[1], 4);
    CHECK(idx % 64 < 32 && x.GetValue(idx) == z.GetValue(0));
    ReduceMax(z, x, tmp, 256, false);          // count form without index
    CHECK(z.GetValue(0) == 100.0f);
    // dst only needs 8-byte alignment for float value+index (the docs), not 32 B
    auto z8 = fx.at<float>(65536 + 8, 2);
    float first_max = x.GetValue(0);
    for (int k = 1; k < 64; ++k) first_max = std::max(first_max, x.GetValue(k));
    ReduceMax(z8, x, tmp, 64, 1, 8, true);
    CHECK(z8.GetValue(0) == first_max);
    CHECK(throws([&] { ReduceMax(fx.at<float>(65536 + 4, 2), x, tmp, 64, 1, 8, true); }) != "");

    // --- whole-tensor operator forms (the docs' "dstLocal = src0Local + src1Local;", Compare's "dst = src0 < src1;")
    {
        auto p = fx.at<float>(0, 64), q = fx.at<float>(256, 64), o = fx.at<float>(512, 64);
        for (int k = 0; k < 64; ++k) { p.SetValue(k, float(k)); q.SetValue(k, 10.0f); o.SetValue(k, -1.0f); }
        o = p + q;
        CHECK(o.GetValue(0) == 10.0f && o.GetValue(63) == 73.0f);
        o = p * q;
        CHECK(o.GetValue(3) == 30.0f);
        o = p - q;
        CHECK(o.GetValue(63) == 53.0f);
        o = p / q;
        CHECK(o.GetValue(5) == 0.5f);
        o[32] = p[32] + q[32];                        // on a sub-tensor: only the 32 elements from offset 32
        CHECK(o.GetValue(31) == 3.1f && o.GetValue(32) == 42.0f);
        auto m = fx.at<uint8_t>(1024, 32);
        m = p < q;                                     // one bit per element, LSB first
        CHECK(m.GetValue(0) == 0xFF && m.GetValue(1) == 0x03 && m.GetValue(2) == 0x00);
        m = p == q;
        CHECK(m.GetValue(1) == 0x04 && m.GetValue(0) == 0);
        auto hi = fx.at<int16_t>(2048, 128), hj = fx.at<int16_t>(2304, 128), ho = fx.at<int16_t>(2560, 128);
        for (int k = 0; k < 128; ++k) { hi.SetValue(k, int16_t(0x0F0F)); hj.SetValue(k, int16_t(0x00FF)); }
        ho = hi | hj;
        CHECK(ho.GetValue(7) == int16_t(0x0FFF));
        ho = hi & hj;
        CHECK(ho.GetValue(127) == int16_t(0x000F));
    }

    // --- a TBuf fetched but never initialised (a scratch buffer only some dtypes need): Get is harmless, use fails
    {
        TBuf<TPosition::VECCALC> never;
        LocalTensor<float> t;
        CHECK(throws([&] { t = never.Get<float>(); }).empty());
        CHECK(has(throws([&] { Duplicate(t, 1.0f, 64); }), "ub address out of bounds"));
        CHECK(has(throws([&] { t.GetValue(0); }), "ub address out of bounds"));
    }

    // --- FreeTensor through another queue object frees the tensor's own buffer (the device frees by the tensor's
    // buffer handle): answers free two same-position queues' tensors crosswise; a tensor no queue owns still fails
    {
        TPipe pipe;
        TQue<TPosition::VECIN, 1> qa, qb;
        pipe.InitBuffer(qa, 1, 256);
        pipe.InitBuffer(qb, 1, 256);
        LocalTensor<float> a = qa.AllocTensor<float>(), b = qb.AllocTensor<float>();
        qa.EnQue(a); qb.EnQue(b);
        a = qa.DeQue<float>(); b = qb.DeQue<float>();
        CHECK(throws([&] { qa.FreeTensor(b); qb.FreeTensor(a); }).empty());
        CHECK(qa.HasIdleBuffer() && qb.HasIdleBuffer());   // each queue got its own buffer back
        CHECK(has(throws([&] { qa.FreeTensor(b); }), "double FreeTensor"));
        LocalTensor<float> stray = fx.at<float>(190 * 1024, 8);
        CHECK(has(throws([&] { qa.FreeTensor(stray); }), "does not start a buffer of this queue"));
        LocalTensor<float> a2 = qa.AllocTensor<float>();
        LocalTensor<float> inside = a2[8];
        CHECK(has(throws([&] { qb.FreeTensor(inside); }), "does not start a buffer of this queue"));   // not a buffer start
        qa.FreeTensor(a2);
    }

    {   // Axpy, half in and half out: dst = src * scalar + dst with the product rounded to half before the add
        // (answers pass on the device at 1e-4 against torch's half `a + b * s`, two roundings). 1.0009765625 * 3 =
        // 3.0029296875 rounds to 3.00390625; + -2.001953125 = 1.001953125 (one rounding would give 1.0009765625)
        auto hs = fx.at<half>(0, 16), hd = fx.at<half>(65536, 16);
        for (int k = 0; k < 16; ++k) { hs.SetValue(k, half(1.0009765625f)); hd.SetValue(k, half(-2.001953125f)); }
        Axpy<half, half>(hd, hs, half(3.0f), 16);
        CHECK(float(hd.GetValue(0)) == 1.001953125f && float(hd.GetValue(15)) == 1.001953125f);
        auto fs = fx.at<float>(0, 16), fd = fx.at<float>(65536, 16);   // float: exact here, one rounding
        for (int k = 0; k < 16; ++k) { fs.SetValue(k, 1.5f); fd.SetValue(k, 0.25f); }
        Axpy<float, float>(fd, fs, 3.0f, 16);
        CHECK(fd.GetValue(3) == 4.75f);
    }

    // --- GM: torch_npu allocator blocks in one segment
    {
        ascsim::GmTestLaunch L({{"a", 100}, {"b", 1000}});
        GlobalTensor<float> a, b;
        a.SetGlobalBuffer((__gm__ float*)L.base(0));
        b.SetGlobalBuffer((__gm__ float*)L.base(1));
        CHECK(L.base(1) - L.base(0) == 512);           // 100 + 32 rounded up to 512
        for (int k = 0; k < 25; ++k) a.SetValue(k, float(k));
        for (int k = 0; k < 250; ++k) b.SetValue(k, 1000.0f + k);
        auto u = fx.at<float>(0, 1024);
        DataCopy(u, a, 64);                            // a whole 256 B tile from a 100 B tensor: inside its block
        CHECK(u.GetValue(24) == 24.0f && bits_of(u.GetValue(25)) == 0xFFFFFFFFu);   // past the end: poison
        DataCopy(u, a, 256);                           // 1 KiB: runs into b, which lies there
        CHECK(u.GetValue(128) == 1000.0f);
        bool read_warned = false, into_b = false;
        for (auto& w : L.warnings()) { read_warned |= has(w, "past its end"); into_b |= has(w, "'b'"); }
        CHECK(read_warned && into_b);
        u.SetValue(0, 5.0f);
        DataCopy(a, u, 32);                            // 128 B into a 100 B tensor: its own padding, a warning
        bool tail = false;
        for (auto& w : L.warnings()) tail |= has(w, "own allocator padding");
        CHECK(tail);
        CHECK(a.GetValue(0) == 5.0f);
        std::string e = throws([&] { DataCopy(a, u, 256); });   // 1 KiB into a: reaches b
        CHECK_MSG(has(e, "'a'") && has(e, "'b'"), "%s", e.c_str());
        CHECK(b.GetValue(0) == 1000.0f);               // the failing copy wrote nothing
        e = throws([&] { DataCopy(u, b[250 + 128 + 1024 * 1024], 64); });   // 4 MiB on: beyond the mapped memory
        CHECK_MSG(has(e, "out of range"), "%s", e.c_str());
        // free memory after the last block: no tensor lies there, the device does not fault; a warning
        CHECK(throws([&] { DataCopy(b[250 + 256 + 2], u, 8); }).empty());
        CHECK(b.GetValue(250 + 256 + 2) == 5.0f);                         // backed: the write went through
        bool free_warned = false;
        for (auto& w : L.warnings()) free_warned |= has(w, "free device memory");
        CHECK(free_warned);
        // 1 MiB on: past the backed tail, inside the modelled free memory (at least one 2 MiB segment)
        CHECK(throws([&] { DataCopy(b[250 + 128 + 256 * 1024], u, 64); }).empty());   // dropped
        u.SetValue(0, 0.0f);
        CHECK(throws([&] { DataCopy(u, b[250 + 128 + 256 * 1024], 64); }).empty());
        CHECK(bits_of(u.GetValue(0)) == 0xFFFFFFFFu && bits_of(b.GetValue(250 + 128 + 256 * 1024)) == 0xFFFFFFFFu);
        b(250 + 128 + 256 * 1024) = 7.0f;                                  // a store through the reference: dropped
        CHECK(bits_of(b(250 + 128 + 256 * 1024)) == 0xFFFFFFFFu);
        bool dropped = false;
        for (auto& w : L.warnings()) dropped |= has(w, "drops the write");
        CHECK(dropped);
        CHECK(L.finish().empty());
    }
    {
        ascsim::GmTestLaunch L({{"x", 64}, {"y", 64}});
        L.base(0)[70] = 1;                             // a raw-pointer store into x's own padding: a warning only
        CHECK(L.finish().empty());
        bool warned = false;
        for (auto& w : L.warnings()) warned |= has(w, "'x'");
        CHECK(warned);
    }
    {   // inputs changed through a raw pointer are in-place updates (copied back, judged against the reference)
        ascsim::GmTestLaunch L({{"in0", 64}, {"in1", 64}, {"out", 64}}, 2);
        CHECK(L.base(0)[5] == 1 && L.base(1)[5] == 2);
        L.base(1)[5] = 9;
        CHECK(L.finish().empty());
        CHECK(!L.written(0) && L.written(1));
    }
    {
        ascsim::GmTestLaunch L({{"x", 64}});
        L.base(0)[512 + 100] = 1;                      // a raw store past the last block: free memory, a warning
        CHECK(L.finish().empty());
        bool warned = false;
        for (auto& w : L.warnings()) warned |= has(w, "free device memory");
        CHECK(warned);
    }
    std::printf("PASS %d FAIL %d\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
