// ascsim: vendor include name for the ACL runtime API. Kernels include it for its basic types; the runtime calls
// themselves (aclInit, aclrtMalloc, streams) are the harness's business here and are not declared.
#ifndef ASCSIM_ACL_ACL_H_
#define ASCSIM_ACL_ACL_H_
#include <cstddef>
#include <cstdint>
typedef int aclError;
typedef void* aclrtStream;
typedef void* aclrtContext;
static const aclError ACL_SUCCESS = 0;
#endif  // ASCSIM_ACL_ACL_H_
