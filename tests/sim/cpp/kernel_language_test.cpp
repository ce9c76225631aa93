// What kernel code may use without qualification or extra includes, per the documentation: the kernel `assert`
// (`assert(expr)`, the deprecated `assert(expr, fmt, args...)`, `ascendc_assert`) checks and ends the kernel when
// false; AscendCUtils::GetC0Count(typeSize) is the element count of one 32-byte block; the device compiler's scalar
// intrinsics `int64_t min/max(int64_t, int64_t)` are visible at global scope (and `std::min` still wins where a
// kernel brings it in for its own type); a TQue may take a `const TQueConfig*` as its mask; IsSameType<T, U>; the
// builtin per-core variables `block_idx` / `block_num` read the running core, and a kernel's own variable of that
// name shadows them; DivCeil(a, b) is a / b rounded up (mixed integer widths, usable in constant expressions).
#include <cstdint>
#include "kernel_operator.h"

using namespace AscendC;

#include "check.h"

namespace kernel_ns {   // kernels are built inside a namespace: unqualified calls must still reach the intrinsics
template <class Shape> uint32_t tile_k(const Shape& s, uint32_t k) { return min(s.k, k); }
struct S { uint32_t k; };
int64_t widest(int32_t a, uint64_t b) { return max(a, b); }   // mixed types: only the int64_t intrinsic fits
uint64_t my_offset(uint64_t per_core) { return block_idx * per_core; }
bool not_last() { return block_idx != block_num - 1; }
int64_t shadowed() { int32_t block_idx = 42; return block_idx; }   // a kernel's own local of that name
template <class T> uint64_t reps(uint64_t n, uint32_t per) { return DivCeil(n, per); }   // non-dependent, in a template
}
namespace with_std {
using namespace std;
float smaller(float a, float b) { return min(a, b); }   // std::min<float> is the exact match
}

constexpr TPosition kPos[8] = {TPosition::MAX, TPosition::MAX, TPosition::MAX, TPosition::MAX,
                               TPosition::MAX, TPosition::MAX, TPosition::MAX, TPosition::MAX};
constexpr TQueConfig kConf{false, false, false, 0, 1, 0, {kPos[0], kPos[1]}};

int main() {
    CHECK(kernel_ns::tile_k(kernel_ns::S{300}, 256u) == 256 && kernel_ns::tile_k(kernel_ns::S{7}, 256u) == 7);
    CHECK(kernel_ns::widest(-5, 3u) == 3);
    CHECK(with_std::smaller(1.5f, 2.25f) == 1.5f);   // not truncated through int64_t

    CHECK(AscendCUtils::GetC0Count(sizeof(half)) == 16 && AscendCUtils::GetC0Count(sizeof(float)) == 8);
    CHECK(AscendCUtils::GetC0Count(1) == 32 && AscendCUtils::GetC0Size() == 32);
    static_assert(AscendCUtils::GetC0Count(2) == AscendCUtils::GetC0Count<half>(), "both forms agree");

    int flag = 10;
    CHECK(throws([&] { assert(flag == 10); ascendc_assert(flag > 0); assert(flag == 10, "flag %d\n", flag); }).empty());
    std::string e = throws([&] { assert(flag != 10); });
    CHECK_MSG(has(e, "kernel assertion failed") && has(e, "flag != 10"), "%s", e.c_str());
    e = throws([&] { assert(flag < 0, "flag is %d\n", flag); });
    CHECK_MSG(has(e, "kernel assertion failed") && has(e, "flag < 0"), "%s", e.c_str());
    e = throws([&] { ascendc_assert(flag == 3, "flag is %d\n", flag); });
    CHECK_MSG(has(e, "kernel assertion failed") && has(e, "flag == 3"), "%s", e.c_str());

    static_assert(ONE_BLK_FLOAT_NUM == 8 && ONE_BLK_SIZE == 32 && BRCB_BROADCAST_NUMBER == 8, "block constants");
    static_assert(DivCeil(10, 5) == 2 && DivCeil(11, 5) == 3 && DivCeil(1, 32) == 1 && DivCeil(0, 8) == 0, "DivCeil");
    CHECK(kernel_ns::reps<int>(uint64_t(97792) + 1, 97792u) == 2 && kernel_ns::reps<int>(5000000000ull, 8u) == 625000000ull);
    static_assert(IsSameType<half, half>::value && !IsSameType<half, float>::value, "AscendC::IsSameType");
    CHECK(kConf.bufferNumber == 1 && kConf.consumer[1] == TPosition::MAX && !kConf.enableLoopQueue);
    TQue<TPosition::VECIN, 1, &kConf> q;   // the documented pointer-to-config mask compiles as a queue type
    (void)q;
    ::ascsim::core().block_idx = 5;   // what a launch sets for the core it runs
    ::ascsim::core().block_num = 8;
    CHECK(kernel_ns::my_offset(96) == 480 && kernel_ns::not_last() && kernel_ns::shadowed() == 42);
    ::ascsim::core().block_idx = 7;
    CHECK(kernel_ns::my_offset(96) == 672 && !kernel_ns::not_last() && GetBlockIdx() == block_idx);
    std::printf("PASS %d FAIL %d\n", g_pass, g_fail);
    return g_fail != 0;
}
