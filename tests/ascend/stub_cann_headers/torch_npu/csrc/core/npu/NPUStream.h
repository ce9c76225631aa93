// STUB (test double): torch_npu's current-stream accessor as the binding helper uses it.
#pragma once
#include "acl/acl.h"
namespace c10_npu {
struct NPUStream { aclrtStream stream(bool need_empty = true) const; };
NPUStream getCurrentNPUStream(signed char device_index = -1);
}
