// ascsim: vendor include name (the graph API's operator view).
#ifndef ASCSIM_GRAPH_OPERATOR_H_
#define ASCSIM_GRAPH_OPERATOR_H_
#include "ascsim/host/ge_operator.h"
#endif  // ASCSIM_GRAPH_OPERATOR_H_
