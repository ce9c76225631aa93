// STUB (test double): the aclnn object constructors the binding helper uses.
#pragma once
#include <cstdint>
#include "acl/acl.h"
struct aclTensor; struct aclScalar; struct aclIntArray; struct aclTensorList; struct aclOpExecutor;
extern "C" {
aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType, const int64_t* stride,
                           int64_t offset, aclFormat format, const int64_t* storageDims, uint64_t storageDimsNum,
                           void* tensorData);
aclScalar* aclCreateScalar(void* value, aclDataType dataType);
aclIntArray* aclCreateIntArray(const int64_t* value, uint64_t size);
aclTensorList* aclCreateTensorList(const aclTensor* const* value, uint64_t size);
}
