// ascsim: kernel-side tiling structs of the matmul API (cube tier: not simulated yet).
#ifndef ASCSIM_LIB_MATMUL_INTF_H_
#define ASCSIM_LIB_MATMUL_INTF_H_
#include <cstdint>
#endif  // ASCSIM_LIB_MATMUL_INTF_H_
