// ascsim host side: ge:: data types, formats and status codes.
#ifndef ASCSIM_ASCSIM_HOST_GE_TYPES_H_
#define ASCSIM_ASCSIM_HOST_GE_TYPES_H_
#include <cstddef>
#include <cstdint>
#include <string>

namespace ge {
using char_t = char;   // the graph API's character type in its prototypes
enum DataType {
    DT_FLOAT = 0, DT_FLOAT16 = 1, DT_INT8 = 2, DT_INT32 = 3, DT_UINT8 = 4, DT_INT16 = 6, DT_UINT16 = 7, DT_UINT32 = 8,
    DT_INT64 = 9, DT_UINT64 = 10, DT_DOUBLE = 11, DT_BOOL = 12, DT_STRING = 13, DT_DUAL_SUB_INT8 = 14,
    DT_DUAL_SUB_UINT8 = 15, DT_COMPLEX64 = 16, DT_COMPLEX128 = 17, DT_QINT8 = 18, DT_QINT16 = 19, DT_QINT32 = 20,
    DT_QUINT8 = 21, DT_QUINT16 = 22, DT_RESOURCE = 23, DT_STRING_REF = 24, DT_DUAL = 25, DT_VARIANT = 26, DT_BF16 = 27,
    DT_UNDEFINED = 28, DT_INT4 = 29, DT_UINT1 = 30, DT_INT2 = 31, DT_UINT2 = 32, DT_COMPLEX32 = 33, DT_MAX = 34
};
enum Format {
    FORMAT_NCHW = 0, FORMAT_NHWC = 1, FORMAT_ND = 2, FORMAT_NC1HWC0 = 3, FORMAT_FRACTAL_Z = 4, FORMAT_HWCN = 16,
    FORMAT_NDHWC = 27, FORMAT_FRACTAL_ZZ = 28, FORMAT_FRACTAL_NZ = 29, FORMAT_NCDHW = 30, FORMAT_DHWCN = 31,
    FORMAT_NDC1HWC0 = 32, FORMAT_FRACTAL_Z_3D = 33, FORMAT_CN = 34, FORMAT_NC = 35, FORMAT_NCL = 47, FORMAT_RESERVED = 40,
    FORMAT_ALL = 41, FORMAT_NULL = 42, FORMAT_MAX = 0xff
};
using graphStatus = uint32_t;
constexpr graphStatus GRAPH_SUCCESS = 0;
constexpr graphStatus GRAPH_FAILED = 0xFFFFFFFF;
constexpr graphStatus GRAPH_PARAM_INVALID = 50331649;
// the other documented ge::graphStatus values (basic data API, ge namespace)
constexpr graphStatus GRAPH_NOT_CHANGED = 1343242304;
constexpr graphStatus GRAPH_NODE_WITHOUT_CONST_INPUT = 50331648;
constexpr graphStatus GRAPH_NODE_NEED_REPASS = 50331647;
constexpr graphStatus GRAPH_INVALID_IR_DEF = 50331646;
constexpr graphStatus OP_WITHOUT_IR_DATATYPE_INFER_RULE = 50331645;
constexpr graphStatus GRAPH_PARAM_OUT_OF_RANGE = 50331644;
constexpr graphStatus GRAPH_MEM_OPERATE_FAILED = 50331539;
constexpr graphStatus GRAPH_NULL_PTR = 50331538;
constexpr graphStatus GRAPH_MEMCPY_FAILED = 50331537;
constexpr graphStatus GRAPH_MEMSET_FAILED = 50331536;
constexpr graphStatus GRAPH_MATH_CAL_FAILED = 50331429;
constexpr graphStatus GRAPH_ADD_OVERFLOW = 50331428;
constexpr graphStatus GRAPH_MUL_OVERFLOW = 50331427;
constexpr graphStatus GRAPH_RoundUp_Overflow = 50331426;
using Status = uint32_t;
constexpr Status SUCCESS = 0;
constexpr Status FAILED = 0xFFFFFFFF;
// dimension markers of shape inference: a dimension not known until run time, a rank not known at all
constexpr int64_t UNKNOWN_DIM = -1;
constexpr int64_t UNKNOWN_DIM_NUM = -2;

inline int GetSizeByDataType(DataType dt) {
    switch (dt) {
        case DT_FLOAT: case DT_INT32: case DT_UINT32: case DT_COMPLEX32: return 4;
        case DT_FLOAT16: case DT_BF16: case DT_INT16: case DT_UINT16: return 2;
        case DT_INT8: case DT_UINT8: case DT_BOOL: return 1;
        case DT_INT64: case DT_UINT64: case DT_DOUBLE: case DT_COMPLEX64: return 8;
        case DT_COMPLEX128: return 16;
        default: return -1;
    }
}
class TypeUtils {
public:
    static bool GetDataTypeLength(DataType dt, uint32_t& length) {
        int s = GetSizeByDataType(dt);
        if (s < 0) return false;
        length = uint32_t(s);
        return true;
    }
    static std::string DataTypeToSerialString(DataType dt) { return "DT_" + std::to_string(int(dt)); }
};
}  // namespace ge
#endif  // ASCSIM_ASCSIM_HOST_GE_TYPES_H_
