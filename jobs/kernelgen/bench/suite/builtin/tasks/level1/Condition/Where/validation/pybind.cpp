#include <torch/csrc/autograd/custom_function.h>
#include <torch/library.h>
#include "pytorch_npu_helper.hpp"

at::Tensor where_impl(const at::Tensor &condition, const at::Tensor &x, const at::Tensor &y)
{
    at::Tensor result = at::empty_like(x);
    EXEC_NPU_CMD(aclnnWhere, condition, x, y, result);
    return result;
}

PYBIND11_MODULE(kernel_gen_ops, m)
{
    m.doc() = "Python bindings for kernel_gen_ops";
    m.def("where", &where_impl, "aclnnWhere");
}
