// ascsim kernel side: LocalTensor (a view into this core's UB) and GlobalTensor (a view into GM).
#ifndef ASCSIM_ASCSIM_KERNEL_TENSOR_H_
#define ASCSIM_ASCSIM_KERNEL_TENSOR_H_
#include <cstring>
#include <string>
#include "defs.h"
#include "sync_check.h"

namespace ascsim {
std::string hexaddr(const void* p);
inline bool in_ub(const void* p, size_t bytes) {
    const uint8_t* b = core().ub;
    const uint8_t* q = static_cast<const uint8_t*>(p);
    if (core().core_type == 1) return false;   // an AIC has no UB: vector instructions there fault
    return b && q >= b && q + bytes <= b + core().ub_size;
}
inline uint32_t ub_offset(const void* p) { return uint32_t(static_cast<const uint8_t*>(p) - core().ub); }
[[noreturn]] void fail_ub_bounds(const char* api, const void* p, size_t bytes);
[[noreturn]] void fail_ub_align(const char* api, const void* p, uint32_t align);
inline void check_ub(const char* api, const void* p, size_t bytes) {
    if (!in_ub(p, bytes)) fail_ub_bounds(api, p, bytes);
}
inline void check_ub_aligned(const char* api, const void* p, uint32_t align = 32) {
    if (!in_ub(p, 0)) fail_ub_bounds(api, p, 0);
    if (ub_offset(p) % align) fail_ub_align(api, p, align);
}
}  // namespace ascsim

namespace AscendC {

template <typename T> class LocalTensor {
public:
    using PrimType = T;
    LocalTensor() = default;
    LocalTensor(T* addr, uint32_t size, TPosition pos) : addr_(addr), size_(size), pos_(pos) {}

    uint64_t GetPhyAddr() const { return reinterpret_cast<uint64_t>(addr_); }
    uint64_t GetPhyAddr(const uint32_t offset) const { return reinterpret_cast<uint64_t>(addr_ + offset); }
    T GetValue(const uint32_t index) const {
        ascsim::check_ub("LocalTensor::GetValue", addr_ + index, sizeof(T));
        ascsim::sync_ub(ascsim::kPipeS, "GetValue", addr_ + index, sizeof(T), ascsim::kRead);
        return addr_[index];
    }
    template <typename U> void SetValue(const uint32_t index, const U& value) const {
        ascsim::check_ub("LocalTensor::SetValue", addr_ + index, sizeof(T));
        ascsim::sync_ub(ascsim::kPipeS, "SetValue", addr_ + index, sizeof(T), ascsim::kWrite);
        addr_[index] = static_cast<T>(value);
    }
    T& operator()(const uint32_t index) const {   // may be a load or a store
        ascsim::check_ub("LocalTensor::operator()", addr_ + index, sizeof(T));
        ascsim::sync_ub(ascsim::kPipeS, "LocalTensor::operator()", addr_ + index, sizeof(T), ascsim::kUnknownRole);
        return addr_[index];
    }
    LocalTensor operator[](const uint32_t offset) const {
        LocalTensor t = *this;
        t.addr_ = addr_ + offset;
        t.size_ = offset <= size_ ? size_ - offset : 0;
        return t;
    }
    template <typename U> LocalTensor<U> ReinterpretCast() const {
        LocalTensor<U> t(reinterpret_cast<U*>(addr_), uint32_t(uint64_t(size_) * sizeof(T) / sizeof(U)), pos_);
        t.tag_ = tag_;
        return t;
    }
    uint32_t GetSize() const { return size_; }
    uint32_t GetLength() const { return size_ * uint32_t(sizeof(T)); }
    void SetSize(const uint32_t size) { size_ = size; }
    void SetBufferLen(uint32_t len) { size_ = len / uint32_t(sizeof(T)); }
    TPosition GetPosition() const { return pos_; }
    void SetUserTag(int32_t tag) { tag_ = tag; }
    int32_t GetUserTag() const { return tag_; }
    template <typename U> void SetAddrWithOffset(LocalTensor<U>& src, uint32_t offset) {
        addr_ = reinterpret_cast<T*>(src.addr_ + offset);
        pos_ = src.GetPosition();
    }
    void Print() const {}
    void Print(uint32_t) const {}
    void SetShapeInfo(const ShapeInfo& s) { shape_ = s; }   // a record for APIs that read it; no effect on the data
    ShapeInfo GetShapeInfo() const { return shape_; }
    // `dst = src0 + src1` and the other whole-tensor operator forms (ascsim/kernel/tensor_ops.h)
    LocalTensor& operator=(const LocalTensor&) = default;
    template <class E, class = typename E::ascsim_tensor_expr> const LocalTensor& operator=(const E& expr) const {
        expr.eval_into(*this);
        return *this;
    }

    T* addr_ = nullptr;
    uint32_t size_ = 0;
    TPosition pos_ = TPosition::VECCALC;
    int32_t tag_ = 0;
    ShapeInfo shape_;
};

template <typename T> class GlobalTensor {
public:
    using PrimType = T;
    GlobalTensor() = default;
    void SetGlobalBuffer(__gm__ T* buffer, uint64_t bufferSize) { addr_ = buffer; size_ = bufferSize; }
    void SetGlobalBuffer(__gm__ T* buffer) { addr_ = buffer; size_ = 0; }
    __gm__ T* GetPhyAddr() const { return addr_; }
    __gm__ T* GetPhyAddr(const uint64_t offset) const { return addr_ + offset; }
    T GetValue(const uint64_t offset) const {
        if (ascsim::gm_backed(addr_ + offset, sizeof(T), false, "GlobalTensor::GetValue") < sizeof(T)) {
            T poison;
            std::memset(static_cast<void*>(&poison), ascsim::kGmPoison, sizeof(T));
            return poison;
        }
        return addr_[offset];
    }
    template <typename U> void SetValue(const uint64_t offset, const U& value) const {
        if (ascsim::gm_backed(addr_ + offset, sizeof(T), true, "GlobalTensor::SetValue") < sizeof(T)) return;
        addr_[offset] = static_cast<T>(value);
    }
    T& operator()(const uint64_t offset) const {
        if (ascsim::gm_backed(addr_ + offset, sizeof(T), false, "GlobalTensor::operator()") < sizeof(T)) {
            thread_local T unbacked;   // free device memory past the backed tail: reads poison, a store is dropped
            std::memset(static_cast<void*>(&unbacked), ascsim::kGmPoison, sizeof(T));
            return unbacked;
        }
        return addr_[offset];
    }
    GlobalTensor operator[](const uint64_t offset) const {
        GlobalTensor t = *this;
        t.addr_ = addr_ + offset;
        return t;
    }
    template <typename U> GlobalTensor<U> ReinterpretCast() const {
        GlobalTensor<U> t;
        t.SetGlobalBuffer(reinterpret_cast<U*>(addr_), size_ * sizeof(T) / sizeof(U));
        return t;
    }
    uint64_t GetSize() const { return size_; }
    void SetL2CacheHint(CacheMode) {}
    void SetShapeInfo(const ShapeInfo& s) { shape_ = s; }
    ShapeInfo GetShapeInfo() const { return shape_; }

    T* addr_ = nullptr;
    uint64_t size_ = 0;
    ShapeInfo shape_;
};

}  // namespace AscendC
#endif  // ASCSIM_ASCSIM_KERNEL_TENSOR_H_
