// ascsim: temporary-buffer models shared by the kernel side of SoftmaxFlash / SoftmaxGradFront / SoftmaxFlashV3
// (ascsim/kernel/hl_softmax_more.h) and their host queries (ascsim/host/softmax_more_tiling.h), so that the host's
// minimum is exactly what the kernel accepts. The vendor documents no size formula; these are ascsim's models:
//   SoftmaxFlash, SoftmaxGrad(Front): two float rows of srcK per row processed (min: one row, max: every row);
//   SoftmaxFlashV3: per row a float copy of the shifted row, a 64-float partial-sum row and four float stat blocks,
//   rows processed in groups of 8 (min: one group, max: every row).
#ifndef ASCSIM_ASCSIM_SOFTMAX_MORE_COMMON_H_
#define ASCSIM_ASCSIM_SOFTMAX_MORE_COMMON_H_
#include <cstdint>
namespace ascsim_softmax_more {
constexpr uint32_t two_rows(uint32_t k) { return 2u * ((k * 4u + 31u) / 32u * 32u); }
constexpr uint32_t flash_min(uint32_t m, uint32_t k) { return m && k ? two_rows(k) : 0u; }
constexpr uint32_t flash_max(uint32_t m, uint32_t k) { return m && k ? m * two_rows(k) : 0u; }
constexpr uint32_t grad_min(uint32_t m, uint32_t k) { return flash_min(m, k); }
constexpr uint32_t grad_max(uint32_t m, uint32_t k) { return flash_max(m, k); }
constexpr uint32_t v3_row(uint32_t k) { return (k + 64u + 32u) * 4u; }
constexpr uint32_t v3_min(uint32_t m, uint32_t k) { return m && k ? 8u * v3_row(k) : 0u; }
constexpr uint32_t v3_max(uint32_t m, uint32_t k) { return m && k ? (m + 7u) / 8u * 8u * v3_row(k) : 0u; }
}  // namespace ascsim_softmax_more
#endif  // ASCSIM_ASCSIM_SOFTMAX_MORE_COMMON_H_
