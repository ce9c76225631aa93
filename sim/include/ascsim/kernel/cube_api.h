// ascsim AIC side: the cube data path of arch 2201 (reference §3).
//   GM --DataCopy(Nd2NzParams)--> L1 (Nz) --LoadData--> L0A (Zz) / L0B (Zn) --Mmad--> L0C (Nz) --Fixpipe--> GM (ND)
// Fractal = 512 B: 16 rows x C0 elements, C0 = 32 B / sizeof(T). L0C fractals are 16 x 16 of float/int32.
//   L1 Nz:  column block j (C0 wide) holds every row; element (r, c) at (c / C0) * C0Stride + r * C0 + c % C0
//   L0A Zz: fractal (mb, kb) at mb * kFrac + kb, row-major inside        (m = 1: GEMV, a plain row of k)
//   L0B Zn: fractal (kb, nb) at kb * nFrac + nb, column-major inside (element (k, n) at n * C0 + k)
//   L0C Nz: fractal (mb, nb) at nb * mFrac + mb, row-major inside
// Every op runs synchronously (functional model); the strict layer checks pools, alignment, ranges and types.
#ifndef ASCSIM_ASCSIM_KERNEL_CUBE_API_H_
#define ASCSIM_ASCSIM_KERNEL_CUBE_API_H_
#include <cstdlib>
#include <string>
#include <vector>
#include "cube_mem.h"
#include "datacopy.h"

namespace ascsim {

inline void require_aic(const char* api) {
    if (core().core_type != 1)
        fail(api, "illegal instruction on a vector core", "cube APIs run only on the AIC (the kernel ran it on an AIV core)");
}
template <class T> constexpr uint32_t c0_of() { return 32u / sizeof(T); }
// unitFlag (MmadParams / FixpipeParamsV220, 2 or 3): the hardware's fine-grained M <-> FIX handshake on L0C. For the
// missing-sync detector an Mmad with unitFlag orders itself after the last Fixpipe with unitFlag and before the
// next one, and vice versa (detector-only event slot 63; no SetFlag/WaitFlag needed, none is consumed).
constexpr int kUnitFlagSlot = 63;
inline void unit_flag_before(int pipe, uint8_t unitFlag) {
    if (unitFlag) sync_wait(pipe == kPipeM ? kPipeFix : kPipeM, pipe, kUnitFlagSlot);
}
inline void unit_flag_after(int pipe, uint8_t unitFlag) {
    if (unitFlag) sync_set(pipe, pipe == kPipeM ? kPipeFix : kPipeM, kUnitFlagSlot);
}
inline uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
template <class T> inline float to_f(T v) { return float(v); }

// Pool of a TPosition (-1: a UB position).
inline int pool_of_position(AscendC::TPosition p) {
    using AscendC::TPosition;
    switch (p) {
        case TPosition::A1: case TPosition::B1: case TPosition::C1: case TPosition::TSCM: return POOL_L1;
        case TPosition::A2: return POOL_L0A;
        case TPosition::B2: return POOL_L0B;
        case TPosition::CO1: return POOL_L0C;
        case TPosition::C2: return POOL_BT;
        case TPosition::C2PIPE2GM: return POOL_FB;
        default: return -1;
    }
}

// TPipe::InitBuffer for cube positions: a bump pointer per pool, owned by the TPipe that allocates.
// On an AIV core of a mixed kernel the cube memories do not exist, but code shared by both core types (a
// catlass-style Resource) still initialises their buffers: as on the device that is bookkeeping only. The tensor
// then points into a phantom block outside every memory the simulator models, so any use of it fails (vector APIs:
// "the ub address out of bounds"; cube APIs refuse to run on an AIV).
inline uint8_t* cube_phantom(int pool) {
    alignas(4096) static uint8_t phantom[POOL_COUNT][4096];
    return phantom[pool];
}
inline uint8_t* cube_allocate(const char* api, AscendC::TPosition pos, uint64_t bytes, const void* pipe) {
    int pool = pool_of_position(pos);
    CubeMem* m = cube_mem();
    if (pool < 0)
        fail(api, "Failed to check tensor position", "position " + std::to_string(int(pos)) + " is not a buffer position");
    if (!m) {
        if (bytes > cube_pool_spec(pool).bytes)
            fail(api, std::string(cube_pool_spec(pool).name) + " buffer size exceeds the limit",
                 std::to_string(bytes) + " B exceeds its " + std::to_string(cube_pool_spec(pool).bytes) + " B");
        return cube_phantom(pool);
    }
    if (m->owner != pipe) { for (auto& u : m->used) u = 0; m->owner = pipe; }
    const CubePoolSpec& s = cube_pool_spec(pool);
    uint32_t a = s.align;
    uint64_t start = (m->used[pool] + a - 1) / a * a;
    if (start + bytes > s.bytes)
        fail(api, std::string(s.name) + " buffer size exceeds the limit",
             std::string(s.name) + " usage " + std::to_string(start + bytes) + " B exceeds its " + std::to_string(s.bytes) + " B");
    m->used[pool] = uint32_t(start + bytes);
    return m->base(pool) + start;
}

// L1 (C1/A1/B1) -> BiasTable (C2), the documented DataCopy "L1ToBiasTable Buffer" of arch 2201: blockCount blocks
// (0 ~ 4095; 0 or an empty block is a no-op); a source block is srcBlockBytes of L1 (DataCopyParams: blockLen x
// 64 B), the next one srcGap x 32 B further; the destination takes the same elements as T (half -> float
// conversion, else a plain copy), blocks dstGap x 64 B apart. src 32 B-aligned in L1, dst 64 B-aligned in the
// BiasTable (1 KiB); it runs on MTE1. Types: src half / float / int32_t, dst float / int32_t, half only into float.
template <class T, class U> constexpr bool l1_to_bt_types() {
    return (std::is_same_v<T, float> && (std::is_same_v<U, float> || std::is_same_v<U, half>)) ||
           (std::is_same_v<T, int32_t> && std::is_same_v<U, int32_t>);
}
template <class T, class U>
void copy_l1_to_bt(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& src, uint32_t blockCount,
                   uint64_t srcBlockBytes, uint32_t srcGap, uint32_t dstGap) {
    const char* api = "DataCopy(L1 -> BiasTable)";
    require_aic(api);
    if constexpr (!l1_to_bt_types<T, U>())
        fail(api, "Failed to check dtype in DataCopy", "L1 -> BiasTable copies half / float into float, or int32_t into int32_t");
    else {
    check_block_count(api, blockCount);
    if (blockCount == 0 || srcBlockBytes == 0) return;
    uint64_t n = srcBlockBytes / sizeof(U);
    uint64_t dstBlockBytes = n * sizeof(T);
    for (uint32_t b = 0; b < blockCount; ++b) {
        const U* s = reinterpret_cast<const U*>(reinterpret_cast<const uint8_t*>(src.addr_) + b * (srcBlockBytes + uint64_t(srcGap) * 32));
        T* d = reinterpret_cast<T*>(reinterpret_cast<uint8_t*>(dst.addr_) + b * (dstBlockBytes + uint64_t(dstGap) * 64));
        check_in_pool(api, "src", s, POOL_L1, 32, srcBlockBytes);
        check_in_pool(api, "dst", d, POOL_BT, 64, dstBlockBytes);
        sync_cube(kPipeMte1, api, s, srcBlockBytes, kRead);
        sync_cube(kPipeMte1, api, d, dstBlockBytes, kWrite);
        for (uint64_t i = 0; i < n; ++i) d[i] = T(s[i]);
    }
    }
}

}  // namespace ascsim

// a compiler built-in type on the device (kernels name it without AscendC::)
enum class QuantMode_t : uint8_t { NoQuant = 0, F322F16, F322BF16, DEQF16, VDEQF16, QF322B8_PRE, VQF322B8_PRE, REQ8, VREQ8 };

namespace AscendC {

// DataCopy L1 -> BiasTable with a source type other than the destination's (documented: half -> float); the
// same-type form is the DataCopy(LocalTensor, LocalTensor, DataCopyParams) of datacopy.h.
template <typename T, typename U, std::enable_if_t<!std::is_same_v<T, U>, int> = 0>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyParams& p) {
    static_assert(::ascsim::l1_to_bt_types<T, U>(), "Failed to check dtype in DataCopy: with different src and dst types "
                  "it is the L1 -> BiasTable copy, half -> float");
    ::ascsim::copy_l1_to_bt(dst, src, p.blockCount, uint64_t(p.blockLen) * 64, p.srcStride, p.dstStride);
}

// ------------------------------------------------------------------------------------------- parameter types --
struct Nd2NzParams {
    Nd2NzParams() = default;
    Nd2NzParams(uint16_t nd, uint16_t n, uint16_t d, uint16_t srcNdStride, uint16_t srcD, uint16_t c0Stride,
                 uint16_t nStride, uint16_t dstNdStride)
        : ndNum(nd), nValue(n), dValue(d), srcNdMatrixStride(srcNdStride), srcDValue(srcD), dstNzC0Stride(c0Stride),
          dstNzNStride(nStride), dstNzMatrixStride(dstNdStride) {}
    uint16_t ndNum = 0, nValue = 0, dValue = 0, srcNdMatrixStride = 0, srcDValue = 0;
    uint16_t dstNzC0Stride = 0, dstNzNStride = 0, dstNzMatrixStride = 0;
};
struct LoadData2DParams {
    LoadData2DParams() = default;
    LoadData2DParams(uint16_t start, uint8_t rep, uint16_t sStride, uint8_t s, uint16_t gap, bool trans, uint8_t mode)
        : startIndex(start), repeatTimes(rep), srcStride(sStride), sid(s), dstGap(gap), ifTranspose(trans), addrMode(mode) {}
    uint16_t startIndex = 0;
    uint8_t repeatTimes = 0;
    uint16_t srcStride = 0;
    uint8_t sid = 0;
    uint16_t dstGap = 0;
    bool ifTranspose = false;
    uint8_t addrMode = 0;
};
struct LoadData2dTransposeParams {
    LoadData2dTransposeParams() = default;
    LoadData2dTransposeParams(uint16_t start, uint8_t rep, uint16_t sStride, uint16_t gap, uint16_t fracGap, uint16_t mode = 0)
        : startIndex(start), repeatTimes(rep), srcStride(sStride), dstGap(gap), dstFracGap(fracGap), addrMode(mode) {}
    uint16_t startIndex = 0;
    uint8_t repeatTimes = 0;
    uint16_t srcStride = 0;
    uint16_t dstGap = 0;
    uint16_t dstFracGap = 0;
    uint16_t addrMode = 0;
};
struct MmadParams {
    MmadParams() = default;
    MmadParams(uint16_t m_, uint16_t n_, uint16_t k_, bool isBias_, int32_t fm, bool sparse, bool wa, bool wb)
        : m(m_), n(n_), k(k_), isBias(isBias_), fmOffset(fm), enSsparse(sparse), enWinogradA(wa), enWinogradB(wb) {}
    MmadParams(uint16_t m_, uint16_t n_, uint16_t k_, uint8_t unit, bool kAlign, bool cSrc, bool cInit)
        : m(m_), n(n_), k(k_), unitFlag(unit), kDirectionAlign(kAlign), cmatrixSource(cSrc), cmatrixInitVal(cInit) {}
    uint16_t m = 0, n = 0, k = 0;
    bool isBias = false;
    int32_t fmOffset = 0;
    bool enSsparse = false, enWinogradA = false, enWinogradB = false;
    uint8_t unitFlag = 0;
    bool kDirectionAlign = false;
    bool cmatrixSource = false;
    bool cmatrixInitVal = true;
};
using ::QuantMode_t;
using QuantMode = QuantMode_t;
enum class CO2Layout : uint8_t { NZ = 0, ROW_MAJOR, COLUMN_MAJOR };
struct FixpipeConfig { CO2Layout format; };
constexpr FixpipeConfig CFG_NZ = {CO2Layout::NZ};
constexpr FixpipeConfig CFG_ROW_MAJOR = {CO2Layout::ROW_MAJOR};
struct FixpipeParamsV220 {
    FixpipeParamsV220() = default;
    FixpipeParamsV220(uint16_t n, uint16_t m, uint16_t sStride, uint32_t dStride, bool relu)
        : nSize(n), mSize(m), srcStride(sStride), dstStride(dStride), reluEn(relu) {}
    uint16_t nSize = 0, mSize = 0, srcStride = 0;
    uint32_t dstStride = 0;
    QuantMode_t quantPre = QuantMode_t::NoQuant;
    uint64_t deqScalar = 0;
    uint16_t ndNum = 1, srcNdStride = 0, dstNdStride = 0;
    bool reluEn = false;
    uint8_t unitFlag = 0;
    bool isChannelSplit = false;
};
using FixpipeParams = FixpipeParamsV220;

// ------------------------------------------------------------------------------------------- GM -> L1 (Nd2Nz) --
template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Nd2NzParams& p) {
    const char* api = "DataCopy(Nd2NzParams)";
    ascsim::require_aic(api);
    if (p.ndNum == 0 || p.nValue == 0 || p.dValue == 0) return;
    constexpr uint32_t C0 = ascsim::c0_of<T>();
    if (p.dstNzC0Stride == 0 && p.dValue > C0) ascsim::fail_cube(api, "dstNzC0Stride 0 with dValue > C0: column blocks overlap");
    if (p.srcDValue < p.dValue && p.nValue > 1)
        ascsim::warn(api, "srcDValue " + std::to_string(p.srcDValue) + " < dValue " + std::to_string(p.dValue) + ": source rows overlap");
    uint32_t cblocks = ascsim::ceil_div(p.dValue, C0);
    // footprint in elements: last matrix, last column block, last row
    uint64_t last = uint64_t(p.ndNum - 1) * p.dstNzMatrixStride + uint64_t(cblocks - 1) * p.dstNzC0Stride * C0 +
                    uint64_t(p.nValue - 1) * p.dstNzNStride * C0 + C0;
    ascsim::check_in_pool(api, "dst", dst.addr_, ascsim::POOL_L1, 32, last * sizeof(T));
    ascsim::sync_cube(ascsim::kPipeMte2, api, dst.addr_, last * sizeof(T), ascsim::kWrite);   // GM -> L1 runs on MTE2
    for (uint32_t nd = 0; nd < p.ndNum; ++nd) {
        const T* s0 = src.addr_ + uint64_t(nd) * p.srcNdMatrixStride;
        T* d0 = dst.addr_ + uint64_t(nd) * p.dstNzMatrixStride;
        for (uint32_t r = 0; r < p.nValue; ++r) {
            const T* srow = s0 + uint64_t(r) * p.srcDValue;
            ascsim::check_gm(srow, size_t(p.dValue) * sizeof(T), false, api);
            for (uint32_t cb = 0; cb < cblocks; ++cb) {
                T* d = d0 + uint64_t(cb) * p.dstNzC0Stride * C0 + uint64_t(r) * p.dstNzNStride * C0;
                uint32_t c = cb * C0, w = std::min<uint32_t>(C0, p.dValue - c);
                std::memcpy(d, srow + c, w * sizeof(T));
                if (w < C0) std::memset(static_cast<void*>(d + w), 0, (C0 - w) * sizeof(T));   // padded with zeros
            }
        }
    }
}

// ------------------------------------------------------------------------------------------- L1/GM -> L0A/L0B --
namespace ascsim_cube_detail {
template <class T> inline void transpose_fractal(T* dst, const T* src) {
    // b16: one 16x16 fractal
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 16; ++c) dst[c * 16 + r] = src[r * 16 + c];
}
template <class T> inline void load2d(const char* api, const LocalTensor<T>& dst, const T* src, bool src_gm, const LoadData2DParams& p) {
    ascsim::require_aic(api);
    if (p.repeatTimes == 0) return;
    constexpr uint32_t FRAC = 512 / sizeof(T);
    int pool = ascsim::cube_pool_of(dst.addr_);
    if (pool != ascsim::POOL_L0A && pool != ascsim::POOL_L0B)
        ascsim::fail_cube(api, "dst must be in L0A or L0B");
    if (p.ifTranspose && sizeof(T) != 2)
        ascsim::fail_cube(api, "ifTranspose is supported for 16-bit types only (use LoadDataWithTranspose)");
    uint64_t dst_span = (uint64_t(p.repeatTimes - 1) * (p.dstGap + 1) + 1) * 512;
    ascsim::check_in_pool(api, "dst", dst.addr_, pool, 512, dst_span);
    uint64_t src_last = (uint64_t(p.startIndex) + uint64_t(p.repeatTimes - 1) * p.srcStride + 1) * 512;
    if (src_gm) ascsim::check_gm(src, src_last, false, api);
    else ascsim::check_in_pool(api, "src", src, ascsim::POOL_L1, 32, src_last);
    // L1 -> L0A/L0B runs on MTE1, GM -> L0A/L0B on MTE2 (one fractal read and written per repeat)
    const int pipe = src_gm ? ascsim::kPipeMte2 : ascsim::kPipeMte1;
    for (uint32_t r = 0; r < p.repeatTimes; ++r) {
        const T* s = src + (uint64_t(p.startIndex) + uint64_t(r) * p.srcStride) * FRAC;
        T* d = dst.addr_ + uint64_t(r) * (p.dstGap + 1) * FRAC;
        if (!src_gm) ascsim::sync_cube(pipe, api, s, 512, ascsim::kRead);
        ascsim::sync_cube(pipe, api, d, 512, ascsim::kWrite);
        if (p.ifTranspose) transpose_fractal(d, s);
        else std::memcpy(d, s, 512);
    }
}
}  // namespace ascsim_cube_detail

template <typename T>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2DParams& p) {
    ascsim_cube_detail::load2d("LoadData", dst, src.addr_, false, p);
}
template <typename T>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const LoadData2DParams& p) {
    ascsim_cube_detail::load2d("LoadData", dst, src.addr_, true, p);
}

// Transposes square blocks of one or two fractals (16 rows x C0 columns each, 512 B): b16 a 16x16 fractal; b32 two
// 16x8 fractals side by side (16x16); b8 two 16x32 fractals one above the other (32x32). The transpose is split into
// fractals the same way.
template <typename T>
__aicore__ inline void LoadDataWithTranspose(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2dTransposeParams& p) {
    const char* api = "LoadDataWithTranspose";
    ascsim::require_aic(api);
    if (p.repeatTimes == 0) return;
    constexpr uint32_t C0 = ascsim::c0_of<T>();
    constexpr uint32_t FRAC = 512 / sizeof(T);
    constexpr uint32_t NF = sizeof(T) == 2 ? 1 : 2;          // fractals per square block
    constexpr uint32_t SIDE = sizeof(T) == 1 ? 32 : 16;        // square side in elements
    constexpr uint32_t FROWS = 16;                               // rows of a fractal
    constexpr uint32_t ROW_OFF = C0 == SIDE ? FROWS : 0;         // where fractal f sits in the square: rows (b8) ...
    constexpr uint32_t COL_OFF = C0 == SIDE ? 0 : C0;            // ... or columns (b32)
    int pool = ascsim::cube_pool_of(dst.addr_);
    if (pool != ascsim::POOL_L0A && pool != ascsim::POOL_L0B) ascsim::fail_cube(api, "dst must be in L0A or L0B");
    // docs: dstGap is the gap (512 B units) from the end of one iteration's FIRST fractal to the next iteration's
    // first fractal, so iterations start 1 + dstGap fractals apart; inside an iteration (b32 / b8: two fractals)
    // the second starts 1 + dstFracGap fractals after the first.
    uint64_t dst_span = (uint64_t(p.repeatTimes - 1) * (p.dstGap + 1) + 1 + uint64_t(NF - 1) * (1 + p.dstFracGap)) * 512;
    ascsim::check_in_pool(api, "dst", dst.addr_, pool, 512, dst_span);
    uint64_t src_last = (uint64_t(p.startIndex) + uint64_t(p.repeatTimes - 1) * p.srcStride + 1) * NF * 512;
    ascsim::check_in_pool(api, "src", src.addr_, ascsim::POOL_L1, 32, src_last);
    std::vector<T> sq(SIDE * SIDE), tr(SIDE * SIDE);
    for (uint32_t r = 0; r < p.repeatTimes; ++r) {
        // the source square block: NF consecutive fractals
        const T* s = src.addr_ + (uint64_t(p.startIndex) + uint64_t(r) * p.srcStride) * NF * FRAC;
        ascsim::sync_cube(ascsim::kPipeMte1, api, s, NF * 512, ascsim::kRead);
        for (uint32_t f = 0; f < NF; ++f)
            for (uint32_t row = 0; row < FROWS; ++row)
                for (uint32_t c = 0; c < C0; ++c) sq[(f * ROW_OFF + row) * SIDE + f * COL_OFF + c] = s[f * FRAC + row * C0 + c];
        for (uint32_t i = 0; i < SIDE; ++i)
            for (uint32_t j = 0; j < SIDE; ++j) tr[j * SIDE + i] = sq[i * SIDE + j];
        T* d = dst.addr_ + uint64_t(r) * (p.dstGap + 1) * FRAC;
        for (uint32_t f = 0; f < NF; ++f) {
            T* df = d + uint64_t(f) * (1 + p.dstFracGap) * FRAC;
            ascsim::sync_cube(ascsim::kPipeMte1, api, df, 512, ascsim::kWrite);
            for (uint32_t row = 0; row < FROWS; ++row)
                for (uint32_t c = 0; c < C0; ++c) df[row * C0 + c] = tr[(f * ROW_OFF + row) * SIDE + f * COL_OFF + c];
        }
    }
}

// ------------------------------------------------------------------------------------------------------ Mmad --
namespace ascsim_cube_detail {
// HF32 (SetHF32Mode / SetHF32TransMode, cube_config.h): with the mode on, every float that Mmad takes from L0A / L0B
// is first rounded to HF32, the product and the accumulation stay float. The asc-devkit pages give the A2 format only
// as a figure (not in the text); the vendor's compiler (ATC --allow_hf32) pages state it: the float32 exponent range
// with 11 mantissa bits. So the low 12 of the 23 mantissa bits are rounded away here, on the bit pattern (subnormals
// alike; inf / NaN pass unchanged; a carry may reach inf). Trans mode 0 (NEAREST_EVEN): to nearest, ties to even.
// Trans mode 1 (NEAREST_ZERO): the pages call it rounding "towards zero to the nearest"; the Matmul SetHF32 page
// defines the same mode value (transMode 1) as to nearest with ties away from zero, which is what is modelled.
inline float hf32_round(float x, uint8_t transMode) {
    uint32_t b;
    std::memcpy(&b, &x, 4);
    if ((b & 0x7F800000u) == 0x7F800000u) return x;
    constexpr uint32_t kDrop = 12, kLsb = 1u << kDrop, kHalf = kLsb >> 1, kMask = kLsb - 1;
    const uint32_t low = b & kMask;
    b &= ~kMask;
    const bool up = transMode == 0 ? (low > kHalf || (low == kHalf && (b & kLsb))) : low >= kHalf;
    if (up) b += kLsb;
    float r;
    std::memcpy(&r, &b, 4);
    return r;
}
template <class D, class A, class B> constexpr bool mmad_types_ok() {
    return (std::is_same_v<D, float> && std::is_same_v<A, half> && std::is_same_v<B, half>) ||
           (std::is_same_v<D, float> && std::is_same_v<A, bfloat16_t> && std::is_same_v<B, bfloat16_t>) ||
           (std::is_same_v<D, float> && std::is_same_v<A, float> && std::is_same_v<B, float>) ||
           (std::is_same_v<D, int32_t> && std::is_same_v<A, int8_t> && std::is_same_v<B, int8_t>) ||
           (std::is_same_v<D, int32_t> && std::is_same_v<A, uint8_t> && std::is_same_v<B, int8_t>);
}
template <class D, class A, class B, class V>
inline void mmad(const char* api, const LocalTensor<D>& c, const LocalTensor<A>& a, const LocalTensor<B>& b,
                 const V* bias, const MmadParams& p) {
    ascsim::require_aic(api);
    if (p.m == 0 || p.n == 0 || p.k == 0) return;
    if (p.m > 4095 || p.n > 4095 || p.k > 4095)
        ascsim::fail_cube(api, "m/n/k must be <= 4095 (got " + std::to_string(p.m) + "/" + std::to_string(p.n) + "/" + std::to_string(p.k) + ")");
    constexpr uint32_t C0 = ascsim::c0_of<A>();
    const uint32_t M = p.m, N = p.n, K = p.k;
    const uint32_t mF = ascsim::ceil_div(M, 16), nF = ascsim::ceil_div(N, 16);
    const uint32_t kC0 = (std::is_same_v<A, float> && p.kDirectionAlign) ? 16 : C0;
    const uint32_t kF = ascsim::ceil_div(K, kC0) * kC0 / C0;    // fractals along K (float: padded to 16 with kDirectionAlign)
    const bool gemv = M == 1;
    ascsim::check_in_pool(api, "dst (L0C)", c.addr_, ascsim::POOL_L0C, 1024, uint64_t(mF) * nF * 256 * sizeof(D));
    ascsim::check_in_pool(api, "fmA (L0A)", a.addr_, ascsim::POOL_L0A, 512, gemv ? uint64_t(K) * sizeof(A) : uint64_t(mF) * kF * 512);
    ascsim::check_in_pool(api, "filterB (L0B)", b.addr_, ascsim::POOL_L0B, 512, uint64_t(kF) * nF * 512);
    // PIPE_M reads L0A, L0B (and the bias) and writes L0C (accumulating: a read-modify-write, checked as a write)
    ascsim::sync_cube(ascsim::kPipeM, api, a.addr_, gemv ? uint64_t(K) * sizeof(A) : uint64_t(mF) * kF * 512, ascsim::kRead);
    ascsim::sync_cube(ascsim::kPipeM, api, b.addr_, uint64_t(kF) * nF * 512, ascsim::kRead);
    if (bias) ascsim::sync_cube(ascsim::kPipeM, api, bias, uint64_t(N) * sizeof(V), ascsim::kRead);
    ascsim::unit_flag_before(ascsim::kPipeM, p.unitFlag);
    ascsim::sync_cube(ascsim::kPipeM, api, c.addr_, uint64_t(mF) * nF * 256 * sizeof(D), ascsim::kWrite);
    ascsim::unit_flag_after(ascsim::kPipeM, p.unitFlag);
    // unpack to dense float/int rows: Ad[m][k], Bd[k][n]
    using Acc = std::conditional_t<std::is_same_v<D, int32_t>, int32_t, float>;
    static thread_local std::vector<Acc> Ad, Bd, Cd;
    // float inputs under SetHF32Mode(ENABLE): L0A / L0B values enter the product rounded to HF32 (bias excluded)
    const auto& cfg = ascsim::core().cube_cfg;
    const bool hf32 = std::is_same_v<A, float> && cfg.hf32;
    auto in = [&](auto v) -> Acc {
        if constexpr (std::is_same_v<A, float>) return hf32 ? hf32_round(float(v), cfg.hf32_trans) : Acc(v);
        else return Acc(v);
    };
    Ad.assign(size_t(M) * K, Acc(0));
    Bd.assign(size_t(K) * N, Acc(0));
    for (uint32_t i = 0; i < M; ++i)
        for (uint32_t k = 0; k < K; ++k) {
            size_t idx = gemv ? k : (size_t(i / 16) * kF + k / C0) * (16 * C0) + (i % 16) * C0 + k % C0;
            Ad[size_t(i) * K + k] = in(a.addr_[idx]);
        }
    for (uint32_t k = 0; k < K; ++k)
        for (uint32_t j = 0; j < N; ++j) {
            size_t idx = (size_t(k / C0) * nF + j / 16) * (16 * C0) + (j % 16) * C0 + k % C0;
            Bd[size_t(k) * N + j] = in(b.addr_[idx]);
        }
    Cd.assign(size_t(M) * N, Acc(0));
    for (uint32_t i = 0; i < M; ++i) {
        Acc* crow = Cd.data() + size_t(i) * N;
        const Acc* arow = Ad.data() + size_t(i) * K;
        for (uint32_t k = 0; k < K; ++k) {
            Acc av = arow[k];
            const Acc* brow = Bd.data() + size_t(k) * N;
            for (uint32_t j = 0; j < N; ++j) crow[j] += av * brow[j];
        }
    }
    for (uint32_t i = 0; i < M; ++i)
        for (uint32_t j = 0; j < N; ++j) {
            D& out = c.addr_[(size_t(j / 16) * mF + i / 16) * 256 + (i % 16) * 16 + j % 16];
            Acc v = Cd[size_t(i) * N + j];
            if (bias) out = D(Acc(bias[j]) + v);
            else if (p.cmatrixInitVal) out = D(v);
            else out = D(Acc(out) + v);
        }
}
}  // namespace ascsim_cube_detail

template <typename T, typename U, typename S>
__aicore__ inline void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fmLocal, const LocalTensor<S>& filterLocal,
                            const MmadParams& p) {
    static_assert(!::ascsim::is_int4_v<U> && !::ascsim::is_int4_v<S>,
                  "ascsim: Mmad on int4b_t (documented for Atlas A2: int4b_t/int4b_t/int32_t) is not simulated");
    static_assert(ascsim_cube_detail::mmad_types_ok<T, U, S>(),
                  "Failed to check dtype in Mmad, current api support dtype combination is A/B/C: half/half/float, "
                  "bfloat16_t/bfloat16_t/float, float/float/float, int8_t/int8_t/int32_t");
    ascsim_cube_detail::mmad<T, U, S, T>("Mmad", dst, fmLocal, filterLocal, nullptr, p);
}
template <typename T, typename U, typename S, typename V>
__aicore__ inline void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fmLocal, const LocalTensor<S>& filterLocal,
                            const LocalTensor<V>& bias, const MmadParams& p) {
    static_assert(!::ascsim::is_int4_v<U> && !::ascsim::is_int4_v<S>,
                  "ascsim: Mmad on int4b_t (documented for Atlas A2: int4b_t/int4b_t/int32_t) is not simulated");
    static_assert(ascsim_cube_detail::mmad_types_ok<T, U, S>(),
                  "Failed to check dtype in Mmad, current api support dtype combination is A/B/C: half/half/float, "
                  "bfloat16_t/bfloat16_t/float, float/float/float, int8_t/int8_t/int32_t");
    if (p.m && p.n && p.k) {
        int pool = ascsim::cube_pool_of(bias.addr_);
        if (pool != ascsim::POOL_BT && pool != ascsim::POOL_L1) ascsim::fail_cube("Mmad", "bias must be in the BiasTable (C2)");
        ascsim::check_in_pool("Mmad", "bias", bias.addr_, pool, pool == ascsim::POOL_BT ? 64 : 32, uint64_t(p.n) * sizeof(V));
    }
    ascsim_cube_detail::mmad<T, U, S, V>("Mmad", dst, fmLocal, filterLocal, bias.addr_, p);
}

// --------------------------------------------------------------------------------------------- L0C -> GM ------
namespace ascsim_cube_detail {
template <class T, class U> inline QuantMode_t expected_quant(bool vector_scale) {
    if (std::is_same_v<U, float>) {
        if (std::is_same_v<T, float>) return QuantMode_t::NoQuant;
        if (std::is_same_v<T, half>) return QuantMode_t::F322F16;
        if (std::is_same_v<T, bfloat16_t>) return QuantMode_t::F322BF16;
        if (std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t>) return vector_scale ? QuantMode_t::VQF322B8_PRE : QuantMode_t::QF322B8_PRE;
    }
    if (std::is_same_v<U, int32_t>) {
        if (std::is_same_v<T, int32_t>) return QuantMode_t::NoQuant;
        if (std::is_same_v<T, half>) return vector_scale ? QuantMode_t::VDEQF16 : QuantMode_t::DEQF16;
        if (std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t>) return vector_scale ? QuantMode_t::VREQ8 : QuantMode_t::REQ8;
    }
    return QuantMode_t(255);
}
inline float scale_of(uint64_t bits) { float f; uint32_t lo = uint32_t(bits); std::memcpy(&f, &lo, 4); return f; }
template <class T> inline T saturate_to(float v) {
    if constexpr (std::is_integral_v<T>) {
        float r = std::nearbyint(v);
        r = std::min<float>(std::max<float>(r, float(std::numeric_limits<T>::min())), float(std::numeric_limits<T>::max()));
        return T(r);
    } else {
        return T(v);
    }
}
template <class T, class U>
inline void fixpipe(const char* api, const GlobalTensor<T>& dst, const LocalTensor<U>& src, const uint64_t* vscale,
                    const FixpipeParamsV220& p, CO2Layout fmt) {
    ascsim::require_aic(api);
    if (p.mSize == 0 || p.nSize == 0) return;
    // NZ2ND moves ndNum matrices (docs: ndNum 0 moves nothing, with a warning); an NZ destination is one matrix
    if (fmt == CO2Layout::ROW_MAJOR && p.ndNum == 0) {
        ascsim::warn(api, "ndNum is 0: the NZ2ND move does nothing");
        return;
    }
    if constexpr (std::is_same_v<T, float> && std::is_same_v<U, float>)
        if (fmt == CO2Layout::NZ && p.isChannelSplit)
            ascsim::fail(api, "ascsim: not simulated", "channel split of a float NZ destination is not simulated");
    QuantMode_t want = expected_quant<T, U>(vscale != nullptr);
    bool ok = p.quantPre == want || (std::is_same_v<T, U> && p.quantPre == QuantMode_t::NoQuant);
    if (!ok)
        ascsim::fail(api, "Fixpipe quantPre does not match the data types",
                     "quantPre " + std::to_string(int(p.quantPre)) + " converts nothing into the destination type; for this "
                     "src/dst pair the hardware needs quantPre " + std::to_string(int(want)) + " (it is not derived from the types)");
    if (p.nSize > 4095) ascsim::fail_cube(api, "nSize must be <= 4095");
    if (fmt == CO2Layout::ROW_MAJOR && p.mSize > 8192) ascsim::fail_cube(api, "mSize must be <= 8192 with NZ2ND");
    if (p.srcStride < p.mSize || p.srcStride % 16)
        ascsim::fail_cube(api, "srcStride " + std::to_string(p.srcStride) + " must be a multiple of 16 and >= mSize " + std::to_string(p.mSize));
    const uint32_t nd = fmt == CO2Layout::ROW_MAJOR ? p.ndNum : 1;
    if (nd > 1 && p.srcNdStride > 512)
        ascsim::fail_cube(api, "srcNdStride " + std::to_string(p.srcNdStride) + " exceeds 512 (units of 16 x C0_SIZE)");
    uint32_t nF = ascsim::ceil_div(p.nSize, 16);
    uint64_t span = (uint64_t(nd - 1) * p.srcNdStride * 256 + (uint64_t(nF - 1) * p.srcStride + p.mSize) * 16) * sizeof(U);
    ascsim::check_in_pool(api, "src (L0C)", src.addr_, ascsim::POOL_L0C, 64, span);
    ascsim::unit_flag_before(ascsim::kPipeFix, p.unitFlag);
    ascsim::sync_cube(ascsim::kPipeFix, api, src.addr_, span, ascsim::kRead);   // L0C -> GM runs on PIPE_FIX
    ascsim::unit_flag_after(ascsim::kPipeFix, p.unitFlag);
    if (vscale) ascsim::sync_cube(ascsim::kPipeFix, api, vscale, uint64_t(p.nSize) * 8, ascsim::kRead);
    if (fmt == CO2Layout::ROW_MAJOR && p.dstStride < p.nSize)
        ascsim::fail_cube(api, "dstStride " + std::to_string(p.dstStride) + " (elements per destination row) < nSize " + std::to_string(p.nSize));
    // docs: destination data must not overlap (the hardware neither reports it nor orders the writes). ND matrix q
    // starts q * dstNdStride after the first; two rows collide when their starts are less than nSize apart.
    for (uint32_t q = 1; fmt == CO2Layout::ROW_MAJOR && q < nd; ++q) {
        const int64_t d = int64_t(q) * p.dstNdStride, S = p.dstStride;
        const int64_t r0 = std::min<int64_t>(d / S, int64_t(p.mSize) - 1);
        for (int64_t r = r0; r <= std::min<int64_t>(r0 + 1, int64_t(p.mSize) - 1); ++r)
            if (std::llabs(d - r * S) < int64_t(p.nSize))
                ascsim::fail_cube(api, "the ND destinations overlap: matrix " + std::to_string(q) + " starts " + std::to_string(d) +
                                           " elements after matrix 0 (dstNdStride " + std::to_string(p.dstNdStride) + ", dstStride " +
                                           std::to_string(p.dstStride) + ", nSize " + std::to_string(p.nSize) + ", mSize " +
                                           std::to_string(p.mSize) + ")");
    }
    float sc = scale_of(p.deqScalar);
    std::vector<T> row(p.nSize);
    for (uint32_t q = 0; q < nd; ++q) {
        const U* s0 = src.addr_ + uint64_t(q) * p.srcNdStride * 256;
        T* d0 = dst.addr_ + uint64_t(q) * p.dstNdStride;
        for (uint32_t i = 0; i < p.mSize; ++i) {
            for (uint32_t j = 0; j < p.nSize; ++j) {
                float v = float(s0[(uint64_t(j / 16) * p.srcStride + i) * 16 + j % 16]);
                if (p.reluEn) v = v > 0 ? v : 0;
                switch (p.quantPre) {
                    case QuantMode_t::DEQF16: case QuantMode_t::QF322B8_PRE: case QuantMode_t::REQ8: v *= sc; break;
                    case QuantMode_t::VDEQF16: case QuantMode_t::VQF322B8_PRE: case QuantMode_t::VREQ8: v *= scale_of(vscale[j]); break;
                    default: break;
                }
                T out = saturate_to<T>(v);
                if (fmt == CO2Layout::ROW_MAJOR) {
                    row[j] = out;
                } else {   // NZ out: column block j/16 starts dstStride 32-byte blocks after the previous one
                    T* d = d0 + uint64_t(j / 16) * p.dstStride * (32 / sizeof(T)) + uint64_t(i) * 16 + j % 16;
                    ascsim::gm_store(d, &out, 1, api);
                }
            }
            if (fmt == CO2Layout::ROW_MAJOR) ascsim::gm_store(d0 + uint64_t(i) * p.dstStride, row.data(), p.nSize, api);
        }
    }
}

// Fixpipe is the combined form: it loads the Fixpipe registers its parameters describe (the NZ2ND registers for a
// ROW_MAJOR destination, the scalar quant register for DEQF16 / QF322B8_PRE / REQ8) and then moves the data, so a
// later register-reading DataCopy(L0C -> GM) sees them. The per-column scales of the workspace form are read from L1
// in place (the Fixpipe buffer staging it implies is not modelled, nor the quant-tensor register it would leave).
inline void fixpipe_load_registers(const FixpipeParamsV220& p, CO2Layout fmt) {
    ascsim::require_aic("Fixpipe");
    auto& r = ascsim::core().cube_cfg;
    if (fmt == CO2Layout::ROW_MAJOR) {
        r.nd_set = true; r.nd_num = p.ndNum; r.src_nd_stride = p.srcNdStride; r.dst_nd_stride = p.dstNdStride;
    }
    if (p.quantPre == QuantMode_t::DEQF16 || p.quantPre == QuantMode_t::QF322B8_PRE || p.quantPre == QuantMode_t::REQ8) {
        r.quant_set = true; r.quant_pre = p.deqScalar;
    }
}
}  // namespace ascsim_cube_detail

template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
__aicore__ inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& p) {
    ascsim_cube_detail::fixpipe_load_registers(p, config.format);
    ascsim_cube_detail::fixpipe<T, U>("Fixpipe", dst, src, nullptr, p, config.format);
}
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
__aicore__ inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const LocalTensor<uint64_t>& cbufWorkspace,
                               const FixpipeParamsV220& p) {
    ascsim_cube_detail::fixpipe_load_registers(p, config.format);
    ascsim::check_in_pool("Fixpipe", "cbufWorkspace", cbufWorkspace.addr_, ascsim::POOL_L1, 32, uint64_t(p.nSize) * 8);
    ascsim_cube_detail::fixpipe<T, U>("Fixpipe", dst, src, cbufWorkspace.addr_, p, config.format);
}

// ------------------------------------------------------------------------------------------- cross-core sync --
template <uint8_t modeId, pipe_t pipe> __aicore__ inline void CrossCoreSetFlag(uint16_t flagId) {
    static_assert(modeId <= 2, "CrossCoreSetFlag: modeId must be 0, 1 or 2");
    static_assert(pipe != PIPE_S && pipe != PIPE_ALL, "CrossCoreSetFlag: PIPE_S and PIPE_ALL are not supported");
    ::ascsim::cross_core_set(modeId, flagId, "CrossCoreSetFlag");
}
template <uint8_t modeId = 0, pipe_t pipe = PIPE_S> __aicore__ inline void CrossCoreWaitFlag(uint16_t flagId) {
    static_assert(modeId <= 2, "CrossCoreWaitFlag: modeId must be 0, 1 or 2");
    ::ascsim::cross_core_wait(flagId, "CrossCoreWaitFlag");
}

}  // namespace AscendC
// the cube configuration registers (HF32, LoadData 3D / img2col, Fixpipe) and their register-reading forms
#include "cube_config.h"
#endif  // ASCSIM_ASCSIM_KERNEL_CUBE_API_H_
