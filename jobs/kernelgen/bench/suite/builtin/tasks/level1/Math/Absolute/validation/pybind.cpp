#include <torch/csrc/autograd/custom_function.h>
#include <torch/library.h>
#include "pytorch_npu_helper.hpp"

at::Tensor absolute_impl(const at::Tensor &x)
{
    at::Tensor result = at::empty_like(x);
    EXEC_NPU_CMD(aclnnAbsolute, x, result);
    return result;
}

PYBIND11_MODULE(kernel_gen_ops, m)
{
    m.doc() = "Python bindings for kernel_gen_ops";
    m.def("absolute", &absolute_impl, "aclnnAbsolute");
}
