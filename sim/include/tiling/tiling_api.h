// ascsim: vendor include name: the host side of every simulated high-level API (tmp sizes, tiling structs).
#ifndef ASCSIM_TILING_TILING_API_H_
#define ASCSIM_TILING_TILING_API_H_
#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "ascsim/host/hl_tiling.h"   // high-level API temp-buffer sizes
#include "ascsim/host/sort_tiling.h" // Concat / Sort temp-buffer sizes
#include "ascsim/host/math_tiling.h" // rounding, hyperbolic, clamp, xor, gamma-family math
#include "ascsim/host/activation_tiling.h" // Gelu family, Silu, Swish, GLU variants, LogSoftMax
#include "ascsim/host/norm_tiling.h" // LayerNorm, RmsNorm, GroupNorm, BatchNorm, DeepNorm, Welford
#include "ascsim/host/quant_pad_tiling.h" // AscendQuant/Dequant/AntiQuant, Pad/UnPad, DropOut
#include "ascsim/host/softmax_more_tiling.h" // SoftmaxFlash, SoftmaxFlashV3, SoftmaxGrad(Front)
#include "ascsim/host/norm_grad_tiling.h" // LayerNormGrad, LayerNormGradBeta
#include "ascsim/host/misc_more_tiling.h" // ReduceXorSum
#include "ascsim/host/fmod_trans_data_tiling.h" // Fmod, TransData
#endif  // ASCSIM_TILING_TILING_API_H_
