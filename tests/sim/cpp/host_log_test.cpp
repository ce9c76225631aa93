// The operator log and error-report macros as op-host code includes and calls them (aclnn/opdev/op_log.h, opdev/op_log.h,
// experiment/metadef/common/util/error_manager/error_manager.h): OP_LOGx(opName, fmt, ...) as op-host code writes it and
// OP_LOGx(errorCode, fmt, ...) as the aclnn layer does; a bare message; errors and warnings reach stderr with their
// source, debug and info lines only with ASCSIM_HOST_LOG=debug; a log call is a statement with no value of its own.
#include "aclnn/opdev/op_log.h"
#include "experiment/metadef/common/util/error_manager/error_manager.h"
#include "opdev/op_log.h"
#include <cstdlib>
#include <string>
#include <unistd.h>
#include "check.h"

static std::string captured(void (*emit)()) {
    std::fflush(stderr);
    FILE* tmp = std::tmpfile();
    int saved = dup(fileno(stderr));
    dup2(fileno(tmp), fileno(stderr));
    emit();
    std::fflush(stderr);
    dup2(saved, fileno(stderr));
    close(saved);
    std::string out;
    std::rewind(tmp);
    for (int c; (c = std::fgetc(tmp)) != EOF;) out.push_back(char(c));
    std::fclose(tmp);
    return out;
}

static int tiling_that_logs(int dim) {
    if (dim < 0) {
        OP_LOGE("MyOp", "dim %d is negative", dim);
        return 1;
    }
    OP_LOGD("MyOp", "dim %d", dim);
    return 0;
}

int main() {
    const std::string quiet = captured([] {
        OP_LOGE("MyOp", "tile %d of %s", 7, "x");
        OP_LOGE(161002, "param %s is null", "self");
        OP_LOGW("MyOp", "odd length %u", 3u);
        OP_LOGE_WITHOUT_REPORT("MyOp", "plain message");
        REPORT_INNER_ERROR("E89999", "%s", "inner failure");
        REPORT_CALL_ERROR("E19999", "call failed");
        OP_LOGD("MyOp", "debug line %d", 1);
        OP_LOGI("MyOp", "info line");
        OP_LOGE("bare message only");
    });
    CHECK(quiet.find("[ERROR] MyOp: tile 7 of x\n") != std::string::npos);
    CHECK(quiet.find("[ERROR] code 161002: param self is null\n") != std::string::npos);
    CHECK(quiet.find("[WARNING] MyOp: odd length 3\n") != std::string::npos);
    CHECK(quiet.find("[ERROR] MyOp: plain message\n") != std::string::npos);
    CHECK(quiet.find("[ERROR] E89999: inner failure\n") != std::string::npos);
    CHECK(quiet.find("[ERROR] E19999: call failed\n") != std::string::npos);
    CHECK(quiet.find("[ERROR] bare message only\n") != std::string::npos);
    CHECK(quiet.find("debug line") == std::string::npos && quiet.find("info line") == std::string::npos);

    setenv("ASCSIM_HOST_LOG", "debug", 1);
    const std::string verbose = captured([] { OP_LOGD("MyOp", "debug line %d", 2); OP_LOGI("MyOp", "info line"); });
    CHECK(verbose == "[DEBUG] MyOp: debug line 2\n[INFO] MyOp: info line\n");
    unsetenv("ASCSIM_HOST_LOG");

    const std::string from_tiling = captured([] { CHECK(tiling_that_logs(-4) == 1); });
    CHECK(from_tiling == "[ERROR] MyOp: dim -4 is negative\n");
    CHECK(tiling_that_logs(5) == 0);
    std::printf("PASS %d FAIL %d\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
