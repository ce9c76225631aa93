// ascsim kernel side: hooks of the missing-synchronisation (cross-pipe race) detector.
// The simulator executes every instruction synchronously in program order; on the device the pipes (S, V, MTE2,
// MTE3 on an AIV) run asynchronously and only SetFlag/WaitFlag, PipeBarrier<PIPE_ALL>, the TPipe queue events and
// the compiler's --cce-auto-sync order them. With ASCSIM_SYNC_CHECK=warn|error the runtime attaches a detector to
// each core (sim/src/runtime.cpp: vector clocks per pipe, last writer / readers per 32-byte UB block) and the
// hooks below feed it; when it is off each hook is one well-predicted branch. On an AIC the cube memories (L1, L0A,
// L0B, L0C, BiasTable, Fixpipe buffer) are tracked through the same table (cube_mem.h sync_cube: DataCopy Nd2Nz =
// MTE2, LoadData = MTE1, Mmad = M, Fixpipe = FIX; unitFlag counts as the M <-> FIX order it is on the device).
// Roles: APIs say kRead / kWrite (check_src / check_dst); kUnknownRole is only for callers that cannot tell.
#ifndef ASCSIM_ASCSIM_KERNEL_SYNC_CHECK_H_
#define ASCSIM_ASCSIM_KERNEL_SYNC_CHECK_H_
#include <cstddef>
#include <cstdint>
#include "../runtime_api.h"

namespace ascsim {

// pipe_t values (defs.h) are used directly: PIPE_S 0, PIPE_V 1, PIPE_M 2, PIPE_MTE1 3, PIPE_MTE2 4, PIPE_MTE3 5,
// PIPE_ALL 6, PIPE_FIX 10.
constexpr int kPipeS = 0, kPipeV = 1, kPipeM = 2, kPipeMte1 = 3, kPipeMte2 = 4, kPipeMte3 = 5, kPipeAll = 6, kPipeFix = 10;

// Operand roles: kUnknownRole is for callers that do not say whether an operand is read or written (it is
// checked like a read, so no write-after-read is reported for it, and recorded like a write).
constexpr int kRead = 0, kWrite = 1, kUnknownRole = 2;

// Queue events of TQue/TQueBind (the automatic sync TPipe inserts).
enum SyncQueueEvent { kQueAlloc = 0, kQueEnQue, kQueDeQue, kQueFree };

inline bool sync_on() { return __builtin_expect(g_sync_active, 0) && core().sync != nullptr; }
// An access of [p, p + bytes) by `pipe`; parts outside this core's UB are ignored.
inline void sync_ub(int pipe, const char* api, const void* p, size_t bytes, int role) {
    if (sync_on()) sync_access(pipe, api, p, bytes, role);
}
inline void sync_v_read(const char* api, const void* p, size_t bytes) { sync_ub(kPipeV, api, p, bytes, kRead); }
inline void sync_v_write(const char* api, const void* p, size_t bytes) { sync_ub(kPipeV, api, p, bytes, kWrite); }
inline void sync_set(int src, int dst, int id) { if (sync_on()) sync_flag(src, dst, id, true); }
inline void sync_wait(int src, int dst, int id) { if (sync_on()) sync_flag(src, dst, id, false); }
inline void sync_barrier_pipe(int pipe) { if (sync_on() && pipe == kPipeAll) sync_barrier_all(); }
// src/dst: the TQueBind positions (AscendC::TPosition as int), slot: the buffer's first byte.
inline void sync_que(int event, const void* slot, int src, int dst) { if (sync_on()) sync_queue_event(event, slot, src, dst); }

}  // namespace ascsim
#endif  // ASCSIM_ASCSIM_KERNEL_SYNC_CHECK_H_
