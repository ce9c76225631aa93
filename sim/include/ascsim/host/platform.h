// ascsim host side: platform_ascendc for an Atlas A2 (910B) part: 24 AIC + 48 AIV, UB 196352 B usable.
// Core counts can be lowered with ASCSIM_AIV_CORES / ASCSIM_AIC_CORES to mimic smaller SKUs.
#ifndef ASCSIM_ASCSIM_HOST_PLATFORM_H_
#define ASCSIM_ASCSIM_HOST_PLATFORM_H_
#include <cstdint>
#include <cstdlib>
#include "gert.h"

namespace platform_ascendc {
enum class CoreMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, FB = 7, BT = 8, RESERVED };
enum class SocVersion { ASCEND910 = 0, ASCEND910B, ASCEND910_93, ASCEND310P, ASCEND310B, ASCEND610, ASCEND910_95, RESERVED_VERSION = 99999 };
enum class NpuArch { DAV_2201 = 2201, DAV_RESV };

inline uint32_t ascsim_env_u32(const char* name, uint32_t dflt) {
    const char* v = std::getenv(name);
    return v && *v ? uint32_t(std::strtoul(v, nullptr, 10)) : dflt;
}

class PlatformAscendC {
public:
    PlatformAscendC() = default;
    explicit PlatformAscendC(fe::PlatFormInfos*) {}
    uint32_t GetCoreNum() const { return GetCoreNumAiv(); }
    uint32_t GetCoreNumAic() const { return ascsim_env_u32("ASCSIM_AIC_CORES", 24); }
    uint32_t GetCoreNumAiv() const { return ascsim_env_u32("ASCSIM_AIV_CORES", 48); }
    uint32_t GetCoreNumVector() const { return GetCoreNumAiv(); }
    void GetCoreMemSize(const CoreMemType& t, uint64_t& size) const {
        switch (t) {
            case CoreMemType::UB: size = 192 * 1024 - 256; break;
            case CoreMemType::L1: size = 512 * 1024 - 256; break;
            case CoreMemType::L0_A: case CoreMemType::L0_B: size = 64 * 1024; break;
            case CoreMemType::L0_C: size = 128 * 1024; break;
            case CoreMemType::L2: size = 192ull * 1024 * 1024; break;
            case CoreMemType::HBM: size = 64ull * 1024 * 1024 * 1024; break;
            case CoreMemType::FB: size = 2 * 1024; break;
            case CoreMemType::BT: size = 1024; break;
            default: size = 0;
        }
    }
    void GetCoreMemBw(const CoreMemType&, uint64_t& bw) const { bw = 0; }
    SocVersion GetSocVersion() const { return SocVersion::ASCEND910B; }
    NpuArch GetCurNpuArch() const { return NpuArch::DAV_2201; }
    uint32_t GetLibApiWorkSpaceSize() const { return 16u * 1024 * 1024; }
    uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
        if (aicCoreNum == 0 || aivCoreNum == 0 || aicCoreNum > aivCoreNum) return sliceNum;
        uint32_t ratio = aivCoreNum / aicCoreNum;
        return (sliceNum + ratio - 1) / ratio;
    }
    uint32_t ReserveLocalMemory(uint32_t) const { return 0; }
};

class PlatformAscendCManager {
public:
    static PlatformAscendC* GetInstance() {
        static PlatformAscendC p;
        return &p;
    }
    static PlatformAscendC* GetInstance(const char*) { return GetInstance(); }
};
}  // namespace platform_ascendc

namespace fe {
inline uint32_t PlatFormInfos::GetCoreNum() const { return platform_ascendc::PlatformAscendC().GetCoreNum(); }
inline void PlatFormInfos::GetLocalMemSize(const LocalMemType& type, uint64_t& size) const {
    using platform_ascendc::CoreMemType;
    static const CoreMemType as_core[] = {CoreMemType::L0_A, CoreMemType::L0_B, CoreMemType::L0_C, CoreMemType::L1,
                                          CoreMemType::L2, CoreMemType::UB, CoreMemType::HBM, CoreMemType::RESERVED};
    platform_ascendc::PlatformAscendC().GetCoreMemSize(as_core[int(type) <= int(LocalMemType::RESERVED) ? int(type) : 7], size);
}
}  // namespace fe
#endif  // ASCSIM_ASCSIM_HOST_PLATFORM_H_
