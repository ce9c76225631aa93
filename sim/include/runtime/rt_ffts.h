// ascsim: the runtime's FFTS header (vendor include name), which task bindings of mixed AIC+AIV kernels include.
// rtGetC2cCtrlAddr hands the host the address of the FFTS cross-core synchronisation control block, which such a
// kernel would receive as an argument for SetSyncBaseAddr. The simulator synchronises cores itself and needs no
// such block: the address is 0, the call succeeds.
#ifndef ASCSIM_RUNTIME_RT_FFTS_H_
#define ASCSIM_RUNTIME_RT_FFTS_H_
#include <cstdint>

#ifndef ASCSIM_RT_ERROR_T
#define ASCSIM_RT_ERROR_T
typedef int32_t rtError_t;
#endif
#ifndef RT_ERROR_NONE
#define RT_ERROR_NONE 0
#endif

inline rtError_t rtGetC2cCtrlAddr(uint64_t* addr, uint32_t* len) {
    if (addr) *addr = 0;
    if (len) *len = 0;
    return RT_ERROR_NONE;
}
#endif  // ASCSIM_RUNTIME_RT_FFTS_H_
