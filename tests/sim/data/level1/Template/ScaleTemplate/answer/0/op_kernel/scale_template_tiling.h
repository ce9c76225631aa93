#ifndef SCALE_TEMPLATE_TILING_H
#define SCALE_TEMPLATE_TILING_H
#include <cstdint>

struct ScaleTemplateTilingData {
    uint32_t total;
    uint32_t perCore;
    float scale;
    float shift;
};
#endif
