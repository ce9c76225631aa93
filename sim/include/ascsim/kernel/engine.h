// ascsim kernel side: the vector repeat engine shared by every level-0 API, plus count-form helpers.
// One repeat = 8 blocks x 32 B; operand element i of repeat r lives at
//   base + (r * repStride + (i / elemsPerBlock) * blkStride) * 32 B + (i % elemsPerBlock) * sizeof(elem).
#ifndef ASCSIM_ASCSIM_KERNEL_ENGINE_H_
#define ASCSIM_ASCSIM_KERNEL_ENGINE_H_
#include <algorithm>
#include <string>
#include "tensor.h"

namespace ascsim {

struct Mask {                // the effective mask of one level-0 call
    bool counter = false;    // counter mode: `total` elements, repeats derived
    uint64_t total = 0;
    uint64_t bits[2] = {0, 0};
};

// Continuous mask: first `m` elements of each repeat (clamped to the repeat width).
inline Mask mask_from(uint64_t m, int epr, bool isSetMask) {
    Mask k;
    auto& c = core();
    if (c.counter_mode) { k.counter = true; k.total = isSetMask ? m : c.mask[0]; return k; }
    if (!isSetMask) { k.bits[0] = c.mask[0]; k.bits[1] = epr > 64 ? c.mask[1] : 0; return k; }
    uint64_t n = std::min<uint64_t>(m, uint64_t(epr));
    k.bits[0] = n >= 64 ? ~0ull : ((1ull << n) - 1);
    k.bits[1] = n > 64 ? (n >= 128 ? ~0ull : ((1ull << (n - 64)) - 1)) : 0;
    return k;
}
inline Mask mask_from(const uint64_t* m, int epr, bool isSetMask) {
    Mask k;
    auto& c = core();
    if (c.counter_mode) { k.counter = true; k.total = isSetMask ? m[0] : c.mask[0]; return k; }
    const uint64_t* src = isSetMask ? m : c.mask;
    k.bits[0] = src[0];
    k.bits[1] = epr > 64 ? src[1] : 0;
    return k;
}

struct Opnd {
    uint8_t* base;
    uint32_t esize;
    uint32_t blk;   // block stride (32 B units)
    uint32_t rep;   // repeat stride (32 B units)
    bool nibble = false;   // int4b_t: 64 elements per block, two per byte (esize is then 1, the byte that holds one)
    uint8_t* at(uint32_t r, uint32_t i) const {
        if (nibble) return base + (size_t(r) * rep + size_t(i / 64u) * blk) * 32u + size_t(i % 64u) / 2u;
        uint32_t epb = 32u / esize;
        return base + (size_t(r) * rep + size_t(i / epb) * blk) * 32u + size_t(i % epb) * esize;
    }
};

inline bool bit(const Mask& m, uint32_t i) { return (m.bits[i >> 6] >> (i & 63)) & 1ull; }

// Checks operand placement for a level-0 call and returns the number of repeats to run. For the missing-sync
// detector (PIPE_V accesses) the first `ndst` operands are written and the others read; by default (kDstUnknown)
// ops[0] has an unknown role.
constexpr uint32_t kDstUnknown = ~0u;
template <size_t N>
inline uint32_t prepare_repeats(const char* api, const Mask& m, uint32_t repeat, uint32_t epr, const Opnd (&ops)[N],
                                uint32_t ndst = kDstUnknown) {
    if (!m.counter && repeat > 255)
        fail(api, "Failed to check repeatTime value", "repeatTime " + std::to_string(repeat) + " outside the valid range 0 ~ 255");
    uint32_t reps = m.counter ? uint32_t((m.total + epr - 1) / epr) : repeat;
    if (reps == 0) return 0;
    if (!m.counter && m.bits[0] == 0 && m.bits[1] == 0) return 0;
    uint32_t last = epr - 1;
    if (!m.counter) { while (last > 0 && !bit(m, last)) --last; }
    for (size_t k = 0; k < N; ++k) {
        const Opnd& o = ops[k];
        check_ub_aligned(api, o.base);
        uint8_t* e1 = o.at(reps - 1, m.counter ? uint32_t((m.total - 1) % epr) : last) + o.esize;
        uint8_t* e2 = reps > 1 ? o.at(reps - 2, last) + o.esize : e1;
        uint8_t* end = std::max(e1, e2);
        if (end > core().ub + core().ub_size) fail_ub_bounds(api, o.base, size_t(end - o.base));
        sync_ub(kPipeV, api, o.base, size_t(end - o.base), ndst == kDstUnknown ? (k == 0 ? kUnknownRole : kRead) : k < ndst ? kWrite : kRead);
    }
    return reps;
}

// Runs f(r, i) for every active element i of every repeat r (ops[0] is the destination; the overload with `ndst`
// says how many leading operands are written).
template <size_t N, class F>
inline void for_each_active(const char* api, uint32_t ndst, const Mask& m, uint32_t repeat, uint32_t epr, const Opnd (&ops)[N],
                            F&& f) {
    uint32_t reps = prepare_repeats(api, m, repeat, epr, ops, ndst);
    for (uint32_t r = 0; r < reps; ++r) {
        if (m.counter) {
            uint64_t left = m.total - uint64_t(r) * epr;
            uint32_t n = uint32_t(std::min<uint64_t>(left, epr));
            for (uint32_t i = 0; i < n; ++i) f(r, i);
        } else {
            for (uint32_t i = 0; i < epr; ++i) if (bit(m, i)) f(r, i);
        }
    }
}
template <size_t N, class F>
inline void for_each_active(const char* api, const Mask& m, uint32_t repeat, uint32_t epr, const Opnd (&ops)[N], F&& f) {
    for_each_active(api, 1u, m, repeat, epr, ops, static_cast<F&&>(f));
}

// Count-form placement check: `count` contiguous elements from each operand. For the missing-sync detector
// check_dst marks the operand as written by PIPE_V, check_src as read, check_count as an operand of unknown role.
template <class T>
inline bool check_count_as(const char* api, const AscendC::LocalTensor<T>& t, int64_t count, uint64_t esize, int role) {
    if (count <= 0) return false;
    check_ub_aligned(api, t.addr_);
    // an int4b_t tensor counts nibbles whatever esize says
    uint64_t bytes = is_int4_v<T> ? bytes_of<T>(uint64_t(count)) : uint64_t(count) * esize;
    check_ub(api, t.addr_, bytes);
    if (bytes > bytes_of<T>(t.size_))
        warn(api, "tensor size overflow: " + std::to_string(count) + " elements requested from a tensor of " +
                  std::to_string(is_int4_v<T> ? uint64_t(t.size_) : bytes_of<T>(t.size_) / esize) +
                  " (CPU-debug would reject this)");
    sync_ub(kPipeV, api, t.addr_, size_t(bytes), role);
    return true;
}
template <class T>
inline bool check_count(const char* api, const AscendC::LocalTensor<T>& t, int64_t count, uint64_t esize = sizeof(T)) {
    return check_count_as(api, t, count, esize, kUnknownRole);
}
template <class T>
inline bool check_dst(const char* api, const AscendC::LocalTensor<T>& t, int64_t count, uint64_t esize = sizeof(T)) {
    return check_count_as(api, t, count, esize, kWrite);
}
template <class T>
inline bool check_src(const char* api, const AscendC::LocalTensor<T>& t, int64_t count, uint64_t esize = sizeof(T)) {
    return check_count_as(api, t, count, esize, kRead);
}

template <class T> inline constexpr uint32_t elems_per_repeat() { return 256u / sizeof(T); }

}  // namespace ascsim
#endif  // ASCSIM_ASCSIM_KERNEL_ENGINE_H_
