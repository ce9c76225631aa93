#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void axpy(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
}
