// ascsim: vendor include name.
#pragma once
#include "ascsim/host/platform.h"
