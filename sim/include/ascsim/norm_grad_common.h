// ascsim: what the kernel-side LayerNorm backward APIs (kernel/hl_norm_grad.h) and their host tiling
// (host/norm_grad_tiling.h) share: the documented tiling structs as plain structs (AscendC::tiling::LayerNormGradTiling
// and LayerNormGradBetaTiling; field names, types and order as in the LayerNormGrad / LayerNormGradBeta Tiling docs) and
// the simulator's temporary-buffer model, so host sizes and kernel checks always agree.
//
// The docs give no size formulas, so the temp model is the simulator's own (same spirit as norm_common.h). Bytes:
//   LayerNormGrad:     rows * nTmp * align8(H) floats + 2 * align8(rows) floats (pd_var and pd_mean per row);
//                      nTmp = 4 for float (pd_xl, x - mean, a scratch vector, the res_for_gamma staging), 3 for float
//                      with isReuseSource (x - mean is built in inputX), 6 for half (+ dy and x widened to float)
//   LayerNormGradBeta: 2 * align8(H) floats (the gamma / beta accumulators) + rows * nTmp * align8(H) floats;
//                      nTmp = 1 for float (dy * resForGamma), 0 for float with isReuseSource (built in inputDy),
//                      2 for half (dy and resForGamma widened to float)
// min = one row, max = all B*S rows; the tiling records how many rows fit in stackBufferSize and the kernel checks the
// temporary buffer against exactly that.
#ifndef ASCSIM_ASCSIM_NORM_GRAD_COMMON_H_
#define ASCSIM_ASCSIM_NORM_GRAD_COMMON_H_
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>
#include "norm_common.h"

// Field lists, in documented order: X(type, name). lastDimValueBack / lastDimValueBackMulTwo are documented as
// uint32_t; the simulator stores the bit pattern of the float 1/H and 2/H there (nothing reads them).
#define ASCSIM_LAYERNORMGRAD_TILING_FIELDS(X)                                                                          \
    X(uint32_t, stackBufferSize) X(uint32_t, bLength) X(uint32_t, sLength) X(uint32_t, hLength)                        \
    X(uint32_t, originalHLength) X(uint32_t, oneCalSize) X(uint32_t, nohCalSize) X(uint32_t, loopNum)                  \
    X(uint32_t, tailSize) X(uint32_t, nohTailSize) X(uint32_t, tmpTensorBSHPos) X(uint32_t, tmpTensorBSHSize)          \
    X(uint32_t, pdVarTensorPos) X(uint32_t, pdVarTensorSize) X(uint32_t, pdMeanTensorPos) X(uint32_t, pdMeanTensorSize) \
    X(uint32_t, x1TensorPos) X(uint32_t, x1TensorSize) X(uint32_t, x2TensorPos) X(uint32_t, x2TensorSize)              \
    X(uint32_t, x3TensorPos) X(uint32_t, x3TensorSize) X(uint32_t, tmpTensorPos) X(uint32_t, tmpTensorSize)            \
    X(uint32_t, tmpTensor1Pos) X(uint32_t, tmpTensor1Size) X(uint32_t, tmpTensor2Pos) X(uint32_t, tmpTensor2Size)      \
    X(uint32_t, lastDimValueBack) X(uint32_t, lastDimValueBackMulTwo)
#define ASCSIM_LAYERNORMGRADBETA_TILING_FIELDS(X)                                                                      \
    X(uint32_t, stackBufferSize) X(uint32_t, bLength) X(uint32_t, sLength) X(uint32_t, hLength)                        \
    X(uint32_t, originalHLength) X(uint32_t, bshLength) X(uint32_t, bsLength) X(uint32_t, oneCalSize)                  \
    X(uint32_t, numberOfTmpBuf) X(uint32_t, loopRound) X(uint32_t, inputTailSize) X(uint32_t, inputTailPos)            \
    X(uint32_t, bsTailSize) X(uint32_t, bshCurLength) X(uint32_t, bsCurLength) X(uint32_t, gammaTempTensorPos)         \
    X(uint32_t, betaTempTensorPos) X(uint32_t, inputDyTmpTensorPos) X(uint32_t, resForGammaTmpTensorPos)               \
    X(uint32_t, reserved)

#define ASCSIM_NORMGRAD_DECL(type, name) type name = 0;
#define ASCSIM_NORMGRAD_COPY(type, name) s.name = name;
// A plain struct that converts to any struct with the same field names (the one the build generates from the
// optiling class), as norm_common.h's structs do.
#define ASCSIM_NORMGRAD_PLAIN_STRUCT(NAME, FIELDS, LAST)                                                               \
    struct NAME {                                                                                                      \
        FIELDS(ASCSIM_NORMGRAD_DECL)                                                                                   \
        template <class S, class = std::enable_if_t<!std::is_same_v<S, NAME> &&                                       \
                                                    !std::is_same_v<decltype(std::declval<S&>().LAST), void>>>         \
        constexpr operator S() const {                                                                                 \
            S s{};                                                                                                     \
            FIELDS(ASCSIM_NORMGRAD_COPY)                                                                               \
            return s;                                                                                                  \
        }                                                                                                              \
    };

namespace AscendC {
namespace tiling {
ASCSIM_NORMGRAD_PLAIN_STRUCT(LayerNormGradTiling, ASCSIM_LAYERNORMGRAD_TILING_FIELDS, lastDimValueBackMulTwo)
ASCSIM_NORMGRAD_PLAIN_STRUCT(LayerNormGradBetaTiling, ASCSIM_LAYERNORMGRADBETA_TILING_FIELDS, reserved)
}  // namespace tiling
}  // namespace AscendC
#undef ASCSIM_NORMGRAD_PLAIN_STRUCT

namespace ascsim_norm {
constexpr uint32_t lng_vectors(uint32_t ts, bool reuse) { return ts == 2 ? 6u : (reuse ? 3u : 4u); }
constexpr uint64_t lng_bytes(uint32_t ts, bool reuse, uint64_t h, uint64_t rows) {
    return (rows * lng_vectors(ts, reuse) * a8(h) + 2 * a8(rows)) * 4;
}
constexpr uint32_t lngb_vectors(uint32_t ts, bool reuse) { return ts == 2 ? 2u : (reuse ? 0u : 1u); }
constexpr uint64_t lngb_bytes(uint32_t ts, bool reuse, uint64_t h, uint64_t rows) {
    return (2 * a8(h) + rows * lngb_vectors(ts, reuse) * a8(h)) * 4;
}
inline uint32_t float_bits(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }

// stackBufferSize: the LayerNormGrad(Beta) tiling tables call it a count of elements, but both docs' examples pass
// the byte size from Get...MaxMinTmpSize; the simulator takes bytes (the example's reading).
inline AscendC::tiling::LayerNormGradTiling lng_tiling(uint32_t b, uint32_t s, uint32_t h, uint32_t orih, uint32_t ts,
                                                       bool reuse, uint32_t stack) {
    AscendC::tiling::LayerNormGradTiling t{};
    const uint64_t total = uint64_t(b) * s;
    const uint64_t rows = fit(total, 1, stack, [&](uint64_t r) { return lng_bytes(ts, reuse, h, r); });
    const uint32_t one = uint32_t(rows * a8(h)), nt = lng_vectors(ts, reuse);
    t.stackBufferSize = stack; t.bLength = b; t.sLength = s; t.hLength = h; t.originalHLength = orih;
    t.oneCalSize = uint32_t(rows * h); t.nohCalSize = uint32_t(rows);
    const uint64_t loops = rows ? total / rows : 0, tail = rows ? total % rows : total;
    t.loopNum = uint32_t(loops); t.tailSize = uint32_t(tail * h); t.nohTailSize = uint32_t(tail);
    // float offsets into the temporary buffer: the nTmp row vectors, then pd_var and pd_mean
    uint32_t pos = 0;
    auto take = [&](uint32_t& p, uint32_t& sz, uint32_t n) { p = pos; sz = n; pos += n; };
    take(t.x1TensorPos, t.x1TensorSize, one);
    take(t.x2TensorPos, t.x2TensorSize, reuse && ts == 4 ? 0 : one);
    take(t.tmpTensorPos, t.tmpTensorSize, one);
    take(t.tmpTensorBSHPos, t.tmpTensorBSHSize, one);
    take(t.x3TensorPos, t.x3TensorSize, ts == 2 ? one : 0);
    take(t.tmpTensor1Pos, t.tmpTensor1Size, ts == 2 ? one : 0);
    take(t.tmpTensor2Pos, t.tmpTensor2Size, 0);
    (void)nt;
    take(t.pdVarTensorPos, t.pdVarTensorSize, uint32_t(a8(rows)));
    take(t.pdMeanTensorPos, t.pdMeanTensorSize, uint32_t(a8(rows)));
    t.lastDimValueBack = float_bits(orih ? 1.0f / float(orih) : 0.0f);
    t.lastDimValueBackMulTwo = float_bits(orih ? 2.0f / float(orih) : 0.0f);
    return t;
}
inline AscendC::tiling::LayerNormGradBetaTiling lngb_tiling(uint32_t b, uint32_t s, uint32_t h, uint32_t orih,
                                                            uint32_t ts, bool reuse, uint32_t stack) {
    AscendC::tiling::LayerNormGradBetaTiling t{};
    const uint64_t total = uint64_t(b) * s;
    const uint64_t rows = fit(total, 1, stack, [&](uint64_t r) { return lngb_bytes(ts, reuse, h, r); });
    const uint32_t one = uint32_t(rows * a8(h));
    t.stackBufferSize = stack; t.bLength = b; t.sLength = s; t.hLength = h; t.originalHLength = orih;
    t.bshLength = uint32_t(total * h); t.bsLength = uint32_t(total); t.oneCalSize = one;
    t.numberOfTmpBuf = lngb_vectors(ts, reuse);
    const uint64_t loops = rows ? total / rows : 0, tail = rows ? total % rows : total;
    t.loopRound = uint32_t(loops); t.inputTailSize = uint32_t(tail * h); t.inputTailPos = uint32_t(loops * rows * h);
    t.bsTailSize = uint32_t(tail); t.bshCurLength = uint32_t(rows * h); t.bsCurLength = uint32_t(rows);
    t.gammaTempTensorPos = 0; t.betaTempTensorPos = uint32_t(a8(h));
    t.inputDyTmpTensorPos = uint32_t(2 * a8(h));
    t.resForGammaTmpTensorPos = t.inputDyTmpTensorPos + (ts == 2 ? one : 0);
    return t;
}
}  // namespace ascsim_norm
#endif  // ASCSIM_ASCSIM_NORM_GRAD_COMMON_H_
