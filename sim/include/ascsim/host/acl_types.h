// ascsim host side: the aclnn argument types an L2 entry takes (aclTensor, aclTensorList, aclScalar, aclIntArray,
// aclFloatArray, aclBoolArray) and their owner (AclArena). Shared by the binding helper (pytorch_npu_helper.hpp, which
// converts torch arguments as torch_npu does) and the op-API layer (ascsim/host/opapi.h, whose executor allocates
// them). Torch-free, and free of anything a candidate's host objects may not reference (dl*, see symbols.py).
#ifndef ASCSIM_HOST_ACL_TYPES_H_
#define ASCSIM_HOST_ACL_TYPES_H_
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>
#include "ascsim/host/ge_types.h"
#include "ascsim/host/gert.h"

struct aclOpExecutor;   // ascsim/host/opapi.h
using aclnnStatus = int32_t;
// the documented aclnn return codes
constexpr aclnnStatus ACLNN_SUCCESS = 0;
constexpr aclnnStatus ACLNN_ERR_PARAM_NULLPTR = 161001;
constexpr aclnnStatus ACLNN_ERR_PARAM_INVALID = 161002;
constexpr aclnnStatus ACLNN_ERR_RUNTIME_ERROR = 361001;
constexpr aclnnStatus ACLNN_ERR_INNER = 561000;
constexpr aclnnStatus ACLNN_ERR_INNER_INFERSHAPE_ERROR = 561001;
constexpr aclnnStatus ACLNN_ERR_INNER_TILING_ERROR = 561002;
constexpr aclnnStatus ACLNN_ERR_INNER_FIND_KERNEL_ERROR = 561003;
constexpr aclnnStatus ACLNN_ERR_INNER_CREATE_EXECUTOR = 561101;
constexpr aclnnStatus ACLNN_ERR_INNER_NOT_TRANS_EXECUTOR = 561102;
constexpr aclnnStatus ACLNN_ERR_INNER_NULLPTR = 561103;
constexpr aclnnStatus ACLNN_ERR_INNER_WRONG_ATTR_INFO_SIZE = 561104;
constexpr aclnnStatus ACLNN_ERR_INNER_KEY_CONFILICT = 561105;

// aclDataType / aclFormat share ge's numbering
using aclDataType = ge::DataType;
using aclFormat = ge::Format;
constexpr aclDataType ACL_FLOAT = ge::DT_FLOAT, ACL_FLOAT16 = ge::DT_FLOAT16, ACL_INT8 = ge::DT_INT8, ACL_INT32 = ge::DT_INT32,
                      ACL_UINT8 = ge::DT_UINT8, ACL_INT16 = ge::DT_INT16, ACL_UINT16 = ge::DT_UINT16, ACL_UINT32 = ge::DT_UINT32,
                      ACL_INT64 = ge::DT_INT64, ACL_UINT64 = ge::DT_UINT64, ACL_DOUBLE = ge::DT_DOUBLE, ACL_BOOL = ge::DT_BOOL,
                      ACL_COMPLEX64 = ge::DT_COMPLEX64, ACL_COMPLEX128 = ge::DT_COMPLEX128, ACL_BF16 = ge::DT_BF16;
constexpr aclFormat ACL_FORMAT_NCHW = ge::FORMAT_NCHW, ACL_FORMAT_NHWC = ge::FORMAT_NHWC, ACL_FORMAT_ND = ge::FORMAT_ND;

struct aclScalar {
    double f = 0;
    int64_t i = 0;
    bool is_float = false;
    int dtype = 0;   // ge::DataType of the value
    double ToDouble() const { return is_float ? f : double(i); }
    float ToFloat() const { return float(ToDouble()); }
    int64_t ToInt64() const { return is_float ? int64_t(f) : i; }
    int32_t ToInt32() const { return int32_t(ToInt64()); }
    bool ToBool() const { return is_float ? f != 0 : i != 0; }
    ge::DataType GetDataType() const { return ge::DataType(dtype); }
};

template <class T> struct AclArray {
    std::vector<T> v;
    uint64_t Size() const { return v.size(); }
    const T* GetData() const { return v.data(); }
    const T& operator[](uint64_t k) const { return v[k]; }
};
struct aclIntArray : AclArray<int64_t> {};
struct aclFloatArray : AclArray<double> {};
struct aclBoolArray : AclArray<int64_t> {};   // 0/1, as the generated API passes list attributes

namespace ascsim { namespace opapi { struct Access; } }
struct aclTensor;
aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType, const int64_t* stride,
                           int64_t offset, aclFormat format, const int64_t* storageDims, uint64_t storageDimsNum,
                           void* tensorData);

// A view (shape, strides and offset in elements) of a storage block. Storage the binding owns is borrowed; storage
// an executor allocates is shared between the views (Reshape) made of it. Host code sees device addresses only:
// GetData() / GetStorageAddr() return the address in a form the host cannot dereference (a non-canonical x86-64
// address: the access faults, as a host access to device memory does), so L2/L0 host code cannot compute a result on
// the host; the executor's launches and data-movement steps reach the memory through ascsim::opapi::Access.
struct aclTensor {
    gert::Shape view_shape, storage_shape, origin_shape;
    std::vector<int64_t> strides;
    int64_t offset = 0;
    ge::DataType dtype = ge::DT_FLOAT;
    ge::Format view_format = ge::FORMAT_ND, storage_format = ge::FORMAT_ND, origin_format = ge::FORMAT_ND;
    bool from_workspace = false;

    const gert::Shape& GetViewShape() const { return view_shape; }
    const gert::Shape& GetStorageShape() const { return storage_shape; }
    const gert::Shape& GetOriginalShape() const { return origin_shape; }
    void SetViewShape(const gert::Shape& s) { view_shape = s; strides = ContiguousStrides(s); }
    void SetStorageShape(const gert::Shape& s) { storage_shape = s; }
    void SetOriginalShape(const gert::Shape& s) { origin_shape = s; }
    ge::DataType GetDataType() const { return dtype; }
    void SetDataType(ge::DataType d) { dtype = d; }
    ge::Format GetViewFormat() const { return view_format; }
    ge::Format GetStorageFormat() const { return storage_format; }
    ge::Format GetOriginalFormat() const { return origin_format; }
    void SetViewFormat(ge::Format f) { view_format = f; }
    void SetStorageFormat(ge::Format f) { storage_format = f; }
    void SetOriginalFormat(ge::Format f) { origin_format = f; }
    const std::vector<int64_t>& GetViewStrides() const { return strides; }
    void SetViewStrides(const std::vector<int64_t>& s) { strides = s; }
    int64_t GetViewOffset() const { return offset; }
    void SetViewOffset(int64_t o) { offset = o; }
    int64_t GetStorageOffset() const { return offset; }
    int64_t Numel() const { return view_shape.GetShapeSize(); }
    int64_t Size() const { return Numel(); }
    bool IsEmpty() const { return Numel() == 0; }
    bool IsFromWorkspace() const { return from_workspace; }
    size_t ElementSize() const { return size_t(ge::GetSizeByDataType(dtype)); }
    void* GetStorageAddr() const { return device_address(base_); }
    void* GetData() const { return device_address(base_ ? base_ + offset * int64_t(ElementSize()) : nullptr); }
    bool IsContiguous() const { return strides == ContiguousStrides(view_shape); }

    static std::vector<int64_t> ContiguousStrides(const gert::Shape& s) {
        std::vector<int64_t> st(s.GetDimNum(), 1);
        for (size_t k = s.GetDimNum(); k-- > 1;) st[k - 1] = st[k] * s.GetDim(k);
        return st;
    }

private:
    friend struct ascsim::opapi::Access;
    friend aclTensor* aclCreateTensor(const int64_t*, uint64_t, aclDataType, const int64_t*, int64_t, aclFormat, const int64_t*,
                                      uint64_t, void*);
    static void* device_address(uint8_t* p) { return p ? reinterpret_cast<void*>(uintptr_t(p) | (uintptr_t(1) << 62)) : nullptr; }
    uint8_t* base_ = nullptr;
    std::shared_ptr<std::vector<uint8_t>> owned_;
};
struct aclScalarList {
    std::vector<const aclScalar*> s;
    uint64_t Size() const { return s.size(); }
    const aclScalar* operator[](uint64_t k) const { return s[k]; }
};
struct aclTensorList {
    std::vector<const aclTensor*> t;
    uint64_t Size() const { return t.size(); }
    const aclTensor* operator[](uint64_t k) const { return t[k]; }
};

// The documented ACL constructors (what torch_npu's ConvertType calls); destroyed by their aclDestroy* counterparts.
inline aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType, const int64_t* stride,
                                  int64_t offset, aclFormat format, const int64_t* storageDims, uint64_t storageDimsNum,
                                  void* tensorData) {
    auto* t = new aclTensor;
    for (uint64_t k = 0; k < viewDimsNum; ++k) t->view_shape.AppendDim(viewDims[k]);
    for (uint64_t k = 0; k < storageDimsNum; ++k) t->storage_shape.AppendDim(storageDims[k]);
    t->origin_shape = t->view_shape;
    t->strides = stride ? std::vector<int64_t>(stride, stride + viewDimsNum) : aclTensor::ContiguousStrides(t->view_shape);
    t->offset = offset;
    t->dtype = dataType;
    t->view_format = t->storage_format = t->origin_format = format;
    t->base_ = static_cast<uint8_t*>(tensorData);
    return t;
}
inline int aclDestroyTensor(const aclTensor* t) { delete t; return 0; }
inline aclIntArray* aclCreateIntArray(const int64_t* value, uint64_t size) {
    auto* a = new aclIntArray;
    a->v.assign(value, value + size);
    return a;
}
inline int aclDestroyIntArray(const aclIntArray* a) { delete a; return 0; }

namespace ascsim {
// Owns the aclnn objects an executor or a binding call hands out (tensors, lists, scalars, arrays): they live as long
// as it does.
class AclArena {
public:
    template <class T, class... A> T* make(A&&... a) {
        auto p = std::make_shared<T>(std::forward<A>(a)...);
        owned_.push_back(p);
        return p.get();
    }
    template <class T> T* adopt(T* raw) {
        owned_.push_back(std::shared_ptr<T>(raw));
        return raw;
    }

private:
    std::vector<std::shared_ptr<void>> owned_;
};

}  // namespace ascsim

#endif  // ASCSIM_HOST_ACL_TYPES_H_
