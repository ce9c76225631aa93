// ascsim: the high-level matmul API (matmul::Matmul, MatmulType, REGIST_MATMUL_OBJ), modelled functionally.
// On the device the AIV-side object messages a matmul server on the AIC (through the system workspace); here the
// AIV computes the product itself (float accumulation, one rounding to the C type) and the AIC of such a kernel
// idles (the build registers an idle AIC, see jobs/kernelgen/bench/backends/sim_cube.py). Layouts: A is
// row-major [M, Ka] (transposed: [Ka, M]), B is [Kb, N] (transposed: [N, Kb]), C and bias row-major with row
// stride N (org shapes from the tiling or SetOrgShape). The tiling argument is the kernel-side struct the build
// generates from optiling::TCubeTiling (ascsim/host/matmul_tiling.h).
#ifndef ASCSIM_KERNEL_MATMUL_API_H_
#define ASCSIM_KERNEL_MATMUL_API_H_
#include <string>
#include <vector>
#include "datacopy.h"

namespace matmul {
enum class CubeFormat : int32_t { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR };
enum class LayoutMode : int32_t { NONE = 0, BSNGD, SBNGD, BNGS1S2, NORMAL };
template <AscendC::TPosition POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false,
          LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false>
struct MatmulType {
    constexpr static AscendC::TPosition pos = POSITION;
    constexpr static CubeFormat format = FORMAT;
    using T = TYPE;
    constexpr static bool isTrans = ISTRANS;
    constexpr static LayoutMode layout = LAYOUT;
    constexpr static bool ibShare = IBSHARE;
};
struct MatmulConfig {
    bool doNorm = true;
    bool doBasicBlock = false;
    bool doMultiDataLoad = false;
    uint32_t basicM = 0, basicN = 0, basicK = 0;
    bool intrinsicsCheck = false;
    bool isNBatch = false;
    bool enVecND2NZ = false;
    bool doSpecialBasicBlock = false;
    uint32_t doMTE2Preload = 0;
};
constexpr MatmulConfig CFG_NORM = {};
constexpr MatmulConfig CFG_MDL = {false, false, true};
constexpr MatmulConfig CFG_IBSHARE_NORM = {};
constexpr MatmulConfig GetNormalConfig() { return CFG_NORM; }
constexpr MatmulConfig GetMDLConfig() { return CFG_MDL; }

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const MatmulConfig& MM_CFG = CFG_NORM,
          class MM_CB = void, class MM_POLICY = void>
class Matmul {
    using AT = typename A_TYPE::T;
    using BT = typename B_TYPE::T;
    using CT = typename C_TYPE::T;
    using BiasT = typename BIAS_TYPE::T;

public:
    template <class Tiling> void Init(const Tiling* tiling, AscendC::TPipe* tpipe = nullptr) {
        (void)tpipe;
        if (!tiling) return;
        M_ = tiling->M; N_ = tiling->N; Ka_ = tiling->Ka; Kb_ = tiling->Kb;
        sm_ = tiling->singleCoreM; sn_ = tiling->singleCoreN; sk_ = tiling->singleCoreK;
        bm_ = tiling->baseM; bn_ = tiling->baseN;
        bias_ = tiling->isBias != 0;
        inited_ = true;
    }
    void SetOrgShape(int orgM, int orgN, int orgK) { SetOrgShape(orgM, orgN, orgK, orgK); }
    void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc = 0) { (void)orgKc; M_ = orgM; N_ = orgN; Ka_ = orgKa; Kb_ = orgKb; }
    void SetSingleShape(int m, int n, int k) { sm_ = m; sn_ = n; sk_ = k; }
    void SetTail(int tailM = -1, int tailN = -1, int tailK = -1) {
        if (tailM > 0) sm_ = tailM;
        if (tailN > 0) sn_ = tailN;
        if (tailK > 0) sk_ = tailK;
    }
    void SetTensorA(const AscendC::GlobalTensor<AT>& gm, bool isTransposeA = false) { a_ = gm.addr_; aUb_ = false; transA_ = isTransposeA || A_TYPE::isTrans; }
    void SetTensorA(const AscendC::LocalTensor<AT>& t, bool isTransposeA = false) { a_ = t.addr_; aUb_ = true; transA_ = isTransposeA || A_TYPE::isTrans; }
    void SetTensorB(const AscendC::GlobalTensor<BT>& gm, bool isTransposeB = false) { b_ = gm.addr_; bUb_ = false; transB_ = isTransposeB || B_TYPE::isTrans; }
    void SetTensorB(const AscendC::LocalTensor<BT>& t, bool isTransposeB = false) { b_ = t.addr_; bUb_ = true; transB_ = isTransposeB || B_TYPE::isTrans; }
    void SetBias(const AscendC::GlobalTensor<BiasT>& gm) { biasPtr_ = gm.addr_; bias_ = true; }
    void SetBias(const AscendC::LocalTensor<BiasT>& t) { biasPtr_ = t.addr_; bias_ = true; }
    void DisableBias() { bias_ = false; }
    void ClearBias() { bias_ = false; }
    void SetWorkspace(GM_ADDR, int = 0) {}
    template <class T> void SetWorkspace(const AscendC::GlobalTensor<T>&) {}
    void SetLocalWorkspace(const AscendC::LocalTensor<uint8_t>&) {}
    void SetHF32(bool = false, int32_t = 0) {}

    template <bool sync = true>
    void IterateAll(const AscendC::GlobalTensor<CT>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                    bool waitIterateAll = false, bool fakeMsg = false) {
        (void)enSequentialWrite; (void)waitIterateAll; (void)fakeMsg;
        Compute("Matmul::IterateAll", gm.addr_, false, 0, 0, sm_, sn_, N_, enAtomic);
    }
    template <bool sync = true> void IterateAll(const AscendC::LocalTensor<CT>& ub, uint8_t enAtomic = 0) {
        Compute("Matmul::IterateAll", ub.addr_, true, 0, 0, sm_, sn_, sn_, enAtomic);
    }
    // Iterate walks baseM x baseN blocks of the single-core block, M first; GetTensorC writes the current one.
    template <bool sync = true> bool Iterate(bool enPartialSum = false) {
        (void)enPartialSum;
        int mb = (sm_ + bm_ - 1) / bm_, nb = (sn_ + bn_ - 1) / bn_;
        if (++iter_ >= mb * nb) { iter_ = -1; return false; }
        return true;
    }
    template <bool sync = true> void GetTensorC(const AscendC::GlobalTensor<CT>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false) {
        int i0, j0, m, n;
        Block(i0, j0, m, n);
        if (enSequentialWrite) Compute("Matmul::GetTensorC", gm.addr_, false, i0, j0, m, n, n, enAtomic, true);
        else Compute("Matmul::GetTensorC", gm.addr_ + int64_t(i0) * N_ + j0, false, i0, j0, m, n, N_, enAtomic, true);
    }
    template <bool sync = true> void GetTensorC(const AscendC::LocalTensor<CT>& ub, uint8_t enAtomic = 0, bool enSequentialWrite = false) {
        (void)enSequentialWrite;
        int i0, j0, m, n;
        Block(i0, j0, m, n);
        Compute("Matmul::GetTensorC", ub.addr_, true, i0, j0, m, n, bn_, enAtomic, true);
    }
    void WaitIterateAll() {}
    void WaitGetTensorC() {}
    void End() {}

private:
    void Block(int& i0, int& j0, int& m, int& n) const {
        int mb = (sm_ + bm_ - 1) / bm_;
        int it = iter_ < 0 ? 0 : iter_;
        i0 = (it % mb) * bm_;
        j0 = (it / mb) * bn_;
        m = std::min(bm_, sm_ - i0);
        n = std::min(bn_, sn_ - j0);
    }
    void Compute(const char* api, CT* c, bool cUb, int i0, int j0, int m, int n, int ldc, uint8_t atomic, bool block = false) {
        if (!inited_) ::ascsim::fail(api, "matmul object used before Init", "REGIST_MATMUL_OBJ / Init with a TCubeTiling is missing");
        if (!a_ || !b_) ::ascsim::fail(api, "matmul input not set", "SetTensorA and SetTensorB must come before IterateAll");
        if (bias_ && !biasPtr_) ::ascsim::fail(api, "matmul bias not set", "the tiling has isBias but SetBias was not called");
        int K = sk_;
        (void)block;
        std::vector<float> row(size_t(std::max(n, 0)));
        for (int i = 0; i < m; ++i) {
            for (int j = 0; j < n; ++j) row[j] = bias_ ? float(Load(biasPtr_, j0 + j, bUbBias_)) : 0.0f;
            for (int k = 0; k < K; ++k) {
                int64_t ai = transA_ ? int64_t(k) * M_ + (i0 + i) : int64_t(i0 + i) * Ka_ + k;
                float av = float(Load(a_, ai, aUb_));
                if (av == 0.0f) continue;
                for (int j = 0; j < n; ++j) {
                    int64_t bi = transB_ ? int64_t(j0 + j) * Kb_ + k : int64_t(k) * N_ + (j0 + j);
                    row[j] += av * float(Load(b_, bi, bUb_));
                }
            }
            CT* dst = c + int64_t(i) * ldc;
            if (cUb) ::ascsim::check_ub(api, dst, size_t(n) * sizeof(CT));
            else ::ascsim::check_gm(dst, size_t(n) * sizeof(CT), true, api);
            for (int j = 0; j < n; ++j) dst[j] = atomic ? CT(float(dst[j]) + row[j]) : CT(row[j]);
        }
    }
    template <class T> T Load(const T* p, int64_t i, bool ub) const {
        if (ub) ::ascsim::check_ub("Matmul", p + i, sizeof(T));
        else ::ascsim::check_gm(p + i, sizeof(T), false, "Matmul");
        return p[i];
    }
    int M_ = 0, N_ = 0, Ka_ = 0, Kb_ = 0, sm_ = 0, sn_ = 0, sk_ = 0, bm_ = 128, bn_ = 128, iter_ = -1;
    bool bias_ = false, transA_ = false, transB_ = false, aUb_ = false, bUb_ = false, bUbBias_ = false, inited_ = false;
    const AT* a_ = nullptr;
    const BT* b_ = nullptr;
    const BiasT* biasPtr_ = nullptr;
};
}  // namespace matmul

namespace ascsim {
inline void regist_matmul_pairs() {}
template <class MM, class Tiling, class... Rest> inline void regist_matmul_pairs(MM& mm, const Tiling* tiling, Rest&&... rest) {
    mm.Init(tiling);
    regist_matmul_pairs(rest...);
}
template <class MM> inline void regist_matmul_pairs(MM& mm) { (void)mm; }
template <class... A> inline void regist_matmul(AscendC::TPipe* pipe, GM_ADDR workspace, A&&... a) {
    (void)pipe; (void)workspace;
    regist_matmul_pairs(a...);
}
}  // namespace ascsim
#define REGIST_MATMUL_OBJ(tpipe, workspace, ...) ::ascsim::regist_matmul(tpipe, workspace, __VA_ARGS__)
#endif  // ASCSIM_KERNEL_MATMUL_API_H_
