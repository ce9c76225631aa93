#include <torch/csrc/autograd/custom_function.h>
#include <torch/library.h>
#include "pytorch_npu_helper.hpp"

at::Tensor mul_impl(const at::Tensor &x1, const at::Tensor &x2)
{
    at::Tensor result = at::empty_like(x1);
    EXEC_NPU_CMD(aclnnMul, x1, x2, result);
    return result;
}

PYBIND11_MODULE(kernel_gen_ops, m)
{
    m.doc() = "Python bindings for kernel_gen_ops";
    m.def("mul", &mul_impl, "aclnnMul");
}
