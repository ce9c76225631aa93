// ascsim opdump: linked with a candidate's host objects; prints the registered OpDefs and tiling classes as JSON
// so the build can generate the kernel-side tiling struct and the DTYPE_<NAME> combinations.
#include <cstdio>
#include <functional>
#include <set>
#include <string>
#include "ascsim/host/opdef.h"
#include "ascsim/host/tpl.h"

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

// The tiling-template combinations of each operator that declares some (ASCENDC_TPL_ARGS_DECL / ASCENDC_TPL_SEL): the
// kernel-side kind of each declared parameter, and per selected combination its values, its tiling key and the bit
// offset of each parameter (a data type given as ASCENDC_TPL_INPUT/OUTPUT(i) is the dtype of that tensor, known
// only per dtype combination of the build: its bits are left 0 in the key, and the build fills them in).
static std::string dump_tpl() {
    namespace tpl = ascsim::tpl;
    std::string out;
    for (auto& kv : tpl::registry()) {
        const tpl::Params& decl = *kv.second.decl;
        std::string params, instances, error;
        std::vector<const tpl::Param*> encoded;
        std::vector<uint32_t> offsets;
        uint32_t offset = 0;
        for (const tpl::Param& p : decl) {
            if (!tpl::encodes(p)) continue;
            encoded.push_back(&p);
            offsets.push_back(offset);
            offset += p.bits;
            params += (params.empty() ? "" : ",") + std::string("{\"name\":") + q(p.name) + ",\"kind\":" + std::to_string(p.kind) +
                      ",\"offset\":" + std::to_string(offsets.back()) + "}";
        }
        for (const tpl::Params& group : kv.second.groups) {
            std::vector<std::vector<uint64_t>> choices;
            int kernel_type = -1;
            for (const tpl::Param& s : group)
                if (s.kind == tpl::KERNEL_TYPE && !s.vals.empty()) kernel_type = int(s.vals[0]);
            for (const tpl::Param* d : encoded) {
                const tpl::Param* sel = nullptr;
                for (const tpl::Param& s : group)
                    if (std::string(s.name) == d->name) sel = &s;
                std::vector<uint64_t> vals;
                if (!sel) error = std::string("an ASCENDC_TPL_ARGS_SEL does not select parameter ") + d->name;
                else if (!tpl::values(*sel, vals)) error = std::string("malformed selection of parameter ") + d->name;
                choices.push_back(vals);
            }
            if (!error.empty()) break;
            std::vector<size_t> at(choices.size(), 0);
            bool empty = false;
            for (auto& c : choices) empty = empty || c.empty();
            while (!empty) {
                std::vector<uint64_t> args, keyed;
                std::string a;
                for (size_t i = 0; i < choices.size(); ++i) {
                    uint64_t v = choices[i][at[i]];
                    bool ref = encoded[i]->kind == tpl::DATATYPE && v >= 100000000;
                    args.push_back(v);
                    keyed.push_back(ref ? 0 : v);
                    a += (i ? "," : "") + std::to_string(v);
                }
                uint64_t key = tpl::key(decl, keyed);
                if (key == tpl::INVALID_KEY) { error = "a selected combination has no valid tiling key"; break; }
                instances += (instances.empty() ? "" : ",") + std::string("{\"args\":[") + a + "],\"key\":" + std::to_string(key) +
                             ",\"kernel_type\":" + std::to_string(kernel_type) + "}";
                size_t i = 0;
                while (i < at.size() && ++at[i] == choices[i].size()) at[i++] = 0;
                if (i == at.size()) break;
            }
            if (!error.empty()) break;
        }
        out += (out.empty() ? "" : ",") + q(kv.first) + ":{\"params\":[" + params + "],\"instances\":[" + instances +
               "],\"error\":" + q(error) + "}";
    }
    return out;
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
                s += "],\"formats\":[";
                for (size_t j = 0; j < ps[i].formats_.size(); ++j) s += std::string(j ? "," : "") + std::to_string(int(ps[i].formats_[j]));
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
    std::printf("{\"ops\":{%s},\"tiling\":{%s},\"classes\":{%s},\"tpl\":{%s}}\n", ops.c_str(), tiling.c_str(), classes.c_str(),
                dump_tpl().c_str());
    return 0;
}
