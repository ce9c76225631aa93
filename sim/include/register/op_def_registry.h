// ascsim: vendor include name for the OpDef DSL and the op-impl registry.
#ifndef ASCSIM_REGISTER_OP_DEF_REGISTRY_H_
#define ASCSIM_REGISTER_OP_DEF_REGISTRY_H_
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>
#include <algorithm>
#include "ascsim/host/ge_types.h"
#include "ascsim/host/ge_operator.h"   // ge::Operator for CheckSupported-style callbacks
#include "ascsim/host/gert.h"
#include "ascsim/host/opdef.h"
#include "ascsim/host/platform.h"
#endif  // ASCSIM_REGISTER_OP_DEF_REGISTRY_H_
