// ascsim: tiling template programming (vendor include name). An operator declares its template parameters
// (ASCENDC_TPL_ARGS_DECL) and the combinations that exist (ASCENDC_TPL_SEL) in a header that op_host and op_kernel
// both include. On the host the declarations are data (ascsim/host/tpl.h): GET_TPL_TILING_KEY packs a combination
// into a tiling key, and the build reads the selected combinations to instantiate the kernel entry template once per
// combination. In a kernel translation unit the declarations are empty, as with the device compiler.
#ifndef ASCSIM_TEMPLATE_ARGUMENT_H_
#define ASCSIM_TEMPLATE_ARGUMENT_H_
#include <cstdint>

// Parameter kinds, widths, unsigned-value modes, tensor references and kernel types, as documented.
#define ASCENDC_TPL_DTYPE 0
#define ASCENDC_TPL_FORMAT 1
#define ASCENDC_TPL_UINT 2
#define ASCENDC_TPL_BOOL 3
#define ASCENDC_TPL_KERNEL_TYPE 4
#define ASCENDC_TPL_DETERMINISTIC 5
#define ASCENDC_TPL_SHARED_KERNEL_TYPE 6
#define ASCENDC_TPL_1_BW 1
#define ASCENDC_TPL_2_BW 2
#define ASCENDC_TPL_4_BW 4
#define ASCENDC_TPL_8_BW 8
#define ASCENDC_TPL_UI_RANGE 0
#define ASCENDC_TPL_UI_LIST 1
#define ASCENDC_TPL_UI_MIX 2
#define ASCENDC_TPL_INPUT(x) (100000000 + (x))
#define ASCENDC_TPL_OUTPUT(x) (900000000 + (x))
#define ASCENDC_TPL_AIV_ONLY 0
#define ASCENDC_TPL_AIC_ONLY 1
#define ASCENDC_TPL_MIX_AIV_1_0 4
#define ASCENDC_TPL_MIX_AIC_1_0 5
#define ASCENDC_TPL_MIX_AIC_1_1 6
#define ASCENDC_TPL_MIX_AIC_1_2 7
#define ASCENDC_TPL_AICORE 8
#define ASCENDC_TPL_VECTORCORE 9
#define ASCENDC_TPL_MIX_AICORE 10
#define ASCENDC_TPL_MIX_VECTOR_CORE 11

// The native data types (C_DataType; equal to ge::DT_*) and formats a DATATYPE / FORMAT parameter takes.
#ifndef ASCSIM_C_TYPES_DEFINED
#define ASCSIM_C_TYPES_DEFINED
enum C_DataType {
    C_DT_FLOAT = 0, C_DT_FLOAT16 = 1, C_DT_INT8 = 2, C_DT_INT32 = 3, C_DT_UINT8 = 4, C_DT_INT16 = 6, C_DT_UINT16 = 7,
    C_DT_UINT32 = 8, C_DT_INT64 = 9, C_DT_UINT64 = 10, C_DT_DOUBLE = 11, C_DT_BOOL = 12, C_DT_STRING = 13,
    C_DT_COMPLEX64 = 16, C_DT_COMPLEX128 = 17, C_DT_BF16 = 27, C_DT_UNDEFINED = 28, C_DT_INT4 = 29, C_DT_UINT1 = 30,
    C_DT_INT2 = 31, C_DT_UINT2 = 32, C_DT_COMPLEX32 = 33
};
enum C_Format {
    C_FORMAT_NCHW = 0, C_FORMAT_NHWC = 1, C_FORMAT_ND = 2, C_FORMAT_NC1HWC0 = 3, C_FORMAT_FRACTAL_Z = 4,
    C_FORMAT_HWCN = 16, C_FORMAT_NDHWC = 27, C_FORMAT_FRACTAL_NZ = 29, C_FORMAT_NCDHW = 30
};
#endif

#ifdef ASCENDC_TPL_KERNEL
// A kernel translation unit (the device build defines ASCENDC_TPL_KERNEL, so does the simulator's): the build has
// already turned the selections into instantiations.
#define ASCENDC_TPL_ARGS_DECL(...)
#define ASCENDC_TPL_SEL(...)
#else
#include <vector>
#include "ascsim/host/tpl.h"

#define ASCENDC_TPL_DTYPE_DECL(x, ...) ::ascsim::tpl::Param{#x, ::ascsim::tpl::DTYPE, 8, {__VA_ARGS__}}
#define ASCENDC_TPL_DATATYPE_DECL(x, ...) ::ascsim::tpl::Param{#x, ::ascsim::tpl::DATATYPE, 8, {__VA_ARGS__}}
#define ASCENDC_TPL_FORMAT_DECL(x, ...) ::ascsim::tpl::Param{#x, ::ascsim::tpl::FORMAT, 8, {__VA_ARGS__}}
#define ASCENDC_TPL_UINT_DECL(x, bw, ...) ::ascsim::tpl::Param{#x, ::ascsim::tpl::UINT, uint32_t(bw), {__VA_ARGS__}}
#define ASCENDC_TPL_BOOL_DECL(x, ...) ::ascsim::tpl::Param{#x, ::ascsim::tpl::BOOL, 1, {__VA_ARGS__}}
#define ASCENDC_TPL_KERNEL_TYPE_DECL(x, ...) ::ascsim::tpl::Param{#x, ::ascsim::tpl::SHARED_KERNEL_TYPE, 8, {__VA_ARGS__}}

#define ASCENDC_TPL_DTYPE_SEL(x, ...) ::ascsim::tpl::Param{#x, ::ascsim::tpl::DTYPE, 8, {__VA_ARGS__}}
#define ASCENDC_TPL_DATATYPE_SEL(x, ...) ::ascsim::tpl::Param{#x, ::ascsim::tpl::DATATYPE, 8, {__VA_ARGS__}}
#define ASCENDC_TPL_FORMAT_SEL(x, ...) ::ascsim::tpl::Param{#x, ::ascsim::tpl::FORMAT, 8, {__VA_ARGS__}}
#define ASCENDC_TPL_UINT_SEL(x, ...) ::ascsim::tpl::Param{#x, ::ascsim::tpl::UINT, 0, {__VA_ARGS__}}
#define ASCENDC_TPL_BOOL_SEL(x, ...) ::ascsim::tpl::Param{#x, ::ascsim::tpl::BOOL, 1, {__VA_ARGS__}}
#define ASCENDC_TPL_SHARED_KERNEL_TYPE_SEL(x, ...) ::ascsim::tpl::Param{#x, ::ascsim::tpl::SHARED_KERNEL_TYPE, 8, {__VA_ARGS__}}
#define ASCENDC_TPL_KERNEL_TYPE_SEL(x) ::ascsim::tpl::Param{"", ::ascsim::tpl::KERNEL_TYPE, 8, {uint64_t(x)}}
#define ASCENDC_TPL_DETERMINISTIC_SEL(x) ::ascsim::tpl::Param{"", ::ascsim::tpl::DETERMINISTIC, 1, {uint64_t(x)}}
#define ASCENDC_TPL_TILING_STRUCT_SEL(...) ::ascsim::tpl::Param{#__VA_ARGS__, ::ascsim::tpl::TILING_STRUCT, 0, {}}

// One declaration and one selection per translation unit, as the toolkit's header allows (both are file statics).
#define ASCENDC_TPL_ARGS_DECL(op, ...)                                                          \
    static const ::ascsim::tpl::Params g_tilingDeclareParams{__VA_ARGS__};                      \
    [[maybe_unused]] static const int ascsim_tpl_decl_registered_ =                             \
        ::ascsim::tpl::register_decl(#op, g_tilingDeclareParams)
#define ASCENDC_TPL_ARGS_SEL(...) ::ascsim::tpl::Params{__VA_ARGS__}
#define ASCENDC_TPL_SEL(...)                                                                     \
    static const std::vector<::ascsim::tpl::Params> g_tilingSelectParams{__VA_ARGS__};           \
    [[maybe_unused]] static const int ascsim_tpl_sel_registered_ =                              \
        ::ascsim::tpl::register_sel(g_tilingDeclareParams, g_tilingSelectParams)

// The tiling key of a combination (values in declaration order); all ones when a value is not declared.
#define GET_TPL_TILING_KEY(...) ::ascsim::tpl::key_of(g_tilingDeclareParams, __VA_ARGS__)
#define ASCENDC_TPL_SEL_PARAM(context, ...) (context)->SetTilingKey(GET_TPL_TILING_KEY(__VA_ARGS__))
#endif
#endif  // ASCSIM_TEMPLATE_ARGUMENT_H_
