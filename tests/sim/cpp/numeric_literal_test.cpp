// half and bfloat16_t as literal types (the device compiler accepts `constexpr half k = 1.0;`): the constant-
// evaluation path must give exactly the IEEE round-to-nearest-even results of the run-time path.
// References: IEEE 754 binary16 (1 sign, 5 exponent bits, bias 15, 10 mantissa bits; largest finite 65504, smallest
// subnormal 2^-24) and bfloat16 (the upper 16 bits of a binary32, rounded to nearest even).
#include <cmath>
#include <cstdint>
#include <random>
#include "kernel_operator.h"
#include "check.h"

// constant initialisation, as kernels write it
constexpr half kOne = 1.0;
constexpr half kNegTwo = -2.0f;
constexpr half kThree = 3;
constexpr bfloat16_t kBfOne = 1.0;
constexpr half kTable[] = {0.5, 0.25, 65504.0};
static_assert(kOne.bits_ == 0x3C00, "1.0 is 0x3C00");
static_assert(kNegTwo.bits_ == 0xC000, "-2.0 is 0xC000");
static_assert(kThree.bits_ == 0x4200, "3 is 0x4200");
static_assert(kBfOne.bits_ == 0x3F80, "bf16 1.0 is 0x3F80");
static_assert(kTable[2].bits_ == 0x7BFF, "65504 is the largest finite half");
static_assert(half(0.1).bits_ == 0x2E66, "0.1 rounds to 0x2E66");
static_assert(half(65520.0f).bits_ == 0x7C00, "65520 (halfway to 2^16) rounds to even: inf");
static_assert(half(65519.0f).bits_ == 0x7BFF, "65519 rounds down to 65504");
static_assert(half(5.9604644775390625e-08f).bits_ == 0x0001, "2^-24 is the smallest subnormal");
static_assert(half(2.98023223876953125e-08f).bits_ == 0x0000, "2^-25 ties to even: +0");
static_assert(half(-0.0f).bits_ == 0x8000, "-0 keeps its sign");
static_assert(float(kOne) == 1.0f && float(half(0.1)) == 0.0999755859375f, "decode in constant evaluation");
static_assert(bfloat16_t(3.0e38f).bits_ == 0x7F62, "bf16 of 3e38");
static_assert(float(bfloat16_t(1.0f / 3.0f)) == 0.333984375f, "bf16 1/3 rounds to 0x3EAB");

static bool same_float(float a, float b) { return (std::isnan(a) && std::isnan(b)) || ascsim::f2u(a) == ascsim::f2u(b); }

int main() {
    // every binary16 / bfloat16 pattern decodes identically on both paths
    int bad_decode = 0;
    for (uint32_t b = 0; b < 65536; ++b) {
        bad_decode += !same_float(ascsim::const_half_bits_to_float(uint16_t(b)), ascsim::half_bits_to_float(uint16_t(b)));
        bad_decode += !same_float(ascsim::const_bf16_bits_to_float(uint16_t(b)), ascsim::bf16_bits_to_float(uint16_t(b)));
    }
    CHECK_MSG(bad_decode == 0, "%d patterns decode differently", bad_decode);

    // encode: every half value, the midpoints between neighbours (ties), their neighbours, and random floats
    std::vector<float> xs;
    for (uint32_t b = 0; b < 0x7C00; ++b) {
        float v = ascsim::half_bits_to_float(uint16_t(b)), w = ascsim::half_bits_to_float(uint16_t(b + 1));
        float mid = float((double(v) + double(w)) / 2);
        for (float x : {v, mid, std::nextafter(mid, 0.0f), std::nextafter(mid, INFINITY)}) { xs.push_back(x); xs.push_back(-x); }
    }
    std::mt19937 rng(7);
    for (int i = 0; i < 200000; ++i) xs.push_back(ascsim::u2f(rng()));
    for (float x : {INFINITY, -INFINITY, NAN, 3.4028235e38f, 1e-45f, 1.1754942e-38f}) xs.push_back(x);
    int bad_half = 0, bad_bf = 0;
    for (float x : xs) {
        if (std::isnan(x)) {
            bad_half += !std::isnan(ascsim::const_half_bits_to_float(ascsim::const_float_to_half_bits(x)));
            bad_bf += !std::isnan(ascsim::const_bf16_bits_to_float(ascsim::const_float_to_bf16_bits(x)));
            continue;
        }
        bad_half += ascsim::const_float_to_half_bits(x) != ascsim::soft_float_to_half_bits(x);
        bad_bf += ascsim::const_float_to_bf16_bits(x) != ascsim::float_to_bf16_bits(x);
    }
    CHECK_MSG(bad_half == 0, "%d of %zu floats encode to a different half", bad_half, xs.size());
    CHECK_MSG(bad_bf == 0, "%d of %zu floats encode to a different bfloat16", bad_bf, xs.size());

    // the run-time constructors are unchanged: same bits as the conversion routines
    volatile float v = 0.1f;
    CHECK(half(float(v)).bits_ == ascsim::float_to_half_bits(0.1f));
    CHECK(bfloat16_t(float(v)).bits_ == ascsim::float_to_bf16_bits(0.1f));
    CHECK(float(kTable[0]) == 0.5f && float(kTable[1]) == 0.25f);
    std::printf("PASS %d FAIL %d\n", g_pass, g_fail);
    return g_fail != 0;
}
