// The composite vector APIs (AddReluCast, SubReluCast, MulCast, MulAddRelu) against references written from their
// documentation: the worked examples (MulAddRelu's 256-element half example pins the two roundings), random data
// for every Atlas A2 dtype pair in the count form and both level-0 mask forms (continuous / bitwise, counter mode,
// block and repeat strides, masked-off elements left untouched), rounding and saturation of the conversion, and the
// strict rules (alignment, UB bounds, repeatTime / count 0 as a no-op).
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>
#include "kernel_operator.h"
#include "ascsim/kernel/vec_composite.h"

using namespace AscendC;

#include "check.h"

#include "ub_fixture.h"

// The worked example of the MulAddRelu page (half data, printed in numpy's shortest form).
static const float kDocSrc0[256] = {
    77.25f, 59.84f, -39.5f, 19.3f, -45.88f, 11.81f, -60.75f, -99.6f, -12.164f, 25.75f, 100.0f, -68.0f,
    -48.12f, -4.504f, -78.5f, -53.4f, 71.56f, -33.5f, -78.75f, 81.6f, 61.25f, -6.414f, -31.77f, -50.38f,
    84.9f, -75.56f, 89.06f, -50.7f, 93.0f, 99.75f, 8.1f, 58.34f, -47.3f, 40.78f, -98.94f, 41.34f,
    98.5f, -21.11f, 30.7f, 39.3f, -82.06f, -34.88f, -51.44f, -91.7f, -33.12f, 71.2f, -66.3f, -60.2f,
    52.84f, -75.9f, -18.31f, -85.3f, 92.5f, 62.22f, 92.2f, 87.44f, -77.56f, 26.64f, 31.47f, -60.97f,
    85.8f, -48.47f, 74.2f, 42.62f, -49.8f, 77.56f, -15.0f, 47.5f, -26.66f, -97.1f, -3.28f, 99.25f,
    -95.4f, 72.0f, -16.97f, -50.12f, -68.5f, 75.1f, 63.2f, -34.72f, 79.56f, 97.1f, -60.47f, -99.3f,
    -59.5f, -54.2f, -23.62f, -10.74f, 74.8f, -18.3f, 3.81f, -72.2f, 15.21f, 31.55f, 9.5f, 22.08f,
    -88.0f, 77.5f, 7.3f, 68.44f, -40.7f, -27.53f, 39.03f, -6.84f, 43.28f, 4.81f, 26.75f, -8.59f,
    95.44f, -40.22f, 98.94f, 74.4f, -84.8f, -8.72f, 42.44f, 63.1f, 14.14f, -93.25f, 22.77f, -39.1f,
    -18.75f, -26.22f, -56.62f, -8.43f, 25.14f, 43.66f, 40.0f, 63.44f, 87.94f, -94.75f, 36.44f, 24.17f,
    -91.2f, 33.66f, -67.1f, 52.6f, 81.0f, 32.88f, 69.25f, 23.27f, 30.23f, 82.56f, 49.3f, -59.78f,
    81.2f, 28.94f, 45.03f, -49.22f, -99.2f, -6.19f, 1.262f, -94.3f, 83.6f, -17.7f, -61.0f, 47.4f,
    -50.62f, 1.013f, 32.97f, 87.7f, -5.93f, -13.36f, 20.45f, -18.45f, -9.2f, 33.03f, -50.7f, -89.1f,
    -93.4f, 10.3f, -60.72f, 44.84f, 12.664f, 39.1f, -81.9f, -37.1f, 5.215f, -91.9f, 85.44f, 76.9f,
    -70.5f, -39.22f, 59.8f, -11.78f, 4.875f, -98.0f, 83.94f, -31.03f, -58.84f, -38.56f, 39.44f, 97.0f,
    -53.0f, 97.75f, -69.25f, 54.4f, 27.03f, -42.66f, 24.94f, -56.97f, -7.105f, 71.3f, 15.28f, -39.84f,
    79.7f, 51.28f, 76.25f, 7.203f, 77.56f, -15.26f, -74.06f, 59.38f, 64.5f, -63.3f, -34.38f, -24.98f,
    -54.03f, -23.53f, -9.875f, 46.12f, 34.94f, -67.9f, 96.25f, 65.3f, -88.06f, 66.5f, 65.6f, -76.75f,
    77.2f, 29.73f, 63.28f, 41.25f, -20.84f, 34.6f, 37.78f, -72.44f, 58.25f, 9.4f, -50.56f, 29.28f,
    28.2f, 4.438f, -10.35f, 79.06f, 62.75f, -11.51f, -15.16f, -4.055f, -10.016f, 4.887f, 94.1f, -50.25f,
    15.055f, 18.45f, 8.78f, 28.25f,
};
static const float kDocSrc1[256] = {
    -20.95f, -1.547f, -46.25f, 27.14f, 43.16f, 21.44f, 65.6f, 78.25f, -72.9f, 25.39f, 2.133f, 76.3f,
    17.56f, -96.9f, -41.16f, -10.734f, -2.305f, 74.5f, -42.2f, -63.44f, -67.5f, -11.62f, -78.44f, 52.66f,
    18.8f, 45.16f, -35.94f, 82.44f, -53.9f, 10.54f, -86.9f, -55.9f, 7.22f, 85.3f, 14.32f, -57.53f,
    52.9f, -92.4f, 45.0f, 31.64f, 40.56f, 42.06f, 70.25f, -1.671f, -24.27f, 74.9f, 34.56f, 96.44f,
    19.27f, -9.76f, 96.1f, -85.8f, 26.34f, 83.1f, -66.8f, 63.03f, 29.69f, 39.22f, -55.0f, 53.2f,
    -68.75f, 0.5854f, 57.9f, -8.53f, -39.62f, 36.06f, 66.0f, -34.56f, 50.4f, 59.16f, -66.1f, 54.06f,
    60.1f, -30.06f, 88.3f, -72.06f, -22.34f, -52.34f, 39.4f, -59.28f, 10.266f, -54.7f, 59.44f, 14.49f,
    -86.94f, 98.7f, 10.25f, -75.75f, -70.06f, 6.758f, -43.66f, 17.42f, -81.3f, 23.22f, 33.5f, 50.72f,
    -5.547f, 44.78f, 71.2f, 28.7f, 92.06f, -68.3f, -89.0f, -69.2f, 28.95f, -63.72f, 49.53f, 15.29f,
    23.06f, 89.44f, 87.4f, -87.3f, 91.44f, 80.3f, 22.9f, -1.456f, -69.94f, -99.3f, 40.47f, 11.984f,
    -28.7f, -32.22f, -84.0f, -17.67f, 70.3f, -79.0f, -83.6f, 42.56f, -67.0f, -46.53f, -84.4f, -0.7954f,
    -15.34f, -71.7f, -81.25f, 24.62f, -63.7f, 81.8f, 85.44f, 73.2f, -99.1f, 15.29f, -85.6f, 78.5f,
    -54.12f, 47.03f, 46.38f, -31.78f, 58.84f, -21.9f, 83.6f, 60.88f, -53.4f, -52.3f, -47.3f, 20.2f,
    -8.055f, -67.3f, -52.16f, -20.8f, 11.1f, 36.8f, -22.06f, -57.53f, -42.34f, -59.66f, -0.651f, -34.25f,
    -19.33f, -80.5f, -33.62f, 28.31f, -89.7f, -41.5f, -8.9f, -58.44f, -54.16f, -87.4f, -63.66f, 6.664f,
    -7.562f, 95.06f, 85.3f, 82.25f, 27.75f, -25.39f, 88.06f, -94.56f, 86.8f, 68.0f, -26.05f, 8.14f,
    -42.94f, -35.0f, 29.12f, -64.9f, 38.7f, 29.42f, 15.31f, -28.3f, -56.47f, 79.44f, -96.8f, -64.8f,
    81.5f, -69.3f, -23.36f, -95.75f, -56.62f, 77.75f, -23.1f, 67.94f, -29.03f, -14.69f, 0.5996f, -17.05f,
    -73.75f, 95.6f, 79.25f, -61.7f, 5.363f, 88.1f, -15.086f, 58.66f, -20.7f, 90.9f, 42.7f, -51.22f,
    0.3909f, 77.1f, -69.3f, 70.75f, 89.7f, 95.1f, 56.1f, -72.4f, -99.9f, -11.64f, 1.984f, -86.6f,
    -22.22f, -24.44f, 12.5f, -46.66f, 77.7f, 46.28f, -48.3f, -19.03f, -16.61f, 64.44f, -4.758f, -20.9f,
    80.2f, 67.0f, 12.9f, -71.75f,
};
static const float kDocDstIn[256] = {
    -69.5f, -8.8f, -38.3f, 19.9f, -70.0f, 71.75f, -23.17f, -13.48f, 70.0f, -31.16f, 29.6f, -2.914f,
    47.6f, 83.5f, -33.75f, 44.25f, -87.9f, 3.54f, 46.1f, 53.8f, -4.164f, -83.56f, -35.6f, 58.47f,
    -43.56f, -38.03f, 63.72f, 4.9f, -25.56f, 73.7f, 34.7f, 96.3f, -58.34f, -56.78f, -39.44f, 82.5f,
    34.4f, -30.34f, -4.72f, -97.75f, 2.406f, -83.1f, 17.06f, 41.34f, -45.84f, -35.6f, 19.58f, 27.45f,
    4.258f, -95.25f, -7.418f, -10.34f, 99.06f, -84.3f, -2.508f, -14.805f, 44.72f, 27.14f, 64.44f, -16.69f,
    -48.28f, 73.94f, 72.2f, 71.75f, -72.7f, -43.72f, -65.3f, -17.75f, 16.02f, 35.0f, -57.6f, 87.75f,
    91.6f, -44.53f, -82.0f, -54.44f, -23.61f, -71.5f, 86.75f, -83.5f, 39.16f, -60.2f, 51.22f, -63.2f,
    61.8f, 53.9f, -13.016f, 78.4f, -55.1f, -59.94f, -88.25f, -12.35f, 83.4f, 94.44f, -38.28f, -59.38f,
    -98.06f, 54.94f, -11.664f, -22.66f, -94.3f, 65.06f, 89.56f, -74.44f, 17.98f, 29.78f, -98.06f, 95.6f,
    -4.26f, -65.5f, 2.662f, -76.9f, 26.03f, -22.84f, 40.6f, -78.6f, 58.56f, -25.34f, -73.9f, -2.59f,
    -86.9f, 52.75f, 69.7f, 48.66f, -8.95f, -57.84f, -87.3f, -43.84f, -26.36f, 72.3f, 0.1203f, 57.88f,
    96.56f, 43.6f, 94.44f, 76.1f, -58.47f, 82.1f, -46.03f, 82.2f, -67.94f, -80.75f, 91.4f, -46.4f,
    77.56f, -39.25f, 92.25f, -83.8f, -17.25f, -42.72f, -3.533f, 18.4f, -17.6f, 80.94f, 64.0f, 72.6f,
    53.66f, -19.17f, -34.88f, 73.94f, -80.1f, -65.8f, -8.6f, 62.0f, -64.9f, -31.45f, -25.12f, -98.1f,
    75.75f, -6.44f, 66.75f, 4.11f, -62.22f, -74.56f, 17.61f, 85.4f, -0.5825f, -39.28f, -0.2615f, -88.5f,
    67.1f, -78.25f, -7.7f, -82.75f, 98.1f, 62.12f, 73.9f, -98.8f, -78.6f, -88.44f, 49.97f, 98.6f,
    -14.484f, -18.44f, -15.57f, 87.8f, -46.56f, -71.75f, 61.7f, 16.42f, -71.56f, 91.4f, -35.03f, -61.78f,
    -10.39f, -44.1f, 96.44f, 92.7f, 5.785f, -59.75f, -57.22f, -63.1f, -71.6f, 87.06f, 3.691f, -69.44f,
    -15.84f, -73.56f, 4.08f, -27.5f, 41.7f, 88.6f, 21.4f, -73.3f, 91.9f, 29.28f, 100.0f, -19.3f,
    -52.88f, 28.23f, -42.72f, 68.25f, 60.9f, -48.4f, -31.86f, 74.25f, -40.8f, -21.61f, 78.3f, -90.56f,
    -56.47f, -9.51f, 80.8f, -32.28f, 11.18f, 34.34f, 65.9f, 98.8f, 24.83f, 82.9f, -92.6f, -67.06f,
    51.9f, -8.68f, -55.03f, -75.0f,
};
static const float kDocDstOut[256] = {
    0.0f, 0.0f, 1467.0f, 411.5f, 3256.0f, 869.0f, 1474.0f, 1421.0f, 0.0f, 0.0f, 2962.0f, 274.5f,
    0.0f, 0.0f, 2608.0f, 0.0f, 0.0f, 0.0f, 0.0f, 4328.0f, 0.0f, 524.5f, 1053.0f, 0.0f,
    0.0f, 2920.0f, 5640.0f, 0.0f, 0.0f, 7364.0f, 194.1f, 5564.0f, 2768.0f, 0.0f, 3916.0f, 3352.0f,
    3442.0f, 548.0f, 0.0f, 0.0f, 0.0f, 2940.0f, 0.0f, 0.0f, 1495.0f, 0.0f, 0.0f, 0.0f,
    244.2f, 7220.0f, 232.0f, 796.5f, 9184.0f, 0.0f, 0.0f, 0.0f, 0.0f, 762.0f, 1973.0f, 1071.0f,
    0.0f, 0.0f, 5412.0f, 3050.0f, 3580.0f, 0.0f, 1046.0f, 0.0f, 0.0f, 0.0f, 122.75f, 8768.0f,
    0.0f, 0.0f, 1479.0f, 2656.0f, 1595.0f, 0.0f, 5520.0f, 2840.0f, 3126.0f, 0.0f, 0.0f, 6292.0f,
    0.0f, 0.0f, 317.8f, 0.0f, 0.0f, 1104.0f, 0.0f, 909.0f, 1187.0f, 3004.0f, 0.0f, 0.0f,
    8624.0f, 4300.0f, 0.0f, 0.0f, 3930.0f, 0.0f, 3408.0f, 440.0f, 807.5f, 79.5f, 0.0f, 0.0f,
    0.0f, 2724.0f, 351.0f, 0.0f, 0.0f, 279.5f, 1746.0f, 0.0f, 758.0f, 2264.0f, 0.0f, 113.25f,
    1600.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1398.0f,
    0.0f, 1395.0f, 0.0f, 4028.0f, 0.0f, 2782.0f, 0.0f, 1985.0f, 0.0f, 0.0f, 4420.0f, 2852.0f,
    6240.0f, 0.0f, 4204.0f, 4092.0f, 1770.0f, 242.6f, 79.2f, 0.0f, 0.0f, 0.0f, 0.0f, 3462.0f,
    0.0f, 0.0f, 0.0f, 6464.0f, 486.0f, 916.0f, 0.0f, 0.0f, 554.5f, 0.0f, 1273.0f, 8712.0f,
    0.0f, 0.0f, 0.0f, 212.5f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 3520.0f, 0.0f, 0.0f,
    0.0f, 3164.0f, 0.0f, 1057.0f, 506.0f, 0.0f, 6288.0f, 2972.0f, 4716.0f, 3478.0f, 1945.0f, 9576.0f,
    724.5f, 0.0f, 1107.0f, 4712.0f, 0.0f, 3090.0f, 1553.0f, 0.0f, 452.0f, 6596.0f, 0.0f, 2398.0f,
    0.0f, 0.0f, 7328.0f, 572.0f, 392.0f, 989.0f, 4212.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1718.0f,
    782.0f, 1827.0f, 38.97f, 0.0f, 1461.0f, 0.0f, 2045.0f, 0.0f, 0.0f, 2038.0f, 6608.0f, 1430.0f,
    0.0f, 916.5f, 0.0f, 2886.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
    0.0f, 0.0f, 0.0f, 0.0f, 779.0f, 0.0f, 0.0f, 0.0f, 0.0f, 469.5f, 0.0f, 3350.0f,
    861.5f, 0.0f, 0.0f, 0.0f,
};

static std::mt19937 rng(20240611);
static float frand(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(rng); }
static int irand(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

enum Op { ADD, SUB, MUL };

// --- references, written from the pages: dst = Cast(Relu(src0 op src1)) (MulCast: no Relu), the op's result in the
// source type, the conversion rounding to nearest even and saturating ---
static double rint_sat(double v, double lo, double hi) {
    if (std::isnan(v)) return 0;
    v = std::nearbyint(v);
    return v < lo ? lo : v > hi ? hi : v;
}
template <class T, class U> static T ref_one(Op op, U a, U b) {
    double r;
    if constexpr (std::is_same_v<U, int16_t>) {
        int v = op == ADD ? int(a) + int(b) : op == SUB ? int(a) - int(b) : int(a) * int(b);
        r = v;
    } else {
        float fa = float(a), fb = float(b);
        float v = op == ADD ? fa + fb : op == SUB ? fa - fb : fa * fb;
        r = float(U(v));   // rounded to the source type
    }
    if (op != MUL) r = r > 0 ? r : 0.0;
    if constexpr (std::is_same_v<T, int8_t>) return int8_t(rint_sat(r, -128, 127));
    else if constexpr (std::is_same_v<T, uint8_t>) return uint8_t(rint_sat(r, 0, 255));
    else return T(float(r));
}
// MulAddRelu: the product rounded to T, then the sum rounded to T, then Relu.
template <class T> static T ref_mar(T s0, T d, T s1) {
    float p = float(T(float(s0) * float(d)));
    float s = float(T(p + float(s1)));
    return T(s > 0 ? s : 0.0f);
}

template <class T> static void fill_src(T* p, uint32_t n, bool wide) {
    for (uint32_t i = 0; i < n; ++i) {
        if constexpr (std::is_same_v<T, half>) p[i] = half(std::round(frand(wide ? -300.f : -20.f, wide ? 300.f : 20.f) * 4) / 4);
        else if constexpr (std::is_same_v<T, int16_t>) p[i] = int16_t(i % 3 ? irand(-200, 200) : irand(-16000, 16000));
        else p[i] = i % 7 ? std::round(frand(-300.f, 300.f) * 1024) / 1024 : frand(-40000.f, 40000.f);
    }
}

// The API under test, callable with any of its overloads.
#define ASCSIM_TEST_FUNCTOR(FN, NAME, OP)                                                                          \
    struct FN {                                                                                                    \
        static constexpr Op op = OP;                                                                               \
        template <class T, class U> void count(const LocalTensor<T>& d, const LocalTensor<U>& a, const LocalTensor<U>& b, uint32_t n) { \
            NAME(d, a, b, n);                                                                                      \
        }                                                                                                          \
        template <class T, class U> void bits(const LocalTensor<T>& d, const LocalTensor<U>& a, const LocalTensor<U>& b, uint64_t* m, \
                                              uint8_t rep, const BinaryRepeatParams& p) {                          \
            NAME(d, a, b, m, rep, p);                                                                              \
        }                                                                                                          \
        template <class T, class U> void cont(const LocalTensor<T>& d, const LocalTensor<U>& a, const LocalTensor<U>& b, uint64_t m, \
                                              uint8_t rep, const BinaryRepeatParams& p) {                          \
            NAME(d, a, b, m, rep, p);                                                                              \
        }                                                                                                          \
        template <class T, class U> void ext(const LocalTensor<T>& d, const LocalTensor<U>& a, const LocalTensor<U>& b, \
                                             uint8_t rep, const BinaryRepeatParams& p) {                           \
            NAME<T, U, false>(d, a, b, uint64_t(MASK_PLACEHOLDER), rep, p);                                        \
        }                                                                                                          \
    };
ASCSIM_TEST_FUNCTOR(AddReluCastF, AddReluCast, ADD)
ASCSIM_TEST_FUNCTOR(SubReluCastF, SubReluCast, SUB)
ASCSIM_TEST_FUNCTOR(MulCastF, MulCast, MUL)

constexpr uint32_t kA = 0, kB = 16384, kD = 32768, kRegion = 16384;

// Count form: `n` elements, dst past n untouched.
template <class F, class T, class U> static bool count_case(Fixture& fx, uint32_t n, bool wide) {
    auto a = fx.at<U>(kA, kRegion / sizeof(U)), b = fx.at<U>(kB, kRegion / sizeof(U));
    auto d = fx.at<T>(kD, kRegion / sizeof(T));
    fill_src(a.addr_, n, wide);
    fill_src(b.addr_, n, wide);
    std::memset(d.addr_, 0x5A, kRegion);
    std::vector<uint8_t> want(kRegion, 0x5A);
    for (uint32_t i = 0; i < n; ++i) {
        T v = ref_one<T, U>(F::op, a.addr_[i], b.addr_[i]);
        std::memcpy(want.data() + i * sizeof(T), &v, sizeof(T));
    }
    F().count(d, a, b, n);
    if (std::memcmp(want.data(), d.addr_, kRegion) == 0) return true;
    for (uint32_t i = 0; i < kRegion / sizeof(T); ++i)
        if (std::memcmp(want.data() + i * sizeof(T), d.addr_ + i, sizeof(T))) {
            std::printf("  count form: first mismatch at %u\n", i);
            break;
        }
    return false;
}

// Level-0 form. mode 0: continuous mask `m0`; 1: bitwise {m0, m1}; 2: counter mode with m0 elements;
// 3: mask set outside (SetVectorMask, isSetMask = false) as bits {m0, m1}.
template <class F, class T, class U>
static bool level0_case(Fixture& fx, int mode, uint64_t m0, uint64_t m1, uint8_t rep, const BinaryRepeatParams& p, bool wide) {
    constexpr uint32_t epr = 256 / (sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U));
    constexpr uint32_t epbD = 32 / sizeof(T), epbS = 32 / sizeof(U);
    auto a = fx.at<U>(kA, kRegion / sizeof(U)), b = fx.at<U>(kB, kRegion / sizeof(U));
    auto d = fx.at<T>(kD, kRegion / sizeof(T));
    fill_src(a.addr_, kRegion / sizeof(U), wide);
    fill_src(b.addr_, kRegion / sizeof(U), wide);
    std::memset(d.addr_, 0x5A, kRegion);
    std::vector<uint8_t> want(kRegion, 0x5A);
    uint32_t reps = mode == 2 ? uint32_t((m0 + epr - 1) / epr) : rep;
    for (uint32_t r = 0; r < reps; ++r)
        for (uint32_t i = 0; i < epr; ++i) {
            bool on = mode == 0 ? i < m0 : mode == 2 ? uint64_t(r) * epr + i < m0 : ((i < 64 ? m0 >> i : m1 >> (i - 64)) & 1);
            if (!on) continue;
            size_t ao = (size_t(r) * p.src0RepStride + i / epbS * p.src0BlkStride) * 32 + i % epbS * sizeof(U);
            size_t bo = (size_t(r) * p.src1RepStride + i / epbS * p.src1BlkStride) * 32 + i % epbS * sizeof(U);
            size_t dofs = (size_t(r) * p.dstRepStride + i / epbD * p.dstBlkStride) * 32 + i % epbD * sizeof(T);
            U x, y;
            std::memcpy(&x, (uint8_t*)a.addr_ + ao, sizeof(U));
            std::memcpy(&y, (uint8_t*)b.addr_ + bo, sizeof(U));
            T v = ref_one<T, U>(F::op, x, y);
            std::memcpy(want.data() + dofs, &v, sizeof(T));
        }
    if (mode == 0) F().cont(d, a, b, m0, rep, p);
    else if (mode == 1) { uint64_t m[2] = {m0, m1}; F().bits(d, a, b, m, rep, p); }
    else if (mode == 2) { SetMaskCount(); F().cont(d, a, b, m0, 1, p); SetMaskNorm(); ResetMask(); }
    else { SetVectorMask<U>(m1, m0); F().ext(d, a, b, rep, p); ResetMask(); }
    if (std::memcmp(want.data(), d.addr_, kRegion) == 0) return true;
    for (uint32_t k = 0; k < kRegion; ++k)
        if (want[k] != ((uint8_t*)d.addr_)[k]) { std::printf("  level-0 mode %d: first byte mismatch at %u\n", mode, k); break; }
    return false;
}

// The random sweep of one API and dtype pair over every form.
template <class F, class T, class U> static void sweep(Fixture& fx, const char* what) {
    constexpr uint32_t epr = 256 / (sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U));
    // a contiguous layout: dst fills sizeof(T) * epr / 32 blocks per repeat
    const uint8_t dRep = uint8_t(sizeof(T) * epr / 32), sRep = uint8_t(sizeof(U) * epr / 32);
    BinaryRepeatParams contig(1, 1, 1, dRep, sRep, sRep);
    BinaryRepeatParams strided(2, 1, 3, uint8_t(dRep * 2 + 1), uint8_t(sRep + 2), uint8_t(sRep * 3));
    BinaryRepeatParams overlapRep(1, 1, 1, 0, sRep, 0);   // every repeat writes the same dst blocks; src1 reused
    for (bool wide : {false, true}) {
        CHECK_MSG((count_case<F, T, U>(fx, 1000, wide)), "%s count 1000", what);
        CHECK_MSG((count_case<F, T, U>(fx, 77, wide)), "%s count 77", what);
        CHECK_MSG((level0_case<F, T, U>(fx, 0, epr, 0, 4, contig, wide)), "%s full continuous mask", what);
        CHECK_MSG((level0_case<F, T, U>(fx, 0, 37, 0, 3, strided, wide)), "%s continuous mask 37, strided", what);
        CHECK_MSG((level0_case<F, T, U>(fx, 0, 1, 0, 1, contig, wide)), "%s continuous mask 1", what);
        CHECK_MSG((level0_case<F, T, U>(fx, 1, 0xF0F0A5A5DEADBEEFull, epr > 64 ? 0x8000000100000001ull : 0, 5, strided, wide)),
                  "%s bitwise mask, strided", what);
        CHECK_MSG((level0_case<F, T, U>(fx, 1, ~0ull, epr > 64 ? ~0ull : 0, 2, overlapRep, wide)), "%s dstRepStride 0", what);
        CHECK_MSG((level0_case<F, T, U>(fx, 2, epr * 2 + 19, 0, 1, contig, wide)), "%s counter mode", what);
        CHECK_MSG((level0_case<F, T, U>(fx, 3, 0x00FF00FF00FF00FFull, epr > 64 ? 0x1ull : 0, 3, contig, wide)),
                  "%s mask set outside (isSetMask = false)", what);
    }
}

// The docs' AddReluCast / SubReluCast / MulCast examples: 512 elements, half in, int8_t out, three forms.
template <class F> static bool doc_cast_example(Fixture& fx, const float* a0, const float* b0, const float* want0, int shown,
                                                float (*a_rest)(int), float (*b_rest)(int), int8_t want_rest_last, int form) {
    auto a = fx.at<half>(kA, 512), b = fx.at<half>(kB, 512);
    auto d = fx.at<int8_t>(kD, 512);
    for (int i = 0; i < 512; ++i) {
        a.addr_[i] = half(i < shown ? a0[i] : a_rest(i));
        b.addr_[i] = half(i < shown ? b0[i] : b_rest(i));
    }
    std::memset(d.addr_, 0x5A, 1024);
    uint64_t mask = 256 / sizeof(half);
    uint64_t bits[2] = {UINT64_MAX, UINT64_MAX};
    if (form == 0) F().cont(d, a, b, mask, 4, BinaryRepeatParams(1, 1, 1, 4, 8, 8));
    else if (form == 1) F().bits(d, a, b, bits, 4, BinaryRepeatParams(1, 1, 1, 4, 8, 8));
    else F().count(d, a, b, 512);
    bool ok = true;
    for (int i = 0; i < shown; ++i) ok &= d.addr_[i] == int8_t(want0[i]);
    for (int i = shown; i < 512; ++i) ok &= d.addr_[i] == ref_one<int8_t, half>(F::op, a.addr_[i], b.addr_[i]);
    ok &= d.addr_[511] == want_rest_last;
    ok &= uint8_t(d.addr_[512]) == 0x5A;   // nothing past the 512 results
    return ok;
}

template <class T> static bool mar_case(Fixture& fx, int mode, uint64_t m0, uint64_t m1, uint8_t rep, const BinaryRepeatParams& p) {
    constexpr uint32_t epr = 256 / sizeof(T), epb = 32 / sizeof(T);
    auto a = fx.at<T>(kA, kRegion / sizeof(T)), b = fx.at<T>(kB, kRegion / sizeof(T)), d = fx.at<T>(kD, kRegion / sizeof(T));
    const uint32_t n = kRegion / sizeof(T);
    for (uint32_t i = 0; i < n; ++i) {
        a.addr_[i] = T(frand(-100.f, 100.f));
        b.addr_[i] = T(frand(-100.f, 100.f));
        d.addr_[i] = T(frand(-100.f, 100.f));
    }
    std::vector<T> want(d.addr_, d.addr_ + n);
    if (mode == 4) {   // count form with m0 elements
        for (uint32_t i = 0; i < m0; ++i) want[i] = ref_mar(a.addr_[i], d.addr_[i], b.addr_[i]);
        MulAddRelu(d, a, b, int32_t(m0));
    } else {
        uint32_t reps = mode == 2 ? uint32_t((m0 + epr - 1) / epr) : rep;
        for (uint32_t r = 0; r < reps; ++r)
            for (uint32_t i = 0; i < epr; ++i) {
                bool on = mode == 0 ? i < m0 : mode == 2 ? uint64_t(r) * epr + i < m0 : ((i < 64 ? m0 >> i : m1 >> (i - 64)) & 1);
                if (!on) continue;
                size_t ao = (size_t(r) * p.src0RepStride + i / epb * p.src0BlkStride) * epb + i % epb;
                size_t bo = (size_t(r) * p.src1RepStride + i / epb * p.src1BlkStride) * epb + i % epb;
                size_t dofs = (size_t(r) * p.dstRepStride + i / epb * p.dstBlkStride) * epb + i % epb;
                want[dofs] = ref_mar(a.addr_[ao], want[dofs], b.addr_[bo]);
            }
        if (mode == 0) MulAddRelu(d, a, b, m0, rep, p);
        else if (mode == 1) { uint64_t m[2] = {m0, m1}; MulAddRelu(d, a, b, m, rep, p); }
        else { SetMaskCount(); MulAddRelu(d, a, b, m0, 1, p); SetMaskNorm(); ResetMask(); }
    }
    return std::memcmp(want.data(), d.addr_, kRegion) == 0;
}

static float ex_add_a(int i) { return float(i + 1); }
static float ex_add_b(int i) { return -float(i + 2); }
static float ex_sub_b(int i) { return float(i + 2); }
static float ex_mul_a(int i) { return float((i % 11) - 5); }
static float ex_mul_b(int i) { return i == 511 ? 5.0f : float((i % 7) - 3); }

int main() {
    Fixture fx;

    // --- the worked examples ---
    for (int form = 0; form < 3; ++form) {
        const float a0[3] = {1, 1, 3}, b0[3] = {0, 0.5f, -4}, w0[3] = {1, 2, 0};   // 1 + 0.5 = 1.5 rounds to 2
        CHECK_MSG((doc_cast_example<AddReluCastF>(fx, a0, b0, w0, 3, ex_add_a, ex_add_b, 0, form)), "AddReluCast example, form %d", form);
        const float s0[3] = {1, 2, 3}, s1[3] = {0, 0.5f, 4}, sw[3] = {1, 2, 0};
        CHECK_MSG((doc_cast_example<SubReluCastF>(fx, s0, s1, sw, 3, ex_add_a, ex_sub_b, 0, form)), "SubReluCast example, form %d", form);
        const float m0[3] = {1, -2, 3}, m1[3] = {1, 3, -4}, mw[3] = {1, -6, -12};   // the last element: -6 * 5 = -30
        CHECK_MSG((doc_cast_example<MulCastF>(fx, m0, m1, mw, 3, [](int i) { return i == 511 ? -6.0f : ex_mul_a(i); }, ex_mul_b, -30, form)),
                  "MulCast example, form %d", form);
    }
    for (int form = 0; form < 3; ++form) {   // MulAddRelu: the page's 256 half values, exact to the bit
        auto a = fx.at<half>(kA, 256), b = fx.at<half>(kB, 256), d = fx.at<half>(kD, 256);
        for (int i = 0; i < 256; ++i) { a.addr_[i] = half(kDocSrc0[i]); b.addr_[i] = half(kDocSrc1[i]); d.addr_[i] = half(kDocDstIn[i]); }
        uint64_t bits[2] = {UINT64_MAX, UINT64_MAX};
        if (form == 0) MulAddRelu(d, a, b, uint64_t(128), 2, BinaryRepeatParams(1, 1, 1, 8, 8, 8));
        else if (form == 1) MulAddRelu(d, a, b, bits, 2, BinaryRepeatParams(1, 1, 1, 8, 8, 8));
        else MulAddRelu(d, a, b, 256);
        int bad = 0;
        for (int i = 0; i < 256; ++i) bad += half(kDocDstOut[i]).bits_ != d.addr_[i].bits_;
        CHECK_MSG(bad == 0, "MulAddRelu example, form %d: %d of 256 differ", form, bad);
    }

    // --- random data: every Atlas A2 dtype pair, every form ---
    sweep<AddReluCastF, int8_t, half>(fx, "AddReluCast half->int8");
    sweep<AddReluCastF, int8_t, int16_t>(fx, "AddReluCast int16->int8");
    sweep<AddReluCastF, half, float>(fx, "AddReluCast float->half");
    sweep<SubReluCastF, int8_t, half>(fx, "SubReluCast half->int8");
    sweep<SubReluCastF, int8_t, int16_t>(fx, "SubReluCast int16->int8");
    sweep<SubReluCastF, half, float>(fx, "SubReluCast float->half");
    sweep<MulCastF, int8_t, half>(fx, "MulCast half->int8");
    {
        ascsim::GmTestLaunch L({{"x", 64}});   // collects the negative-product warnings of the uint8_t sweep
        sweep<MulCastF, uint8_t, half>(fx, "MulCast half->uint8");
        bool warned = false;
        for (auto& w : L.warnings()) warned |= has(w, "negative product");
        CHECK(warned);
    }
    for (int k = 0; k < 2; ++k) {
        BinaryRepeatParams contig(1, 1, 1, 8, 8, 8), strided(2, 1, 3, 17, 10, 24);
        CHECK(mar_case<half>(fx, 0, 128, 0, 4, contig));
        CHECK(mar_case<float>(fx, 0, 64, 0, 4, contig));
        CHECK(mar_case<half>(fx, 0, 45, 0, 3, strided));
        CHECK(mar_case<float>(fx, 0, 13, 0, 3, strided));
        CHECK(mar_case<half>(fx, 1, 0x0123456789ABCDEFull, 0xFEDCBA9876543210ull, 5, strided));
        CHECK(mar_case<float>(fx, 1, 0x0123456789ABCDEFull, 0, 5, strided));
        CHECK(mar_case<half>(fx, 2, 300, 0, 1, contig));
        CHECK(mar_case<float>(fx, 2, 150, 0, 1, contig));
        CHECK(mar_case<half>(fx, 4, 1001, 0, 0, contig));
        CHECK(mar_case<float>(fx, 4, 333, 0, 0, contig));
    }

    // --- rounding and saturation of the conversion ---
    {
        auto a = fx.at<half>(kA, 16), b = fx.at<half>(kB, 16);
        auto d = fx.at<int8_t>(kD, 32);
        const float av[8] = {0.25f, 1.25f, 2.25f, 100.f, 200.f, -3.f, 126.5f, 127.25f};
        const float bv[8] = {0.25f, 1.25f, 0.25f, 27.f, 100.f, 1.f, 0.f, 0.5f};
        const int8_t want[8] = {0, 2, 2, 127, 127, 0, 126, 127};   // 0.5 -> 0, 2.5 -> 2 (nearest even), 300 saturates
        for (int i = 0; i < 8; ++i) { a.addr_[i] = half(av[i]); b.addr_[i] = half(bv[i]); }
        AddReluCast(d, a, b, 8);
        bool ok = true;
        for (int i = 0; i < 8; ++i) ok &= d.addr_[i] == want[i];
        CHECK(ok);
        auto ia = fx.at<int16_t>(kA, 16), ib = fx.at<int16_t>(kB, 16);
        const int16_t iav[4] = {300, 100, -5, 127}, ibv[4] = {-100, -300, 10, -1};
        const int8_t iw[4] = {127, 127, 0, 127};   // SubReluCast: 400, 400, -15, 128
        for (int i = 0; i < 4; ++i) { ia.addr_[i] = iav[i]; ib.addr_[i] = ibv[i]; }
        SubReluCast(d, ia, ib, 4);
        CHECK(d.addr_[0] == iw[0] && d.addr_[1] == iw[1] && d.addr_[2] == iw[2] && d.addr_[3] == iw[3]);
        auto fa = fx.at<float>(kA, 16), fb = fx.at<float>(kB, 16);
        auto hd = fx.at<half>(kD, 16);
        fa.addr_[0] = 0.5f; fb.addr_[0] = 0.000244140625f;           // 0.5 + 2^-12: a tie in half, stays 0.5 (even)
        fa.addr_[1] = 0.5f; fb.addr_[1] = 0.00030517578125f;         // 0.5 + 2^-12 + 2^-14: above the tie, rounds up
        fa.addr_[2] = -1.f; fb.addr_[2] = 0.5f;                      // negative: Relu gives 0
        AddReluCast(hd, fa, fb, 3);
        CHECK(float(hd.addr_[0]) == 0.5f && float(hd.addr_[1]) == 0.5f + 0.00048828125f && float(hd.addr_[2]) == 0.0f);
        // the sum is rounded to half before the conversion (the model's reading of Cast(Relu(src0 + src1))):
        // 64.5 + 2^-13 is 64.5 in half, which converts to 64 (nearest even), not 65
        a.addr_[0] = half(64.5f); b.addr_[0] = half(0.0001220703125f);
        AddReluCast(d, a, b, 1);
        CHECK(d.addr_[0] == 64);
        auto ua = fx.at<uint8_t>(kD, 32);
        a.addr_[0] = half(-3.f); b.addr_[0] = half(2.f);               // MulCast to uint8_t: negative writes 0
        a.addr_[1] = half(16.f); b.addr_[1] = half(16.f);              // 256 saturates to 255
        a.addr_[2] = half(2.5f); b.addr_[2] = half(1.f);               // 2.5 -> 2
        MulCast(ua, a, b, 3);
        CHECK(ua.addr_[0] == 0 && ua.addr_[1] == 255 && ua.addr_[2] == 2);
        {
            ascsim::GmTestLaunch L({{"x", 64}});                        // collects the warnings
            MulCast(ua, a, b, 3);
            bool warned = false;
            for (auto& w : L.warnings()) warned |= has(w, "negative product");
            CHECK(warned);
        }
        {
            ascsim::GmTestLaunch L({{"x", 64}});
            a.addr_[0] = half(3.f);
            MulCast(ua, a, b, 3);                                   // positive products: no warning
            CHECK(ua.addr_[0] == 6);
            bool warned = false;
            for (auto& w : L.warnings()) warned |= has(w, "negative product");
            CHECK(!warned);
        }
    }

    // --- strict rules ---
    {
        auto a = fx.at<half>(kA, 512), b = fx.at<half>(kB, 512);
        auto d = fx.at<int8_t>(kD, 512), dOdd = fx.at<int8_t>(kD + 16, 512);
        auto aOdd = fx.at<half>(kA + 2, 512);
        CHECK(has(throws([&] { AddReluCast(dOdd, a, b, 64); }), "aligned"));
        CHECK(has(throws([&] { SubReluCast(d, aOdd, b, 64); }), "aligned"));
        CHECK(has(throws([&] { MulCast(dOdd, a, b, uint64_t(128), 1, BinaryRepeatParams(1, 1, 1, 4, 8, 8)); }), "aligned"));
        auto hOdd = fx.at<half>(kD + 2, 512);
        CHECK(has(throws([&] { MulAddRelu(hOdd, a, b, 16); }), "aligned"));
        CHECK(throws([&] { AddReluCast(d, a, b, 64); }).empty());
        auto far = fx.at<int8_t>(ascsim::kUbBytes - 64, 512);
        CHECK(has(throws([&] { AddReluCast(far, a, b, 128); }), "out of bounds"));
        CHECK(has(throws([&] { SubReluCast(far, a, b, uint64_t(128), 2, BinaryRepeatParams(1, 1, 1, 4, 8, 8)); }), "out of bounds"));
        auto hfar = fx.at<half>(ascsim::kUbBytes - 64, 512);
        CHECK(has(throws([&] { MulAddRelu(hfar, a, b, uint64_t(128), 1, BinaryRepeatParams(1, 1, 1, 8, 8, 8)); }), "out of bounds"));
        // count 0, repeatTime 0 and an all-zero mask write nothing
        std::memset(d.addr_, 0x5A, 512);
        for (int i = 0; i < 512; ++i) { a.addr_[i] = half(1.f); b.addr_[i] = half(2.f); }
        AddReluCast(d, a, b, 0);
        SubReluCast(d, b, a, uint64_t(128), 0, BinaryRepeatParams(1, 1, 1, 4, 8, 8));
        uint64_t zero[2] = {0, 0};
        MulCast(d, a, b, zero, 4, BinaryRepeatParams(1, 1, 1, 4, 8, 8));
        bool untouched = true;
        for (int i = 0; i < 512; ++i) untouched &= uint8_t(d.addr_[i]) == 0x5A;
        CHECK(untouched);
        auto hd = fx.at<half>(kD, 256);
        for (int i = 0; i < 256; ++i) hd.addr_[i] = half(7.f);
        MulAddRelu(hd, a, b, 0);
        MulAddRelu(hd, a, b, uint64_t(128), 0, BinaryRepeatParams(1, 1, 1, 8, 8, 8));
        CHECK(float(hd.addr_[0]) == 7.f && float(hd.addr_[255]) == 7.f);
        MulAddRelu(hd, a, b, 1);   // 1 * 7 + 2
        CHECK(float(hd.addr_[0]) == 9.f && float(hd.addr_[1]) == 7.f);
    }

    std::printf("PASS %d FAIL %d\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
