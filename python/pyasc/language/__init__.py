"""The PyAsc kernel language: `@pyasc.jit` kernels in plain Python syntax with
APIs that map one-to-one to Ascend C. Its names are re-exported as
``pyasc.<name>`` (``pyasc.data_copy``, ``pyasc.TQue``, ...)."""
