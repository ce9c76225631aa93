// ascsim: high-level elementwise math APIs (reference §2.9) with their temporary-buffer accounting, plus
// BroadCast. Each API has the vendor's four shapes: (dst, src, sharedTmpBuffer, calCount), (dst, src, tmp),
// (dst, src, calCount), (dst, src); without a tmp the API takes scratch from the UB after the last TPipe buffer.
// Results: correctly rounded float math, rounded to T once (the hardware approximations are within 1e-3).
// Temp model (also what the host helpers in tiling/ascsim_hl_tiling.h report): an API keeps `live` float
// vectors; it needs at least live * 256 B (one repeat each) and at most live * align32(count * 4) B.
#ifndef ASCSIM_KERNEL_HL_MATH_H_
#define ASCSIM_KERNEL_HL_MATH_H_
#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <utility>
#include <string>
#include <vector>
#include "engine.h"
#include "tpipe.h"
#include "../hl_common.h"

namespace ascsim {
inline uint32_t hl_min_tmp(uint32_t live) { return live * 256u; }

// An operand's UB footprint for the temporary buffer's overlap check; `name`, when given, is what the failure calls
// it (else "src/dst"). Converts from the (address, bytes) pairs some callers keep.
struct HlSpan {
    const void* p = nullptr;
    size_t bytes = 0;
    const char* name = nullptr;
    HlSpan(const void* p_, size_t bytes_, const char* name_ = nullptr) : p(p_), bytes(bytes_), name(name_) {}
    HlSpan(const std::pair<const void*, size_t>& s) : p(s.first), bytes(s.second) {}   // implicit on purpose
};

// The size part alone: a sharedTmpBuffer below `need` bytes fails, naming what sizes it, "(<host><host_note>)".
inline void hl_check_tmp_size(const char* api, const AscendC::LocalTensor<uint8_t>* tmp, uint64_t need,
                              const std::string& host, const char* host_note = " minValue") {
    if (tmp && tmp->GetSize() < need)
        fail(api, "sharedTmpBuffer is too small",
             "the API needs at least " + std::to_string(need) + " B of temporary buffer (" + host + host_note +
                 ") but got " + std::to_string(tmp->GetSize()) + " B");
}

// Checks a temporary buffer of at least `need` bytes (or that much UB after the last InitBuffer when tmp == nullptr);
// `spans` are the operand footprints it must not overlap; `host` names the host function that reports the size. For
// the missing-sync detector the buffer is written by PIPE_V: `used` bytes of it (the part the API works in).
// The messages name the size's source as "(<host><host_note>)" where the buffer is too small, and also where no UB is
// left when `host_without_tmp` (the defaults are the elementwise APIs' wording).
inline void hl_check_tmp_bytes(const char* api, const AscendC::LocalTensor<uint8_t>* tmp, uint64_t need, uint64_t used_bytes,
                               std::initializer_list<HlSpan> spans, const std::string& host,
                               const char* host_note = " minValue", bool host_without_tmp = false) {
    if (tmp) {
        check_ub_aligned(api, tmp->addr_);
        hl_check_tmp_size(api, tmp, need, host, host_note);
        if (tmp->GetSize() == 0) return;
        check_ub(api, tmp->addr_, tmp->GetSize());
        for (const HlSpan& sp : spans) {
            const uint8_t* a = static_cast<const uint8_t*>(sp.p);
            if (a && sp.bytes && a < tmp->addr_ + tmp->GetSize() && tmp->addr_ < a + sp.bytes)
                fail(api, "sharedTmpBuffer overlaps an operand",
                     std::string("the temporary buffer must not share UB with ") + (sp.name ? sp.name : "src/dst"));
        }
        sync_v_write(api, tmp->addr_, size_t(std::min<uint64_t>(tmp->GetSize(), std::max<uint64_t>(used_bytes, need))));
    } else {
        auto* pipe = AscendC::GetTPipePtr();
        uint32_t used = pipe ? std::min(pipe->UsedBytes(), core().ub_size) : 0;
        if (core().ub_size - used < need)
            fail(api, "no UB left for the API's temporary buffer",
                 "without sharedTmpBuffer the API uses the UB after the last InitBuffer (" + std::to_string(core().ub_size - used) +
                     " B free) but needs " + std::to_string(need) + " B" +
                     (host_without_tmp ? " (" + host + host_note + ")" : std::string()) +
                     "; leave room or pass a sharedTmpBuffer");
    }
}

// The temp model of the elementwise APIs: `live` float vectors of `count` elements, at least one repeat each.
inline void hl_check_tmp(const char* api, const AscendC::LocalTensor<uint8_t>* tmp, uint32_t count, uint32_t live,
                         std::initializer_list<HlSpan> spans) {
    const uint64_t most = uint64_t(live) * ((uint64_t(count) * 4u + 31u) / 32u * 32u);
    hl_check_tmp_bytes(api, tmp, hl_min_tmp(live), most, spans, "Get" + std::string(api) + "MaxMinTmpSize");
}

// Checks the operand footprints (src/src2 read, dst written by PIPE_V; sources first, so an in-place call is a
// read then a write) and the temporary buffer.
template <class T, class U = T>
inline void hl_check(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>* src, uint32_t count,
                     const AscendC::LocalTensor<uint8_t>* tmp, uint32_t live, const AscendC::LocalTensor<U>* src2 = nullptr) {
    if (count == 0) return;
    if (src) check_src(api, *src, count);
    if (src2) check_src(api, *src2, count);
    check_dst(api, dst, count);
    hl_check_tmp(api, tmp, count, live,
                 {{dst.addr_, size_t(count) * sizeof(T)}, {src ? src->addr_ : nullptr, size_t(count) * sizeof(U)},
                  {src2 ? src2->addr_ : nullptr, size_t(count) * sizeof(U)}});
}

template <class T, class F>
inline void hl_unary(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                     const AscendC::LocalTensor<uint8_t>* tmp, uint32_t count, uint32_t live, F f) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "high-level math APIs support half and float");
    hl_check(api, dst, &src, count, tmp, live);
    // the source is consumed into the temporaries before dst is written (the API works in stages through its
    // temp buffer), so a dst that overlaps src is well defined: NPUKernelBench MulSigmoidMulAdd relies on it
    static thread_local std::vector<float> v;
    v.resize(count);
    for (uint32_t i = 0; i < count; ++i) v[i] = f(float(src.addr_[i]));
    for (uint32_t i = 0; i < count; ++i) dst.addr_[i] = T(v[i]);
}
}  // namespace ascsim

namespace AscendC {

#define ASCSIM_HL_UNARY(NAME, LIVE, EXPR)                                                                              \
    template <typename T, bool isReuseSource = false>                                                                  \
    __aicore__ inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                      \
                                const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {                \
        ::ascsim::hl_unary(#NAME, dstTensor, srcTensor, &sharedTmpBuffer, calCount, LIVE, [](float x) { return EXPR; }); \
    }                                                                                                                  \
    template <typename T, bool isReuseSource = false>                                                                  \
    __aicore__ inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                      \
                                const LocalTensor<uint8_t>& sharedTmpBuffer) {                                         \
        NAME<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize());                            \
    }                                                                                                                  \
    template <typename T, bool isReuseSource = false>                                                                  \
    __aicore__ inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount) { \
        ::ascsim::hl_unary(#NAME, dstTensor, srcTensor, nullptr, calCount, LIVE, [](float x) { return EXPR; });        \
    }                                                                                                                  \
    template <typename T, bool isReuseSource = false>                                                                  \
    __aicore__ inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {                    \
        NAME<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize());                                             \
    }

// Sigmoid runs as the device's stages (exp(-x), +1, reciprocal), each rounded to T: for half this matches a
// half-precision reference 1 / (1 + exp(-x)) bit for bit instead of drifting by an ulp.
ASCSIM_HL_UNARY(Sigmoid, 2, float(T(1.0f / float(T(1.0f + float(T(std::exp(-x))))))))
ASCSIM_HL_UNARY(Tanh, 2, std::tanh(x))
ASCSIM_HL_UNARY(Erf, 3, std::erf(x))
ASCSIM_HL_UNARY(Erfc, 3, std::erfc(x))
ASCSIM_HL_UNARY(Sin, 3, std::sin(x))
ASCSIM_HL_UNARY(Cos, 3, std::cos(x))
ASCSIM_HL_UNARY(Tan, 3, std::tan(x))
ASCSIM_HL_UNARY(Asin, 3, std::asin(x))
ASCSIM_HL_UNARY(Acos, 3, std::acos(x))
ASCSIM_HL_UNARY(Atan, 3, std::atan(x))
ASCSIM_HL_UNARY(Sinh, 2, std::sinh(x))
ASCSIM_HL_UNARY(Cosh, 2, std::cosh(x))
ASCSIM_HL_UNARY(Log, 1, std::log(x))
ASCSIM_HL_UNARY(Log2, 1, std::log2(x))
ASCSIM_HL_UNARY(Log10, 1, std::log10(x))
ASCSIM_HL_UNARY(Sign, 1, (x > 0.0f ? 1.0f : (x < 0.0f ? -1.0f : 0.0f)))
ASCSIM_HL_UNARY(Frac, 1, x - std::trunc(x))
#undef ASCSIM_HL_UNARY

// Power: tensor^tensor, tensor^scalar, scalar^tensor. Floating types in float, rounded to T once; int32_t exactly, by
// repeated multiplication in 32 bits (a negative exponent gives 0 unless the base is 1 or -1), as integer vector
// multiplies wrap. All sources are read before dst is written, so dst may overlap a source.
}  // namespace AscendC
namespace ascsim {
template <class T, class A, class B> inline T hl_pow(const A& base, const B& exponent) {
    if constexpr (std::is_integral_v<T>) {
        int64_t b = int64_t(base), e = int64_t(exponent);
        if (e < 0) return T(b == 1 ? 1 : (b == -1 ? ((e & 1) ? -1 : 1) : 0));
        uint32_t r = 1, x = uint32_t(int32_t(b));
        for (; e > 0; e >>= 1, x *= x) if (e & 1) r *= x;
        return T(int32_t(r));
    } else {
        return T(std::pow(float(base), float(exponent)));
    }
}
}  // namespace ascsim
namespace AscendC {
#define ASCSIM_HL_POWER(A0, A1, GET0, GET1, SRC, SRC2)                                                                       \
    template <typename T, bool isReuseSource = false>                                                                  \
    __aicore__ inline void Power(const LocalTensor<T>& dstTensor, A0 src0, A1 src1,                                    \
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {               \
        ::ascsim::hl_check("Power", dstTensor, SRC, calCount, &sharedTmpBuffer, 4, SRC2);                                   \
        std::vector<T> v(calCount);                                                                                    \
        for (uint32_t i = 0; i < calCount; ++i) v[i] = ::ascsim::hl_pow<T>(GET0, GET1);                              \
        std::copy(v.begin(), v.end(), dstTensor.addr_);                                                                \
    }                                                                                                                  \
    template <typename T, bool isReuseSource = false>                                                                  \
    __aicore__ inline void Power(const LocalTensor<T>& dstTensor, A0 src0, A1 src1, const uint32_t calCount) {         \
        ::ascsim::hl_check("Power", dstTensor, SRC, calCount, nullptr, 4, SRC2);                                            \
        std::vector<T> v(calCount);                                                                                    \
        for (uint32_t i = 0; i < calCount; ++i) v[i] = ::ascsim::hl_pow<T>(GET0, GET1);                              \
        std::copy(v.begin(), v.end(), dstTensor.addr_);                                                                \
    }                                                                                                                  \
    template <typename T, bool isReuseSource = false>                                                                  \
    __aicore__ inline void Power(const LocalTensor<T>& dstTensor, A0 src0, A1 src1,                                    \
                                 const LocalTensor<uint8_t>& sharedTmpBuffer) {                                        \
        Power<T, isReuseSource>(dstTensor, src0, src1, sharedTmpBuffer, dstTensor.GetSize());                          \
    }                                                                                                                  \
    template <typename T, bool isReuseSource = false>                                                                  \
    __aicore__ inline void Power(const LocalTensor<T>& dstTensor, A0 src0, A1 src1) {                                  \
        Power<T, isReuseSource>(dstTensor, src0, src1, dstTensor.GetSize());                                           \
    }
ASCSIM_HL_POWER(const LocalTensor<T>&, const LocalTensor<T>&, src0.addr_[i], src1.addr_[i], &src0, &src1)
ASCSIM_HL_POWER(const LocalTensor<T>&, const T&, src0.addr_[i], src1, &src0, static_cast<const LocalTensor<T>*>(nullptr))
ASCSIM_HL_POWER(const T&, const LocalTensor<T>&, src0, src1.addr_[i], &src1, static_cast<const LocalTensor<T>*>(nullptr))
#undef ASCSIM_HL_POWER

// Arange<T>(dst, firstValue, diffValue, count) (ArithProgression is its older name): dst[i] = firstValue + i *
// diffValue, built as the docs describe it: the first 8 values one by one, then each block of 8 up to 64 as the
// first block plus (8k) * diffValue, then each block of 64 as the first 64 plus (64k) * diffValue (one Adds per
// block, so every value is rounded to T at most twice). Atlas A2: int16_t, half, int32_t, float; diffValue >= 0.
template <typename T>
__aicore__ inline void Arange(const LocalTensor<T>& dst, const T firstValue, const T diffValue, const int32_t count) {
    static_assert(std::is_same_v<T, int16_t> || std::is_same_v<T, half> || std::is_same_v<T, int32_t> || std::is_same_v<T, float>,
                  "Arange supports int16_t, half, int32_t and float on Atlas A2");
    if (count <= 0) ::ascsim::fail("Arange", "Failed to check params", "count must be larger than 0, got " + std::to_string(count));
    if (float(diffValue) < 0.0f)
        ::ascsim::fail("Arange", "Failed to check params", "diffValue must not be negative");
    if (!::ascsim::check_dst("Arange", dst, count)) return;
    if constexpr (std::is_integral_v<T>) {   // integer adds are exact in any order
        for (int32_t i = 0; i < count; ++i) dst.addr_[i] = T(int64_t(firstValue) + int64_t(i) * int64_t(diffValue));
        return;
    }
    auto add = [](T a, float s) { return T(float(a) + float(T(s))); };
    const float d = float(diffValue);
    for (int32_t i = 0; i < count; ++i) {
        if (i < 8) dst.addr_[i] = add(firstValue, float(i) * d);
        else if (i < 64) dst.addr_[i] = add(dst.addr_[i % 8], float(i / 8 * 8) * d);
        else dst.addr_[i] = add(dst.addr_[i % 64], float(i / 64 * 64) * d);
    }
}
template <typename T>
__aicore__ inline void ArithProgression(const LocalTensor<T>& dst, const T firstValue, const T diffValue, const int32_t count) {
    Arange<T>(dst, firstValue, diffValue, count);
}

// Broadcast<T, dim, axis> (documented name; BroadCast is the older spelling kernels still use): repeats src along
// `axis` (0: [1, k] -> [m, k]; 1: [m, 1] -> [m, k]; dim 1: one element -> n). Atlas A2: int8_t, uint8_t, half, float;
// with dim 2 and axis 0 the row (srcShape[1]) must be 32-byte aligned, with axis 1 the output rows are dense and may
// be unaligned. The docs forbid src and dst to overlap; the device still reads the source completely first and
// answers broadcast in place (NPUKernelBench RmsNorm-family), so an overlap is allowed here. The temporary buffer
// must hold what GetBroadCastMaxMinTmpSize reports (host/hl_tiling.h, ascsim::broadcast_min_tmp).
template <typename T, int32_t dim, int32_t axis>
__aicore__ inline void ascsim_broadcast(const char* api, const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                        const uint32_t dstShape[dim], const uint32_t srcShape[dim], const LocalTensor<uint8_t>* tmp) {
    static_assert(dim == 1 || dim == 2, "Broadcast supports dim 1 and 2");
    static_assert(axis == 0 || axis == 1, "Broadcast supports axis 0 and 1");
    static_assert(axis < dim, "Broadcast: axis out of range for dim");
    static_assert(std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t> || std::is_same_v<T, half> || std::is_same_v<T, float>,
                  "Broadcast supports int8_t, uint8_t, half and float on Atlas A2");
    uint32_t total = 1, stotal = 1;
    for (int i = 0; i < dim; ++i) {
        if (srcShape[i] != dstShape[i] && srcShape[i] != 1)
            ::ascsim::fail(api, "Failed to check shape", "srcShape must equal dstShape or be 1 on every axis");
        if (i != axis && srcShape[i] != dstShape[i])
            ::ascsim::fail(api, "Failed to check shape", "only the broadcast axis may differ");
        total *= dstShape[i];
        stotal *= srcShape[i];
    }
    if (dim == 2 && axis == 0 && (uint64_t(srcShape[1]) * sizeof(T)) % 32)
        ::ascsim::fail(api, "Failed to check shape",
                       "with dim 2 and axis 0, srcShape[1] * sizeof(T) must be a multiple of 32 bytes, got " +
                           std::to_string(uint64_t(srcShape[1]) * sizeof(T)));
    if (total == 0) return;
    // the source is only read (it may be a tensor other pipes read at the same time); the destination is written
    ::ascsim::check_src(api, srcLocal, stotal);
    ::ascsim::check_dst(api, dstLocal, total);
    const uint32_t need = ::ascsim::broadcast_min_tmp(uint32_t(sizeof(T)), dim == 2 ? dstShape[0] : 1,
                                                      dim == 2 ? dstShape[1] : dstShape[0], stotal, axis);
    ::ascsim::hl_check_tmp_bytes(api, tmp, need, tmp ? tmp->GetSize() : 0, {}, "GetBroadCastMaxMinTmpSize");
    std::vector<T> s(srcLocal.addr_, srcLocal.addr_ + stotal);
    if (dim == 1) { for (uint32_t i = 0; i < total; ++i) dstLocal.addr_[i] = s[stotal == 1 ? 0 : i]; return; }
    for (uint32_t r = 0; r < dstShape[0]; ++r)
        for (uint32_t c = 0; c < dstShape[1]; ++c)
            dstLocal.addr_[size_t(r) * dstShape[1] + c] = s[axis == 0 ? (srcShape[0] == 1 ? c : size_t(r) * dstShape[1] + c)
                                                                        : (srcShape[1] == 1 ? r : size_t(r) * dstShape[1] + c)];
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim],
                                 const uint32_t srcShape[dim], LocalTensor<uint8_t>& sharedTmpBuffer) {
    ascsim_broadcast<T, dim, axis>("Broadcast", dstLocal, srcLocal, dstShape, srcShape, &sharedTmpBuffer);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim],
                                 const uint32_t srcShape[dim]) {
    ascsim_broadcast<T, dim, axis>("Broadcast", dstLocal, srcLocal, dstShape, srcShape, nullptr);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void BroadCast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim],
                                 const uint32_t srcShape[dim], LocalTensor<uint8_t>& sharedTmpBuffer) {
    ascsim_broadcast<T, dim, axis>("BroadCast", dstLocal, srcLocal, dstShape, srcShape, &sharedTmpBuffer);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void BroadCast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim],
                                 const uint32_t srcShape[dim]) {
    ascsim_broadcast<T, dim, axis>("BroadCast", dstLocal, srcLocal, dstShape, srcShape, nullptr);
}

}  // namespace AscendC
#endif  // ASCSIM_KERNEL_HL_MATH_H_
