// ascsim: what the kernel-side quantisation / padding / DropOut APIs (kernel/hl_quant_pad.h) and their host helpers
// (host/quant_pad_tiling.h) share: the plain-struct AscendC::tiling::PadTiling / UnPadTiling and the temporary-buffer
// models, so host and kernel always agree. Included by both, defined once per translation unit.
//
// The docs name PadTiling / UnPadTiling but not their fields; the fields below are the simulator's own: the shapes
// the kernel-side Pad / UnPad read (they take no shape argument) plus the rows one pass handles in the temporary
// buffer the tiling was built for.
#ifndef ASCSIM_ASCSIM_QUANT_PAD_COMMON_H_
#define ASCSIM_ASCSIM_QUANT_PAD_COMMON_H_
#include <cstdint>
#include <type_traits>
#include <utility>

namespace AscendC {
namespace tiling {
// Each converts to the struct the build generates from the optiling class of the same name (same field names), so
// `tilingData.padTilingData = t` works as it does for SoftMaxTiling.
struct PadTiling {
    uint32_t srcHeight = 0, srcWidth = 0, srcOriWidth = 0, dstWidth = 0, typeSize = 0, rowsPerLoop = 0,
             tmpBufferSize = 0;
    template <class S, class = std::enable_if_t<!std::is_same_v<S, PadTiling> &&
                                                std::is_same_v<decltype(std::declval<S&>().srcOriWidth), uint32_t>>>
    constexpr operator S() const {
        S s{};
        s.srcHeight = srcHeight; s.srcWidth = srcWidth; s.srcOriWidth = srcOriWidth; s.dstWidth = dstWidth;
        s.typeSize = typeSize; s.rowsPerLoop = rowsPerLoop; s.tmpBufferSize = tmpBufferSize;
        return s;
    }
};
struct UnPadTiling {
    uint32_t srcHeight = 0, srcWidth = 0, typeSize = 0, rowsPerLoop = 0, tmpBufferSize = 0;
    template <class S, class = std::enable_if_t<!std::is_same_v<S, UnPadTiling> &&
                                                std::is_same_v<decltype(std::declval<S&>().rowsPerLoop), uint32_t>>>
    constexpr operator S() const {
        S s{};
        s.srcHeight = srcHeight; s.srcWidth = srcWidth; s.typeSize = typeSize; s.rowsPerLoop = rowsPerLoop;
        s.tmpBufferSize = tmpBufferSize;
        return s;
    }
};
}  // namespace tiling
}  // namespace AscendC

namespace ascsim_qp {
// Temporary-buffer model (the simulator's, as in kernel/hl_math.h; the docs give no sizes): an API keeps `live`
// float vectors of its element count; min = live * 256 B, max = live * align32(count * 4) B.
// AscendQuant: the two half intermediates of its Mul(s) / Add(s) stages (Tmp1, Tmp2 of the docs' diagram).
// AscendDequant: the float copies of the source and of deqScale. AscendAntiQuant: half output works in one half
// vector, bfloat16 output in two float ones (tmp1 / tmp2 of the docs' bf16 diagram). DropOut: one (the select mask).
constexpr uint32_t kQuantLive = 2, kDequantLive = 2, kDropOutLive = 1;
constexpr uint32_t antiquant_live(bool bf16_out) { return bf16_out ? 2u : 1u; }
constexpr uint64_t round_up32(uint64_t v) { return (v + 31u) / 32u * 32u; }
constexpr uint32_t live_min(uint32_t live) { return live * 256u; }
constexpr uint32_t live_max(uint32_t live, uint64_t count) {
    const uint64_t mx = uint64_t(live) * round_up32(count * 4u);
    return uint32_t(mx < live_min(live) ? live_min(live) : mx);
}

// Pad / UnPad model: the API passes rows through the temporary buffer, one 32-byte-aligned row of the padded
// (Pad: align32(width)) or source (UnPad) width per row. min = one row, max = every row.
constexpr uint32_t pad_row_bytes(uint32_t width, uint32_t ts) { return uint32_t(round_up32(uint64_t(width) * ts)); }
// The rows of `height` that fit in `bytes` (0 when not even one does).
constexpr uint32_t rows_in(uint32_t row_bytes, uint32_t height, uint32_t bytes) {
    if (row_bytes == 0) return 0;
    const uint32_t rows = bytes / row_bytes;
    return rows > height ? height : rows;
}
// Tilings of a [height, width] source; an empty shape or a typeSize other than 2 / 4 (the APIs' data types) gives
// all zeros, which the kernel reports as a tiling PadTilingFunc / UnPadTilingFunc did not fill.
constexpr AscendC::tiling::PadTiling pad_tiling(uint32_t h, uint32_t w, uint32_t ow, uint32_t stack, uint32_t ts) {
    AscendC::tiling::PadTiling t;
    if (h == 0 || w == 0 || (ts != 2 && ts != 4)) return t;
    const uint32_t row = pad_row_bytes(w, ts);
    t.srcHeight = h; t.srcWidth = w; t.srcOriWidth = ow; t.dstWidth = row / ts; t.typeSize = ts;
    t.rowsPerLoop = rows_in(row, h, stack);
    t.tmpBufferSize = t.rowsPerLoop * row;
    return t;
}
constexpr AscendC::tiling::UnPadTiling unpad_tiling(uint32_t h, uint32_t w, uint32_t stack, uint32_t ts) {
    AscendC::tiling::UnPadTiling t;
    if (h == 0 || w == 0 || (ts != 2 && ts != 4)) return t;
    const uint32_t row = pad_row_bytes(w, ts);
    t.srcHeight = h; t.srcWidth = w; t.typeSize = ts;
    t.rowsPerLoop = rows_in(row, h, stack);
    t.tmpBufferSize = t.rowsPerLoop * row;
    return t;
}
}  // namespace ascsim_qp
#endif  // ASCSIM_ASCSIM_QUANT_PAD_COMMON_H_
