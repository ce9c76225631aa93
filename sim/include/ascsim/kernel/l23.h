// ascsim levels 2/3: everything beyond the tier-1 vector API (one umbrella so kernel_operator.h needs one line).
#ifndef ASCSIM_ASCSIM_KERNEL_L23_H_
#define ASCSIM_ASCSIM_KERNEL_L23_H_
// Standard headers kernels include themselves: included here first so that a kernel's own #include (which the
// build places inside a per-TU namespace) is a no-op.
#include <array>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>
#include "cube_mem.h"
#include "cube_api.h"
#include "intrinsics.h"
#include "hl_math.h"
#include "hl_rounding_math.h"
#include "hl_activation.h"
#include "hl_norm.h"
#include "hl_quant_pad.h"
#include "hl_softmax_more.h"
#include "hl_norm_grad.h"
#include "hl_misc_more.h"
#include "hl_fmod.h"
#include "hl_trans_data.h"
#include "vec_transpose.h"
#include "hl_reduce.h"
#include "hl_select.h"
#include "hl_softmax.h"
#include "matmul_api.h"
#include "vec_sort.h"
#include "vec_composite.h"
#include "vec_reduce_more.h"
#include "vec_misc_more.h"
#endif  // ASCSIM_ASCSIM_KERNEL_L23_H_
