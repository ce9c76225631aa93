// ascsim kernel side: the basic Transpose API for Atlas A2.
//   Transpose(dst, src)                                   plain 16x16 block transpose (int16_t / uint16_t / half)
//   Transpose(dst, src, sharedTmpBuffer, TransposeParamsExt)  enhanced form: TRANSPOSE_ND2ND_B16 (uint16_t only),
//       TRANSPOSE_NCHW2NHWC and TRANSPOSE_NHWC2NCHW (1/2/4-byte types), TRANSPOSE_TYPE_NONE is a no-op; every other
//       enumerator is documented as unsupported and fails.
// Rules enforced (from the API page): 32-byte aligned UB operands; cSize <= 4095; hSize*wSize <= 4095;
// hSize*wSize*sizeof(T) a multiple of 32 bytes; any zero dimension means no computation and no write; src and dst
// must not overlap for the NCHW/NHWC conversions (they may for the 16x16 transpose); sharedTmpBuffer at least
// (cSize + 2) * h0 * w0 * sizeof(T) bytes for NCHW2NHWC and (2 * cSize + 1) * h0 * w0 * sizeof(T) for NHWC2NCHW,
// with w0 = 32 / sizeof(T) and h0 = 32 for 1-byte types, 16 otherwise.
#ifndef ASCSIM_KERNEL_VEC_TRANSPOSE_H_
#define ASCSIM_KERNEL_VEC_TRANSPOSE_H_
#include <cstring>
#include <string>
#include <vector>
#include "dtype_check.h"
#include "engine.h"
#include "tensor.h"

namespace AscendC {

#ifndef ASCSIM_HAVE_TRANSPOSE_TYPE
#define ASCSIM_HAVE_TRANSPOSE_TYPE
enum class TransposeType : uint8_t {
    TRANSPOSE_TYPE_NONE,
    TRANSPOSE_NZ2ND_0213,
    TRANSPOSE_NZ2NZ_0213,
    TRANSPOSE_NZ2NZ_012_WITH_N,
    TRANSPOSE_NZ2ND_012_WITH_N,
    TRANSPOSE_NZ2ND_012_WITHOUT_N,
    TRANSPOSE_NZ2NZ_012_WITHOUT_N,
    TRANSPOSE_ND2ND_ONLY,
    TRANSPOSE_ND_UB_GM,
    TRANSPOSE_GRAD_ND_UB_GM,
    TRANSPOSE_ND2ND_B16,
    TRANSPOSE_NCHW2NHWC,
    TRANSPOSE_NHWC2NCHW
};
#endif

#ifndef ASCSIM_HAVE_TRANSPOSE_PARAMS_EXT
#define ASCSIM_HAVE_TRANSPOSE_PARAMS_EXT
struct TransposeParamsExt {
    __aicore__ TransposeParamsExt() {}
    __aicore__ TransposeParamsExt(const uint16_t nSizeIn, const uint16_t cSizeIn, const uint16_t hSizeIn,
                                  const uint16_t wSizeIn, const TransposeType transposeTypeIn)
        : nSize(nSizeIn), cSize(cSizeIn), hSize(hSizeIn), wSize(wSizeIn), transposeType(transposeTypeIn) {}
    uint16_t nSize = 0;
    uint16_t cSize = 0;
    uint16_t hSize = 0;
    uint16_t wSize = 0;
    TransposeType transposeType = TransposeType::TRANSPOSE_ND2ND_B16;
};
#endif

}  // namespace AscendC

namespace ascsim {
namespace detail_tr {

inline const char* transpose_type_name(AscendC::TransposeType t) {
    static const char* const names[] = {
        "TRANSPOSE_TYPE_NONE",        "TRANSPOSE_NZ2ND_0213",          "TRANSPOSE_NZ2NZ_0213",
        "TRANSPOSE_NZ2NZ_012_WITH_N", "TRANSPOSE_NZ2ND_012_WITH_N",    "TRANSPOSE_NZ2ND_012_WITHOUT_N",
        "TRANSPOSE_NZ2NZ_012_WITHOUT_N", "TRANSPOSE_ND2ND_ONLY",       "TRANSPOSE_ND_UB_GM",
        "TRANSPOSE_GRAD_ND_UB_GM",    "TRANSPOSE_ND2ND_B16",           "TRANSPOSE_NCHW2NHWC",
        "TRANSPOSE_NHWC2NCHW"};
    const unsigned v = unsigned(t);
    return v < sizeof(names) / sizeof(names[0]) ? names[v] : "an unknown TransposeType value";
}

[[noreturn]] inline void bad_param(const std::string& detail) {
    ::ascsim::fail("Transpose", "Failed to check params", detail);
}

inline bool overlap(const void* a, size_t an, const void* b, size_t bn) {
    const uint8_t* pa = static_cast<const uint8_t*>(a);
    const uint8_t* pb = static_cast<const uint8_t*>(b);
    return an && bn && pa < pb + bn && pb < pa + an;
}

// One 16x16 block of 2-byte elements; src and dst may be the same tensor (the block is read completely first).
template <class T>
inline void block16(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src) {
    if (!::ascsim::check_src("Transpose", src, 256)) return;
    ::ascsim::check_dst("Transpose", dst, 256);
    T buf[256];
    std::memcpy(buf, src.addr_, sizeof buf);
    T* d = dst.addr_;
    for (uint32_t r = 0; r < 16; ++r)
        for (uint32_t c = 0; c < 16; ++c) std::memcpy(&d[c * 16 + r], &buf[r * 16 + c], sizeof(T));
}

}  // namespace detail_tr
}  // namespace ascsim

namespace AscendC {

// Plain 16x16 transpose: dst[c][r] = src[r][c]; in-place use (dst == src) is allowed.
template <typename T>
__aicore__ inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src) {
    ASCSIM_DTYPE_CHECK("Transpose", T, "int16_t / uint16_t / half", int16_t, uint16_t, half);
    ::ascsim::detail_tr::block16(dst, src);
}

// Enhanced transpose: 16x16 block (TRANSPOSE_ND2ND_B16) or the NCHW <-> NHWC conversions.
template <typename T>
__aicore__ inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const TransposeParamsExt& transposeParams) {
    ASCSIM_DTYPE_CHECK("Transpose", T, "int8_t / uint8_t / int16_t / uint16_t / half / int32_t / uint32_t / float",
                       int8_t, uint8_t, int16_t, uint16_t, half, int32_t, uint32_t, float);
    namespace tr = ::ascsim::detail_tr;
    const TransposeParamsExt& p = transposeParams;
    switch (p.transposeType) {
        case TransposeType::TRANSPOSE_TYPE_NONE:
            return;   // documented as doing nothing
        case TransposeType::TRANSPOSE_ND2ND_B16: {
            if constexpr (!std::is_same_v<T, uint16_t>) {
                ::ascsim::fail("Transpose", "Failed to check dtype",
                               "TRANSPOSE_ND2ND_B16 in the enhanced Transpose supports only uint16_t on Atlas A2");
            } else {
                if (p.hSize != 16 || p.wSize != 16)
                    tr::bad_param("TRANSPOSE_ND2ND_B16 requires hSize = wSize = 16, got hSize " +
                                  std::to_string(p.hSize) + ", wSize " + std::to_string(p.wSize));
                tr::block16(dst, src);   // nSize / cSize are ignored; no temporary buffer is needed
            }
            return;
        }
        case TransposeType::TRANSPOSE_NCHW2NHWC:
        case TransposeType::TRANSPOSE_NHWC2NCHW:
            break;
        default:
            ::ascsim::fail("Transpose", "Failed to check transposeType",
                           std::string(tr::transpose_type_name(p.transposeType)) +
                               " is not supported by Transpose (supported: TRANSPOSE_TYPE_NONE, TRANSPOSE_ND2ND_B16, "
                               "TRANSPOSE_NCHW2NHWC, TRANSPOSE_NHWC2NCHW)");
    }
    const bool to_nhwc = p.transposeType == TransposeType::TRANSPOSE_NCHW2NHWC;
    const char* tname = tr::transpose_type_name(p.transposeType);
    const uint64_t n = p.nSize, c = p.cSize, hw = uint64_t(p.hSize) * p.wSize;
    if (c > 4095) tr::bad_param(std::string(tname) + ": cSize " + std::to_string(c) + " is outside [0, 4095]");
    if (hw > 4095)
        tr::bad_param(std::string(tname) + ": hSize * wSize = " + std::to_string(hw) + " is outside [0, 4095]");
    if (hw * sizeof(T) % 32)
        tr::bad_param(std::string(tname) + ": hSize * wSize * sizeof(T) = " + std::to_string(hw * sizeof(T)) +
                      " bytes is not a multiple of 32");
    if (n == 0 || c == 0 || hw == 0) return;   // documented: no computation, dst untouched

    const uint64_t total = n * c * hw;
    const uint64_t h0 = sizeof(T) == 1 ? 32 : 16, w0 = 32 / sizeof(T);
    const uint64_t need = (to_nhwc ? (c + 2) : (2 * c + 1)) * h0 * w0 * sizeof(T);
    if (uint64_t(sharedTmpBuffer.GetSize()) < need)
        ::ascsim::fail("Transpose", "tmp buffer is too small",
                       std::string(tname) + " with cSize " + std::to_string(c) + " needs a sharedTmpBuffer of at least " +
                           std::to_string(need) + " bytes, got " + std::to_string(sharedTmpBuffer.GetSize()));
    if (tr::overlap(src.addr_, total * sizeof(T), dst.addr_, total * sizeof(T)))
        ::ascsim::fail("Transpose", "src and dst overlap",
                       std::string(tname) + " does not support reusing src as dst");
    if (tr::overlap(sharedTmpBuffer.addr_, need, src.addr_, total * sizeof(T)) ||
        tr::overlap(sharedTmpBuffer.addr_, need, dst.addr_, total * sizeof(T)))
        ::ascsim::fail("Transpose", "tmp buffer overlaps an operand",
                       std::string(tname) + ": sharedTmpBuffer must not share UB with src or dst");

    ::ascsim::check_src("Transpose", src, int64_t(total));
    ::ascsim::check_dst("Transpose", dst, int64_t(total));
    ::ascsim::check_dst("Transpose", sharedTmpBuffer, int64_t(need));   // scratch: written by the vector pipe

    const T* s = src.addr_;
    T* d = dst.addr_;
    for (uint64_t in = 0; in < n; ++in) {
        const uint64_t base = in * c * hw;
        for (uint64_t ic = 0; ic < c; ++ic)
            for (uint64_t k = 0; k < hw; ++k) {
                const uint64_t nchw = base + ic * hw + k, nhwc = base + k * c + ic;
                if (to_nhwc) std::memcpy(&d[nhwc], &s[nchw], sizeof(T));
                else std::memcpy(&d[nchw], &s[nhwc], sizeof(T));
            }
    }
}

}  // namespace AscendC
#endif  // ASCSIM_KERNEL_VEC_TRANSPOSE_H_
