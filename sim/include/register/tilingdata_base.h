// ascsim: vendor include name for the tiling data macros.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <vector>
#include "ascsim/host/tiling_def.h"
