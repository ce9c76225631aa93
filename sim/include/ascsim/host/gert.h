// ascsim host side: gert:: shapes, tensor descriptions, runtime attributes and the tiling / infer contexts.
#ifndef ASCSIM_ASCSIM_HOST_GERT_H_
#define ASCSIM_ASCSIM_HOST_GERT_H_
#include <cstring>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>
#include "ge_types.h"

namespace fe {
enum class LocalMemType { L0_A = 0, L0_B, L0_C, L1, L2, UB, HBM, RESERVED };
// The platform description the tiling context hands out (GetPlatformInfo()); the queries answer for the simulated
// Atlas A2 part, the same figures as platform_ascendc::PlatformAscendC (defined in ascsim/host/platform.h).
class PlatFormInfos {
public:
    uint32_t GetCoreNum() const;
    void GetLocalMemSize(const LocalMemType& type, uint64_t& size) const;
    void GetLocalMemBw(const LocalMemType& type, uint64_t& bw) const { (void)type; bw = 0; }
};
}

namespace gert {

class Shape {
public:
    static constexpr size_t kMaxDimNum = 25;
    Shape() = default;
    Shape(std::initializer_list<int64_t> dims) { for (int64_t d : dims) AppendDim(d); }
    size_t GetDimNum() const { return n_; }
    int64_t GetDim(size_t i) const { return i < n_ ? dims_[i] : 0; }
    void SetDimNum(size_t n) { n_ = n < kMaxDimNum ? n : kMaxDimNum; }
    void SetDim(size_t i, int64_t v) { if (i < kMaxDimNum) dims_[i] = v; }
    Shape& AppendDim(int64_t v) { if (n_ < kMaxDimNum) dims_[n_++] = v; return *this; }
    int64_t GetShapeSize() const {
        int64_t s = 1;
        for (size_t i = 0; i < n_; ++i) s *= dims_[i];
        return s;
    }
    bool IsScalar() const { return n_ == 0; }
    const int64_t& operator[](size_t i) const { return dims_[i]; }
    int64_t& operator[](size_t i) { return dims_[i]; }
    bool operator==(const Shape& o) const {
        if (n_ != o.n_) return false;
        for (size_t i = 0; i < n_; ++i) if (dims_[i] != o.dims_[i]) return false;
        return true;
    }
    bool operator!=(const Shape& o) const { return !(*this == o); }

private:
    int64_t dims_[kMaxDimNum] = {};
    size_t n_ = 0;
};

class StorageShape {
public:
    StorageShape() = default;
    StorageShape(const Shape& s) : origin_(s), storage_(s) {}
    const Shape& GetOriginShape() const { return origin_; }
    const Shape& GetStorageShape() const { return storage_; }
    Shape& MutableOriginShape() { return origin_; }
    Shape& MutableStorageShape() { return storage_; }
    bool operator==(const StorageShape& o) const { return origin_ == o.origin_ && storage_ == o.storage_; }

private:
    Shape origin_, storage_;
};

class StorageFormat {
public:
    StorageFormat() = default;
    explicit StorageFormat(ge::Format f) : f_(f) {}
    ge::Format GetOriginFormat() const { return f_; }
    ge::Format GetStorageFormat() const { return f_; }

private:
    ge::Format f_ = ge::FORMAT_ND;
};

class CompileTimeTensorDesc {
public:
    ge::DataType GetDataType() const { return dtype_; }
    ge::Format GetStorageFormat() const { return format_; }
    ge::Format GetOriginFormat() const { return format_; }
    StorageFormat GetFormat() const { return StorageFormat(format_); }
    void SetDataType(ge::DataType d) { dtype_ = d; }
    ge::DataType dtype_ = ge::DT_UNDEFINED;
    ge::Format format_ = ge::FORMAT_ND;
};

class Tensor {
public:
    template <class T> const T* GetData() const { return static_cast<const T*>(data_); }
    const void* GetAddr() const { return data_; }
    const Shape& GetStorageShape() const { return shape_.GetStorageShape(); }
    const Shape& GetOriginShape() const { return shape_.GetOriginShape(); }
    const StorageShape& GetShape() const { return shape_; }
    int64_t GetShapeSize() const { return shape_.GetStorageShape().GetShapeSize(); }
    ge::DataType GetDataType() const { return dtype_; }
    size_t GetSize() const { return bytes_; }
    StorageShape shape_;
    ge::DataType dtype_ = ge::DT_UNDEFINED;
    const void* data_ = nullptr;
    size_t bytes_ = 0;
};

class ContinuousVector {
public:
    size_t GetSize() const { return size_; }
    size_t GetCapacity() const { return size_; }
    const void* GetData() const { return data_; }
    size_t size_ = 0;
    const void* data_ = nullptr;
};
template <class T> class TypedContinuousVector : public ContinuousVector {
public:
    const T* GetData() const { return static_cast<const T*>(data_); }
};

// One attribute value, stored the way the real runtime stores it (float attrs as float, ints as int64_t).
struct AttrValue {
    enum Kind { NONE, BOOL, INT, FLOAT, STR, LIST_INT, LIST_FLOAT, LIST_BOOL } kind = NONE;
    bool b = false;
    int64_t i = 0;
    float f = 0;
    std::string s;
    std::vector<int64_t> li;
    std::vector<float> lf;
    std::vector<uint8_t> lb;
    ContinuousVector cv;
};

class RuntimeAttrs {
public:
    template <class T> const T* GetAttrPointer(size_t i) const {
        if (i >= attrs_.size()) return nullptr;
        const AttrValue& a = attrs_[i];
        switch (a.kind) {
            case AttrValue::BOOL: return reinterpret_cast<const T*>(&a.b);
            case AttrValue::INT: return reinterpret_cast<const T*>(&a.i);
            case AttrValue::FLOAT: return reinterpret_cast<const T*>(&a.f);
            case AttrValue::STR: return reinterpret_cast<const T*>(a.s.c_str());
            case AttrValue::LIST_INT: case AttrValue::LIST_FLOAT: case AttrValue::LIST_BOOL: return reinterpret_cast<const T*>(&a.cv);
            default: return nullptr;
        }
    }
    const int64_t* GetInt(size_t i) const { return GetAttrPointer<int64_t>(i); }
    const float* GetFloat(size_t i) const { return GetAttrPointer<float>(i); }
    const bool* GetBool(size_t i) const { return GetAttrPointer<bool>(i); }
    const char* GetStr(size_t i) const { return GetAttrPointer<char>(i); }
    // typed as documented: GetData() of a list attribute is a `const int64_t*` (float, bool) with no cast
    const TypedContinuousVector<int64_t>* GetListInt(size_t i) const { return GetAttrPointer<TypedContinuousVector<int64_t>>(i); }
    const TypedContinuousVector<float>* GetListFloat(size_t i) const { return GetAttrPointer<TypedContinuousVector<float>>(i); }
    const TypedContinuousVector<bool>* GetListBool(size_t i) const { return GetAttrPointer<TypedContinuousVector<bool>>(i); }
    size_t GetAttrNum() const { return attrs_.size(); }
    std::vector<AttrValue> attrs_;
};

class TilingData {
public:
    void* GetData() { return data_; }
    const void* GetData() const { return data_; }
    size_t GetCapacity() const { return capacity_; }
    size_t GetDataSize() const { return size_; }
    void SetDataSize(size_t s) { size_ = s; }
    template <class T> ge::graphStatus Append(const T& v) {
        if (size_ + sizeof(T) > capacity_) return ge::GRAPH_FAILED;
        std::memcpy(static_cast<uint8_t*>(data_) + size_, &v, sizeof(T));
        size_ += sizeof(T);
        return ge::GRAPH_SUCCESS;
    }
    void* data_ = nullptr;
    size_t capacity_ = 0;
    size_t size_ = 0;
};

class AnchorInstanceInfo {
public:
    size_t GetInstanceNum() const { return num_; }
    size_t GetInstanceStart() const { return start_; }
    size_t start_ = 0, num_ = 0;
};
class ComputeNodeInfo {
public:
    size_t GetInputsNum() const { return inputs_; }
    size_t GetOutputsNum() const { return outputs_; }
    const char* GetNodeName() const { return name_; }
    const char* GetNodeType() const { return name_; }
    const AnchorInstanceInfo* GetInputInstanceInfo(size_t ir) const { return ir < inst_.size() ? &inst_[ir] : nullptr; }
    const RuntimeAttrs* GetAttrs() const { return attrs_; }
    size_t inputs_ = 0, outputs_ = 0;
    const char* name_ = "";
    std::vector<AnchorInstanceInfo> inst_;
    const RuntimeAttrs* attrs_ = nullptr;
};

// Everything the contexts expose, filled by the simulator's aclnn bridge.
struct OpCallInfo {
    std::string op_type;
    std::vector<int> ir_first;                      // first instance index of each IR input (-1 = absent optional)
    std::vector<int> ir_count;                      // instances of each IR input (dynamic lists)
    std::vector<StorageShape> in_shapes, out_shapes;
    std::vector<CompileTimeTensorDesc> in_desc, out_desc;
    std::vector<Tensor> in_tensors;
    RuntimeAttrs attrs;
    ComputeNodeInfo node;
    fe::PlatFormInfos platform;
    void* compile_info = nullptr;
    bool deterministic = false;
};

class ContextBase {
public:
    explicit ContextBase(OpCallInfo* info) : info_(info) {}
    const StorageShape* GetInputShape(size_t i) const { return i < info_->in_shapes.size() ? &info_->in_shapes[i] : nullptr; }
    const StorageShape* GetOptionalInputShape(size_t ir) const { int k = Inst(ir, 0); return k < 0 ? nullptr : &info_->in_shapes[k]; }
    const StorageShape* GetDynamicInputShape(size_t ir, size_t rel) const { int k = Inst(ir, rel); return k < 0 ? nullptr : &info_->in_shapes[k]; }
    const CompileTimeTensorDesc* GetInputDesc(size_t i) const { return i < info_->in_desc.size() ? &info_->in_desc[i] : nullptr; }
    const CompileTimeTensorDesc* GetOptionalInputDesc(size_t ir) const { int k = Inst(ir, 0); return k < 0 ? nullptr : &info_->in_desc[k]; }
    const CompileTimeTensorDesc* GetDynamicInputDesc(size_t ir, size_t rel) const { int k = Inst(ir, rel); return k < 0 ? nullptr : &info_->in_desc[k]; }
    const CompileTimeTensorDesc* GetOutputDesc(size_t i) const { return i < info_->out_desc.size() ? &info_->out_desc[i] : nullptr; }
    const Tensor* GetInputTensor(size_t i) const { return i < info_->in_tensors.size() ? &info_->in_tensors[i] : nullptr; }
    const Tensor* GetOptionalInputTensor(size_t ir) const { int k = Inst(ir, 0); return k < 0 ? nullptr : &info_->in_tensors[k]; }
    const Tensor* GetDynamicInputTensor(size_t ir, size_t rel) const { int k = Inst(ir, rel); return k < 0 ? nullptr : &info_->in_tensors[k]; }
    const RuntimeAttrs* GetAttrs() const { return &info_->attrs; }
    const char* GetNodeName() const { return info_->op_type.c_str(); }
    const char* GetNodeType() const { return info_->op_type.c_str(); }
    const ComputeNodeInfo* GetComputeNodeInfo() const { return &info_->node; }
    size_t GetComputeNodeInputNum() const { return info_->in_shapes.size(); }
    size_t GetComputeNodeOutputNum() const { return info_->out_shapes.size(); }
    const AnchorInstanceInfo* GetInputInstanceInfo(size_t ir) const { return info_->node.GetInputInstanceInfo(ir); }
    ge::DataType GetInputDataType(size_t i) const { return i < info_->in_desc.size() ? info_->in_desc[i].GetDataType() : ge::DT_UNDEFINED; }

protected:
    int Inst(size_t ir, size_t rel) const {
        if (ir >= info_->ir_first.size() || info_->ir_first[ir] < 0 || rel >= size_t(info_->ir_count[ir])) return -1;
        return info_->ir_first[ir] + int(rel);
    }
    OpCallInfo* info_;
};

// The common base of the kernel contexts (tiling, infer-shape, infer-datatype): host code reaches node-level queries
// such as GetComputeNodeOutputNum through it.
using ExtendedKernelContext = ContextBase;

class TilingContext : public ContextBase {
public:
    TilingContext(OpCallInfo* info, TilingData* raw) : ContextBase(info), raw_(raw) {}
    const StorageShape* GetOutputShape(size_t i) const { return i < info_->out_shapes.size() ? &info_->out_shapes[i] : nullptr; }
    fe::PlatFormInfos* GetPlatformInfo() const { return &info_->platform; }
    ge::graphStatus SetBlockDim(uint32_t d) { block_dim_ = d; block_dim_set_ = true; return ge::GRAPH_SUCCESS; }
    ge::graphStatus SetSimdNumBlocks(uint32_t d) { return SetBlockDim(d); }
    uint32_t GetBlockDim() const { return block_dim_; }
    ge::graphStatus SetTilingKey(uint64_t k) { tiling_key_ = k; return ge::GRAPH_SUCCESS; }
    uint64_t GetTilingKey() const { return tiling_key_; }
    TilingData* GetRawTilingData() { return raw_; }
    // A standard C++ TilingData struct written in place: the tiling data becomes sizeof(T) bytes (nullptr when the
    // buffer cannot hold it). Fields the host does not set keep whatever the buffer held.
    template <class T> T* GetTilingData() {
        if (!raw_ || raw_->GetCapacity() < sizeof(T)) return nullptr;
        raw_->SetDataSize(sizeof(T));
        return static_cast<T*>(raw_->GetData());
    }
    size_t* GetWorkspaceSizes(size_t n) {
        if (workspace_.size() < n) workspace_.resize(n, 0);
        return workspace_.data();
    }
    size_t GetWorkspaceNum() const { return workspace_.size(); }
    template <class T> const T* GetCompileInfo() const { return static_cast<const T*>(info_->compile_info); }
    const void* GetCompileInfo() const { return info_->compile_info; }
    int32_t GetDeterministic() const { return info_->deterministic ? 1 : 0; }
    ge::graphStatus SetScheduleMode(uint32_t m) { schedule_mode_ = m; return ge::GRAPH_SUCCESS; }
    ge::graphStatus SetNeedAtomic(bool) { return ge::GRAPH_SUCCESS; }
    ge::graphStatus SetLocalMemorySize(uint32_t) { return ge::GRAPH_SUCCESS; }
    ge::graphStatus SetAicpuBlockDim(uint32_t) { return ge::GRAPH_SUCCESS; }

    uint32_t block_dim_ = 0;
    bool block_dim_set_ = false;
    uint64_t tiling_key_ = 0;
    uint32_t schedule_mode_ = 0;
    std::vector<size_t> workspace_;

private:
    TilingData* raw_;
};

class TilingParseContext {
public:
    explicit TilingParseContext(OpCallInfo* info) : info_(info) {}
    template <class T> T* GetCompiledInfo() { return static_cast<T*>(info_->compile_info); }
    fe::PlatFormInfos* GetPlatformInfo() { return &info_->platform; }
    const char* GetCompiledJson() const { return "{}"; }
    const char* GetNodeName() const { return info_->op_type.c_str(); }

private:
    OpCallInfo* info_;
};

class InferShapeContext : public ContextBase {
public:
    using ContextBase::ContextBase;
    Shape* GetOutputShape(size_t i) { return i < info_->out_shapes.size() ? &info_->out_shapes[i].MutableStorageShape() : nullptr; }
    const Shape* GetInputShape(size_t i) const { return i < info_->in_shapes.size() ? &info_->in_shapes[i].GetStorageShape() : nullptr; }
    const Shape* GetOptionalInputShape(size_t ir) const { int k = Inst(ir, 0); return k < 0 ? nullptr : &info_->in_shapes[k].GetStorageShape(); }
    const Shape* GetDynamicInputShape(size_t ir, size_t rel) const { int k = Inst(ir, rel); return k < 0 ? nullptr : &info_->in_shapes[k].GetStorageShape(); }
};
class InferDataTypeContext : public ContextBase {
public:
    using ContextBase::ContextBase;
    ge::DataType GetOutputDataType(size_t i) const { return i < info_->out_desc.size() ? info_->out_desc[i].GetDataType() : ge::DT_UNDEFINED; }
    ge::graphStatus SetOutputDataType(size_t i, ge::DataType d) { if (i < info_->out_desc.size()) info_->out_desc[i].SetDataType(d); return ge::GRAPH_SUCCESS; }
    ge::DataType GetOptionalInputDataType(size_t ir) const { int k = Inst(ir, 0); return k < 0 ? ge::DT_UNDEFINED : info_->in_desc[k].GetDataType(); }
    ge::DataType GetDynamicInputDataType(size_t ir, size_t rel) const { int k = Inst(ir, rel); return k < 0 ? ge::DT_UNDEFINED : info_->in_desc[k].GetDataType(); }
};
class InferShapeRangeContext : public ContextBase { public: using ContextBase::ContextBase; };

using TilingKernelFunc = ge::graphStatus (*)(TilingContext*);
using TilingParseKernelFunc = ge::graphStatus (*)(TilingParseContext*);
using InferShapeKernelFunc = ge::graphStatus (*)(InferShapeContext*);
using InferDataTypeKernelFunc = ge::graphStatus (*)(InferDataTypeContext*);

}  // namespace gert
#endif  // ASCSIM_ASCSIM_HOST_GERT_H_
