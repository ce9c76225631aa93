// ascsim: vendor include name; library tiling helpers (matmul/softmax tiling) belong to later tiers.
#pragma once
#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
