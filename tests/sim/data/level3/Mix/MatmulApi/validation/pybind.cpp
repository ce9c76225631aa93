#include <torch/csrc/autograd/custom_function.h>
#include <torch/library.h>
#include "pytorch_npu_helper.hpp"

at::Tensor matmul_api_impl(const at::Tensor &a, const at::Tensor &b)
{
    at::Tensor result = at::empty({a.size(0), b.size(1)}, a.options().dtype(at::kFloat));
    EXEC_NPU_CMD(aclnnMatmulApi, a, b, result);
    return result;
}

PYBIND11_MODULE(kernel_gen_ops, m)
{
    m.doc() = "Python bindings for kernel_gen_ops";
    m.def("matmul_api", &matmul_api_impl, "aclnnMatmulApi");
}
