// ascsim kernel side: TPipe (UB allocation), TQue/TQueBind (buffer queues with misuse checks) and TBuf.
#ifndef ASCSIM_ASCSIM_KERNEL_TPIPE_H_
#define ASCSIM_ASCSIM_KERNEL_TPIPE_H_
#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>
#include "tensor.h"

namespace ascsim {
constexpr uint8_t kPoisonByte = 0xFF;   // NaN for half/float: uninitialised reads show up in results
[[noreturn]] void fail_queue(const char* api, const std::string& detail);
inline uint8_t* cube_allocate(const char* api, AscendC::TPosition pos, uint64_t bytes, const void* pipe);   // cube_api.h
// Poisons the part of [p, p + bytes) inside this core's UB: an InitBuffer may overrun the UB (the hardware only
// faults when an instruction touches the overrun), so the bytes beyond it are never written here.
inline void poison_ub(void* p, uint64_t bytes) {
    uint8_t* q = static_cast<uint8_t*>(p);
    uint8_t* b = core().ub;
    if (!b || q < b || q >= b + core().ub_size) return;
    uint64_t room = uint64_t(b + core().ub_size - q);
    std::memset(q, kPoisonByte, bytes < room ? bytes : room);
}
// Registers a bound queue in its core's list (once); copies of a queue object are not registered.
struct QueueRegistration {
    CoreCtx* ctx = nullptr;
    QueueRegistration() = default;
    QueueRegistration(const QueueRegistration&) {}
    QueueRegistration& operator=(const QueueRegistration&) { return *this; }
    void Add(void* queue, bool (*free_owned)(void*, const void*)) {
        if (ctx) return;
        CoreCtx& c = core();
        if (c.n_queues >= kMaxQueues) return;
        c.queues[c.n_queues++] = QueueRef{queue, free_owned};
        ctx = &c;
    }
    void Drop(void* queue) {
        if (!ctx || ctx != &core()) return;   // the launch that held it is over
        for (int i = 0; i < ctx->n_queues; ++i)
            if (ctx->queues[i].queue == queue) { ctx->queues[i] = ctx->queues[--ctx->n_queues]; break; }
        ctx = nullptr;
    }
};
inline bool free_in_owner_queue(const void* caller, const void* p) {
    CoreCtx& c = core();
    for (int i = 0; i < c.n_queues; ++i)
        if (c.queues[i].queue != caller && c.queues[i].free_owned(c.queues[i].queue, p)) return true;
    return false;
}
inline bool is_ub_position(AscendC::TPosition p) {
    using AscendC::TPosition;
    return p == TPosition::VECIN || p == TPosition::VECOUT || p == TPosition::VECCALC;
}
}  // namespace ascsim

namespace AscendC {

using TEventID = int8_t;
template <TPosition pos> class TBuf;

class TPipe {
public:
    TPipe() { ascsim::core().tpipe = this; }
    ~TPipe() {
        if (ascsim::core().tpipe == this) ascsim::core().tpipe = nullptr;
    }
    // A copy holds the allocation state as it was (kernels keep a TPipe member and assign the entry's pipe to it):
    // each object then allocates on from there, as separate objects do on the device. Constructing one makes it the
    // core's TPipe (GetTPipePtr), as any construction does; assigning changes nothing of that.
    TPipe(const TPipe& o) : used_(o.used_) {
        std::memcpy(reserved_, o.reserved_, sizeof reserved_);
        std::memcpy(que_bufs_, o.que_bufs_, sizeof que_bufs_);
        ascsim::core().tpipe = this;
    }
    TPipe& operator=(const TPipe& o) {
        used_ = o.used_;
        std::memcpy(reserved_, o.reserved_, sizeof reserved_);
        std::memcpy(que_bufs_, o.que_bufs_, sizeof que_bufs_);
        return *this;
    }

    template <class Q> bool InitBuffer(Q& que, uint8_t num, uint32_t len) {
        static_assert(Q::kIsQueue, "InitBuffer(que, num, len) expects a TQue/TQueBind");
        if (num < 1 || num > 64) ascsim::fail_queue("InitBuffer", "num " + std::to_string(num) + " out of range [1, 64]");
        uint32_t aligned = (len + 31u) / 32u * 32u;
        CountQueueBuffers(Q::kQuePos, num);
        uint8_t* base = Allocate("InitBuffer", Q::kQuePos, uint64_t(aligned) * num);
        que.Bind(base, num, aligned, this);
        return true;
    }
    template <TPosition pos> bool InitBuffer(TBuf<pos>& buf, uint32_t len);
    // an outermost TBufPool: a region of its own, or the region of `shareBuf` (same start, len within it)
    template <class T> bool InitBufPool(T& bufPool, uint32_t len) {
        uint32_t aligned = (len + 31u) / 32u * 32u;
        bufPool.Bind(Allocate("InitBufPool", T::kPoolPos, aligned), aligned);
        return true;
    }
    template <class T, class U> bool InitBufPool(T& bufPool, uint32_t len, U& shareBuf) {
        return bufPool.Share("TPipe::InitBufPool", len, shareBuf);
    }
    // Destroy releases the pipe's resources; Init (which the constructor runs) starts its allocations and event ids
    // afresh, so a reused TPipe is Destroy + Init. DestroyWithoutPipeAll is Destroy without the PIPE_ALL barrier,
    // which the simulated core does not need.
    void Destroy() {}
    void DestroyWithoutPipeAll() {}
    void Init() {
        used_ = 0;
        std::memset(reserved_, 0, sizeof reserved_);
        std::memset(que_bufs_, 0, sizeof que_bufs_);
        ascsim::core().tpipe = this;
    }
    // The base address of a logical position (a CPU-debug helper: tensor address minus base = offset); the UB base
    // for the vector positions, nullptr for the cube ones.
    uint8_t* GetBaseAddr(int8_t logicPos) {
        return ascsim::is_ub_position(static_cast<TPosition>(logicPos)) ? ascsim::core().ub : nullptr;
    }
    void Reset() {
        used_ = 0;
        for (auto& n : que_bufs_) n = 0;
    }
    template <HardEvent evt> TEventID FetchEventID() { return 0; }
    TEventID FetchEventID(HardEvent) { return 0; }
    template <HardEvent evt> TEventID AllocEventID() {
        for (int i = 0; i < 8; ++i) if (!(reserved_[int(evt)] & (1u << i))) { reserved_[int(evt)] |= 1u << i; return TEventID(i); }
        ascsim::fail_queue("AllocEventID", "all 8 event ids of this HardEvent are reserved");
    }
    template <HardEvent evt> void ReleaseEventID(TEventID id) { reserved_[int(evt)] &= ~(1u << id); }
    uint32_t UsedBytes() const { return used_; }

    uint8_t* Allocate(const char* api, TPosition pos, uint64_t bytes);
    // Queue buffers carry the TPipe's sync event ids: at most 8 per TPosition on arch 2201 (FreeAllEvent gives a
    // queue's back).
    static constexpr int kMaxQueBuffersPerPos = 8;
    void CountQueueBuffers(TPosition pos, int num) {
        int n = que_bufs_[int(pos) & 31] + num;
        if (n <= kMaxQueBuffersPerPos) { que_bufs_[int(pos) & 31] = n; return; }
        ascsim::fail_queue("InitBuffer", "queue buffer number at TPosition " + PositionName(pos) + " is " + std::to_string(n) +
                           ", exceeds the limit " + std::to_string(kMaxQueBuffersPerPos) +
                           " (each queue buffer holds a sync event id; call FreeAllEvent on queues no longer used)");
    }
    void ReleaseQueueBuffers(TPosition pos, int num) {
        int& n = que_bufs_[int(pos) & 31];
        n = n > num ? n - num : 0;
    }
    static std::string PositionName(TPosition p) {
        static const char* const names[] = {"GM", "A1", "A2", "B1", "B2", "C1", "C2", "CO1", "CO2", "VECIN", "VECOUT", "VECCALC",
                                            "SPM", "TSCM", "C2PIPE2GM", "C2PIPE2LOCAL"};
        return int(p) < 16 ? names[int(p)] : std::to_string(int(p));
    }

private:
    uint32_t used_ = 0;
    uint8_t reserved_[64] = {};
    int que_bufs_[32] = {};
};

inline TPipe* GetTPipePtr() { return static_cast<TPipe*>(ascsim::core().tpipe); }

// PopStackBuffer<T, pos>(popLocal) (documented, resource management): a temporary tensor over all the space left at
// `pos`, i.e. the UB after the last InitBuffer of the core's TPipe (the whole UB without one); answers true. Only
// the UB positions (VECIN / VECOUT / VECCALC = LCM) are simulated.
template <typename T, TPosition pos>
__aicore__ inline bool PopStackBuffer(LocalTensor<T>& popLocal) {
    static_assert(pos == TPosition::VECIN || pos == TPosition::VECOUT || pos == TPosition::VECCALC,
                  "ascsim: PopStackBuffer is simulated for the UB positions (VECIN, VECOUT, VECCALC/LCM) only");
    static_assert(std::is_same_v<T, uint8_t> || std::is_same_v<T, int8_t> || std::is_same_v<T, int16_t> ||
                  std::is_same_v<T, uint16_t> || std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t> ||
                  std::is_same_v<T, int64_t> || std::is_same_v<T, uint64_t> || std::is_same_v<T, float> ||
                  std::is_same_v<T, half>,
                  "Failed to check dtype in PopStackBuffer, current api support dtype is uint8_t / int8_t / int16_t / "
                  "uint16_t / int32_t / uint32_t / int64_t / uint64_t / float / half");
    auto& c = ascsim::core();
    TPipe* pipe = GetTPipePtr();
    uint32_t used = pipe ? std::min(pipe->UsedBytes(), c.ub_size) : 0;
    popLocal = LocalTensor<T>(reinterpret_cast<T*>(c.ub + used), uint32_t(ascsim::elems_in<T>(c.ub_size - used)), pos);
    return true;
}

// The documented queue configuration a TQue/TQueBind `mask` may point to (`TQue<pos, depth, &conf>`). Its fields
// tune buffer allocation and ND/NZ conversion on other chips; the simulated queue keeps its usual behaviour.
struct TQueConfig {
    bool nd2nz = false;
    bool nz2nd = false;
    bool scmBlockGroup = false;
    uint32_t bufferLen = 0;
    uint32_t bufferNumber = 0;
    uint32_t consumerSize = 0;
    TPosition consumer[8] = {};
    bool enableStaticEvtId = false;
    bool enableLoopQueue = false;
};

template <TPosition src, TPosition dst, int32_t depth, auto mask = 0> class TQueBind {
public:
    static constexpr bool kIsQueue = true;
    static constexpr TPosition kSrcPos = src;
    // where the buffers live and whose event ids they use: TQueBind<GM, VECIN> is TQue<VECIN>; a binding between two
    // local positions (VECIN -> VECOUT) is counted at its source
    static constexpr TPosition kQuePos = src == TPosition::GM ? dst : src;
    TQueBind() = default;

    TQueBind(const TQueBind& o) = default;
    TQueBind& operator=(const TQueBind& o) = default;
    ~TQueBind() { reg_.Drop(this); }

    void Bind(uint8_t* base, uint8_t num, uint32_t len, TPipe* pipe = nullptr) {
        base_ = base; num_ = num; len_ = len; head_ = 0; count_ = 0; pipe_ = pipe; events_held_ = pipe != nullptr;
        for (int i = 0; i < 64; ++i) state_[i] = kFree;
        reg_.Add(this, &TQueBind::FreeOwned);
    }
    template <typename T> LocalTensor<T> AllocTensor() {
        Require("AllocTensor");
        for (int i = 0; i < num_; ++i) {
            if (state_[i] == kFree) {
                state_[i] = kAllocated;
                // Neither AllocTensor nor FreeTensor touches the data, as on the device: a slot never written
                // holds InitBuffer's garbage, a reused one what was last written there (answers rely on both:
                // RmsNorm reads a tensor after FreeTensor; AddRmsNorm's float path frees its only input slot and
                // allocates it again to read the sum it left there)
                ascsim::sync_que(ascsim::kQueAlloc, Slot(i), int(src), int(dst));
                return LocalTensor<T>(reinterpret_cast<T*>(Slot(i)), uint32_t(ascsim::elems_in<T>(len_)), kQuePos);
            }
        }
        ascsim::fail_queue("AllocTensor", "all " + std::to_string(num_) +
                           " buffers of the queue are in use (a FreeTensor is missing); the core would wait forever");
    }
    template <typename T> void AllocTensor(LocalTensor<T>& t) { t = AllocTensor<T>(); }
    template <typename T> bool EnQue(const LocalTensor<T>& t) {
        int i = SlotOf("EnQue", t.addr_);
        if (state_[i] != kAllocated) ascsim::fail_queue("EnQue", "tensor is not an allocated buffer of this queue (double EnQue or already freed)");
        int cap = depth > 0 ? depth : num_;
        if (count_ >= cap) ascsim::fail_queue("EnQue", "queue depth " + std::to_string(cap) + " exceeded (EnQue without DeQue)");
        state_[i] = kQueued;
        ascsim::sync_que(ascsim::kQueEnQue, Slot(i), int(src), int(dst));
        fifo_[(head_ + count_) % 64] = uint8_t(i);
        ++count_;
        return true;
    }
    template <TPosition s, TPosition d, typename T> bool EnQue(const LocalTensor<T>& t) { return EnQue(t); }
    template <typename T = uint8_t> LocalTensor<T> DeQue() {   // kernels also call DeQue() only to pop
        Require("DeQue");
        if (count_ == 0) ascsim::fail_queue("DeQue", "DeQue on an empty queue: the core would wait forever (aicore timeout)");
        int i = fifo_[head_];
        head_ = (head_ + 1) % 64;
        --count_;
        state_[i] = kAllocated;
        ascsim::sync_que(ascsim::kQueDeQue, Slot(i), int(src), int(dst));
        return LocalTensor<T>(reinterpret_cast<T*>(Slot(i)), uint32_t(ascsim::elems_in<T>(len_)), dst);
    }
    template <typename T> void DeQue(LocalTensor<T>& t) { t = DeQue<T>(); }
    template <TPosition s, TPosition d, typename T> LocalTensor<T> DeQue() { return DeQue<T>(); }
    // The device frees by the tensor's own buffer handle, whichever queue object FreeTensor is called on: a tensor
    // of another queue of this core frees that queue's buffer (answers free two same-position queues' tensors
    // crosswise); a tensor no queue of the core owns is an error.
    template <typename T> void FreeTensor(LocalTensor<T>& t) {
        Require("FreeTensor");
        int i = Find(t.addr_);
        if (i >= 0) return FreeSlot(i);
        if (!ascsim::free_in_owner_queue(this, t.addr_)) ascsim::fail_queue("FreeTensor", "tensor does not start a buffer of this queue");
    }
    bool VacantInQue() { return count_ < (depth > 0 ? depth : num_); }
    bool HasTensorInQue() { return count_ > 0; }
    int32_t GetTensorCountInQue() { return count_; }
    bool HasIdleBuffer() {
        for (int i = 0; i < num_; ++i) if (state_[i] == kFree) return true;
        return false;
    }
    void FreeAllEvent() {
        if (pipe_ && events_held_) pipe_->ReleaseQueueBuffers(kQuePos, num_);
        events_held_ = false;
    }

private:
    enum : uint8_t { kFree, kAllocated, kQueued };
    uint8_t* Slot(int i) const { return base_ + size_t(i) * len_; }
    void Require(const char* api) const {
        if (!base_) ascsim::fail_queue(api, "queue used before TPipe::InitBuffer");
    }
    int Find(const void* p) const {
        const uint8_t* q = static_cast<const uint8_t*>(p);
        if (base_ && q >= base_ && q < base_ + size_t(num_) * len_ && (q - base_) % len_ == 0) return int((q - base_) / len_);
        return -1;
    }
    int SlotOf(const char* api, const void* p) const {
        Require(api);
        int i = Find(p);
        if (i < 0) ascsim::fail_queue(api, "tensor does not start a buffer of this queue");
        return i;
    }
    void FreeSlot(int i) {
        if (state_[i] == kFree) ascsim::fail_queue("FreeTensor", "double FreeTensor of the same buffer");
        if (state_[i] == kQueued) ascsim::fail_queue("FreeTensor", "FreeTensor of a buffer that is still enqueued");
        state_[i] = kFree;
        ascsim::sync_que(ascsim::kQueFree, Slot(i), int(src), int(dst));
    }
    static bool FreeOwned(void* self, const void* p) {
        auto* q = static_cast<TQueBind*>(self);
        int i = q->Find(p);
        if (i < 0) return false;
        q->FreeSlot(i);
        return true;
    }
    ascsim::QueueRegistration reg_;
    uint8_t* base_ = nullptr;
    uint8_t num_ = 0;
    uint32_t len_ = 0;
    TPipe* pipe_ = nullptr;
    bool events_held_ = false;
    uint8_t state_[64] = {};
    uint8_t fifo_[64] = {};
    int head_ = 0, count_ = 0;
};

template <TPosition pos, int32_t depth, auto mask = 0> class TQue : public TQueBind<pos, pos, depth, mask> {};

template <TPosition pos = TPosition::VECCALC> class TBuf {
public:
    static constexpr bool kIsQueue = false;
    TBuf() = default;
    template <typename T> LocalTensor<T> Get() {
        if (!Initialised("TBuf::Get")) return LocalTensor<T>(nullptr, 0, pos);
        return LocalTensor<T>(reinterpret_cast<T*>(base_), uint32_t(ascsim::elems_in<T>(len_)), pos);
    }
    // A tensor longer than the TBuf breaks the documented constraint (len * sizeof(T) within the TBuf), but the
    // device does not check it: the tensor reaches into the UB after the buffer (other buffers), which the simulated
    // UB reproduces byte for byte. It warns; accesses are checked against the UB like any other.
    template <typename T> LocalTensor<T> Get(uint32_t len) {
        if (!Initialised("TBuf::Get")) return LocalTensor<T>(nullptr, len, pos);
        if (ascsim::bytes_of<T>(len) > len_)
            ascsim::warn("TBuf::Get", "requested " + std::to_string(ascsim::bytes_of<T>(len)) + " bytes from a TBuf of " +
                         std::to_string(len_) + " bytes (documented limit; the device does not check it: the tensor "
                         "overlaps the UB after the buffer)");
        return LocalTensor<T>(reinterpret_cast<T*>(base_), len, pos);
    }
    template <typename T> LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset) {
        if (!Initialised("TBuf::GetWithOffset")) return LocalTensor<T>(nullptr, size, pos);
        if (bufOffset % 32) ascsim::fail_queue("TBuf::GetWithOffset", "bufOffset " + std::to_string(bufOffset) + " is not 32-byte aligned");
        if (uint64_t(bufOffset) + ascsim::bytes_of<T>(size) > len_)
            ascsim::warn("TBuf::GetWithOffset", "range of " + std::to_string(uint64_t(bufOffset) + ascsim::bytes_of<T>(size)) +
                         " bytes exceeds the TBuf of " + std::to_string(len_) + " bytes (documented limit; the device does "
                         "not check it: the tensor overlaps the UB after the buffer)");
        return LocalTensor<T>(reinterpret_cast<T*>(base_ + bufOffset), size, pos);
    }
    // the vendor TBuf also offers the queue-style calls (no queue semantics: Alloc = Get, Free = nothing)
    template <typename T> LocalTensor<T> AllocTensor() { return Get<T>(); }
    template <typename T> void FreeTensor(LocalTensor<T>&) {}
    void Bind(uint8_t* base, uint32_t len) { base_ = base; len_ = len; }

private:
    // Getting a tensor from a TBuf that was never initialised is harmless on the device when the tensor goes unused
    // (kernels fetch a scratch buffer they only need for some dtypes); it warns, and the tensor has no address, so
    // any use of it fails ("the ub address out of bounds").
    bool Initialised(const char* api) const {
        if (!base_) ascsim::warn(api, "TBuf used before TPipe::InitBuffer: the tensor has no buffer (any use of it fails)");
        return base_ != nullptr;
    }
    uint8_t* base_ = nullptr;
    uint32_t len_ = 0;
};

// TBufPool<pos, bufIDSize>: a part of the TPipe's memory that hands out queue buffers, TBufs and nested pools from
// its start, one after another (the docs: contiguous blocks; a pool can only be split). At most bufIDSize buffers
// (default 4, at most 16); a queue's `num` blocks count as num. A shared pool (InitBufPool(pool, len, shareBuf))
// starts where shareBuf starts and must not be longer; its buffers overlap shareBuf's, which is the point: stages
// that run one after another reuse the memory. Reset ends a stage; the pool and its buffers stay usable. A pool
// that hands out more than it holds overlaps the memory after it (the device does not check): that warns. Handing
// out a buffer does not touch its memory (TPipe::InitBufPool's region starts as garbage; a shared pool sees what the
// pool it shares left there).
constexpr uint32_t defaultBufIDSize = 4;
template <TPosition pos, uint32_t bufIDSize = defaultBufIDSize> class TBufPool {
public:
    static_assert(bufIDSize >= 1 && bufIDSize <= 16, "TBufPool: bufIDSize is at most 16");
    static_assert(pos == TPosition::VECIN || pos == TPosition::VECOUT || pos == TPosition::VECCALC || pos == TPosition::A1 ||
                      pos == TPosition::B1 || pos == TPosition::C1,
                  "TBufPool: the position is VECIN, VECOUT, VECCALC, A1, B1 or C1");
    static constexpr TPosition kPoolPos = pos;
    static constexpr uint32_t kBufIDSize = bufIDSize;
    TBufPool() = default;
    TBufPool(const TBufPool&) = delete;
    TBufPool& operator=(const TBufPool&) = delete;

    template <class T> bool InitBufPool(T& bufPool, uint32_t len) {
        uint32_t aligned = (len + 31u) / 32u * 32u;
        bufPool.Bind(Carve("TBufPool::InitBufPool", T::kPoolPos, aligned), aligned);
        return true;
    }
    template <class T, class U> bool InitBufPool(T& bufPool, uint32_t len, U& shareBuf) {
        return bufPool.Share("TBufPool::InitBufPool", len, shareBuf);
    }
    template <class Q> bool InitBuffer(Q& que, uint8_t num, uint32_t len) {
        static_assert(Q::kIsQueue, "InitBuffer(que, num, len) expects a TQue/TQueBind");
        if (num < 1 || num > 64) ascsim::fail_queue("TBufPool::InitBuffer", "num " + std::to_string(num) + " out of range [1, 64]");
        uint32_t aligned = (len + 31u) / 32u * 32u;
        Count(num);
        que.Bind(Carve("TBufPool::InitBuffer", Q::kQuePos, uint64_t(aligned) * num), num, aligned);
        return true;
    }
    template <TPosition p> bool InitBuffer(TBuf<p>& buf, uint32_t len) {
        uint32_t aligned = (len + 31u) / 32u * 32u;
        Count(1);
        buf.Bind(Carve("TBufPool::InitBuffer", p, aligned), aligned);
        return true;
    }
    void Reset() {}

    // used by TPipe / an enclosing pool
    void Bind(uint8_t* base, uint32_t len) {
        if (base_) ascsim::fail_queue("InitBufPool", "the TBufPool is already initialised");
        base_ = base; len_ = len;
    }
    template <class U> bool Share(const char* api, uint32_t len, U& shareBuf) {
        uint32_t aligned = (len + 31u) / 32u * 32u;
        if (!shareBuf.Base()) ascsim::fail_queue(api, "shareBuf is not initialised");
        if (ascsim::is_ub_position(U::kPoolPos) != ascsim::is_ub_position(pos))
            ascsim::fail_queue(api, "shareBuf lies in another physical memory than the new pool");
        if (aligned > shareBuf.Length())
            ascsim::fail_queue(api, "len " + std::to_string(aligned) + " exceeds the " + std::to_string(shareBuf.Length()) +
                               " bytes of the shared pool");
        Bind(shareBuf.Base(), aligned);
        return true;
    }
    uint8_t* Base() const { return base_; }
    uint32_t Length() const { return len_; }

private:
    void Count(uint32_t n) {
        if ((ascsim::core().buffers_inited += int(n)) > 64)
            ascsim::fail_queue("TBufPool::InitBuffer", "more than 64 buffers initialised in one kernel");
        if ((ids_ += n) > bufIDSize)
            ascsim::fail_queue("TBufPool::InitBuffer", "the pool hands out " + std::to_string(ids_) + " buffers, more than its bufIDSize " +
                               std::to_string(bufIDSize));
    }
    uint8_t* Carve(const char* api, TPosition p, uint64_t bytes) {
        if (!base_) ascsim::fail_queue(api, "TBufPool used before InitBufPool");
        if (ascsim::is_ub_position(p) != ascsim::is_ub_position(pos))
            ascsim::fail_queue(api, "the buffer's position lies in another physical memory than the pool");
        if (used_ + bytes > len_)
            ascsim::warn(api, "the pool of " + std::to_string(len_) + " B hands out " + std::to_string(used_ + bytes) +
                         " B (the device does not check it: the buffer overlaps the memory after the pool)");
        uint8_t* q = base_ + used_;
        used_ += bytes;
        return q;
    }
    uint8_t* base_ = nullptr;
    uint32_t len_ = 0;
    uint64_t used_ = 0;
    uint32_t ids_ = 0;
};

template <TPosition pos> bool TPipe::InitBuffer(TBuf<pos>& buf, uint32_t len) {
    uint32_t aligned = (len + 31u) / 32u * 32u;
    buf.Bind(Allocate("InitBuffer", pos, aligned), aligned);
    return true;
}

inline uint8_t* TPipe::Allocate(const char* api, TPosition pos, uint64_t bytes) {
    if (!ascsim::is_ub_position(pos)) return ascsim::cube_allocate(api, pos, bytes, this);   // cube_mem.h / cube_api.h
    auto& c = ascsim::core();
    if (++c.buffers_inited > 64) ascsim::fail_queue(api, "more than 64 buffers initialised in one kernel");
    if (used_ + bytes > c.ub_size)   // CPU-debug rejects this; the device only faults when the overrun is accessed
        ascsim::warn(api, "UB buffer size is " + std::to_string(used_ + bytes) + ", exceeds the limit " + std::to_string(c.ub_size) +
                     " (any access beyond the UB fails with 'the ub address out of bounds')");
    if (used_ + bytes > ascsim::kUbUsableBytes)
        ascsim::warn(api, "UB usage " + std::to_string(used_ + bytes) + " B exceeds the " +
                     std::to_string(ascsim::kUbUsableBytes) + " B that the platform reports as usable");
    uint8_t* p = c.ub + used_;
    used_ += uint32_t(bytes);
    ascsim::poison_ub(p, bytes);   // UB holds garbage: uninitialised reads show up as NaN
    return p;
}

}  // namespace AscendC
// The documented prototype is global (it returns AscendC::TPipe*): kernels call it without AscendC:: and without a
// using-directive. One function under both names, so an unqualified call with the directive is not ambiguous.
using AscendC::GetTPipePtr;
#endif  // ASCSIM_ASCSIM_KERNEL_TPIPE_H_
