// ascsim: the small ABI between the kernel-side headers and the simulator runtime (src/runtime.cpp).
#ifndef ASCSIM_ASCSIM_RUNTIME_API_H_
#define ASCSIM_ASCSIM_RUNTIME_API_H_
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ascsim {

constexpr uint32_t kUbBytes = 192 * 1024;          // physical UB per AIV
constexpr uint32_t kUbUsableBytes = 196352;        // what PlatformAscendC reports (192 KiB - 256)
constexpr int kMaxEventId = 8;
constexpr int kNumHardEvents = 40;

struct SyncState;   // the missing-sync detector of one core (src/runtime.cpp); null when ASCSIM_SYNC_CHECK is off

// A queue of this core, for FreeTensor called through another queue object: free_owned(queue, p) frees the
// buffer starting at p when that queue owns it (the device frees by the tensor's own buffer handle).
struct QueueRef {
    void* queue = nullptr;
    bool (*free_owned)(void* queue, const void* p) = nullptr;
};
constexpr int kMaxQueues = 64;

struct CoreCtx {
    int64_t block_idx = 0;
    int64_t block_num = 1;
    uint8_t* ub = nullptr;                // base of this core's unified buffer
    uint32_t ub_size = kUbBytes;
    uint64_t mask[2] = {~0ull, ~0ull};   // vector mask register (normal mode) / count (counter mode)
    bool counter_mode = false;
    int atomic_op = 0;                    // 0 none, 1 add, 2 max, 3 min
    int atomic_dtype = 0;                 // the AtomicDtype code of the atomic type (GetStoreAtomicConfig)
    void* tpipe = nullptr;                // the TPipe constructed last on this core (GetTPipePtr)
    uint64_t tiling_key = 0;
    uint8_t flags[kNumHardEvents][kMaxEventId] = {};
    int buffers_inited = 0;
    uint8_t* workspace = nullptr;
    uint8_t* sys_workspace = nullptr;
    uint64_t deq_scale_bits = 0;
    float deq_scale = 1.0f;
    double reduce_value = 0, reduce_index = 0;   // last ReduceMax/Min results (GetReduceMaxMinCount)
    // the accumulator register (GetAccVal, get_acc_val): the last sum of a ReduceSum or an accumulate-mode vcadd,
    // as the bit pattern of its element type in the low bytes; see ascsim::set_acc
    uint64_t acc_bits = 0;
    // cube tier (sim/src/runtime.cpp run_cores_mix): core type, sub-block of a mixed launch, AIC memories,
    // cross-core flag counters
    int core_type = 2;                            // AscendC::AIC = 1, AscendC::AIV = 2
    int64_t sub_block_idx = 0, sub_block_num = 1;
    void* cube = nullptr;                         // ascsim::CubeMem on an AIC core
    uint8_t xflags[16] = {};
    SyncState* sync = nullptr;
    QueueRef queues[kMaxQueues] = {};            // the TQue/TQueBind objects bound on this core
    int n_queues = 0;
    // CTRL special register (SetCtrlSpr / SetSaturationFlag). Bit 48 set: half/bf16 arithmetic keeps inf/NaN, which
    // is what the simulator computes (see AscendC::SetCtrlSpr in kernel/sys.h).
    uint64_t ctrl = 1ull << 48;
    uint32_t printf_bytes = 0;                    // what AscendC::printf wrote on this core (30 KB per core)
    // AIC cube configuration registers (kernel/cube_config.h). They live for one kernel launch (a fresh CoreCtx per
    // core and launch) and keep their value until set again. *_set: written at least once in this launch.
    struct CubeCfg {
        bool hf32 = false;                        // SetHF32Mode: float L0A/L0B data rounded to HF32 before Mmad
        uint8_t hf32_trans = 0;                   // SetHF32TransMode: 0 ties-to-even, 1 ties-away-from-zero
        bool fm_set = false;                      // SetFmatrix / LoadData 3D with isSetFMatrix
        uint16_t fm_h = 0, fm_w = 0;
        uint8_t fm_pad[4] = {};                   // left, right, top, bottom
        bool pad_set = false;                     // SetLoadDataPaddingValue / LoadData 3D with isSetPadding
        uint32_t pad_bits = 0;                    // the pad value's bits in the low sizeof(T) bytes
        uint16_t rpt_stride = 0;                  // SetLoadDataRepeat (reset value: one iteration)
        uint8_t rpt_time = 1, rpt_mode = 0;
        uint32_t l1_bound = 0;                    // SetLoadDataBoundary, bytes (0: the whole L1)
        bool nd_set = false;                      // SetFixpipeNz2ndFlag (or a ROW_MAJOR Fixpipe)
        uint16_t nd_num = 1, src_nd_stride = 0, dst_nd_stride = 0;
        bool quant_set = false;                   // SetFixpipePreQuantFlag (or a scalar-quant Fixpipe)
        uint64_t quant_pre = 0;
        const uint64_t* quant_tensor = nullptr;   // SetFixPipeConfig: per-column scales in the Fixpipe buffer
    } cube_cfg;
};

CoreCtx& core();
// Unit tests drive kernel APIs on the calling thread with a core context of their own (nullptr unbinds).
void bind_test_core(CoreCtx* ctx);
// Integer division by zero on a simulated core's thread runs on (quotient 0, remainder the dividend) instead of
// trapping; installed by every launch, callable by tests. take_div_zero_count: this thread's count since last asked.
void install_div_zero_handler();
int take_div_zero_count();

// A strict-layer failure: aborts the launch; the bridge raises it in Python as RuntimeError.
[[noreturn]] void fail(const char* api, const std::string& hw_error, const std::string& detail);
// A silent hardware behaviour worth reporting (printed on stderr after the launch, de-duplicated).
void warn(const char* api, const std::string& detail);
// GM access check against the launch's allocations (tensors, workspace, tiling) incl. allocator padding.
void check_gm(const void* p, size_t bytes, bool write, const char* api);
// The same check for copies that may run past the launch's backed memory into the free device memory the model
// maps after it: returns how many leading bytes are backed (the caller drops the rest of a write and reads the rest
// as poison); an access beyond the mapped memory faults as in check_gm.
size_t gm_backed(const void* p, size_t bytes, bool write, const char* api);
// never-written device memory (paddings, free memory) reads back as this byte: NaN / all-ones
constexpr uint8_t kGmPoison = 0xFF;
// Test hook for the C++ API drivers: GM tensors laid out like a launch's (torch_npu allocator blocks in one
// segment), installed as the current launch so check_gm applies; finish() returns the raw-write check's error.
class GmTestLaunch {
public:
    // the first `inputs` tensors are inputs (host data: bytes of value index + 1), the rest outputs
    explicit GmTestLaunch(const std::vector<std::pair<std::string, size_t>>& tensors, size_t inputs = 0);
    ~GmTestLaunch();
    uint8_t* base(size_t i) const { return bases_[i]; }
    std::vector<std::string> warnings() const;
    bool written(size_t i) const;   // the tensor counts as modified (copied back to the caller's tensor)
    std::string finish();
private:
    struct Impl;
    Impl* impl_;
    std::vector<uint8_t*> bases_;
};
// Hard SyncAll across the launch's cores (deadlock-detected).
void sync_all(const char* api);
// CrossCoreSetFlag / CrossCoreWaitFlag of a mixed (AIC + AIV) launch.
void cross_core_set(int mode, int flag, const char* api);
void cross_core_wait(int flag, const char* api);


// Missing-synchronisation detector (kernel/sync_check.h has the hooks). mode: 1 warn, 2 error (fail).
// auto_sync models bisheng --cce-auto-sync=on (S<->V, S<->MTE2, S<->MTE3 and V->V need no explicit sync).
void sync_attach(CoreCtx& c, int mode, bool auto_sync);
extern bool g_sync_active;   // some core has (had) a detector attached in this launch: the hooks' fast exit
void sync_detach(CoreCtx& c);
// ASCSIM_SYNC_CHECK=warn|error (0 off, 1 warn, 2 error) and ASCSIM_CCE_AUTO_SYNC=on|off (default on), read at launch.
int sync_check_mode_from_env();
bool sync_auto_from_env();
uint64_t sync_report_count(const CoreCtx& c);
std::string sync_last_report(const CoreCtx& c);
// role: 0 read, 1 write, 2 unknown (an operand whose caller did not say: checked as a read, recorded as a write)
void sync_access(int pipe, const char* api, const void* p, size_t bytes, int role);
void sync_flag(int src_pipe, int dst_pipe, int id, bool set);
void sync_barrier_all();
void sync_queue_event(int event, const void* slot, int src_pos, int dst_pos);

}  // namespace ascsim
#endif  // ASCSIM_ASCSIM_RUNTIME_API_H_
