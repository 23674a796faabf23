"""PyAsc's ``asc.runtime.jit``: the kernel decorator and the placeholder
arguments a kernel can be compiled for without memory."""

from pyasc.language.jit import JITFunction, MockTensor, MockValue, jit

__all__ = ["JITFunction", "MockTensor", "MockValue", "jit"]
