"""Docstrings of the device, stream and dtype functions and from_dlpack
(src/binding/device.c, stream.c, dtype.c, dlpack.c).

Each entry names its parameters, what it returns and an example that holds
on any machine (the simulated device's memory size, say, depends on the
host's). tools/gen_docstrings.py renders them; docs/contributing.md
("Docstrings") describes the fields.
"""

_device = ("device", "int or str, optional",
           "A device index, 'cpu' or 'cpu:N'; None (the default) for the calling\n"
           "thread's current device.")
_NO_DEVICE = ("InvalidValueError", "If the device does not exist.")

ENTRIES = [
    {"name": "device_count", "summary": "The number of devices.",
     "returns": ("int", "How many simulated devices there are (at least 1)."),
     "example": ">>> pyasc.device_count() >= 1\nTrue"},
    {"name": "current_device", "summary": "The calling thread's current device.",
     "returns": ("int", "Its index."),
     "example": ">>> pyasc.current_device()\n0"},
    {"name": "set_device", "summary": "Selects the calling thread's current device.",
     "params": [("device", "int or str", "A device index, 'cpu' or 'cpu:N'.")],
     "returns": ("None", "The device is current from now on, for this thread."),
     "raises": [_NO_DEVICE],
     "example": ">>> pyasc.set_device(0)\n>>> pyasc.current_device()\n0"},
    {"name": "get_device_properties", "summary": "The properties of a device.",
     "params": [_device],
     "returns": ("DeviceProperties", "A named tuple: name, backend, ai_core_count,\n"
                                     "cube_core_count, the buffer sizes in bytes, worker_threads..."),
     "raises": [_NO_DEVICE],
     "example": (">>> props = pyasc.get_device_properties()\n>>> props.backend\n'cpu'\n"
                 ">>> props.ub_size\n196608")},
    {"name": "configure_device", "summary": "Changes a simulated device's properties.",
     "details": "Work already queued keeps the old values.",
     "params": [_device,
                ("**properties", "int",
                 "New values of ai_core_count, cube_core_count, worker_threads,\n"
                 "ub_size, l1_size, l0a_size, l0b_size, l0c_size or global_mem_size.")],
     "returns": ("DeviceProperties", "The device's properties after the change."),
     "raises": [_NO_DEVICE, ("TypeError", "If a property is not one of those."),
                ("InvalidValueError", "If a value is out of range.")],
     "example": (">>> old = pyasc.get_device_properties().worker_threads\n"
                 ">>> pyasc.configure_device(worker_threads=2).worker_threads\n2\n"
                 ">>> _ = pyasc.configure_device(worker_threads=old)")},
    {"name": "synchronize", "summary": "Waits for all work queued on a device's streams.",
     "details": "Ctrl-C interrupts the wait (the work goes on).",
     "params": [_device],
     "returns": ("None", "When the work is done."),
     "raises": [("Error", "The first deferred error of the asynchronous work (a KernelError,\n"
                          "say).")],
     "example": ">>> y = pyasc.exp(pyasc.zeros(3))\n>>> pyasc.synchronize()\n>>> y.tolist()\n"
                "[1.0, 1.0, 1.0]"},
    {"name": "default_stream", "summary": "A device's default stream.", "params": [_device],
     "returns": ("Stream", "The stream work goes to unless another is made current."),
     "raises": [_NO_DEVICE],
     "example": ">>> pyasc.default_stream().device\n0"},
    {"name": "current_stream", "summary": "The calling thread's current stream on a device.",
     "params": [_device], "returns": ("Stream", "The stream new work is queued on."),
     "raises": [_NO_DEVICE],
     "example": (">>> s = pyasc.Stream()\n>>> with pyasc.stream(s):\n"
                 "...     pyasc.current_stream() == s\nTrue")},
    {"name": "set_stream", "summary": "Makes a stream current for the calling thread, on its "
                                      "device.",
     "params": [("stream", "Stream", "The stream.")],
     "returns": ("None", "New work on the stream's device is queued on it from now on."),
     "raises": [("TypeError", "If stream is not a Stream.")],
     "example": (">>> old, s = pyasc.current_stream(), pyasc.Stream()\n>>> pyasc.set_stream(s)\n"
                 ">>> pyasc.current_stream() == s\nTrue\n>>> pyasc.set_stream(old)")},
    {"name": "promote_types", "summary": "The dtype two dtypes both convert to.",
     "details": "NumPy 2's promotion rules, and bfloat16's and complex's as in\ndocs/dtypes.md.",
     "params": [("type1, type2", "dtype", "A pyasc dtype, a NumPy dtype or its name.")],
     "returns": ("dtype", "The promoted dtype."),
     "raises": [("DTypeError", "If a dtype is not one pyasc has.")],
     "example": (">>> pyasc.promote_types(pyasc.int32, pyasc.float32)\npyasc.float64\n"
                 ">>> pyasc.promote_types(pyasc.uint8, pyasc.int8)\npyasc.int16")},
    {"name": "from_dlpack", "summary": "A tensor sharing the memory of a DLPack producer.",
     "details": "Only host (kDLCPU) memory can be shared. Memory a producer marks\n"
                "read-only (the DLPack 1.x flag) gives a read-only tensor: writing to it\n"
                "raises InvalidValueError (copy=True gives a writable copy).",
     "params": [("x", "object", "Any object with __dlpack__ (NumPy, PyTorch, JAX...) or a\n"
                                "DLPack capsule, which can be consumed once."),
                ("device", "int or str, optional",
                 "The pyasc device to tag the tensor with (the current one by default)."),
                ("copy", "bool, optional", "True for a private copy instead of shared memory.")],
     "returns": ("Tensor", "The tensor over x's memory (or a copy)."),
     "raises": [("TypeError", "If x is neither a DLPack producer nor a capsule."),
                ("UnsupportedError", "If the memory is not host memory.")],
     "example": (">>> a = np.array([1.0, 2.0])\n>>> t = pyasc.from_dlpack(a)\n>>> a[1] = 7\n"
                 ">>> t\nTensor([1., 7.], dtype=float64)")},
]
