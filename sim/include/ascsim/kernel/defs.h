// ascsim kernel side: compiler built-ins of the device dialect, enums, constants and parameter structs.
#ifndef ASCSIM_ASCSIM_KERNEL_DEFS_H_
#define ASCSIM_ASCSIM_KERNEL_DEFS_H_
#include <cstdint>
#include <cstring>
#include <type_traits>
#include "../numeric.h"
#include "../runtime_api.h"

#ifndef __CCE_AICORE__
#define __CCE_AICORE__ 220
#endif
#ifndef __NPU_ARCH__
#define __NPU_ARCH__ 2201
#endif
#ifndef ASCENDC_CPU_DEBUG
#define ASCENDC_CPU_DEBUG 1
#endif
#define __aicore__
#define __global__
#define __gm__
#define __ubuf__
#define __cbuf__
#define __ca__
#define __cb__
#define __cc__
#define __fbuf__
#define __forceinline__ inline
#ifndef __inout_pipe__
#define __inout_pipe__(x)
#endif
#define __in_pipe__(x)
#define __out_pipe__(x)
#define __sync_alias__
#define __check_sync_alias__

using GM_ADDR = uint8_t*;

enum pipe_t { PIPE_S = 0, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_ALL, PIPE_MTE4, PIPE_MTE5,
              PIPE_V2, PIPE_FIX, PIPE_NUM };
enum event_t { EVENT_ID0 = 0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7 };

namespace AscendC {

enum class TPosition : uint8_t { GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM = VECCALC,
                                 SPM, SHM = SPM, TSCM, C2PIPE2GM, C2PIPE2LOCAL, MAX };
using QuePosition = TPosition;
enum class HardEvent : uint8_t { MTE2_MTE1, MTE1_MTE2, MTE1_M, M_MTE1, MTE2_V, V_MTE2, MTE3_V, V_MTE3, M_V, V_M,
                                 V_V, MTE3_MTE1, MTE1_MTE3, MTE1_V, MTE2_M, M_MTE2, V_MTE1, M_FIX, FIX_M,
                                 MTE3_MTE2, MTE2_MTE3, S_V, V_S, S_MTE2, MTE2_S, S_MTE3, MTE3_S, MTE2_FIX,
                                 FIX_MTE2, FIX_S, M_S, FIX_MTE3, MTE1_FIX, FIX_MTE1, FIX_FIX, MAX };
enum class RoundMode : uint8_t { CAST_NONE = 0, CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC,
                                 CAST_ODD, CAST_HYBRID };
enum class CMPMODE : uint8_t { LT = 0, GT, EQ, LE, GE, NE };
enum class SELMODE : uint8_t { VSEL_CMPMASK_SPR = 0, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };
enum class ReduceOrder : uint8_t { ORDER_VALUE_INDEX = 0, ORDER_INDEX_VALUE, ORDER_ONLY_VALUE, ORDER_ONLY_INDEX };
enum class MaskMode : uint8_t { NORMAL = 0, COUNTER };
enum class CacheMode : uint8_t { CACHE_MODE_DISABLE = 0, CACHE_MODE_NORMAL, CACHE_MODE_LAST, CACHE_MODE_PERSISTENT };
enum class CacheLine : uint8_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };
enum class DcciDst : uint8_t { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };
enum class GatherMaskMode : uint8_t { VERSION_V1 = 0, VERSION_V2 };
enum class AtomicDtype : uint8_t { ATOMIC_NONE = 0, ATOMIC_F32, ATOMIC_F16, ATOMIC_S16, ATOMIC_S32, ATOMIC_S8, ATOMIC_BF16 };
enum class AtomicOp : uint8_t { ATOMIC_SUM = 0 };
enum KernelMetaType : uint8_t { KERNEL_TYPE_AIV_ONLY, KERNEL_TYPE_AIC_ONLY, KERNEL_TYPE_MIX_AIV_1_0,
                                KERNEL_TYPE_MIX_AIC_1_0, KERNEL_TYPE_MIX_AIC_1_1, KERNEL_TYPE_MIX_AIC_1_2,
                                KERNEL_TYPE_MAX };
enum CoreType : int32_t { MIX = 0, AIC = 1, AIV = 2 };
constexpr int32_t g_coreType = AIV;
#define ASCEND_IS_AIV constexpr(AscendC::g_coreType == AscendC::AIV)
#define ASCEND_IS_AIC constexpr(AscendC::g_coreType == AscendC::AIC)
#define ASCEND_IS_NOT_AIV constexpr(AscendC::g_coreType != AscendC::AIV)
#define ASCEND_IS_NOT_AIC constexpr(AscendC::g_coreType != AscendC::AIC)
#define KERNEL_TASK_TYPE_DEFAULT(x)
#define KERNEL_TASK_TYPE(key, x)

constexpr int32_t ONE_BLK_SIZE = 32;
constexpr int32_t ONE_BLK_FLOAT_NUM = ONE_BLK_SIZE / 4;   // float elements in one 32-byte block
constexpr int32_t ONE_REPEAT_BYTE_SIZE = 256;
constexpr int32_t DEFAULT_REPEAT_STRIDE = 8;
constexpr int32_t DEFAULT_BLK_NUM = 8;
constexpr int32_t DEFAULT_BLK_STRIDE = 1;
constexpr int32_t MAX_REPEAT_TIMES = 255;
constexpr uint32_t BRCB_BROADCAST_NUMBER = 8;   // Brcb: source elements one repeat broadcasts (one 32-byte block each)
constexpr int32_t VECTOR_REG_WIDTH = 256;
constexpr int32_t MASK_PLACEHOLDER = 0;
constexpr int32_t BLOCK_CUBE = 16;
constexpr int32_t ONE_BLOCK_SIZE = 32;

struct BinaryRepeatParams {
    BinaryRepeatParams() = default;
    BinaryRepeatParams(uint8_t dBlk, uint8_t s0Blk, uint8_t s1Blk, uint8_t dRep, uint8_t s0Rep, uint8_t s1Rep)
        : dstBlkStride(dBlk), src0BlkStride(s0Blk), src1BlkStride(s1Blk), dstRepStride(dRep), src0RepStride(s0Rep),
          src1RepStride(s1Rep) {}
    uint32_t blockNumber = DEFAULT_BLK_NUM;
    uint8_t dstBlkStride = 1, src0BlkStride = 1, src1BlkStride = 1;
    uint8_t dstRepStride = 8, src0RepStride = 8, src1RepStride = 8;
    bool repeatStrideMode = false, strideSizeMode = false;
};
struct UnaryRepeatParams {
    UnaryRepeatParams() = default;
    UnaryRepeatParams(uint16_t dBlk, uint16_t sBlk, uint8_t dRep, uint8_t sRep)
        : dstBlkStride(dBlk), srcBlkStride(sBlk), dstRepStride(dRep), srcRepStride(sRep) {}
    UnaryRepeatParams(uint16_t dBlk, uint16_t sBlk, uint8_t dRep, uint8_t sRep, bool half)
        : dstBlkStride(dBlk), srcBlkStride(sBlk), dstRepStride(dRep), srcRepStride(sRep), halfBlock(half) {}
    uint32_t blockNumber = DEFAULT_BLK_NUM;
    uint16_t dstBlkStride = 1, srcBlkStride = 1;
    uint8_t dstRepStride = 8, srcRepStride = 8;
    bool repeatStrideMode = false, strideSizeMode = false, halfBlock = false;
};
struct CopyRepeatParams {
    CopyRepeatParams() = default;
    CopyRepeatParams(uint16_t dBlk, uint16_t sBlk, uint16_t dRep, uint16_t sRep)
        : dstStride(dBlk), srcStride(sBlk), dstRepeatSize(dRep), srcRepeatSize(sRep) {}
    uint16_t dstStride = 1, srcStride = 1, dstRepeatSize = 8, srcRepeatSize = 8;
};
struct BrcbRepeatParams {
    BrcbRepeatParams() = default;
    BrcbRepeatParams(uint16_t dBlk, uint16_t dRep) : dstBlkStride(dBlk), dstRepStride(dRep) {}
    uint32_t blockNumber = DEFAULT_BLK_NUM;
    uint16_t dstBlkStride = 1, dstRepStride = 8;
    bool repeatStrideMode = false, strideSizeMode = false;
};
struct GatherMaskParams {
    GatherMaskParams() = default;
    GatherMaskParams(uint8_t s0Blk, uint16_t rep, uint16_t s0Rep, uint8_t s1Rep)
        : src0BlockStride(s0Blk), repeatTimes(rep), src0RepeatStride(s0Rep), src1RepeatStride(s1Rep) {}
    uint8_t src0BlockStride = 1;
    uint16_t repeatTimes = 1;
    uint16_t src0RepeatStride = 8;
    uint8_t src1RepeatStride = 8;
};
struct GatherRepeatParams {
    GatherRepeatParams() = default;
    GatherRepeatParams(uint8_t dBlk, uint8_t dRep) : dstBlkStride(dBlk), dstRepStride(dRep) {}
    uint32_t blockNumber = DEFAULT_BLK_NUM;
    uint16_t dstBlkStride = 1;
    uint16_t dstRepStride = 8;
};

struct DataCopyParams {
    DataCopyParams() = default;
    DataCopyParams(uint16_t count, uint16_t len, uint16_t srcS, uint16_t dstS)
        : blockCount(count), blockLen(len), srcStride(srcS), dstStride(dstS) {}
    uint16_t blockCount = 1;
    uint16_t blockLen = 0;
    union { uint16_t srcStride = 0; uint16_t srcGap; };
    union { uint16_t dstStride = 0; uint16_t dstGap; };
};
struct DataCopyExtParams {
    DataCopyExtParams() = default;
    DataCopyExtParams(uint16_t count, uint32_t len, uint32_t srcS, uint32_t dstS, uint32_t r)
        : blockCount(count), blockLen(len), srcStride(srcS), dstStride(dstS), rsv(r) {}
    uint16_t blockCount = 1;
    uint32_t blockLen = 0;
    uint32_t srcStride = 0;
    uint32_t dstStride = 0;
    uint32_t rsv = 0;
};
struct DataCopyPadParams {
    DataCopyPadParams() = default;
    DataCopyPadParams(bool pad, uint8_t l, uint8_t r, uint64_t v)
        : isPad(pad), leftPadding(l), rightPadding(r), paddingValue(v) {}
    bool isPad = false;
    uint8_t leftPadding = 0, rightPadding = 0;
    uint64_t paddingValue = 0;
};
template <typename T> struct DataCopyPadExtParams {
    DataCopyPadExtParams() = default;
    DataCopyPadExtParams(bool pad, uint8_t l, uint8_t r, T v) : isPad(pad), leftPadding(l), rightPadding(r), paddingValue(v) {}
    bool isPad = false;
    uint8_t leftPadding = 0, rightPadding = 0;
    T paddingValue = T(0);
};
struct SliceInfo { uint32_t startIndex = 0, endIndex = 0, stride = 0, burstLen = 0, shapeValue = 0; };
constexpr int32_t K_MAX_SHAPE_DIM = 8;   // ShapeInfo's dimension limit
constexpr int32_t K_MAX_DIM = 8;
enum class DataFormat : uint8_t { ND = 0, NZ, NCHW, NC1HWC0, NHWC, NCDHW, NDC1HWC0, FRACTAL_Z_3D };
// A tensor's shape as kernel code records it (SetShapeInfo); without an original shape, the original is the shape.
struct ShapeInfo {
    ShapeInfo() = default;
    ShapeInfo(uint8_t dim, const uint32_t in[], uint8_t original_dim, const uint32_t original[], DataFormat format)
        : shapeDim(dim), originalShapeDim(original_dim), dataFormat(format) {
        if (dim > K_MAX_SHAPE_DIM || original_dim > K_MAX_SHAPE_DIM)
            ascsim::fail("ShapeInfo", "shape dimension count above the maximum",
                         std::to_string(dim) + " / " + std::to_string(original_dim) + " dimensions; at most " + std::to_string(K_MAX_SHAPE_DIM));
        for (uint8_t k = 0; k < dim; ++k) shape[k] = in[k];
        for (uint8_t k = 0; k < original_dim; ++k) originalShape[k] = original[k];
    }
    ShapeInfo(uint8_t dim, const uint32_t in[], DataFormat format) : ShapeInfo(dim, in, dim, in, format) {}
    ShapeInfo(uint8_t dim, const uint32_t in[]) : ShapeInfo(dim, in, dim, in, DataFormat::ND) {}
    uint8_t shapeDim = 0, originalShapeDim = 0;
    uint32_t shape[K_MAX_SHAPE_DIM] = {}, originalShape[K_MAX_SHAPE_DIM] = {};
    DataFormat dataFormat = DataFormat::ND;
};

}  // namespace AscendC
#endif  // ASCSIM_ASCSIM_KERNEL_DEFS_H_
