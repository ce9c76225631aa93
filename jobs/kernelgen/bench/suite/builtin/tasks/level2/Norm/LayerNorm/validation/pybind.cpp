#include <torch/csrc/autograd/custom_function.h>
#include <torch/library.h>
#include "pytorch_npu_helper.hpp"

at::Tensor layer_norm_impl(const at::Tensor &x, const at::Tensor &gamma, const at::Tensor &beta, double epsilon)
{
    at::Tensor result = at::empty_like(x);
    float eps = static_cast<float>(epsilon);
    EXEC_NPU_CMD(aclnnLayerNorm, x, gamma, beta, eps, result);
    return result;
}

PYBIND11_MODULE(kernel_gen_ops, m)
{
    m.doc() = "Python bindings for kernel_gen_ops";
    m.def("layer_norm", &layer_norm_impl, "aclnnLayerNorm");
}
