// ascsim: tiling template programming on the host (the ASCENDC_TPL_* declarations of
// ascendc/host_api/tiling/template_argument.h): the declared parameters, the selected combinations, and the
// tiling key of a combination. Facts from the toolkit's documentation: a key packs the parameters in declaration
// order from the lowest bit, each in its declared width (8 bits for data types, formats and kernel types, 1 for a
// bool, the declared width for an unsigned parameter); an unsigned parameter stores the index of its value in the
// declared list, every other kind the value itself; more than 64 bits, or a value not declared, is an invalid key
// (all ones). The build instantiates the kernel entry template once per selected combination (opdump lists them).
#ifndef ASCSIM_HOST_TPL_H_
#define ASCSIM_HOST_TPL_H_
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace ascsim {
namespace tpl {
// Parameter kinds. DATATYPE (a native data type, passed to the kernel as a C++ type) and DTYPE (the operator's own
// enumeration, passed as an integer) encode alike; the build needs to tell them apart.
enum Kind : uint32_t { DTYPE = 0, FORMAT = 1, UINT = 2, BOOL = 3, KERNEL_TYPE = 4, DETERMINISTIC = 5, SHARED_KERNEL_TYPE = 6,
                       DATATYPE = 7, TILING_STRUCT = 8 };
enum UintMode : uint64_t { UI_RANGE = 0, UI_LIST = 1, UI_MIX = 2 };
constexpr uint64_t INVALID_KEY = ~0ULL;

struct Param {
    const char* name;
    uint32_t kind;
    uint32_t bits;
    std::vector<uint64_t> vals;   // UINT: the mode, then its numbers as written
};
using Params = std::vector<Param>;

inline void error(const std::string& what) { std::fprintf(stderr, "[ascsim] tiling template: %s\n", what.c_str()); }

// The values a parameter allows: an unsigned parameter's ranges expanded (both ends included) and list appended.
inline bool values(const Param& p, std::vector<uint64_t>& out) {
    out.clear();
    if (p.kind != UINT) {
        out = p.vals;
        return true;
    }
    if (p.vals.empty()) return false;
    uint64_t mode = p.vals[0];
    size_t i = 1;
    if (mode == UI_RANGE || mode == UI_MIX) {
        if (p.vals.size() < 2) return false;
        uint64_t n = p.vals[1];
        i = 2;
        if (p.vals.size() < i + 2 * n) return false;
        for (uint64_t r = 0; r < n; ++r, i += 2)
            for (uint64_t v = p.vals[i]; v <= p.vals[i + 1]; ++v) out.push_back(v);
    } else if (mode != UI_LIST) {
        return false;
    }
    if (mode == UI_RANGE && i != p.vals.size()) return false;
    for (; i < p.vals.size(); ++i) out.push_back(p.vals[i]);
    return !out.empty();
}

inline bool encodes(const Param& p) { return p.kind != KERNEL_TYPE && p.kind != DETERMINISTIC && p.kind != TILING_STRUCT; }

// The tiling key of `args` (one value per declared parameter, in declaration order).
inline uint64_t key(const Params& decl, const std::vector<uint64_t>& args) {
    uint64_t k = 0;
    uint32_t offset = 0;
    size_t n = 0;
    for (const Param& p : decl) {
        if (!encodes(p)) continue;
        if (n >= args.size()) break;
        uint64_t v = args[n++];
        if (p.kind == UINT) {
            std::vector<uint64_t> vals;
            if (!values(p, vals)) {
                error(std::string("parameter ") + p.name + ": malformed value list");
                return INVALID_KEY;
            }
            size_t idx = 0;
            while (idx < vals.size() && vals[idx] != v) ++idx;
            if (idx == vals.size()) {
                error(std::string("parameter ") + p.name + ": value " + std::to_string(v) + " is not declared");
                return INVALID_KEY;
            }
            v = idx;
        }
        if (p.bits == 0 || offset + p.bits > 64) {
            error("the declared parameters need more than 64 bits");
            return INVALID_KEY;
        }
        if (p.bits < 64 && v >> p.bits) {
            error(std::string("parameter ") + p.name + ": value " + std::to_string(v) + " does not fit its " +
                  std::to_string(p.bits) + " bits");
            return INVALID_KEY;
        }
        k |= v << offset;
        offset += p.bits;
    }
    return k;
}

template <class... A> inline uint64_t key_of(const Params& decl, A... args) {
    return key(decl, std::vector<uint64_t>{static_cast<uint64_t>(args)...});
}

// What opdump reports: per operator (the first argument of ASCENDC_TPL_ARGS_DECL), its declaration and selections.
struct Declared {
    const Params* decl = nullptr;
    std::vector<Params> groups;
};
inline std::map<std::string, Declared>& registry() {
    static std::map<std::string, Declared> r;
    return r;
}
inline int register_decl(const char* op, const Params& decl) {
    registry()[op].decl = &decl;
    return 0;
}
inline int register_sel(const Params& decl, const std::vector<Params>& groups) {
    for (auto& kv : registry())
        if (kv.second.decl == &decl) kv.second.groups = groups;
    return 0;
}
}  // namespace tpl
}  // namespace ascsim
#endif  // ASCSIM_HOST_TPL_H_
