// ascsim host side: the graph-mode operator view (graph/operator.h of the CANN graph API): ge::AscendString,
// ge::TensorDesc and ge::Operator with the documented accessors op-host code uses in CheckSupported /
// op-select-format callbacks. ascsim runs operators through aclnn, which never calls those callbacks
// (OpAICoreDef::SetCheckSupport records nothing); the classes hold what is set on them and answer as documented:
// a missing input/output name or index gives a default TensorDesc (DT_FLOAT, FORMAT_NCHW, empty shape),
// TryGet*/GetAttr answer GRAPH_FAILED for what is not there.
#ifndef ASCSIM_ASCSIM_HOST_GE_OPERATOR_H_
#define ASCSIM_ASCSIM_HOST_GE_OPERATOR_H_
#include <cstdint>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>
#include "ge_types.h"
#include "hl_tiling.h"   // ge::Shape

namespace ge {
class AscendString {
public:
    AscendString() = default;
    AscendString(const char_t* s) : s_(s ? s : "") {}   // NOLINT: implicit, as the graph API allows
    const char_t* GetString() const { return s_.c_str(); }
    size_t GetLength() const { return s_.size(); }
    bool operator<(const AscendString& o) const { return s_ < o.s_; }
    bool operator>(const AscendString& o) const { return s_ > o.s_; }
    bool operator==(const AscendString& o) const { return s_ == o.s_; }
    bool operator!=(const AscendString& o) const { return s_ != o.s_; }
    bool operator<=(const AscendString& o) const { return s_ <= o.s_; }
    bool operator>=(const AscendString& o) const { return s_ >= o.s_; }

private:
    std::string s_;
};

class TensorDesc {
public:
    TensorDesc() = default;
    explicit TensorDesc(Shape shape, Format format = FORMAT_ND, DataType dt = DT_FLOAT)
        : shape_(std::move(shape)), origin_shape_(shape_), format_(format), origin_format_(format), dtype_(dt) {}
    Shape GetShape() const { return shape_; }
    void SetShape(const Shape& s) { shape_ = s; }
    Shape GetOriginShape() const { return origin_shape_; }
    void SetOriginShape(const Shape& s) { origin_shape_ = s; }
    Format GetFormat() const { return format_; }
    void SetFormat(Format f) { format_ = f; }
    Format GetOriginFormat() const { return origin_format_; }
    void SetOriginFormat(Format f) { origin_format_ = f; }
    DataType GetDataType() const { return dtype_; }
    void SetDataType(DataType dt) { dtype_ = dt; }
    int64_t GetRealDimCnt() const { return int64_t(shape_.GetDimNum()); }

private:
    Shape shape_, origin_shape_;
    Format format_ = FORMAT_NCHW, origin_format_ = FORMAT_NCHW;
    DataType dtype_ = DT_FLOAT;
};

class Operator {
public:
    Operator() = default;
    explicit Operator(const char_t* type) : type_(type ? type : "") {}
    Operator(const AscendString& name, const AscendString& type) : name_(name.GetString()), type_(type.GetString()) {}

    graphStatus GetName(AscendString& name) const { name = AscendString(name_.c_str()); return GRAPH_SUCCESS; }
    graphStatus GetOpType(AscendString& type) const { type = AscendString(type_.c_str()); return GRAPH_SUCCESS; }

    TensorDesc GetInputDesc(const std::string& name) const { return find(ins_, name); }
    TensorDesc GetInputDescByName(const char_t* name) const { return find(ins_, name ? name : ""); }
    TensorDesc GetInputDesc(uint32_t index) const { return index < ins_.size() ? ins_[index].second : TensorDesc(); }
    TensorDesc GetOutputDesc(const std::string& name) const { return find(outs_, name); }
    TensorDesc GetOutputDescByName(const char_t* name) const { return find(outs_, name ? name : ""); }
    TensorDesc GetOutputDesc(uint32_t index) const { return index < outs_.size() ? outs_[index].second : TensorDesc(); }
    graphStatus TryGetInputDesc(const char_t* name, TensorDesc& d) const { return try_find(ins_, name, d); }
    graphStatus TryGetInputDesc(const std::string& name, TensorDesc& d) const { return try_find(ins_, name.c_str(), d); }
    graphStatus UpdateInputDesc(const char_t* name, const TensorDesc& d) { return update(ins_, name, d); }
    graphStatus UpdateOutputDesc(const char_t* name, const TensorDesc& d) { return update(outs_, name, d); }
    size_t GetInputsSize() const { return ins_.size(); }
    size_t GetOutputsSize() const { return outs_.size(); }

    // Attributes: integers are kept as int64_t, floating point as float (what the OpDef attribute kinds hold).
    template <class T> Operator& SetAttr(const char_t* name, const T& v) { attrs_[name ? name : ""] = store(v); return *this; }
    Operator& SetAttr(const char_t* name, const char_t* v) { attrs_[name ? name : ""] = std::string(v ? v : ""); return *this; }
    template <class T> graphStatus GetAttr(const char_t* name, T& out) const {
        auto it = attrs_.find(name ? name : "");
        if (it == attrs_.end()) return GRAPH_FAILED;
        return load(it->second, out) ? GRAPH_SUCCESS : GRAPH_FAILED;
    }
    template <class T> graphStatus GetAttr(const std::string& name, T& out) const { return GetAttr(name.c_str(), out); }

private:
    using Attr = std::variant<int64_t, float, bool, std::string, std::vector<int64_t>, std::vector<float>>;
    using Ports = std::vector<std::pair<std::string, TensorDesc>>;
    static TensorDesc find(const Ports& p, const std::string& name) {
        for (const auto& e : p) if (e.first == name) return e.second;
        return TensorDesc();
    }
    static graphStatus try_find(const Ports& p, const char_t* name, TensorDesc& d) {
        for (const auto& e : p) if (e.first == (name ? name : "")) { d = e.second; return GRAPH_SUCCESS; }
        return GRAPH_FAILED;
    }
    static graphStatus update(Ports& p, const char_t* name, const TensorDesc& d) {
        std::string n = name ? name : "";
        for (auto& e : p) if (e.first == n) { e.second = d; return GRAPH_SUCCESS; }
        p.emplace_back(n, d);
        return GRAPH_SUCCESS;
    }
    template <class T> static Attr store(const T& v) {
        if constexpr (std::is_same_v<T, bool>) return Attr(v);
        else if constexpr (std::is_integral_v<T>) return Attr(int64_t(v));
        else if constexpr (std::is_floating_point_v<T>) return Attr(float(v));
        else if constexpr (std::is_same_v<T, AscendString>) return Attr(std::string(v.GetString()));
        else if constexpr (std::is_same_v<T, std::vector<float>>) return Attr(v);
        else if constexpr (std::is_same_v<T, std::vector<int64_t>>) return Attr(v);
        else if constexpr (std::is_constructible_v<std::string, T>) return Attr(std::string(v));
        else return Attr(std::vector<int64_t>(v.begin(), v.end()));
    }
    template <class T> static bool load(const Attr& a, T& out) {
        if constexpr (std::is_same_v<T, bool>) {
            if (auto p = std::get_if<bool>(&a)) { out = *p; return true; }
        } else if constexpr (std::is_integral_v<T>) {
            if (auto p = std::get_if<int64_t>(&a)) { out = T(*p); return true; }
        } else if constexpr (std::is_floating_point_v<T>) {
            if (auto p = std::get_if<float>(&a)) { out = T(*p); return true; }
        } else if constexpr (std::is_same_v<T, AscendString>) {
            if (auto p = std::get_if<std::string>(&a)) { out = AscendString(p->c_str()); return true; }
        } else if constexpr (std::is_same_v<T, std::string>) {
            if (auto p = std::get_if<std::string>(&a)) { out = *p; return true; }
        } else if constexpr (std::is_same_v<T, std::vector<float>>) {
            if (auto p = std::get_if<std::vector<float>>(&a)) { out = *p; return true; }
        } else {
            if (auto p = std::get_if<std::vector<int64_t>>(&a)) { out = T(p->begin(), p->end()); return true; }
        }
        return false;
    }
    std::string name_, type_;
    Ports ins_, outs_;
    std::map<std::string, Attr> attrs_;
};
}  // namespace ge
#endif  // ASCSIM_ASCSIM_HOST_GE_OPERATOR_H_
