// ascsim kernel side: LocalTensor (a view into this core's UB) and GlobalTensor (a view into GM).
#ifndef ASCSIM_ASCSIM_KERNEL_TENSOR_H_
#define ASCSIM_ASCSIM_KERNEL_TENSOR_H_
#include <cstring>
#include <string>
#include "defs.h"
#include "int4.h"
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
    uint64_t GetPhyAddr(const uint32_t offset) const {
        return reinterpret_cast<uint64_t>(byte_ptr() + ascsim::byte_offset<T>("LocalTensor::GetPhyAddr", offset));
    }
    T GetValue(const uint32_t index) const {
        ascsim::check_ub("LocalTensor::GetValue", elem_ptr(index), elem_bytes());
        ascsim::sync_ub(ascsim::kPipeS, "GetValue", elem_ptr(index), elem_bytes(), ascsim::kRead);
        if constexpr (ascsim::is_int4_v<T>) return T(ascsim::nibble_get(addr_, index));
        else return addr_[index];
    }
    template <typename U> void SetValue(const uint32_t index, const U& value) const {
        ascsim::check_ub("LocalTensor::SetValue", elem_ptr(index), elem_bytes());
        ascsim::sync_ub(ascsim::kPipeS, "SetValue", elem_ptr(index), elem_bytes(), ascsim::kWrite);
        if constexpr (ascsim::is_int4_v<T>) ascsim::nibble_set(addr_, index, int(T(int(value))));
        else addr_[index] = static_cast<T>(value);
    }
    T& operator()(const uint32_t index) const {   // may be a load or a store
        static_assert(!ascsim::is_int4_v<T>, "ascsim: an int4b_t element is half a byte and has no reference; use GetValue / SetValue");
        ascsim::check_ub("LocalTensor::operator()", addr_ + index, sizeof(T));
        ascsim::sync_ub(ascsim::kPipeS, "LocalTensor::operator()", addr_ + index, sizeof(T), ascsim::kUnknownRole);
        return addr_[index];
    }
    LocalTensor operator[](const uint32_t offset) const {
        LocalTensor t = *this;
        t.addr_ = reinterpret_cast<T*>(byte_ptr() + ascsim::byte_offset<T>("LocalTensor::operator[]", offset));
        t.size_ = offset <= size_ ? size_ - offset : 0;
        return t;
    }
    template <typename U> LocalTensor<U> ReinterpretCast() const {
        LocalTensor<U> t(reinterpret_cast<U*>(addr_), uint32_t(ascsim::elems_in<U>(ascsim::bytes_of<T>(size_))), pos_);
        t.tag_ = tag_;
        return t;
    }
    uint32_t GetSize() const { return size_; }
    uint32_t GetLength() const { return uint32_t(ascsim::bytes_of<T>(size_)); }
    void SetSize(const uint32_t size) { size_ = size; }
    void SetBufferLen(uint32_t len) { size_ = uint32_t(ascsim::elems_in<T>(len)); }
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
    uint8_t* byte_ptr() const { return reinterpret_cast<uint8_t*>(addr_); }
    // the byte that holds element i (an int4b_t shares it with its neighbour)
    uint8_t* elem_ptr(uint64_t i) const { return byte_ptr() + (ascsim::is_int4_v<T> ? i / 2 : i * sizeof(T)); }
    static constexpr size_t elem_bytes() { return ascsim::is_int4_v<T> ? 1 : sizeof(T); }
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
    __gm__ T* GetPhyAddr(const uint64_t offset) const {
        return reinterpret_cast<T*>(byte_ptr() + ascsim::byte_offset<T>("GlobalTensor::GetPhyAddr", offset));
    }
    T GetValue(const uint64_t offset) const {
        const size_t n = elem_bytes();
        if (ascsim::gm_backed(elem_ptr(offset), n, false, "GlobalTensor::GetValue") < n) {
            T poison;
            std::memset(static_cast<void*>(&poison), ascsim::kGmPoison, sizeof(T));
            return poison;
        }
        if constexpr (ascsim::is_int4_v<T>) return T(ascsim::nibble_get(addr_, offset));
        else return addr_[offset];
    }
    template <typename U> void SetValue(const uint64_t offset, const U& value) const {
        const size_t n = elem_bytes();
        if (ascsim::gm_backed(elem_ptr(offset), n, true, "GlobalTensor::SetValue") < n) return;
        if constexpr (ascsim::is_int4_v<T>) ascsim::nibble_set(addr_, offset, int(T(int(value))));
        else addr_[offset] = static_cast<T>(value);
    }
    T& operator()(const uint64_t offset) const {
        static_assert(!ascsim::is_int4_v<T>, "ascsim: an int4b_t element is half a byte and has no reference; use GetValue / SetValue");
        if (ascsim::gm_backed(addr_ + offset, sizeof(T), false, "GlobalTensor::operator()") < sizeof(T)) {
            thread_local T unbacked;   // free device memory past the backed tail: reads poison, a store is dropped
            std::memset(static_cast<void*>(&unbacked), ascsim::kGmPoison, sizeof(T));
            return unbacked;
        }
        return addr_[offset];
    }
    GlobalTensor operator[](const uint64_t offset) const {
        GlobalTensor t = *this;
        t.addr_ = reinterpret_cast<T*>(byte_ptr() + ascsim::byte_offset<T>("GlobalTensor::operator[]", offset));
        return t;
    }
    template <typename U> GlobalTensor<U> ReinterpretCast() const {
        GlobalTensor<U> t;
        t.SetGlobalBuffer(reinterpret_cast<U*>(addr_), ascsim::elems_in<U>(ascsim::bytes_of<T>(size_)));
        return t;
    }
    uint64_t GetSize() const { return size_; }
    void SetL2CacheHint(CacheMode) {}
    void SetShapeInfo(const ShapeInfo& s) { shape_ = s; }
    ShapeInfo GetShapeInfo() const { return shape_; }

    T* addr_ = nullptr;
    uint64_t size_ = 0;
    ShapeInfo shape_;
    uint8_t* byte_ptr() const { return reinterpret_cast<uint8_t*>(addr_); }
    uint8_t* elem_ptr(uint64_t i) const { return byte_ptr() + (ascsim::is_int4_v<T> ? i / 2 : i * sizeof(T)); }
    static constexpr size_t elem_bytes() { return ascsim::is_int4_v<T> ? 1 : sizeof(T); }
};

}  // namespace AscendC
#endif  // ASCSIM_ASCSIM_KERNEL_TENSOR_H_
