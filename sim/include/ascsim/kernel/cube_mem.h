// ascsim AIC side: the cube core's local memories (L1, L0A, L0B, L0C, BiasTable, Fixpipe buffer) and their
// allocation by TPipe::InitBuffer. Sizes and alignments of arch 2201 (reference §1.2); an AIV core has none.
#ifndef ASCSIM_ASCSIM_KERNEL_CUBE_MEM_H_
#define ASCSIM_ASCSIM_KERNEL_CUBE_MEM_H_
#include <cstdint>
#include <cstring>
#include <string>
#include "../runtime_api.h"

namespace ascsim {

enum CubePool : int { POOL_L1 = 0, POOL_L0A, POOL_L0B, POOL_L0C, POOL_BT, POOL_FB, POOL_COUNT };

struct CubePoolSpec { const char* name; uint32_t bytes; uint32_t align; };
inline const CubePoolSpec& cube_pool_spec(int p) {
    static const CubePoolSpec specs[POOL_COUNT] = {
        {"L1", 512 * 1024, 32}, {"L0A", 64 * 1024, 512}, {"L0B", 64 * 1024, 512},
        {"L0C", 128 * 1024, 64}, {"BiasTable", 1024, 64}, {"Fixpipe buffer", 2048, 64}};
    return specs[p];
}

struct CubeMem {
    alignas(4096) uint8_t l1[512 * 1024];
    alignas(4096) uint8_t l0a[64 * 1024];
    alignas(4096) uint8_t l0b[64 * 1024];
    alignas(4096) uint8_t l0c[128 * 1024];
    alignas(64) uint8_t bt[1024];
    alignas(64) uint8_t fb[2048];
    uint32_t used[POOL_COUNT] = {};
    const void* owner = nullptr;   // the TPipe whose InitBuffer calls own the bump pointers
    uint8_t* base(int p) {
        switch (p) {
            case POOL_L1: return l1;
            case POOL_L0A: return l0a;
            case POOL_L0B: return l0b;
            case POOL_L0C: return l0c;
            case POOL_BT: return bt;
            default: return fb;
        }
    }
    void poison() { std::memset(l1, 0xFF, sizeof l1); std::memset(l0a, 0xFF, sizeof l0a); std::memset(l0b, 0xFF, sizeof l0b);
                    std::memset(l0c, 0xFF, sizeof l0c); std::memset(bt, 0xFF, sizeof bt); std::memset(fb, 0xFF, sizeof fb); }
};

inline CubeMem* cube_mem() { return static_cast<CubeMem*>(core().cube); }

// Which pool a pointer lies in (-1: none). Only meaningful on an AIC core.
inline int cube_pool_of(const void* p) {
    CubeMem* m = cube_mem();
    if (!m) return -1;
    const uint8_t* q = static_cast<const uint8_t*>(p);
    for (int i = 0; i < POOL_COUNT; ++i) {
        uint8_t* b = m->base(i);
        if (q >= b && q < b + cube_pool_spec(i).bytes) return i;
    }
    return -1;
}

}  // namespace ascsim
#endif  // ASCSIM_ASCSIM_KERNEL_CUBE_MEM_H_
