"""The lowerings' registry (pyasc.language.ir.registry): one handler per name."""

from __future__ import annotations

import pytest

from pyasc.language.ir import registry
from pyasc.language.lower import adv as lower_adv
from pyasc.language.lower import core as lower_core


def test_a_name_lowered_twice_is_an_error() -> None:
    name = "test_registry.twice"

    @registry.lowers(name)
    def first(gen, node, api, args, kwargs):  # type: ignore[no-untyped-def]
        return None

    with pytest.raises(registry.DuplicateLowering, match="lowered twice"):
        @registry.lowers(name)
        def second(gen, node, api, args, kwargs):  # type: ignore[no-untyped-def]
            return None

    assert registry.lowering_for(name) is first


def test_every_adv_api_has_its_handler() -> None:
    assert lower_core.api_call is not None  # the dispatch imports every family
    handlers = registry.registered()
    for api in lower_adv.APIS:
        assert handlers[f"adv.{api}"].__module__ == lower_adv.__name__
