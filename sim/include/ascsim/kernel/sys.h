// ascsim kernel side: block indices, intra-/inter-core sync, mask registers, workspace, tiling access, debug.
#ifndef ASCSIM_ASCSIM_KERNEL_SYS_H_
#define ASCSIM_ASCSIM_KERNEL_SYS_H_
#include <string>
#include "engine.h"
#include "debug_print.h"

namespace ascsim {
void set_flag(int evt, int id, const char* api);
void wait_flag(int evt, int id, const char* api);
void load_tiling(void* dst, size_t bytes, const uint8_t* tiling, const char* type_name);
[[noreturn]] void assert_failed(const char* expr, const char* file, int line);
// HardEvent -> (source pipe, destination pipe), in the order of AscendC::HardEvent (defs.h).
struct EventPipes { int8_t src, dst; };
constexpr EventPipes kEventPipes[] = {
    {PIPE_MTE2, PIPE_MTE1}, {PIPE_MTE1, PIPE_MTE2}, {PIPE_MTE1, PIPE_M}, {PIPE_M, PIPE_MTE1}, {PIPE_MTE2, PIPE_V},
    {PIPE_V, PIPE_MTE2}, {PIPE_MTE3, PIPE_V}, {PIPE_V, PIPE_MTE3}, {PIPE_M, PIPE_V}, {PIPE_V, PIPE_M}, {PIPE_V, PIPE_V},
    {PIPE_MTE3, PIPE_MTE1}, {PIPE_MTE1, PIPE_MTE3}, {PIPE_MTE1, PIPE_V}, {PIPE_MTE2, PIPE_M}, {PIPE_M, PIPE_MTE2},
    {PIPE_V, PIPE_MTE1}, {PIPE_M, PIPE_FIX}, {PIPE_FIX, PIPE_M}, {PIPE_MTE3, PIPE_MTE2}, {PIPE_MTE2, PIPE_MTE3},
    {PIPE_S, PIPE_V}, {PIPE_V, PIPE_S}, {PIPE_S, PIPE_MTE2}, {PIPE_MTE2, PIPE_S}, {PIPE_S, PIPE_MTE3}, {PIPE_MTE3, PIPE_S},
    {PIPE_MTE2, PIPE_FIX}, {PIPE_FIX, PIPE_MTE2}, {PIPE_FIX, PIPE_S}, {PIPE_M, PIPE_S}, {PIPE_FIX, PIPE_MTE3},
    {PIPE_MTE1, PIPE_FIX}, {PIPE_FIX, PIPE_MTE1}, {PIPE_FIX, PIPE_FIX}};
constexpr int kNumEventPipes = int(sizeof(kEventPipes) / sizeof(kEventPipes[0]));
static_assert(kNumEventPipes == int(AscendC::HardEvent::MAX), "kEventPipes follows AscendC::HardEvent");
// The flag slot of a raw set_flag/wait_flag(src, dst, id): the HardEvent with those pipes, so raw intrinsics and
// SetFlag<HardEvent> pair up; pipe pairs without a HardEvent get slots of their own.
inline int hard_event_of(pipe_t src, pipe_t dst) {
    for (int e = 0; e < kNumEventPipes; ++e)
        if (kEventPipes[e].src == src && kEventPipes[e].dst == dst) return e;
    return kNumEventPipes + (int(src) * 3 + int(dst)) % (kNumHardEvents - kNumEventPipes);
}
}  // namespace ascsim

namespace AscendC {

__aicore__ inline int64_t GetBlockIdx() { return ::ascsim::core().block_idx; }
__aicore__ inline int64_t GetBlockNum() { return ::ascsim::core().block_num; }
__aicore__ inline int64_t GetSubBlockIdx() { return ::ascsim::core().sub_block_idx; }
__aicore__ inline int64_t GetSubBlockNum() { return ::ascsim::core().sub_block_num; }
__aicore__ inline int64_t GetTaskRatio() { return ::ascsim::core().sub_block_num; }
__aicore__ inline int64_t GetSystemCycle() { return 0; }
// A DataBlock, the unit of the vector instructions' strides: 32 bytes on Atlas A2.
__aicore__ inline constexpr int16_t GetDataBlockSizeInBytes() { return 32; }

template <HardEvent event> __aicore__ inline void SetFlag(int32_t eventID) {
    ::ascsim::set_flag(int(event), eventID, "SetFlag");
    if (int(event) < ::ascsim::kNumEventPipes)
        ::ascsim::sync_set(::ascsim::kEventPipes[int(event)].src, ::ascsim::kEventPipes[int(event)].dst, eventID);
}
template <HardEvent event> __aicore__ inline void WaitFlag(int32_t eventID) {
    ::ascsim::wait_flag(int(event), eventID, "WaitFlag");
    if (int(event) < ::ascsim::kNumEventPipes)
        ::ascsim::sync_wait(::ascsim::kEventPipes[int(event)].src, ::ascsim::kEventPipes[int(event)].dst, eventID);
}
// TQueSync<src, dst>: SetFlag/WaitFlag between two pipes by their pipe_t names (ids 0-7), the same flags as
// SetFlag<HardEvent> for that pair.
template <pipe_t src, pipe_t dst> class TQueSync {
public:
    __aicore__ inline void SetFlag(int8_t id) {
        ::ascsim::set_flag(::ascsim::hard_event_of(src, dst), id, "TQueSync::SetFlag");
        ::ascsim::sync_set(int(src), int(dst), int(id));
    }
    __aicore__ inline void WaitFlag(int8_t id) {
        ::ascsim::wait_flag(::ascsim::hard_event_of(src, dst), id, "TQueSync::WaitFlag");
        ::ascsim::sync_wait(int(src), int(dst), int(id));
    }
};
// DataSyncBarrier<arg>: waits for the core's earlier memory accesses (GM, UB, or both). Simulated cores complete
// every access before the next instruction, so there is nothing to wait for.
enum class MemDsbT : uint8_t { ALL = 0, DDR = 1, UB = 2, SEQ = 3 };
template <MemDsbT arg0> __aicore__ inline void DataSyncBarrier() {}

template <pipe_t pipe> __aicore__ inline void PipeBarrier() {
    static_assert(pipe != PIPE_S, "PipeBarrier<PIPE_S> is not allowed");
    ::ascsim::sync_barrier_pipe(int(pipe));   // only PIPE_ALL orders different pipes
}

template <bool isAIVOnly = true> __aicore__ inline void SyncAll() {
    ::ascsim::sync_barrier_pipe(::ascsim::kPipeAll);   // the core drains its pipes before the cross-core barrier
    ::ascsim::sync_all("SyncAll");
}
template <bool isAIVOnly = true>
__aicore__ inline void SyncAll(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace, const int32_t usedCores = 0) {
    ::ascsim::check_gm(gmWorkspace.addr_, size_t(GetBlockNum()) * 32, true, "SyncAll");
    (void)ubWorkspace; (void)usedCores;
    ::ascsim::sync_barrier_pipe(::ascsim::kPipeAll);
    ::ascsim::sync_all("SyncAll");
}
__aicore__ inline void SyncAll(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace, const int32_t usedCores = 0) {
    SyncAll<true>(gmWorkspace, ubWorkspace, usedCores);
}

// Mask registers.
template <typename T, MaskMode mode = MaskMode::NORMAL>
__aicore__ inline void SetVectorMask(const uint64_t maskHigh, const uint64_t maskLow) {
    auto& c = ::ascsim::core();
    if (c.counter_mode) { c.mask[0] = maskLow; c.mask[1] = 0; }
    else { c.mask[0] = maskLow; c.mask[1] = maskHigh; }
}
template <typename T, MaskMode mode = MaskMode::NORMAL> __aicore__ inline void SetVectorMask(int32_t len) {
    auto& c = ::ascsim::core();
    if (c.counter_mode || mode == MaskMode::COUNTER) { c.mask[0] = uint64_t(len); c.mask[1] = 0; return; }
    ::ascsim::Mask m = ::ascsim::mask_from(uint64_t(len), 256 / sizeof(T), true);
    c.mask[0] = m.bits[0];
    c.mask[1] = m.bits[1];
}
__aicore__ inline void ResetMask() { auto& c = ::ascsim::core(); c.mask[0] = c.mask[1] = ~0ull; }
__aicore__ inline void SetMaskCount() { ::ascsim::core().counter_mode = true; }
__aicore__ inline void SetMaskNorm() { ::ascsim::core().counter_mode = false; }
// The documented reset of a core's global state (Atlas A2): DMA atomic accumulation off, mask mode normal, the vector
// mask all ones. (The cube's LoadData padding value and boundary it also resets are not modelled here.)
__aicore__ inline void InitSocState() {
    auto& c = ::ascsim::core();
    c.atomic_op = 0;
    c.counter_mode = false;
    c.mask[0] = c.mask[1] = ~0ull;
}

// The CTRL special register. Atlas A2 exposes bit 48 only: the saturation mode of half/bfloat16 arithmetic and
// float-to-float conversion (1: inf and NaN results are kept; 0: inf becomes +-MAX and NaN 0). The docs give two
// defaults (the register table 0, the vector boundary tables inf/NaN kept); the register reads 1 at launch (the
// boundary tables' default). The sum and max/min reductions follow the bit (vec_reduce.h); other half/bf16 results
// keep inf/NaN here, so a kernel that switches saturation on gets a warning saying so.
template <int8_t startBit, int8_t endBit> __aicore__ static inline void SetCtrlSpr(int64_t value) {
    static_assert(0 <= startBit && startBit <= endBit && endBit <= 63, "SetCtrlSpr: bits [startBit, endBit] within 0..63");
    static_assert(startBit == 48 && endBit == 48, "SetCtrlSpr: Atlas A2 supports CTRL[48] (saturation mode) only");
    auto& c = ::ascsim::core();
    c.ctrl = (c.ctrl & ~(1ull << 48)) | (uint64_t(value & 1) << 48);
    if (!(value & 1)) ::ascsim::warn("SetCtrlSpr", "saturation mode (CTRL[48] = 0) is simulated for the reductions only: other half/bf16 results keep inf/NaN");
}
template <int8_t startBit, int8_t endBit> __aicore__ static inline int64_t GetCtrlSpr() {
    static_assert(0 <= startBit && startBit <= endBit && endBit <= 63, "GetCtrlSpr: bits [startBit, endBit] within 0..63");
    const uint64_t width = uint64_t(endBit - startBit + 1);
    return int64_t((::ascsim::core().ctrl >> startBit) & (width == 64 ? ~0ull : ((1ull << width) - 1)));
}
enum class SaturationMode : uint8_t { FLOAT, CAST };
// FLOAT: the CTRL[48] mode above. CAST: conversions to integers; they always saturate on Atlas A2 (the Cast tables),
// which is what the simulator's Cast does.
template <SaturationMode mode> __aicore__ inline void SetSaturationFlag(bool enableSat) {
    if constexpr (mode == SaturationMode::FLOAT) SetCtrlSpr<48, 48>(enableSat ? 0 : 1);
    else if (!enableSat) ::ascsim::warn("SetSaturationFlag", "non-saturating integer conversion is not simulated: Cast saturates");
}
template <SaturationMode mode> __aicore__ inline bool GetSaturationFlag() {
    if constexpr (mode == SaturationMode::FLOAT) return GetCtrlSpr<48, 48>() == 0;
    return true;
}

class AscendCUtils {
public:
    template <typename T, bool isSetMask = true> __aicore__ static inline void SetMask(const uint64_t& maskHigh, const uint64_t& maskLow) {
        if (isSetMask) SetVectorMask<T>(maskHigh, maskLow);
    }
    template <typename T, bool isSetMask = true> __aicore__ static inline void SetMask(int32_t len) {
        if (isSetMask) SetVectorMask<T>(len);
    }
    template <typename T> __aicore__ static inline constexpr int32_t GetC0Count() { return 32 / sizeof(T); }
    // the documented form: elements of `dtypeSize` bytes in one 32-byte block
    __aicore__ static inline constexpr int32_t GetC0Count(const int32_t dtypeSize) { return 32 / dtypeSize; }
    __aicore__ static inline constexpr int32_t GetC0Size() { return 32; }
    __aicore__ static inline void ResetMask() { AscendC::ResetMask(); }
};

__aicore__ inline GM_ADDR GetUserWorkspace(GM_ADDR workspace) { return workspace; }
__aicore__ inline GM_ADDR GetSysWorkSpacePtr() { return ::ascsim::core().sys_workspace; }
__aicore__ inline void SetSysWorkspace(GM_ADDR workspace) { (void)workspace; }

template <typename T> __aicore__ inline float ToFloat(const T& v) { return float(v); }
__aicore__ inline bfloat16_t ToBfloat16(const float& v) { return bfloat16_t(v); }

template <typename T> __aicore__ inline void DumpTensor(const LocalTensor<T>&, uint32_t, uint32_t) {}
template <typename T> __aicore__ inline void DumpTensor(const GlobalTensor<T>&, uint32_t, uint32_t) {}
template <typename T> __aicore__ inline void DumpTensor(const LocalTensor<T>&, uint32_t, uint32_t, const ShapeInfo&) {}
__aicore__ inline void Trap() { ::ascsim::fail("Trap", "trap error", "kernel executed Trap()"); }

}  // namespace AscendC

// Bisheng-style raw intrinsics that AscendC kernels commonly mix in.
__aicore__ inline void pipe_barrier(pipe_t pipe) { ::ascsim::sync_barrier_pipe(int(pipe)); }
__aicore__ inline void set_flag(pipe_t src, pipe_t dst, event_t id) {
    ::ascsim::set_flag(::ascsim::hard_event_of(src, dst), id, "set_flag");
    ::ascsim::sync_set(int(src), int(dst), int(id));
}
__aicore__ inline void wait_flag(pipe_t src, pipe_t dst, event_t id) {
    ::ascsim::wait_flag(::ascsim::hard_event_of(src, dst), id, "wait_flag");
    ::ascsim::sync_wait(int(src), int(dst), int(id));
}
__aicore__ inline void set_vector_mask(uint64_t hi, uint64_t lo) { auto& c = ::ascsim::core(); c.mask[0] = lo; c.mask[1] = hi; }
__aicore__ inline void set_mask_count() { ::ascsim::core().counter_mode = true; }
__aicore__ inline void set_mask_norm() { ::ascsim::core().counter_mode = false; }
__aicore__ inline int64_t get_block_idx() { return ::ascsim::core().block_idx; }
__aicore__ inline int64_t get_block_num() { return ::ascsim::core().block_num; }

// The device compiler's builtin per-core variables `block_idx` and `block_num` (what GetBlockIdx/GetBlockNum
// read): kernels use them as plain integers. Here they are empty objects that read the running simulated core
// when converted, so each core sees its own value; a kernel's own variable of the same name shadows them, as it
// shadows the builtin.
namespace ascsim {
struct BlockIdxVar { __aicore__ inline operator int64_t() const { return ::ascsim::core().block_idx; } };
struct BlockNumVar { __aicore__ inline operator int64_t() const { return ::ascsim::core().block_num; } };
}  // namespace ascsim
inline constexpr ::ascsim::BlockIdxVar block_idx{};
inline constexpr ::ascsim::BlockNumVar block_num{};

#ifndef ASSERT
// Device builds compile ASSERT to nothing: real answers even write `x = y ASSERT(y != 0);` (NPUKernelBench MseLoss),
// which only compiles when the macro is empty. ASCSIM_KERNEL_ASSERT=1 turns the check on.
#if defined(ASCSIM_KERNEL_ASSERT) && ASCSIM_KERNEL_ASSERT
#define ASSERT(expr) ((expr) ? (void)0 : ::ascsim::assert_failed(#expr, __FILE__, __LINE__))
#else
#define ASSERT(expr)
#endif
#endif
// The documented kernel assert (`assert(expr)`, the deprecated `assert(expr, fmt, args...)`, `ascendc_assert`)
// checks: a false condition prints and ends the kernel, which on the device is an AI Core exception. It replaces
// <cassert>'s macro, as the toolkit's dump header does.
#undef assert
#define assert(expr, ...) ((expr) ? (void)0 : ::ascsim::assert_failed(#expr, __FILE__, __LINE__))
#define ascendc_assert(expr, ...) assert(expr)

// The device compiler's scalar intrinsics, declared at global scope like the toolkit does; kernels call them
// unqualified (Catlass' `min(actualShape.k(), L1TileShape::K)`). abs/sqrt(int64_t) are not declared: next to libc's
// overloads they would make `sqrt(int)` ambiguous, and no kernel seen relies on them.
__aicore__ inline int64_t min(int64_t a, int64_t b) { return a < b ? a : b; }
__aicore__ inline int64_t max(int64_t a, int64_t b) { return a > b ? a : b; }

// Tiling access. GET_TILING_DATA reads the default TilingData: `ascsim_default_tiling_t`, which the generated tiling
// header declares (the class the host registered for the op, or an incomplete type naming the fix when there is
// none) and REGISTER_TILING_DEFAULT redeclares in the kernel entry for a standard C++ struct. A struct bound to
// tiling keys (REGISTER_TILING_FOR_TILINGKEY) is read with GET_TILING_DATA_WITH_STRUCT in its key's branch, and
// REGISTER_NONE_TILING registers nothing; both only declare for the device compiler's tiling parser.
#define REGISTER_TILING_DEFAULT(Struct) using ascsim_default_tiling_t = Struct
#define REGISTER_TILING_FOR_TILINGKEY(expression, Struct) static_assert(sizeof(Struct) > 0, expression)
#define REGISTER_NONE_TILING
#define GET_TILING_DATA(var, tiling) \
    ascsim_default_tiling_t var; \
    ::ascsim::load_tiling(&var, sizeof(var), (const uint8_t*)(tiling), "the default TilingData")
#define GET_TILING_DATA_WITH_STRUCT(Struct, var, tiling) \
    Struct var; \
    ::ascsim::load_tiling(&var, sizeof(var), (const uint8_t*)(tiling), #Struct)
// The device qualifies the pointer GET_TILING_DATA_PTR_WITH_STRUCT declares (read-only, in GM or a stack copy);
// kernels spell the qualifier in the parameters they pass it to. Host memory here: only the const remains.
#ifndef __tiling_data_ptr__
#define __tiling_data_ptr__ const
#endif
#define GET_TILING_DATA_PTR_WITH_STRUCT(Struct, var, tiling) \
    const Struct* var = reinterpret_cast<const Struct*>(tiling)
#define GET_TILING_DATA_MEMBER(Struct, member, var, tiling) \
    decltype(Struct::member) var; \
    ::ascsim::load_tiling(&var, sizeof(var), (const uint8_t*)(tiling) + offsetof(Struct, member), #Struct "." #member)
#define TILING_KEY_IS(k) (::ascsim::core().tiling_key == static_cast<uint64_t>(k))
#define TILING_KEY_LIST(k1, k2) (TILING_KEY_IS(k1) || TILING_KEY_IS(k2))
// A stack copy of a tiling struct (or an array member) read through GET_TILING_DATA_PTR_WITH_STRUCT (the pointer, or
// a nested struct member of it); dst_ptr points at the copy, which lives in the enclosing scope.
namespace ascsim {
template <class T> inline const T& tiling_ref(const T* p) { return *p; }
template <class T> inline const T& tiling_ref(const T& v) { return v; }
}  // namespace ascsim
#define COPY_TILING_WITH_STRUCT(tiling_struct, src_ptr, dst_ptr) \
    tiling_struct dst_ptr##_ascsim_copy = ::ascsim::tiling_ref(src_ptr); \
    const tiling_struct* dst_ptr = &dst_ptr##_ascsim_copy
#define COPY_TILING_WITH_ARRAY(arr_type, arr_count, src_ptr, dst_ptr) \
    arr_type dst_ptr##_ascsim_copy[arr_count]; \
    std::memcpy(dst_ptr##_ascsim_copy, (src_ptr), sizeof(arr_type) * (arr_count)); \
    arr_type* dst_ptr = dst_ptr##_ascsim_copy
#define ASCSIM_STR2(x) #x
#define ASCSIM_STR(x) ASCSIM_STR2(x)
#endif  // ASCSIM_ASCSIM_KERNEL_SYS_H_
