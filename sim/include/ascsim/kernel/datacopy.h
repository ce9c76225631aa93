// ascsim kernel side: data movement. Units differ by API (a frequent bug source):
//   DataCopy: count in elements, DataCopyParams blockLen/gaps in 32-byte blocks; transfers round DOWN to 32 B.
//   DataCopyPad (Ext): blockLen in bytes; GM-side stride in bytes, UB-side stride in 32-byte blocks.
//   legacy DataCopyPad(DataCopyParams): same struct as DataCopy but blockLen in bytes.
#ifndef ASCSIM_ASCSIM_KERNEL_DATACOPY_H_
#define ASCSIM_ASCSIM_KERNEL_DATACOPY_H_
#include "cube_mem.h"
#include "engine.h"
#include "vec_cast.h"

namespace ascsim {
template <class T> inline void gm_store(T* dst, const T* src, size_t n, const char* api) {
    n = gm_backed(dst, n * sizeof(T), true, api) / sizeof(T);
    auto& c = core();
    if (c.atomic_op == 0) { std::memcpy(dst, src, n * sizeof(T)); return; }
    for (size_t i = 0; i < n; ++i) {
        auto a = up(dst[i]), b = up(src[i]);
        if (c.atomic_op == 1) dst[i] = T(a + b);
        else if (c.atomic_op == 2) dst[i] = a > b ? dst[i] : src[i];
        else dst[i] = a < b ? dst[i] : src[i];
    }
}
inline void gm_load(void* dst, const void* src, size_t bytes, const char* api) {
    size_t have = gm_backed(src, bytes, false, api);
    std::memcpy(dst, src, have);
    std::memset(static_cast<uint8_t*>(dst) + have, kGmPoison, bytes - have);   // unbacked free memory reads as poison
}
inline uint32_t round_down_32(const char* api, uint64_t bytes) {
    if (bytes % 32)
        warn(api, "count * sizeof(T) = " + std::to_string(bytes) + " B is not a multiple of 32 B; the hardware silently "
                  "transfers only " + std::to_string(bytes / 32 * 32) + " B (tail elements are not copied)");
    return uint32_t(bytes / 32 * 32);
}
inline void check_gm_elem_align(const char* api, const void* p, size_t esize) {
    if (reinterpret_cast<uintptr_t>(p) % esize)
        fail(api, "The DDR address of the MTE instruction is not aligned.", "GM address " + hexaddr(p) + " is not aligned to sizeof(T)");
}
inline void check_block_count(const char* api, uint32_t blockCount) {
    if (blockCount > 4095)
        fail(api, "Failed to check blockCount value", "blockCount " + std::to_string(blockCount) + " outside the valid range 1 ~ 4095");
}
// A GlobalTensor -> LocalTensor DataCopy into the L1 of an AIC (TPosition A1/B1/C1) is the documented GM -> L1
// transfer: the same units as GM -> UB (count rounded down to 32 B; DataCopyParams in 32 B blocks), the L1 address
// 32 B-aligned, the GM address 1 B-aligned; it runs on MTE2.
inline bool is_l1(const void* p) { return core().core_type == 1 && cube_pool_of(p) == POOL_L1; }
inline void gm_to_l1(const char* api, void* d, const void* s, size_t bytes) {
    check_in_pool(api, "dst", d, POOL_L1, 32, bytes);
    sync_cube(kPipeMte2, api, d, bytes, kWrite);
    gm_load(d, s, bytes, api);
}
// A LocalTensor -> LocalTensor DataCopy whose destination is the BiasTable (C2) of an AIC is the L1 -> BiasTable
// transfer (cube_api.h); every other one is a UB -> UB copy.
inline bool is_bias_table(const void* p) { return core().core_type == 1 && cube_pool_of(p) == POOL_BT; }
template <class T, class U>
void copy_l1_to_bt(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& src, uint32_t blockCount,
                   uint64_t srcBlockBytes, uint32_t srcGap, uint32_t dstGap);
}  // namespace ascsim

namespace AscendC {

template <typename T> __aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const uint32_t count) {
    if (count == 0) return;
    uint32_t bytes = ::ascsim::round_down_32("DataCopy", ::ascsim::bytes_of<T>(count));
    if (::ascsim::is_l1(dst.addr_)) return ::ascsim::gm_to_l1("DataCopy(GM -> L1)", dst.addr_, src.addr_, bytes);
    ::ascsim::check_ub_aligned("DataCopy", dst.addr_);
    ::ascsim::check_gm_elem_align("DataCopy", src.addr_, sizeof(T));
    ::ascsim::check_ub("DataCopy", dst.addr_, bytes);
    ::ascsim::sync_ub(::ascsim::kPipeMte2, "DataCopy", dst.addr_, bytes, ::ascsim::kWrite);
    ::ascsim::gm_load(dst.addr_, src.addr_, bytes, "DataCopy");
}
template <typename T> __aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count) {
    if (count == 0) return;
    uint32_t bytes = ::ascsim::round_down_32("DataCopy", ::ascsim::bytes_of<T>(count));
    ::ascsim::check_ub_aligned("DataCopy", src.addr_);
    ::ascsim::check_gm_elem_align("DataCopy", dst.addr_, sizeof(T));
    ::ascsim::check_ub("DataCopy", src.addr_, bytes);
    ::ascsim::sync_ub(::ascsim::kPipeMte3, "DataCopy", src.addr_, bytes, ::ascsim::kRead);
    ::ascsim::gm_store(dst.addr_, src.addr_, bytes / sizeof(T), "DataCopy");
}
template <typename T> __aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count) {
    if (count == 0) return;
    uint32_t bytes = ::ascsim::round_down_32("DataCopy", ::ascsim::bytes_of<T>(count));
    if (::ascsim::is_bias_table(dst.addr_)) return ::ascsim::copy_l1_to_bt(dst, src, 1, bytes, 0, 0);
    ::ascsim::check_ub_aligned("DataCopy", dst.addr_);
    ::ascsim::check_ub_aligned("DataCopy", src.addr_);
    ::ascsim::check_ub("DataCopy", dst.addr_, bytes);
    ::ascsim::check_ub("DataCopy", src.addr_, bytes);
    ::ascsim::sync_v_read("DataCopy", src.addr_, bytes);
    ::ascsim::sync_v_write("DataCopy", dst.addr_, bytes);
    std::memmove(dst.addr_, src.addr_, bytes);
}
template <typename T> __aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p) {
    ::ascsim::check_block_count("DataCopy", p.blockCount);
    if (::ascsim::is_l1(dst.addr_)) {
        if (p.blockCount == 0 || p.blockLen == 0) return;
        size_t len = size_t(p.blockLen) * 32;
        for (uint32_t b = 0; b < p.blockCount; ++b)
            ::ascsim::gm_to_l1("DataCopy(GM -> L1)", (uint8_t*)dst.addr_ + b * (len + size_t(p.dstStride) * 32),
                               (const uint8_t*)src.addr_ + b * (len + size_t(p.srcStride) * 32), len);
        return;
    }
    ::ascsim::check_ub_aligned("DataCopy", dst.addr_);
    ::ascsim::check_gm_elem_align("DataCopy", src.addr_, sizeof(T));
    size_t len = size_t(p.blockLen) * 32;
    for (uint32_t b = 0; b < p.blockCount; ++b) {
        uint8_t* d = (uint8_t*)dst.addr_ + b * (len + size_t(p.dstStride) * 32);
        const uint8_t* s = (const uint8_t*)src.addr_ + b * (len + size_t(p.srcStride) * 32);
        ::ascsim::check_ub("DataCopy", d, len);
        ::ascsim::sync_ub(::ascsim::kPipeMte2, "DataCopy", d, len, ::ascsim::kWrite);
        ::ascsim::gm_load(d, s, len, "DataCopy");
    }
}
template <typename T> __aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p) {
    ::ascsim::check_block_count("DataCopy", p.blockCount);
    ::ascsim::check_ub_aligned("DataCopy", src.addr_);
    ::ascsim::check_gm_elem_align("DataCopy", dst.addr_, sizeof(T));
    size_t len = size_t(p.blockLen) * 32;
    for (uint32_t b = 0; b < p.blockCount; ++b) {
        const uint8_t* s = (const uint8_t*)src.addr_ + b * (len + size_t(p.srcStride) * 32);
        uint8_t* d = (uint8_t*)dst.addr_ + b * (len + size_t(p.dstStride) * 32);
        ::ascsim::check_ub("DataCopy", s, len);
        ::ascsim::sync_ub(::ascsim::kPipeMte3, "DataCopy", s, len, ::ascsim::kRead);
        ::ascsim::gm_store((T*)d, (const T*)s, len / sizeof(T), "DataCopy");
    }
}
template <typename T> __aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p) {
    ::ascsim::check_block_count("DataCopy", p.blockCount);
    if (::ascsim::is_bias_table(dst.addr_))   // L1 -> BiasTable: blockLen in 64 B units on arch 2201
        return ::ascsim::copy_l1_to_bt(dst, src, p.blockCount, uint64_t(p.blockLen) * 64, p.srcStride, p.dstStride);
    ::ascsim::check_ub_aligned("DataCopy", dst.addr_);
    ::ascsim::check_ub_aligned("DataCopy", src.addr_);
    size_t len = size_t(p.blockLen) * 32;
    for (uint32_t b = 0; b < p.blockCount; ++b) {
        uint8_t* d = (uint8_t*)dst.addr_ + b * (len + size_t(p.dstStride) * 32);
        const uint8_t* s = (const uint8_t*)src.addr_ + b * (len + size_t(p.srcStride) * 32);
        ::ascsim::check_ub("DataCopy", d, len);
        ::ascsim::check_ub("DataCopy", s, len);
        ::ascsim::sync_v_read("DataCopy", s, len);
        ::ascsim::sync_v_write("DataCopy", d, len);
        std::memmove(d, s, len);
    }
}

namespace detail_pad {
template <class T>
inline void gm_to_ub(const LocalTensor<T>& dst, const GlobalTensor<T>& src, uint32_t blockCount, uint32_t blockLen,
                     uint64_t gmGapBytes, uint64_t ubGapBlocks, bool isPad, uint8_t left, uint8_t right, T padValue) {
    const char* api = "DataCopyPad";
    ::ascsim::check_block_count(api, blockCount);
    if (blockLen > 2097151) ::ascsim::fail(api, "Failed to check blockLen value", "blockLen " + std::to_string(blockLen) + " B exceeds 2097151");
    if (left * sizeof(T) > 32 || right * sizeof(T) > 32)
        ::ascsim::fail(api, "Failed to check padding value", "leftPadding/rightPadding must each stay within 32 B");
    if constexpr (::ascsim::is_int4_v<T>) {   // the pad counts elements; half-byte padding has no model here
        if (isPad && (left || right)) ::ascsim::fail(api, "ascsim: not simulated", "padding an int4b_t tensor is not simulated");
    }
    ::ascsim::check_ub_aligned(api, dst.addr_);
    if (blockCount == 0 || blockLen == 0) return;
    size_t slot = (size_t(left) * sizeof(T) + blockLen + size_t(right) * sizeof(T) + 31) / 32 * 32;
    for (uint32_t b = 0; b < blockCount; ++b) {
        uint8_t* d = (uint8_t*)dst.addr_ + b * (slot + ubGapBlocks * 32);
        const uint8_t* s = (const uint8_t*)src.addr_ + b * (uint64_t(blockLen) + gmGapBytes);
        ::ascsim::check_ub(api, d, slot);
        ::ascsim::sync_ub(::ascsim::kPipeMte2, api, d, slot, ::ascsim::kWrite);
        if (isPad) for (uint32_t i = 0; i < left; ++i) ((T*)d)[i] = padValue;
        ::ascsim::gm_load(d + left * sizeof(T), s, blockLen, api);
        if (isPad) {
            T* tail = (T*)(d + left * sizeof(T) + blockLen);
            for (uint32_t i = 0; i < right; ++i) tail[i] = padValue;
        }
    }
}
template <class T>
inline void ub_to_gm(const GlobalTensor<T>& dst, const LocalTensor<T>& src, uint32_t blockCount, uint32_t blockLen, uint64_t ubGapBlocks,
                     uint64_t gmGapBytes) {
    const char* api = "DataCopyPad";
    ::ascsim::check_block_count(api, blockCount);
    ::ascsim::check_ub_aligned(api, src.addr_);
    if (blockCount == 0 || blockLen == 0) return;
    size_t slot = (size_t(blockLen) + 31) / 32 * 32;
    for (uint32_t b = 0; b < blockCount; ++b) {
        const uint8_t* s = (const uint8_t*)src.addr_ + b * (slot + ubGapBlocks * 32);
        uint8_t* d = (uint8_t*)dst.addr_ + b * (uint64_t(blockLen) + gmGapBytes);
        ::ascsim::check_ub(api, s, blockLen);
        ::ascsim::sync_ub(::ascsim::kPipeMte3, api, s, blockLen, ::ascsim::kRead);
        if (blockLen % sizeof(T)) {
            std::memcpy(d, s, ::ascsim::gm_backed(d, blockLen, true, api));
        } else {
            ::ascsim::gm_store((T*)d, (const T*)s, blockLen / sizeof(T), api);
        }
    }
}
}  // namespace detail_pad

template <typename T>
__aicore__ inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyExtParams& p,
                                   const DataCopyPadExtParams<T>& pad) {
    detail_pad::gm_to_ub(dst, src, p.blockCount, p.blockLen, p.srcStride, p.dstStride, pad.isPad, pad.leftPadding, pad.rightPadding,
                         pad.paddingValue);
}
template <typename T>
__aicore__ inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyExtParams& p) {
    detail_pad::ub_to_gm(dst, src, p.blockCount, p.blockLen, p.srcStride, p.dstStride);
}
template <typename T>
__aicore__ inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p,
                                   const DataCopyPadParams& pad) {
    T v;
    uint64_t raw = pad.paddingValue;
    std::memcpy(&v, &raw, sizeof(T));
    detail_pad::gm_to_ub(dst, src, p.blockCount, p.blockLen, p.srcStride, p.dstStride, pad.isPad, pad.leftPadding, pad.rightPadding, v);
}
template <typename T>
__aicore__ inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p) {
    detail_pad::ub_to_gm(dst, src, p.blockCount, p.blockLen, p.srcStride, p.dstStride);
}
// UB -> UB vector copy (PIPE_V).
template <typename T, bool isSetMask = true>
__aicore__ inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask, const uint8_t repeatTime,
                            const CopyRepeatParams& p) {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Failed to check dtype in Copy, current api support 16/32-bit types.");
    constexpr uint32_t epr = ::ascsim::elems_per_repeat<T>();
    ::ascsim::Mask m = ::ascsim::mask_from(mask, epr, isSetMask);
    ::ascsim::Opnd ops[2] = {{(uint8_t*)dst.addr_, sizeof(T), p.dstStride, p.dstRepeatSize},
                             {(uint8_t*)src.addr_, sizeof(T), p.srcStride, p.srcRepeatSize}};
    ::ascsim::for_each_active("Copy", m, repeatTime, epr, ops, [&](uint32_t r, uint32_t i) { *(T*)ops[0].at(r, i) = *(T*)ops[1].at(r, i); });
}
template <typename T, bool isSetMask = true>
__aicore__ inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[], const uint8_t repeatTime,
                            const CopyRepeatParams& p) {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Failed to check dtype in Copy, current api support 16/32-bit types.");
    constexpr uint32_t epr = ::ascsim::elems_per_repeat<T>();
    ::ascsim::Mask m = ::ascsim::mask_from(mask, epr, isSetMask);
    ::ascsim::Opnd ops[2] = {{(uint8_t*)dst.addr_, sizeof(T), p.dstStride, p.dstRepeatSize},
                             {(uint8_t*)src.addr_, sizeof(T), p.srcStride, p.srcRepeatSize}};
    ::ascsim::for_each_active("Copy", m, repeatTime, epr, ops, [&](uint32_t r, uint32_t i) { *(T*)ops[0].at(r, i) = *(T*)ops[1].at(r, i); });
}

template <typename T> __aicore__ inline void InitOutput(const GlobalTensor<T>& gm, uint32_t size, const T& value = T(0)) {
    size_t n = ::ascsim::gm_backed(gm.addr_, size_t(size) * sizeof(T), true, "InitOutput") / sizeof(T);
    for (size_t i = 0; i < n; ++i) gm.addr_[i] = value;
}

// Atomic accumulation of the following UB -> GM copies. The type is recorded as its AtomicDtype code, which
// GetStoreAtomicConfig reads back.
namespace detail_atomic {
template <class T> constexpr int dtype_code() {
    return std::is_same_v<T, float> ? int(AtomicDtype::ATOMIC_F32) : std::is_same_v<T, half> ? int(AtomicDtype::ATOMIC_F16)
         : std::is_same_v<T, int16_t> ? int(AtomicDtype::ATOMIC_S16) : std::is_same_v<T, int32_t> ? int(AtomicDtype::ATOMIC_S32)
         : std::is_same_v<T, int8_t> ? int(AtomicDtype::ATOMIC_S8) : std::is_same_v<T, bfloat16_t> ? int(AtomicDtype::ATOMIC_BF16)
         : int(AtomicDtype::ATOMIC_NONE);
}
template <class T> inline void set(int op) {
    ::ascsim::core().atomic_op = op;
    ::ascsim::core().atomic_dtype = dtype_code<T>();
}
}  // namespace detail_atomic
template <typename T> __aicore__ inline void SetAtomicAdd() {
    static_assert(::ascsim::one_of_v<T, int8_t, int16_t, half, bfloat16_t, int32_t, float>,
                  "Failed to check dtype in SetAtomicAdd, current api support dtype is int8_t / int16_t / half / bfloat16_t / int32_t / float.");
    detail_atomic::set<T>(1);
}
template <typename T> __aicore__ inline void SetAtomicMax() { detail_atomic::set<T>(2); }
template <typename T> __aicore__ inline void SetAtomicMin() { detail_atomic::set<T>(3); }
template <typename T> __aicore__ inline void SetAtomicType() { ::ascsim::core().atomic_dtype = detail_atomic::dtype_code<T>(); }
__aicore__ inline void SetAtomicNone() { ::ascsim::core().atomic_op = 0; }
__aicore__ inline void DisableDmaAtomic() { ::ascsim::core().atomic_op = 0; }

template <typename T, CacheLine entireType = CacheLine::SINGLE_CACHE_LINE, DcciDst dcciDst = DcciDst::CACHELINE_OUT>
__aicore__ inline void DataCacheCleanAndInvalid(const GlobalTensor<T>&) {}
template <typename T, CacheLine entireType = CacheLine::SINGLE_CACHE_LINE, DcciDst dcciDst = DcciDst::CACHELINE_OUT>
__aicore__ inline void DataCacheCleanAndInvalid(const LocalTensor<T>&) {}

// Fill (formerly InitGlobalMemory): `size` elements of GM set to `value`. The device stages the value in UB and
// stores it with MTE3, so the GM model's checks and an enabled atomic mode apply as to any UB->GM copy. Other cores
// see the values only after a SyncAll (documented), which the simulator's core scheduling already orders.
template <typename T> __aicore__ inline void ascsim_fill_gm(const char* api, GlobalTensor<T>& gm, uint64_t size, const T value) {
    static_assert(std::is_same_v<T, uint16_t> || std::is_same_v<T, int16_t> || std::is_same_v<T, half> ||
                      std::is_same_v<T, uint32_t> || std::is_same_v<T, int32_t> || std::is_same_v<T, float>,
                  "Failed to check dtype in Fill / InitGlobalMemory, current api support dtype combination is "
                  "uint16_t / int16_t / half / uint32_t / int32_t / float (Atlas A2).");
    constexpr uint64_t kStage = 4096;
    T staged[kStage];
    for (uint64_t i = 0; i < kStage; ++i) staged[i] = value;
    for (uint64_t done = 0; done < size; done += kStage)
        ::ascsim::gm_store(gm.GetPhyAddr(done), staged, size_t(std::min(kStage, size - done)), api);
}
template <typename T> __aicore__ inline void Fill(GlobalTensor<T>& gmWorkspaceAddr, const uint64_t size, const T value) {
    ascsim_fill_gm("Fill", gmWorkspaceAddr, size, value);
}
template <typename T>
__aicore__ inline void InitGlobalMemory(GlobalTensor<T>& gmWorkspaceAddr, const uint64_t size, const T value) {
    ascsim_fill_gm("InitGlobalMemory", gmWorkspaceAddr, size, value);
}

}  // namespace AscendC
#endif  // ASCSIM_ASCSIM_KERNEL_DATACOPY_H_
