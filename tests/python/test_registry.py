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


def test_system_apis_have_their_handlers() -> None:
    handlers = registry.registered()
    for api in ("get_system_cycle", "print_time_stamp", "data_cache_clean_and_invalid",
                "check_local_memory_ia", "ib_set", "ib_wait", "notify_next_block",
                "wait_pre_block", "set_hccl_context"):
        assert handlers[api].__module__ == "pyasc.language.lower.system"


def test_vector_moves_layout_and_fwk_apis_have_their_handlers() -> None:
    handlers = registry.registered()
    for api, module in (("transpose", "vector_moves"), ("gather", "vector_moves"),
                        ("scatter", "vector_moves"), ("brcb", "vector_moves"),
                        ("add_relu", "vector_moves"), ("trans_data_to_5hd", "layout"),
                        ("bilinear_interpolation", "layout"), ("sync_all", "fwk"),
                        ("set_atomic_add", "fwk"), ("get_store_atomic_config", "fwk"),
                        ("init_const_value", "fwk"), ("get_shape_size", "fwk")):
        assert handlers[api].__module__ == f"pyasc.language.lower.{module}"
