// ascsim: vendor include name.
#pragma once
#include "ascsim/host/ge_types.h"
