// Part of kernel_operator.h, included only from it: ListTensorDesc and TensorDesc
// (kernel_operator_list_tensor_intf.h), a list of tensors the host lays out in global memory:
// the byte offset of the data pointers, each tensor's (index << 32 | dim) word and its dim
// shape values, then one data pointer per tensor (all uint64). The runtime reads the list as it
// does for Python kernels (rt/tensor_desc.h); a data pointer reaches memory only if it lies in a
// launch argument or a live device allocation, else it comes back null.

namespace AscendC {

class ListTensorDesc;

template <class T>
class TensorDesc {
 public:
  TensorDesc() = default;
  // where GetDesc writes the tensor's shape (at least its dim values)
  void SetShapeAddr(uint64_t *shapePtr) { shape_ = shapePtr; }
  uint64_t GetDim() { return dim_; }
  uint64_t GetIndex() { return index_; }
  uint64_t GetShape(uint32_t offset, sim::Loc loc = {}) {
    if (offset >= dim_ || !shape_)
      sim::check(sim::api()->fail(sim::ctx, loc.file, loc.line,
                                  "TensorDesc::GetShape: offset outside the tensor's dimensions "
                                  "(or no GetDesc/SetShapeAddr filled it)"));
    return shape_[offset];
  }
  __gm__ T *GetDataPtr() { return ptr_; }
  // the tensor as a GlobalTensor of its shape's element count
  GlobalTensor<T> GetDataObj(sim::Loc loc = {}) {
    uint64_t size = 1;
    for (uint64_t i = 0; i < dim_; i++) size *= GetShape(static_cast<uint32_t>(i), loc);
    GlobalTensor<T> obj;
    obj.SetGlobalBuffer(ptr_, size, loc);
    return obj;
  }

 private:
  friend class ListTensorDesc;
  uint64_t dim_ = 0, index_ = 0;
  uint64_t *shape_ = nullptr;
  __gm__ T *ptr_ = nullptr;
};

class ListTensorDesc {
 public:
  ListTensorDesc() = default;
  // length (bytes) and shapeSize (the pointer count) check the list when given
  ListTensorDesc(__gm__ void *data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff,
                 sim::Loc loc = {}) {
    Init(data, length, shapeSize, loc);
  }
  void Init(__gm__ void *data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff,
            sim::Loc loc = {}) {
    list_.SetGlobalBuffer(static_cast<__gm__ uint8_t *>(data), loc);
    length_ = length;
    shapeSize_ = shapeSize;
    query(0, 0, 0, loc);
  }
  template <class T>
  void GetDesc(TensorDesc<T> &desc, uint32_t index, sim::Loc loc = {}) {
    query(6, index, 0, loc);
    desc.dim_ = static_cast<uint64_t>(query(2, index, 0, loc));
    desc.index_ = static_cast<uint64_t>(query(3, index, 0, loc));
    for (uint64_t i = 0; desc.shape_ && i < desc.dim_; i++)
      desc.shape_[i] = static_cast<uint64_t>(query(4, index, static_cast<int64_t>(i), loc));
    desc.ptr_ = GetDataPtr<T>(index, loc);
  }
  template <class T>
  __gm__ T *GetDataPtr(uint32_t index, sim::Loc loc = {}) {
    return reinterpret_cast<__gm__ T *>(static_cast<intptr_t>(query(5, index, 0, loc)));
  }
  uint32_t GetSize(sim::Loc loc = {}) { return static_cast<uint32_t>(query(1, 0, 0, loc)); }

 private:
  int64_t query(int what, int64_t index, int64_t offset, sim::Loc loc) {
    const int64_t v[5] = {what, length_, shapeSize_, index, offset};
    int64_t out = 0;
    sim::check(sim::api()->vec_more(sim::ctx, PYASC_SIM_VEC_LIST_DESC, v, nullptr, list_.gt, 0,
                                    &out, loc.file, loc.line));
    return out;
  }
  GlobalTensor<uint8_t> list_;
  int64_t length_ = 0xffffffff, shapeSize_ = 0xffffffff;
};

}  // namespace AscendC
