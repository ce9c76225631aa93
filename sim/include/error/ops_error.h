// ascsim: vendor include name.
#ifndef ASCSIM_ERROR_OPS_ERROR_H_
#define ASCSIM_ERROR_OPS_ERROR_H_
#include <cstdio>
#include "register/op_def_registry.h"
#endif  // ASCSIM_ERROR_OPS_ERROR_H_
