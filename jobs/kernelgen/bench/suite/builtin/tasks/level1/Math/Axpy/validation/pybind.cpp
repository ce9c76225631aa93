#include <torch/csrc/autograd/custom_function.h>
#include <torch/library.h>
#include "pytorch_npu_helper.hpp"

at::Tensor axpy_impl(const at::Tensor &x, const at::Tensor &y, double alpha)
{
    at::Tensor result = at::empty_like(x);
    float alphaValue = static_cast<float>(alpha);
    EXEC_NPU_CMD(aclnnAxpy, x, y, alphaValue, result);
    return result;
}

PYBIND11_MODULE(kernel_gen_ops, m)
{
    m.doc() = "Python bindings for kernel_gen_ops";
    m.def("axpy", &axpy_impl, "aclnnAxpy");
}
