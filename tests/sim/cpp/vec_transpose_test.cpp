// The basic Transpose API against references written from its documentation: the plain 16x16 transpose for each
// 2-byte dtype (also in place), the enhanced form's TRANSPOSE_ND2ND_B16 (uint16_t only, hSize = wSize = 16),
// NCHW <-> NHWC conversions for 1/2/4-byte types against a naive index reference (and round trips), the
// sharedTmpBuffer size rule, the parameter ranges and the 32-byte rule, zero dimensions leaving dst untouched,
// TRANSPOSE_TYPE_NONE doing nothing, and the unsupported enumerators failing by name.
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>
#include "kernel_operator.h"
#include "ascsim/kernel/vec_transpose.h"

using namespace AscendC;

#include "check.h"

#include "ub_fixture.h"

static std::mt19937 rng(1234);
template <class T> static void fill_random(LocalTensor<T>& t, uint32_t n) {
    uint8_t* p = reinterpret_cast<uint8_t*>(t.addr_);
    for (uint32_t i = 0; i < n * sizeof(T); ++i) p[i] = uint8_t(rng());
}
template <class T> static bool same_elem(const T* a, const T* b) { return std::memcmp(a, b, sizeof(T)) == 0; }

template <class T> static bool plain16(Fixture& fx, bool in_place) {
    auto src = fx.at<T>(0, 256), dst = in_place ? src : fx.at<T>(8192, 256);
    fill_random(src, 256);
    std::vector<T> ref(256);
    std::memcpy(ref.data(), src.addr_, 512);
    Transpose(dst, src);
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 16; ++c)
            if (!same_elem(&dst.addr_[c * 16 + r], &ref[r * 16 + c])) return false;
    return true;
}

// NCHW -> NHWC (to_nhwc) or NHWC -> NCHW against the index formula; then the reverse conversion restores src.
template <class T> static bool nchw_case(Fixture& fx, uint16_t N, uint16_t C, uint16_t H, uint16_t W, bool to_nhwc) {
    const uint32_t total = uint32_t(N) * C * H * W, bytes = total * sizeof(T);
    const uint32_t dst_off = (bytes + 31) / 32 * 32, back_off = 2 * dst_off, tmp_off = 3 * dst_off;
    auto src = fx.at<T>(0, total), dst = fx.at<T>(dst_off, total), back = fx.at<T>(back_off, total);
    auto tmp = fx.at<uint8_t>(tmp_off, 64 * 1024);
    fill_random(src, total);
    TransposeParamsExt p(N, C, H, W, to_nhwc ? TransposeType::TRANSPOSE_NCHW2NHWC : TransposeType::TRANSPOSE_NHWC2NCHW);
    Transpose(dst, src, tmp, p);
    const uint32_t HW = uint32_t(H) * W;
    for (uint32_t n = 0; n < N; ++n)
        for (uint32_t c = 0; c < C; ++c)
            for (uint32_t k = 0; k < HW; ++k) {
                uint32_t nchw = (n * C + c) * HW + k, nhwc = (n * HW + k) * C + c;
                const T* got = to_nhwc ? &dst.addr_[nhwc] : &dst.addr_[nchw];
                const T* want = to_nhwc ? &src.addr_[nchw] : &src.addr_[nhwc];
                if (!same_elem(got, want)) {
                    std::printf("  mismatch n=%u c=%u k=%u\n", n, c, k);
                    return false;
                }
            }
    p.transposeType = to_nhwc ? TransposeType::TRANSPOSE_NHWC2NCHW : TransposeType::TRANSPOSE_NCHW2NHWC;
    Transpose(back, dst, tmp, p);
    return std::memcmp(back.addr_, src.addr_, bytes) == 0;
}

static uint32_t tmp_need(uint32_t esize, uint32_t c, bool to_nhwc) {
    uint32_t h0 = esize == 1 ? 32 : 16, w0 = 32 / esize;
    return (to_nhwc ? c + 2 : 2 * c + 1) * h0 * w0 * esize;
}

int main() {
    Fixture fx;

    // --- plain 16x16 transpose ---
    CHECK(plain16<int16_t>(fx, false));
    CHECK(plain16<uint16_t>(fx, false));
    CHECK(plain16<half>(fx, false));
    CHECK(plain16<half>(fx, true));
    CHECK(plain16<int16_t>(fx, true));
    {   // the documented example: 0..255 row-major becomes its transpose
        auto src = fx.at<half>(0, 256), dst = fx.at<half>(1024, 256);
        for (int i = 0; i < 256; ++i) src.addr_[i] = half(float(i));
        Transpose<half>(dst, src);
        bool ok = true;
        for (int r = 0; r < 16; ++r)
            for (int c = 0; c < 16; ++c) ok &= float(dst.addr_[r * 16 + c]) == float(c * 16 + r);
        CHECK(ok);
    }
    {   // operand checks: misaligned dst, out of UB
        auto src = fx.at<int16_t>(0, 256), bad = fx.at<int16_t>(1026, 256);
        CHECK(has(throws([&] { Transpose(bad, src); }), "align"));
        auto far = fx.at<int16_t>(ascsim::kUbBytes - 256, 256);
        CHECK(!throws([&] { Transpose(far, src); }).empty());
    }

    // --- enhanced: TRANSPOSE_ND2ND_B16 ---
    {
        auto src = fx.at<uint16_t>(0, 256), dst = fx.at<uint16_t>(1024, 256);
        auto tmp = fx.at<uint8_t>(4096, 0);   // no temporary buffer needed
        fill_random(src, 256);
        std::vector<uint16_t> ref(src.addr_, src.addr_ + 256);
        TransposeParamsExt p(7, 9, 16, 16, TransposeType::TRANSPOSE_ND2ND_B16);   // nSize/cSize ignored
        CHECK(throws([&] { Transpose(dst, src, tmp, p); }).empty());
        bool ok = true;
        for (int r = 0; r < 16; ++r)
            for (int c = 0; c < 16; ++c) ok &= dst.addr_[c * 16 + r] == ref[r * 16 + c];
        CHECK(ok);
        Transpose(src, src, tmp, p);   // in place is allowed
        CHECK(std::memcmp(src.addr_, dst.addr_, 512) == 0);
        TransposeParamsExt def;   // defaults: ND2ND_B16 with zero sizes -> hSize/wSize must be 16
        CHECK(def.transposeType == TransposeType::TRANSPOSE_ND2ND_B16 && def.nSize == 0 && def.wSize == 0);
        CHECK(has(throws([&] { Transpose(dst, src, tmp, def); }), "hSize = wSize = 16"));
        auto hs = fx.at<half>(0, 256), hd = fx.at<half>(1024, 256);
        CHECK(has(throws([&] { Transpose(hd, hs, tmp, p); }), "only uint16_t"));
        auto is = fx.at<int16_t>(0, 256), id = fx.at<int16_t>(1024, 256);
        CHECK(has(throws([&] { Transpose(id, is, tmp, p); }), "only uint16_t"));
    }

    // --- enhanced: NCHW <-> NHWC ---
    CHECK(nchw_case<half>(fx, 2, 3, 4, 4, true));
    CHECK(nchw_case<half>(fx, 2, 3, 4, 4, false));
    CHECK(nchw_case<float>(fx, 1, 5, 2, 4, true));
    CHECK(nchw_case<float>(fx, 3, 2, 1, 8, false));
    CHECK(nchw_case<int8_t>(fx, 2, 3, 4, 8, true));
    CHECK(nchw_case<uint8_t>(fx, 1, 7, 32, 1, false));
    CHECK(nchw_case<int16_t>(fx, 1, 1, 16, 1, true));
    CHECK(nchw_case<uint16_t>(fx, 2, 17, 2, 8, false));
    CHECK(nchw_case<int32_t>(fx, 2, 4, 8, 1, true));
    CHECK(nchw_case<uint32_t>(fx, 1, 3, 3, 8, false));
    CHECK(nchw_case<half>(fx, 1, 2, 1, 4080, true));   // hSize * wSize at its 4095 limit's largest aligned value

    // --- the sharedTmpBuffer size rule ---
    {
        auto src = fx.at<half>(0, 2 * 3 * 16), dst = fx.at<half>(4096, 2 * 3 * 16);
        fill_random(src, 96);
        for (int dir = 0; dir < 2; ++dir) {
            bool to_nhwc = dir == 0;
            TransposeParamsExt p(2, 3, 4, 4, to_nhwc ? TransposeType::TRANSPOSE_NCHW2NHWC : TransposeType::TRANSPOSE_NHWC2NCHW);
            uint32_t need = tmp_need(2, 3, to_nhwc);
            CHECK(need == (to_nhwc ? 5u * 512 : 7u * 512));
            auto ok_tmp = fx.at<uint8_t>(16384, need), small = fx.at<uint8_t>(16384, need - 32);
            CHECK(throws([&] { Transpose(dst, src, ok_tmp, p); }).empty());
            CHECK(has(throws([&] { Transpose(dst, src, small, p); }), "needs a sharedTmpBuffer of at least"));
        }
        auto bs = fx.at<int8_t>(0, 4 * 32), bd = fx.at<int8_t>(4096, 4 * 32);
        TransposeParamsExt p(1, 4, 1, 32, TransposeType::TRANSPOSE_NCHW2NHWC);
        CHECK(tmp_need(1, 4, true) == 6u * 32 * 32);   // 1-byte types: h0 = 32, w0 = 32
        CHECK(throws([&] { Transpose(bd, bs, fx.at<uint8_t>(16384, 6 * 1024), p); }).empty());
        CHECK(!throws([&] { Transpose(bd, bs, fx.at<uint8_t>(16384, 6 * 1024 - 1), p); }).empty());
        auto fs = fx.at<float>(0, 64), fd = fx.at<float>(4096, 64);
        TransposeParamsExt q(1, 8, 1, 8, TransposeType::TRANSPOSE_NHWC2NCHW);
        CHECK(tmp_need(4, 8, false) == 17u * 16 * 8 * 4);
        CHECK(throws([&] { Transpose(fd, fs, fx.at<uint8_t>(16384, 17 * 512), q); }).empty());
        CHECK(!throws([&] { Transpose(fd, fs, fx.at<uint8_t>(16384, 17 * 512 - 4), q); }).empty());
        // the temporary buffer must not share UB with src or dst
        CHECK(has(throws([&] { Transpose(fd, fs, fx.at<uint8_t>(4096, 17 * 512), q); }), "sharedTmpBuffer must not share"));
    }

    // --- ranges, alignment, reuse, zero sizes ---
    {
        auto src = fx.at<half>(0, 16384), dst = fx.at<half>(65536, 16384);
        auto tmp = fx.at<uint8_t>(131072, 60000);
        auto T1 = TransposeType::TRANSPOSE_NCHW2NHWC, T2 = TransposeType::TRANSPOSE_NHWC2NCHW;
        CHECK(has(throws([&] { Transpose(dst, src, tmp, TransposeParamsExt(1, 4096, 1, 16, T1)); }), "cSize 4096"));
        CHECK(has(throws([&] { Transpose(dst, src, tmp, TransposeParamsExt(1, 1, 64, 65, T2)); }), "4160"));
        CHECK(has(throws([&] { Transpose(dst, src, tmp, TransposeParamsExt(1, 2, 3, 5, T1)); }), "not a multiple of 32"));
        CHECK(has(throws([&] { Transpose(dst, src, tmp, TransposeParamsExt(1, 2, 1, 8, T2)); }), "not a multiple of 32"));
        auto fs = fx.at<float>(0, 64), fd = fx.at<float>(65536, 64);
        CHECK(throws([&] { Transpose(fd, fs, tmp, TransposeParamsExt(1, 2, 1, 8, T2)); }).empty());   // 8*4 = 32 B
        CHECK(has(throws([&] { Transpose(src, src, tmp, TransposeParamsExt(1, 2, 4, 4, T1)); }), "reusing src"));
        auto shifted = fx.at<half>(32, 32);
        CHECK(has(throws([&] { Transpose(shifted, src, tmp, TransposeParamsExt(1, 2, 4, 4, T2)); }), "reusing src"));
        auto misaligned = fx.at<half>(65536 + 2, 64);
        CHECK(has(throws([&] { Transpose(misaligned, src, tmp, TransposeParamsExt(1, 2, 4, 4, T1)); }), "align"));
        // any zero dimension: nothing computed, dst untouched (even without a temporary buffer)
        std::memset(dst.addr_, 0x5a, 1024);
        fill_random(src, 512);
        auto none = fx.at<uint8_t>(131072, 0);
        bool clean = true;
        for (auto z : {TransposeParamsExt(0, 2, 4, 4, T1), TransposeParamsExt(2, 0, 4, 4, T2),
                       TransposeParamsExt(2, 2, 0, 4, T1), TransposeParamsExt(2, 2, 4, 0, T2)})
            clean &= throws([&] { Transpose(dst, src, none, z); }).empty();
        CHECK(clean);
        bool untouched = true;
        for (int i = 0; i < 1024; ++i) untouched &= reinterpret_cast<uint8_t*>(dst.addr_)[i] == 0x5a;
        CHECK(untouched);
        // TRANSPOSE_TYPE_NONE: no effect, no checks
        CHECK(throws([&] { Transpose(dst, src, none, TransposeParamsExt(0, 0, 0, 0, TransposeType::TRANSPOSE_TYPE_NONE)); }).empty());
        CHECK(throws([&] { Transpose(dst, src, none, TransposeParamsExt(2, 2, 4, 4, TransposeType::TRANSPOSE_TYPE_NONE)); }).empty());
        untouched = true;
        for (int i = 0; i < 1024; ++i) untouched &= reinterpret_cast<uint8_t*>(dst.addr_)[i] == 0x5a;
        CHECK(untouched);
    }

    // --- unsupported enumerators fail by name ---
    {
        auto src = fx.at<uint16_t>(0, 256), dst = fx.at<uint16_t>(1024, 256);
        auto tmp = fx.at<uint8_t>(8192, 8192);
        const char* names[] = {"TRANSPOSE_NZ2ND_0213",          "TRANSPOSE_NZ2NZ_0213",
                               "TRANSPOSE_NZ2NZ_012_WITH_N",    "TRANSPOSE_NZ2ND_012_WITH_N",
                               "TRANSPOSE_NZ2ND_012_WITHOUT_N", "TRANSPOSE_NZ2NZ_012_WITHOUT_N",
                               "TRANSPOSE_ND2ND_ONLY",          "TRANSPOSE_ND_UB_GM",
                               "TRANSPOSE_GRAD_ND_UB_GM"};
        for (int v = 1; v <= 9; ++v) {
            std::string m = throws([&] { Transpose(dst, src, tmp, TransposeParamsExt(1, 16, 16, 16, TransposeType(v))); });
            CHECK_MSG(has(m, names[v - 1]) && has(m, "not supported"), "enumerator %d: %s", v, m.c_str());
        }
        CHECK(uint8_t(TransposeType::TRANSPOSE_ND2ND_B16) == 10 && uint8_t(TransposeType::TRANSPOSE_NHWC2NCHW) == 12);
        CHECK(has(throws([&] { Transpose(dst, src, tmp, TransposeParamsExt(1, 16, 16, 16, TransposeType(13))); }), "unknown"));
    }

    std::printf("PASS %d FAIL %d\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
