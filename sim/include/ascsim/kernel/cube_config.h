// ascsim AIC side: the cube unit's configuration registers on Atlas A2 (arch 2201) and the instructions that read them.
// Included at the end of cube_api.h. The register state lives in CoreCtx::cube_cfg (one launch, every core its own).
//   Mmad:      SetHF32Mode, SetHF32TransMode (the rounding itself: hf32_round in cube_api.h)
//   LoadData 3D (img2col, L1 -> L0A / L0B): SetFmatrix, SetLoadDataPaddingValue, SetLoadDataRepeat, SetLoadDataBoundary;
//              LoadData(LoadData3DParamsV2) loads FMATRIX / padding from its parameters unless its IsResetLoad3dConfig
//              says otherwise, LoadData(LoadData3DParamsV2Pro) always reads them from the registers; both run load3d_v2.
//   L0C -> GM: SetFixpipeNz2ndFlag, SetFixpipePreQuantFlag, SetFixPipeConfig, read by DataCopy(DataCopyCO12DstParams);
//              Fixpipe(FixpipeParamsV220) loads the same registers from its parameters; both run the Fixpipe engine of
//              cube_api.h (ascsim_cube_detail::fixpipe).
// Not on Atlas A2 (product lists): SetFixPipeClipRelu, SetFixPipeAddr, LoadData 3D v1, SetLoadDataRepeatWithStride,
// SetFmatrixBitMode. Not here although A2 has it: SetMMColumnMajor / SetMMRowMajor.
#ifndef ASCSIM_ASCSIM_KERNEL_CUBE_CONFIG_H_
#define ASCSIM_ASCSIM_KERNEL_CUBE_CONFIG_H_
#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace AscendC {

// --------------------------------------------------------------------------------------------------- HF32 ------
// enumerator values are this model's choice for HF32Mode; HF32TransMode follows the numeric modes of the C API
// (0: to nearest even, 1: the "towards zero" mode)
enum class HF32Mode : uint8_t { DISABLE = 0, ENABLE = 1 };
enum class HF32TransMode : uint8_t { NEAREST_EVEN = 0, NEAREST_ZERO = 1 };

__aicore__ inline void SetHF32Mode(HF32Mode mode) {
    ::ascsim::require_aic("SetHF32Mode");
    if (mode != HF32Mode::ENABLE && mode != HF32Mode::DISABLE)
        ::ascsim::fail("SetHF32Mode", "Failed to check mode value", "mode must be HF32Mode::ENABLE or HF32Mode::DISABLE");
    ::ascsim::core().cube_cfg.hf32 = mode == HF32Mode::ENABLE;
}
__aicore__ inline void SetHF32TransMode(HF32TransMode mode) {
    ::ascsim::require_aic("SetHF32TransMode");
    if (mode != HF32TransMode::NEAREST_EVEN && mode != HF32TransMode::NEAREST_ZERO)
        ::ascsim::fail("SetHF32TransMode", "Failed to check mode value", "mode must be NEAREST_EVEN or NEAREST_ZERO");
    ::ascsim::core().cube_cfg.hf32_trans = uint8_t(mode);
}

// ----------------------------------------------------------------------------------------- LoadData 3D types --
enum class FmatrixMode : uint8_t { FMATRIX_LEFT = 0, FMATRIX_RIGHT = 1 };
constexpr int32_t PAD_SIZE = 4;
struct IsResetLoad3dConfig {
    bool isSetFMatrix = true;   // LoadData loads l1H / l1W / padList of its parameters into the FMATRIX register
    bool isSetPadding = true;   // LoadData loads its padValue into the padding register
};
constexpr IsResetLoad3dConfig IS_RESER_LOAD3D_DEFAULT_CONFIG = {true, true};

struct LoadDataRepeatParam {
    uint16_t repeatStride = 0;   // distance between iterations: 16 elements (mode 0) or 32 B of elements (mode 1)
    uint8_t repeatTime = 1;      // 0: the LoadData is a no-op
    uint8_t repeatMode = 0;      // 0: iterate along height (M), 1: along width (K)
    uint16_t dstStride = 0;      // Ascend 950 only: Atlas A2 does not take it
};

template <typename T> struct LoadData3DParamsV2 {
    LoadData3DParamsV2() = default;
    LoadData3DParamsV2(const uint8_t padListIn[4], uint16_t l1HIn, uint16_t l1WIn, uint16_t channelSizeIn, uint16_t kExtensionIn,
                       uint16_t mExtensionIn, uint16_t kStartPtIn, uint16_t mStartPtIn, uint8_t strideWIn, uint8_t strideHIn,
                       uint8_t filterWIn, uint8_t filterHIn, uint8_t dilationFilterWIn, uint8_t dilationFilterHIn,
                       bool enTransposeIn, bool enSmallKIn, T padValueIn, bool filterSizeWIn = false, bool filterSizeHIn = false,
                       bool fMatrixCtrlIn = false)
        : l1H(l1HIn), l1W(l1WIn), channelSize(channelSizeIn), kExtension(kExtensionIn), mExtension(mExtensionIn),
          kStartPt(kStartPtIn), mStartPt(mStartPtIn), strideW(strideWIn), strideH(strideHIn), filterW(filterWIn),
          filterH(filterHIn), dilationFilterW(dilationFilterWIn), dilationFilterH(dilationFilterHIn), enTranspose(enTransposeIn),
          enSmallK(enSmallKIn), padValue(padValueIn), filterSizeW(filterSizeWIn), filterSizeH(filterSizeHIn),
          fMatrixCtrl(fMatrixCtrlIn) {
        for (int i = 0; i < 4; ++i) padList[i] = padListIn[i];
    }
    uint8_t padList[4] = {0, 0, 0, 0};   // left, right, top, bottom
    uint16_t l1H = 0, l1W = 0, channelSize = 0, kExtension = 0, mExtension = 0, kStartPt = 0, mStartPt = 0;
    uint8_t strideW = 1, strideH = 1, filterW = 1, filterH = 1, dilationFilterW = 1, dilationFilterH = 1;
    bool enTranspose = false, enSmallK = false;
    T padValue = T(0);
    bool filterSizeW = false, filterSizeH = false, fMatrixCtrl = false;
};

struct LoadData3DParamsV2Pro {
    LoadData3DParamsV2Pro() = default;
    LoadData3DParamsV2Pro(uint16_t channelSizeIn, bool enTransposeIn, bool enSmallKIn, bool filterSizeWIn, bool filterSizeHIn,
                          bool fMatrixCtrlIn, uint64_t extConfigIn, uint64_t filterConfigIn)
        : channelSize(channelSizeIn), enTranspose(enTransposeIn), enSmallK(enSmallKIn), filterSizeW(filterSizeWIn),
          filterSizeH(filterSizeHIn), fMatrixCtrl(fMatrixCtrlIn), extConfig(extConfigIn), filterConfig(filterConfigIn) {}
    uint16_t channelSize = 0;
    bool enTranspose = false, enSmallK = false, filterSizeW = false, filterSizeH = false, fMatrixCtrl = false;
    uint64_t extConfig = 0;                  // mStartPt << 48 | kStartPt << 32 | mExtension << 16 | kExtension
    uint64_t filterConfig = 0x10101010101;   // dilationH << 40 | dilationW << 32 | filterH << 24 | filterW << 16 | strideH << 8 | strideW
};

}  // namespace AscendC

namespace ascsim {

// ------------------------------------------------------------------------------------- LoadData 3D registers --
inline void load3d_set_fmatrix(const char* api, uint16_t h, uint16_t w, const uint8_t pad[4]) {
    if (h > 32767 || w > 32767)
        fail_cube(api, "feature map l1H " + std::to_string(h) + " / l1W " + std::to_string(w) + " exceed 32767");
    auto& r = core().cube_cfg;
    r.fm_set = true; r.fm_h = h; r.fm_w = w;
    for (int i = 0; i < 4; ++i) r.fm_pad[i] = pad[i];
}
// the padding register holds the value's bits in its low bytes; an 8-bit value is repeated in bits 15:8
template <class T> inline void load3d_set_padding(T v) {
    uint32_t bits = 0;
    std::memcpy(&bits, &v, sizeof(T));
    if (sizeof(T) == 1) bits |= bits << 8;
    auto& r = core().cube_cfg;
    r.pad_set = true; r.pad_bits = bits;
}
template <class T> constexpr bool load3d_type_ok() {
    return std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t> || std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> ||
           std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t> || std::is_same_v<T, float>;
}

// One LoadData 3D v2 instruction: the operands; the feature map, padding, repeat and boundary come from the registers.
struct Load3dOp {
    uint16_t channelSize = 0, kExt = 0, mExt = 0, kStart = 0, mStart = 0;
    uint32_t strideW = 1, strideH = 1, filterW = 1, filterH = 1, dilW = 1, dilH = 1;   // filter incl. filterSize (+256)
    bool transpose = false;
};

// img2col of the NC1HWC0 feature map at src (L1; element (c1, h, w, c0) at ((c1 * l1H + h) * l1W + w) * C0 + c0) into
// dst (L0A: Zz; L0B: Zn). The img2col matrix S has one row per output position (m = oh * Wo + ow) and one column
// per filter tap and channel, k = ((c1 * Hk + kh) * Wk + kw) * C0 + c0; a tap outside the feature map reads the
// padding value. The instruction takes S[mStart, +mExtension) x [kStart, +kExtension); with repeats, iteration i
// starts repeatStride x 16 rows (mode 0) or repeatStride x C0 columns (mode 1) further and the iterations form one
// matrix, stacked along M (mode 0) or K (mode 1). That matrix lands in L0A as is (Zz), in L0A transposed with
// enTranspose (A = S^T: each fractal and the fractal grid transposed), and in L0B as B = S (K = S rows) in Zn.
// Model choices: whole fractals are written; their places beyond the extension are zero, as are columns beyond the
// feature map's channels; L1 reads past a set boundary wrap to L1 offset 0 (modulo the boundary).
template <class T>
inline void load3d_v2(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, const Load3dOp& q) {
    constexpr uint32_t C0 = 32 / sizeof(T);
    const auto& r = core().cube_cfg;
    if (q.channelSize == 0 || q.kExt == 0 || q.mExt == 0 || q.filterW == 0 || q.filterH == 0 || r.rpt_time == 0) return;   // no-op
    if (!r.fm_set)
        fail(api, "FMATRIX register not set",
             "the feature map (l1H, l1W, padList) comes from the FMATRIX register here: set it with SetFmatrix first");
    if (r.fm_h == 0 || r.fm_w == 0) return;   // l1H / l1W 0: no-op
    const int pool = cube_pool_of(dst.addr_);
    if (pool != POOL_L0A && pool != POOL_L0B) fail_cube(api, "dst must be in L0A (A2) or L0B (B2)");
    const bool toB = pool == POOL_L0B;
    if (toB && sizeof(T) == 1) fail_cube(api, "L1 -> L0B does not take 8-bit (or 4-bit) data");
    const bool trans = !toB && q.transpose;   // L0B always transposes; enTranspose is ignored there
    if (trans && sizeof(T) == 1) fail_cube(api, "enTranspose into L0A does not take 8-bit data");
    // channel counts the A2 hardware takes (b32: 4, 8N, 8N+4; b16: 4, 8, 16N, 16N+4, 16N+8; b8: 4, 8, 16, 32N, 32N+4,
    // 32N+8, 32N+16); the ones that are not whole C0 blocks use a packed small-channel layout that is not modelled
    const uint32_t cs = q.channelSize, rem16 = cs % 16, rem32 = cs % 32;
    const bool cs_ok = cs % 4 == 0 && (sizeof(T) == 4 || (sizeof(T) == 2 ? (rem16 == 0 || rem16 == 4 || rem16 == 8)
                                                                          : (rem32 == 0 || rem32 == 4 || rem32 == 8 || rem32 == 16)));
    if (!cs_ok) fail_cube(api, "channelSize " + std::to_string(cs) + " is not a channel count this data type takes");
    if (cs % C0)
        fail(api, "ascsim: not simulated", "channelSize " + std::to_string(cs) + " is not a multiple of C0 = " + std::to_string(C0) +
                                               ": the packed small-channel layout is not simulated");
    if (q.kStart % C0) fail_cube(api, "kStartPt " + std::to_string(q.kStart) + " must be a multiple of C0 = " + std::to_string(C0));
    if (q.mStart > 32767) fail_cube(api, "mStartPt " + std::to_string(q.mStart) + " exceeds 32767");
    if (q.strideW > 63 || q.strideH > 63) fail_cube(api, "strideW / strideH must be <= 63");
    if (q.strideW == 0 || q.strideH == 0) fail(api, "ascsim: not simulated", "a filter stride of 0 is not simulated");
    const int64_t H = r.fm_h, W = r.fm_w, pl = r.fm_pad[0], pr = r.fm_pad[1], pt = r.fm_pad[2], pb = r.fm_pad[3];
    const int64_t Hk = q.filterH, Wk = q.filterW;
    const int64_t effH = int64_t(q.dilH) * (Hk - 1) + 1, effW = int64_t(q.dilW) * (Wk - 1) + 1;
    const int64_t Ho = H + pt + pb >= effH ? (H + pt + pb - effH) / q.strideH + 1 : 0;
    const int64_t Wo = W + pl + pr >= effW ? (W + pl + pr - effW) / q.strideW + 1 : 0;
    if (Wo == 0 || Ho == 0)
        fail(api, "ascsim: not simulated", "the dilated filter does not fit the padded feature map (no output position)");
    const int64_t C1 = cs / C0, kspan = Hk * Wk * C0, Ktot = C1 * kspan, Mtot = Ho * Wo;
    auto ceil_to = [](int64_t v, int64_t a) { return (v + a - 1) / a * a; };
    if (q.kExt % C0 && ceil_to(int64_t(q.kStart) + q.kExt, C0) < Ktot)
        fail_cube(api, "kExtension " + std::to_string(q.kExt) + " must be a multiple of C0 = " + std::to_string(C0) +
                           " unless the load reaches the last fractal column of the img2col matrix");
    if (sizeof(T) != 4 && q.mExt % 16 && ceil_to(int64_t(q.mStart) + q.mExt, 16) < Mtot)
        fail_cube(api, "mExtension " + std::to_string(q.mExt) + " must be a multiple of 16 unless the load reaches the last fractal row");
    // the destination matrix: fractal sizes along S's rows / columns, one block per iteration
    const bool mode1 = r.rpt_mode == 1;
    const int64_t R = r.rpt_time;
    const int64_t frR = (!toB && !trans) ? 16 : C0, frC = (!toB && !trans) ? C0 : 16;
    const int64_t blkR = ceil_to(q.mExt, frR), blkC = ceil_to(q.kExt, frC);
    const int64_t SR = (mode1 ? 1 : R) * blkR, SC = (mode1 ? R : 1) * blkC;
    const uint64_t bytes = uint64_t(SR * SC) * sizeof(T);
    check_in_pool(api, "dst", dst.addr_, pool, 512, bytes);
    check_in_pool(api, "src", src.addr_, POOL_L1, 32, sizeof(T));
    const uint8_t* l1 = cube_mem()->base(POOL_L1);
    const uint64_t src_off = uint64_t(reinterpret_cast<const uint8_t*>(src.addr_) - l1);
    if (r.l1_bound && src_off >= r.l1_bound)
        fail_cube(api, "src at L1 offset " + std::to_string(src_off) + " lies outside the L1 boundary " + std::to_string(r.l1_bound) +
                           " B set by SetLoadDataBoundary");
    T padv;
    std::memset(static_cast<void*>(&padv), 0, sizeof(T));
    std::memcpy(static_cast<void*>(&padv), &r.pad_bits, sizeof(T));
    std::vector<T> img(size_t(SR * SC));
    std::memset(static_cast<void*>(img.data()), 0, img.size() * sizeof(T));
    uint64_t lo = ~0ull, hi = 0;
    const uint64_t l1_bytes = cube_pool_spec(POOL_L1).bytes;
    for (int64_t R_ = 0; R_ < SR; ++R_)
        for (int64_t C_ = 0; C_ < SC; ++C_) {
            const int64_t it = mode1 ? C_ / blkC : R_ / blkR, lr = mode1 ? R_ : R_ % blkR, lc = mode1 ? C_ % blkC : C_;
            size_t di;   // the place of S_big(R_, C_) in the destination
            if (toB) di = size_t(((R_ / C0) * (SC / 16) + C_ / 16) * 16 * C0 + (C_ % 16) * C0 + R_ % C0);
            else if (trans) di = size_t(((C_ / 16) * (SR / C0) + R_ / C0) * 16 * C0 + (C_ % 16) * C0 + R_ % C0);
            else di = size_t(((R_ / 16) * (SC / C0) + C_ / C0) * 16 * C0 + (R_ % 16) * C0 + C_ % C0);
            if (lr >= q.mExt || lc >= q.kExt) continue;
            const int64_t sr = q.mStart + (mode1 ? 0 : it * int64_t(r.rpt_stride) * 16) + lr;
            const int64_t sc = q.kStart + (mode1 ? it * int64_t(r.rpt_stride) * C0 : 0) + lc;
            const int64_t c1 = sc / kspan, tap = (sc % kspan) / C0, c0 = sc % C0;
            if (c1 >= C1) continue;
            const int64_t h = (sr / Wo) * q.strideH + (tap / Wk) * q.dilH - pt, w = (sr % Wo) * q.strideW + (tap % Wk) * q.dilW - pl;
            if (h < 0 || h >= H || w < 0 || w >= W) {
                if (!r.pad_set)
                    fail(api, "padding register not set",
                         "the load reads a padded position and the padding value comes from the register here: set it with "
                         "SetLoadDataPaddingValue first");
                img[di] = padv;
                continue;
            }
            uint64_t a = src_off + uint64_t(((c1 * H + h) * W + w) * C0 + c0) * sizeof(T);
            if (r.l1_bound && a >= r.l1_bound) a %= r.l1_bound;
            if (a + sizeof(T) > l1_bytes)
                fail(api, "L1 address out of bounds",
                     "the feature map element (c1 " + std::to_string(c1) + ", h " + std::to_string(h) + ", w " + std::to_string(w) +
                         ") lies at L1 offset " + std::to_string(a) + ", past the " + std::to_string(l1_bytes) + " B L1");
            lo = std::min(lo, a);
            hi = std::max(hi, a + sizeof(T));
            std::memcpy(static_cast<void*>(&img[di]), l1 + a, sizeof(T));
        }
    if (hi > lo) sync_cube(kPipeMte1, api, l1 + lo, hi - lo, kRead);   // L1 -> L0A / L0B runs on MTE1
    sync_cube(kPipeMte1, api, dst.addr_, bytes, kWrite);
    std::memcpy(static_cast<void*>(dst.addr_), img.data(), bytes);
}

}  // namespace ascsim

namespace AscendC {

// ------------------------------------------------------------------------------------- LoadData 3D registers --
__aicore__ inline void SetFmatrix(uint16_t l1H, uint16_t l1W, const uint8_t padList[4], const FmatrixMode& fmatrixMode) {
    const char* api = "SetFmatrix";
    ::ascsim::require_aic(api);
    if (fmatrixMode != FmatrixMode::FMATRIX_LEFT)
        ::ascsim::fail_cube(api, "only FmatrixMode::FMATRIX_LEFT is supported (it serves both the left and the right matrix)");
    if (l1H < 1 || l1W < 1) ::ascsim::fail_cube(api, "l1H / l1W must be in 1 ~ 32767");
    ::ascsim::load3d_set_fmatrix(api, l1H, l1W, padList);
}
template <typename T> __aicore__ inline void SetLoadDataPaddingValue(const T padValue) {
    static_assert(std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t> || std::is_same_v<T, int16_t> ||
                      std::is_same_v<T, uint16_t> || std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> ||
                      std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t> || std::is_same_v<T, float>,
                  "SetLoadDataPaddingValue: Atlas A2 takes int8_t, uint8_t, int16_t, uint16_t, half, bfloat16_t, int32_t, "
                  "uint32_t or float");
    ::ascsim::require_aic("SetLoadDataPaddingValue");
    ::ascsim::load3d_set_padding(padValue);
}
__aicore__ inline void SetLoadDataRepeat(const LoadDataRepeatParam& repeatParams) {
    const char* api = "SetLoadDataRepeat";
    ::ascsim::require_aic(api);
    if (repeatParams.repeatMode > 1) ::ascsim::fail_cube(api, "repeatMode must be 0 (along height) or 1 (along width)");
    if (repeatParams.dstStride != 0)
        ::ascsim::fail_cube(api, "dstStride is not a parameter of Atlas A2 (leave it 0)");
    auto& r = ::ascsim::core().cube_cfg;
    r.rpt_stride = repeatParams.repeatStride; r.rpt_time = repeatParams.repeatTime; r.rpt_mode = repeatParams.repeatMode;
}
__aicore__ inline void SetLoadDataBoundary(uint32_t boundaryValue) {
    const char* api = "SetLoadDataBoundary";
    ::ascsim::require_aic(api);
    if (boundaryValue != 0 && boundaryValue < 1024)
        ::ascsim::fail_cube(api, "boundaryValue " + std::to_string(boundaryValue) + " B: a boundary is at least 1024 B (0: none)");
    ::ascsim::core().cube_cfg.l1_bound = boundaryValue;
}

// --------------------------------------------------------------------------------------- LoadData 3D (v2) ------
template <typename T, const IsResetLoad3dConfig& defaultConfig = IS_RESER_LOAD3D_DEFAULT_CONFIG, typename U = T,
          std::enable_if_t<std::is_same_v<T, U>, bool> = true>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData3DParamsV2<U>& p) {
    static_assert(!::ascsim::is_int4_v<T>, "ascsim: LoadData 3D on int4b_t (documented for Atlas A2 into L0A) is not simulated");
    static_assert(::ascsim::load3d_type_ok<T>(), "LoadData 3D v2 on Atlas A2 takes int8_t, uint8_t, half, bfloat16_t, int32_t, "
                                                 "uint32_t or float (8-bit types into L0A only)");
    const char* api = "LoadData(LoadData3DParamsV2)";
    ::ascsim::require_aic(api);
    if (p.enSmallK) ::ascsim::fail_cube(api, "enSmallK is no longer supported (leave it false)");
    if (p.fMatrixCtrl) ::ascsim::fail_cube(api, "fMatrixCtrl must be false (the left FMATRIX register serves both matrices)");
    // the instruction's register loads: the FMATRIX and padding registers keep these values for later loads
    if (defaultConfig.isSetFMatrix) ::ascsim::load3d_set_fmatrix(api, p.l1H, p.l1W, p.padList);
    if (defaultConfig.isSetPadding) ::ascsim::load3d_set_padding<T>(p.padValue);
    ::ascsim::Load3dOp q;
    q.channelSize = p.channelSize; q.kExt = p.kExtension; q.mExt = p.mExtension; q.kStart = p.kStartPt; q.mStart = p.mStartPt;
    q.strideW = p.strideW; q.strideH = p.strideH; q.dilW = p.dilationFilterW; q.dilH = p.dilationFilterH;
    q.filterW = p.filterW + (p.filterSizeW ? 256u : 0u); q.filterH = p.filterH + (p.filterSizeH ? 256u : 0u);
    q.transpose = p.enTranspose;
    ::ascsim::load3d_v2(api, dst, src, q);
}
// the v2 Pro form packs the extents and the filter into two words and always reads FMATRIX and padding from registers
template <typename T>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData3DParamsV2Pro& p) {
    static_assert(!::ascsim::is_int4_v<T>, "ascsim: LoadData 3D on int4b_t (documented for Atlas A2 into L0A) is not simulated");
    static_assert(::ascsim::load3d_type_ok<T>(), "LoadData 3D v2 Pro on Atlas A2 takes int8_t, uint8_t, half, bfloat16_t, int32_t, "
                                                 "uint32_t or float (8-bit types into L0A only)");
    const char* api = "LoadData(LoadData3DParamsV2Pro)";
    ::ascsim::require_aic(api);
    if (p.enSmallK) ::ascsim::fail_cube(api, "enSmallK is no longer supported (leave it false)");
    if (p.fMatrixCtrl) ::ascsim::fail_cube(api, "fMatrixCtrl must be false (the left FMATRIX register serves both matrices)");
    ::ascsim::Load3dOp q;
    q.channelSize = p.channelSize;
    q.kExt = uint16_t(p.extConfig); q.mExt = uint16_t(p.extConfig >> 16);
    q.kStart = uint16_t(p.extConfig >> 32); q.mStart = uint16_t(p.extConfig >> 48);
    q.strideW = uint8_t(p.filterConfig); q.strideH = uint8_t(p.filterConfig >> 8);
    q.filterW = uint8_t(p.filterConfig >> 16) + (p.filterSizeW ? 256u : 0u);
    q.filterH = uint8_t(p.filterConfig >> 24) + (p.filterSizeH ? 256u : 0u);
    q.dilW = uint8_t(p.filterConfig >> 32); q.dilH = uint8_t(p.filterConfig >> 40);
    q.transpose = p.enTranspose;
    ::ascsim::load3d_v2(api, dst, src, q);
}

// ------------------------------------------------------------------------------------------ Fixpipe registers --
__aicore__ inline void SetFixpipeNz2ndFlag(uint16_t ndNum, uint16_t srcNdStride, uint16_t dstNdStride) {
    const char* api = "SetFixpipeNz2ndFlag";
    ::ascsim::require_aic(api);
    if (ndNum == 0) ::ascsim::fail_cube(api, "ndNum must be in 1 ~ 65535");
    if (ndNum > 1 && (srcNdStride < 1 || srcNdStride > 512))
        ::ascsim::fail_cube(api, "srcNdStride " + std::to_string(srcNdStride) + " must be in 1 ~ 512 (units of 16 x C0_SIZE) when ndNum > 1");
    if (ndNum == 1 && srcNdStride > 512) ::ascsim::fail_cube(api, "srcNdStride must be <= 512");
    if (dstNdStride == 0) ::ascsim::fail_cube(api, "dstNdStride must be in 1 ~ 65535 (elements)");
    auto& r = ::ascsim::core().cube_cfg;
    r.nd_set = true; r.nd_num = ndNum; r.src_nd_stride = srcNdStride; r.dst_nd_stride = dstNdStride;
}
// the scalar quant parameter: its low 32 bits are the float scale (the other fields are not modelled)
__aicore__ inline void SetFixpipePreQuantFlag(uint64_t config) {
    ::ascsim::require_aic("SetFixpipePreQuantFlag");
    auto& r = ::ascsim::core().cube_cfg;
    r.quant_set = true; r.quant_pre = config;
}
namespace ascsim_cube_detail {
inline void set_fixpipe_quant_tensor(const char* api, const uint64_t* p, bool isUnitFlag) {
    ::ascsim::require_aic(api);
    const int pool = ::ascsim::cube_pool_of(p);
    // isUnitFlag alone (an L0C tensor) clears the unit flags of L0C, which only order the detector here: nothing to do
    if (isUnitFlag && pool == ::ascsim::POOL_L0C) return;
    if (pool != ::ascsim::POOL_FB)
        ::ascsim::fail_cube(api, "the quant tensor must lie in the Fixpipe buffer (TPosition C2PIPE2GM)");
    ::ascsim::core().cube_cfg.quant_tensor = p;
}
}  // namespace ascsim_cube_detail
template <typename T>
__aicore__ inline void SetFixPipeConfig(const LocalTensor<T>& reluPre, const LocalTensor<T>& quantPre, bool isUnitFlag = false) {
    static_assert(std::is_same_v<T, uint64_t>, "SetFixPipeConfig takes uint64_t tensors");
    const char* api = "SetFixPipeConfig";
    // reluPre is reserved: an empty tensor, or one in the Fixpipe buffer that nothing reads
    if (reluPre.addr_ && ::ascsim::cube_pool_of(reluPre.addr_) != ::ascsim::POOL_FB)
        ::ascsim::fail_cube(api, "reluPre must be an empty tensor or lie in the Fixpipe buffer (TPosition C2PIPE2GM)");
    ascsim_cube_detail::set_fixpipe_quant_tensor(api, quantPre.addr_, isUnitFlag);
}
template <typename T, bool setRelu = false>
__aicore__ inline void SetFixPipeConfig(const LocalTensor<T>& preData, bool isUnitFlag = false) {
    static_assert(std::is_same_v<T, uint64_t>, "SetFixPipeConfig takes uint64_t tensors");
    static_assert(!setRelu, "SetFixPipeConfig: setRelu must be false (the single tensor can only be the quant tensor)");
    ascsim_cube_detail::set_fixpipe_quant_tensor("SetFixPipeConfig", preData.addr_, isUnitFlag);
}

// ----------------------------------------------------------------------------------- DataCopy L0C -> GM --------
struct DataCopyCO12DstParams {
    DataCopyCO12DstParams() = default;
    DataCopyCO12DstParams(uint16_t nSizeIn, uint16_t mSizeIn, uint32_t dstStrideIn, uint16_t srcStrideIn, QuantMode_t quantPreIn,
                          uint8_t reluPreIn, bool channelSplitIn, bool nz2ndEnIn)
        : nSize(nSizeIn), mSize(mSizeIn), dstStride(dstStrideIn), srcStride(srcStrideIn), quantPre(quantPreIn), reluPre(reluPreIn),
          channelSplit(channelSplitIn), nz2ndEn(nz2ndEnIn) {}
    uint8_t sid = 0;
    uint16_t nSize = 0, mSize = 0;
    uint32_t dstStride = 0;   // NZ: 32 B blocks between column blocks; NZ2ND: elements per destination row
    uint16_t srcStride = 0;
    uint8_t unitFlag = 0, clipReluPre = 0, eltWiseOp = 0;
    QuantMode_t quantPre = QuantMode_t::NoQuant;
    uint8_t reluPre = 0;
    bool channelSplit = false, nz2ndEn = false;
};
template <class T, class U> constexpr bool l0c_to_gm_types_ok() {
    return (std::is_same_v<U, float> && (std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t> || std::is_same_v<T, half> ||
                                         std::is_same_v<T, bfloat16_t> || std::is_same_v<T, float>)) ||
           (std::is_same_v<U, int32_t> && (std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t> || std::is_same_v<T, half> ||
                                           std::is_same_v<T, int32_t>));
}
// The register-reading move: NZ2ND layout from SetFixpipeNz2ndFlag, the scalar scale from SetFixpipePreQuantFlag,
// the per-column scales from the Fixpipe-buffer tensor of SetFixPipeConfig.
template <typename T, typename U>
__aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyCO12DstParams& p) {
    static_assert(l0c_to_gm_types_ok<T, U>(), "DataCopy L0C -> GM on Atlas A2: float L0C into int8_t, uint8_t, half, "
                                              "bfloat16_t or float; int32_t L0C into int8_t, uint8_t, half or int32_t");
    const char* api = "DataCopy(L0C -> GM)";
    ::ascsim::require_aic(api);
    if (p.clipReluPre || p.eltWiseOp)
        ::ascsim::fail_cube(api, "clipReluPre / eltWiseOp exist on Atlas 200I/500 A2 only (leave them 0)");
    if (p.reluPre > 1) ::ascsim::fail_cube(api, "reluPre must be 0 (none) or 1 (normal ReLU)");
    if (p.mSize == 0 || p.nSize == 0) return;
    const auto& r = ::ascsim::core().cube_cfg;
    FixpipeParamsV220 f;
    f.nSize = p.nSize; f.mSize = p.mSize; f.srcStride = p.srcStride; f.dstStride = p.dstStride;
    f.quantPre = p.quantPre; f.reluEn = p.reluPre == 1; f.unitFlag = p.unitFlag; f.isChannelSplit = p.channelSplit;
    if (p.nz2ndEn) {
        if (!r.nd_set) ::ascsim::fail(api, "NZ2ND register not set", "nz2ndEn needs SetFixpipeNz2ndFlag before the DataCopy");
        f.ndNum = r.nd_num; f.srcNdStride = r.src_nd_stride; f.dstNdStride = r.dst_nd_stride;
    }
    const QuantMode_t m = p.quantPre;
    const bool scalar = m == QuantMode_t::DEQF16 || m == QuantMode_t::QF322B8_PRE || m == QuantMode_t::REQ8;
    const bool vector = m == QuantMode_t::VDEQF16 || m == QuantMode_t::VQF322B8_PRE || m == QuantMode_t::VREQ8;
    if (scalar) {
        if (!r.quant_set)
            ::ascsim::fail(api, "quant register not set", "a scalar quantPre needs SetFixpipePreQuantFlag before the DataCopy");
        f.deqScalar = r.quant_pre;
    }
    const uint64_t* vscale = nullptr;
    if (vector) {
        if (!r.quant_tensor)
            ::ascsim::fail(api, "quant tensor not set", "a tensor quantPre needs SetFixPipeConfig (a Fixpipe-buffer tensor) first");
        ::ascsim::check_in_pool(api, "quant tensor (Fixpipe buffer)", r.quant_tensor, ::ascsim::POOL_FB, 1, uint64_t(p.nSize) * 8);
        vscale = r.quant_tensor;
    }
    ascsim_cube_detail::fixpipe<T, U>(api, dst, src, vscale, f, p.nz2ndEn ? CO2Layout::ROW_MAJOR : CO2Layout::NZ);
}

}  // namespace AscendC
#endif  // ASCSIM_ASCSIM_KERNEL_CUBE_CONFIG_H_
