// ascsim: vendor include name.
#ifndef ASCSIM_REGISTER_OP_DEF_H_
#define ASCSIM_REGISTER_OP_DEF_H_
#include "register/op_def_registry.h"
#endif  // ASCSIM_REGISTER_OP_DEF_H_
