// ascsim: vendor include name.
#ifndef ASCSIM_GRAPH_UTILS_TYPE_UTILS_H_
#define ASCSIM_GRAPH_UTILS_TYPE_UTILS_H_
#include "ascsim/host/ge_types.h"
#endif  // ASCSIM_GRAPH_UTILS_TYPE_UTILS_H_
