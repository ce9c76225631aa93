#include <torch/csrc/autograd/custom_function.h>
#include <torch/library.h>
#include "pytorch_npu_helper.hpp"

at::Tensor reduce_sum_last_dim_impl(const at::Tensor &x)
{
    std::vector<int64_t> outShape(x.sizes().begin(), x.sizes().end() - 1);
    at::Tensor result = at::empty(outShape, x.options());
    EXEC_NPU_CMD(aclnnReduceSumLastDim, x, result);
    return result;
}

PYBIND11_MODULE(kernel_gen_ops, m)
{
    m.doc() = "Python bindings for kernel_gen_ops";
    m.def("reduce_sum_last_dim", &reduce_sum_last_dim_impl, "aclnnReduceSumLastDim");
}
