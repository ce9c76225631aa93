// ascsim: the high-level Fmod API of the AscendC math library as documented for Atlas A2 (docs SIMD-API, high-level
// math, Fmod): the element-wise floating-point remainder of src0 divided by src1, with its four overloads
// (sharedTmpBuffer or framework scratch, times calCount or whole tensor). The host sizes are in
// host/fmod_trans_data_tiling.h (GetFmodMaxMinTmpSize, GetFmodTmpBufferFactorSize).
//
// Semantics: r = a - Trunc(a / b) * b, Trunc rounding toward zero (the docs' definition; Fmod(2.0, 1.5) = 0.5 and
// Fmod(-3.0, 1.1) = -0.8, so the result takes the dividend's sign). On Atlas A2 only the default algorithm exists
// (FmodAlgo::NORMAL, "emulated ordinary mode"); the docs say its inputs go through a precision conversion, so the
// model evaluates the formula in float, one rounding per step (divide, truncate, multiply, subtract), and a half
// operand is widened to float first and the result narrowed once at the end. Consequences of the formula that the
// docs do not spell out: a zero divisor gives NaN (a / 0 is infinite or NaN, times 0 is NaN), an infinite dividend
// gives NaN, an infinite divisor gives NaN (0 * inf), an exact multiple gives +0 even for a negative dividend, and
// where the float quotient rounds up to the next integer the result is off by about one divisor from the exact
// remainder (Fmod(1.0f, 0.1f) is 0 here, not 0.0999999866): the price of one float pass, which the 950's
// ITERATION_COMPENSATION algorithm exists to reduce.
//
// Rules enforced (Fmod.md): T is half or float; FmodConfig is an Ascend 950 feature, so a config with any algorithm
// but NORMAL is a compile error here; src0 and src1 hold the same number of elements (whole-tensor forms) or at least
// calCount (count forms); neither source may share UB with dst (in place included); the sharedTmpBuffer must not
// overlap any operand and must hold GetFmodMaxMinTmpSize's minValue. isReuseSource is documented as reserved and is
// ignored. Temp model (the docs give no sizes; the host reports the same): float keeps 1 float vector (the
// quotient), half keeps 3 (both widened sources and the quotient), with hl_math.h's live-vector rule
// (ascsim::fmod_live in ../fmod_trans_data_common.h).
#ifndef ASCSIM_KERNEL_HL_FMOD_H_
#define ASCSIM_KERNEL_HL_FMOD_H_
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>
#include "hl_math.h"
#include "hl_rounding_math.h"
#include "../fmod_trans_data_common.h"   // fmod_live, shared with the host sizes

// The toolkit-path stub lib/math/fmod.h declares catch-all Fmod templates unless this is defined; Fmod is simulated.
#ifndef ASCSIM_NOT_SIMULATED_Fmod
#define ASCSIM_NOT_SIMULATED_Fmod
#endif

namespace AscendC {
#ifndef ASCSIM_HAVE_FMOD_CONFIG
#define ASCSIM_HAVE_FMOD_CONFIG
constexpr uint32_t FMOD_ITERATION_NUM_MAX = 11;
enum class FmodAlgo {
    NORMAL = 0,
    ITERATION_COMPENSATION = 1,
};
struct FmodConfig {
    FmodAlgo algo = FmodAlgo::NORMAL;
    uint32_t iterationNum = FMOD_ITERATION_NUM_MAX;
};
inline constexpr FmodConfig DEFAULT_FMOD_CONFIG = {FmodAlgo::NORMAL, FMOD_ITERATION_NUM_MAX};
#endif
}  // namespace AscendC

namespace ascsim {
// One element in the NORMAL algorithm: each step rounded to float.
inline float fmod_normal(float a, float b) {
    const float quotient = a / b;
    const float whole = std::trunc(quotient);
    const float product = whole * b;
    return a - product;
}

template <class T, const AscendC::FmodConfig& config>
inline void hl_fmod(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
                    const AscendC::LocalTensor<T>& src1, const AscendC::LocalTensor<uint8_t>* tmp, uint32_t count) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "Fmod supports half and float on Atlas A2");
    static_assert(config.algo == AscendC::FmodAlgo::NORMAL,
                  "Fmod: FmodConfig is an Ascend 950PR/950DT feature; on Atlas A2 only FmodAlgo::NORMAL (the default "
                  "config) is available");
    const char* api = "Fmod";
    if (count == 0) return;
    if (count > src0.GetSize() || count > src1.GetSize() || count > dst.GetSize())
        fail(api, "Failed to check params",
             "calCount " + std::to_string(count) + " is larger than src0Tensor (" + std::to_string(src0.GetSize()) +
                 " elements), src1Tensor (" + std::to_string(src1.GetSize()) + ") or dstTensor (" +
                 std::to_string(dst.GetSize()) + ")");
    hl_forbid_overlap(api, dst, src0, count, "src0Tensor");
    hl_forbid_overlap(api, dst, src1, count, "src1Tensor");
    hl_check(api, dst, &src0, count, tmp, fmod_live(uint32_t(sizeof(T))), &src1);
    std::vector<float> r(count);
    for (uint32_t i = 0; i < count; ++i) r[i] = fmod_normal(float(src0.addr_[i]), float(src1.addr_[i]));
    for (uint32_t i = 0; i < count; ++i) dst.addr_[i] = T(r[i]);
}

// The whole-tensor forms take src0's element count; the docs require both sources to have the same length.
template <class T>
inline uint32_t hl_fmod_whole(const AscendC::LocalTensor<T>& src0, const AscendC::LocalTensor<T>& src1) {
    if (src0.GetSize() != src1.GetSize())
        fail("Fmod", "Failed to check params",
             "src0Tensor and src1Tensor must hold the same number of elements (" + std::to_string(src0.GetSize()) +
                 " vs " + std::to_string(src1.GetSize()) + ")");
    return src0.GetSize();
}
}  // namespace ascsim

namespace AscendC {
template <typename T, bool isReuseSource = false, const FmodConfig& config = DEFAULT_FMOD_CONFIG>
__aicore__ inline void Fmod(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                            const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                            const uint32_t calCount) {
    ::ascsim::hl_fmod<T, config>(dstTensor, src0Tensor, src1Tensor, &sharedTmpBuffer, calCount);
}
template <typename T, bool isReuseSource = false, const FmodConfig& config = DEFAULT_FMOD_CONFIG>
__aicore__ inline void Fmod(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                            const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer) {
    ::ascsim::hl_fmod<T, config>(dstTensor, src0Tensor, src1Tensor, &sharedTmpBuffer,
                                 ::ascsim::hl_fmod_whole(src0Tensor, src1Tensor));
}
template <typename T, bool isReuseSource = false, const FmodConfig& config = DEFAULT_FMOD_CONFIG>
__aicore__ inline void Fmod(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                            const LocalTensor<T>& src1Tensor, const uint32_t calCount) {
    ::ascsim::hl_fmod<T, config>(dstTensor, src0Tensor, src1Tensor, nullptr, calCount);
}
template <typename T, bool isReuseSource = false, const FmodConfig& config = DEFAULT_FMOD_CONFIG>
__aicore__ inline void Fmod(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                            const LocalTensor<T>& src1Tensor) {
    ::ascsim::hl_fmod<T, config>(dstTensor, src0Tensor, src1Tensor, nullptr,
                                 ::ascsim::hl_fmod_whole(src0Tensor, src1Tensor));
}
}  // namespace AscendC
#endif  // ASCSIM_KERNEL_HL_FMOD_H_
