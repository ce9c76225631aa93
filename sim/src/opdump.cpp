// ascsim opdump: linked with a candidate's host objects; prints the registered OpDefs and tiling classes as JSON
// so the build can generate the kernel-side tiling struct and the DTYPE_<NAME> combinations.
#include <cstdio>
#include <functional>
#include <set>
#include <string>
#include "ascsim/host/opdef.h"

static std::string q(const std::string& s) {
    std::string o = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') o += '\\';
        o += c;
    }
    return o + "\"";
}

static void dump_class(const optiling::TilingDef& t, std::set<std::string>& done, std::string& out) {
    std::string name = t.GetTilingClassName();
    if (done.count(name)) return;
    for (const auto& f : t.Fields())
        if (f.is_struct) dump_class(*reinterpret_cast<const optiling::TilingDef*>(reinterpret_cast<const uint8_t*>(&t) + f.offset_in_obj), done, out);
    done.insert(name);
    out += (out.empty() ? "" : ",") + q(name) + ":[";
    bool first = true;
    for (const auto& f : t.Fields()) {
        out += std::string(first ? "" : ",") + "{\"name\":" + q(f.name) + ",\"type\":" + q(f.type) + ",\"count\":" + std::to_string(f.count) +
               ",\"struct\":" + (f.is_struct ? "true" : "false") + "}";
        first = false;
    }
    out += "]";
}

int main() {
    auto& r = ascsim::host_registry();
    std::string ops;
    for (auto& kv : r.opdefs) {
        const ops::OpDef& d = *kv.second;
        auto params = [&](const std::vector<ops::OpParamDef>& ps) {
            std::string s = "[";
            for (size_t i = 0; i < ps.size(); ++i) {
                s += std::string(i ? "," : "") + "{\"name\":" + q(ps[i].name_) + ",\"param_type\":" + std::to_string(int(ps[i].type_)) +
                     ",\"scalar\":" + (ps[i].scalar_ ? "true" : "false") + ",\"dtypes\":[";
                for (size_t j = 0; j < ps[i].dtypes_.size(); ++j) s += std::string(j ? "," : "") + std::to_string(int(ps[i].dtypes_[j]));
                s += "]}";
            }
            return s + "]";
        };
        std::string attrs = "[";
        for (size_t i = 0; i < d.attrs_.size(); ++i) attrs += std::string(i ? "," : "") + q(d.attrs_[i].name_);
        attrs += "]";
        bool has_tiling = d.aicore_.tiling_ != nullptr || (r.impls.count(kv.first) && r.impls.at(kv.first).tiling);
        ops += (ops.empty() ? "" : ",") + q(kv.first) + ":{\"inputs\":" + params(d.inputs_) + ",\"outputs\":" + params(d.outputs_) +
               ",\"attrs\":" + attrs + ",\"has_tiling\":" + (has_tiling ? "true" : "false") + "}";
    }
    std::string tiling;
    for (auto& kv : r.tiling_class_of_op) tiling += (tiling.empty() ? "" : ",") + q(kv.first) + ":" + q(kv.second);
    std::string classes;
    std::set<std::string> done;
    for (auto& kv : r.tiling_factories) {
        auto obj = kv.second();
        dump_class(*obj, done, classes);
    }
    std::printf("{\"ops\":{%s},\"tiling\":{%s},\"classes\":{%s}}\n", ops.c_str(), tiling.c_str(), classes.c_str());
    return 0;
}
