// ascsim: kernel-side tiling structs of library APIs (none needed for the vector tier yet).
#ifndef ASCSIM_KERNEL_TILING_KERNEL_TILING_H_
#define ASCSIM_KERNEL_TILING_KERNEL_TILING_H_
#include <cstdint>
#endif  // ASCSIM_KERNEL_TILING_KERNEL_TILING_H_
