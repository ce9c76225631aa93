#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void embedding(GM_ADDR weight, GM_ADDR indices, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
}
