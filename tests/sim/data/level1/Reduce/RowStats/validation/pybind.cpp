#include <torch/extension.h>
#include "pytorch_npu_helper.hpp"

at::Tensor row_stats_impl(const at::Tensor& x)
{
    at::Tensor y = torch::empty_like(x);
    EXEC_NPU_CMD(aclnnCustomOp, x, y);
    return y;
}

PYBIND11_MODULE(kernel_gen_ops, m) { m.def("custom_pybind_api", &row_stats_impl, ""); }
