// ascsim: vendor include name.
#pragma once
#include <cstdio>
#include "register/op_def_registry.h"
