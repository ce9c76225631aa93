// ascsim: the LayerNorm backward high-level APIs (Atlas A2): LayerNormGrad (pd_x and res_for_gamma on [B, S, H]) and
// LayerNormGradBeta (pd_gamma and pd_beta on [H]).
//
// Math (LayerNormGrad.md, 功能说明, the numpy-style formulas given as text; H = hLength; the caller's mean and variance
// are used as given, not recomputed):
//   rstd = (variance + epsilon)^-0.5, pd_xl = dy * gamma, d = x - mean
//   pd_var  = sum_H(-0.5 * pd_xl * d * rstd^3)
//   pd_mean = sum_H(-pd_xl * rstd) + pd_var / H * sum_H(-2 * d)
//   pd_x    = pd_xl * rstd + pd_var * 2 / H * d + pd_mean / H
//   res_for_gamma = d * rstd
// LayerNormGradBeta (LayerNormGradBeta.md: its formulas are images, so from the text "outputs gamma and beta" with
// LayerNormGrad's res_for_gamma, and the worked example, which it reproduces exactly):
//   pd_gamma[h] = sum over the B*S rows of dy * resForGamma,   pd_beta[h] = sum over the B*S rows of dy
// Evaluated in double from the inputs, each output rounded to T once (the device works in float).
//
// Rules enforced (all from the two API pages and their Tiling pages): T half or float; isReuseSource only for float;
// H (and the [B, S] tail axis S of inputMean / inputVariance) 32-byte aligned; originHLength equal to storageHLength;
// ND format only; no split of H (the tiling's hLength is the tensor's H). Sources and destinations may share memory
// (documented), so everything is read before anything is written; the two outputs must not overlap each other.
// Tiling: any struct with the documented field names (host/norm_grad_tiling.h or AscendC::tiling::...). Fields read:
//   LayerNormGrad: bLength, sLength, hLength, originalHLength, nohCalSize (rows per pass)
//   LayerNormGradBeta: bLength, sLength, hLength, originalHLength, bsCurLength (rows per pass)
// Temporary buffer: checked against norm_grad_common.h's model for the rows the tiling plans per pass.
#ifndef ASCSIM_KERNEL_HL_NORM_GRAD_H_
#define ASCSIM_KERNEL_HL_NORM_GRAD_H_
#include <cmath>
#include <vector>
#include "hl_norm.h"
#include "../norm_grad_common.h"

namespace AscendC {
struct LayerNormGradShapeInfo {
    DataFormat dataFormat = DataFormat::ND;
};
}  // namespace AscendC

namespace ascsim {
namespace norm {
template <class T, class Tiling>
void lng_common_checks(const char* api, const Tiling& t, bool reuse, bool check_s) {
    const uint64_t rows = uint64_t(t.bLength) * t.sLength, h = t.hLength;
    if (reuse && std::is_same_v<T, half>) bad(api, "isReuseSource = true is supported for float inputs only, not half");
    if (rows == 0 || h == 0)
        bad(api, std::string("tiling bLength, sLength and hLength must be larger than 0 (fill it with Get") + api +
                     "NDTilingInfo)");
    if (h * sizeof(T) % 32)
        bad(api, "the last axis H (" + num(h) + ") of every [B, S, H] and [H] operand must be 32-byte aligned; pad it "
                 "with zeros");
    if (check_s && uint64_t(t.sLength) * sizeof(T) % 32)
        bad(api, "the last axis S (" + num(t.sLength) + ") of inputVariance and inputMean ([B, S]) must be 32-byte "
                 "aligned");
    if (t.originalHLength != h)
        bad(api, "originHLength (" + num(t.originalHLength) + ") must equal storageHLength (" + num(h) +
                     "): only that case is supported; pad H with zeros and pass the padded length as both");
}

// ---- LayerNormGrad ----
template <class T, bool reuse, class Tiling>
void layernorm_grad(const LT<T>& pdx, const LT<T>& resg, const LT<T>& dy, const LT<T>& x, const LT<T>& var,
                    const LT<T>& mean, const LT<T>& gamma, const Tmp* tmp, T epsilon, const Tiling& t,
                    const AscendC::LayerNormGradShapeInfo& info) {
    static_assert(is_hf<T>(), "LayerNormGrad supports half and float on Atlas A2");
    const char* api = "LayerNormGrad";
    if (info.dataFormat != AscendC::DataFormat::ND) bad(api, "shapeInfo.dataFormat must be DataFormat::ND");
    lng_common_checks<T>(api, t, reuse, true);
    const uint64_t rows = uint64_t(t.bLength) * t.sLength, h = t.hLength, n = rows * h;
    if (t.nohCalSize == 0)
        bad(api, "tiling nohCalSize is 0: GetLayerNormGradNDTilingInfo got a stackBufferSize below "
                 "GetLayerNormGradMaxMinTmpSize's minValue");
    check_src(api, dy, n); check_src(api, x, n); check_src(api, var, rows); check_src(api, mean, rows);
    check_src(api, gamma, h);
    check_dst(api, pdx, n); check_dst(api, resg, n);
    const Span so = span(pdx, n, "outputPdX"), sr = span(resg, n, "resForGamma"), sd = span(dy, n, "inputDy"),
               sx = span(x, n, "inputX"), sv = span(var, rows, "inputVariance"), sm = span(mean, rows, "inputMean"),
               sg = span(gamma, h, "inputGamma");
    no_overlap(api, {so}, {sr}, "the two outputs must not share memory");
    const uint64_t need = ascsim_norm::lng_bytes(sizeof(T), reuse, h, smaller(t.nohCalSize, rows));
    tmp_check(api, "GetLayerNormGradMaxMinTmpSize", tmp, need, {so, sr, sd, sx, sv, sm, sg});
    const std::vector<double> dv = load(dy, n), xv = load(x, n), vv = load(var, rows), mv = load(mean, rows),
                              g = load(gamma, h);
    const double eps = double(float(epsilon)), H = double(h);
    std::vector<double> opx(n), org(n);
    for (uint64_t r = 0; r < rows; ++r) {
        const double rs = 1.0 / std::sqrt(vv[r] + eps), rs3 = rs * rs * rs;
        double pvar = 0, s1 = 0, s2 = 0;
        for (uint64_t j = 0; j < h; ++j) {
            const double pxl = dv[r * h + j] * g[j], d = xv[r * h + j] - mv[r];
            pvar += -0.5 * pxl * d * rs3;
            s1 += -pxl * rs;
            s2 += -2.0 * d;
        }
        const double pmean = s1 + pvar / H * s2;
        for (uint64_t j = 0; j < h; ++j) {
            const double pxl = dv[r * h + j] * g[j], d = xv[r * h + j] - mv[r];
            opx[r * h + j] = pxl * rs + pvar * 2.0 / H * d + pmean / H;
            org[r * h + j] = d * rs;
        }
    }
    for (uint64_t i = 0; i < n; ++i) { store(pdx, i, opx[i]); store(resg, i, org[i]); }
}

// ---- LayerNormGradBeta ----
template <class T, bool reuse, class Tiling>
void layernorm_grad_beta(const LT<T>& pgamma, const LT<T>& pbeta, const LT<T>& resg, const LT<T>& dy, const Tmp* tmp,
                         const Tiling& t) {
    static_assert(is_hf<T>(), "LayerNormGradBeta supports half and float on Atlas A2");
    const char* api = "LayerNormGradBeta";
    lng_common_checks<T>(api, t, reuse, false);
    const uint64_t rows = uint64_t(t.bLength) * t.sLength, h = t.hLength, n = rows * h;
    if (t.bsCurLength == 0)
        bad(api, "tiling bsCurLength is 0: GetLayerNormGradBetaNDTilingInfo got a stackBufferSize below "
                 "GetLayerNormGradBetaMaxMinTmpSize's minValue");
    check_src(api, resg, n); check_src(api, dy, n);
    check_dst(api, pgamma, h); check_dst(api, pbeta, h);
    const Span sg = span(pgamma, h, "outputPdGamma"), sb = span(pbeta, h, "outputPdBeta"),
               sr = span(resg, n, "resForGamma"), sd = span(dy, n, "inputDy");
    no_overlap(api, {sg}, {sb}, "the two outputs must not share memory");
    const uint64_t need = ascsim_norm::lngb_bytes(sizeof(T), reuse, h, smaller(t.bsCurLength, rows));
    tmp_check(api, "GetLayerNormGradBetaMaxMinTmpSize", tmp, need, {sg, sb, sr, sd});
    const std::vector<double> rv = load(resg, n), dv = load(dy, n);
    std::vector<double> ag(h, 0.0), ab(h, 0.0);
    for (uint64_t r = 0; r < rows; ++r)
        for (uint64_t j = 0; j < h; ++j) {
            ag[j] += dv[r * h + j] * rv[r * h + j];
            ab[j] += dv[r * h + j];
        }
    for (uint64_t j = 0; j < h; ++j) { store(pgamma, j, ag[j]); store(pbeta, j, ab[j]); }
}
}  // namespace norm
}  // namespace ascsim

namespace AscendC {
// LayerNormGrad: documented with a non-const `LayerNormGradTiling& tiling` in both forms.
template <typename T, bool isReuseSource = false, typename Tiling>
__aicore__ inline void LayerNormGrad(const LocalTensor<T>& outputPdX, const LocalTensor<T>& resForGamma,
                                     const LocalTensor<T>& inputDy, const LocalTensor<T>& inputX,
                                     const LocalTensor<T>& inputVariance, const LocalTensor<T>& inputMean,
                                     const LocalTensor<T>& inputGamma, LocalTensor<uint8_t>& sharedTmpBuffer,
                                     T epsilon, Tiling& tiling, const LayerNormGradShapeInfo& shapeInfo = {}) {
    static_assert(::ascsim::norm::mutable_tiling<Tiling>(), "the documented tiling parameter is a non-const reference");
    ::ascsim::norm::layernorm_grad<T, isReuseSource>(outputPdX, resForGamma, inputDy, inputX, inputVariance, inputMean,
                                                     inputGamma, &sharedTmpBuffer, epsilon, tiling, shapeInfo);
}
template <typename T, bool isReuseSource = false, typename Tiling>
__aicore__ inline void LayerNormGrad(const LocalTensor<T>& outputPdX, const LocalTensor<T>& resForGamma,
                                     const LocalTensor<T>& inputDy, const LocalTensor<T>& inputX,
                                     const LocalTensor<T>& inputVariance, const LocalTensor<T>& inputMean,
                                     const LocalTensor<T>& inputGamma, T epsilon, Tiling& tiling,
                                     const LayerNormGradShapeInfo& shapeInfo = {}) {
    static_assert(::ascsim::norm::mutable_tiling<Tiling>(), "the documented tiling parameter is a non-const reference");
    ::ascsim::norm::layernorm_grad<T, isReuseSource>(outputPdX, resForGamma, inputDy, inputX, inputVariance, inputMean,
                                                     inputGamma, nullptr, epsilon, tiling, shapeInfo);
}
// LayerNormGradBeta: const tiling with sharedTmpBuffer, non-const without (as documented).
template <typename T, bool isReuseSource = false, typename Tiling>
__aicore__ inline void LayerNormGradBeta(const LocalTensor<T>& outputPdGamma, const LocalTensor<T>& outputPdBeta,
                                         const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                                         const LocalTensor<uint8_t>& sharedTmpBuffer, const Tiling& tiling) {
    ::ascsim::norm::layernorm_grad_beta<T, isReuseSource>(outputPdGamma, outputPdBeta, resForGamma, inputDy,
                                                          &sharedTmpBuffer, tiling);
}
template <typename T, bool isReuseSource = false, typename Tiling>
__aicore__ inline void LayerNormGradBeta(const LocalTensor<T>& outputPdGamma, const LocalTensor<T>& outputPdBeta,
                                         const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                                         Tiling& tiling) {
    static_assert(::ascsim::norm::mutable_tiling<Tiling>(), "the documented tiling parameter is a non-const reference");
    ::ascsim::norm::layernorm_grad_beta<T, isReuseSource>(outputPdGamma, outputPdBeta, resForGamma, inputDy, nullptr,
                                                          tiling);
}
}  // namespace AscendC
#endif  // ASCSIM_KERNEL_HL_NORM_GRAD_H_
