#include <torch/csrc/autograd/custom_function.h>
#include <torch/library.h>
#include "pytorch_npu_helper.hpp"

at::Tensor smooth_l1_loss_impl(const at::Tensor &predict, const at::Tensor &label, const std::string &reduction, double beta)
{
    at::Tensor result = reduction == "none" ? at::empty_like(predict) : at::empty({}, predict.options());
    const char *reductionName = reduction.c_str();
    float betaValue = static_cast<float>(beta);
    EXEC_NPU_CMD(aclnnSmoothL1Loss, predict, label, reductionName, betaValue, result);
    return result;
}

PYBIND11_MODULE(kernel_gen_ops, m)
{
    m.doc() = "Python bindings for kernel_gen_ops";
    m.def("smooth_l1_loss", &smooth_l1_loss_impl, "aclnnSmoothL1Loss");
}
