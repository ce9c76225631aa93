// int4b_t against its documentation: half a byte per element (a tensor of n needs n / 2 bytes, made by
// ReinterpretCast from an int8_t/uint8_t tensor), values -8..7, the Atlas A2 Cast pairs half -> int4b_t (every round
// mode, saturating: the boundary-value table's MAX/MIN/inf/NaN rows) and int4b_t -> half (CAST_NONE only), the rule
// that counts and masks select whole bytes, the level-0 example of the Cast page (mask 128, strides {1, 1, 2, 8}),
// element offsets that address nibbles, queue buffers sized in bytes, and DataCopy moving count / 2 bytes.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>
#include "kernel_operator.h"

using namespace AscendC;

#include "check.h"

#include "ub_fixture.h"

int main() {
    Fixture fx;
    static_assert(sizeof(int4b_t) == 1);

    // --- a tensor of int4b_t: sizes, offsets and the nibble layout (element 2k in the low half of byte k) ---
    {
        auto bytes = fx.at<int8_t>(0, 64);
        auto q = bytes.ReinterpretCast<int4b_t>();
        CHECK(q.GetSize() == 128 && q.GetLength() == 64);
        CHECK(q[64].GetPhyAddr() == bytes.GetPhyAddr() + 32 && q[64].GetSize() == 64);
        CHECK(q.GetPhyAddr(10) == bytes.GetPhyAddr() + 5);
        CHECK(q.ReinterpretCast<int8_t>().GetSize() == 64 && q.ReinterpretCast<half>().GetSize() == 32);
        CHECK(has(throws([&] { (void)q[3]; }), "can only start on a whole byte"));
        q.SetValue(0, -3);
        q.SetValue(1, 5);
        q.SetValue(127, -8);
        CHECK(uint8_t(bytes.GetValue(0)) == 0x5D);        // low nibble 0xD = -3, high nibble 5
        CHECK(uint8_t(bytes.GetValue(63)) == 0x80);       // element 127: the high nibble of the last byte
        CHECK(int(q.GetValue(0)) == -3 && int(q.GetValue(1)) == 5 && int(q.GetValue(127)) == -8);
        q.SetValue(0, 7);                                   // a store keeps the neighbour in the same byte
        CHECK(uint8_t(bytes.GetValue(0)) == 0x57 && int(q.GetValue(1)) == 5);
        CHECK(has(throws([&] { (void)q.GetValue(uint32_t(ascsim::kUbBytes) * 2); }), "out of bounds"));
    }

    // --- Cast half -> int4b_t, count form: the Cast page's worked example per round mode ---
    {
        const float in[6] = {1.4f, 1.5f, 1.6f, 2.4f, 2.5f, 2.6f};
        struct Case { RoundMode mode; int want[6]; };
        const Case cases[] = {{RoundMode::CAST_CEIL, {2, 2, 2, 3, 3, 3}},  {RoundMode::CAST_RINT, {1, 2, 2, 2, 2, 3}},
                              {RoundMode::CAST_NONE, {1, 2, 2, 2, 2, 3}},  {RoundMode::CAST_FLOOR, {1, 1, 1, 2, 2, 2}},
                              {RoundMode::CAST_ROUND, {1, 2, 2, 2, 3, 3}}, {RoundMode::CAST_TRUNC, {1, 1, 1, 2, 2, 2}}};
        auto src = fx.at<half>(1024, 128);
        auto dst = fx.at<int8_t>(4096, 64).ReinterpretCast<int4b_t>();
        for (const Case& c : cases) {
            for (int i = 0; i < 128; ++i) src.SetValue(i, half(in[i % 6] * (i / 6 % 2 ? -1.0f : 1.0f)));
            Cast(dst, src, c.mode, 128);
            bool ok = true;
            for (int i = 0; i < 128; ++i) {
                float v = in[i % 6] * (i / 6 % 2 ? -1.0f : 1.0f);
                int want = i / 6 % 2 == 0 ? c.want[i % 6]
                                          // the negative row by the mode's own rule, from the double value
                                          : int(c.mode == RoundMode::CAST_CEIL ? std::ceil(double(float(half(v))))
                                                : c.mode == RoundMode::CAST_FLOOR ? std::floor(double(float(half(v))))
                                                : c.mode == RoundMode::CAST_TRUNC ? std::trunc(double(float(half(v))))
                                                : c.mode == RoundMode::CAST_ROUND ? std::round(double(float(half(v))))
                                                : std::nearbyint(double(float(half(v)))));
                ok &= int(dst.GetValue(i)) == want;
            }
            CHECK_MSG(ok, "round mode %d", int(c.mode));
        }
    }
    // saturation and special values (the boundary-value table): MAX -> 7, MIN -> -8, +-inf, NaN -> 0, +-0 -> 0
    {
        auto src = fx.at<half>(1024, 8);
        auto dst = fx.at<uint8_t>(4096, 32).ReinterpretCast<int4b_t>();
        const float in[8] = {65504.0f, -65504.0f, std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                             std::numeric_limits<float>::quiet_NaN(), -0.0f, 7.4f, -8.6f};
        const int want[8] = {7, -8, 7, -8, 0, 0, 7, -8};
        for (int i = 0; i < 8; ++i) src.SetValue(i, half(in[i]));
        Cast(dst, src, RoundMode::CAST_RINT, 8);
        bool ok = true;
        for (int i = 0; i < 8; ++i) ok &= int(dst.GetValue(i)) == want[i];
        CHECK(ok);
    }
    // int4b_t -> half (CAST_NONE), every value, in place over its own bytes (the source is read first)
    {
        auto raw = fx.at<uint8_t>(8192, 256);
        for (int k = 0; k < 8; ++k) raw.SetValue(k, uint8_t((k * 2) | ((k * 2 + 1) << 4)));   // nibbles 0..15
        auto q = raw.ReinterpretCast<int4b_t>();
        auto h = raw.ReinterpretCast<half>();
        Cast(h, q, RoundMode::CAST_NONE, 16);
        bool ok = true;
        for (int i = 0; i < 16; ++i) ok &= float(h.GetValue(i)) == float(i < 8 ? i : i - 16);
        CHECK(ok);
        CHECK(has(throws([&] { Cast(h, q, RoundMode::CAST_RINT, 16); }), "CAST_RINT is not supported for Cast from int4b_t to half"));
    }
    // a count that splits a byte is refused
    {
        auto src = fx.at<half>(1024, 64);
        auto dst = fx.at<int8_t>(4096, 32).ReinterpretCast<int4b_t>();
        CHECK(has(throws([&] { Cast(dst, src, RoundMode::CAST_RINT, 63); }), "needs an even count"));
        // the placement check counts bytes: 64 int4b_t at the UB's last 32 bytes fit, 66 do not
        auto tail = fx.at<int8_t>(ascsim::kUbBytes - 32, 32).ReinterpretCast<int4b_t>();
        CHECK(throws([&] { Cast(tail, src, RoundMode::CAST_RINT, 64); }).empty());
        CHECK(has(throws([&] { Cast(tail, src, RoundMode::CAST_RINT, 66); }), "out of bounds"));
    }

    // --- level 0: the Cast page's int4b_t example (mask 128, one repeat, strides {1, 1, 2, 8}) and a second repeat ---
    {
        auto src = fx.at<half>(1024, 256);
        auto bytes = fx.at<int8_t>(8192, 192);
        auto dst = bytes.ReinterpretCast<int4b_t>();
        for (int i = 0; i < 256; ++i) src.SetValue(i, half(float(i % 16 - 8) + 0.25f));
        for (int k = 0; k < 192; ++k) bytes.SetValue(k, int8_t(0x11));
        Cast<int4b_t, half>(dst, src, RoundMode::CAST_CEIL, 128, 1, {1, 1, 2, 8});
        bool ok = true;
        for (int i = 0; i < 128; ++i) ok &= int(dst.GetValue(i)) == std::min(7, i % 16 - 8 + 1);
        CHECK(ok);
        CHECK(bytes.GetValue(64) == 0x11);                     // one repeat writes 64 bytes (2 blocks), no more
        // two repeats, the destination's repeat stride 3 blocks: repeat 1 starts at byte 96
        Cast<int4b_t, half>(dst, src, RoundMode::CAST_FLOOR, 128, 2, {1, 1, 3, 8});
        ok = true;
        for (int i = 0; i < 128; ++i) ok &= int(dst.GetValue(192 + i)) == i % 16 - 8;
        CHECK(ok && bytes.GetValue(64) == 0x11 && bytes.GetValue(95) == 0x11);
        // int4b_t -> half at level 0: 128 elements per repeat, the source's block holds 64 of them
        auto back = fx.at<half>(16384, 128);
        Cast<half, int4b_t>(back, dst, RoundMode::CAST_NONE, 128, 1, {1, 1, 8, 2});
        ok = true;
        for (int i = 0; i < 128; ++i) ok &= float(back.GetValue(i)) == float(int(dst.GetValue(i)));
        CHECK(ok);
        // the mask must select whole bytes
        CHECK(has(throws([&] { Cast<int4b_t, half>(dst, src, RoundMode::CAST_RINT, 127, 1, {1, 1, 2, 8}); }), "whole bytes"));
        uint64_t bits[2] = {0b0110, 0};
        CHECK(has(throws([&] { Cast<int4b_t, half>(dst, src, RoundMode::CAST_RINT, bits, 1, {1, 1, 2, 8}); }), "whole bytes"));
        uint64_t pairs[2] = {0b1100, 0};
        for (int k = 0; k < 64; ++k) bytes.SetValue(k, int8_t(0));
        Cast<int4b_t, half>(dst, src, RoundMode::CAST_FLOOR, pairs, 1, {1, 1, 2, 8});
        CHECK(int(dst.GetValue(1)) == 0 && int(dst.GetValue(2)) == 2 - 8 && int(dst.GetValue(3)) == 3 - 8 && int(dst.GetValue(4)) == 0);
    }

    // --- queues and TBuf hand out int4b_t tensors of twice the buffer's bytes ---
    {
        TPipe pipe;
        TQue<TPosition::VECOUT, 1> q;
        TBuf<TPosition::VECCALC> tb;
        pipe.InitBuffer(q, 1, 64);
        pipe.InitBuffer(tb, 96);
        auto t = q.AllocTensor<int4b_t>();
        CHECK(t.GetSize() == 128);
        CHECK(tb.Get<int4b_t>().GetSize() == 192);
        q.FreeTensor(t);
    }

    // --- DataCopy: count int4b_t elements move count / 2 bytes; a GM view's offset is in elements ---
    {
        std::vector<uint8_t> gm(96);
        for (int k = 0; k < 96; ++k) gm[k] = uint8_t(k * 7 + 1);
        GlobalTensor<int4b_t> g;
        g.SetGlobalBuffer(reinterpret_cast<__gm__ int4b_t*>(gm.data()), 192);
        auto loc = fx.at<uint8_t>(20480, 128);
        for (int k = 0; k < 128; ++k) loc.SetValue(k, uint8_t(0xEE));
        auto l4 = loc.ReinterpretCast<int4b_t>();
        DataCopy(l4, g[64], 128);                            // bytes 32..95 of GM
        bool ok = true;
        for (int k = 0; k < 64; ++k) ok &= loc.GetValue(k) == uint8_t((k + 32) * 7 + 1);
        CHECK(ok && loc.GetValue(64) == 0xEE);
        CHECK(int(g.GetValue(65)) == ((((32 * 7 + 1) >> 4) ^ 8) - 8));   // element 65: the high nibble of byte 32
        g.SetValue(0, -1);
        CHECK(gm[0] == uint8_t(((1 & 0xF0) | 0xF)));
        DataCopy(g, l4, 64);                                  // 32 bytes back to the start
        ok = true;
        for (int k = 0; k < 32; ++k) ok &= gm[k] == uint8_t((k + 32) * 7 + 1);
        CHECK(ok && gm[32] == uint8_t(32 * 7 + 1));
        CHECK(has(throws([&] { (void)g[1]; }), "can only start on a whole byte"));
    }

    std::printf("PASS %d FAIL %d\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
