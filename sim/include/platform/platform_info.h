// ascsim: vendor include name (PlatFormInfos is opaque here).
#pragma once
#include "ascsim/host/gert.h"
