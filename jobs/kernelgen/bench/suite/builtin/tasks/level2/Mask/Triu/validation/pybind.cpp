#include <torch/csrc/autograd/custom_function.h>
#include <torch/library.h>
#include "pytorch_npu_helper.hpp"

at::Tensor triu_impl(const at::Tensor &x, int64_t diagonal)
{
    at::Tensor result = at::empty_like(x);
    EXEC_NPU_CMD(aclnnTriu, x, diagonal, result);
    return result;
}

PYBIND11_MODULE(kernel_gen_ops, m)
{
    m.doc() = "Python bindings for kernel_gen_ops";
    m.def("triu", &triu_impl, "aclnnTriu");
}
