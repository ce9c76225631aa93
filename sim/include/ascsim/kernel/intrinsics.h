// ascsim: raw bisheng vector intrinsics that AscendC kernels mix in (reference §2.10). They take `__ubuf__ T*`
// pointers (plain host addresses here, from LocalTensor::GetPhyAddr()) and use the core's mask register, like the
// hardware. pipe_barrier / set_flag / wait_flag / set_vector_mask / set_mask_* live in sys.h.
// Signatures follow the call sites in real kernels (they are not in the AscendC docs). Also AscendC::TransDataTo5HD,
// the documented API over scatter_vnchwconv_b8/b16/b32.
#ifndef ASCSIM_KERNEL_INTRINSICS_H_
#define ASCSIM_KERNEL_INTRINSICS_H_
#include <cstring>
#include <string>
#include <type_traits>
#include "engine.h"
#include "vec_reduce.h"

namespace ascsim {
// The effective mask of a raw intrinsic: always the mask register (normal or counter mode).
template <class T> inline Mask raw_mask() { return mask_from(uint64_t(0), int(256 / sizeof(T)), false); }
template <class T> inline double up_raw(T v) { return double(float(v)); }
template <typename T> struct NoDeduce { using type = T; };   // std::type_identity (C++20) for this C++17 code
}

// vcadd: per repeat, the sum of the active elements -> dst[r * dstRepStride] (dstRepStride in result elements);
// accMode: everything is summed into the accumulator register (get_acc_val) and dst may be null: T comes from the
// source alone, so kernels pass a bare `nullptr` as dst.
template <typename T>
__aicore__ inline void vcadd(typename ascsim::NoDeduce<T>::type* dst, T* src, uint8_t repeat, uint16_t dstRepStride, uint16_t srcBlkStride,
                             uint16_t srcRepStride, bool accMode = false) {
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, half>, "vcadd supports half and float");
    using namespace ascsim;
    constexpr uint32_t epr = 256 / sizeof(T);
    Mask m = raw_mask<T>();
    Opnd s{reinterpret_cast<uint8_t*>(src), uint32_t(sizeof(T)), srcBlkStride, srcRepStride};
    const Opnd ops[1] = {s};
    uint32_t reps = prepare_repeats("vcadd", m, repeat, epr, ops, 0u);   // the source is only read
    T acc = T(0.0f);
    for (uint32_t r = 0; r < reps; ++r) {
        T sum;
        uint32_t idx = 0;
        reduce_repeat(m, r, epr, ops, RED_SUM, sum, idx);   // the reduce unit's lane tree
        if (accMode) { acc = r ? reduce_add(acc, sum) : sum; continue; }   // repeat sums added in order
        T* d = dst + size_t(r) * dstRepStride;
        check_ub("vcadd", d, sizeof(T));
        sync_v_write("vcadd", d, sizeof(T));
        *d = sum;
    }
    if (accMode) set_acc(acc);
}
// get_acc_val: the accumulator register itself, the sum's bits in the low bytes (kernels reinterpret them as T).
__aicore__ inline int64_t get_acc_val() { return int64_t(::ascsim::core().acc_bits); }

// vector_dup: scalar broadcast through the repeat engine (dst only).
template <typename T, typename S>
__aicore__ inline void vector_dup(T* dst, S value, uint8_t repeat, uint16_t dstBlkStride, uint16_t srcBlkStride,
                                  uint8_t dstRepStride, uint8_t srcRepStride) {
    using namespace ascsim;
    (void)srcBlkStride; (void)srcRepStride;
    constexpr uint32_t epr = 256 / sizeof(T);
    Mask m = raw_mask<T>();
    const Opnd ops[1] = {Opnd{reinterpret_cast<uint8_t*>(dst), uint32_t(sizeof(T)), dstBlkStride, dstRepStride}};
    T v = T(value);
    for_each_active("vector_dup", m, repeat, epr, ops, [&](uint32_t r, uint32_t i) { *reinterpret_cast<T*>(ops[0].at(r, i)) = v; });
}

// vor: bitwise OR of 16-bit lanes.
template <typename T>
__aicore__ inline void vor(T* dst, T* src0, T* src1, uint8_t repeat, uint8_t dstBlkStride, uint8_t src0BlkStride,
                           uint8_t src1BlkStride, uint8_t dstRepStride, uint8_t src0RepStride, uint8_t src1RepStride) {
    static_assert(sizeof(T) == 2, "vor operates on 16-bit lanes");
    using namespace ascsim;
    constexpr uint32_t epr = 128;
    Mask m = raw_mask<T>();
    const Opnd ops[3] = {Opnd{reinterpret_cast<uint8_t*>(dst), 2, dstBlkStride, dstRepStride},
                         Opnd{reinterpret_cast<uint8_t*>(src0), 2, src0BlkStride, src0RepStride},
                         Opnd{reinterpret_cast<uint8_t*>(src1), 2, src1BlkStride, src1RepStride}};
    for_each_active("vor", m, repeat, epr, ops, [&](uint32_t r, uint32_t i) {
        uint16_t a, b;
        std::memcpy(&a, ops[1].at(r, i), 2);
        std::memcpy(&b, ops[2].at(r, i), 2);
        uint16_t c = uint16_t(a | b);
        std::memcpy(ops[0].at(r, i), &c, 2);
    });
}

// vtranspose: one 16x16 matrix of 16-bit elements (512 B), dst = src^T.
template <typename T> __aicore__ inline void vtranspose(T* dst, T* src) {
    static_assert(sizeof(T) == 2, "vtranspose transposes 16x16 matrices of 16-bit elements");
    ascsim::check_ub_aligned("vtranspose", dst);
    ascsim::check_ub_aligned("vtranspose", src);
    ascsim::check_ub("vtranspose", dst, 512);
    ascsim::check_ub("vtranspose", src, 512);
    ascsim::sync_v_read("vtranspose", src, 512);
    ascsim::sync_v_write("vtranspose", dst, 512);
    uint16_t tmp[256];
    std::memcpy(tmp, src, 512);
    uint16_t out[256];
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 16; ++c) out[c * 16 + r] = tmp[r * 16 + c];
    std::memcpy(dst, out, 512);
}

// copy_ubuf_to_ubuf: nBurst bursts of lenBurst 32-byte blocks, gaps in 32-byte blocks.
__aicore__ inline void copy_ubuf_to_ubuf(void* dst, void* src, uint8_t sid, uint16_t nBurst, uint16_t lenBurst,
                                         uint16_t srcGap, uint16_t dstGap) {
    (void)sid;
    auto* d = static_cast<uint8_t*>(dst);
    auto* s = static_cast<uint8_t*>(src);
    ascsim::check_ub_aligned("copy_ubuf_to_ubuf", d);
    ascsim::check_ub_aligned("copy_ubuf_to_ubuf", s);
    for (uint32_t b = 0; b < nBurst; ++b) {
        uint8_t* db = d + size_t(b) * (lenBurst + dstGap) * 32;
        uint8_t* sb = s + size_t(b) * (lenBurst + srcGap) * 32;
        ascsim::check_ub("copy_ubuf_to_ubuf", db, size_t(lenBurst) * 32);
        ascsim::check_ub("copy_ubuf_to_ubuf", sb, size_t(lenBurst) * 32);
        ascsim::sync_v_read("copy_ubuf_to_ubuf", sb, size_t(lenBurst) * 32);
        ascsim::sync_v_write("copy_ubuf_to_ubuf", db, size_t(lenBurst) * 32);
        std::memmove(db, sb, size_t(lenBurst) * 32);
    }
}

// ------------------------------------------------------------------------------ address-list transposes --
// scatter_vnchwconv_b8/b16/b32 (the instruction behind AscendC::TransDataTo5HD). The intrinsic signatures are not
// in the AscendC docs; our reading of the asc_transto5hd C-API page and of kernel call sites:
//   set_va_reg_sb(VAn, const uint64_t addrs[8]);      // loads 8 UB addresses into address register VAn
//   scatter_vnchwconv_b16(VAd, VAs, repeat, dstStride, srcStride);
//   scatter_vnchwconv_b32(VAd, VAs, repeat, dstStride, srcStride);
//   scatter_vnchwconv_b8 (VAd, VAs, repeat, dstStride, srcStride, dstHighHalf, srcHighHalf);
// VAd/VAs name a register pair (VA0/VA2/VA4/VA6 with the next register): 16 destination / 16 source 32 B blocks.
// Strides are in 32 B blocks between repeats; with repeat == 1 the operands start one stride past the listed
// addresses (documented), so kernels pass stride 0 for a single repeat. Per repeat (b = block, [] = element):
//   b16: dst_i[j] = src_j[i]                      i, j < 16 (a 16 x 16 transpose)
//   b32: dst_2i[j] = src_j[i], dst_2i+1[j] = src_8+j[i]   i, j < 8
//   b8:  dst_i[16*dstHigh + j] = src_j[16*srcHigh + i]     i, j < 16 (the other half of dst_i is kept)
// The 3-argument packed config-word form of the intrinsics is not modelled (compile error).
enum ub_addr8_t : uint8_t { VA0 = 0, VA1, VA2, VA3, VA4, VA5, VA6, VA7 };

namespace ascsim {
struct VaRegs {
    uint64_t addr[8][8] = {};
    uint8_t loaded = 0;   // bit n: VAn was written by set_va_reg_sb
};
inline VaRegs& va_regs() {
    static thread_local VaRegs r;   // one per simulated core (each core runs on its own thread)
    return r;
}
inline void vnch_block(const char* api, const char* list, int idx, uint32_t rep, const uint8_t* p) {
    std::string where = std::string(list) + "[" + std::to_string(idx) + "] of repeat " + std::to_string(rep);
    if (!in_ub(p, 32)) {
        std::string at = in_ub(p, 0) ? "UB offset " + std::to_string(ub_offset(p)) : "address " + hexaddr(p);
        fail(api, "VEC instruction error: the ub address out of bounds.",
             where + ": the 32 B block at " + at + " is not inside this core's " + std::to_string(core().ub_size) + " B unified buffer");
    }
    if (ub_offset(p) % 32)
        fail(api, "The UB address accessed by the VEC instruction is not aligned.",
             where + " at UB offset " + std::to_string(ub_offset(p)) + " must be 32-byte aligned");
}
// The instruction itself: 16 destination and 16 source block addresses, `bits` = element width.
inline void vnchwconv(const char* api, int bits, const uint64_t* dst, const uint64_t* src, uint64_t repeat,
                      uint64_t dstStride, uint64_t srcStride, bool dstHigh, bool srcHigh) {
    if (repeat > 255)
        fail(api, "Failed to check repeatTime value", "repeatTime " + std::to_string(repeat) + " outside the valid range 0 ~ 255");
    if (dstStride > 65535 || srcStride > 65535)
        fail(api, "Failed to check repStride value", "dstRepStride " + std::to_string(dstStride) + " / srcRepStride " +
             std::to_string(srcStride) + " must be within 0 ~ 65535 (32 B blocks)");
    if (repeat == 1 && (dstStride || srcStride))
        warn(api, "repeatTimes 1 with a non-zero repStride: the operands start one stride past the listed addresses "
                  "(documented hardware behaviour; pass stride 0 for a single repeat)");
    for (uint32_t r = 0; r < repeat; ++r) {
        uint64_t dOff = (repeat == 1 ? dstStride : uint64_t(r) * dstStride) * 32;
        uint64_t sOff = (repeat == 1 ? srcStride : uint64_t(r) * srcStride) * 32;
        uint8_t in[16][32], out[16][32];
        for (int k = 0; k < 16; ++k) {
            const uint8_t* s = reinterpret_cast<const uint8_t*>(uintptr_t(src[k] + sOff));
            vnch_block(api, "srcList", k, r, s);
            sync_v_read(api, s, 32);
            std::memcpy(in[k], s, 32);
        }
        uint8_t* d[16];
        for (int k = 0; k < 16; ++k) {
            d[k] = reinterpret_cast<uint8_t*>(uintptr_t(dst[k] + dOff));
            vnch_block(api, "dstList", k, r, d[k]);
            sync_v_write(api, d[k], 32);
            std::memcpy(out[k], d[k], 32);   // b8 keeps the other half of each destination block
        }
        if (bits == 16) {
            for (int i = 0; i < 16; ++i)
                for (int j = 0; j < 16; ++j) std::memcpy(&out[i][2 * j], &in[j][2 * i], 2);
        } else if (bits == 32) {
            for (int i = 0; i < 8; ++i)
                for (int j = 0; j < 8; ++j) {
                    std::memcpy(&out[2 * i][4 * j], &in[j][4 * i], 4);
                    std::memcpy(&out[2 * i + 1][4 * j], &in[8 + j][4 * i], 4);
                }
        } else {
            for (int i = 0; i < 16; ++i)
                for (int j = 0; j < 16; ++j) out[i][(dstHigh ? 16 : 0) + j] = in[j][(srcHigh ? 16 : 0) + i];
        }
        for (int k = 0; k < 16; ++k) std::memcpy(d[k], out[k], 32);
    }
}
// The 16 addresses of a register pair.
inline void va_pair(const char* api, const char* role, ub_addr8_t reg, uint64_t out[16]) {
    VaRegs& v = va_regs();
    if (reg % 2)
        fail(api, "illegal address register", std::string(role) + " register VA" + std::to_string(int(reg)) +
             " does not start a register pair (use VA0, VA2, VA4 or VA6)");
    for (int h = 0; h < 2; ++h) {
        int n = reg + h;
        if (!(v.loaded & (1u << n)))
            fail(api, "address register not initialised", std::string(role) + " uses VA" + std::to_string(n) +
                 ", which no set_va_reg_sb loaded");
        std::memcpy(out + 8 * h, v.addr[n], 8 * sizeof(uint64_t));
    }
}
template <int BITS>
inline void scatter_vnchwconv(const char* api, ub_addr8_t dst, ub_addr8_t src, uint64_t repeat, uint64_t dstStride,
                              uint64_t srcStride, bool dstHigh = false, bool srcHigh = false) {
    uint64_t d[16], s[16];
    va_pair(api, "dst", dst, d);
    va_pair(api, "src", src, s);
    vnchwconv(api, BITS, d, s, repeat, dstStride, srcStride, dstHigh, srcHigh);
}
}  // namespace ascsim

// set_va_reg_sb: 8 addresses (uint64_t, from LocalTensor::GetPhyAddr()) into address register VAn.
template <typename P>
__aicore__ inline void set_va_reg_sb(ub_addr8_t reg, P* addrs) {
    static_assert(sizeof(P) == 8, "set_va_reg_sb takes an array of 8 uint64_t addresses");
    ascsim::VaRegs& v = ascsim::va_regs();
    if (int(reg) > 7) ascsim::fail("set_va_reg_sb", "illegal address register", "register " + std::to_string(int(reg)) + " (VA0 ~ VA7)");
    std::memcpy(v.addr[reg], addrs, 8 * sizeof(uint64_t));
    v.loaded = uint8_t(v.loaded | (1u << reg));
}
__aicore__ inline void scatter_vnchwconv_b16(ub_addr8_t dst, ub_addr8_t src, uint64_t repeat, uint64_t dstStride, uint64_t srcStride) {
    ascsim::scatter_vnchwconv<16>("scatter_vnchwconv_b16", dst, src, repeat, dstStride, srcStride);
}
__aicore__ inline void scatter_vnchwconv_b32(ub_addr8_t dst, ub_addr8_t src, uint64_t repeat, uint64_t dstStride, uint64_t srcStride) {
    ascsim::scatter_vnchwconv<32>("scatter_vnchwconv_b32", dst, src, repeat, dstStride, srcStride);
}
__aicore__ inline void scatter_vnchwconv_b8(ub_addr8_t dst, ub_addr8_t src, uint64_t repeat, uint64_t dstStride, uint64_t srcStride,
                                            bool dstHighHalf, bool srcHighHalf) {
    ascsim::scatter_vnchwconv<8>("scatter_vnchwconv_b8", dst, src, repeat, dstStride, srcStride, dstHighHalf, srcHighHalf);
}
// The packed config-word forms (dst, src, uint64_t config) are not modelled: the field layout is undocumented.
template <typename C> inline void scatter_vnchwconv_b16(ub_addr8_t, ub_addr8_t, C) {
    static_assert(sizeof(C) == 0, "ascsim: scatter_vnchwconv_b16 with a packed config word is not simulated; pass repeat, dstStride, srcStride");
}
template <typename C> inline void scatter_vnchwconv_b32(ub_addr8_t, ub_addr8_t, C) {
    static_assert(sizeof(C) == 0, "ascsim: scatter_vnchwconv_b32 with a packed config word is not simulated; pass repeat, dstStride, srcStride");
}

namespace AscendC {
constexpr uint32_t NCHW_CONV_ADDR_LIST_SIZE = 16;
struct TransDataTo5HDParams {
    constexpr TransDataTo5HDParams() = default;
    constexpr TransDataTo5HDParams(const bool dstHigh, const bool srcHigh, const uint8_t repeat, const uint16_t dstStride,
                                   const uint16_t srcStride)
        : dstHighHalf(dstHigh), srcHighHalf(srcHigh), repeatTimes(repeat), dstRepStride(dstStride), srcRepStride(srcStride) {}
    bool dstHighHalf = false;
    bool srcHighHalf = false;
    uint8_t repeatTimes = 1;
    uint16_t dstRepStride = 0;
    uint16_t srcRepStride = 0;
};
namespace ascsim_vnch {
template <typename T> constexpr bool ok_type() {
    return std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t> || std::is_same_v<T, int16_t> ||
           std::is_same_v<T, uint16_t> || std::is_same_v<T, half> || std::is_same_v<T, int32_t> ||
           std::is_same_v<T, uint32_t> || std::is_same_v<T, float>;
}
template <typename T> inline void run(const uint64_t* dst, const uint64_t* src, const TransDataTo5HDParams& p) {
    ascsim::vnchwconv("TransDataTo5HD", int(sizeof(T) * 8), dst, src, p.repeatTimes, p.dstRepStride, p.srcRepStride,
                      p.dstHighHalf, p.srcHighHalf);
}
}  // namespace ascsim_vnch
#define ASCSIM_VNCH_DTYPE_CHECK(T)                                                                                      \
    static_assert(ascsim_vnch::ok_type<T>(), "Failed to check dtype in TransDataTo5HD, current api support dtype "     \
                                             "combination is src and dst both: int8_t / uint8_t / int16_t / uint16_t / " \
                                             "half / int32_t / uint32_t / float")
// dst/src lists of LocalTensors (each the start of one 32 B block).
template <typename T>
__aicore__ inline void TransDataTo5HD(const LocalTensor<T> (&dstList)[NCHW_CONV_ADDR_LIST_SIZE],
                                      const LocalTensor<T> (&srcList)[NCHW_CONV_ADDR_LIST_SIZE], const TransDataTo5HDParams& p) {
    ASCSIM_VNCH_DTYPE_CHECK(T);
    uint64_t d[16], s[16];
    for (int i = 0; i < 16; ++i) { d[i] = dstList[i].GetPhyAddr(); s[i] = srcList[i].GetPhyAddr(); }
    ascsim_vnch::run<T>(d, s, p);
}
// dst/src lists of addresses (LocalTensor::GetPhyAddr()).
template <typename T>
__aicore__ inline void TransDataTo5HD(uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE], uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE],
                                      const TransDataTo5HDParams& p) {
    ASCSIM_VNCH_DTYPE_CHECK(T);
    ascsim_vnch::run<T>(dstList, srcList, p);
}
// dst/src lists of typed UB pointers (`__ubuf__ T* list[16]`, from LocalTensor::GetPhyAddr()): the toolkit's
// TransDataTo5HDImpl, which kernels call directly; not in the docs, the same instruction as the overloads here.
template <typename T>
__aicore__ inline void TransDataTo5HDImpl(T* dstList[NCHW_CONV_ADDR_LIST_SIZE], T* srcList[NCHW_CONV_ADDR_LIST_SIZE],
                                          const TransDataTo5HDParams& p) {
    ASCSIM_VNCH_DTYPE_CHECK(T);
    uint64_t d[16], s[16];
    for (int i = 0; i < 16; ++i) { d[i] = reinterpret_cast<uint64_t>(dstList[i]); s[i] = reinterpret_cast<uint64_t>(srcList[i]); }
    ascsim_vnch::run<T>(d, s, p);
}
// dst/src: uint64_t LocalTensors holding the 16 addresses each, contiguously.
template <typename T>
__aicore__ inline void TransDataTo5HD(const LocalTensor<uint64_t>& dst, const LocalTensor<uint64_t>& src, const TransDataTo5HDParams& p) {
    ASCSIM_VNCH_DTYPE_CHECK(T);
    ascsim::check_ub_aligned("TransDataTo5HD", dst.addr_);
    ascsim::check_ub_aligned("TransDataTo5HD", src.addr_);
    ascsim::check_ub("TransDataTo5HD", dst.addr_, 16 * sizeof(uint64_t));
    ascsim::check_ub("TransDataTo5HD", src.addr_, 16 * sizeof(uint64_t));
    ascsim::sync_v_read("TransDataTo5HD", dst.addr_, 16 * sizeof(uint64_t));
    ascsim::sync_v_read("TransDataTo5HD", src.addr_, 16 * sizeof(uint64_t));
    uint64_t d[16], s[16];
    std::memcpy(d, dst.addr_, sizeof(d));
    std::memcpy(s, src.addr_, sizeof(s));
    ascsim_vnch::run<T>(d, s, p);
}
#undef ASCSIM_VNCH_DTYPE_CHECK
}  // namespace AscendC

#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif
#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif

namespace AscendC {
// Internal toolkit functions that some kernels name on code paths for other chips (not in the AscendC docs, so not
// simulated): declared so that such a path compiles while it is not instantiated, as the device compiler accepts
// it; instantiating one stops the build naming it.
template <typename T> struct AscsimInternalApi { static constexpr bool simulated = false; };
template <typename T>
__aicore__ inline void DuplicateImpl(__ubuf__ T* dst, const T& scalar, const int32_t& count) {
    static_assert(AscsimInternalApi<T>::simulated,
                  "ascsim: AscendC::DuplicateImpl (an internal toolkit function, not in the AscendC docs) is not simulated; call Duplicate");
}
template <typename T>
__aicore__ inline void DataCopyUB2GMImpl(__gm__ T* dst, __ubuf__ T* src, const DataCopyParams& params) {
    static_assert(AscsimInternalApi<T>::simulated,
                  "ascsim: AscendC::DataCopyUB2GMImpl (an internal toolkit function, not in the AscendC docs) is not simulated; call DataCopy");
}
template <typename T>
__aicore__ inline void DataCopyGM2UBImpl(__ubuf__ T* dst, __gm__ T* src, const DataCopyParams& params) {
    static_assert(AscsimInternalApi<T>::simulated,
                  "ascsim: AscendC::DataCopyGM2UBImpl (an internal toolkit function, not in the AscendC docs) is not simulated; call DataCopy");
}
template <typename T, typename U> struct IsSame { static constexpr bool value = false; };
template <typename T> struct IsSame<T, T> { static constexpr bool value = true; };
template <typename T, typename U> struct IsSameType : IsSame<T, U> {};   // the name kernels also use
// compile-time type choice, as std::conditional (kernels pick one of two Matmul types with it)
template <bool cond, typename T, typename F> struct Conditional { using type = T; };
template <typename T, typename F> struct Conditional<false, T, F> { using type = F; };
template <typename T, typename U> __aicore__ inline constexpr auto AlignUp(T a, U b) -> decltype(a + b) {
    return b == 0 ? a : (a + b - 1) / b * b;
}
template <typename T, typename U> __aicore__ inline constexpr auto CeilDivision(T a, U b) -> decltype(a + b) {
    return b == 0 ? a : (a + b - 1) / b;
}
// DivCeil(a, b): a / b rounded up, for the positive operands kernels pass (the AscendC docs' examples call it
// unqualified and as AscendC::DivCeil); a zero divisor answers 0, as the docs give for CeilDivision.
template <typename T, typename U> __aicore__ inline constexpr auto DivCeil(T a, U b) -> decltype(a + b) {
    return b == 0 ? decltype(a + b)(0) : (a + b - 1) / b;
}
}  // namespace AscendC
#endif  // ASCSIM_KERNEL_INTRINSICS_H_
