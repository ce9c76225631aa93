#include <torch/csrc/autograd/custom_function.h>
#include <torch/library.h>
#include "pytorch_npu_helper.hpp"

at::Tensor greater_impl(const at::Tensor &x1, const at::Tensor &x2)
{
    at::Tensor result = at::empty(x1.sizes(), x1.options().dtype(at::kBool));
    EXEC_NPU_CMD(aclnnGreater, x1, x2, result);
    return result;
}

PYBIND11_MODULE(kernel_gen_ops, m)
{
    m.doc() = "Python bindings for kernel_gen_ops";
    m.def("greater", &greater_impl, "aclnnGreater");
}
