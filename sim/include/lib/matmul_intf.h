// ascsim: kernel-side tiling structs of the matmul API (cube tier: not simulated yet).
#ifndef ASCSIM_LIB_MATMUL_INTF_H_
#define ASCSIM_LIB_MATMUL_INTF_H_
#include <cstdint>
#include "ascsim/kernel/matmul_api.h"   // matmul::Matmul (functional model)
#endif  // ASCSIM_LIB_MATMUL_INTF_H_
