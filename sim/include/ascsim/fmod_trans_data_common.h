// ascsim: what the kernel side of Fmod / TransData (kernel/hl_fmod.h, kernel/hl_trans_data.h) and their host size
// functions (host/fmod_trans_data_tiling.h) share: TransDataConfig, the TransData shape rules, and both APIs'
// temporary-buffer models (the docs give no sizes; the kernel checks against exactly what the host reports).
// Free of the Layout family on purpose, so host code that includes the tiling headers does not see AscendC::Shape.
#ifndef ASCSIM_FMOD_TRANS_DATA_COMMON_H_
#define ASCSIM_FMOD_TRANS_DATA_COMMON_H_
#include <cstdint>
#include <string>
#include <vector>
#include "kernel/defs.h"   // AscendC::DataFormat (ShapeInfo uses it too)

namespace AscendC {
#ifndef ASCSIM_HAVE_TRANS_DATA_CONFIG
#define ASCSIM_HAVE_TRANS_DATA_CONFIG
// Which conversion a TransData call performs.
struct TransDataConfig {
    DataFormat srcFormat;
    DataFormat dstFormat;
};
#endif
}  // namespace AscendC

namespace ascsim {
// Fmod's temp model: float vectors kept for an element type of `typeSize` bytes (2: half, 4: float), sized by
// hl_math.h's live-vector rule (at least live * 256 B, at most live * align32(count * 4) B).
constexpr uint32_t fmod_live(uint32_t typeSize) { return typeSize == 2 ? 3u : 1u; }

namespace trans_data {
using AscendC::DataFormat;
constexpr uint64_t kC0 = 16;   // C0 and N0 for 2-byte types

// The four conversions the docs list.
constexpr bool supported(DataFormat s, DataFormat d) {
    return (s == DataFormat::NCDHW && (d == DataFormat::NDC1HWC0 || d == DataFormat::FRACTAL_Z_3D)) ||
           (d == DataFormat::NCDHW && (s == DataFormat::NDC1HWC0 || s == DataFormat::FRACTAL_Z_3D));
}
inline const char* name(DataFormat f) {
    switch (f) {
        case DataFormat::ND: return "ND";
        case DataFormat::NZ: return "NZ";
        case DataFormat::NCHW: return "NCHW";
        case DataFormat::NC1HWC0: return "NC1HWC0";
        case DataFormat::NHWC: return "NHWC";
        case DataFormat::NCDHW: return "NCDHW";
        case DataFormat::NDC1HWC0: return "NDC1HWC0";
        case DataFormat::FRACTAL_Z_3D: return "FRACTAL_Z_3D";
    }
    return "an unknown DataFormat";
}

// The logical sizes both sides agree on, and the derived ones.
struct Dims {
    uint64_t n = 0, c = 0, d = 0, h = 0, w = 0;
    uint64_t c1() const { return (c + kC0 - 1) / kC0; }
    uint64_t n1() const { return (n + kC0 - 1) / kC0; }
    uint64_t hw() const { return h * w; }
    uint64_t hw_pad(uint32_t typeSize) const { const uint64_t u = 32 / typeSize; return (hw() + u - 1) / u * u; }
};

inline std::string dims_text(const std::vector<int64_t>& v) {
    std::string s = "[";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "]";
}

// Reads and cross-checks the two shapes; returns "" when they describe one tensor in the two formats, else what is
// wrong (the kernel fails with it, the host answers false).
inline std::string parse(DataFormat sf, DataFormat df, const std::vector<int64_t>& src, const std::vector<int64_t>& dst,
                         Dims& out) {
    if (!supported(sf, df))
        return std::string("the conversion ") + name(sf) + " -> " + name(df) +
               " is not supported (NCDHW <-> NDC1HWC0 and NCDHW <-> FRACTAL_Z_3D are)";
    auto rank = [](DataFormat f) { return f == DataFormat::NCDHW ? 5u : f == DataFormat::NDC1HWC0 ? 6u : 7u; };
    if (src.size() != rank(sf) || dst.size() != rank(df))
        return std::string("a ") + name(sf) + " source shape has " + std::to_string(rank(sf)) + " dimensions and a " +
               name(df) + " destination shape " + std::to_string(rank(df)) + "; got " + dims_text(src) + " and " +
               dims_text(dst);
    for (const auto* v : {&src, &dst})
        for (int64_t x : *v)
            if (x <= 0) return "every dimension must be positive; got " + dims_text(src) + " and " + dims_text(dst);
    const bool fromNcdhw = sf == DataFormat::NCDHW;
    const std::vector<int64_t>& plain = fromNcdhw ? src : dst;   // N, C, D, H, W
    const std::vector<int64_t>& packed = fromNcdhw ? dst : src;
    const DataFormat pf = fromNcdhw ? df : sf;
    out.n = uint64_t(plain[0]), out.c = uint64_t(plain[1]), out.d = uint64_t(plain[2]), out.h = uint64_t(plain[3]),
    out.w = uint64_t(plain[4]);
    std::vector<int64_t> want;
    if (pf == DataFormat::NDC1HWC0)
        want = {int64_t(out.n), int64_t(out.d), int64_t(out.c1()), int64_t(out.h), int64_t(out.w), int64_t(kC0)};
    else
        want = {int64_t(out.d), int64_t(out.c1()), int64_t(out.h), int64_t(out.w), int64_t(out.n1()), int64_t(kC0),
                int64_t(kC0)};
    if (packed != want)
        return std::string("the ") + name(pf) + " shape " + dims_text(packed) + " does not match the NCDHW shape " +
               dims_text(plain) + ": expected " + dims_text(want) + " (C1 = ceil(C / 16)" +
               (pf == DataFormat::FRACTAL_Z_3D ? ", N1 = ceil(N / 16)" : "") + ", C0 = 16" +
               (pf == DataFormat::FRACTAL_Z_3D ? ", N0 = 16" : "") + ")";
    return "";
}

// Elements a tensor of format f occupies in UB (the NCDHW side with its padded HW axis).
inline uint64_t footprint(DataFormat f, const Dims& m, uint32_t typeSize) {
    if (f == DataFormat::NCDHW) return m.n * m.c * m.d * m.hw_pad(typeSize);
    if (f == DataFormat::NDC1HWC0) return m.n * m.d * m.c1() * m.hw() * kC0;
    return m.d * m.c1() * m.hw() * m.n1() * kC0 * kC0;
}

// The temp model: one (n, d) plane with C padded to C1 * C0 and HW to 32 bytes (min == max).
inline uint64_t tmp_bytes(const Dims& m, uint32_t typeSize) { return m.c1() * kC0 * m.hw_pad(typeSize) * typeSize; }

}  // namespace trans_data
}  // namespace ascsim
#endif  // ASCSIM_FMOD_TRANS_DATA_COMMON_H_
