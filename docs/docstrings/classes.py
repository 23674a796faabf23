"""Docstrings of the extension's classes and of their methods but
Tensor's (src/binding/tensor.c, random.c, stream.c, memory.c, dtype.c).

A class's entry is named after it and has no Returns; a method's is
"Class.method". Random examples show properties (shape, range, a seed's
repeatability), not numbers. tools/gen_docstrings.py renders them;
docs/contributing.md ("Docstrings") describes the fields.
"""

_size = ("size", "int or tuple of int, optional", "The shape; None (the default) for one value, "
                                                  "as a 0-d tensor.")
_fdtype = ("dtype", "dtype, optional", "float64 (None, the default) or float32.")
_stream = ("stream", "Stream, optional", "The stream (the current one by default).")
G = ">>> g = pyasc.Generator(42)\n"
S = ">>> s = pyasc.Stream()\n"
_DESTROYED = ("InvalidHandleError", "If the stream was destroyed.")

ENTRIES = [
    {"name": "Tensor", "summary": "An n-dimensional array on a pyasc device.",
     "details": "Tensor(data) copies data; pyasc.asarray and pyasc.from_numpy share\n"
                "memory instead. Tensors follow NumPy's semantics: broadcasting,\n"
                "promotion, indexing, and the operators (+, @, ==...).",
     "params": [("data", "array_like", "A list, a scalar, a NumPy array or any buffer."),
                ("dtype", "dtype, optional", "The element type; data's by default (for Python\n"
                                             "data: bool, int64, float64 or complex128).")],
     "raises": [("DTypeError", "If dtype is not a dtype pyasc has.")],
     "example": (">>> t = pyasc.Tensor([[1, 2], [3, 4]])\n>>> t.shape, t.dtype\n"
                 "((2, 2), pyasc.int64)\n>>> (t + 1) * 2\nTensor([[ 4,  6],\n        [ 8, 10]], "
                 "dtype=int64)")},
    {"name": "Generator", "summary": "Random tensors from the counter-based Philox4x32-10 "
                                     "generator.",
     "details": "The same seed gives the same numbers whatever the device's thread\n"
                "count (docs/random.md).",
     "params": [("seed", "int, optional", "In [0, 2**64); None (the default) for a random one.")],
     "raises": [("InvalidValueError", "If seed is negative or too large.")],
     "example": (">>> a = pyasc.Generator(1).random(3)\n>>> b = pyasc.Generator(1).random(3)\n"
                 ">>> bool((a == b).all())\nTrue")},
    {"name": "Generator.random", "summary": "Uniform random numbers on [0, 1).",
     "details": "53 random bits for float64, 24 for float32.", "params": [_size, _fdtype],
     "returns": ("Tensor", "The numbers."),
     "raises": [("DTypeError", "If dtype is not float32 or float64.")],
     "example": (G + ">>> x = g.random((2, 3))\n>>> x.shape, bool(((x >= 0) & (x < 1)).all())\n"
                 "((2, 3), True)")},
    {"name": "Generator.standard_normal", "summary": "Random numbers from the standard normal "
                                                     "distribution.",
     "details": "By the Box-Muller transform.", "params": [_size, _fdtype],
     "returns": ("Tensor", "The numbers, of mean 0 and variance 1."),
     "raises": [("DTypeError", "If dtype is not float32 or float64.")],
     "example": G + ">>> g.standard_normal(3, dtype=pyasc.float32).dtype\npyasc.float32"},
    {"name": "Generator.integers", "summary": "Uniform random integers in [low, high).",
     "details": "Unbiased, by rejection sampling.",
     "params": [("low", "int", "The lowest value; without high, the end ([0, low))."),
                ("high", "int, optional", "One above the highest value."), _size,
                ("dtype", "dtype, optional", "An integer dtype; int64 by default."),
                ("endpoint", "bool, optional", "If true, high itself may be drawn.")],
     "returns": ("Tensor", "The integers."),
     "raises": [("InvalidValueError", "If the interval is empty.")],
     "example": (G + ">>> x = g.integers(1, 6, size=4, endpoint=True)\n"
                 ">>> x.dtype, bool(((x >= 1) & (x <= 6)).all())\n(pyasc.int64, True)")},
    {"name": "Stream", "summary": "A FIFO queue of asynchronous device work.",
     "details": "Work on different streams may overlap; events order it.",
     "params": [("device", "int or str, optional", "The device (the current one by default).")],
     "raises": [("InvalidValueError", "If the device does not exist.")],
     "example": (S + ">>> with pyasc.stream(s):\n...     y = pyasc.exp(pyasc.zeros(2))\n"
                 ">>> s.synchronize()\n>>> y.tolist()\n[1.0, 1.0]")},
    {"name": "Stream.synchronize", "summary": "Waits for all work queued on the stream.",
     "details": "Ctrl-C interrupts the wait (the work goes on).",
     "returns": ("None", "When the work is done."),
     "raises": [("Error", "The first deferred error of that work."), _DESTROYED],
     "example": S + ">>> pyasc.testing.spin(1.0, stream=s)\n>>> s.synchronize()\n>>> s.query()\nTrue"},
    {"name": "Stream.query", "summary": "Whether all work queued on the stream has completed.",
     "returns": ("bool", "True when it has."), "raises": [_DESTROYED],
     "example": S + ">>> s.synchronize()\n>>> s.query()\nTrue"},
    {"name": "Stream.wait_event", "summary": "Makes work queued on the stream from now on wait "
                                             "for an event.",
     "params": [("event", "Event", "The event, recorded on any stream.")],
     "returns": ("None", "At once: the wait is queued."), "raises": [_DESTROYED],
     "example": (">>> a, b = pyasc.Stream(), pyasc.Stream()\n>>> done = a.record_event()\n"
                 ">>> b.wait_event(done)\n>>> b.synchronize()\n>>> done.query()\nTrue")},
    {"name": "Stream.record_event", "summary": "Records an event at the current end of the "
                                               "stream's queue.",
     "params": [("event", "Event, optional", "The event to record; a new one by default.")],
     "returns": ("Event", "The event."), "raises": [_DESTROYED],
     "example": S + ">>> e = s.record_event()\n>>> e.synchronize()\n>>> e.query()\nTrue"},
    {"name": "Stream.launch_host_func", "summary": "Queues a Python function to run on the "
                                                   "stream's thread.",
     "details": "fn() runs in stream order. An exception it raises is reported as\n"
                "DeviceError at the stream's next synchronisation. fn cannot wait for\n"
                "its own stream: synchronising it there raises InvalidValueError.",
     "params": [("fn", "callable", "A function of no arguments.")],
     "returns": ("None", "At once: the call is queued."), "raises": [_DESTROYED],
     "example": (S + ">>> calls = []\n>>> s.launch_host_func(lambda: calls.append('ran'))\n"
                 ">>> s.synchronize()\n>>> calls\n['ran']")},
    {"name": "Stream.destroy", "summary": "Waits for the stream's work, then destroys it.",
     "details": "A stream is destroyed on its own when collected.",
     "returns": ("None", "Using the stream afterwards raises InvalidHandleError."),
     "example": (S + ">>> s.destroy()\n>>> s.query()\nTraceback (most recent call last):\n...\n"
                 "pyasc.InvalidHandleError: the stream was destroyed")},
    {"name": "Event", "summary": "A point in a stream's queue: record it, wait for it, time "
                                 "between two.",
     "params": [("enable_timing", "bool, optional",
                 "Whether the event can time (True by default).")],
     "example": (S + ">>> start, end = pyasc.Event(), pyasc.Event()\n>>> start.record(s)\n"
                 ">>> pyasc.testing.spin(1.0, stream=s)\n>>> end.record(s)\n>>> end.synchronize()\n"
                 ">>> start.elapsed_time(end) > 0\nTrue")},
    {"name": "Event.record", "summary": "Marks the current end of a stream's queue.",
     "params": [_stream], "returns": ("None", "At once: the event completes when the work\n"
                                              "before it has."),
     "example": S + ">>> e = pyasc.Event()\n>>> e.record(s)\n>>> e.synchronize()\n>>> e.query()\nTrue"},
    {"name": "Event.synchronize", "summary": "Waits until the work before the recorded point "
                                             "has completed.",
     "returns": ("None", "When it has."),
     "example": ">>> e = pyasc.Stream().record_event()\n>>> e.synchronize()\n>>> e.query()\nTrue"},
    {"name": "Event.query", "summary": "Whether the recorded point has been reached.",
     "returns": ("bool", "True when it has, or when the event was never recorded."),
     "example": ">>> pyasc.Event().query()\nTrue"},
    {"name": "Event.elapsed_time", "summary": "The time from this event to another, in "
                                              "milliseconds.",
     "params": [("end", "Event", "The later event.")],
     "returns": ("float", "Milliseconds of host time between the two."),
     "raises": [("InvalidValueError", "If an event has not completed or cannot time.")],
     "example": (">>> s = pyasc.Stream()\n>>> a, b = s.record_event(), s.record_event()\n"
                 ">>> b.synchronize()\n>>> a.elapsed_time(b) >= 0\nTrue")},
    {"name": "Event.wait", "summary": "Makes a stream's work queued from now on wait for this "
                                      "event.",
     "params": [_stream], "returns": ("None", "At once: the wait is queued."),
     "example": (">>> e = pyasc.Stream().record_event()\n>>> s = pyasc.Stream()\n>>> e.wait(s)\n"
                 ">>> s.synchronize()\n>>> e.query()\nTrue")},
    {"name": "Event.destroy", "summary": "Destroys the event.",
     "returns": ("None", "Using the event afterwards raises InvalidHandleError."),
     "example": ">>> e = pyasc.Event()\n>>> e.destroy()"},
    {"name": "DeviceBuffer", "summary": "Device memory, from pyasc.memory.alloc.",
     "details": "Freed by free(), at the end of a with block, or when collected.\n"
                "Host-visible memory has the buffer protocol.",
     "example": (">>> with pyasc.memory.alloc(4) as buf:\n...     buf.nbytes\n4")},
    {"name": "DeviceBuffer.free", "summary": "Returns the memory to the allocator now.",
     "details": "Freeing twice is harmless.",
     "returns": ("None", "Using the buffer afterwards raises InvalidHandleError."),
     "example": ">>> buf = pyasc.memory.alloc(4)\n>>> buf.free()\n>>> buf.free()"},
    {"name": "DeviceBuffer.record_stream", "summary": "Declares that work on another stream "
                                                      "uses the buffer.",
     "details": "Its memory is then not reused until that stream's work queued so\nfar is done.",
     "params": [("stream", "Stream", "The other stream.")],
     "returns": ("None", "At once."),
     "example": (">>> buf = pyasc.memory.alloc(4)\n>>> buf.record_stream(pyasc.Stream())\n"
                 ">>> buf.free()")},
    {"name": "dtype", "summary": "An element type: pyasc.float32 and friends.",
     "params": [("dtype", "dtype or str or type",
                 "A pyasc dtype, a name ('bfloat16'), a NumPy dtype or scalar type, or\n"
                 "bool, int or float.")],
     "raises": [("DTypeError", "If it names no dtype pyasc has.")],
     "example": (">>> pyasc.dtype('float32') == pyasc.float32\nTrue\n>>> pyasc.dtype(np.int16)\n"
                 "pyasc.int16\n>>> pyasc.dtype(float)\npyasc.float64")},
    {"name": "dtype.sizeof", "summary": "The size of one element, in bytes.",
     "returns": ("int", "The size."),
     "example": ">>> pyasc.bfloat16.sizeof(), pyasc.float64.sizeof()\n(2, 8)"},
    {"name": "DeviceProperties", "summary": "The properties of a pyasc device, a named tuple.",
     "details": "get_device_properties and configure_device return one. Its fields:\n"
                "name, backend, ai_core_count (vector cores, which run logical blocks),\n"
                "cube_core_count, ub_size, l1_size, l0a_size, l0b_size, l0c_size (bytes\n"
                "per core), data_block_size, global_mem_size, worker_threads (host\n"
                "threads running blocks) and host_visible.",
     "params": [("iterable", "sequence", "The 13 values, in the fields' order.")],
     "example": (">>> props = pyasc.get_device_properties()\n"
                 ">>> props.data_block_size, props.host_visible\n(32, True)")},
]
