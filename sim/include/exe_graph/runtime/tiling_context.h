// ascsim: vendor include name.
#ifndef ASCSIM_EXE_GRAPH_RUNTIME_TILING_CONTEXT_H_
#define ASCSIM_EXE_GRAPH_RUNTIME_TILING_CONTEXT_H_
#include "register/op_def_registry.h"
#endif  // ASCSIM_EXE_GRAPH_RUNTIME_TILING_CONTEXT_H_
