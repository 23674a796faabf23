"""PyAsc's ``asc.language.adv``: the advanced APIs (Matmul, math, softmax, ...).

They are pyasc's ``pyasc.language.adv`` where that module exists; until then
this module is empty. The top level's ``asc.exp`` and friends are the basic
vector instructions, as in PyAsc, so adv names are not taken from there."""

import importlib
import importlib.util

from asc import _upstream_names
from asc._reexport import export

if importlib.util.find_spec("pyasc.language.adv") is not None:
    _adv = importlib.import_module("pyasc.language.adv")
    __all__ = export(globals(), _upstream_names.ADV, vars(_adv))
else:
    __all__: list = []
