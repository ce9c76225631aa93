// ascsim: vendor include name.
#ifndef ASCSIM_TILING_PLATFORM_PLATFORM_ASCENDC_H_
#define ASCSIM_TILING_PLATFORM_PLATFORM_ASCENDC_H_
#include "ascsim/host/platform.h"
#endif  // ASCSIM_TILING_PLATFORM_PLATFORM_ASCENDC_H_
