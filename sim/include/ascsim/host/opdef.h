// ascsim host side: the OpDef prototype DSL, OP_ADD, and the op-impl registry (IMPL_OP_OPTILING & co).
#ifndef ASCSIM_ASCSIM_HOST_OPDEF_H_
#define ASCSIM_ASCSIM_HOST_OPDEF_H_
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>
#include "gert.h"
#include "tiling_def.h"

namespace ops {
enum Option { IGNORE = 0, OPTIONAL = 1, REQUIRED = 2, DYNAMIC = 3, VIRTUAL = 4 };
enum class DependScope : uint32_t { ALL = 0, TILING = 1, INVALID_SCOPE };
enum class FollowType : uint32_t { ALL = 0, DTYPE = 1, FORMAT = 2, SHAPE = 3, INVALID_TYPE };
enum class ItemFindStatus { ITEM_FIND = 0, ITEM_NOEXIST = 1 };

class OpParamDef {
public:
    explicit OpParamDef(const char* name = "") : name_(name) {}
    OpParamDef& ParamType(Option t) { type_ = t; return *this; }
    OpParamDef& DataType(std::vector<ge::DataType> types) { dtypes_ = std::move(types); return *this; }
    OpParamDef& DataTypeList(std::vector<ge::DataType> types) { dtypes_ = std::move(types); list_ = true; return *this; }
    OpParamDef& Format(std::vector<ge::Format> f) { formats_ = std::move(f); return *this; }
    OpParamDef& FormatList(std::vector<ge::Format> f) { formats_ = std::move(f); return *this; }
    OpParamDef& UnknownShapeFormat(std::vector<ge::Format> f) { if (formats_.empty()) formats_ = std::move(f); return *this; }
    // A data-dependent input: the only kind whose data the tiling/infer-shape contexts hand to host code (as on CANN,
    // where other inputs' tensors carry shape, format and dtype but a null data address).
    OpParamDef& ValueDepend(Option) { value_depend_ = true; return *this; }
    OpParamDef& ValueDepend(Option, DependScope) { value_depend_ = true; return *this; }
    OpParamDef& IgnoreContiguous() { return *this; }
    OpParamDef& AutoContiguous() { return *this; }
    OpParamDef& Scalar() { scalar_ = true; return *this; }
    OpParamDef& ScalarList() { scalar_list_ = true; return *this; }
    OpParamDef& Follow(const char* name) { follow_ = name; return *this; }
    OpParamDef& Follow(const char* name, FollowType) { follow_ = name; return *this; }
    OpParamDef& InitValue(uint64_t) { return *this; }
    // the kernel writes this output's real shape into an extra GM argument after the outputs (see exec_npu_cmd)
    OpParamDef& OutputShapeDependOnCompute() { shape_depends_on_compute_ = true; return *this; }
    OpParamDef& Comment(const char*) { return *this; }

    std::string name_;
    bool shape_depends_on_compute_ = false;
    Option type_ = REQUIRED;
    std::vector<ge::DataType> dtypes_;
    std::vector<ge::Format> formats_;
    bool scalar_ = false, scalar_list_ = false, list_ = false, value_depend_ = false;
    std::string follow_;
};

class OpAttrDef {
public:
    explicit OpAttrDef(const char* name = "") : name_(name) {}
    OpAttrDef& AttrType(Option t) { type_ = t; return *this; }
    OpAttrDef& Bool() { kind_ = gert::AttrValue::BOOL; return *this; }
    OpAttrDef& Bool(bool v) { kind_ = gert::AttrValue::BOOL; def_.b = v; has_default_ = true; return *this; }
    OpAttrDef& Float() { kind_ = gert::AttrValue::FLOAT; return *this; }
    OpAttrDef& Float(float v) { kind_ = gert::AttrValue::FLOAT; def_.f = v; has_default_ = true; return *this; }
    OpAttrDef& Int() { kind_ = gert::AttrValue::INT; return *this; }
    OpAttrDef& Int(int64_t v) { kind_ = gert::AttrValue::INT; def_.i = v; has_default_ = true; return *this; }
    OpAttrDef& String() { kind_ = gert::AttrValue::STR; return *this; }
    OpAttrDef& String(const char* v) { kind_ = gert::AttrValue::STR; def_.s = v; has_default_ = true; return *this; }
    OpAttrDef& ListInt() { kind_ = gert::AttrValue::LIST_INT; return *this; }
    OpAttrDef& ListInt(std::vector<int64_t> v) { kind_ = gert::AttrValue::LIST_INT; def_.li = std::move(v); has_default_ = true; return *this; }
    OpAttrDef& ListFloat() { kind_ = gert::AttrValue::LIST_FLOAT; return *this; }
    OpAttrDef& ListFloat(std::vector<float> v) { kind_ = gert::AttrValue::LIST_FLOAT; def_.lf = std::move(v); has_default_ = true; return *this; }
    OpAttrDef& ListBool() { kind_ = gert::AttrValue::LIST_BOOL; return *this; }
    OpAttrDef& ListBool(std::vector<bool> v) {
        kind_ = gert::AttrValue::LIST_BOOL;
        for (bool b : v) def_.lb.push_back(b);
        has_default_ = true;
        return *this;
    }
    OpAttrDef& Comment(const char*) { return *this; }

    std::string name_;
    Option type_ = OPTIONAL;
    gert::AttrValue::Kind kind_ = gert::AttrValue::NONE;
    gert::AttrValue def_;
    bool has_default_ = false;
};

class OpAICoreConfig {
public:
    OpAICoreConfig() = default;
    explicit OpAICoreConfig(const char*) {}
    OpParamDef& Input(const char* name) { ins_.emplace_back(name); return ins_.back(); }
    OpParamDef& Output(const char* name) { outs_.emplace_back(name); return outs_.back(); }
    OpAICoreConfig& DynamicCompileStaticFlag(bool) { return *this; }
    OpAICoreConfig& DynamicFormatFlag(bool) { return *this; }
    OpAICoreConfig& DynamicRankSupportFlag(bool) { return *this; }
    OpAICoreConfig& DynamicShapeSupportFlag(bool) { return *this; }
    OpAICoreConfig& NeedCheckSupportFlag(bool) { return *this; }
    OpAICoreConfig& PrecisionReduceFlag(bool) { return *this; }
    OpAICoreConfig& RangeLimitValue(const char*) { return *this; }
    OpAICoreConfig& ExtendCfgInfo(const char*, const char*) { return *this; }

private:
    std::vector<OpParamDef> ins_, outs_;
};

using OP_CHECK_FUNC = ge::graphStatus (*)(const void*, std::string&);
class OpAICoreDef {
public:
    OpAICoreDef& SetTiling(gert::TilingKernelFunc f) { tiling_ = f; return *this; }
    template <class F> OpAICoreDef& SetCheckSupport(F) { return *this; }
    template <class F> OpAICoreDef& SetOpSelectFormat(F) { return *this; }
    template <class F> OpAICoreDef& SetOpSupportInfo(F) { return *this; }
    template <class F> OpAICoreDef& SetOpSpecInfo(F) { return *this; }
    OpAICoreDef& AddConfig(const char* soc) { socs_.push_back(soc); return *this; }
    OpAICoreDef& AddConfig(const char* soc, OpAICoreConfig&) { socs_.push_back(soc); return *this; }
    gert::TilingKernelFunc tiling_ = nullptr;
    std::vector<std::string> socs_;
};

class OpDef {
public:
    explicit OpDef(const char* type) : type_(type) {}
    virtual ~OpDef() = default;
    OpParamDef& Input(const char* name) { inputs_.emplace_back(name); return inputs_.back(); }
    OpParamDef& Output(const char* name) { outputs_.emplace_back(name); return outputs_.back(); }
    OpAttrDef& Attr(const char* name) { attrs_.emplace_back(name); return attrs_.back(); }
    template <class F> OpDef& SetInferShape(F) { return *this; }
    template <class F> OpDef& SetInferShapeRange(F) { return *this; }
    template <class F> OpDef& SetInferDataType(F) { return *this; }
    OpAICoreDef& AICore() { return aicore_; }
    OpDef& Comment(const char*) { return *this; }
    OpDef& EnableFallBack() { return *this; }

    std::string type_;
    std::vector<OpParamDef> inputs_, outputs_;
    std::vector<OpAttrDef> attrs_;
    OpAICoreDef aicore_;
};

void RegisterOpDef(const char* type, std::unique_ptr<OpDef> def);
template <class T> struct OpDefRegistrar {
    explicit OpDefRegistrar(const char* type) { RegisterOpDef(type, std::unique_ptr<OpDef>(new T(type))); }
};
}  // namespace ops

#define OP_ADD(opType, ...) static ::ops::OpDefRegistrar<opType> g_ascsim_opdef_##opType(#opType)

namespace gert {
// IMPL_OP_OPTILING(Op).Tiling(f).TilingParse<CompileInfo>(g) and IMPL_OP_INFERSHAPE(Op).InferShape(f)...
class OpImplRegisterV2 {
public:
    explicit OpImplRegisterV2(const char* op_type) : op_(op_type) {}
    OpImplRegisterV2& Tiling(TilingKernelFunc f);
    OpImplRegisterV2& Tiling(TilingKernelFunc f, size_t) { return Tiling(f); }
    template <class CompileInfoT> OpImplRegisterV2& TilingParse(TilingParseKernelFunc f) {
        SetParse([f](OpCallInfo* info) -> std::shared_ptr<void> {
            std::shared_ptr<CompileInfoT> ci = std::make_shared<CompileInfoT>();
            info->compile_info = ci.get();
            TilingParseContext ctx(info);
            f(&ctx);
            return ci;
        });
        return *this;
    }
    template <class F> OpImplRegisterV2& InferShape(F) { return *this; }
    template <class F> OpImplRegisterV2& InferDataType(F) { return *this; }
    template <class F> OpImplRegisterV2& InferShapeRange(F) { return *this; }
    template <class F> OpImplRegisterV2& InferOutDataType(F) { return *this; }
    // The other way to declare data-dependent inputs (by IR index), for ops registered through IMPL_OP.
    OpImplRegisterV2& InputsDataDependency(std::initializer_list<int32_t> ir_inputs);
    OpImplRegisterV2& TilingInputsDataDependency(std::initializer_list<int32_t> ir_inputs) { return InputsDataDependency(ir_inputs); }
    template <class P> OpImplRegisterV2& TilingInputsDataDependency(std::initializer_list<int32_t> ir_inputs, P) {
        return InputsDataDependency(ir_inputs);
    }
    template <class... A> OpImplRegisterV2& PrivateAttr(A...) { return *this; }
    OpImplRegisterV2& OutputShapeDependOnCompute(std::initializer_list<int>) { return *this; }

private:
    void SetParse(std::function<std::shared_ptr<void>(OpCallInfo*)> f);
    std::string op_;
};
using OpImplRegister = OpImplRegisterV2;
}  // namespace gert

#define IMPL_OP(op_type) static ::gert::OpImplRegisterV2 ASCSIM_CAT(g_ascsim_impl_, __COUNTER__) = ::gert::OpImplRegisterV2(#op_type)
#define IMPL_OP_OPTILING(op_type) IMPL_OP(op_type)
#define IMPL_OP_INFERSHAPE(op_type) IMPL_OP(op_type)

namespace ascsim {
struct OpImpl {
    gert::TilingKernelFunc tiling = nullptr;
    std::function<std::shared_ptr<void>(gert::OpCallInfo*)> parse;
    std::set<int32_t> data_inputs;   // IR inputs declared data-dependent through InputsDataDependency
};
struct HostRegistry {
    std::map<std::string, std::unique_ptr<ops::OpDef>> opdefs;
    std::map<std::string, OpImpl> impls;
    std::map<std::string, std::string> tiling_class_of_op;          // "<Op>" / "<Op>_<key>" -> class
    std::map<std::string, optiling::TilingFactory> tiling_factories; // class -> factory
};
HostRegistry& host_registry();
}  // namespace ascsim
#endif  // ASCSIM_ASCSIM_HOST_OPDEF_H_
