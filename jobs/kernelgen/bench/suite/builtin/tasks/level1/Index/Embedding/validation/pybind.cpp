#include <torch/csrc/autograd/custom_function.h>
#include <torch/library.h>
#include "pytorch_npu_helper.hpp"

at::Tensor embedding_impl(const at::Tensor &weight, const at::Tensor &indices)
{
    at::Tensor result = at::empty({indices.size(0), weight.size(1)}, weight.options());
    EXEC_NPU_CMD(aclnnEmbedding, weight, indices, result);
    return result;
}

PYBIND11_MODULE(kernel_gen_ops, m)
{
    m.doc() = "Python bindings for kernel_gen_ops";
    m.def("embedding", &embedding_impl, "aclnnEmbedding");
}
