// ascsim: kernel-side tiling structs of library APIs (none needed for the vector tier yet).
#pragma once
#include <cstdint>
