// Shared by the simulator's C++ API test drivers: one simulated core bound to the test thread, with a zeroed UB of its
// own and tensors placed at byte offsets in it.
#ifndef ASCSIM_TESTS_UB_FIXTURE_H_
#define ASCSIM_TESTS_UB_FIXTURE_H_
#include <cstdint>
#include <cstring>
#include "kernel_operator.h"

struct Fixture {
    alignas(4096) static inline uint8_t ub[ascsim::kUbBytes];
    ascsim::CoreCtx ctx;
    Fixture() { ctx.ub = ub; std::memset(ub, 0, sizeof ub); ascsim::bind_test_core(&ctx); }
    template <class T> AscendC::LocalTensor<T> at(uint32_t byte_off, uint32_t n) {
        return AscendC::LocalTensor<T>(reinterpret_cast<T*>(ub + byte_off), n, AscendC::TPosition::VECCALC);
    }
};
#endif  // ASCSIM_TESTS_UB_FIXTURE_H_
