// ascsim host side: BEGIN_TILING_DATA_DEF & co. Serialization = declaration order, every field aligned to its
// own size, nested structs aligned to 8, total size padded to 8. Fields record their type name so the build can
// generate the kernel-side plain struct (what the vendor op build force-includes).
#ifndef ASCSIM_ASCSIM_HOST_TILING_DEF_H_
#define ASCSIM_ASCSIM_HOST_TILING_DEF_H_
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace optiling {

class TilingDef;
struct FieldInfo {
    std::string name, type;        // type: C type name or nested class name
    size_t offset_in_obj = 0;      // where the value lives inside the host object
    size_t elem_size = 0, count = 1;
    bool is_struct = false;
};

class TilingDef {
public:
    TilingDef() = default;
    // a copy is a separate object: it writes into no external buffer and belongs to no enclosing tiling struct
    TilingDef(const TilingDef& o) : class_name_(o.class_name_), fields_(o.fields_) {}
    TilingDef& operator=(const TilingDef& o) {
        // fields hold offsets into *this, so only the values need copying (done by the derived copy)
        (void)o;
        return *this;
    }
    virtual ~TilingDef() = default;
    const char* GetTilingClassName() const { return class_name_; }
    size_t GetDataSize() const {
        size_t off = 0;
        Layout(&off, nullptr);
        return (off + 7) / 8 * 8;
    }
    void SaveToBuffer(void* buf, size_t cap) const {
        size_t need = GetDataSize();
        if (buf == nullptr || need > cap) {
            fprintf_error(need, cap);
            return;
        }
        std::memset(buf, 0, need);
        size_t off = 0;
        Layout(&off, static_cast<uint8_t*>(buf));
    }
    // SetDataPtr(buf) (documented TilingDef API): the object's fields live in `buf` from now on, the serialized
    // layout of SaveToBuffer; host code then only sets the raw tiling data's size. Here every setter (nested
    // structs' too) re-serializes the outermost struct into that buffer.
    void SetDataPtr(void* buf) {
        data_ptr_ = static_cast<uint8_t*>(buf);
        Flush();
    }
    void Flush() const {
        const TilingDef* root = this;
        while (root->parent_) root = root->parent_;
        if (!root->data_ptr_) return;
        std::memset(root->data_ptr_, 0, root->GetDataSize());
        size_t off = 0;
        root->Layout(&off, root->data_ptr_);
    }
    const std::vector<FieldInfo>& Fields() const { return fields_; }
    void RegisterField(const char* name, const char* type, const void* where, size_t esize, size_t count, bool is_struct) {
        if (is_struct) reinterpret_cast<TilingDef*>(const_cast<void*>(where))->parent_ = this;
        FieldInfo f;
        f.name = name;
        f.type = type;
        f.offset_in_obj = size_t(static_cast<const uint8_t*>(where) - reinterpret_cast<const uint8_t*>(this));
        f.elem_size = esize;
        f.count = count;
        f.is_struct = is_struct;
        fields_.push_back(f);
    }
    // Serialize into out (or only measure when out == nullptr), starting at *off.
    void Layout(size_t* off, uint8_t* out) const {
        for (const FieldInfo& f : fields_) {
            const uint8_t* src = reinterpret_cast<const uint8_t*>(this) + f.offset_in_obj;
            if (f.is_struct) {
                *off = (*off + 7) / 8 * 8;
                const TilingDef* sub = reinterpret_cast<const TilingDef*>(src);
                size_t start = *off;
                sub->Layout(off, out);
                *off = start + (*off - start + 7) / 8 * 8;
            } else {
                *off = (*off + f.elem_size - 1) / f.elem_size * f.elem_size;
                if (out) std::memcpy(out + *off, src, f.elem_size * f.count);
                *off += f.elem_size * f.count;
            }
        }
    }

protected:
    static void fprintf_error(size_t need, size_t cap);
    const char* class_name_ = "";
    std::vector<FieldInfo> fields_;
    uint8_t* data_ptr_ = nullptr;          // SetDataPtr's buffer (outermost struct only)
    const TilingDef* parent_ = nullptr;    // the tiling struct this one is a TILING_DATA_FIELD_DEF_STRUCT of
};

template <class T> struct TilingField {
    T value{};
    TilingField(TilingDef* owner, const char* name, const char* type) { owner->RegisterField(name, type, this, sizeof(T), 1, false); }
    TilingField(const TilingField& o) : value(o.value) {}
    TilingField& operator=(const TilingField& o) { value = o.value; return *this; }
};
template <class T, size_t N> struct TilingArrayField {
    T value[N] = {};
    TilingArrayField(TilingDef* owner, const char* name, const char* type) { owner->RegisterField(name, type, this, sizeof(T), N, false); }
    TilingArrayField(const TilingArrayField& o) { std::memcpy(value, o.value, sizeof(value)); }
    TilingArrayField& operator=(const TilingArrayField& o) { std::memcpy(value, o.value, sizeof(value)); return *this; }
};

using TilingFactory = std::function<std::unique_ptr<TilingDef>()>;
void RegisterTilingClass(const char* op_type, const char* class_name, TilingFactory make);
void RegisterTilingStruct(const char* class_name, TilingFactory make);

}  // namespace optiling

// The value member sits first so RegisterField's `this` points at it.
#define BEGIN_TILING_DATA_DEF(class_name)                                                      \
    class class_name : public ::optiling::TilingDef {                                          \
    public:                                                                                    \
        class_name() { class_name_ = #class_name; }                                            \
        explicit class_name(void*) { class_name_ = #class_name; }                              \
        class_name(const class_name& o) = default;                                             \
        class_name& operator=(const class_name& o) = default;                                  \
        ~class_name() override { if (data_ptr_) Flush(); } /* writes made through get_ pointers */ \
        static const char* AscsimName() { return #class_name; }

#define TILING_DATA_FIELD_DEF(data_type, field_name)                                           \
    public:                                                                                    \
        void set_##field_name(data_type v) { field_name##_.value = v; Flush(); }               \
        data_type get_##field_name() const { return field_name##_.value; }                     \
    private:                                                                                   \
        ::optiling::TilingField<data_type> field_name##_{this, #field_name, #data_type};

#define TILING_DATA_FIELD_DEF_ARR(arr_type, arr_size, field_name)                              \
    public:                                                                                    \
        void set_##field_name(const arr_type* v) {                                             \
            std::memcpy(field_name##_.value, v, sizeof(arr_type) * (arr_size));                \
            Flush();                                                                           \
        }                                                                                      \
        arr_type* get_##field_name() { return field_name##_.value; }                           \
    private:                                                                                   \
        ::optiling::TilingArrayField<arr_type, (arr_size)> field_name##_{this, #field_name, #arr_type};

#define TILING_DATA_FIELD_DEF_STRUCT(struct_type, field_name)                                  \
    public:                                                                                    \
        struct_type field_name;                                                                \
    private:                                                                                   \
        int ascsim_reg_##field_name = (RegisterField(#field_name, #struct_type, &field_name, 8, 1, true), 0);

// ends the class, semicolon included: host code writes both `END_TILING_DATA_DEF;` and `END_TILING_DATA_DEF`
#define END_TILING_DATA_DEF };

#define ASCSIM_CAT2(a, b) a##b
#define ASCSIM_CAT(a, b) ASCSIM_CAT2(a, b)
#define REGISTER_TILING_DATA_CLASS(op_type, class_name)                                        \
    static int ASCSIM_CAT(g_ascsim_tiling_reg_, __COUNTER__) = (::optiling::RegisterTilingClass( \
        #op_type, #class_name, [] { return std::unique_ptr<::optiling::TilingDef>(new class_name()); }), 0);
#endif  // ASCSIM_ASCSIM_HOST_TILING_DEF_H_
