// ascsim: clean-room CPU model of the AscendC kernel API (Atlas A2 / arch 2201, AIV path).
// One header per API family under ascsim/kernel/; this umbrella mirrors the vendor include name.
#ifndef ASCSIM_KERNEL_OPERATOR_H_
#define ASCSIM_KERNEL_OPERATOR_H_
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <utility>
#include <limits>
#include <algorithm>
#include "ascsim/kernel/defs.h"
#include "ascsim/kernel/tensor.h"
#include "ascsim/kernel/tpipe.h"
#include "ascsim/kernel/engine.h"
#include "ascsim/kernel/vec_arith.h"
#include "ascsim/kernel/vec_cast.h"
#include "ascsim/kernel/vec_compare.h"
#include "ascsim/kernel/tensor_ops.h"
#include "ascsim/kernel/vec_reduce.h"
#include "ascsim/kernel/vec_gather.h"
#include "ascsim/kernel/datacopy.h"
#include "ascsim/kernel/sys.h"
#include "ascsim/kernel/std_lib.h"
#include "ascsim/kernel/list_tensor.h"
// levels 2/3: raw intrinsics, high-level APIs, the cube path
#include "ascsim/kernel/l23.h"
#endif  // ASCSIM_KERNEL_OPERATOR_H_
