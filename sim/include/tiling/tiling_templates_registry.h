// ascsim: the ops repositories' registry of tiling templates (vendor include name). REGISTER_TILING_TEMPLATE(op,
// Class, priority) adds a TilingBaseClass-derived template for an op; DoTilingImpl(context) tries the op's
// templates from the lowest priority value up and keeps the first that tiles: one answering GRAPH_PARAM_INVALID
// (not capable of this input) passes to the next, any other failure ends the search with that failure.
#ifndef ASCSIM_TILING_TILING_TEMPLATES_REGISTRY_H_
#define ASCSIM_TILING_TILING_TEMPLATES_REGISTRY_H_
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include "tiling/tiling_base.h"

namespace optiling {

class TilingRegistry {
public:
    using Factory = std::function<std::unique_ptr<TilingBaseClass>(gert::TilingContext*)>;
    static TilingRegistry& GetInstance() {
        static TilingRegistry registry;
        return registry;
    }
    bool RegisterTemplate(const std::string& op, int32_t priority, Factory make) {
        auto& slot = templates_[op];
        if (slot.count(priority)) {
            std::fprintf(stderr, "[ascsim] REGISTER_TILING_TEMPLATE: op %s has two templates of priority %d\n", op.c_str(),
                         int(priority));
            return false;
        }
        slot.emplace(priority, std::move(make));
        return true;
    }
    ge::graphStatus DoTilingImpl(gert::TilingContext* context) {
        const char* op = context ? context->GetNodeType() : nullptr;
        auto it = op ? templates_.find(op) : templates_.end();
        if (it == templates_.end()) {
            std::fprintf(stderr, "[ascsim] TilingRegistry: no tiling template registered for op %s\n", op ? op : "(null)");
            return ge::GRAPH_FAILED;
        }
        for (auto& [priority, make] : it->second) {
            ge::graphStatus s = make(context)->DoTiling();
            if (s == ge::GRAPH_SUCCESS) return s;
            if (s != ge::GRAPH_PARAM_INVALID) return s;
        }
        std::fprintf(stderr, "[ascsim] TilingRegistry: no tiling template of op %s is capable of this input\n", op);
        return ge::GRAPH_FAILED;
    }

private:
    std::map<std::string, std::map<int32_t, Factory>> templates_;
};

template <class T> struct TilingTemplateRegistrar {
    TilingTemplateRegistrar(const char* op, int32_t priority) {
        TilingRegistry::GetInstance().RegisterTemplate(op, priority,
            [](gert::TilingContext* c) { return std::unique_ptr<TilingBaseClass>(new T(c)); });
    }
};

}  // namespace optiling

#define ASCSIM_TILING_CAT2(a, b) a##b
#define ASCSIM_TILING_CAT(a, b) ASCSIM_TILING_CAT2(a, b)
#define REGISTER_TILING_TEMPLATE(op, cls, priority) \
    static ::optiling::TilingTemplateRegistrar<cls> ASCSIM_TILING_CAT(ascsim_tiling_template_, __COUNTER__)(op, priority)
#endif  // ASCSIM_TILING_TILING_TEMPLATES_REGISTRY_H_
