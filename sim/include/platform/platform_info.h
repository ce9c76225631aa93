// ascsim: vendor include name (PlatFormInfos is opaque here).
#ifndef ASCSIM_PLATFORM_PLATFORM_INFO_H_
#define ASCSIM_PLATFORM_PLATFORM_INFO_H_
#include "ascsim/host/gert.h"
#endif  // ASCSIM_PLATFORM_PLATFORM_INFO_H_
