// pyasc._npu_device: torch's PrivateUse1 backend (named "npu" by
// pyasc/npu.py) over pyasc's simulated device. Optional, built only where
// torch is present; the only C++ in pyasc.
//
// Memory comes from pyasc's caching allocator, reached through the
// pyasc._C._ext_api capsule (include/asc/ext.h). pyasc's device memory is
// host memory, so torch's CPU kernels compute on npu tensors: a boxed
// fallback hands each operator CPU tensors that alias the npu tensors'
// memory (no copy), then turns the results back into npu tensors: a result
// that aliases an argument's memory stays a view of it, a new one is copied
// into pyasc memory. Allocation, copies, resizing and the view operators are
// registered directly.
#include <Python.h>

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/EmptyTensor.h>
#include <ATen/core/Tensor.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/detail/PrivateUse1HooksInterface.h>
#include <ATen/ops/_reshape_alias_native.h>
#include <ATen/ops/as_strided_native.h>
#include <ATen/ops/view_native.h>
#include <c10/core/Allocator.h>
#include <c10/core/CPUAllocator.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <torch/library.h>

#include <cstring>
#include <unordered_map>
#include <vector>

#include "asc/ext.h"

namespace {

const asc_ext_api *api = nullptr;  // set by install(); static storage in pyasc._C

const asc_ext_api &rt() {
  TORCH_CHECK(api, "pyasc's npu device is not installed (import pyasc first)");
  return *api;
}

void check(asc_status st, const char *what) {
  TORCH_CHECK(st == ASC_OK, "pyasc npu device: ", what, " failed: ", rt().last_error());
}

constexpr c10::DeviceType kNpu = c10::DeviceType::PrivateUse1;

// --- memory -----------------------------------------------------------------

void npu_delete(void *ptr) {
  if (ptr && api) api->mem_free(ptr);
}

struct NpuAllocator final : c10::Allocator {
  c10::DataPtr allocate(size_t nbytes) override {
    int device = rt().device_current();
    void *ptr = nullptr;
    check(rt().mem_alloc(device, nbytes, &ptr), "allocation");
    return {ptr, ptr, &npu_delete, c10::Device(kNpu, static_cast<c10::DeviceIndex>(device))};
  }
  c10::DeleterFnPtr raw_deleter() const override { return &npu_delete; }
  void copy_data(void *dst, const void *src, std::size_t n) const override {
    std::memcpy(dst, src, n);  // device memory is host memory
  }
};

NpuAllocator allocator;

// --- devices and streams ------------------------------------------------------

struct NpuGuard final : c10::impl::DeviceGuardImplInterface {
  c10::DeviceType type() const override { return kNpu; }
  c10::Device exchangeDevice(c10::Device d) const override {
    c10::Device old = getDevice();
    if (old.index() != d.index()) setDevice(d);
    return old;
  }
  c10::Device getDevice() const override {
    return {kNpu, static_cast<c10::DeviceIndex>(rt().device_current())};
  }
  void setDevice(c10::Device d) const override {
    check(rt().device_set(d.index() < 0 ? 0 : d.index()), "set_device");
  }
  void uncheckedSetDevice(c10::Device d) const noexcept override {
    if (api) api->device_set(d.index() < 0 ? 0 : d.index());
  }
  // torch sees one stream per device: work on npu tensors runs on the host
  // at once, and pyasc waits for a kernel launched on them before returning.
  c10::Stream getStream(c10::Device d) const override {
    return c10::Stream(c10::Stream::DEFAULT, d);
  }
  c10::Stream exchangeStream(c10::Stream s) const override {
    return c10::Stream(c10::Stream::DEFAULT, s.device());
  }
  c10::DeviceIndex deviceCount() const noexcept override {
    int n = 0;
    return api && api->device_count(&n) == ASC_OK ? static_cast<c10::DeviceIndex>(n) : 0;
  }
  void synchronizeDevice(c10::DeviceIndex index) const override {
    check(rt().device_synchronize(index < 0 ? rt().device_current() : index), "synchronize");
  }
};

C10_REGISTER_GUARD_IMPL(PrivateUse1, NpuGuard)

struct NpuHooks final : at::PrivateUse1HooksInterface {
  bool isBuilt() const override { return true; }
  bool isAvailable() const override { return api != nullptr; }
  // Random numbers come from torch's CPU generator (the CPU kernels draw them).
  const at::Generator &getDefaultGenerator(c10::DeviceIndex) const override {
    return at::detail::getDefaultCPUGenerator();
  }
  at::Device getDeviceFromPtr(void *) const override {
    return {kNpu, static_cast<c10::DeviceIndex>(rt().device_current())};
  }
  bool hasPrimaryContext(c10::DeviceIndex) const override { return true; }
  void resizePrivateUse1Bytes(const c10::Storage &storage, size_t newsize) const override;
};

NpuHooks hooks;

// Grows or shrinks storage to newsize bytes, keeping its leading contents.
void resize_bytes(c10::StorageImpl *storage, size_t newsize) {
  TORCH_CHECK(storage->resizable(), "Trying to resize storage that is not resizable");
  c10::DataPtr fresh = allocator.allocate(newsize);
  size_t keep = std::min(newsize, storage->nbytes());
  if (keep) std::memcpy(fresh.get(), storage->data(), keep);
  storage->set_data_ptr_noswap(std::move(fresh));
  storage->set_nbytes(newsize);
}

void NpuHooks::resizePrivateUse1Bytes(const c10::Storage &storage, size_t newsize) const {
  resize_bytes(storage.unsafeGetStorageImpl(), newsize);
}

// --- kernels ------------------------------------------------------------------

const c10::DispatchKeySet npu_keys(c10::DispatchKey::PrivateUse1);

at::Tensor npu_empty(c10::IntArrayRef size, std::optional<at::ScalarType> dtype,
                     std::optional<at::Layout>, std::optional<at::Device> device,
                     std::optional<bool>, std::optional<at::MemoryFormat> memory_format) {
  c10::DeviceGuard guard(device.value_or(c10::Device(kNpu)));
  return at::detail::empty_generic(size, &allocator, npu_keys, c10::dtype_or_default(dtype),
                                   memory_format);
}

at::Tensor npu_empty_strided(c10::IntArrayRef size, c10::IntArrayRef stride,
                             std::optional<at::ScalarType> dtype, std::optional<at::Layout>,
                             std::optional<at::Device> device, std::optional<bool>) {
  c10::DeviceGuard guard(device.value_or(c10::Device(kNpu)));
  return at::detail::empty_strided_generic(size, stride, &allocator, npu_keys,
                                           c10::dtype_or_default(dtype));
}

const at::Tensor &npu_resize(const at::Tensor &self, c10::IntArrayRef size,
                             std::optional<at::MemoryFormat> memory_format) {
  c10::TensorImpl *impl = self.unsafeGetTensorImpl();
  impl->set_sizes_contiguous(size);
  size_t needed = 0;
  if (impl->numel() > 0)
    needed = (impl->storage_offset() + impl->numel()) * self.dtype().itemsize();
  c10::StorageImpl *storage = impl->unsafe_storage().unsafeGetStorageImpl();
  if (needed > storage->nbytes()) resize_bytes(storage, needed);
  if (memory_format) impl->empty_tensor_restride(*memory_format);
  return self;
}

// self over source's memory (set_): npu storages only.
at::Tensor &npu_set_storage(at::Tensor &self, at::Storage source, int64_t offset,
                            c10::IntArrayRef size, c10::IntArrayRef stride) {
  TORCH_CHECK(source.device().type() == kNpu, "set_: the storage is on ", source.device(),
              ", not an npu device");
  TORCH_CHECK(offset >= 0, "set_: negative storage offset ", offset);
  c10::TensorImpl *impl = self.unsafeGetTensorImpl();
  impl->set_storage_keep_dtype(std::move(source));
  if (stride.empty())
    impl->set_sizes_contiguous(size);
  else
    impl->set_sizes_and_strides(size, stride);
  impl->set_storage_offset(offset);
  size_t needed = 0;
  if (impl->numel() > 0) {
    int64_t last = offset;
    for (int64_t d = 0; d < impl->dim(); d++) last += (impl->size(d) - 1) * impl->stride(d);
    needed = static_cast<size_t>(last + 1) * self.dtype().itemsize();
  }
  c10::StorageImpl *storage = impl->unsafe_storage().unsafeGetStorageImpl();
  if (needed > storage->nbytes()) resize_bytes(storage, needed);
  return self;
}

at::Tensor &npu_set_source_storage(at::Tensor &self, at::Storage source) {
  int64_t n = static_cast<int64_t>(source.nbytes() / self.dtype().itemsize());
  return npu_set_storage(self, std::move(source), 0, {n}, {});
}

at::Tensor &npu_set_tensor(at::Tensor &self, const at::Tensor &source) {
  return npu_set_storage(self, source.storage(), source.storage_offset(), source.sizes(),
                         source.strides());
}

at::Tensor &npu_set_empty(at::Tensor &self) {
  c10::Storage empty(c10::Storage::use_byte_size_t(), 0, allocator.allocate(0), &allocator,
                     /*resizable=*/true);
  return npu_set_storage(self, std::move(empty), 0, {0}, {});
}

// A CPU tensor over t's memory. Tensors that share a storage get CPU tensors
// that share one storage too, so that CPU kernels see their overlap. The CPU
// storage is resizable (with CPU memory): an out= kernel that resizes it is
// copied back by the fallback.
struct Aliases {
  std::unordered_map<c10::StorageImpl *, c10::Storage> storages;  // npu -> CPU

  at::Tensor of(const at::Tensor &t) {
    c10::StorageImpl *npu = t.storage().unsafeGetStorageImpl();
    auto it = storages.find(npu);
    if (it == storages.end()) {
      void *data = npu->mutable_data();
      c10::Storage cpu(c10::Storage::use_byte_size_t(), npu->nbytes(),
                       c10::DataPtr(data, c10::Device(c10::kCPU)), c10::GetCPUAllocator(),
                       /*resizable=*/true);
      it = storages.emplace(npu, std::move(cpu)).first;
    }
    at::Tensor a = at::detail::make_tensor<c10::TensorImpl>(
        c10::Storage(it->second), c10::DispatchKeySet(c10::DispatchKey::CPU), t.dtype());
    a.unsafeGetTensorImpl()->set_sizes_and_strides(t.sizes(), t.strides(), t.storage_offset());
    return a;
  }
};

bool is_npu(const at::Tensor &t) {
  return t.defined() && t.device().type() == kNpu;
}

at::Tensor npu_copy_from(const at::Tensor &self, const at::Tensor &dst, bool) {
  TORCH_CHECK(self.device().is_cpu() || is_npu(self), "npu copy: cannot copy from ", self.device());
  TORCH_CHECK(dst.device().is_cpu() || is_npu(dst), "npu copy: cannot copy to ", dst.device());
  Aliases aliases;
  at::Tensor src = is_npu(self) ? aliases.of(self) : self;
  at::Tensor out = is_npu(dst) ? aliases.of(dst) : dst;
  out.copy_(src);
  return dst;
}

at::Tensor npu_copy_from_and_resize(const at::Tensor &self, const at::Tensor &dst) {
  if (is_npu(dst))
    npu_resize(dst, self.sizes(), std::nullopt);
  else
    dst.resize_(self.sizes());
  return npu_copy_from(self, dst, false);
}

// A new npu tensor holding a copy of CPU tensor t.
at::Tensor to_npu(const at::Tensor &t, c10::Device device) {
  at::Tensor out =
      npu_empty(t.sizes(), t.scalar_type(), std::nullopt, device, std::nullopt, std::nullopt);
  Aliases aliases;
  aliases.of(out).copy_(t);
  return out;
}

struct Arg {
  at::Tensor npu;    // the caller's tensor
  at::Tensor alias;  // its CPU alias handed to the kernel
};

void fallback(const c10::OperatorHandle &op, torch::jit::Stack *stack) {
  const auto &schema = op.schema();
  const size_t nargs = schema.arguments().size();
  const size_t base = stack->size() - nargs;
  Aliases aliases;
  std::vector<Arg> args;
  c10::Device device(kNpu, static_cast<c10::DeviceIndex>(rt().device_current()));
  auto convert = [&](const at::Tensor &t) -> at::Tensor {
    if (!is_npu(t)) return t;
    device = t.device();
    at::Tensor a = aliases.of(t);
    args.push_back({t, a});
    return a;
  };
  for (size_t i = base; i < stack->size(); i++) {
    c10::IValue &v = (*stack)[i];
    if (v.isTensor()) {
      v = convert(v.toTensor());
    } else if (v.isTensorList()) {
      c10::List<at::Tensor> list;
      for (const at::Tensor &t : v.toTensorVector()) list.push_back(convert(t));
      v = list;
    } else if (v.isList()) {  // Tensor?[] (index)
      auto list = v.toList();
      bool tensors = false;
      for (const c10::IValue &e : list) tensors |= e.isTensor();
      if (tensors) {
        c10::List<std::optional<at::Tensor>> out;
        for (const c10::IValue &e : list)
          out.push_back(e.isTensor() ? std::optional<at::Tensor>(convert(e.toTensor()))
                                     : std::nullopt);
        v = out;
      }
    }
  }
  {
    c10::DeviceGuard guard(device);
    op.redispatchBoxed(c10::DispatchKeySet(c10::DispatchKey::CPU), stack);
  }
  // Arguments a kernel resized (out=) moved to CPU memory: copy them back.
  for (Arg &a : args) {
    const void *mem = a.npu.storage().data();
    if (a.alias.storage().data() != mem || a.alias.sizes() != a.npu.sizes()) {
      npu_resize(a.npu, a.alias.sizes(), std::nullopt);
      if (a.alias.strides() != a.npu.strides())
        a.npu.unsafeGetTensorImpl()->set_sizes_and_strides(a.alias.sizes(), a.alias.strides(),
                                                           a.npu.storage_offset());
      Aliases back;
      if (a.alias.storage().data() != a.npu.storage().data()) back.of(a.npu).copy_(a.alias);
    }
  }
  auto result = [&](const at::Tensor &r) -> at::Tensor {
    if (!r.defined() || !r.device().is_cpu()) return r;
    for (const Arg &a : args)
      if (r.unsafeGetTensorImpl() == a.alias.unsafeGetTensorImpl()) return a.npu;
    for (const Arg &a : args)  // a view of an argument's memory stays one
      if (r.storage().unsafeGetStorageImpl() == a.alias.storage().unsafeGetStorageImpl() &&
          a.alias.storage().data() == a.npu.storage().data()) {
        at::Tensor v = at::detail::make_tensor<c10::TensorImpl>(c10::Storage(a.npu.storage()),
                                                                a.npu.key_set(), r.dtype());
        v.unsafeGetTensorImpl()->set_sizes_and_strides(r.sizes(), r.strides(), r.storage_offset());
        return v;
      }
    return to_npu(r, device);
  };
  const size_t nret = schema.returns().size();
  for (size_t i = stack->size() - nret; i < stack->size(); i++) {
    c10::IValue &v = (*stack)[i];
    if (v.isTensor()) {
      v = result(v.toTensor());
    } else if (v.isTensorList()) {
      c10::List<at::Tensor> list;
      for (const at::Tensor &t : v.toTensorVector()) list.push_back(result(t));
      v = list;
    }
  }
}

TORCH_LIBRARY_IMPL(_, PrivateUse1, m) {
  m.fallback(torch::CppFunction::makeFromBoxedFunction<&fallback>());
}

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("empty.memory_format", npu_empty);
  m.impl("empty_strided", npu_empty_strided);
  m.impl("resize_", npu_resize);
  m.impl("_copy_from", npu_copy_from);
  m.impl("_copy_from_and_resize", npu_copy_from_and_resize);
  m.impl("set_.source_Storage_storage_offset", npu_set_storage);
  m.impl("set_.source_Storage", npu_set_source_storage);
  m.impl("set_.source_Tensor", npu_set_tensor);
  m.impl("set_", npu_set_empty);
  m.impl("as_strided", at::native::as_strided_tensorimpl);
  m.impl("view", at::native::view);
  m.impl("_reshape_alias", at::native::_reshape_alias);
}

// A CPU tensor over an npu tensor's memory that keeps that memory alive:
// what pyasc shares (by DLPack) when a kernel takes an npu tensor.
void release_storage(void *ctx) {
  delete static_cast<c10::Storage *>(ctx);
}

at::Tensor host_view(const at::Tensor &t) {
  c10::StorageImpl *npu = t.storage().unsafeGetStorageImpl();
  void *data = npu->mutable_data();
  auto *keep = new c10::Storage(t.storage());
  c10::Storage cpu(c10::Storage::use_byte_size_t(), npu->nbytes(),
                   c10::DataPtr(data, keep, &release_storage, c10::Device(c10::kCPU)), nullptr,
                   /*resizable=*/false);
  at::Tensor v = at::detail::make_tensor<c10::TensorImpl>(
      std::move(cpu), c10::DispatchKeySet(c10::DispatchKey::CPU), t.dtype());
  v.unsafeGetTensorImpl()->set_sizes_and_strides(t.sizes(), t.strides(), t.storage_offset());
  return v;
}

TORCH_LIBRARY(pyasc_npu, m) {
  m.def("host_view(Tensor(a) self) -> Tensor(a)");
}

TORCH_LIBRARY_IMPL(pyasc_npu, PrivateUse1, m) {
  m.impl("host_view", host_view);
}

// --- Python -------------------------------------------------------------------

PyObject *install(PyObject *, PyObject *capsule) {
  auto *table =
      static_cast<const asc_ext_api *>(PyCapsule_GetPointer(capsule, ASC_EXT_API_CAPSULE));
  if (!table) return nullptr;
  if (table->version != ASC_EXT_API_VERSION)
    return PyErr_Format(PyExc_RuntimeError,
                        "pyasc._npu_device: runtime table version %d, expected %d", table->version,
                        ASC_EXT_API_VERSION);
  if (!api) {
    api = table;
    c10::SetAllocator(kNpu, &allocator);
    at::RegisterPrivateUse1HooksInterface(&hooks);
  }
  Py_RETURN_NONE;
}

PyMethodDef methods[] = {
    {"install", install, METH_O,
     "install(capsule, /)\n--\n\nTakes pyasc's runtime table (pyasc._C._ext_api) and makes "
     "torch's PrivateUse1 device allocate from it."},
    {nullptr, nullptr, 0, nullptr},
};

PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    "pyasc._npu_device",
    "torch's PrivateUse1 backend over pyasc's simulated device.",
    -1,
    methods,
    nullptr,
    nullptr,
    nullptr,
    nullptr,
};

}  // namespace

PyMODINIT_FUNC PyInit__npu_device(void) {
  return PyModule_Create(&module);
}
