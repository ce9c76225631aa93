// ascsim host side for kernel/hl_fmod.h and kernel/hl_trans_data.h, with the documented signatures:
//   GetFmodMaxMinTmpSize / GetFmodTmpBufferFactorSize: the hl_math.h live-vector model with
//     ascsim::fmod_live(typeSize) vectors (float 1, half 3): min = live * 256 B, max = live * align32(count * 4) B,
//     maxLiveNodeCount = live * 4 / typeSize, extraBuf = live * 256 B (math_tiling.h's convention). A typeSize other
//     than 2 or 4 (Fmod takes half and float only) or an empty shape leaves 0 / 0.
//   GetTransDataMaxMinTmpSize: max == min (documented) = ascsim::trans_data::tmp_bytes, the same value the kernel
//     requires. Answers false, with 0 / 0, for a conversion other than the four documented ones, shapes that do not
//     describe one tensor in the two formats, or a data type the Atlas A2 kernel does not take. The host page also
//     lists float, but the kernel page (and C0 = 16, stated for 16-bit types) do not cover it, so float answers false.
// The models live in ../fmod_trans_data_common.h, shared with the kernel side.
#ifndef ASCSIM_HOST_FMOD_TRANS_DATA_TILING_H_
#define ASCSIM_HOST_FMOD_TRANS_DATA_TILING_H_
#include <cstdint>
#include <vector>
#include "hl_tiling.h"
#include "math_tiling.h"
#include "../fmod_trans_data_common.h"

namespace AscendC {
inline void GetFmodMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                 uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;   // reserved in the docs
    maxValue = minValue = 0;
    if ((typeSize != 2 && typeSize != 4) || srcShape.GetShapeSize() <= 0) return;
    ascsim_hl::max_min(srcShape, ::ascsim::fmod_live(typeSize), maxValue, minValue);
}
inline void GetFmodTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    ascsim_math::factor(::ascsim::fmod_live(typeSize), typeSize, maxLiveNodeCount, extraBuf);
}

inline bool GetTransDataMaxMinTmpSize(const platform_ascendc::PlatformAscendC& platform, const TensorShape& srcShape,
                                      const TensorShape& dstShape, const TensorDataType dataType,
                                      const TransDataConfig& config, uint32_t& maxValue, uint32_t& minValue) {
    (void)platform;   // only Atlas A2 is modelled
    maxValue = minValue = 0;
    if (dataType != ge::DT_FLOAT16 && dataType != ge::DT_BF16 && dataType != ge::DT_INT16 && dataType != ge::DT_UINT16)
        return false;
    ::ascsim::trans_data::Dims m;
    if (!::ascsim::trans_data::parse(config.srcFormat, config.dstFormat, srcShape.GetDims(), dstShape.GetDims(), m)
             .empty())
        return false;
    const uint64_t b = ::ascsim::trans_data::tmp_bytes(m, 2);
    if (b > 0xFFFFFFFFull) return false;
    maxValue = minValue = uint32_t(b);
    return true;
}
}  // namespace AscendC
#endif  // ASCSIM_HOST_FMOD_TRANS_DATA_TILING_H_
