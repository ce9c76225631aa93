// Tiling keys of tiling template programming (ascendc/host_api/tiling/template_argument.h), against the documented
// layout: parameters packed from the lowest bit in declaration order at their widths (8 for data types and formats,
// 1 for a bool, the declared width for an unsigned parameter, which stores the index of its value in the declared
// list); a value that is not declared, or more than 64 bits, gives the invalid key (all ones).
#include "register/op_def_registry.h"
#include "ascendc/host_api/tiling/template_argument.h"
#include "check.h"

ASCENDC_TPL_ARGS_DECL(KeyTest,
    ASCENDC_TPL_DTYPE_DECL(D, 10, 20),
    ASCENDC_TPL_FORMAT_DECL(F, 15, 25),
    ASCENDC_TPL_UINT_DECL(U, 8, ASCENDC_TPL_UI_MIX, 2, 0, 2, 3, 5, 7, 6),
    ASCENDC_TPL_BOOL_DECL(B, 0, 1));
ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_DTYPE_SEL(D, 10), ASCENDC_TPL_FORMAT_SEL(F, 15),
                                     ASCENDC_TPL_UINT_SEL(U, ASCENDC_TPL_UI_LIST, 7, 6), ASCENDC_TPL_BOOL_SEL(B, 0, 1)));

int main() {
    // the docs' worked example: 10 | 15 << 8 | (index of 7 = 6) << 16 | 1 << 24
    CHECK(GET_TPL_TILING_KEY(10, 15, 7, 1) == 17174282ULL);
    CHECK(GET_TPL_TILING_KEY(20, 25, 7, 1) == (20ULL | 25ULL << 8 | 6ULL << 16 | 1ULL << 24));
    CHECK(GET_TPL_TILING_KEY(10, 15, 0, 0) == (10ULL | 15ULL << 8));          // index 0
    CHECK(GET_TPL_TILING_KEY(10, 15, 5, 0) == (10ULL | 15ULL << 8 | 5ULL << 16));   // a range includes its end
    CHECK(GET_TPL_TILING_KEY(10, 15, 6, 0) == (10ULL | 15ULL << 8 | 7ULL << 16));   // the list after the ranges
    CHECK(GET_TPL_TILING_KEY(10, 15, 8, 0) == ~0ULL);                          // 8 is not declared
    CHECK(GET_TPL_TILING_KEY(10, 15) == (10ULL | 15ULL << 8));                 // fewer values: those given

    // more than 64 bits of parameters: no valid key
    static const ::ascsim::tpl::Params wide{ASCENDC_TPL_UINT_DECL(A, 40, ASCENDC_TPL_UI_LIST, 1),
                                            ASCENDC_TPL_UINT_DECL(C, 30, ASCENDC_TPL_UI_LIST, 1)};
    CHECK(::ascsim::tpl::key_of(wide, 1, 1) == ~0ULL);

    // the combinations opdump lists: the registry holds the declaration and its selection
    auto& r = ::ascsim::tpl::registry();
    CHECK(r.count("KeyTest") == 1 && r["KeyTest"].groups.size() == 1 && r["KeyTest"].groups[0].size() == 4);
    std::printf("PASS %d FAIL %d\n", g_pass, g_fail);
    return g_fail != 0;
}
