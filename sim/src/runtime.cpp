// ascsim runtime: GM allocations with guards, the multi-core runner (one thread per simulated core, run one
// at a time so results are deterministic; SyncAll with deadlock detection), the strict-layer error channel,
// host registries, and the aclnn bridge (tiling -> launch -> copy back).
#include <csignal>
#include <exception>
#include <ucontext.h>
#include <malloc.h>
#include <pthread.h>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <tuple>
#include <memory>
#include <unordered_map>
#include <mutex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "ascsim/bridge.h"
#include "ascsim/host/opdef.h"
#include "ascsim/host/platform.h"
#include "ascsim/kernel/defs.h"
#include "ascsim/kernel/cube_mem.h"
#include "ascsim/runtime_api.h"

namespace ascsim {

struct KernelError : std::runtime_error { using std::runtime_error::runtime_error; };
struct CoreAbort {};   // unwinds a parked core after another core failed
struct NeedThreads {}; // a core reached SyncAll during a sequential run: redo the launch with core threads

// ---------------------------------------------------------------- GM ---------------------------------------
// The launch's GM tensors live in ONE segment, block after block, as torch_npu's caching allocator carves them out
// of a shared segment (every block = size + 32 B, rounded up to 512 B): the tiling buffer first (on the device it is
// the runtime's own memory, never next to a tensor), then inputs, outputs, workspace, system workspace. What an
// access outside its tensor does:
// - a read past the tensor returns whatever lies there (its padding: poison 0xFF; or the next block) and warns:
//   real kernels read whole aligned tail tiles and only write back the valid part;
// - a write past the tensor inside its own padded block warns (the 32 B pad exists for DMA tails);
// - a write reaching another tensor's block (input, output) is an error naming both; one reaching only the launch's
//   workspace or free memory warns and goes through: the device does not fault and no tensor of the harness lies
//   there (the workspace is the kernel's own scratch: what it breaks there shows in its results);
// - past the last block lies free device memory: the caching allocator keeps the blocks of earlier allocations (the
//   reference run of the same op, earlier cases) mapped, so such an access lands in cached memory far more often
//   than it faults. ascsim backs kFreeTail bytes of it and models the rest as reaching as far again as the launch's
//   own blocks (at least one 2 MiB small-block segment): writes there are dropped, reads return poison, both warn;
// - an access beyond that, or before the segment, faults like the device ("The DDR address of the MTE instruction
//   is out of range").
// Raw-pointer writes bypass the per-API check; the guards, the paddings and the backed free tail are verified after
// the run.
constexpr size_t kGuard = 4096;            // unmapped on the device: any access faults
constexpr size_t kFreeTail = 256 * 1024;   // backed free memory after the last block (>= one UB tile)
constexpr size_t kSmallSegment = 2 * 1024 * 1024;   // the caching allocator's segment for blocks of <= 1 MiB
constexpr uint8_t kCanary = 0xA5;
enum class GmKind { INPUT, OUTPUT, WORKSPACE, TILING, SYS };

struct GmRegion {
    std::string name;
    GmKind kind;
    size_t offset = 0;           // of its block within the segment
    uint8_t* base = nullptr;     // first byte handed to the kernel (set when the segment is materialised)
    size_t size = 0;             // logical bytes
    size_t padded = 0;           // bytes the device allocator gives (size + 32, rounded up to 512)
    const void* src = nullptr;   // host data copied in (nullptr: poison)
    std::vector<uint8_t> own;    // data the region owns (list descriptors), used when src is null
    std::vector<const GmRegion*> list_ptrs;   // list descriptor: element addresses appended after `own`
    bool written = false;
    bool tail_written = false;   // a write into its padding was already reported
    uint8_t tail_read = 0;       // already reported: reads past its end (1 padding, 2 next block, 4 free memory), 8 writes past its block
};
struct Launch {
    std::vector<std::unique_ptr<GmRegion>> regions;   // in segment order
    uint8_t* seg_raw = nullptr;  // the segment incl. its guards (from the GM pool)
    size_t seg_cap = 0;          // bytes at seg_raw
    uint8_t* seg = nullptr;      // first block
    size_t seg_used = 0;         // bytes of all blocks (the free tail follows)
    std::mutex m;
    std::condition_variable cv;
    int n = 0;                   // cores in this wave
    int64_t block_num = 0;
    int turn = -1;
    std::deque<std::condition_variable> core_cv;   // one per core thread of the wave: the baton wakes only its holder
    int registered = 0;          // mixed launches: core threads that have published their context
    std::vector<int> state;      // 0 ready, 1 parked in SyncAll, 2 done
    int parked = 0;
    bool aborted = false;
    std::string error;
    std::vector<std::string> warnings;
    std::set<std::string> warn_seen;
    uint32_t physical_cores = 48;
    uint64_t tiling_key = 0;
    uint8_t* workspace = nullptr;
    uint8_t* sys_workspace = nullptr;
    bool beyond_warned = false;      // an access reached the modelled free memory past the backed tail
    bool free_write_warned = false;  // a write landed in the backed free tail
    int sync_mode = 0;           // ASCSIM_SYNC_CHECK (0 off, 1 warn, 2 error)
    bool sync_auto = true;       // ASCSIM_CCE_AUTO_SYNC
};

static Launch* g_launch = nullptr;   // one launch at a time per process (EXEC_NPU_CMD is synchronous)
static std::mutex g_launch_mutex;

static thread_local CoreCtx t_dummy;
static thread_local CoreCtx* t_core = nullptr;
static thread_local int t_core_slot = -1;
static thread_local bool t_sequential = false;

CoreCtx& core() { return t_core ? *t_core : t_dummy; }
void bind_test_core(CoreCtx* ctx) { t_core = ctx; }

// ---------------------------------------------------------------- integer division by zero ----------------
// x86 traps on an integer division by zero (SIGFPE); the device's scalar unit runs such kernels (catlass block
// loops compute `idx % kLoopsNext` for a next block that does not exist, and use it only when there is one), as an
// aarch64 host would: quotient 0, remainder the dividend. On a simulated core's thread the trapping DIV/IDIV is
// decoded, given those results, and skipped; the launch warns once. Any other SIGFPE keeps its default action.
static thread_local int t_div_zero = 0;
namespace {
// Length of the DIV/IDIV at ip (0: not one), its operand width in bits.
size_t div_insn(const uint8_t* ip, int* bits) {
    size_t k = 0;
    bool op16 = false, rexw = false;
    for (;; ++k) {
        uint8_t b = ip[k];
        if (b == 0x66) { op16 = true; continue; }
        if (b == 0x67 || b == 0xF2 || b == 0xF3 || b == 0x2E || b == 0x3E || b == 0x26 || b == 0x36 || b == 0x64 || b == 0x65) continue;
        break;
    }
    if ((ip[k] & 0xF0) == 0x40) { rexw = ip[k] & 0x08; ++k; }
    uint8_t op = ip[k++];
    if (op != 0xF6 && op != 0xF7) return 0;
    uint8_t modrm = ip[k++];
    int reg = (modrm >> 3) & 7, mod = modrm >> 6, rm = modrm & 7;
    if (reg != 6 && reg != 7) return 0;
    if (mod != 3) {
        if (rm == 4) {
            uint8_t sib = ip[k++];
            if (mod == 0 && (sib & 7) == 5) k += 4;
        } else if (mod == 0 && rm == 5) {
            k += 4;
        }
        if (mod == 1) k += 1;
        if (mod == 2) k += 4;
    }
    *bits = op == 0xF6 ? 8 : rexw ? 64 : op16 ? 16 : 32;
    return k;
}
void on_sigfpe(int sig, siginfo_t* si, void* ucv) {
    auto* uc = static_cast<ucontext_t*>(ucv);
    int bits = 0;
    size_t len = 0;
    if (t_core && (si->si_code == FPE_INTDIV || si->si_code == FPE_INTOVF))
        len = div_insn(reinterpret_cast<const uint8_t*>(uc->uc_mcontext.gregs[REG_RIP]), &bits);
    if (!len) {   // not a simulated core's division: the default action (the signal is raised again on return)
        signal(sig, SIG_DFL);
        return;
    }
    greg_t& rax = uc->uc_mcontext.gregs[REG_RAX];
    greg_t& rdx = uc->uc_mcontext.gregs[REG_RDX];
    uint64_t a = uint64_t(rax);
    switch (bits) {
        case 8: rax = greg_t((a & ~uint64_t(0xFFFF)) | ((a & 0xFF) << 8)); break;             // AL = 0, AH = AL
        case 16: rax = greg_t(a & ~uint64_t(0xFFFF)); rdx = greg_t((uint64_t(rdx) & ~uint64_t(0xFFFF)) | (a & 0xFFFF)); break;
        case 32: rax = 0; rdx = greg_t(a & 0xFFFFFFFFu); break;
        default: rax = 0; rdx = greg_t(a); break;
    }
    uc->uc_mcontext.gregs[REG_RIP] += greg_t(len);
    ++t_div_zero;
}
}  // namespace
void install_div_zero_handler() {
    static std::once_flag once;
    std::call_once(once, [] {
        struct sigaction sa;
        std::memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_sigfpe;
        sa.sa_flags = SA_SIGINFO;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGFPE, &sa, nullptr);
    });
}
int take_div_zero_count() { int n = t_div_zero; t_div_zero = 0; return n; }
static void report_div_zero() {
    if (int n = take_div_zero_count())
        warn("kernel", std::to_string(n) + " integer division(s) by zero in kernel code: x86 would trap; the device runs "
                       "on (ascsim gives quotient 0, remainder the dividend, as an aarch64 host does)");
}

std::string hexaddr(const void* p) {
    char b[32];
    std::snprintf(b, sizeof b, "0x%llx", (unsigned long long)(uintptr_t)p);
    return b;
}

static std::string core_tag() {
    if (!t_core) return "host";
    return "core " + std::to_string(t_core->block_idx) + (t_core->core_type == 1 ? " (AIC)" : " (AIV)");
}

[[noreturn]] void fail(const char* api, const std::string& hw_error, const std::string& detail) {
    std::string msg = "EZ9999: Inner Error! [ascsim] " + core_tag() + ": " + api + ": " + hw_error +
                      (detail.empty() ? "" : " (" + detail + ")");
    throw KernelError(msg);
}

void warn(const char* api, const std::string& detail) {
    Launch* L = g_launch;
    std::string msg = std::string(api) + ": " + detail;
    if (!L) { std::fprintf(stderr, "[ascsim] warning: %s\n", msg.c_str()); return; }
    if (L->warn_seen.insert(msg).second && L->warnings.size() < 50) L->warnings.push_back(core_tag() + ": " + msg);
}

[[noreturn]] void fail_ub_bounds(const char* api, const void* p, size_t bytes) {
    const uint8_t* b = core().ub;
    long long off = b ? (long long)((const uint8_t*)p - b) : -1;
    fail(api, "VEC instruction error: the ub address out of bounds.",
         "access of " + std::to_string(bytes) + " B at UB offset " + std::to_string(off) + " exceeds the " +
             std::to_string(core().ub_size) + " B unified buffer");
}
[[noreturn]] void fail_ub_align(const char* api, const void* p, uint32_t align) {
    fail(api, "The UB address accessed by the VEC instruction is not aligned.",
         "operand at UB offset " + std::to_string((const uint8_t*)p - core().ub) + " must be " + std::to_string(align) + "-byte aligned");
}
[[noreturn]] void fail_queue(const char* api, const std::string& detail) { fail(api, "TQue/TBuf misuse", detail); }
[[noreturn]] void assert_failed(const char* expr, const char* file, int line) {
    fail("ASSERT", "kernel assertion failed", std::string(expr) + " at " + file + ":" + std::to_string(line));
}

// The block holding segment byte q (regions are contiguous, in address order); nullptr past the last block.
static GmRegion* gm_block_at(Launch* L, const uint8_t* q) {
    auto it = std::upper_bound(L->regions.begin(), L->regions.end(), q,
                               [](const uint8_t* x, const std::unique_ptr<GmRegion>& r) { return x < r->base; });
    if (it == L->regions.begin()) return nullptr;
    GmRegion* r = std::prev(it)->get();
    return q < r->base + r->padded ? r : nullptr;
}

static std::string gm_where(const GmRegion* r, const uint8_t* q) {
    return std::to_string((long long)(q - r->base)) + " B from the start of '" + r->name + "' (" + std::to_string(r->size) + " B)";
}

// Blocks that hold the harness's data (inputs, outputs, tiling): a write reaching one is an error, not a warning.
static bool holds_harness_data(const GmRegion* r) { return r->kind == GmKind::INPUT || r->kind == GmKind::OUTPUT || r->kind == GmKind::TILING; }

// Free device memory past the last block that the model treats as mapped (see the layout comment above).
static const uint8_t* gm_mapped_end(const Launch* L) {
    return L->seg + L->seg_used + std::max(kFreeTail, std::max(kSmallSegment, L->seg_used));
}

static size_t gm_access(const void* p, size_t bytes, bool write, const char* api, bool modelled_free) {
    Launch* L = g_launch;
    if (!L || !L->seg) return bytes;
    const uint8_t* q = static_cast<const uint8_t*>(p);
    const uint8_t* backed = L->seg + L->seg_used + kFreeTail;
    const uint8_t* end = modelled_free ? gm_mapped_end(L) : backed;
    if (q < L->seg || q + bytes > end || bytes > size_t(end - L->seg)) {
        std::string near;
        if (q >= L->seg && q < end) {
            GmRegion* r = gm_block_at(L, q);
            near = r ? " (" + gm_where(r, q) + "; the access runs past the end of the device memory segment)" : "";
        } else if (!L->regions.empty()) {
            const GmRegion* r = q < L->seg ? L->regions.front().get() : L->regions.back().get();
            long long off = (long long)(q - r->base);
            if (off > -(long long)kGuard * 4 && off < (long long)(size_t(end - r->base) + kGuard * 4))
                near = " (" + gm_where(r, q) + ")";
        }
        fail(api, "The DDR address of the MTE instruction is out of range.",
             std::string(write ? "write" : "read") + " of " + std::to_string(bytes) + " B at " + hexaddr(p) + near);
    }
    if (q + bytes > backed) {   // into the modelled free memory: the backed part is checked as usual
        size_t keep = q < backed ? size_t(backed - q) : 0;
        if (!L->beyond_warned) {
            L->beyond_warned = true;
            const GmRegion* last = L->regions.empty() ? nullptr : L->regions.back().get();
            warn(api, std::string(write ? "write" : "read") + " of " + std::to_string(bytes) + " B reaching " +
                          std::to_string((long long)(q + bytes - (L->seg + L->seg_used))) + " B past the last allocation" +
                          (last ? " ('" + last->name + "')" : std::string()) +
                          " lands in free device memory: the device does not fault there; ascsim " +
                          (write ? "drops the write" : "returns poison"));
        }
        if (keep) gm_access(p, keep, write, api, false);
        return keep;
    }
    GmRegion* r = gm_block_at(L, q);
    const uint8_t* last = q + (bytes ? bytes - 1 : 0);
    if (!write) {
        if (!r) { warn(api, "read of " + std::to_string(bytes) + " B in unallocated device memory after the last tensor (returns poison)"); return bytes; }
        if (last < r->base + r->size) return bytes;
        GmRegion* o = gm_block_at(L, last);
        uint8_t kind = o == r ? 1 : o ? 2 : 4;   // reported once per tensor and kind of memory reached
        if (r->tail_read & kind) return bytes;
        r->tail_read |= kind;
        std::string into = o == r ? "its allocator padding (ascsim returns poison)" :
                           o ? "the next allocation '" + o->name + "' (whatever lies there)" : "unallocated segment memory (poison)";
        warn(api, "read of " + std::to_string(bytes) + " B at " + gm_where(r, q) + " runs past its end into " + into +
                      "; the device does not fault, so the values read there must not reach the result");
        return bytes;
    }
    if (!r) {
        if (!L->free_write_warned) {
            L->free_write_warned = true;
            warn(api, "write of " + std::to_string(bytes) + " B at " + hexaddr(p) + " lands in free device memory after the last "
                      "allocation (no tensor lies there; the device does not fault)");
        }
        return bytes;
    }
    if (r->kind == GmKind::TILING) fail(api, "kernel wrote the tiling buffer", "tiling data is read-only for kernels");
    if (last >= r->base + r->padded) {
        // every block the write reaches after its own: a tensor there is corrupted; the workspace and free memory are not
        std::string reached;
        for (size_t i = 0; i < L->regions.size(); ++i) {
            GmRegion* o = L->regions[i].get();
            if (o->base <= r->base || o->base > last) continue;
            if (holds_harness_data(o))
                fail(api, "write past the end of a tensor corrupts another allocation",
                     "write of " + std::to_string(bytes) + " B at " + gm_where(r, q) + " reaches '" + o->name + "' (" +
                         std::to_string((long long)(std::min<const uint8_t*>(last, o->base + o->padded - 1) - o->base)) +
                         " B into its block); on the device this silently overwrites whatever the allocator placed there");
            if (reached.empty()) reached = "'" + o->name + "'";
        }
        if (!(r->tail_read & 8)) {
            r->tail_read |= 8;
            warn(api, "write of " + std::to_string(bytes) + " B at " + gm_where(r, q) + " runs past its block into " +
                          (reached.empty() ? std::string("free device memory") : "the launch's own " + reached) +
                          " (no tensor of the harness lies there; the device does not fault)");
        }
    }
    if (r->kind == GmKind::INPUT && !r->written)
        warn(api, "kernel writes into input tensor '" + r->name + "' (an in-place update: judged against the reference's own mutation)");
    r->written = true;
    if (last >= r->base + r->size && last < r->base + r->padded && !r->tail_written) {
        r->tail_written = true;
        warn(api, "write of " + std::to_string(bytes) + " B at " + gm_where(r, q) +
                      " runs past its end into its own allocator padding (harmless on the device; the harness never sees it)");
    }
    return bytes;
}

void check_gm(const void* p, size_t bytes, bool write, const char* api) { gm_access(p, bytes, write, api, false); }
size_t gm_backed(const void* p, size_t bytes, bool write, const char* api) { return gm_access(p, bytes, write, api, true); }

// ---------------------------------------------------------------- sync ------------------------------------
void set_flag(int evt, int id, const char* api) {
    if (id < 0 || id >= kMaxEventId) fail(api, "Failed to check eventID value", "event id " + std::to_string(id) + " outside 0 ~ 7");
    // Counted, not binary: a second SetFlag before its WaitFlag is undefined on paper, but code that sets one
    // (event, id) twice and then waits twice (FetchEventID reserves nothing, so two fetches return the same id) works
    // on the device because the waiting pipe consumes the first set before the source pipe issues the second.
    uint8_t& f = core().flags[evt % kNumHardEvents][id];
    if (f) warn(api, "SetFlag on an event id that is already set (undefined on hardware; ascsim lets each WaitFlag "
                     "consume one SetFlag, the order the pipes usually run in)");
    if (f < 255) ++f;
}
void print_record(const char* data, size_t bytes) {
    static std::mutex mu;
    std::lock_guard<std::mutex> lock(mu);
    std::fwrite(data, 1, bytes, stdout);
    std::fflush(stdout);
}

void wait_flag(int evt, int id, const char* api) {
    if (id < 0 || id >= kMaxEventId) fail(api, "Failed to check eventID value", "event id " + std::to_string(id) + " outside 0 ~ 7");
    uint8_t& f = core().flags[evt % kNumHardEvents][id];
    // A core already ending with an error unwinds through the kernel's destructors, which often wait for the events
    // their constructors set (catlass BlockMmad): the first error is the one to report; a second throw from a
    // destructor would abort the process.
    if (!f && std::uncaught_exceptions() > 0) return;
    if (!f) fail(api, "[aicore timeout] timeout or trap error", "WaitFlag on an event that was never set: the pipe would wait forever");
    --f;
}

// ---------------------------------------------------------------- missing-sync detector -------------------
// Per core: one vector clock per pipe (S, V, M, MTE1, MTE2, MTE3, FIX). Every access hook is one instruction of
// its pipe (the pipe's own component ticks). Happens-before edges join clocks: SetFlag snapshots the source
// pipe's clock, WaitFlag joins it into the destination pipe; PipeBarrier<PIPE_ALL> joins everything; TQue
// EnQue/DeQue and FreeTensor/AllocTensor do the same between the queue's producer and consumer pipes. The UB is
// tracked per 32-byte block (last writer, last read per pipe); an access whose conflicting predecessor on another
// pipe is not ordered before it is a race on the device. --cce-auto-sync=on is modelled by joining S<->V/MTE2/MTE3
// conflicts silently (the compiler inserts exactly that sync), V->V is same-pipe and never reported.
namespace {
constexpr int kNP = 7;
const char* const kPipeNames[kNP] = {"S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX"};
const char* const kHardEventNames[] = {"MTE2_MTE1", "MTE1_MTE2", "MTE1_M", "M_MTE1", "MTE2_V", "V_MTE2", "MTE3_V", "V_MTE3",
                                       "M_V", "V_M", "V_V", "MTE3_MTE1", "MTE1_MTE3", "MTE1_V", "MTE2_M", "M_MTE2", "V_MTE1",
                                       "M_FIX", "FIX_M", "MTE3_MTE2", "MTE2_MTE3", "S_V", "V_S", "S_MTE2", "MTE2_S", "S_MTE3",
                                       "MTE3_S", "MTE2_FIX", "FIX_MTE2", "FIX_S", "M_S", "FIX_MTE3", "MTE1_FIX", "FIX_MTE1",
                                       "FIX_FIX"};
inline int pipe_index(int pipe) { return pipe >= 0 && pipe <= 5 ? pipe : pipe == 10 ? 6 : -1; }
struct Clock {
    uint32_t c[kNP] = {};
    void join(const Clock& o) { for (int i = 0; i < kNP; ++i) c[i] = std::max(c[i], o.c[i]); }
};
struct Block {
    uint32_t wt = 0;                 // clock of the last write (0: never written)
    int8_t wp = -1;                  // its pipe
    const char* wapi = nullptr;
    uint32_t rt[kNP] = {};           // last read per pipe since that write
    const char* rapi[kNP] = {};
};
// TPosition values (kernel/defs.h)
enum { P_GM = 0, P_A1, P_A2, P_B1, P_B2, P_C1, P_C2, P_CO1, P_CO2, P_VECIN, P_VECOUT, P_VECCALC };
int pos_producer(int pos) {
    switch (pos) {
        case P_VECIN: case P_A1: case P_B1: case P_C1: return 4;   // GM -> UB / L1: MTE2
        case P_A2: case P_B2: case P_C2: return 3;                  // L1 -> L0: MTE1
        case P_CO1: return 2;                                       // Mmad
        case P_CO2: return 6;                                       // Fixpipe
        default: return 1;                                          // VECOUT / VECCALC: vector results
    }
}
int pos_consumer(int pos) {
    switch (pos) {
        case P_VECOUT: case P_CO2: return 5;                        // UB -> GM: MTE3
        case P_A1: case P_B1: case P_C1: return 3;
        case P_A2: case P_B2: case P_C2: return 2;
        case P_CO1: return 6;
        default: return 1;                                          // VECIN / VECCALC: vector instructions
    }
}
int que_producer(int src, int dst) { return pos_producer(src == P_GM ? dst : src); }
int que_consumer(int src, int dst) {
    if (src == dst || dst == P_GM) return pos_consumer(src);
    if (src == P_GM) return pos_consumer(dst);
    if (dst == P_VECOUT || dst == P_A1 || dst == P_B1 || dst == P_C1) return 5;   // VECIN->VECOUT, VECOUT->L1: MTE3
    return pos_consumer(dst);
}
}  // namespace

struct SyncState {
    int mode = 1;
    bool auto_sync = true;
    Clock vc[kNP];
    std::vector<Block> blocks;
    std::map<int, Clock> flags;                           // (src, dst, id) -> snapshot of SetFlag
    std::unordered_map<const void*, Clock> enq, freed;   // queue slot -> EnQue / FreeTensor snapshot
    std::set<std::tuple<const char*, const char*, int, int>> seen;
    uint64_t reports = 0;
    std::string last;
};

bool g_sync_active = false;
void sync_attach(CoreCtx& c, int mode, bool auto_sync) {
    sync_detach(c);
    if (mode <= 0) return;
    g_sync_active = true;
    auto* s = new SyncState;
    s->mode = mode;
    s->auto_sync = auto_sync;
    s->blocks.resize(c.ub_size / 32);
    c.sync = s;
}
void sync_detach(CoreCtx& c) {
    delete c.sync;
    c.sync = nullptr;
}
int sync_check_mode_from_env() {
    const char* e = std::getenv("ASCSIM_SYNC_CHECK");
    if (!e || !*e) return 0;
    std::string v(e);
    if (v == "warn" || v == "1" || v == "on") return 1;
    if (v == "error" || v == "fail" || v == "2") return 2;
    return 0;
}
bool sync_auto_from_env() {
    const char* e = std::getenv("ASCSIM_CCE_AUTO_SYNC");
    if (!e || !*e) return true;
    std::string v(e);
    return !(v == "off" || v == "0" || v == "false");
}
uint64_t sync_report_count(const CoreCtx& c) { return c.sync ? c.sync->reports : 0; }
std::string sync_last_report(const CoreCtx& c) { return c.sync ? c.sync->last : std::string(); }

static void sync_conflict(SyncState* S, int q, const char* qapi, int p, const char* api, size_t ub_off, const char* kind) {
    bool implied = S->auto_sync && ((p == 0 && (q == 1 || q == 4 || q == 5)) || (q == 0 && (p == 1 || p == 4 || p == 5)));
    S->vc[p].join(S->vc[q]);   // the sync the compiler inserts, or (after a report) the one that was missing
    if (implied) return;
    if (!S->seen.insert({qapi, api, q, p}).second) return;
    ++S->reports;
    std::string ev = std::string(kPipeNames[q]) + "_" + kPipeNames[p];
    bool known = false;
    for (const char* n : kHardEventNames) known |= ev == n;
    char off[32];
    std::snprintf(off, sizeof off, "UB 0x%zx", ub_off);
    std::string place = core().core_type == 1 ? cube_sync_place(ub_off) : std::string(off);   // AIC: cube memories
    std::string how = known ? "missing SetFlag<HardEvent::" + ev + ">/WaitFlag" :
                              "missing sync (no HardEvent orders PIPE_" + std::string(kPipeNames[q]) + " before PIPE_" +
                                  kPipeNames[p] + "; use PipeBarrier<PIPE_ALL>)";
    std::string msg = how + " between " + (qapi ? qapi : "?") + " (" + kPipeNames[q] + ") and " + api + " (" + kPipeNames[p] +
                      ") on " + place + " (" + kind + "; the pipes run asynchronously on the device)";
    S->last = msg;
    if (S->mode >= 2) fail(api, "missing synchronisation between pipes (data race on the device)", msg);
    warn("sync check", msg);
}

void sync_access(int pipe, const char* api, const void* p, size_t bytes, int role) {
    bool write = role != 0, check_war = role == 1;
    CoreCtx& c = core();
    SyncState* S = c.sync;
    int pp = pipe_index(pipe);
    if (!S || pp < 0 || !c.ub || bytes == 0) return;
    const uint8_t* q = static_cast<const uint8_t*>(p);
    const uint8_t* lo = std::max(q, static_cast<const uint8_t*>(c.ub));
    const uint8_t* hi = std::min(q + bytes, static_cast<const uint8_t*>(c.ub) + c.ub_size);
    if (lo >= hi) return;
    size_t b0 = size_t(lo - c.ub) / 32, b1 = (size_t(hi - c.ub) + 31) / 32;
    Clock& me = S->vc[pp];
    uint32_t t = ++me.c[pp];
    for (size_t b = b0; b < b1 && b < S->blocks.size(); ++b) {
        Block& k = S->blocks[b];
        if (k.wp >= 0 && k.wp != pp && me.c[k.wp] < k.wt)
            sync_conflict(S, k.wp, k.wapi, pp, api, b * 32, check_war ? "write after write" : "read after write");
        if (write) {
            for (int r = 0; r < kNP && check_war; ++r)
                if (r != pp && k.rt[r] && me.c[r] < k.rt[r]) sync_conflict(S, r, k.rapi[r], pp, api, b * 32, "write after read");
            k.wt = t; k.wp = int8_t(pp); k.wapi = api;
            for (int r = 0; r < kNP; ++r) k.rt[r] = 0;
        } else {
            k.rt[pp] = t;
            k.rapi[pp] = api;
        }
    }
}
void sync_flag(int src_pipe, int dst_pipe, int id, bool set) {
    SyncState* S = core().sync;
    int sp = pipe_index(src_pipe), dp = pipe_index(dst_pipe);
    if (!S || sp < 0 || dp < 0) return;
    int key = (sp * kNP + dp) * 64 + (id & 63);
    if (set) { S->flags[key] = S->vc[sp]; return; }
    auto it = S->flags.find(key);
    if (it == S->flags.end()) return;
    S->vc[dp].join(it->second);
    S->flags.erase(it);
}
void sync_barrier_all() {
    SyncState* S = core().sync;
    if (!S) return;
    Clock all;
    for (auto& v : S->vc) all.join(v);
    for (auto& v : S->vc) v = all;
}
void sync_queue_event(int event, const void* slot, int src_pos, int dst_pos) {
    SyncState* S = core().sync;
    if (!S) return;
    int prod = que_producer(src_pos, dst_pos), cons = que_consumer(src_pos, dst_pos);
    switch (event) {
        case 0: { auto it = S->freed.find(slot); if (it != S->freed.end()) S->vc[prod].join(it->second); break; }   // AllocTensor
        case 1: S->enq[slot] = S->vc[prod]; break;                                                                   // EnQue
        case 2: { auto it = S->enq.find(slot); if (it != S->enq.end()) S->vc[cons].join(it->second); break; }       // DeQue
        case 3: S->freed[slot] = S->vc[cons]; break;                                                                 // FreeTensor
        default: break;
    }
}
namespace {
struct SyncGuard {   // attaches the detector to a core for the kernel's run
    CoreCtx& c;
    SyncGuard(CoreCtx& ctx, int mode, bool auto_sync) : c(ctx) { if (mode) sync_attach(c, mode, auto_sync); }
    ~SyncGuard() { sync_detach(c); }
};
}  // namespace

// Cores run one at a time in zig-zag order (0, n-1, 1, n-2, ...): a reducer on the first or the last core then
// runs before most producers, so a missing SyncAll shows up as wrong data instead of passing by luck.
static int zigzag_slot(int n, int pos) { return pos % 2 == 0 ? pos / 2 : n - 1 - pos / 2; }
static int zigzag_pos(int n, int slot) { return slot < (n + 1) / 2 ? 2 * slot : 2 * (n - 1 - slot) + 1; }

// Core threads take turns, so malloc arenas of their own buy them nothing, and glibc gives each new thread one (up to
// 8 per host CPU), each reserving 64 MiB of address space: the 72 core threads of a mixed launch reserved 4.6 GiB on a
// 16-CPU host and failed the 4 GiB address-space limit of a case (timeouts, memory errors) that 2 CPUs meet easily.
[[maybe_unused]] static const bool g_few_arenas = mallopt(M_ARENA_MAX, 2) == 1;

// A simulator error raised where C++ cannot unwind (a kernel object's destructor is noexcept) ends the process: say
// why before the default handler aborts, or the case log holds only "terminate called ...".
static void say_why_and_abort() {
    if (std::exception_ptr e = std::current_exception()) {
        try {
            std::rethrow_exception(e);
        } catch (const std::exception& x) {
            std::fprintf(stderr, "%s\n", x.what());
        } catch (...) {
        }
    }
    std::fflush(stderr);
    std::abort();
}
[[maybe_unused]] static const std::terminate_handler g_previous_terminate = std::set_terminate(say_why_and_abort);

// Hand the baton to core slot j (j < 0: nobody runs any more; everyone waiting re-checks).
static void give_turn_locked(Launch* L, int j) {
    L->turn = j;
    if (j >= 0 && j < int(L->core_cv.size())) { L->core_cv[j].notify_one(); return; }
    for (auto& c : L->core_cv) c.notify_all();
    L->cv.notify_all();
}

static void pass_baton_locked(Launch* L, int from) {
    int p0 = zigzag_pos(L->n, from);
    for (int k = 1; k <= L->n; ++k) {
        int j = zigzag_slot(L->n, (p0 + k) % L->n);
        if (L->state[j] == 0) { give_turn_locked(L, j); return; }
    }
    bool all_done = std::all_of(L->state.begin(), L->state.end(), [](int s) { return s == 2; });
    if (all_done) { give_turn_locked(L, -2); return; }
    // Everyone left is parked in SyncAll but some cores finished without it: the hardware would hang.
    if (!L->aborted) {
        int done = 0;
        for (int s : L->state) done += s == 2;
        L->aborted = true;
        int xwait = 0;
        for (int s : L->state) xwait += s == 3;   // parked in CrossCoreWaitFlag (mixed launches)
        if (xwait)
            L->error = "EZ9999: Inner Error! [ascsim] CrossCoreWaitFlag: [aicore timeout] timeout or trap error (deadlock: " +
                       std::to_string(xwait) + " core(s) wait for a cross-core flag that no running core will set; " +
                       std::to_string(done) + " core(s) finished; ACL error 507014)";
        else
        L->error = "EZ9999: Inner Error! [ascsim] SyncAll: [aicore timeout] timeout or trap error (deadlock: " +
                   std::to_string(L->parked) + " core(s) wait in SyncAll while " + std::to_string(done) +
                   " core(s) finished without reaching it; ACL error 507014)";
    }
    for (int j = 0; j < L->n; ++j) if (L->state[j] == 1 || L->state[j] == 3) { L->state[j] = 0; }
    for (int k = 0; k < L->n; ++k) if (L->state[k] == 0) { give_turn_locked(L, k); return; }
    give_turn_locked(L, -2);
}

void sync_all(const char* api) {
    Launch* L = g_launch;
    if (t_sequential) throw NeedThreads{};
    if (!L || t_core_slot < 0) return;
    if (L->block_num > L->physical_cores)
        fail(api, "[aicore timeout] timeout or trap error",
             "SyncAll with blockDim " + std::to_string(L->block_num) + " greater than the " + std::to_string(L->physical_cores) +
                 " physical cores: later waves never start, the first wave waits forever");
    std::unique_lock<std::mutex> lk(L->m);
    int me = t_core_slot;
    L->state[me] = 1;
    if (++L->parked == L->n) {
        for (int j = 0; j < L->n; ++j) if (L->state[j] == 1) L->state[j] = 0;
        L->parked = 0;
        return;   // last arrival releases everyone and keeps running
    }
    pass_baton_locked(L, me);
    L->core_cv[me].wait(lk, [&] { return L->turn == me; });
    if (L->aborted) throw CoreAbort{};
}

void load_tiling(void* dst, size_t bytes, const uint8_t* tiling, const char* type_name) {
    check_gm(tiling, bytes, false, "GET_TILING_DATA");
    std::memcpy(dst, tiling, bytes);
    (void)type_name;
}

template <class T> const char* type_name();
#define ASCSIM_TN(T) template <> const char* type_name<T>() { return #T; }
ASCSIM_TN(half) ASCSIM_TN(bfloat16_t) ASCSIM_TN(float) ASCSIM_TN(double) ASCSIM_TN(int8_t) ASCSIM_TN(uint8_t)
ASCSIM_TN(int16_t) ASCSIM_TN(uint16_t) ASCSIM_TN(int32_t) ASCSIM_TN(uint32_t) ASCSIM_TN(int64_t) ASCSIM_TN(uint64_t)
ASCSIM_TN(bool)
const char* round_mode_name(int m) {
    static const char* n[] = {"CAST_NONE", "CAST_RINT", "CAST_FLOOR", "CAST_CEIL", "CAST_ROUND", "CAST_TRUNC", "CAST_ODD", "CAST_HYBRID"};
    return m >= 0 && m < 8 ? n[m] : "?";
}

// ---------------------------------------------------------------- registries ------------------------------
HostRegistry& host_registry() {
    static HostRegistry r;
    return r;
}
struct KernelEntry {
    std::vector<int> columns;
    Launcher fn;
    std::set<uint64_t> keys;
    Launcher aic = nullptr;               // AIC build of a cube kernel (register_cube_kernel)
    int ktype = 0;                        // KernelMetaType of a cube kernel
    mutable bool needs_threads = false;   // learnt on the first launch that reaches SyncAll
};
static std::map<std::string, std::vector<KernelEntry>>& kernels() {
    static std::map<std::string, std::vector<KernelEntry>> k;
    return k;
}
void register_kernel(const char* op_type, const int* columns, int ncolumns, Launcher fn, const uint64_t* keys, int nkeys) {
    KernelEntry e;
    e.columns.assign(columns, columns + ncolumns);
    e.fn = fn;
    e.keys.insert(keys, keys + nkeys);
    kernels()[op_type].push_back(e);
}

}  // namespace ascsim

namespace optiling {
void TilingDef::fprintf_error(size_t need, size_t cap) {
    std::fprintf(stderr, "[ascsim] SaveToBuffer: tiling data needs %zu B but the buffer holds %zu B\n", need, cap);
}
void RegisterTilingClass(const char* op_type, const char* class_name, TilingFactory make) {
    auto& r = ascsim::host_registry();
    r.tiling_class_of_op[op_type] = class_name;
    r.tiling_factories[class_name] = std::move(make);
}
void RegisterTilingStruct(const char* class_name, TilingFactory make) { ascsim::host_registry().tiling_factories[class_name] = std::move(make); }
}  // namespace optiling

namespace ops {
void RegisterOpDef(const char* type, std::unique_ptr<OpDef> def) { ascsim::host_registry().opdefs[type] = std::move(def); }
}  // namespace ops

namespace gert {
OpImplRegisterV2& OpImplRegisterV2::Tiling(TilingKernelFunc f) {
    ascsim::host_registry().impls[op_].tiling = f;
    return *this;
}
OpImplRegisterV2& OpImplRegisterV2::InputsDataDependency(std::initializer_list<int32_t> ir_inputs) {
    ascsim::host_registry().impls[op_].data_inputs.insert(ir_inputs.begin(), ir_inputs.end());
    return *this;
}
void OpImplRegisterV2::SetParse(std::function<std::shared_ptr<void>(OpCallInfo*)> f) { ascsim::host_registry().impls[op_].parse = std::move(f); }
}  // namespace gert

namespace ascsim {

// ---------------------------------------------------------------- launch ----------------------------------
// GM buffers are recycled across launches: fresh pages for every launch (mmap, page faults, munmap) cost more
// than the simulated kernel itself for element-wise ops. Every byte is rewritten (input copy, 0xFF fill, guards)
// before a kernel sees it, so reuse is invisible to kernels.
static std::mutex g_gm_pool_m;
static std::multimap<size_t, uint8_t*> g_gm_pool;   // capacity -> buffer
static size_t g_gm_pool_bytes = 0;
static constexpr size_t kGmPoolLimit = size_t(256) << 20;
// A buffer of at least `total` bytes: a recycled one when one fits (its capacity goes to *cap), else a new one.
static uint8_t* gm_pool_take(size_t total, size_t* cap) {
    {
        std::lock_guard<std::mutex> lk(g_gm_pool_m);
        auto it = g_gm_pool.lower_bound(total);
        if (it != g_gm_pool.end() && it->first <= 2 * total) {
            uint8_t* p = it->second;
            *cap = it->first;
            g_gm_pool_bytes -= it->first;
            g_gm_pool.erase(it);
            return p;
        }
    }
    void* mem = nullptr;
    if (posix_memalign(&mem, 4096, total) != 0) throw std::runtime_error("[ascsim] out of host memory for GM");
    *cap = total;
    return static_cast<uint8_t*>(mem);
}

static void gm_pool_give(uint8_t* raw, size_t cap) {
    if (!raw) return;
    std::lock_guard<std::mutex> lk(g_gm_pool_m);
    if (g_gm_pool_bytes + cap > kGmPoolLimit) {
        std::free(raw);
        return;
    }
    g_gm_pool.emplace(cap, raw);
    g_gm_pool_bytes += cap;
}
static void gm_release(Launch& L) {
    gm_pool_give(L.seg_raw, L.seg_cap);
    L.seg_raw = L.seg = nullptr;
}

// Plans a block at the end of the segment; its bytes exist once gm_materialise has run.
static GmRegion* gm_alloc(Launch& L, const std::string& name, GmKind kind, const void* src, size_t size) {
    auto r = std::make_unique<GmRegion>();
    r->name = name;
    r->kind = kind;
    r->size = size;
    r->src = src;
    r->padded = std::max<size_t>(512, (size + 32 + 511) / 512 * 512);
    r->offset = L.seg_used;
    L.seg_used += r->padded;
    GmRegion* p = r.get();
    L.regions.push_back(std::move(r));
    return p;
}

// A DYNAMIC (tensor-list) argument: each element gets its own GM region; the kernel receives a descriptor:
// u64[0] = byte offset of the pointer array, then per element a header (low 32 bits: dim count, high 32: index)
// followed by its dims, then the element data pointers.
static GmRegion* gm_list(Launch& L, const std::string& name, GmKind kind, const HostArg& list, std::vector<GmRegion*>* regions) {
    std::vector<uint64_t> desc(1, 0);
    for (size_t e = 0; e < list.list.size(); ++e) {
        const HostArg& t = list.list[e];
        desc.push_back(uint64_t(t.shape.size()) | (uint64_t(e) << 32));
        for (int64_t d : t.shape) desc.push_back(uint64_t(d));
    }
    desc[0] = desc.size() * sizeof(uint64_t);
    std::vector<const GmRegion*> elems;
    for (size_t e = 0; e < list.list.size(); ++e) {
        const HostArg& t = list.list[e];
        GmRegion* r = gm_alloc(L, name + "[" + std::to_string(e) + "]", kind, t.data, t.nbytes);
        regions->push_back(r);
        elems.push_back(r);
    }
    GmRegion* d = gm_alloc(L, name + " (list descriptor)", GmKind::INPUT, nullptr, (desc.size() + elems.size()) * sizeof(uint64_t));
    d->own.resize(desc.size() * sizeof(uint64_t));
    std::memcpy(d->own.data(), desc.data(), d->own.size());
    d->list_ptrs = std::move(elems);
    return d;
}

// Allocates the segment (guard, blocks, free tail, guard) and fills it: host data, then poison.
static void gm_materialise(Launch& L) {
    size_t total = kGuard + L.seg_used + kFreeTail + kGuard;
    L.seg_raw = gm_pool_take(total, &L.seg_cap);
    L.seg = L.seg_raw + kGuard;
    std::memset(L.seg_raw, kCanary, kGuard);
    std::memset(L.seg + L.seg_used + kFreeTail, kCanary, kGuard);
    std::memset(L.seg + L.seg_used, kGmPoison, kFreeTail);
    for (auto& r : L.regions) {
        r->base = L.seg + r->offset;
        size_t have = 0;
        if (r->src && r->size) { std::memcpy(r->base, r->src, r->size); have = r->size; }
        else if (!r->own.empty()) { std::memcpy(r->base, r->own.data(), r->own.size()); have = r->own.size(); }
        std::memset(r->base + have, kGmPoison, r->padded - have);
    }
    for (auto& r : L.regions)   // list descriptors: the element addresses are known now
        for (size_t e = 0; e < r->list_ptrs.size(); ++e) {
            uint64_t a = uint64_t(reinterpret_cast<uintptr_t>(r->list_ptrs[e]->base));
            std::memcpy(r->base + r->own.size() + e * sizeof(uint64_t), &a, sizeof a);
        }
}

static bool all_bytes(const uint8_t* p, size_t n, uint8_t v) {
    for (size_t i = 0; i < n; ++i)
        if (p[i] != v) return false;
    return true;
}

// After the run: raw-pointer writes that bypassed check_gm. Returns an error message ("" when clean); a raw write
// into a tensor's own padding or into the backed free memory only warns.
static std::string gm_raw_write_check(Launch& L) {
    if (!all_bytes(L.seg_raw, kGuard, kCanary) || !all_bytes(L.seg + L.seg_used + kFreeTail, kGuard, kCanary))
        return "EZ9999: Inner Error! [ascsim] The DDR address of the MTE instruction is out of range. (a kernel wrote "
               "outside the device memory segment through a raw pointer)";
    if (!all_bytes(L.seg + L.seg_used, kFreeTail, kGmPoison))
        warn("kernel end", "a raw-pointer write landed in free device memory after '" +
                               (L.regions.empty() ? std::string("?") : L.regions.back()->name) +
                               "' (no tensor lies there; the device does not fault)");
    for (auto& r : L.regions) {   // an input changed through a raw pointer is an in-place update too
        if (r->kind == GmKind::INPUT && !r->written && r->src && r->size && std::memcmp(r->base, r->src, r->size) != 0) {
            r->written = true;
            warn("kernel end", "input tensor '" + r->name + "' was modified through a raw pointer (an in-place update: "
                               "judged against the reference's own mutation)");
        }
    }
    for (auto& r : L.regions) {
        size_t have = r->src ? r->size : r->own.size() + r->list_ptrs.size() * sizeof(uint64_t);
        if (r->tail_written) continue;
        if (!all_bytes(r->base + std::max(have, r->size), r->padded - std::max(have, r->size), kGmPoison)) {
            r->tail_written = true;
            warn("kernel end", "a raw-pointer write ran past the end of '" + r->name + "' into its own allocator padding");
        }
    }
    return "";
}

// Test hook (C++ API drivers): a launch holding only GM tensors, so check_gm's allocator model can be driven
// without a kernel. Tensors are laid out in the given order; finish() runs the post-launch raw-write check.
struct GmTestLaunch::Impl { Launch L; std::vector<std::vector<uint8_t>> host; };
GmTestLaunch::GmTestLaunch(const std::vector<std::pair<std::string, size_t>>& tensors, size_t inputs) : impl_(new Impl) {
    impl_->host.resize(tensors.size());
    for (size_t i = 0; i < tensors.size(); ++i) {
        const auto& t = tensors[i];
        if (i < inputs) impl_->host[i].assign(t.second, uint8_t(i + 1));   // host data of an input: a fill pattern
        gm_alloc(impl_->L, t.first, i < inputs ? GmKind::INPUT : GmKind::OUTPUT, i < inputs ? impl_->host[i].data() : nullptr, t.second);
    }
    gm_materialise(impl_->L);
    for (auto& r : impl_->L.regions) bases_.push_back(r->base);
    g_launch = &impl_->L;
}
std::vector<std::string> GmTestLaunch::warnings() const { return impl_->L.warnings; }
bool GmTestLaunch::written(size_t i) const { return impl_->L.regions[i]->written; }
std::string GmTestLaunch::finish() {
    if (!impl_ || !impl_->L.seg) return "";
    std::string err = gm_raw_write_check(impl_->L);
    g_launch = nullptr;
    gm_release(impl_->L);
    return err;
}
GmTestLaunch::~GmTestLaunch() {
    finish();
    delete impl_;
}

struct CoreThreadArg {
    Launch* L;
    int slot;
    int64_t block_idx;
    Launcher fn;
    uint8_t** args;
    size_t nargs;
    uint8_t* ub;
};

// A core thread's own set-up (its cube buffers, the sync detector) may fail for memory: the launch then aborts with
// the reason instead of the thread taking the process down.
template <class F> static std::string guarded_start(F&& f) {
    try {
        f();
        return {};
    } catch (const std::exception& e) {
        return std::string("[ascsim] a core could not start: ") + e.what();
    }
}
static void abort_launch_locked(Launch* L, const std::string& why) {
    if (why.empty() || L->aborted) return;
    L->aborted = true;
    L->error = why;
}

// Starts n core threads; when one cannot start (memory, the thread limit) the launch aborts, the started ones are
// released to end without running the kernel, and only those are joined.
static int start_core_threads(Launch& L, std::vector<pthread_t>& th, size_t stack_bytes, void* (*entry)(void*), void* args,
                              size_t arg_size) {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, stack_bytes);
    int started = 0, err = 0;
    for (; started < int(th.size()); ++started)
        if ((err = pthread_create(&th[started], &attr, entry, static_cast<uint8_t*>(args) + size_t(started) * arg_size)) != 0) break;
    pthread_attr_destroy(&attr);
    if (started < int(th.size())) {
        std::lock_guard<std::mutex> lk(L.m);
        abort_launch_locked(&L, std::string("[ascsim] cannot start core thread ") + std::to_string(started) + " of " +
                                    std::to_string(th.size()) + " (out of memory or threads: " + std::strerror(err) + ")");
        for (int j = started; j < int(th.size()); ++j) L.state[j] = 2;   // never started: counts as finished
        L.registered += int(th.size()) - started;
    }
    return started;
}

static void* core_main(void* p) {
    auto* a = static_cast<CoreThreadArg*>(p);
    Launch* L = a->L;
    CoreCtx ctx;
    ctx.block_idx = a->block_idx;
    ctx.block_num = L->block_num;
    ctx.ub = a->ub;
    ctx.tiling_key = L->tiling_key;
    ctx.workspace = L->workspace;
    ctx.sys_workspace = L->sys_workspace;
    std::unique_ptr<SyncGuard> sync_guard;
    std::string start_error = guarded_start([&] { sync_guard = std::make_unique<SyncGuard>(ctx, L->sync_mode, L->sync_auto); });
    t_core = &ctx;
    install_div_zero_handler();
    t_core_slot = a->slot;
    {
        std::unique_lock<std::mutex> lk(L->m);
        abort_launch_locked(L, start_error);
        L->core_cv[a->slot].wait(lk, [&] { return L->turn == a->slot; });
    }
    if (!L->aborted) {
        try {
            a->fn(a->args, a->nargs);
            report_div_zero();
            for (int e = 0; e < kNumHardEvents; ++e)
                for (int i = 0; i < kMaxEventId; ++i)
                    if (ctx.flags[e][i]) { warn("kernel end", "event flags still set at kernel end leak into the next operator"); e = kNumHardEvents; break; }
        } catch (const CoreAbort&) {
        } catch (const std::exception& e) {
            std::lock_guard<std::mutex> lk(L->m);
            if (!L->aborted) { L->aborted = true; L->error = e.what(); }
        }
    }
    std::unique_lock<std::mutex> lk(L->m);
    L->state[a->slot] = 2;
    pass_baton_locked(L, a->slot);
    t_core = nullptr;
    t_core_slot = -1;
    return nullptr;
}

// Fast path for kernels without inter-core sync: every core runs to completion on the calling thread, in the
// same zig-zag order the threaded runner uses. Returns false when a core reaches SyncAll.
static bool run_cores_sequential(Launch& L, Launcher fn, uint8_t** args, size_t nargs, int64_t block_dim) {
    std::vector<uint8_t> ub_mem(kUbBytes + 4096);
    uint8_t* ub = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(ub_mem.data()) + 4095) & ~uintptr_t(4095));
    uint32_t P = L.physical_cores;
    bool ok = true;
    for (int64_t wave = 0; wave < block_dim && ok && !L.aborted; wave += P) {
        int n = int(std::min<int64_t>(P, block_dim - wave));
        for (int pos = 0; pos < n && ok && !L.aborted; ++pos) {
            int slot = zigzag_slot(n, pos);
            CoreCtx ctx;
            ctx.block_idx = wave + slot;
            ctx.block_num = L.block_num;
            ctx.ub = ub;
            ctx.tiling_key = L.tiling_key;
            ctx.workspace = L.workspace;
            ctx.sys_workspace = L.sys_workspace;
            SyncGuard sync_guard(ctx, L.sync_mode, L.sync_auto);
            t_core = &ctx;
            install_div_zero_handler();
            t_sequential = true;
            try {
                fn(args, nargs);
                report_div_zero();
                for (int e = 0; e < kNumHardEvents; ++e)
                    for (int i = 0; i < kMaxEventId; ++i)
                        if (ctx.flags[e][i]) { warn("kernel end", "event flags still set at kernel end leak into the next operator"); e = kNumHardEvents; break; }
            } catch (const NeedThreads&) {
                ok = false;
            } catch (const std::exception& e) {
                L.aborted = true;
                L.error = e.what();
            }
            t_sequential = false;
            t_core = nullptr;
        }
    }
    return ok;
}

static void run_cores(Launch& L, Launcher fn, uint8_t** args, size_t nargs, int64_t block_dim) {
    uint32_t P = L.physical_cores;
    std::vector<uint8_t> ub_pool;
    for (int64_t wave = 0; wave < block_dim && !L.aborted; wave += P) {
        int n = int(std::min<int64_t>(P, block_dim - wave));
        if (ub_pool.size() < size_t(n) * (kUbBytes + 4096)) ub_pool.resize(size_t(n) * (kUbBytes + 4096));
        uint8_t* aligned = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(ub_pool.data()) + 4095) & ~uintptr_t(4095));
        L.n = n;
        L.state.assign(n, 0);
        L.parked = 0;
        L.turn = -1;
        L.core_cv.clear();
        L.core_cv.resize(size_t(n));
        std::vector<CoreThreadArg> targs(n);
        for (int i = 0; i < n; ++i) targs[i] = CoreThreadArg{&L, i, wave + i, fn, args, nargs, aligned + size_t(i) * kUbBytes};
        std::vector<pthread_t> th(n);
        int started = start_core_threads(L, th, 4u << 20, core_main, targs.data(), sizeof(CoreThreadArg));
        {
            std::lock_guard<std::mutex> lk(L.m);
            give_turn_locked(&L, started ? 0 : -2);
        }
        for (int i = 0; i < started; ++i) pthread_join(th[i], nullptr);
    }
}

// ---------------------------------------------------------------- mixed (AIC + AIV) launches --------------
// Cube kernels are built twice (an AIC and an AIV object). KERNEL_TYPE_AIC_ONLY starts blockDim AIC cores;
// MIX_AIC_1_2 starts, per AI core b, AIV 2b, AIV 2b+1 and AIC b (slots in that order: on block 0 the consumers
// run before the producer, so a missing CrossCoreWaitFlag shows up as stale data instead of passing by luck).
// Always threaded: a core blocks in CrossCoreWaitFlag and resumes when another core sets the flag.
static std::vector<CoreCtx*> g_mix_ctx;                 // by slot while run_cores_mix runs
static std::vector<int> g_mix_type, g_mix_ai;            // by slot: core type, AI-core index within the wave
static std::map<std::tuple<int, int, int>, uint32_t> g_xpending;   // (mode, group, flag) -> setters so far
static int g_mix_ktype = 0;

// The entry of a core type (AIC build: `aic`, AIV build: `fn`) for a dtype column: the one registered under the
// tiling key (a tiling-template instantiation), else the first (the launch has checked the key already).
static const KernelEntry* core_entry(const std::string& op, int column, uint64_t key, bool aic) {
    auto kit = kernels().find(op);
    if (kit == kernels().end()) return nullptr;
    const KernelEntry* any = nullptr;
    for (auto& e : kit->second) {
        if (!(aic ? e.aic != nullptr : e.fn != nullptr)) continue;
        if (std::find(e.columns.begin(), e.columns.end(), column) == e.columns.end()) continue;
        if (e.keys.count(key)) return &e;
        if (!any) any = &e;
    }
    return any;
}
static const KernelEntry* cube_entry(const std::string& op, int column, uint64_t key) { return core_entry(op, column, key, true); }
static Launcher aiv_fn_of(const std::string& op, int column, uint64_t key) {
    const KernelEntry* e = core_entry(op, column, key, false);
    return e ? e->fn : nullptr;
}

void register_cube_kernel(const char* op_type, const int* columns, int ncolumns, Launcher aic, int kernel_type,
                          const uint64_t* keys, int nkeys) {
    KernelEntry e;
    e.columns.assign(columns, columns + ncolumns);
    e.fn = nullptr;
    e.aic = aic;
    e.ktype = kernel_type;
    if (keys) e.keys.insert(keys, keys + nkeys);
    kernels()[op_type].push_back(e);
}

struct MixCoreArg {
    Launch* L;
    int slot;
    int64_t block_idx;
    int core_type;
    int64_t sub_idx, sub_num;
    Launcher fn;
    uint8_t** args;
    size_t nargs;
    uint8_t* ub;
};

static void* mix_core_main(void* p) {
    auto* a = static_cast<MixCoreArg*>(p);
    Launch* L = a->L;
    CoreCtx ctx;
    ctx.block_idx = a->block_idx;
    ctx.block_num = L->block_num;
    ctx.ub = a->ub;
    ctx.tiling_key = L->tiling_key;
    ctx.workspace = L->workspace;
    ctx.sys_workspace = L->sys_workspace;
    ctx.core_type = a->core_type;
    ctx.sub_block_idx = a->sub_idx;
    ctx.sub_block_num = a->sub_num;
    std::unique_ptr<CubeMem> cube;
    std::unique_ptr<SyncGuard> sync_guard;
    std::string start_error = guarded_start([&] {
        if (a->core_type == 1) {
            cube = std::make_unique<CubeMem>();
            cube->poison();
            ctx.cube = cube.get();
        }
        sync_guard = std::make_unique<SyncGuard>(ctx, L->sync_mode, L->sync_auto);
    });
    t_core = &ctx;
    install_div_zero_handler();
    t_core_slot = a->slot;
    {
        std::unique_lock<std::mutex> lk(L->m);
        abort_launch_locked(L, start_error);
        g_mix_ctx[a->slot] = &ctx;
        ++L->registered;
        L->cv.notify_all();
        L->core_cv[a->slot].wait(lk, [&] { return L->turn == a->slot; });
    }
    if (!L->aborted) {
        try {
            a->fn(a->args, a->nargs);
            report_div_zero();
            for (int e = 0; e < kNumHardEvents; ++e)
                for (int i = 0; i < kMaxEventId; ++i)
                    if (ctx.flags[e][i]) { warn("kernel end", "event flags still set at kernel end leak into the next operator"); e = kNumHardEvents; break; }
            for (int f = 0; f < 16; ++f)
                if (ctx.xflags[f]) { warn("kernel end", "cross-core flag " + std::to_string(f) + " still has pending sets at kernel end"); break; }
        } catch (const CoreAbort&) {
        } catch (const std::exception& e) {
            std::lock_guard<std::mutex> lk(L->m);
            if (!L->aborted) { L->aborted = true; L->error = e.what(); }
        }
    }
    std::unique_lock<std::mutex> lk(L->m);
    L->state[a->slot] = 2;
    g_mix_ctx[a->slot] = nullptr;
    pass_baton_locked(L, a->slot);
    t_core = nullptr;
    t_core_slot = -1;
    return nullptr;
}

static void run_cores_mix(Launch& L, const std::string& op, int column, Launcher aiv, uint8_t** args, size_t nargs, int64_t block_dim) {
    const KernelEntry* ce = cube_entry(op, column, L.tiling_key);
    Launcher aic = ce ? ce->aic : nullptr;
    if (!aiv) aiv = aiv_fn_of(op, column, L.tiling_key);
    int ktype = ce ? ce->ktype : 0;
    if (!aic) throw std::runtime_error("[ascsim] " + op + ": cube kernel without an AIC build");
    int per = ktype == 1 ? 1 : ktype == 4 ? 2 : 3;   // cores per AI core: AIC_ONLY, MIX_AIC_1_1, MIX_AIC_1_2
    if (per > 1 && !aiv) throw std::runtime_error("[ascsim] " + op + ": mixed kernel without an AIV build");
    uint32_t P = platform_ascendc::PlatformAscendC().GetCoreNumAic();
    L.physical_cores = P;
    g_mix_ktype = ktype;
    std::vector<uint8_t> ub_pool;
    for (int64_t wave = 0; wave < block_dim && !L.aborted; wave += P) {
        int nai = int(std::min<int64_t>(P, block_dim - wave));
        int n = nai * per;
        size_t nub = size_t(nai) * per;   // AICs get one too: UB InitBuffer there is bookkeeping (in_ub rejects use)
        if (ub_pool.size() < nub * kUbBytes + 4096) ub_pool.resize(nub * kUbBytes + 4096);
        uint8_t* aligned = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(ub_pool.data()) + 4095) & ~uintptr_t(4095));
        L.n = n;
        L.state.assign(n, 0);
        L.parked = 0;
        L.turn = -1;
        L.core_cv.clear();
        L.core_cv.resize(size_t(n));
        L.registered = 0;
        g_mix_ctx.assign(n, nullptr);
        g_mix_type.assign(n, 0);
        g_mix_ai.assign(n, 0);
        g_xpending.clear();
        std::vector<MixCoreArg> targs(n);
        size_t ub_used = 0;
        for (int ai = 0; ai < nai; ++ai) {
            int64_t b = wave + ai;
            for (int k = 0; k < per; ++k) {
                int slot = ai * per + k;
                bool is_aic = k == per - 1;
                int64_t sub_num = per == 3 ? 2 : 1;
                int64_t sub = is_aic ? 0 : k;
                int64_t idx = is_aic ? b : b * sub_num + sub;
                uint8_t* ub = aligned + (ub_used++) * kUbBytes;
                targs[slot] = MixCoreArg{&L, slot, idx, is_aic ? 1 : 2, is_aic ? 1 : sub, is_aic ? 1 : sub_num,
                                         is_aic ? aic : aiv, args, nargs, ub};
                g_mix_type[slot] = is_aic ? 1 : 2;
                g_mix_ai[slot] = ai;
            }
        }
        for (int i = 0; i < n; ++i)
            if (targs[i].ub) std::memset(targs[i].ub, 0xFF, kUbBytes);
        std::vector<pthread_t> th(n);
        int started = start_core_threads(L, th, 8u << 20, mix_core_main, targs.data(), sizeof(MixCoreArg));
        {
            // Start only when every core has published its context: a cross-core set aimed at a core whose
            // thread has not run yet would otherwise be dropped (a false deadlock on a loaded machine).
            std::unique_lock<std::mutex> lk(L.m);
            L.cv.wait(lk, [&] { return L.registered == n; });
            give_turn_locked(&L, started ? 0 : -2);
        }
        for (int i = 0; i < started; ++i) pthread_join(th[i], nullptr);
    }
    g_mix_ctx.clear();
}

static void bump_xflag_locked(Launch* L, int slot, int flag, const char* api) {
    CoreCtx* c = g_mix_ctx[slot];
    if (!c) return;   // that core already finished: the set is lost (the hardware would keep it for nobody)
    if (c->xflags[flag] >= 16)
        fail(api, "cross-core flag counter overflow",
             "flag " + std::to_string(flag) + " of a waiting core already holds 16 pending sets, the most its counter takes "
             "(set without matching waits)");
    ++c->xflags[flag];
    if (L->state[slot] == 3) L->state[slot] = 0;
}

void cross_core_set(int mode, int flag, const char* api) {
    Launch* L = g_launch;
    if (flag < 0 || flag > 15) fail(api, "Failed to check flagId value", "flagId " + std::to_string(flag) + " outside 0 ~ 15");
    if (flag >= 11 && flag <= 14) warn(api, "flagId " + std::to_string(flag) + " is reserved by hard SyncAll on arch 2201 (use 0 ~ 10)");
    if (!L || t_core_slot < 0 || g_mix_ctx.empty())
        fail(api, "[aicore timeout] timeout or trap error", "cross-core flags need a mixed AIC+AIV kernel; this launch is vector-only");
    std::lock_guard<std::mutex> lk(L->m);
    int me = t_core_slot, type = g_mix_type[me], ai = g_mix_ai[me], n = L->n;
    int per = g_mix_ktype == 1 ? 1 : g_mix_ktype == 4 ? 2 : 3;
    if (mode == 2) {
        if (per == 1) fail(api, "CrossCoreSetFlag mode 2 needs AIV cores", "the kernel was classified AIC-only");
        if (type == 1) {
            for (int k = 0; k < per - 1; ++k) bump_xflag_locked(L, ai * per + k, flag, api);
        } else {
            uint32_t& got = g_xpending[{2, ai, flag}];
            got |= 1u << (me - ai * per);
            if (got == (1u << (per - 1)) - 1) { got = 0; bump_xflag_locked(L, ai * per + per - 1, flag, api); }
        }
    } else if (mode == 1) {
        if (type == 1) fail(api, "CrossCoreSetFlag mode 1 is for the AIVs of one AI core", "called on an AIC core");
        uint32_t& got = g_xpending[{1, ai, flag}];
        got |= 1u << (me - ai * per);
        if (got == (1u << (per - 1)) - 1) { got = 0; for (int k = 0; k < per - 1; ++k) bump_xflag_locked(L, ai * per + k, flag, api); }
    } else if (mode == 0) {
        uint32_t& got = g_xpending[{0, type, flag}];
        int members = 0;
        for (int s = 0; s < n; ++s) members += g_mix_type[s] == type;
        if (int(++got) == members) { got = 0; for (int s = 0; s < n; ++s) if (g_mix_type[s] == type) bump_xflag_locked(L, s, flag, api); }
        if (L->block_num > L->physical_cores)
            fail(api, "[aicore timeout] timeout or trap error", "mode-0 cross-core sync with blockDim greater than the physical AI cores");
    } else {
        fail(api, "Failed to check modeId value", "modeId " + std::to_string(mode) + " outside 0 ~ 2");
    }
}

void cross_core_wait(int flag, const char* api) {
    Launch* L = g_launch;
    if (flag < 0 || flag > 15) fail(api, "Failed to check flagId value", "flagId " + std::to_string(flag) + " outside 0 ~ 15");
    if (!L || t_core_slot < 0 || g_mix_ctx.empty())
        fail(api, "[aicore timeout] timeout or trap error", "CrossCoreWaitFlag in a vector-only launch waits forever");
    std::unique_lock<std::mutex> lk(L->m);
    int me = t_core_slot;
    CoreCtx& c = core();
    while (c.xflags[flag] == 0) {
        L->state[me] = 3;
        pass_baton_locked(L, me);
        L->core_cv[me].wait(lk, [&] { return L->turn == me; });
        if (L->aborted) throw CoreAbort{};
    }
    --c.xflags[flag];
}

static size_t ge_size(int dt) { int s = ge::GetSizeByDataType(ge::DataType(dt)); return s > 0 ? size_t(s) : 1; }

static void write_scalar(std::vector<uint8_t>& buf, const HostArg& a, int dt) {
    double v = a.scalar_is_float ? a.f : double(a.i);
    buf.assign(8, 0);
    switch (dt) {
        case ge::DT_FLOAT: { float x = float(v); std::memcpy(buf.data(), &x, 4); break; }
        case ge::DT_FLOAT16: { half x = half(float(v)); std::memcpy(buf.data(), &x, 2); break; }
        case ge::DT_BF16: { bfloat16_t x = bfloat16_t(float(v)); std::memcpy(buf.data(), &x, 2); break; }
        case ge::DT_DOUBLE: std::memcpy(buf.data(), &v, 8); break;
        case ge::DT_INT8: case ge::DT_UINT8: case ge::DT_BOOL: { int8_t x = int8_t(a.scalar_is_float ? int64_t(v) : a.i); buf[0] = uint8_t(x); break; }
        case ge::DT_INT16: case ge::DT_UINT16: { int16_t x = int16_t(a.scalar_is_float ? int64_t(v) : a.i); std::memcpy(buf.data(), &x, 2); break; }
        case ge::DT_INT32: case ge::DT_UINT32: { int32_t x = int32_t(a.scalar_is_float ? int64_t(v) : a.i); std::memcpy(buf.data(), &x, 4); break; }
        default: { int64_t x = a.scalar_is_float ? int64_t(v) : a.i; std::memcpy(buf.data(), &x, 8); break; }
    }
    buf.resize(ge_size(dt));
}

static std::string dtype_list(const std::vector<ge::DataType>& v) {
    std::string s;
    for (auto d : v) s += (s.empty() ? "" : ", ") + std::to_string(int(d));
    return "[" + s + "]";
}

// The generated aclnn API has one `<name>Ref` parameter for an input that an output of the same name updates in place:
// such an output takes no argument of its own. When the call leaves them out, each one is bound to its input (the
// same host tensor, so the kernel's input and output address one device tensor).
static void bind_ref_outputs(const ops::OpDef& def, std::vector<HostArg>& args) {
    size_t nin = def.inputs_.size(), nattr = def.attrs_.size(), nout = def.outputs_.size();
    std::vector<std::pair<size_t, size_t>> refs;   // (output, input)
    for (size_t o = 0; o < nout; ++o)
        for (size_t i = 0; i < nin; ++i)
            if (def.outputs_[o].name_ == def.inputs_[i].name_) refs.emplace_back(o, i);
    if (refs.empty() || args.size() != nin + nattr + nout - refs.size() || args.size() < nin) return;
    for (auto [o, i] : refs) args.insert(args.begin() + long(nin + nattr + o), args[i]);
}

// A list argument (aclIntArray / aclFloatArray / aclBoolArray / aclScalarList) given for a tensor input is a 1-D
// tensor of the column's dtype, as the aclnn layer hands such lists to the kernel (ValueDepend inputs, ScalarList).
static std::vector<HostArg> list_elements(const HostArg& a) {
    if (a.kind == HostArg::SCALAR_LIST) return a.list;
    std::vector<HostArg> out;
    size_t n = a.kind == HostArg::FLOAT_LIST ? a.lf.size() : a.li.size();
    for (size_t k = 0; k < n; ++k) {
        HostArg e;
        e.kind = HostArg::SCALAR;
        e.scalar_is_float = a.kind == HostArg::FLOAT_LIST;
        if (e.scalar_is_float) e.f = a.lf[k]; else e.i = a.li[k], e.f = double(e.i);
        out.push_back(e);
    }
    return out;
}

static thread_local uint64_t t_kernel_launches = 0;
uint64_t kernel_launches() { return t_kernel_launches; }

void exec_npu_cmd(const char* api, std::vector<HostArg>& args, std::vector<uint64_t>* shapes) {
    std::lock_guard<std::mutex> guard(g_launch_mutex);
    std::string op = api;
    if (op.rfind("aclnn", 0) == 0) op = op.substr(5);
    auto& reg = host_registry();
    auto it = reg.opdefs.find(op);
    if (it == reg.opdefs.end())
        throw std::runtime_error("[ascsim] " + std::string(api) + "GetWorkspaceSize not found: no OpDef registered for op type '" + op +
                                 "' and no such entry in the build's own aclnn host code (OP_ADD missing, the op name differs, or "
                                 "an aclnn API built into the toolkit: those are not simulated)");
    ops::OpDef& def = *it->second;
    ++t_kernel_launches;
    size_t nin = def.inputs_.size(), nattr = def.attrs_.size(), nout = def.outputs_.size();
    bind_ref_outputs(def, args);
    if (args.size() != nin + nattr + nout)
        throw std::runtime_error("[ascsim] " + std::string(api) + ": expected " + std::to_string(nin) + " inputs, " + std::to_string(nattr) +
                                 " attrs and " + std::to_string(nout) + " outputs (" + std::to_string(nin + nattr + nout) +
                                 " arguments), got " + std::to_string(args.size()));

    // Pick the DataType column that matches every tensor argument.
    size_t ncol = 0;
    for (auto& p : def.inputs_) ncol = std::max(ncol, p.dtypes_.size());
    for (auto& p : def.outputs_) ncol = std::max(ncol, p.dtypes_.size());
    auto arg_dtype = [&](const HostArg& a) -> int {
        if (a.kind == HostArg::TENSOR) return a.dtype;
        if (a.kind == HostArg::TENSOR_LIST && !a.list.empty()) return a.list[0].dtype;
        return -1;
    };
    int column = -1;
    for (size_t j = 0; j < ncol && column < 0; ++j) {
        bool ok = true;
        for (size_t k = 0; k < nin + nout && ok; ++k) {
            const ops::OpParamDef& p = k < nin ? def.inputs_[k] : def.outputs_[k - nin];
            const HostArg& a = k < nin ? args[k] : args[nin + nattr + (k - nin)];
            int dt = arg_dtype(a);
            if (dt < 0 || p.dtypes_.empty()) continue;
            if (j < p.dtypes_.size() && int(p.dtypes_[j]) != dt) ok = false;
        }
        if (ok) column = int(j);
    }
    if (column < 0) {
        std::string got;
        for (size_t k = 0; k < nin + nout; ++k) {
            const HostArg& a = k < nin ? args[k] : args[nin + nattr + (k - nin)];
            got += (got.empty() ? "" : ", ") + std::to_string(arg_dtype(a));
        }
        throw std::runtime_error("[ascsim] " + std::string(api) + ": the dtype combination (" + got +
                                 ") matches no DataType column of the OpDef (EZ1001 unsupported dtype; first input supports " +
                                 (nin ? dtype_list(def.inputs_[0].dtypes_) : std::string("[]")) + ")");
    }

    gert::OpCallInfo info;
    info.op_type = op;
    auto impl_of_op = reg.impls.find(op);
    // Host code sees the data of data-dependent inputs only (CANN's rule): every other input's tensor carries its
    // shape and dtype with a null data address, so a tiling function cannot compute the answer on the host. And only
    // host-side values (scalars, int/float/bool arrays) are data: declaring a device tensor input data-dependent
    // does not hand its data to host code (on CANN the generated aclnn then expects an array, not a tensor).
    auto host_visible = [&](size_t ir) {
        bool declared = def.inputs_[ir].value_depend_ ||
                        (impl_of_op != reg.impls.end() && impl_of_op->second.data_inputs.count(int32_t(ir)) > 0);
        HostArg::Kind kind = args[ir].kind;
        return declared && kind != HostArg::TENSOR && kind != HostArg::TENSOR_LIST && kind != HostArg::NONE;
    };
    std::vector<std::vector<uint8_t>> scalar_bufs;
    std::vector<const void*> in_ptrs;   // per instance
    std::vector<size_t> in_bytes;
    std::vector<std::string> in_names;
    for (size_t k = 0; k < nin; ++k) {
        const ops::OpParamDef& p = def.inputs_[k];
        HostArg& a = args[k];
        gert::AnchorInstanceInfo inst;
        inst.start_ = info.in_shapes.size();
        auto add = [&](const HostArg& t, const void* data, size_t bytes, int dt, std::vector<int64_t> shape) {
            gert::Shape s;
            for (auto d : shape) s.AppendDim(d);
            info.in_shapes.emplace_back(s);
            gert::CompileTimeTensorDesc desc;
            desc.dtype_ = ge::DataType(dt);
            desc.format_ = p.formats_.empty() ? ge::FORMAT_ND : p.formats_[std::min<size_t>(column, p.formats_.size() - 1)];
            info.in_desc.push_back(desc);
            gert::Tensor tt;
            tt.shape_ = gert::StorageShape(s);
            tt.dtype_ = ge::DataType(dt);
            tt.data_ = host_visible(k) ? data : nullptr;
            tt.bytes_ = bytes;
            info.in_tensors.push_back(tt);
            in_ptrs.push_back(data);
            in_bytes.push_back(bytes);
            in_names.push_back(p.name_);
            (void)t;
        };
        if (a.kind == HostArg::NONE) {
            info.ir_first.push_back(-1);
            info.ir_count.push_back(0);
        } else if (a.kind == HostArg::TENSOR) {
            info.ir_first.push_back(int(info.in_shapes.size()));
            info.ir_count.push_back(1);
            add(a, a.data, a.nbytes, a.dtype, a.shape);
        } else if (a.kind == HostArg::TENSOR_LIST) {   // DYNAMIC input: one instance per list element
            info.ir_first.push_back(a.list.empty() ? -1 : int(info.in_shapes.size()));
            info.ir_count.push_back(int(a.list.size()));
            for (const HostArg& t : a.list) add(t, t.data, t.nbytes, t.dtype, t.shape);
        } else if (a.kind == HostArg::SCALAR || a.kind == HostArg::FLOAT || a.kind == HostArg::INT || a.kind == HostArg::BOOL) {
            HostArg s = a;
            if (a.kind == HostArg::FLOAT) { s.scalar_is_float = true; }
            if (a.kind == HostArg::BOOL) { s.i = a.b; }
            int dt = p.dtypes_.empty() ? (s.scalar_is_float ? ge::DT_FLOAT : ge::DT_INT64) : int(p.dtypes_[std::min<size_t>(column, p.dtypes_.size() - 1)]);
            scalar_bufs.emplace_back();
            write_scalar(scalar_bufs.back(), s, dt);
            info.ir_first.push_back(int(info.in_shapes.size()));
            info.ir_count.push_back(1);
            add(s, scalar_bufs.back().data(), scalar_bufs.back().size(), dt, {1});
        } else if (a.kind == HostArg::INT_LIST || a.kind == HostArg::FLOAT_LIST || a.kind == HostArg::BOOL_LIST ||
                   a.kind == HostArg::SCALAR_LIST) {
            std::vector<HostArg> elems = list_elements(a);
            bool is_float = !elems.empty() && elems[0].scalar_is_float;
            int dt = p.dtypes_.empty() ? (is_float ? ge::DT_FLOAT : ge::DT_INT64) : int(p.dtypes_[std::min<size_t>(column, p.dtypes_.size() - 1)]);
            scalar_bufs.emplace_back();
            for (const HostArg& e : elems) {
                std::vector<uint8_t> one;
                write_scalar(one, e, dt);
                scalar_bufs.back().insert(scalar_bufs.back().end(), one.begin(), one.end());
            }
            info.ir_first.push_back(int(info.in_shapes.size()));
            info.ir_count.push_back(1);
            add(a, scalar_bufs.back().data(), scalar_bufs.back().size(), dt, {int64_t(elems.size())});
        } else {
            throw std::runtime_error("[ascsim] " + std::string(api) + ": argument " + std::to_string(k) + " for input '" + p.name_ +
                                     "' is not a tensor, scalar or list");
        }
        inst.num_ = size_t(info.ir_count.back());
        info.node.inst_.push_back(inst);
    }
    // Attributes in declaration order.
    for (size_t k = 0; k < nattr; ++k) {
        const ops::OpAttrDef& ad = def.attrs_[k];
        const HostArg& a = args[nin + k];
        gert::AttrValue v = ad.def_;
        v.kind = ad.kind_;
        switch (ad.kind_) {
            case gert::AttrValue::BOOL: v.b = a.kind == HostArg::BOOL ? a.b : (a.i != 0); break;
            case gert::AttrValue::INT: v.i = a.kind == HostArg::INT ? a.i : int64_t(a.kind == HostArg::FLOAT ? a.f : a.i); break;
            case gert::AttrValue::FLOAT: v.f = float(a.kind == HostArg::FLOAT || a.scalar_is_float ? a.f : double(a.i)); break;
            case gert::AttrValue::STR: v.s = a.s; break;
            case gert::AttrValue::LIST_INT:
                if (a.kind == HostArg::INT_LIST || a.kind == HostArg::BOOL_LIST) v.li = a.li;
                else { v.li.clear(); for (const HostArg& e : list_elements(a)) v.li.push_back(e.scalar_is_float ? int64_t(e.f) : e.i); }
                break;
            case gert::AttrValue::LIST_FLOAT:
                v.lf.clear();
                for (const HostArg& e : list_elements(a)) v.lf.push_back(float(e.scalar_is_float ? e.f : double(e.i)));
                break;
            case gert::AttrValue::LIST_BOOL: v.lb.clear(); for (auto x : a.li) v.lb.push_back(x != 0); break;
            default: break;
        }
        info.attrs.attrs_.push_back(v);
    }
    for (auto& v : info.attrs.attrs_) {
        if (v.kind == gert::AttrValue::LIST_INT) { v.cv.size_ = v.li.size(); v.cv.data_ = v.li.data(); }
        if (v.kind == gert::AttrValue::LIST_FLOAT) { v.cv.size_ = v.lf.size(); v.cv.data_ = v.lf.data(); }
        if (v.kind == gert::AttrValue::LIST_BOOL) { v.cv.size_ = v.lb.size(); v.cv.data_ = v.lb.data(); }
    }
    std::vector<HostArg*> outs;
    for (size_t k = 0; k < nout; ++k) {
        HostArg& a = args[nin + nattr + k];
        if (a.kind != HostArg::TENSOR && a.kind != HostArg::TENSOR_LIST)
            throw std::runtime_error("[ascsim] " + std::string(api) + ": output '" + def.outputs_[k].name_ + "' is not a tensor");
        for (const HostArg& t : a.kind == HostArg::TENSOR_LIST ? a.list : std::vector<HostArg>{a}) {
            gert::Shape s;
            for (auto d : t.shape) s.AppendDim(d);
            info.out_shapes.emplace_back(s);
            gert::CompileTimeTensorDesc desc;
            desc.dtype_ = ge::DataType(t.dtype);
            info.out_desc.push_back(desc);
        }
        outs.push_back(&a);
    }
    info.node.inputs_ = nin;
    info.node.outputs_ = nout;
    info.node.name_ = info.op_type.c_str();
    info.node.attrs_ = &info.attrs;

    // Host tiling.
    std::shared_ptr<void> compile_info;
    auto impl = reg.impls.find(op);
    if (impl != reg.impls.end() && impl->second.parse) compile_info = impl->second.parse(&info);
    gert::TilingKernelFunc tiling = def.aicore_.tiling_;
    if (!tiling && impl != reg.impls.end()) tiling = impl->second.tiling;
    if (!tiling)
        throw std::runtime_error("[ascsim] " + std::string(api) + ": no tiling function registered for op '" + op +
                                 "' (AICore().SetTiling or IMPL_OP_OPTILING(...).Tiling missing)");
    std::vector<uint8_t> tiling_buf(64 * 1024, 0);
    gert::TilingData raw;
    raw.data_ = tiling_buf.data();
    raw.capacity_ = tiling_buf.size();
    gert::TilingContext ctx(&info, &raw);
    ge::graphStatus st = tiling(&ctx);
    if (st != ge::GRAPH_SUCCESS)
        throw std::runtime_error("[ascsim] " + std::string(api) + "GetWorkspaceSize failed: the tiling function of '" + op +
                                 "' returned " + std::to_string(st) + " (ACL error 561103)");
    int64_t block_dim = ctx.block_dim_;
    if (!ctx.block_dim_set_ || block_dim < 1 || block_dim > 65535)
        throw std::runtime_error("[ascsim] " + std::string(api) + ": invalid blockDim " + std::to_string(block_dim) +
                                 " from tiling (must be set and lie in 1 ~ 65535)");

    // Kernel for the chosen column and tiling key.
    auto kit = kernels().find(op);
    if (kit == kernels().end())
        throw std::runtime_error("[ascsim] " + std::string(api) + ": no kernel binary registered for op '" + op + "'");
    // A tiling-template kernel has one entry per instantiation, each with its own key: take the one for this key.
    const KernelEntry* entry = nullptr;
    const KernelEntry* keyed = nullptr;
    for (auto& e : kit->second)
        if (std::find(e.columns.begin(), e.columns.end(), column) != e.columns.end()) {
            entry = &e;
            if (e.keys.count(ctx.tiling_key_)) keyed = &e;
        }
    if (keyed) entry = keyed;
    if (!entry)
        throw std::runtime_error("[ascsim] " + std::string(api) + ": no kernel compiled for dtype column " + std::to_string(column));
    if (!entry->keys.empty() && !entry->keys.count(ctx.tiling_key_))
        throw std::runtime_error("[ascsim] aclrtBinaryGetFunctionByEntry failed, kernel name: " + op + ", tiling key: " +
                                 std::to_string(ctx.tiling_key_) + " (no TILING_KEY_IS branch and no ASCENDC_TPL_SEL combination for this key; ACL error 507015)");

    for (int attempt = 0; attempt < 2; ++attempt) {
    bool threaded = entry->needs_threads || attempt == 1;
    Launch L;
    L.block_num = block_dim;
    L.tiling_key = ctx.tiling_key_;
    L.physical_cores = platform_ascendc::PlatformAscendC().GetCoreNumAiv();
    L.sync_mode = sync_check_mode_from_env();   // read per launch: a bench worker process sees its own environment
    L.sync_auto = sync_auto_from_env();
    g_sync_active = L.sync_mode != 0;
    std::vector<GmRegion*> gm_regions;   // per kernel argument (nullptr: an absent optional input)
    std::vector<GmRegion*> in_regions;
    // The same host tensor passed twice (an output that is also an input: an in-place op) is one device tensor.
    std::map<std::pair<const void*, size_t>, GmRegion*> by_host;
    auto tensor_region = [&](const std::string& name, GmKind kind, const void* data, size_t bytes) {
        auto key = std::make_pair(data, bytes);
        auto hit = by_host.find(key);
        if (data && bytes && hit != by_host.end()) return hit->second;
        GmRegion* r = gm_alloc(L, name, kind, data, bytes);
        if (data && bytes) by_host[key] = r;
        return r;
    };
    // the runtime's own memory on the device, never behind a tensor: first, so no tensor's overrun reaches it
    GmRegion* tr = gm_alloc(L, "tiling", GmKind::TILING, tiling_buf.data(), std::max<size_t>(raw.size_, 8));
    size_t inst = 0;
    for (size_t k = 0; k < nin; ++k) {
        if (info.ir_first[k] < 0) { gm_regions.push_back(nullptr); continue; }
        if (args[k].kind == HostArg::TENSOR_LIST) {
            gm_regions.push_back(gm_list(L, def.inputs_[k].name_, GmKind::INPUT, args[k], &in_regions));
            inst += args[k].list.size();
            continue;
        }
        GmRegion* r = args[k].kind == HostArg::TENSOR ? tensor_region(def.inputs_[k].name_, GmKind::INPUT, in_ptrs[inst], in_bytes[inst])
                                                      : gm_alloc(L, def.inputs_[k].name_, GmKind::INPUT, in_ptrs[inst], in_bytes[inst]);
        in_regions.push_back(r);
        gm_regions.push_back(r);
        ++inst;
    }
    std::vector<std::vector<GmRegion*>> out_regions(nout);
    for (size_t k = 0; k < nout; ++k) {
        if (outs[k]->kind == HostArg::TENSOR_LIST) {
            gm_regions.push_back(gm_list(L, def.outputs_[k].name_, GmKind::OUTPUT, *outs[k], &out_regions[k]));
            continue;
        }
        GmRegion* r = tensor_region(def.outputs_[k].name_, GmKind::OUTPUT, outs[k]->data, outs[k]->nbytes);
        out_regions[k].push_back(r);
        gm_regions.push_back(r);
    }
    // Outputs whose shape the computation decides: one more kernel argument after the outputs, where the kernel
    // writes each such output's shape (OP_OUTSHAPE's layout: the dimension count, then up to 8 dimensions, uint64).
    size_t shape_outputs = 0;
    for (auto& p : def.outputs_) shape_outputs += p.shape_depends_on_compute_;
    std::vector<uint64_t> shape_host(shape_outputs * kShapeOutWords, 0);
    GmRegion* shaper = nullptr;
    if (shape_outputs) {
        shaper = gm_alloc(L, "output shape", GmKind::OUTPUT, shape_host.data(), shape_host.size() * sizeof(uint64_t));
        gm_regions.push_back(shaper);
    }
    size_t ws = 0;
    for (size_t w : ctx.workspace_) ws += w;
    GmRegion* wsr = gm_alloc(L, "workspace", GmKind::WORKSPACE, nullptr, ws);
    GmRegion* sysr = gm_alloc(L, "system workspace", GmKind::SYS, nullptr, 64 * 1024);
    gm_regions.push_back(wsr);
    gm_regions.push_back(tr);
    gm_materialise(L);
    L.workspace = wsr->base;
    L.sys_workspace = sysr->base;
    std::vector<uint8_t*> gm_args;
    for (GmRegion* r : gm_regions) gm_args.push_back(r ? r->base : nullptr);

    g_launch = &L;
    bool finished = true;
    try {
        if (entry->aic || cube_entry(op, column, L.tiling_key)) run_cores_mix(L, op, column, entry->fn, gm_args.data(), gm_args.size(), block_dim);
        else if (threaded) run_cores(L, entry->fn, gm_args.data(), gm_args.size(), block_dim);
        else finished = run_cores_sequential(L, entry->fn, gm_args.data(), gm_args.size(), block_dim);
    } catch (...) {
        g_launch = nullptr;
        gm_release(L);
        throw;
    }
    g_launch = nullptr;
    if (!finished) {   // reached SyncAll: rerun from the untouched host tensors with one thread per core
        entry->needs_threads = true;
        gm_release(L);
        continue;
    }
    std::string failure = L.aborted ? L.error : "";
    if (failure.empty()) failure = gm_raw_write_check(L);
    for (auto& w : L.warnings) std::fprintf(stderr, "[ascsim] warning: %s\n", w.c_str());
    if (!failure.empty()) {
        gm_release(L);
        throw std::runtime_error(failure);
    }
    for (size_t k = 0; k < nout; ++k) {
        if (outs[k]->kind == HostArg::TENSOR_LIST) {
            for (size_t e = 0; e < outs[k]->list.size(); ++e)
                std::memcpy(outs[k]->list[e].data, out_regions[k][e]->base, outs[k]->list[e].nbytes);
        } else {
            std::memcpy(outs[k]->data, out_regions[k][0]->base, outs[k]->nbytes);
        }
    }
    if (shaper && shapes) {
        shapes->resize(shape_host.size());
        std::memcpy(shapes->data(), shaper->base, shape_host.size() * sizeof(uint64_t));
    }
    // In-place updates of inputs (tensors and tensor-list elements) go back to the caller's tensors.
    inst = 0;
    for (size_t k = 0; k < nin; ++k) {
        if (info.ir_first[k] < 0) continue;
        if (args[k].kind == HostArg::TENSOR_LIST) {
            for (auto& t : args[k].list) {
                GmRegion* r = in_regions[inst++];
                if (r->written && t.data) std::memcpy(t.data, r->base, t.nbytes);
            }
            continue;
        }
        GmRegion* r = in_regions[inst];
        if (r->written && args[k].kind == HostArg::TENSOR) std::memcpy(args[k].data, r->base, args[k].nbytes);
        ++inst;
    }
    gm_release(L);
    return;
    }
}

}  // namespace ascsim
