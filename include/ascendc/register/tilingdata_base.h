// CANN's register/tilingdata_base.h for pyasc's simulator: host-side tiling data classes declared
// with macros, filled with set_x and written into the kernel's tiling buffer with SaveToBuffer.
//
//   namespace optiling {
//   BEGIN_TILING_DATA_DEF(AddTiling)
//   TILING_DATA_FIELD_DEF(uint32_t, totalLength);
//   TILING_DATA_FIELD_DEF_ARR(uint16_t, 3, dims);
//   TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cube);
//   END_TILING_DATA_DEF;
//   REGISTER_TILING_DATA_CLASS(AddCustom, AddTiling)
//   }
//
// gives optiling::AddTiling with set_totalLength/get_totalLength, set_dims(const uint16_t *) and
// get_dims() (the array), the member `cube` (itself such a class), GetDataSize() and
// SaveToBuffer(buf, capacity). The bytes are laid out as the kernel's struct of the same members
// in the same order (each at its natural alignment, at most 8, the size rounded up to the
// largest), so a kernel reads them with a plain struct, as it does CANN's generated ones.
// Header-only; docs/host-tiling.md, "C++".
#ifndef PYASC_ASCENDC_TILINGDATA_BASE_H
#define PYASC_ASCENDC_TILINGDATA_BASE_H

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "../securec.h"

namespace optiling {

class TilingDef {
 public:
  virtual ~TilingDef() = default;

  // Bytes SaveToBuffer writes: the kernel struct's size.
  size_t GetDataSize() const {
    size_t end = 0;
    size_t align = 1;
    Layout(nullptr, &end, &align);
    return RoundUp(end, align);
  }
  // Writes the fields into pData. A buffer smaller than GetDataSize() (or a null one) is left
  // untouched and the call says so on stderr, where a short copy would hand the kernel a
  // truncated tiling.
  void SaveToBuffer(void *pData, size_t capacity) const {
    size_t size = GetDataSize();
    if (pData == nullptr || capacity < size) {
      std::fprintf(stderr,
                   "optiling: %s::SaveToBuffer: the buffer holds %zu bytes, the tiling data "
                   "needs %zu%s\n",
                   className_, pData == nullptr ? static_cast<size_t>(0) : capacity, size,
                   pData == nullptr ? " (null buffer)" : "");
      return;
    }
    std::memset(pData, 0, size);
    size_t end = 0;
    size_t align = 1;
    Layout(static_cast<uint8_t *>(pData), &end, &align);
  }
  const char *GetTilingClassName() const { return className_; }
  // The largest alignment among the fields (a nested struct's, as a member of another).
  size_t GetAlignment() const {
    size_t end = 0;
    size_t align = 1;
    Layout(nullptr, &end, &align);
    return align;
  }

  // What a field macro records: where the value sits in the object (from the TilingDef base, so
  // that a copy of the object finds its own), its bytes and alignment, or a nested class.
  struct Field {
    const char *name;
    size_t offset;
    size_t size;
    size_t align;
    bool nested;
  };
  // Registers one field at construction, in declaration order (member initialisers run in it).
  class FieldReg {
   public:
    FieldReg(TilingDef *owner, const char *name, const void *value, size_t size, size_t align,
             bool nested) {
      size_t offset = static_cast<size_t>(static_cast<const char *>(value) -
                                          reinterpret_cast<const char *>(owner));
      owner->fields_.push_back(Field{name, offset, size, align > 8 ? 8 : align, nested});
    }
  };

 protected:
  explicit TilingDef(const char *className) : className_(className) {}
  TilingDef(const TilingDef &) = default;
  TilingDef &operator=(const TilingDef &) = default;

 private:
  static size_t RoundUp(size_t n, size_t a) { return (n + a - 1) / a * a; }
  // Walks the fields as the kernel's struct lays them out; writes them where out is not null.
  void Layout(uint8_t *out, size_t *end, size_t *align) const {
    const char *base = reinterpret_cast<const char *>(this);
    for (const Field &f : fields_) {
      if (f.nested) {
        const TilingDef *sub = reinterpret_cast<const TilingDef *>(base + f.offset);
        size_t a = sub->GetAlignment();
        size_t at = RoundUp(*end, a);
        if (out != nullptr) sub->SaveToBuffer(out + at, sub->GetDataSize());
        *end = at + sub->GetDataSize();
        if (a > *align) *align = a;
      } else {
        size_t at = RoundUp(*end, f.align);
        if (out != nullptr) std::memcpy(out + at, base + f.offset, f.size);
        *end = at + f.size;
        if (f.align > *align) *align = f.align;
      }
    }
  }

  const char *className_;
  std::vector<Field> fields_;
};

// REGISTER_TILING_DATA_CLASS's record: which class an operator's tiling data is, by name (CANN's
// framework makes the class from it; a host program here only looks it up).
class CTilingDataClassFactory {
 public:
  static CTilingDataClassFactory &GetInstance() {
    static CTilingDataClassFactory factory;
    return factory;
  }
  void RegisterTilingData(const std::string &opType, const std::string &className) {
    classes_[opType] = className;
  }
  // The class registered for opType, or "" for none.
  std::string GetTilingDataClassName(const std::string &opType) const {
    auto it = classes_.find(opType);
    return it == classes_.end() ? std::string() : it->second;
  }

 private:
  std::map<std::string, std::string> classes_;
};

class TilingDataRegistrar {
 public:
  TilingDataRegistrar(const char *opType, const char *className) {
    CTilingDataClassFactory::GetInstance().RegisterTilingData(opType, className);
  }
};

}  // namespace optiling

#define BEGIN_TILING_DATA_DEF(class_name)                \
  class class_name : public ::optiling::TilingDef {      \
   public:                                               \
    class_name() : ::optiling::TilingDef(#class_name) {} \
    class_name(const class_name &) = default;            \
    class_name &operator=(const class_name &) = default;

#define TILING_DATA_FIELD_DEF(data_type, field_name)                                    \
 public:                                                                                \
  void set_##field_name(data_type value) {                                              \
    field_name##_ = value;                                                              \
  }                                                                                     \
  data_type get_##field_name() const {                                                  \
    return field_name##_;                                                               \
  }                                                                                     \
                                                                                        \
 private:                                                                               \
  data_type field_name##_ = data_type();                                                \
  ::optiling::TilingDef::FieldReg field_name##Reg_{                                     \
      this, #field_name, &field_name##_, sizeof(data_type), alignof(data_type), false}; \
                                                                                        \
 public:

#define TILING_DATA_FIELD_DEF_ARR(data_type, arr_size, field_name)                         \
 public:                                                                                   \
  void set_##field_name(const data_type *values) {                                         \
    std::memcpy(field_name##_, values, sizeof(field_name##_));                             \
  }                                                                                        \
  data_type *get_##field_name() {                                                          \
    return field_name##_;                                                                  \
  }                                                                                        \
                                                                                           \
 private:                                                                                  \
  data_type field_name##_[arr_size] = {};                                                  \
  ::optiling::TilingDef::FieldReg field_name##Reg_{                                        \
      this, #field_name, field_name##_, sizeof(field_name##_), alignof(data_type), false}; \
                                                                                           \
 public:

#define TILING_DATA_FIELD_DEF_STRUCT(struct_type, field_name)                                  \
 public:                                                                                       \
  struct_type field_name;                                                                      \
                                                                                               \
 private:                                                                                      \
  ::optiling::TilingDef::FieldReg field_name##Reg_{                                            \
      this, #field_name, static_cast<const ::optiling::TilingDef *>(&field_name), 0, 1, true}; \
                                                                                               \
 public:

#define END_TILING_DATA_DEF }

#define REGISTER_TILING_DATA_CLASS(op_type, class_name) \
  static ::optiling::TilingDataRegistrar g_pyascTilingDataReg##op_type(#op_type, #class_name);

#endif
