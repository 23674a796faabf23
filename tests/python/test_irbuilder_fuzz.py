"""Random call sequences on the internal ``_C.IRBuilder`` (and the launch
objects made without ``__init__``): every sequence ends in results or in
pyasc/TypeError/ValueError/OverflowError exceptions, never in a crash of the
process. 3,000 sequences in all, bounded in size so that the run stays short."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pyasc
from pyasc import _C

# Exceptions a misuse may raise: pyasc's own, argument errors from the binding.
ALLOWED = (pyasc.Error, TypeError, ValueError, OverflowError)

OP_NAMES = [
    "arith.add", "arith.truediv", "arith.lt", "arith.not", "arith.shl", "arith.select",
    "arith.to_int", "arith.to_float", "get_block_idx", "addr.offset", "global.new",
    "global.slice", "global.get_value", "global.set_value", "local.new", "local.slice",
    "local.get_value", "local.reinterpret_cast", "pipe.new", "pipe.init_buffer",
    "pipe.init_tbuf", "pipe.reset", "que.new", "que.alloc_tensor", "que.enque", "que.deque",
    "que.free_tensor", "tbuf.new", "tbuf.get", "tbuf.get_with_offset", "data_copy", "copy",
    "duplicate", "add", "adds", "exp", "add.l0", "cast", "compare", "select", "reduce_sum",
    "whole_reduce_sum", "set_vector_mask", "set_flag", "wait_flag", "pipe_barrier", "printf",
    "data_copy.params", "data_copy_pad", "dump_tensor", "trap", "nonexistent", "",
]
KINDS = ["void", "bool", "int", "float", "addr", "global", "local", "pipe", "que", "tbuf",
         "nope"]
DTYPES = [None, "float32", "float16", "int32", "int8", "uint8", "bfloat16"]

values = st.integers(min_value=0, max_value=40) | st.sampled_from([2**32 - 1, 2**32, -1])
small = st.integers(min_value=-3, max_value=300) | st.sampled_from([2**63 - 1, -2**63, 2**31])
types = st.tuples(st.sampled_from(KINDS), st.sampled_from(DTYPES),
                  st.integers(min_value=-1, max_value=300), st.integers(min_value=-1, max_value=300))
texts = st.text(max_size=12) | st.sampled_from(["%d %d %f %s %n", "??/\"", "a\rb\\"])
consts = (st.booleans() | st.integers(min_value=-2**64, max_value=2**64)
          | st.floats(allow_nan=True, allow_infinity=True))

# (method, strategy of its argument tuple)
CALLS = {
    "param": st.tuples(texts, types),
    "const": st.tuples(consts),
    "var": st.tuples(texts, types | values),
    "load": st.tuples(values),
    "store": st.tuples(values, values),
    "op": st.tuples(st.sampled_from(OP_NAMES), st.lists(values, max_size=13),
                    st.lists(small, max_size=9), st.none() | texts),
    "for_begin": st.tuples(values, values, values),
    "for_end": st.just(()),
    "while_begin": st.just(()),
    "while_body": st.tuples(values),
    "while_end": st.just(()),
    "if_begin": st.tuples(values),
    "else_": st.just(()),
    "if_end": st.just(()),
    "finish": st.just(()),
    "verify": st.just(()),
    "fold": st.just(()),
    "check_ub": st.tuples(st.integers(min_value=0, max_value=2**20)),
    "text": st.just(()),
    "emit_c": st.just(()),
    "check_sync": st.just(()),
    "insert_sync": st.just(()),
    "emit_ascendc": st.just(()),
    "name": st.tuples(values, texts),
    "type_of": st.tuples(values),
    "set_loc": st.tuples(st.integers(min_value=0, max_value=2**32 - 1),
                         st.integers(min_value=0, max_value=2**32 - 1)),
    "file_index": st.tuples(texts),
}
call = st.sampled_from(sorted(CALLS)).flatmap(lambda m: st.tuples(st.just(m), CALLS[m]))
sequences = st.lists(call, max_size=40)

FUZZ = settings(max_examples=1000, deadline=None, database=None, derandomize=True,
                suppress_health_check=list(HealthCheck))


# Values of every kind first, so that random operand ids often type-check
# and the sequences reach the passes and emitters with real ops.
PRELUDE = [
    ("param", ("x", ("addr", "float32"))), ("param", ("n", ("int",))),
    ("param", ("s", ("float",))), ("param", ("f", ("bool",))),
    ("const", (32,)), ("const", (1.5,)), ("const", (True,)),
    ("op", ("pipe.new", [])), ("op", ("que.new", [], [9, 2])), ("op", ("que.new", [], [10, 1])),
    ("op", ("tbuf.new", [], [11])), ("op", ("global.new", [1])),
    ("op", ("pipe.init_buffer", [8, 9, 7, 5])), ("op", ("que.alloc_tensor", [9], [1])),
    ("op", ("que.alloc_tensor", [10], [1])), ("op", ("tbuf.get", [11, 5], [1])),
]


def run_sequence(builder, seq, prelude=()) -> None:
    for method, args in [*prelude, *seq]:
        try:
            getattr(builder, method)(*args)
        except ALLOWED:
            pass
    for method in ("text", "finish", "verify", "fold", "insert_sync", "check_sync", "emit_c",
                   "emit_ascendc", "text"):
        try:
            getattr(builder, method)()
        except ALLOWED:
            pass


@FUZZ
@given(sequences)
def test_random_sequences_on_a_builder(seq):
    run_sequence(_C.IRBuilder("k", "k.py"), seq, PRELUDE)


@FUZZ
@given(sequences)
def test_random_sequences_on_a_builder_made_without_init(seq):
    run_sequence(_C.IRBuilder.__new__(_C.IRBuilder), seq)


@FUZZ
@given(st.lists(call, max_size=12), sequences)
def test_random_sequences_after_reinit(first, seq):
    builder = _C.IRBuilder("k", "k.py")
    run_sequence(builder, first, PRELUDE)
    builder.__init__("k2", "k2.py")  # starts over on a fresh module
    run_sequence(builder, seq, PRELUDE)


def test_uninitialised_builder_raises_a_pyasc_error():
    builder = _C.IRBuilder.__new__(_C.IRBuilder)
    for method in ("text", "finish", "emit_c", "fold"):
        with pytest.raises(pyasc.InternalError, match="not initialised"):
            getattr(builder, method)()


def test_text_of_an_open_while_loop():
    builder = _C.IRBuilder("k", "k.py")
    builder.while_begin()
    assert "while" in builder.text()
    with pytest.raises(pyasc.Error, match="not finished|unclosed"):
        builder.emit_c()


def test_dispatcher_made_without_init():
    dispatcher = _C.KernelDispatcher.__new__(_C.KernelDispatcher)
    with pytest.raises(pyasc.InternalError, match="not initialised"):
        dispatcher.launch(1, None)
    with pytest.raises((pyasc.InternalError, TypeError)):
        dispatcher.insert((), None)


def test_compiled_kernel_cannot_be_made_from_python():
    with pytest.raises(TypeError):
        _C.CompiledKernel.__new__(_C.CompiledKernel)
