// ascsim host side: SoftMax tiling (optiling::SoftMaxTiling, SoftMaxTilingFunc, Get{Max,Min}TmpSize,
// IsBasicBlockInSoftMax) and SoftmaxFlashV2's (SoftMaxFlashV2TilingFunc, GetSoftMaxFlashV2{Max,Min}TmpSize).
// Kernels nest it with TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, ...); the build then generates the kernel-side
// struct from these fields. SoftMax temp model: two float rows of srcK at minimum, two float copies of the whole
// [srcM, srcK] tile at most; SoftmaxFlashV2: ascsim_softmax::flashv2_tmp below (kernel side: ascsim/kernel/hl_softmax.h).
#ifndef ASCSIM_HOST_SOFTMAX_TILING_H_
#define ASCSIM_HOST_SOFTMAX_TILING_H_
#include "register/tilingdata_base.h"
#include "hl_tiling.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SoftMaxTiling)
    TILING_DATA_FIELD_DEF(uint32_t, srcM);
    TILING_DATA_FIELD_DEF(uint32_t, srcK);
    TILING_DATA_FIELD_DEF(uint32_t, srcSize);
    TILING_DATA_FIELD_DEF(uint32_t, outMaxM);
    TILING_DATA_FIELD_DEF(uint32_t, outMaxK);
    TILING_DATA_FIELD_DEF(uint32_t, outMaxSize);
    TILING_DATA_FIELD_DEF(uint32_t, splitM);
    TILING_DATA_FIELD_DEF(uint32_t, splitK);
    TILING_DATA_FIELD_DEF(uint32_t, splitSize);
    TILING_DATA_FIELD_DEF(uint32_t, reduceM);
    TILING_DATA_FIELD_DEF(uint32_t, reduceK);
    TILING_DATA_FIELD_DEF(uint32_t, reduceSize);
    TILING_DATA_FIELD_DEF(uint32_t, rangeM);
    TILING_DATA_FIELD_DEF(uint32_t, tailM);
    TILING_DATA_FIELD_DEF(uint32_t, tailSplitSize);
    TILING_DATA_FIELD_DEF(uint32_t, tailReduceSize);
END_TILING_DATA_DEF;
}  // namespace optiling

#include "../softmax_common.h"

namespace AscendC {
namespace ascsim_hl {
inline void softmax_mk(const ge::Shape& s, uint32_t& m, uint32_t& k) {
    k = s.GetDimNum() ? uint32_t(s.GetDim(s.GetDimNum() - 1)) : 0;
    m = k ? uint32_t(s.GetShapeSize() / k) : 0;
}
}  // namespace ascsim_hl
inline uint32_t GetSoftMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
    (void)dataTypeSize; (void)isReuseSource;
    uint32_t m, k;
    ascsim_hl::softmax_mk(srcShape, m, k);
    return 2u * ((k * 4u + 31u) / 32u * 32u);
}
inline uint32_t GetSoftMaxMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
    (void)dataTypeSize; (void)isReuseSource;
    uint32_t m, k;
    ascsim_hl::softmax_mk(srcShape, m, k);
    return 2u * m * ((k * 4u + 31u) / 32u * 32u);
}
inline void SoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                              optiling::SoftMaxTiling& t) {
    uint32_t m, k;
    ascsim_hl::softmax_mk(srcShape, m, k);
    uint32_t row = 2u * ((k * 4u + 31u) / 32u * 32u);
    uint32_t rows = row ? localWorkSpaceSize / row : 0;
    if (rows > m) rows = m;
    uint32_t blk = 32u / (dataTypeSize ? dataTypeSize : 2);
    t.set_srcM(m); t.set_srcK(k); t.set_srcSize(m * k);
    t.set_outMaxM(m); t.set_outMaxK(blk); t.set_outMaxSize(m * blk);
    t.set_splitM(rows); t.set_splitK(k); t.set_splitSize(rows * k);
    t.set_reduceM(rows); t.set_reduceK(blk); t.set_reduceSize(rows * blk);
    t.set_rangeM(rows ? m / rows : 0); t.set_tailM(rows ? m % rows : m);
    t.set_tailSplitSize((rows ? m % rows : m) * k); t.set_tailReduceSize((rows ? m % rows : m) * blk);
}
inline bool IsBasicBlockInSoftMax(optiling::SoftMaxTiling& t, const uint32_t dataTypeSize = 2) {
    (void)dataTypeSize;
    return t.get_srcK() % 64 == 0 && t.get_srcK() <= 2048 && t.get_splitM() % 8 == 0;
}
// SoftmaxFlashV2 (kernel side: ascsim/kernel/hl_softmax.h). dataTypeSize1: src/dst; dataTypeSize2: max/sum.
// Sizes follow ascsim_softmax::flashv2_tmp above; 0 for an empty shape or a data type size other than 2 or 4.
namespace ascsim_hl {
inline bool flashv2_args(const ge::Shape& s, uint32_t dts1, uint32_t dts2, uint32_t& m, uint32_t& k) {
    softmax_mk(s, m, k);
    return m && k && (dts1 == 2 || dts1 == 4) && (dts2 == 2 || dts2 == 4);
}
}  // namespace ascsim_hl
inline uint32_t GetSoftMaxFlashV2MinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
                                            const bool isUpdate, const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
    (void)isUpdate;
    uint32_t m, k;
    if (!ascsim_hl::flashv2_args(srcShape, dataTypeSize1, dataTypeSize2, m, k)) return 0;
    return ascsim_softmax::flashv2_bytes(ascsim_softmax::flashv2_tmp(m, k, dataTypeSize1, dataTypeSize2, isBasicBlock, isFlashOutputBrc), 1);
}
inline uint32_t GetSoftMaxFlashV2MaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
                                            const bool isUpdate, const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
    (void)isUpdate;
    uint32_t m, k;
    if (!ascsim_hl::flashv2_args(srcShape, dataTypeSize1, dataTypeSize2, m, k)) return 0;
    return ascsim_softmax::flashv2_bytes(ascsim_softmax::flashv2_tmp(m, k, dataTypeSize1, dataTypeSize2, isBasicBlock, isFlashOutputBrc), m);
}
// Fills the tiling for [srcM, srcK]; splitM = the rows whose temporaries fit in localWorkSpaceSize (0 when it is
// below GetSoftMaxFlashV2MinTmpSize: the kernel then reports the buffer as too small).
inline void SoftMaxFlashV2TilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
                                     const uint32_t localWorkSpaceSize, AscendC::tiling::SoftMaxTiling& softmaxFlashTiling,
                                     const bool isUpdate, const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
    (void)isUpdate;
    uint32_t m, k;
    ascsim_hl::softmax_mk(srcShape, m, k);
    softmaxFlashTiling = ascsim_softmax::flashv2_tiling(m, k, dataTypeSize1, dataTypeSize2, localWorkSpaceSize, isBasicBlock,
                                                        isFlashOutputBrc);
}
inline void SoftMaxFlashV2TilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
                                     const uint32_t localWorkSpaceSize, optiling::SoftMaxTiling& softmaxFlashTiling,
                                     const bool isUpdate, const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
    tiling::SoftMaxTiling s;
    SoftMaxFlashV2TilingFunc(srcShape, dataTypeSize1, dataTypeSize2, localWorkSpaceSize, s, isUpdate, isBasicBlock, isFlashOutputBrc);
    optiling::SoftMaxTiling& t = softmaxFlashTiling;
    t.set_srcM(s.srcM); t.set_srcK(s.srcK); t.set_srcSize(s.srcSize);
    t.set_outMaxM(s.outMaxM); t.set_outMaxK(s.outMaxK); t.set_outMaxSize(s.outMaxSize);
    t.set_splitM(s.splitM); t.set_splitK(s.splitK); t.set_splitSize(s.splitSize);
    t.set_reduceM(s.reduceM); t.set_reduceK(s.reduceK); t.set_reduceSize(s.reduceSize);
    t.set_rangeM(s.rangeM); t.set_tailM(s.tailM); t.set_tailSplitSize(s.tailSplitSize); t.set_tailReduceSize(s.tailReduceSize);
}
}  // namespace AscendC
#endif  // ASCSIM_HOST_SOFTMAX_TILING_H_
