// ascsim: kernel-side tiling structs of the matmul API (cube tier: not simulated yet).
#pragma once
#include <cstdint>
