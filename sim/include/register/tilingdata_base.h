// ascsim: vendor include name for the tiling data macros.
#ifndef ASCSIM_REGISTER_TILINGDATA_BASE_H_
#define ASCSIM_REGISTER_TILINGDATA_BASE_H_
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <vector>
#include "ascsim/host/tiling_def.h"
#endif  // ASCSIM_REGISTER_TILINGDATA_BASE_H_
