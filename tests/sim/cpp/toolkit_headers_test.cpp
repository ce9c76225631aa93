// The toolkit's public include paths resolve onto ascsim's implementations: high-level APIs by family
// (lib/math/...), the older per-API aliases (lib/sigmoid/...), basic-API headers and the implementation headers that
// hold the raw intrinsics. References: Asin(x) = arcsin x and Sigmoid(x) = 1 / (1 + e^-x) (the API documentation's
// definitions), checked on one simulated core.
#include "lib/math/kernel_operator_asin_intf.h"
#include "lib/transpose/kernel_operator_confusion_transpose_intf.h"   // not simulated: including it is harmless
#include "lib/sigmoid/kernel_operator_sigmoid_intf.h"
#include "lib/activation/kernel_operator_sigmoid_intf.h"
#include "kernel_tensor.h"
#include "kernel_operator_vec_binary_intf.h"
#include "kernel_utils.h"
#include "impl/dav_c220/kernel_operator_reg_others_impl.h"
#include <cmath>
#include "check.h"

using namespace AscendC;

int main() {
    alignas(4096) static uint8_t ub[ascsim::kUbBytes];
    ascsim::CoreCtx ctx;
    ctx.ub = ub;
    ascsim::bind_test_core(&ctx);
    LocalTensor<float> x(reinterpret_cast<float*>(ub), 64, TPosition::VECCALC);
    LocalTensor<float> y(reinterpret_cast<float*>(ub + 1024), 64, TPosition::VECCALC);
    LocalTensor<uint8_t> tmp(ub + 4096, 8192, TPosition::VECCALC);
    for (int i = 0; i < 64; ++i) x.SetValue(i, -0.9f + 1.8f * float(i) / 63.0f);
    Asin(y, x, tmp, 64);
    double worst = 0;
    for (int i = 0; i < 64; ++i) worst = std::fmax(worst, std::fabs(double(y.GetValue(i)) - std::asin(double(x.GetValue(i)))));
    CHECK_MSG(worst < 1e-5, "Asin worst error %g", worst);
    Sigmoid(y, x, tmp, 64);
    worst = 0;
    for (int i = 0; i < 64; ++i) worst = std::fmax(worst, std::fabs(double(y.GetValue(i)) - 1.0 / (1.0 + std::exp(-double(x.GetValue(i))))));
    CHECK_MSG(worst < 1e-6, "Sigmoid worst error %g", worst);
    std::printf("PASS %d FAIL %d\n", g_pass, g_fail);
    return g_fail != 0;
}
