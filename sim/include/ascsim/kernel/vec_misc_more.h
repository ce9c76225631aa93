// ascsim kernel side: Gatherb (gather whole 32-byte DataBlocks by byte offsets), the store-atomic configuration
// (SetStoreAtomicConfig / GetStoreAtomicConfig) and the APIs that do not change results in a CPU model:
// SetNextTaskStart / WaitPreTaskEnd (SuperKernel early start), DataCachePreload, PrintTimeStamp, TRACE_START /
// TRACE_STOP, CheckLocalMemoryIA and the CPU-debug SetKernelMode. Atlas A2 only.
#ifndef ASCSIM_ASCSIM_KERNEL_VEC_MISC_MORE_H_
#define ASCSIM_ASCSIM_KERNEL_VEC_MISC_MORE_H_
#include <string>
#include <vector>
#include "dtype_check.h"
#include "engine.h"
#include "debug_print.h"
#include "sys.h"

namespace ascsim {
// Gatherb: repeat i gathers 8 DataBlocks; block j is the 32 bytes at src + offset[i * 8 + j] (bytes), stored at
// dst + (i * dstRepStride + j * dstBlkStride) * 32 (a dstBlkStride of 0 counts as 1). Every offset must keep the
// element width and the 32-byte alignment and stay inside the UB; dst must not share memory with the gathered
// blocks (the page rules out using one buffer for both).
template <class T>
inline void gatherb(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                    const AscendC::LocalTensor<uint32_t>& offset, uint8_t repeat, const AscendC::GatherRepeatParams& p) {
    const char* api = "Gatherb";
    if (repeat == 0) return;
    check_ub_aligned(api, dst.addr_);
    check_ub_aligned(api, src.addr_);
    if ((const void*)dst.addr_ == (const void*)src.addr_)
        fail(api, "Failed to check address overlap", "dst and src are the same buffer: src and dst may not share memory");
    const uint32_t nblk = uint32_t(repeat) * 8;
    check_src(api, offset, nblk);
    const uint64_t blk = p.dstBlkStride == 0 ? 1 : p.dstBlkStride;
    const uint64_t src_off = ub_offset(src.addr_);
    std::vector<uint8_t> taken(core().ub_size / 32, 0);   // UB blocks gathered from
    std::vector<uint8_t> data(size_t(nblk) * 32);
    for (uint32_t k = 0; k < nblk; ++k) {
        uint32_t off = offset.addr_[k];
        if (off % sizeof(T))
            fail(api, "Failed to check offset value",
                 "offset[" + std::to_string(k) + "] = " + std::to_string(off) + " B is not a multiple of the element size " +
                     std::to_string(sizeof(T)) + " B");
        if (off % 32)
            fail(api, "Failed to check offset value",
                 "offset[" + std::to_string(k) + "] = " + std::to_string(off) + " B: the gathered block must start 32-byte aligned");
        if (src_off + off + 32 > core().ub_size)
            fail(api, "VEC instruction error: the ub address out of bounds.",
                 "offset[" + std::to_string(k) + "] = " + std::to_string(off) + " B from the src at UB offset " +
                     std::to_string(src_off) + " runs past the " + std::to_string(core().ub_size) + " B unified buffer");
        const uint8_t* s = core().ub + src_off + off;
        sync_v_read(api, s, 32);
        taken[(src_off + off) / 32] = 1;
        std::memcpy(data.data() + size_t(k) * 32, s, 32);
    }
    for (uint32_t k = 0; k < nblk; ++k) {
        uint8_t* d = (uint8_t*)dst.addr_ + (uint64_t(k / 8) * p.dstRepStride + uint64_t(k % 8) * blk) * 32;
        check_ub(api, d, 32);
        if (taken[ub_offset(d) / 32])
            fail(api, "Failed to check address overlap",
                 "dst block " + std::to_string(k) + " at UB offset " + std::to_string(ub_offset(d)) +
                     " is also a gathered src block: src and dst may not share memory");
    }
    for (uint32_t k = 0; k < nblk; ++k) {
        uint8_t* d = (uint8_t*)dst.addr_ + (uint64_t(k / 8) * p.dstRepStride + uint64_t(k % 8) * blk) * 32;
        sync_v_write(api, d, 32);
        std::memcpy(d, data.data() + size_t(k) * 32, 32);
    }
}

// TRACE_START / TRACE_STOP pairing on the calling core: a stop with no open start of the same id is reported (the
// trace would show no span). Keyed by the core context so a thread running several cores keeps them apart.
struct TraceState { const CoreCtx* owner = nullptr; uint32_t open = 0; };
inline TraceState& trace_state() {
    thread_local TraceState s;
    if (s.owner != &core()) { s.owner = &core(); s.open = 0; }
    return s;
}
inline void trace_mark(bool start, uint32_t apid) {
    const char* api = start ? "TRACE_START" : "TRACE_STOP";
    if (apid > 9) {
        warn(api, "apid " + std::to_string(apid) + " is not one of the user-defined trace ids 0x0 ~ 0x9");
        return;
    }
    TraceState& s = trace_state();
    if (start) { s.open |= 1u << apid; return; }
    if (!(s.open & (1u << apid)))
        warn(api, "TRACE_STOP(" + std::to_string(apid) + ") without an open TRACE_START of the same id on this core: "
                  "the pair does not show in the trace");
    s.open &= ~(1u << apid);
}
// The pipe argument only takes effect on other chips; Atlas A2 ignores it.
inline void trace_mark(bool start, pipe_t pipe, uint32_t apid) { (void)pipe; trace_mark(start, apid); }
}  // namespace ascsim

namespace AscendC {

template <typename T>
__aicore__ inline void Gatherb(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& offset,
                               const uint8_t repeatTime, const GatherRepeatParams& repeatParams) {
    ASCSIM_DTYPE_CHECK("Gatherb", T, "uint16_t / uint32_t", uint16_t, uint32_t);
    ::ascsim::gatherb(dst, src, offset, repeatTime, repeatParams);
}

// Store-atomic configuration: the same core state SetAtomicAdd / SetAtomicNone drive (core().atomic_op, read by every
// UB -> GM copy), so a DataCopy to GM after SetStoreAtomicConfig<ATOMIC_*, ATOMIC_SUM> accumulates; the configured
// type is kept in core().atomic_dtype (the AtomicDtype value) for GetStoreAtomicConfig. The copy's own element type
// decides the arithmetic.
template <AtomicDtype type, AtomicOp op> __aicore__ inline void SetStoreAtomicConfig() {
    static_assert(op == AtomicOp::ATOMIC_SUM, "Failed to check op in SetStoreAtomicConfig, only AtomicOp::ATOMIC_SUM is supported.");
    static_assert(uint8_t(type) <= uint8_t(AtomicDtype::ATOMIC_BF16),
                  "Failed to check type in SetStoreAtomicConfig, current api support dtype is int8_t / int16_t / half / "
                  "bfloat16_t / int32_t / float.");
    auto& c = ::ascsim::core();
    c.atomic_op = type == AtomicDtype::ATOMIC_NONE ? 0 : 1;
    c.atomic_dtype = int(type);
}
// atomicType: 0 off, else the AtomicDtype code (1 float, 2 half, 3 int16_t, 4 int32_t, 5 int8_t, 6 bfloat16_t);
// atomicOp: 0 sum. Max / min (SetAtomicMax / SetAtomicMin) have no code on the page; they read back as 1 / 2 here so
// that they differ from a sum.
__aicore__ inline void GetStoreAtomicConfig(uint16_t& atomicType, uint16_t& atomicOp) {
    const auto& c = ::ascsim::core();
    atomicType = c.atomic_op == 0 ? 0 : uint16_t(c.atomic_dtype);
    atomicOp = c.atomic_op <= 1 ? 0 : uint16_t(c.atomic_op - 1);
}

// SuperKernel early start: lets the instructions after (SetNextTaskStart) / before (WaitPreTaskEnd) the call overlap
// with the neighbouring sub-kernel. A simulated launch runs one kernel at a time, so both only check their template
// arguments.
template <pipe_t AIV_PIPE = PIPE_MTE3, pipe_t AIC_PIPE = PIPE_FIX, bool FORCE = false>
__aicore__ inline void SetNextTaskStart() {
    static_assert(AIV_PIPE == PIPE_MTE2 || AIV_PIPE == PIPE_MTE3 || AIV_PIPE == PIPE_S || AIV_PIPE == PIPE_V,
                  "Failed to check AIV_PIPE in SetNextTaskStart, it must be PIPE_MTE2 / PIPE_MTE3 / PIPE_S / PIPE_V.");
    static_assert(AIC_PIPE == PIPE_MTE1 || AIC_PIPE == PIPE_MTE2 || AIC_PIPE == PIPE_MTE3 || AIC_PIPE == PIPE_FIX ||
                      AIC_PIPE == PIPE_M,
                  "Failed to check AIC_PIPE in SetNextTaskStart, it must be PIPE_MTE1 / PIPE_MTE2 / PIPE_MTE3 / PIPE_FIX / PIPE_M.");
}
template <bool FORCE = false> __aicore__ inline void WaitPreTaskEnd() {}

// DataCachePreload: fetches one cache line of GM at src + cacheOffset bytes into the data cache. A hint without
// effect on results; the simulator has no cache.
template <typename T> __aicore__ inline void DataCachePreload(const GlobalTensor<uint64_t>& src, const T cacheOffset) {
    static_assert(::ascsim::one_of_v<T, int16_t, int64_t>,
                  "Failed to check dtype in DataCachePreload, current api support dtype of cacheOffset is int16_t / int64_t.");
    (void)src;
    (void)cacheOffset;
}

// PrintTimeStamp: with ASCENDC_TIME_STAMP_ON defined it prints one record through the kernel printf path (same
// prefix, per-core budget and ASCENDC_DUMP switch). The simulator has no cycle counter or program counter: the
// time stamp is GetSystemCycle() (0) and pcPtr / entry read 0.
__aicore__ inline void PrintTimeStamp(uint32_t descId) {
#if defined(ASCENDC_TIME_STAMP_ON)
    ::ascsim::kernel_printf("descId is %u, rsv is %u, timeStamp is %lu, pcPtr is %lu, entry is %lu.\n", descId, 0u,
                            uint64_t(GetSystemCycle()), uint64_t(0), uint64_t(0));
#else
    (void)descId;
#endif
}

// The ten user-defined trace ids of TRACE_START / TRACE_STOP.
enum TraceId : uint32_t { USER_DEFINE_0 = 0, USER_DEFINE_1, USER_DEFINE_2, USER_DEFINE_3, USER_DEFINE_4, USER_DEFINE_5,
                          USER_DEFINE_6, USER_DEFINE_7, USER_DEFINE_8, USER_DEFINE_9 };

// CheckLocalMemoryIA: arms one of four UB access-check registers; an access of the enabled kinds inside
// (startAddr, endAddr] (32-byte units) raises an exception on the device.
struct CheckLocalMemoryIAParam {
    uint64_t enableBit = 0;   // 0 ~ 3: which check register
    uint64_t startAddr = 0;   // 32 B units, exclusive
    uint64_t endAddr = 0;     // 32 B units, inclusive
    bool isScalarRead = false;
    bool isScalarWrite = false;
    bool isVectorRead = false;
    bool isVectorWrite = false;
    bool isMteRead = false;
    bool isMteWrite = false;
    bool isEnable = false;
    uint64_t reserved = 0;
};
// The simulator does not trap the accesses (that needs a hook on every UB access, and LocalTensor::GetPhyAddr here is a
// host address, not the UB offset the registers compare); it checks the register number and warns once per launch
// that an armed check is not enforced.
__aicore__ inline void CheckLocalMemoryIA(const CheckLocalMemoryIAParam& checkParams) {
    if (checkParams.enableBit > 3)
        ::ascsim::fail("CheckLocalMemoryIA", "Failed to check enableBit value",
                       "enableBit " + std::to_string(checkParams.enableBit) + " is outside the valid range 0 ~ 3");
    if (checkParams.isEnable)
        ::ascsim::warn("CheckLocalMemoryIA", "UB access checking is not simulated: accesses inside the armed range do "
                                             "not raise an exception here");
}

}  // namespace AscendC

// TRACE_START(apid) / TRACE_START(pipe, apid) and TRACE_STOP: trace markers for the performance simulator, active
// only when ASCENDC_TRACE_ON is defined (then the ids and the start/stop pairing are checked; nothing is traced).
#if defined(ASCENDC_TRACE_ON)
#define TRACE_START(...) ::ascsim::trace_mark(true, __VA_ARGS__)
#define TRACE_STOP(...) ::ascsim::trace_mark(false, __VA_ARGS__)
#else
#define TRACE_START(...) ((void)0)
#define TRACE_STOP(...) ((void)0)
#endif

// SetKernelMode (host side, CPU twin debugging): picks AIV-only, AIC-only or mixed cores for the CPU debug run. The
// simulator takes the core types from the launch, so the call has no effect.
enum class KernelMode { MIX_MODE = 0, AIC_MODE, AIV_MODE };
namespace AscendC {
using ::KernelMode;
inline void SetKernelMode(KernelMode mode) { (void)mode; }
}  // namespace AscendC
#endif  // ASCSIM_ASCSIM_KERNEL_VEC_MISC_MORE_H_
