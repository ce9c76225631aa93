// ascsim: SelectWithBytesMask (high-level select API). Per row r < firstAxis and column c < srcLastAxis:
//   dst[r][c] = mask[r][c] == 0 ? src0 : src1   (one of src0 / src1 a tensor of srcLastAxis columns, the other a scalar)
// where the mask has maskLastAxis >= srcLastAxis columns per row (the extra columns are ignored). Documented
// constraints checked: the source's last axis is 32-byte aligned; the mask's is 32-byte aligned and a multiple of 16
// elements. isReuseMask lets the device use the mask's memory as scratch; ascsim leaves it unchanged.
#ifndef ASCSIM_KERNEL_HL_SELECT_H_
#define ASCSIM_KERNEL_HL_SELECT_H_
#include <string>
#include <vector>
#include "engine.h"
#include "tpipe.h"

namespace AscendC {
struct SelectWithBytesMaskShapeInfo {
    SelectWithBytesMaskShapeInfo() {}
    uint32_t firstAxis = 0;
    uint32_t srcLastAxis = 0;
    uint32_t maskLastAxis = 0;
};
}  // namespace AscendC

namespace ascsim {
template <class T, class U>
inline void select_with_bytes_mask(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, T scalar, bool scalar_first,
                                   const AscendC::LocalTensor<U>& mask, const AscendC::LocalTensor<uint8_t>& tmp,
                                   const AscendC::SelectWithBytesMaskShapeInfo& info) {
    const char* api = "SelectWithBytesMask";
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "SelectWithBytesMask supports half and float data");
    if (info.maskLastAxis < info.srcLastAxis)
        fail(api, "Failed to check shape", "maskLastAxis (" + std::to_string(info.maskLastAxis) + ") is below srcLastAxis (" +
                                               std::to_string(info.srcLastAxis) + ")");
    if ((uint64_t(info.srcLastAxis) * sizeof(T)) % 32)
        fail(api, "Failed to check shape", "the source's last axis (" + std::to_string(info.srcLastAxis) + " elements) is not 32-byte aligned");
    if (info.maskLastAxis % 16 || (uint64_t(info.maskLastAxis) * sizeof(U)) % 32)
        fail(api, "Failed to check shape", "the mask's last axis (" + std::to_string(info.maskLastAxis) +
                                               " elements) must be 32-byte aligned and a multiple of 16 elements");
    uint64_t n = uint64_t(info.firstAxis) * info.srcLastAxis, nm = uint64_t(info.firstAxis) * info.maskLastAxis;
    if (n == 0) return;
    check_src(api, src, int64_t(n));
    check_src(api, mask, int64_t(nm));
    check_ub_aligned(api, tmp.addr_);
    std::vector<T> s(src.addr_, src.addr_ + n);   // dst may be src
    check_dst(api, dst, int64_t(n));
    for (uint64_t r = 0; r < info.firstAxis; ++r)
        for (uint64_t c = 0; c < info.srcLastAxis; ++c) {
            bool pick_second = to_double(mask.addr_[r * info.maskLastAxis + c]) != 0.0;
            T tensor_value = s[r * info.srcLastAxis + c];
            dst.addr_[r * info.srcLastAxis + c] = pick_second != scalar_first ? scalar : tensor_value;
        }
}
}  // namespace ascsim

namespace AscendC {
// src0 a tensor, src1 a scalar: mask 0 -> the tensor's element, otherwise the scalar
template <typename T, typename U, bool isReuseMask = true>
__aicore__ inline void SelectWithBytesMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, T src1, const LocalTensor<U>& mask,
                                           const LocalTensor<uint8_t>& sharedTmpBuffer, const SelectWithBytesMaskShapeInfo& info) {
    ::ascsim::select_with_bytes_mask(dst, src0, src1, false, mask, sharedTmpBuffer, info);
}
// src0 a scalar, src1 a tensor: mask 0 -> the scalar, otherwise the tensor's element
template <typename T, typename U, bool isReuseMask = true>
__aicore__ inline void SelectWithBytesMask(const LocalTensor<T>& dst, T src0, const LocalTensor<T>& src1, const LocalTensor<U>& mask,
                                           const LocalTensor<uint8_t>& sharedTmpBuffer, const SelectWithBytesMaskShapeInfo& info) {
    ::ascsim::select_with_bytes_mask(dst, src1, src0, true, mask, sharedTmpBuffer, info);
}
}  // namespace AscendC
#endif  // ASCSIM_KERNEL_HL_SELECT_H_
