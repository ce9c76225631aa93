#ifndef SCALE_TEMPLATE_TILING_KEY_H
#define SCALE_TEMPLATE_TILING_KEY_H
#include "ascendc/host_api/tiling/template_argument.h"

// MODE's list puts 3 before 1, so the key holds its index (3 -> 0, 1 -> 1), not the value.
ASCENDC_TPL_ARGS_DECL(ScaleTemplate,
    ASCENDC_TPL_DATATYPE_DECL(D_T, C_DT_FLOAT, C_DT_FLOAT16, ASCENDC_TPL_INPUT(0)),
    ASCENDC_TPL_UINT_DECL(MODE, 2, ASCENDC_TPL_UI_LIST, 3, 1),
    ASCENDC_TPL_BOOL_DECL(NEGATE, 0, 1));
ASCENDC_TPL_SEL(
    ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_DATATYPE_SEL(D_T, ASCENDC_TPL_INPUT(0)),
                         ASCENDC_TPL_UINT_SEL(MODE, ASCENDC_TPL_UI_LIST, 3, 1),
                         ASCENDC_TPL_BOOL_SEL(NEGATE, 0)),
    ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_DATATYPE_SEL(D_T, ASCENDC_TPL_INPUT(0)),
                         ASCENDC_TPL_UINT_SEL(MODE, ASCENDC_TPL_UI_RANGE, 1, 3, 3),
                         ASCENDC_TPL_BOOL_SEL(NEGATE, 1)));
#endif
