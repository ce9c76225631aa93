// ascsim: the smallest temporary buffer (bytes) of the shape-driven high-level APIs, shared by the kernel and the
// host: the pattern reductions (ReduceSum/Mean/Max/Min/Prod/Any/All with Pattern::Reduce::AR / RA), CumSum and
// Broadcast. The host reports it through GetXxxMaxMinTmpSize, the kernel checks a sharedTmpBuffer (or the free UB)
// against it. Sizes as the toolkit's tiling functions report them on Atlas A2.
#ifndef ASCSIM_HL_COMMON_H_
#define ASCSIM_HL_COMMON_H_
#include <cstdint>

namespace AscendC {
// The reduction pattern the tiling functions and NormalizeConfig name (A: kept axis, R: reduced axis, per dim).
enum class ReducePattern : uint32_t {
    AR = 0, RA = 1, R, ARA, ARAR, ARARA, ARARAR, ARARARA, ARARARAR, ARARARARA, RAR, RARA, RARAR, RARARA, RARARAR, RARARARA
};
}  // namespace AscendC

namespace ascsim {
enum class HlReduce { SUM, MEAN, MAX, MIN, PROD, ANY, ALL };

// The largest power of two not above n (1 for n == 0), halved when it is n itself and more than one row is folded:
// the part of the reduced axis the API keeps as partial results.
inline uint64_t hl_reduce_kept(uint64_t n, uint64_t rows) {
    uint64_t k = 1;
    while (k * 2 <= n) k *= 2;
    if (k == n && rows > 1) k /= 2;
    return k;
}
inline uint64_t hl_round_up(uint64_t v, uint64_t unit) { return (v + unit - 1) / unit * unit; }

inline uint32_t hl_reduce_min_tmp(HlReduce op, uint32_t ts, bool ar, uint32_t first, uint32_t last, bool reuse) {
    uint64_t bytes = 0;
    switch (op) {
        case HlReduce::SUM:
        case HlReduce::MEAN:
            if (reuse) break;
            if (ar) bytes = last <= 64 ? 0 : uint64_t(first) * hl_reduce_kept(last, first) * 4;
            else bytes = hl_reduce_kept(first, first) * hl_round_up(last, 8) * 4;
            break;
        case HlReduce::PROD:
            if (ar) bytes = reuse ? 256 : ((hl_reduce_kept(last, first) > 8 ? hl_reduce_kept(last, first) : 8) + uint64_t(first) * 8) * 4 + 256;
            else bytes = reuse ? 0 : hl_reduce_kept(first, first) * hl_round_up(uint64_t(last) * 4, 32);
            break;
        default:   // MAX, MIN, and ANY / ALL
            if ((op == HlReduce::ANY || op == HlReduce::ALL) && ts == 1) {
                if (ar) bytes = hl_round_up(last, 32) * 2 + uint64_t(first) * 32;
                else bytes = reuse ? 0 : hl_reduce_kept(first, first) * hl_round_up(last, 32);
                break;
            }
            if (reuse) break;
            if (ar) {
                const uint64_t block = 32 / ts, repeat = 256 / ts;
                bytes = last <= block ? 0 : uint64_t(first) * (last < repeat ? block : repeat) * ts;
            } else {
                bytes = hl_reduce_kept(first, first) * hl_round_up(uint64_t(last) * ts, 32);
            }
    }
    return uint32_t(bytes);
}

// CumSum over [outter, inner] (inner 32-byte aligned). Along the first axis, half accumulates in a float copy of the
// whole tensor; along the last axis the API transposes 16 rows at a time (float: two float copies of the 16 rows;
// half: one half and two float ones). The largest size is the same for all rows (outter rounded up to 16).
inline uint32_t cumsum_min_tmp(uint32_t ts, bool last_axis, uint32_t outter, uint32_t inner, bool largest = false) {
    const uint64_t rows = largest ? hl_round_up(outter, 16) : 16;
    if (!last_axis) return ts == 2 ? uint32_t(uint64_t(outter) * inner * 4) : 0;
    return uint32_t(ts == 4 ? rows * inner * 8 : rows * inner * 6);
}

// Broadcast of a [m, k] result (dim 1: m = 1) from `src_elems` source elements along `axis`. 1-byte types run as
// half, through two half copies of source and result. A plain copy or a one-element fill needs no buffer beyond that.
inline uint32_t broadcast_min_tmp(uint32_t ts, uint32_t m, uint32_t k, uint64_t src_elems, int axis, bool largest = false) {
    uint64_t cast = 0;
    const uint64_t dst_elems = uint64_t(m) * k;
    if (ts == 1) {
        cast = (hl_round_up(src_elems, 16) + hl_round_up(dst_elems, 16)) * 2;
        ts = 2;
    }
    if (src_elems == dst_elems || src_elems == 1) return uint32_t(cast ? cast + 32 : 0);
    if (axis == 0) return uint32_t(32 + cast);
    const uint64_t e = 32 / ts, rows = largest ? hl_round_up(m, 8) : e;
    uint64_t bytes = rows * e * ts;
    if (k % e) bytes += (largest ? m : e) * hl_round_up(k, e) * ts;
    return uint32_t(bytes + cast);
}
}  // namespace ascsim
#endif  // ASCSIM_HL_COMMON_H_
