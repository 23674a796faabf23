"""PyAsc's ``asc.language.adv``: the advanced APIs (Matmul, math, softmax, ...),
served by :mod:`pyasc.language.adv` under PyAsc's names. The top level's
``asc.exp`` and friends are the basic vector instructions, as in PyAsc, so
adv names are not taken from there."""

from pyasc.language import adv as _adv

from asc import _upstream_names
from asc._reexport import export

__all__ = export(globals(), _upstream_names.ADV, vars(_adv))
