// ascsim host side: the temporary-buffer helpers of AscendQuant / AscendDequant / AscendAntiQuant / DropOut and the
// Pad / UnPad tilings (optiling::PadTiling / UnPadTiling, PadTilingFunc / UnPadTilingFunc, GetPadMaxMinTmpSize /
// GetUnPadMaxMinTmpSize), with the documented signatures. Kernels nest the tilings with
// TILING_DATA_FIELD_DEF_STRUCT(PadTiling, ...); the build then generates the kernel-side struct from these fields.
// Sizes follow the simulator's models in ../quant_pad_common.h (the docs give none), which the kernel side
// (kernel/hl_quant_pad.h) checks against. Arguments the models cannot size (a shape that is not 2-D for Pad / UnPad, a
// data type the API does not take) leave 0 / 0.
#ifndef ASCSIM_HOST_QUANT_PAD_TILING_H_
#define ASCSIM_HOST_QUANT_PAD_TILING_H_
#include "register/tilingdata_base.h"
#include "hl_tiling.h"
#include "../quant_pad_common.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(PadTiling)
    TILING_DATA_FIELD_DEF(uint32_t, srcHeight);
    TILING_DATA_FIELD_DEF(uint32_t, srcWidth);
    TILING_DATA_FIELD_DEF(uint32_t, srcOriWidth);
    TILING_DATA_FIELD_DEF(uint32_t, dstWidth);
    TILING_DATA_FIELD_DEF(uint32_t, typeSize);
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerLoop);
    TILING_DATA_FIELD_DEF(uint32_t, tmpBufferSize);
END_TILING_DATA_DEF;
BEGIN_TILING_DATA_DEF(UnPadTiling)
    TILING_DATA_FIELD_DEF(uint32_t, srcHeight);
    TILING_DATA_FIELD_DEF(uint32_t, srcWidth);
    TILING_DATA_FIELD_DEF(uint32_t, typeSize);
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerLoop);
    TILING_DATA_FIELD_DEF(uint32_t, tmpBufferSize);
END_TILING_DATA_DEF;
}  // namespace optiling

namespace AscendC {
namespace ascsim_qp_host {
inline uint64_t elements(const TensorShape& s) { return s.GetShapeSize() > 0 ? uint64_t(s.GetShapeSize()) : 0; }
inline void live_max_min(uint64_t count, uint32_t live, uint32_t& maxValue, uint32_t& minValue) {
    minValue = maxValue = 0;
    if (count == 0) return;
    minValue = ascsim_qp::live_min(live);
    maxValue = ascsim_qp::live_max(live, count);
}
// [height, width] of a 2-D shape with positive extents
inline bool dims2(const TensorShape& s, uint32_t& h, uint32_t& w) {
    if (s.GetDimNum() != 2 || s.GetDim(0) <= 0 || s.GetDim(1) <= 0) return false;
    h = uint32_t(s.GetDim(0));
    w = uint32_t(s.GetDim(1));
    return true;
}
}  // namespace ascsim_qp_host

// ---- AscendQuant (typeSize: half 2, float 4) ----
inline void GetAscendQuantMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                        uint32_t& minValue) {
    ascsim_qp_host::live_max_min(typeSize == 2 || typeSize == 4 ? ascsim_qp_host::elements(srcShape) : 0,
                                 ascsim_qp::kQuantLive, maxValue, minValue);
}
// currentShapeSize = (currBuff - extraBuf) / maxLiveNodeCount / typeSize (docs). Without a typeSize argument the node
// count is sized for half (the smaller type), which also covers float.
inline void GetAscendQuantTmpBufferFactorSize(uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    maxLiveNodeCount = ascsim_qp::kQuantLive * 4u / 2u;
    extraBuf = ascsim_qp::live_min(ascsim_qp::kQuantLive);
}

// ---- AscendDequant (srcShape [m, n] of int32_t, typeSize 4) ----
inline void GetAscendDequantMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                          uint32_t& minValue) {
    ascsim_qp_host::live_max_min(typeSize == 4 ? ascsim_qp_host::elements(srcShape) : 0, ascsim_qp::kDequantLive,
                                 maxValue, minValue);
}
// The docs' prototype takes srcShape; their example calls it without one: both forms are here.
inline void GetAscendDequantTmpBufferFactorSize(const TensorShape& srcShape, uint32_t& maxLiveNodeCount,
                                                uint32_t& extraBuf) {
    (void)srcShape;
    maxLiveNodeCount = ascsim_qp::kDequantLive;   // float copies of an int32_t (4-byte) source
    extraBuf = ascsim_qp::live_min(ascsim_qp::kDequantLive);
}
inline void GetAscendDequantTmpBufferFactorSize(uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    GetAscendDequantTmpBufferFactorSize(TensorShape(), maxLiveNodeCount, extraBuf);
}

// ---- AscendAntiQuant (Atlas A2: input DT_INT8 / DT_INT4, output DT_FLOAT16 / DT_BF16) ----
namespace ascsim_qp_host {
inline uint32_t antiquant_live(TensorDataType in, TensorDataType out) {
    if ((in != ge::DT_INT8 && in != ge::DT_INT4) || (out != ge::DT_FLOAT16 && out != ge::DT_BF16)) return 0;
    return ascsim_qp::antiquant_live(out == ge::DT_BF16);
}
}  // namespace ascsim_qp_host
inline void GetAscendAntiQuantMaxMinTmpSize(const TensorShape& srcShape, const TensorShape& scaleShape,
                                            bool isTranspose, TensorDataType inputDataType,
                                            TensorDataType outputDataType, uint32_t& maxValue, uint32_t& minValue) {
    (void)scaleShape; (void)isTranspose;
    const uint32_t live = ascsim_qp_host::antiquant_live(inputDataType, outputDataType);
    ascsim_qp_host::live_max_min(live ? ascsim_qp_host::elements(srcShape) : 0, live, maxValue, minValue);
}
inline uint32_t GetAscendAntiQuantMaxTmpSize(const TensorShape& srcShape, const TensorShape& scaleShape,
                                             bool isTranspose, TensorDataType inputDataType,
                                             TensorDataType outputDataType) {
    uint32_t mx = 0, mn = 0;
    GetAscendAntiQuantMaxMinTmpSize(srcShape, scaleShape, isTranspose, inputDataType, outputDataType, mx, mn);
    return mx;
}
inline uint32_t GetAscendAntiQuantMinTmpSize(const TensorShape& srcShape, const TensorShape& scaleShape,
                                             bool isTranspose, TensorDataType inputDataType,
                                             TensorDataType outputDataType) {
    uint32_t mx = 0, mn = 0;
    GetAscendAntiQuantMaxMinTmpSize(srcShape, scaleShape, isTranspose, inputDataType, outputDataType, mx, mn);
    return mn;
}
// The node count is sized for a 1-byte type (the int8_t source), which also covers larger ones.
inline void GetAscendAntiQuantTmpBufferFactorSize(const TensorShape& srcShape, const TensorShape& scaleShape,
                                                  bool isTranspose, TensorDataType inputDataType,
                                                  TensorDataType outputDataType, uint32_t& maxLiveNodeCount,
                                                  uint32_t& extraBuf) {
    (void)srcShape; (void)scaleShape; (void)isTranspose;
    const uint32_t live = ascsim_qp_host::antiquant_live(inputDataType, outputDataType);
    maxLiveNodeCount = live * 4u;
    extraBuf = ascsim_qp::live_min(live);
}

// ---- DropOut: srcShape [firstAxis, srcLastAxis] (the docs' example appends maskLastAxis as a third dimension, which
// is not data: only the first two dimensions count) ----
namespace ascsim_qp_host {
inline uint64_t dropout_elements(const TensorShape& s) {
    if (s.GetDimNum() == 0 || s.GetDim(0) <= 0) return 0;
    if (s.GetDimNum() == 1) return uint64_t(s.GetDim(0));
    return s.GetDim(1) > 0 ? uint64_t(s.GetDim(0)) * uint64_t(s.GetDim(1)) : 0;
}
}  // namespace ascsim_qp_host
inline void GetDropOutMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                    uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    ascsim_qp_host::live_max_min(typeSize == 2 || typeSize == 4 ? ascsim_qp_host::dropout_elements(srcShape) : 0,
                                 ascsim_qp::kDropOutLive, maxValue, minValue);
}
inline uint32_t GetDropOutMaxTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource) {
    uint32_t mx = 0, mn = 0;
    GetDropOutMaxMinTmpSize(srcShape, typeSize, isReuseSource, mx, mn);
    return mx;
}
inline uint32_t GetDropOutMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource) {
    uint32_t mx = 0, mn = 0;
    GetDropOutMaxMinTmpSize(srcShape, typeSize, isReuseSource, mx, mn);
    return mn;
}

// ---- Pad: srcShape [height, width] (width with redundant columns), oriSrcShape [height, valid width] ----
inline void GetPadMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                uint32_t& minValue) {
    uint32_t h = 0, w = 0;
    maxValue = minValue = 0;
    if (!ascsim_qp_host::dims2(srcShape, h, w) || (typeSize != 2 && typeSize != 4)) return;
    minValue = ascsim_qp::pad_row_bytes(w, typeSize);
    maxValue = h * minValue;
}
inline void PadTilingFunc(const TensorShape srcShape, const TensorShape oriSrcShape, const uint32_t stackBufferSize,
                          const uint32_t typeSize, tiling::PadTiling& tiling) {
    uint32_t h = 0, w = 0, oh = 0, ow = 0;
    tiling = tiling::PadTiling{};
    if (!ascsim_qp_host::dims2(srcShape, h, w)) return;
    if (!ascsim_qp_host::dims2(oriSrcShape, oh, ow)) ow = w;   // no original shape: every column is valid
    tiling = ascsim_qp::pad_tiling(h, w, ow, stackBufferSize, typeSize);
}
inline void PadTilingFunc(const TensorShape srcShape, const TensorShape oriSrcShape, const uint32_t stackBufferSize,
                          const uint32_t typeSize, optiling::PadTiling& tiling) {
    tiling::PadTiling s;
    PadTilingFunc(srcShape, oriSrcShape, stackBufferSize, typeSize, s);
    tiling.set_srcHeight(s.srcHeight); tiling.set_srcWidth(s.srcWidth); tiling.set_srcOriWidth(s.srcOriWidth);
    tiling.set_dstWidth(s.dstWidth); tiling.set_typeSize(s.typeSize); tiling.set_rowsPerLoop(s.rowsPerLoop);
    tiling.set_tmpBufferSize(s.tmpBufferSize);
}

// ---- UnPad: srcShape [height, width], width 32-byte aligned ----
inline void GetUnPadMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const TensorShape& srcShape,
                                  const uint32_t typeSize, uint32_t& maxValue, uint32_t& minValue) {
    (void)ascendcPlatform;
    uint32_t h = 0, w = 0;
    maxValue = minValue = 0;
    if (!ascsim_qp_host::dims2(srcShape, h, w) || (typeSize != 2 && typeSize != 4)) return;
    minValue = ascsim_qp::pad_row_bytes(w, typeSize);
    maxValue = h * minValue;
}
inline void UnPadTilingFunc(const TensorShape srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                            tiling::UnPadTiling& tiling) {
    uint32_t h = 0, w = 0;
    tiling = tiling::UnPadTiling{};
    if (!ascsim_qp_host::dims2(srcShape, h, w)) return;
    tiling = ascsim_qp::unpad_tiling(h, w, stackBufferSize, typeSize);
}
inline void UnPadTilingFunc(const TensorShape srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                            optiling::UnPadTiling& tiling) {
    tiling::UnPadTiling s;
    UnPadTilingFunc(srcShape, stackBufferSize, typeSize, s);
    tiling.set_srcHeight(s.srcHeight); tiling.set_srcWidth(s.srcWidth); tiling.set_typeSize(s.typeSize);
    tiling.set_rowsPerLoop(s.rowsPerLoop); tiling.set_tmpBufferSize(s.tmpBufferSize);
}
}  // namespace AscendC
#endif  // ASCSIM_HOST_QUANT_PAD_TILING_H_
