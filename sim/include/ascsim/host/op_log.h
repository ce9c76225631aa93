// ascsim host side: the toolkit's operator log and error-report macros, for op_host code (tiling, InferShape).
// Two calling conventions exist in real code and both are accepted: OP_LOGx(opName, fmt, ...) in op-host code and
// OP_LOGx(errorCode, fmt, ...) in the aclnn layer. Only a message is produced: on the device these go to the
// plog (errors also to the error manager); here errors and warnings go to stderr, where a case's log keeps them, and
// debug/info lines only with ASCSIM_HOST_LOG=debug. None of them changes what the host code returns.
#ifndef ASCSIM_ASCSIM_HOST_OP_LOG_H_
#define ASCSIM_ASCSIM_HOST_OP_LOG_H_
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>

namespace ascsim {
namespace host_log {
inline bool verbose() {
    const char* v = std::getenv("ASCSIM_HOST_LOG");
    return v && std::strcmp(v, "debug") == 0;
}
inline std::string source(const char* name) { return name ? name : "(null)"; }
inline std::string source(const std::string& name) { return name; }
template <class C, std::enable_if_t<std::is_integral_v<C> || std::is_enum_v<C>, int> = 0>
inline std::string source(C code) { return "code " + std::to_string(static_cast<long long>(code)); }

template <class Who>
inline void write(const char* level, bool always, const Who& who) {
    if (always || verbose()) std::fprintf(stderr, "[%s] %s\n", level, source(who).c_str());
}
template <class Who, class... Args>
inline void write(const char* level, bool always, const Who& who, const char* fmt, Args... args) {
    if (!(always || verbose())) return;
    std::fprintf(stderr, "[%s] %s: ", level, source(who).c_str());
    if constexpr (sizeof...(Args) == 0) std::fputs(fmt ? fmt : "", stderr);
    else std::fprintf(stderr, fmt, args...);
    std::fputc('\n', stderr);
}
}  // namespace host_log
}  // namespace ascsim

#define OP_LOGD(...) ::ascsim::host_log::write("DEBUG", false, __VA_ARGS__)
#define OP_LOGI(...) ::ascsim::host_log::write("INFO", false, __VA_ARGS__)
#define OP_LOGW(...) ::ascsim::host_log::write("WARNING", true, __VA_ARGS__)
#define OP_LOGE(...) ::ascsim::host_log::write("ERROR", true, __VA_ARGS__)
#define OP_LOGE_WITHOUT_REPORT(...) ::ascsim::host_log::write("ERROR", true, __VA_ARGS__)
// error manager: REPORT_*_ERROR(errorCode, fmt, ...) records an error for the user-facing report
#define REPORT_INNER_ERROR(...) ::ascsim::host_log::write("ERROR", true, __VA_ARGS__)
#define REPORT_CALL_ERROR(...) ::ascsim::host_log::write("ERROR", true, __VA_ARGS__)
#endif  // ASCSIM_ASCSIM_HOST_OP_LOG_H_
