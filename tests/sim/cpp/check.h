// Shared by the simulator's C++ API test drivers: pass/fail counters, CHECK/CHECK_MSG, and helpers to catch the
// simulator's strict-check exceptions. A driver prints "PASS <n> FAIL <m>" at the end; pytest looks for "FAIL 0".
#ifndef ASCSIM_TESTS_CHECK_H_
#define ASCSIM_TESTS_CHECK_H_
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <string>

static int g_fail = 0, g_pass = 0;
#define CHECK(cond)                                                                      \
    do {                                                                                 \
        if (cond) ++g_pass;                                                              \
        else { ++g_fail; std::printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); }   \
    } while (0)
#define CHECK_MSG(cond, ...)                                                             \
    do {                                                                                 \
        if (cond) ++g_pass;                                                              \
        else { ++g_fail; std::printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); std::printf(__VA_ARGS__); std::printf("\n"); } \
    } while (0)

// The message of the exception f throws ("" when it returns normally).
static inline std::string throws(const std::function<void()>& f) {
    try { f(); } catch (const std::exception& e) { return e.what(); }
    return "";
}
static inline bool has(const std::string& s, const char* sub) { return s.find(sub) != std::string::npos; }
#endif  // ASCSIM_TESTS_CHECK_H_
