// ascsim: the toolkit's kernel-side matmul configuration header (MatmulConfig, CFG_NORM/CFG_MDL, GetNormalConfig,
// GetMDLConfig); kernels include it beside lib/matmul_intf.h. ascsim declares them with its matmul model.
#ifndef ASCSIM_LIB_MATRIX_MATMUL_TILING_H_
#define ASCSIM_LIB_MATRIX_MATMUL_TILING_H_
#include "lib/matmul_intf.h"
#endif  // ASCSIM_LIB_MATRIX_MATMUL_TILING_H_
