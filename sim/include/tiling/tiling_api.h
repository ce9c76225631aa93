// ascsim: vendor include name; library tiling helpers (matmul/softmax tiling) belong to later tiers.
#ifndef ASCSIM_TILING_TILING_API_H_
#define ASCSIM_TILING_TILING_API_H_
#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "ascsim/host/hl_tiling.h"   // high-level API temp-buffer sizes
#include "ascsim/host/sort_tiling.h" // Concat / Sort temp-buffer sizes
#endif  // ASCSIM_TILING_TILING_API_H_
