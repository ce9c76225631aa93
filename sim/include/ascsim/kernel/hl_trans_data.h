// ascsim: the high-level TransData API (docs SIMD-API/高阶API/张量变换/TransData.md) for Atlas A2, with the
// structures its signature names: TransDataConfig, TransDataParams and the Layout family it takes shapes from
// (Shape / Stride / MakeShape / MakeStride / MakeLayout / Layout / is_layout, docs 基础API/辅助数据结构/Layout).
// The host size function GetTransDataMaxMinTmpSize is in host/fmod_trans_data_tiling.h; TransDataConfig, the shape
// rules and the temp model below live in ../fmod_trans_data_common.h, which both sides include.
//
// Conversions (all for 2-byte types, so C0 = N0 = 16, C1 = ceil(C / 16), N1 = ceil(N / 16)):
//   NCDHW        [N, C, D, H, W]              -> NDC1HWC0     [N, D, C1, H, W, C0]     dst(n,d,c1,h,w,c0) = src(n, c1*16+c0, d, h, w)
//   NDC1HWC0     [N, D, C1, H, W, C0]         -> NCDHW        (the inverse)
//   NCDHW        [N, C, D, H, W]              -> FRACTAL_Z_3D [D, C1, H, W, N1, N0, C0] dst(d,c1,h,w,n1,n0,c0) = src(n1*16+n0, c1*16+c0, d, h, w)
//   FRACTAL_Z_3D [D, C1, H, W, N1, N0, C0]    -> NCDHW        (the inverse)
// Every other DataFormat pair is a compile error (the docs list only these four).
//
// Memory layout of the NCDHW side (documented): H and W are merged and the merged axis is padded to 32 bytes, so an
// NCDHW tensor occupies [N, C, D, HWpad] with HWpad = H * W rounded up to 16 elements. As a source the caller pads it
// (the pad elements are never read into the result); as a destination the API writes the pad itself with invalid
// data (the simulator writes 0xFF bytes, NaN for half, so a kernel that uses them shows it). The params still give
// the original 5-D shape. The fractal side is dense. Where C (or N, for FRACTAL_Z_3D) is not a multiple of 16, the
// fractal output's extra C0 / N0 slots are written as zero: the docs do not say what they hold; zero is what a
// consumer of these formats (a convolution) needs there, and on the reverse path they are ignored.
//
// Rules enforced: T is int16_t, uint16_t, half or bfloat16_t; U and S are Layouts whose shapes have the ranks of
// the formats (5 / 6 / 7), positive dimensions, and agree with each other (N, D, H, W equal; C1 / N1 as above;
// C0 = N0 = 16); each tensor holds its padded footprint; operands 32-byte aligned (the general rule); src and dst
// must not overlap; the sharedTmpBuffer must not overlap either and must hold GetTransDataMaxMinTmpSize's value.
// Temp model (the docs give no sizes, only that max == min): one (n, d) plane of the NCDHW side with C padded to
// C1 * 16 and HW to HWpad, i.e. C1 * 16 * HWpad * sizeof(T) bytes.
#ifndef ASCSIM_KERNEL_HL_TRANS_DATA_H_
#define ASCSIM_KERNEL_HL_TRANS_DATA_H_
#include <cstdint>
#include <cstring>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>
#include "defs.h"
#include "std_lib.h"
#include "hl_math.h"
#include "../fmod_trans_data_common.h"   // TransDataConfig and the shape / temp model

// The toolkit-path stub lib/transpose/transdata.h declares catch-all TransData templates unless this is defined.
#ifndef ASCSIM_NOT_SIMULATED_TransData
#define ASCSIM_NOT_SIMULATED_TransData
#endif

namespace AscendC {
#ifndef ASCSIM_HAVE_LAYOUT
#define ASCSIM_HAVE_LAYOUT
// Layout<Shape, Stride>: a shape tuple and a stride tuple (strides in elements). Flat tuples only: the nested
// shapes and Std::Int constants of the full Layout family are not modelled.
template <typename... Shapes> using Shape = Std::tuple<Shapes...>;
template <typename... Strides> using Stride = Std::tuple<Strides...>;
template <typename... Ts> __aicore__ inline constexpr Shape<Ts...> MakeShape(const Ts&... t) { return Shape<Ts...>(t...); }
template <typename... Ts> __aicore__ inline constexpr Stride<Ts...> MakeStride(const Ts&... t) {
    return Stride<Ts...>(t...);
}

template <typename ShapeType, typename StrideType>
struct Layout : private Std::tuple<ShapeType, StrideType> {
    __aicore__ inline constexpr Layout(const ShapeType& shape = {}, const StrideType& stride = {})
        : Std::tuple<ShapeType, StrideType>(shape, stride) {}
    __aicore__ inline constexpr decltype(auto) layout() { return *this; }
    __aicore__ inline constexpr decltype(auto) layout() const { return *this; }
    __aicore__ inline constexpr decltype(auto) GetShape() { return Std::get<0>(base()); }
    __aicore__ inline constexpr decltype(auto) GetShape() const { return Std::get<0>(base()); }
    __aicore__ inline constexpr decltype(auto) GetStride() { return Std::get<1>(base()); }
    __aicore__ inline constexpr decltype(auto) GetStride() const { return Std::get<1>(base()); }
    // Coordinate to element index: sum of coordinate * stride over the dimensions (flat coordinates of the
    // stride's rank only).
    template <typename CoordType>
    __aicore__ inline constexpr auto operator()(const CoordType& coord) const {
        static_assert(std::tuple_size_v<CoordType> == std::tuple_size_v<StrideType>,
                      "ascsim Layout: only a flat coordinate with one value per stride is modelled");
        return dot(coord, std::make_index_sequence<std::tuple_size_v<StrideType>>{});
    }

private:
    constexpr Std::tuple<ShapeType, StrideType>& base() { return *this; }
    constexpr const Std::tuple<ShapeType, StrideType>& base() const { return *this; }
    template <typename CoordType, size_t... I>
    constexpr auto dot(const CoordType& coord, std::index_sequence<I...>) const {
        return (int64_t(0) + ... + (int64_t(Std::get<I>(coord)) * int64_t(Std::get<I>(GetStride()))));
    }
};
template <typename ShapeType, typename StrideType>
__aicore__ inline constexpr auto MakeLayout(const ShapeType& shape, const StrideType& stride) {
    return Layout<ShapeType, StrideType>(shape, stride);
}
template <typename T> struct is_layout : std::false_type {};
template <typename S, typename D> struct is_layout<Layout<S, D>> : std::true_type {};
#endif  // ASCSIM_HAVE_LAYOUT

#ifndef ASCSIM_HAVE_TRANS_DATA_PARAMS
#define ASCSIM_HAVE_TRANS_DATA_PARAMS
// The source and destination shapes of a TransData call (TransDataConfig is in ../fmod_trans_data_common.h).
template <typename T, typename U>
struct TransDataParams {
    T srcLayout;
    U dstLayout;
};
#endif
}  // namespace AscendC

namespace ascsim {
namespace trans_data {
using AscendC::DataFormat;

template <class Tuple> inline std::vector<int64_t> dims_of(const Tuple& t) {
    std::vector<int64_t> v;
    std::apply([&v](const auto&... x) { (v.push_back(int64_t(x)), ...); }, t);
    return v;
}
// The shape of a Layout; anything else (already rejected by a static_assert) reads as no dimensions.
template <class L> inline std::vector<int64_t> layout_dims(const L& l) {
    if constexpr (AscendC::is_layout<L>::value) return dims_of(l.GetShape());
    else return {};
}

template <const AscendC::TransDataConfig& config, class T, class U, class S>
inline void run(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                const AscendC::LocalTensor<uint8_t>* tmp, const AscendC::TransDataParams<U, S>& params) {
    static_assert(std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t> || std::is_same_v<T, half> ||
                      std::is_same_v<T, bfloat16_t>,
                  "TransData supports int16_t, uint16_t, half and bfloat16_t on Atlas A2");
    static_assert(AscendC::is_layout<U>::value && AscendC::is_layout<S>::value,
                  "TransData: TransDataParams' srcLayout and dstLayout must be Layout objects (MakeLayout)");
    static_assert(supported(config.srcFormat, config.dstFormat),
                  "TransData on Atlas A2 converts only NCDHW -> NDC1HWC0, NDC1HWC0 -> NCDHW, NCDHW -> FRACTAL_Z_3D "
                  "and FRACTAL_Z_3D -> NCDHW (TransDataConfig)");
    const char* api = "TransData";
    constexpr uint32_t ts = sizeof(T);
    const DataFormat sf = config.srcFormat, df = config.dstFormat;
    Dims m;
    const std::string bad = parse(sf, df, layout_dims(params.srcLayout), layout_dims(params.dstLayout), m);
    if (!bad.empty()) fail(api, "Failed to check params", bad);
    const uint64_t srcN = footprint(sf, m, ts), dstN = footprint(df, m, ts);
    auto holds = [&](const AscendC::LocalTensor<T>& t, uint64_t need, const char* what, DataFormat f) {
        if (uint64_t(t.GetSize()) < need)
            fail(api, "Failed to check params",
                 std::string(what) + " holds " + std::to_string(t.GetSize()) + " elements but the " + name(f) +
                     " shape needs " + std::to_string(need) +
                     (f == DataFormat::NCDHW ? " (H * W padded to a multiple of 32 bytes per [n, c, d] row)" : ""));
    };
    holds(src, srcN, "srcTensor", sf);
    holds(dst, dstN, "dstTensor", df);
    const uint8_t* s8 = reinterpret_cast<const uint8_t*>(src.addr_);
    const uint8_t* d8 = reinterpret_cast<const uint8_t*>(dst.addr_);
    if (s8 < d8 + dstN * ts && d8 < s8 + srcN * ts)
        fail(api, "src and dst overlap", "TransData does not support srcTensor and dstTensor sharing UB addresses");
    check_src(api, src, int64_t(srcN));
    check_dst(api, dst, int64_t(dstN));
    const uint64_t need = tmp_bytes(m, ts);
    hl_check_tmp_bytes(api, tmp, need, need, {{src.addr_, size_t(srcN * ts)}, {dst.addr_, size_t(dstN * ts)}},
                       "GetTransDataMaxMinTmpSize");

    // Index helpers (elements). NCDHW: [N][C][D][HWpad]; NDC1HWC0: [N][D][C1][HW][16];
    // FRACTAL_Z_3D: [D][C1][HW][N1][16][16].
    const uint64_t HW = m.hw(), HWp = m.hw_pad(ts), C1 = m.c1(), N1 = m.n1();
    auto ncdhw = [&](uint64_t n, uint64_t c, uint64_t d, uint64_t k) { return ((n * m.c + c) * m.d + d) * HWp + k; };
    auto ndc1hwc0 = [&](uint64_t n, uint64_t d, uint64_t c) {   // start of the C0 run, plus c % 16
        return (((n * m.d + d) * C1 + c / kC0) * HW) * kC0 + c % kC0;
    };
    auto fz3d = [&](uint64_t n, uint64_t c, uint64_t d) {   // plus k * N1 * 16 * 16 for the hw index
        return ((((d * C1 + c / kC0) * HW) * N1 + n / kC0) * kC0 + n % kC0) * kC0 + c % kC0;
    };
    const uint64_t ndcStep = kC0, fzStep = N1 * kC0 * kC0;   // distance between consecutive hw positions

    std::vector<T> out(dstN);
    if (df == DataFormat::NCDHW) {
        std::memset(static_cast<void*>(out.data()), kPoisonByte, size_t(dstN) * ts);   // the HW pad: invalid data
        for (uint64_t n = 0; n < m.n; ++n)
            for (uint64_t c = 0; c < m.c; ++c)
                for (uint64_t d = 0; d < m.d; ++d) {
                    const uint64_t from = sf == DataFormat::NDC1HWC0 ? ndc1hwc0(n, d, c) : fz3d(n, c, d);
                    const uint64_t step = sf == DataFormat::NDC1HWC0 ? ndcStep : fzStep;
                    for (uint64_t k = 0; k < HW; ++k)
                        std::memcpy(&out[ncdhw(n, c, d, k)], &src.addr_[from + k * step], ts);
                }
    } else {
        std::memset(static_cast<void*>(out.data()), 0, size_t(dstN) * ts);   // C0 / N0 padding slots
        const uint64_t step = df == DataFormat::NDC1HWC0 ? ndcStep : fzStep;
        for (uint64_t n = 0; n < m.n; ++n)
            for (uint64_t c = 0; c < m.c; ++c)
                for (uint64_t d = 0; d < m.d; ++d) {
                    const uint64_t to = df == DataFormat::NDC1HWC0 ? ndc1hwc0(n, d, c) : fz3d(n, c, d);
                    for (uint64_t k = 0; k < HW; ++k)
                        std::memcpy(&out[to + k * step], &src.addr_[ncdhw(n, c, d, k)], ts);
                }
    }
    std::memcpy(static_cast<void*>(dst.addr_), out.data(), size_t(dstN) * ts);
}
}  // namespace trans_data
}  // namespace ascsim

namespace AscendC {
template <const TransDataConfig& config, typename T, typename U, typename S>
__aicore__ inline void TransData(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const TransDataParams<U, S>& params) {
    ::ascsim::trans_data::run<config>(dstTensor, srcTensor, &sharedTmpBuffer, params);
}
template <const TransDataConfig& config, typename T, typename U, typename S>
__aicore__ inline void TransData(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                                 const TransDataParams<U, S>& params) {
    ::ascsim::trans_data::run<config>(dstTensor, srcTensor, nullptr, params);
}
}  // namespace AscendC
#endif  // ASCSIM_KERNEL_HL_TRANS_DATA_H_
