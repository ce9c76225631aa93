#include <torch/csrc/autograd/custom_function.h>
#include <torch/library.h>
#include "pytorch_npu_helper.hpp"

at::Tensor leaky_relu_impl(const at::Tensor &x, double negative_slope)
{
    at::Tensor result = at::empty_like(x);
    float slope = static_cast<float>(negative_slope);
    EXEC_NPU_CMD(aclnnLeakyRelu, x, slope, result);
    return result;
}

PYBIND11_MODULE(kernel_gen_ops, m)
{
    m.doc() = "Python bindings for kernel_gen_ops";
    m.def("leaky_relu", &leaky_relu_impl, "aclnnLeakyRelu");
}
