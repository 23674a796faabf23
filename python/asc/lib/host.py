"""PyAsc's ``asc.lib.host``: host-side tiling helpers (Matmul tiling and the
platform query). Empty for now: pyasc does not provide them yet."""

__all__: list[str] = []
