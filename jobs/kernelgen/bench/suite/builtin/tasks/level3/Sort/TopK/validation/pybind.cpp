#include <torch/csrc/autograd/custom_function.h>
#include <torch/library.h>
#include "pytorch_npu_helper.hpp"

std::tuple<at::Tensor, at::Tensor> top_k_impl(const at::Tensor &x, int64_t k)
{
    std::vector<int64_t> outShape(x.sizes().begin(), x.sizes().end());
    outShape.back() = k;
    at::Tensor values = at::empty(outShape, x.options());
    at::Tensor indices = at::empty(outShape, x.options().dtype(at::kInt));
    EXEC_NPU_CMD(aclnnTopK, x, k, values, indices);
    return std::make_tuple(values, indices);
}

PYBIND11_MODULE(kernel_gen_ops, m)
{
    m.doc() = "Python bindings for kernel_gen_ops";
    m.def("top_k", &top_k_impl, "aclnnTopK");
}
