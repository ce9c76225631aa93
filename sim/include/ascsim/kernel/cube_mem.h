// ascsim AIC side: the cube core's local memories (L1, L0A, L0B, L0C, BiasTable, Fixpipe buffer) and their
// allocation by TPipe::InitBuffer. Sizes and alignments of arch 2201 (reference §1.2); an AIV core has none.
#ifndef ASCSIM_ASCSIM_KERNEL_CUBE_MEM_H_
#define ASCSIM_ASCSIM_KERNEL_CUBE_MEM_H_
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <algorithm>
#include "../runtime_api.h"
#include "sync_check.h"

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

// Missing-sync detector for the AIC memories. The detector (src/runtime.cpp) tracks 32-byte blocks of the core's
// UB; an AIC never uses its UB (in_ub rejects every vector access there), so its block table holds a scaled map of
// the cube pools instead: L1 in 128 B granules, L0A / L0B in 256 B, L0C in 128 B, BiasTable and Fixpipe buffer in
// 32 B (179 KiB of the 192 KiB table). Same vector clocks, SetFlag/WaitFlag edges (MTE2_MTE1, MTE1_M, M_MTE1,
// M_FIX, FIX_M, ...), PipeBarrier<PIPE_ALL> and TQue events (A1/B1: MTE2 -> MTE1, A2/B2: MTE1 -> M, CO1: M -> FIX)
// as on the AIV. Reports name the cube memory and the offset in it (cube_sync_place); the map: L1 from 0x0, L0A from
// 0x20000, L0B from 0x22000, L0C from 0x24000, BiasTable from 0x2c000, Fixpipe buffer from 0x2c400.
struct CubeSyncMap { uint32_t off; uint32_t scale; };
inline CubeSyncMap cube_sync_map(int pool) {
    static const CubeSyncMap maps[POOL_COUNT] = {{0x0, 4}, {0x20000, 8}, {0x22000, 8}, {0x24000, 4}, {0x2c000, 1}, {0x2c400, 1}};
    return maps[pool];
}
// A detector-map offset as the cube memory it stands for ("L0C 0x400"), for reports on an AIC core.
inline std::string cube_sync_place(size_t map_off) {
    int pool = -1;
    for (int i = 0; i < POOL_COUNT; ++i)
        if (map_off >= cube_sync_map(i).off) pool = i;
    if (pool < 0) return "UB";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s 0x%zx", cube_pool_spec(pool).name,
                  (map_off - cube_sync_map(pool).off) * cube_sync_map(pool).scale);
    return buf;
}
// An access of [p, p + bytes) in a cube pool by `pipe` (sync_check.h pipe numbers, kRead / kWrite).
inline void sync_cube(int pipe, const char* api, const void* p, size_t bytes, int role) {
    if (!sync_on() || bytes == 0) return;
    CoreCtx& c = core();
    int pool = cube_pool_of(p);
    if (pool < 0 || c.core_type != 1 || !c.ub || c.ub_size < 0x2cc00u) return;
    CubeSyncMap m = cube_sync_map(pool);
    size_t off = size_t(static_cast<const uint8_t*>(p) - cube_mem()->base(pool));
    size_t end = std::min<size_t>(off + bytes, cube_pool_spec(pool).bytes);
    size_t lo = m.off + off / m.scale, hi = m.off + (end + m.scale - 1) / m.scale;
    sync_access(pipe, api, c.ub + lo, hi - lo, role);
}

[[noreturn]] inline void fail_cube(const char* api, const std::string& detail) {
    fail(api, "Failed to check cube operand", detail);
}
// The operand must lie in `pool`, start `align`-aligned and hold `bytes` inside the pool.
inline void check_in_pool(const char* api, const char* what, const void* p, int pool, uint32_t align, uint64_t bytes) {
    CubeMem* m = cube_mem();
    const CubePoolSpec& s = cube_pool_spec(pool);
    int got = cube_pool_of(p);
    if (got != pool)
        fail_cube(api, std::string(what) + " must be in " + s.name + " but lies in " + (got < 0 ? "no cube buffer" : cube_pool_spec(got).name));
    uint64_t off = uint64_t(static_cast<const uint8_t*>(p) - m->base(pool));
    if (off % align)
        fail(api, std::string("The ") + s.name + " address accessed by the cube instruction is not aligned.",
             std::string(what) + " at " + s.name + " offset " + std::to_string(off) + " must be " + std::to_string(align) + "-byte aligned");
    if (off + bytes > s.bytes)
        fail(api, std::string(s.name) + " address out of bounds",
             std::string(what) + " needs " + std::to_string(bytes) + " B from " + s.name + " offset " + std::to_string(off) +
                 " but " + s.name + " holds " + std::to_string(s.bytes) + " B");
}
}  // namespace ascsim
#endif  // ASCSIM_ASCSIM_KERNEL_CUBE_MEM_H_
