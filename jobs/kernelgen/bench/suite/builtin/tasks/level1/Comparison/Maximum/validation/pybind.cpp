#include <torch/csrc/autograd/custom_function.h>
#include <torch/library.h>
#include "pytorch_npu_helper.hpp"

at::Tensor maximum_impl(const at::Tensor &x1, const at::Tensor &x2)
{
    at::Tensor result = at::empty_like(x1);
    EXEC_NPU_CMD(aclnnMaximum, x1, x2, result);
    return result;
}

PYBIND11_MODULE(kernel_gen_ops, m)
{
    m.doc() = "Python bindings for kernel_gen_ops";
    m.def("maximum", &maximum_impl, "aclnnMaximum");
}
