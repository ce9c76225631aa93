// ascsim kernel side: ListTensorDesc / TensorDesc, the documented reader of a tensor list (a DYNAMIC input or output
// reaches the kernel as one GM address). Layout, in 64-bit words: word 0 is the byte offset of the data-pointer
// array; then one descriptor per tensor, a header (low 32 bits: dim count, high 32: the tensor's index) followed by
// its dims; then the data pointers. The device decodes every descriptor with the first one's dim count (all tensors
// of a list must have the same rank) and checks nothing outside its CPU-debug build: here a list it would misread,
// an index past the list, or a failed length / shapeSize check is an error instead of a read of arbitrary memory.
#ifndef ASCSIM_ASCSIM_KERNEL_LIST_TENSOR_H_
#define ASCSIM_ASCSIM_KERNEL_LIST_TENSOR_H_
#include <cstdint>
#include <string>
#include "datacopy.h"

namespace AscendC {
template <class T> class TensorDesc {
public:
    __aicore__ inline TensorDesc() {}
    __aicore__ inline ~TensorDesc() {}
    __aicore__ inline void SetShapeAddr(uint64_t* shapePtr) { shape_ = shapePtr; }
    __aicore__ inline uint64_t GetDim() { return dim_; }
    __aicore__ inline uint64_t GetIndex() { return index_; }
    __aicore__ inline uint64_t GetShape(uint32_t offset) {
        if (offset >= dim_)
            ::ascsim::fail("TensorDesc::GetShape", "dimension out of range",
                           "dimension " + std::to_string(offset) + " of a " + std::to_string(dim_) + "-d tensor");
        return shape_[offset];
    }
    __aicore__ inline __gm__ T* GetDataPtr() { return ptr_; }
    __aicore__ inline GlobalTensor<T> GetDataObj() {
        uint64_t n = 1;
        for (uint32_t i = 0; i < dim_; ++i) n *= shape_[i];
        GlobalTensor<T> g;
        g.SetGlobalBuffer(ptr_, n);
        return g;
    }

    uint32_t dim_ = 0;
    uint32_t index_ = 0;
    uint64_t* shape_ = nullptr;
    __gm__ T* ptr_ = nullptr;
};

class ListTensorDesc {
public:
    __aicore__ inline ListTensorDesc() {}
    __aicore__ inline ListTensorDesc(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff) {
        Init(data, length, shapeSize);
    }
    __aicore__ inline ~ListTensorDesc() {}

    __aicore__ inline void Init(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff) {
        base_ = static_cast<__gm__ uint8_t*>(data);
        if (!base_) ::ascsim::fail("ListTensorDesc", "null list address", "the tensor list's GM address is null");
        ptr_offset_ = Word(0);
        uint64_t head = Word(1);
        dim_ = uint32_t(head);
        if (dim_ == 0) {   // pointers only: word 1 holds the count, word 2 a filler, the pointers start at byte 24
            count_ = uint32_t(head >> 32);
            if (ptr_offset_ != 24)
                ::ascsim::fail("ListTensorDesc", "malformed tensor list", "a list without shapes has its pointers at byte 24");
        } else {
            if (ptr_offset_ < 8 || ptr_offset_ % 8 || (ptr_offset_ - 8) % ((1 + dim_) * 8))
                ::ascsim::fail("ListTensorDesc", "malformed tensor list",
                               "the descriptors do not fit " + std::to_string(dim_) +
                                   "-d tensors: every tensor of a list must have the rank of the first (the device decodes "
                                   "all descriptors with the first one's dim count)");
            count_ = uint32_t((ptr_offset_ - 8) / ((1 + dim_) * 8));
            for (uint32_t i = 0; i < count_; ++i)
                if (uint32_t(Word(1 + uint64_t(i) * (1 + dim_))) != dim_)
                    ::ascsim::fail("ListTensorDesc", "tensors of different rank in one list",
                                   "tensor " + std::to_string(i) + " is not " + std::to_string(dim_) +
                                       "-d like the first; the device decodes all descriptors with the first one's dim count");
        }
        if (length != 0xffffffff && shapeSize != 0xffffffff &&
            (count_ != shapeSize || length != ptr_offset_ + uint64_t(count_) * 8))
            ::ascsim::fail("ListTensorDesc", "tensor list check failed",
                           "the list holds " + std::to_string(count_) + " tensors in " +
                               std::to_string(ptr_offset_ + uint64_t(count_) * 8) + " B; expected shapeSize " +
                               std::to_string(shapeSize) + ", length " + std::to_string(length));
    }
    template <class T> __aicore__ inline void GetDesc(TensorDesc<T>& desc, uint32_t index) {
        Check("ListTensorDesc::GetDesc", index);
        if (!desc.shape_)
            ::ascsim::fail("ListTensorDesc::GetDesc", "shape address not set",
                           "call TensorDesc::SetShapeAddr before GetDesc (documented)");
        if (dim_ == 0)
            ::ascsim::fail("ListTensorDesc::GetDesc", "the list has no shapes", "a pointers-only list has no descriptors");
        uint64_t at = 1 + uint64_t(index) * (1 + dim_);
        desc.dim_ = dim_;
        desc.index_ = index;
        for (uint32_t d = 0; d < dim_; ++d) desc.shape_[d] = Word(at + 1 + d);
        desc.ptr_ = reinterpret_cast<__gm__ T*>(uintptr_t(Word(ptr_offset_ / 8 + index)));
    }
    template <class T> __aicore__ inline T* GetDataPtr(uint32_t index) {
        Check("ListTensorDesc::GetDataPtr", index);
        return reinterpret_cast<T*>(uintptr_t(Word(ptr_offset_ / 8 + index)));
    }
    __aicore__ inline uint32_t GetSize() { return count_; }

private:
    uint64_t Word(uint64_t i) const {
        uint64_t w;
        ::ascsim::gm_load(&w, base_ + i * 8, sizeof(w), "ListTensorDesc");
        return w;
    }
    void Check(const char* api, uint32_t index) const {
        if (index >= count_)
            ::ascsim::fail(api, "tensor index out of range",
                           "index " + std::to_string(index) + " of a list of " + std::to_string(count_) + " tensors");
    }
    __gm__ uint8_t* base_ = nullptr;
    uint64_t ptr_offset_ = 0;
    uint32_t dim_ = 0;
    uint32_t count_ = 0;
};
}  // namespace AscendC
#endif  // ASCSIM_ASCSIM_KERNEL_LIST_TENSOR_H_
