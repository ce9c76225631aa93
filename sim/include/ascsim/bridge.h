// ascsim: the aclnn-style entry used by EXEC_NPU_CMD. Torch-free so the runtime never depends on torch.
#ifndef ASCSIM_ASCSIM_BRIDGE_H_
#define ASCSIM_ASCSIM_BRIDGE_H_
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ascsim {

struct HostArg {
    enum Kind { NONE, TENSOR, TENSOR_LIST, SCALAR, INT, FLOAT, BOOL, STR, INT_LIST, FLOAT_LIST, BOOL_LIST, SCALAR_LIST } kind = NONE;
    void* data = nullptr;            // TENSOR: contiguous host memory
    size_t nbytes = 0;
    int dtype = -1;                  // ge::DataType
    std::vector<int64_t> shape;
    std::vector<HostArg> list;       // TENSOR_LIST, SCALAR_LIST (SCALAR elements)
    double f = 0;                    // SCALAR (float-valued) / FLOAT
    int64_t i = 0;                   // SCALAR (int-valued) / INT
    bool scalar_is_float = false;
    bool b = false;
    std::string s;
    std::vector<int64_t> li;         // INT_LIST, BOOL_LIST (0/1)
    std::vector<double> lf;
};

// Runs host tiling for op `aclnn<Op>` then the kernel over blockDim simulated cores. Throws std::runtime_error
// with a hardware-shaped message when the strict layer rejects the launch. When the op has outputs whose shape depends
// on the computation (OutputShapeDependOnCompute), their kernel argument (kShapeOutWords uint64 per such output: the
// dimension count, then the dimensions) comes back in *shapes.
constexpr size_t kShapeOutWords = 9;
void exec_npu_cmd(const char* api, std::vector<HostArg>& args, std::vector<uint64_t>* shapes = nullptr);
// How many of the build's kernels exec_npu_cmd has launched on this thread.
uint64_t kernel_launches();

using Launcher = void (*)(uint8_t** args, size_t nargs);
void register_kernel(const char* op_type, const int* columns, int ncolumns, Launcher fn, const uint64_t* keys, int nkeys);
// The AIC build of a cube kernel (kernel_type: KernelMetaType value, e.g. KERNEL_TYPE_AIC_ONLY / _MIX_AIC_1_2); a
// tiling-template kernel registers one per instantiation, under its tiling key.
void register_cube_kernel(const char* op_type, const int* columns, int ncolumns, Launcher aic, int kernel_type,
                          const uint64_t* keys = nullptr, int nkeys = 0);

}  // namespace ascsim
#endif  // ASCSIM_ASCSIM_BRIDGE_H_
