"""The front end: walks a kernel's Python AST and builds IR through
``pyasc._C.IRBuilder``. It only builds IR; types, the op table and checks
live in libasc. Compile-time values (constants, ConstExpr parameters,
dtypes, enums) stay Python objects and are folded here with Python's own
semantics; everything else becomes IR."""

from __future__ import annotations

import ast
import builtins
import inspect
import operator
import re
import textwrap
from dataclasses import dataclass
from typing import Any, Callable

from pyasc import _C
from pyasc.language import constructs, core
from pyasc.language import struct as user_struct
from pyasc.language.lower import constructs as lower_constructs
from pyasc.language.lower import core as lower_core
from pyasc.language.builtins import SHARED_NAMES
from pyasc.language.ir.values import (PURE_FUNCTIONS, SCALAR_KINDS, BoundMethod, KernelArray,
                                      KernelStruct, PendingGlobal, Val, Var, describe,
                                      did_you_mean, enum_types, is_int, kind_name)

_OBJECT_PREFIX = {"global": "global", "local": "local", "pipe": "pipe", "que": "que", "tbuf": "tbuf"}


@dataclass
class SourceInfo:
    """Where a function's source came from, to locate errors."""

    file: str
    lines: list[str]
    first_line: int
    indent: int


class ReturnSignal(Exception):
    """Carries a device function's return value out of its body."""

    def __init__(self, value: Any, node: ast.AST) -> None:
        super().__init__()
        self.value = value
        self.node = node


def parse_function(fn: Callable) -> tuple[ast.FunctionDef, SourceInfo]:
    """The function's AST and source coordinates."""
    try:
        lines, first = inspect.getsourcelines(fn)
    except (OSError, TypeError) as exc:
        raise _C.CompileError(f"cannot read the source of {fn.__qualname__!r} ({exc}): kernels "
                              "must be defined in a file, not in an interactive string") from None
    raw = "".join(lines)
    dedented = textwrap.dedent(raw)
    indent = len(lines[0]) - len(lines[0].lstrip()) if lines else 0
    tree = ast.parse(dedented)
    node = next(n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))
    file = inspect.getsourcefile(fn) or "<unknown>"
    return node, SourceInfo(file, [ln.rstrip("\n") for ln in lines], first, indent)


#: Methods that change the tensor a name holds (pyasc.language.lower.fwk):
#: for the scan below they assign to that name.
REBINDING_METHODS = ("set_size", "set_buffer_len", "set_addr_with_offset")


def _assigned_names(body: list[ast.stmt]) -> tuple[dict[str, int], set[str]]:
    """Counts of assignments per name, and names assigned inside compound
    statements: both make a name a variable slot."""
    counts: dict[str, int] = {}
    nested: set[str] = set()

    def targets(node: ast.AST) -> list[str]:
        if isinstance(node, ast.Name):
            return [node.id]
        if isinstance(node, (ast.Tuple, ast.List)):
            return [n for e in node.elts for n in targets(e)]
        return []

    def walk(stmts: list[ast.stmt], depth: int) -> None:
        for s in stmts:
            names: list[str] = []
            if isinstance(s, ast.Assign):
                names = [n for t in s.targets for n in targets(t)]
            elif isinstance(s, (ast.AugAssign, ast.AnnAssign)):
                names = targets(s.target)
            elif isinstance(s, ast.For):
                names = targets(s.target)
            elif isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and \
                    isinstance(s.value.func, ast.Attribute) and \
                    s.value.func.attr in REBINDING_METHODS and \
                    isinstance(s.value.func.value, ast.Name):
                names = [s.value.func.value.id]  # t.set_size(n) gives t a new value
            for n in names:
                counts[n] = counts.get(n, 0) + (2 if isinstance(s, ast.AugAssign) else 1)
                if depth > 0 or isinstance(s, ast.For):
                    nested.add(n)
            for field in ("body", "orelse"):
                inner = getattr(s, field, None)
                if isinstance(inner, list) and not isinstance(s, ast.FunctionDef):
                    walk(inner, depth + 1)

    walk(body, 0)
    return counts, nested


class Scope:
    """Bindings of one function body (a kernel or an inlined device function)."""

    def __init__(self, fn: Callable, node: ast.FunctionDef, source: SourceInfo) -> None:
        self.fn = fn
        self.node = node
        self.source = source
        self.bindings: dict[str, Any] = {}
        counts, nested = _assigned_names(node.body)
        self.mutable = {n for n, c in counts.items() if c > 1} | nested
        closure = inspect.getclosurevars(fn)
        self.outer = {**fn.__globals__, **closure.nonlocals}
        #: attribute names assigned anywhere in the body (struct fields that
        #: become variable slots)
        self.assigned_attrs = {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)
                               and isinstance(n.ctx, ast.Store)}


class CodeGenerator(ast.NodeVisitor):
    """Builds one kernel's IR from its AST (and inlines device functions)."""

    def __init__(self, fn: Callable, arg_specs: list[tuple[str, Any]], ub_size: int) -> None:
        node, source = parse_function(fn)
        self.builder = _C.IRBuilder(fn.__name__, source.file)
        self.scope = Scope(fn, node, source)
        self.arg_specs = arg_specs
        self.ub_size = ub_size
        self.has_pipe = False
        self.pipe: Val | None = None  # the kernel's TPipe (pipe.new), LocalTensorAuto's source
        self.sources: dict[int, SourceInfo] = {}  # IR file index -> its source
        # IR value id -> the variable slot it was loaded from: what a value
        # read from a variable names across reads (shape info, say)
        self.loaded_from: dict[int, int] = {}
        self.last_stored: dict[int, int] = {}  # variable slot -> the value last stored there
        self.depth = 0  # inlining depth, against recursion
        self.rt_depth = 0  # nesting in run-time if/for/while bodies
        self.auto_ub = 0  # bytes of the UB that LocalTensorAuto has handed out
        self.auto_base: Val | None = None  # past run-time-sized automatic tensors
        self.auto_sync = False  # LocalTensorAuto used: pipes are synchronised for the user
        #: per TQue value: (dtype, what set it) of the tensors it holds
        self.que_dtypes: dict[int, tuple[Any, str]] = {}
        #: GlobalAddress parameters' names and dtypes, to name culprits
        self.addr_params: dict[str, Any] = {}

    # --- errors -----------------------------------------------------------
    def error(self, node: ast.AST | None, message: str,
              source: SourceInfo | None = None) -> Exception:
        """A CompileError pointing at node: file:line:col, the line, a caret."""
        src = source or self.scope.source
        message += self.dtype_note(message)
        if node is None or not hasattr(node, "lineno"):
            return _C.CompileError(f"{src.file}: {message}")
        line = node.lineno + src.first_line - 1
        col = node.col_offset + src.indent
        text = src.lines[node.lineno - 1] if node.lineno - 1 < len(src.lines) else ""
        caret = " " * col + "^"
        err = _C.CompileError(f"{src.file}:{line}:{col + 1}: {message}\n    {text}\n    {caret}")
        # Where in the user's code: the launch's traceback ends there (jit.py).
        err.kernel_location = (src.file, line, getattr(self.scope.fn, "__name__", "<kernel>"))
        return err

    def dtype_note(self, message: str) -> str:
        """For an error between dtypes: which GlobalAddress parameters the
        launch passed with each, naming the odd one out, since a kernel body
        that mixes them usually means an argument of the wrong dtype."""
        named = list(dict.fromkeys(str(d) for d in self.addr_params.values()))  # in order
        mentioned = [d for d in named if re.search(rf"\b{d}\b", message)]
        if len(mentioned) < 2 or len(named) < 2:
            return ""
        groups = {d: [p for p, pd in self.addr_params.items() if str(pd) == d] for d in named}
        parts = "; ".join(f"{', '.join(repr(p) for p in ps)} {d}" for d, ps in groups.items())
        odd = [ps for d, ps in groups.items() if d in mentioned and len(ps) == 1]
        culprit = f": parameter '{odd[0][0]}' contradicts the others" if len(odd) == 1 and \
            any(len(ps) > 1 for ps in groups.values()) else ""
        return f" (the launch passed {parts}{culprit})"

    def locate(self, node: ast.AST) -> None:
        """Stamps the next ops with node's place: the line, and the source
        file's index in the IR's file table in the bits above the 20th."""
        src = self.scope.source
        index = self.builder.file_index(src.file)
        self.sources[index] = src
        line = (node.lineno + src.first_line - 1) | (index << 20)
        self.builder.set_loc(line, node.col_offset + src.indent + 1)

    def ir(self, node: ast.AST, fn: Callable[..., Any], *args: Any) -> Any:
        """Calls a builder method; a libasc error becomes a located CompileError.
        Whole-function passes name the line themselves ("line N: ...")."""
        try:
            return fn(*args)
        except _C.Error as exc:
            message = str(exc)
            match = re.match(r"line (\d+): (.*)", message, re.S)
            source = None
            if match:
                encoded = int(match.group(1))
                source = self.sources.get(encoded >> 20, self.scope.source)
                line = (encoded & 0xFFFFF) - source.first_line + 1
                if 1 <= line <= len(source.lines):
                    text = source.lines[line - 1]
                    col = len(text) - len(text.lstrip())
                    node = ast.Pass(lineno=line, col_offset=col - source.indent)
                    message = match.group(2)
            raise self.error(node, message, source) from None

    def val(self, node: ast.AST, vid: int | None) -> Val | None:
        if vid is None:
            return None
        kind, dtype, position, depth = self.builder.type_of(vid)
        return Val(vid, kind, dtype, position, depth)

    def op(self, node: ast.AST, name: str, operands: list[Any], iattrs: tuple = (),
           sattr: str | None = None) -> Val | None:
        ids = [self.to_ir(node, o).id for o in operands]
        return self.val(node, self.ir(node, self.builder.op, name, ids, iattrs, sattr))

    # --- values ----------------------------------------------------------------
    def to_ir(self, node: ast.AST, value: Any) -> Val:
        """A value as IR: constants become const ops."""
        if isinstance(value, Val):
            return value
        if isinstance(value, Var):
            loaded = self.val(node, self.ir(node, self.builder.load, value.id))
            self.loaded_from[loaded.id] = value.id
            return loaded
        if isinstance(value, enum_types()):
            value = int(value)
        if isinstance(value, (bool, int, float)):
            return self.val(node, self.ir(node, self.builder.const, value))
        raise self.error(node, f"{describe(value)} cannot be used as a kernel value here")

    def store(self, node: ast.AST, slot: int, value: int) -> None:
        """Stores IR value into variable slot (and remembers it, for
        :meth:`source_of`)."""
        self.ir(node, self.builder.store, slot, value)
        self.last_stored[slot] = value

    def source_of(self, value: Val) -> int:
        """The IR value a value read from a variable was, as the code reads:
        the one last stored there before the read, else value itself. For
        compile-time facts that do not change between stores (the tensor
        whose get_phy_addr an address is)."""
        slot = self.loaded_from.get(value.id)
        return self.last_stored.get(slot, value.id) if slot is not None else value.id

    def identity(self, value: Val) -> tuple[str, int]:
        """What names value across reads: the variable it was loaded from (a
        name assigned in a loop or a branch is a variable, each read of it a
        new value), else the value itself. Compile-time facts about a tensor
        (its shape info, the addresses stored in it) are kept under this."""
        slot = self.loaded_from.get(value.id)
        return ("var", slot) if slot is not None else ("val", value.id)

    def read(self, node: ast.AST, value: Any) -> Any:
        """Loads variables; leaves constants and values alone."""
        if isinstance(value, Var):
            return self.to_ir(node, value)
        return value

    # --- kernels -----------------------------------------------------------------
    def compile(self) -> _C.IRBuilder:
        node = self.scope.node
        self.locate(node)
        params = node.args.args
        if node.args.vararg or node.args.kwarg or node.args.kwonlyargs:
            raise self.error(node, "kernels take plain positional parameters only")
        if len(params) != len(self.arg_specs):
            raise self.error(node, f"kernel takes {len(params)} arguments, got {len(self.arg_specs)}")
        for param, (kind, value) in zip(params, self.arg_specs):
            if kind == "const":
                self.scope.bindings[param.arg] = value
            elif kind == "addr":
                if "complex" in str(value):
                    raise self.error(param, f"argument '{param.arg}' is a {value} array: the AI "
                                            "core has no complex arithmetic, so kernels take real "
                                            "dtypes (pass the real and imaginary parts, e.g. "
                                            "numpy's a.view(numpy.float32))")
                vid = self.ir(param, self.builder.param, param.arg, ("addr", value))
                self.scope.bindings[param.arg] = self.val(param, vid)
                self.addr_params[param.arg] = value
            elif kind == "struct":
                self.scope.bindings[param.arg] = self.struct_param(param, param.arg, value)
            else:
                vid = self.ir(param, self.builder.param, param.arg, (kind,))
                self.scope.bindings[param.arg] = self.val(param, vid)
        for param in params:  # fields the body assigns become variable slots
            bound = self.scope.bindings.get(param.arg)
            if isinstance(bound, KernelStruct):
                self.struct_slots(param, param.arg, bound)
        mode = int(getattr(self, "core_mode", 0))
        if mode:  # the launch's core kind, fixed by the options (rt/mix.h)
            self.op(node, "core.mode", [], (mode,))
        try:
            self.visit_body(node.body)
        except ReturnSignal as ret:
            if ret.value is not None:
                raise self.error(ret.node, "a kernel cannot return a value: write results to a "
                                           "GlobalTensor") from None
        self.ir(node, self.builder.finish)
        self.ir(node, self.builder.verify)
        self.ir(node, self.builder.fold)
        self.ir(node, self.builder.check_ub, self.ub_size)
        return self.builder

    def struct_param(self, node: ast.AST, name: str, cls: type,
                     path: str | None = None) -> KernelStruct:
        """One scalar kernel parameter per field, named param_field, in the
        order Struct.flatten passes them; each carries its member path for
        the Ascend C emitter, which takes the struct whole."""
        path = (path or name) + f"/{cls.__name__}@{cls.struct_pack}"
        fields: dict[str, Any] = {}
        for fname, f in cls.struct_fields.items():
            member = f"{path}/{f.ir_name(fname)}"
            if isinstance(f, user_struct.StructField):
                fields[fname] = self.struct_param(node, f"{name}_{fname}", f.struct_cls, member)
            else:
                vid = self.ir(node, self.builder.param, f"{name}_{fname}", (f.kind,))
                self.ir(node, self.builder.member, vid, f"{member}/{f.type_name}")
                fields[fname] = self.val(node, vid)
        return KernelStruct(cls, fields)

    def struct_slots(self, node: ast.AST, name: str, value: KernelStruct,
                     assigned: set[str] | None = None) -> None:
        """Turns the fields a body assigns (by attribute name) into variable
        slots, here, before the body: an assignment inside a run-time loop or
        branch then stores to a slot that every path reads."""
        assigned = self.scope.assigned_attrs if assigned is None else assigned
        for fname, current in value.fields.items():
            if isinstance(current, KernelStruct):
                self.struct_slots(node, f"{name}_{fname}", current, assigned)
            elif fname in assigned and not isinstance(current, Var):
                ir_value = self.to_ir(node, current)
                vid = self.ir(node, self.builder.var, f"{name}_{fname}", ir_value.id)
                self.store(node, vid, ir_value.id)
                value.fields[fname] = Var(vid, ir_value.kind)

    def set_field(self, node: ast.AST, target: ast.Attribute, value: Any) -> None:
        """``struct.field = value`` (PyAsc's attribute assignment)."""
        base = self.eval(target.value)
        if isinstance(base, user_struct.Struct):
            raise self.error(target, "a host Struct is a compile-time constant in kernels: pass "
                                     "it as a kernel parameter to assign its fields")
        if not isinstance(base, KernelStruct):
            raise self.error(target, f"only struct fields can be assigned as attributes, not "
                                     f"those of {describe(base)}")
        f = base.cls.struct_fields.get(target.attr)
        what = f"{base.cls.__name__}.{target.attr}"
        if f is None:
            raise self.error(target, f"{base.cls.__name__} has no field '{target.attr}'")
        current = base.fields[target.attr]
        if isinstance(f, user_struct.StructField):
            if not isinstance(value, KernelStruct) or value.cls is not f.struct_cls:
                raise self.error(target, f"{what} holds a {f.struct_cls.__name__}, not "
                                         f"{describe(value)}")
            if self.rt_depth:
                raise self.error(target, f"{what}: a nested struct can only be replaced outside "
                                         "run-time if/for/while bodies")
            base.fields[target.attr] = value
            return
        value = self.field_value(target, f, value, what)
        if isinstance(current, Var):
            self.store(node, current.id, self.to_ir(node, value).id)
        elif self.rt_depth:
            raise self.error(target, f"{what} is assigned inside a run-time if/for/while but is "
                                     "not a variable: assign it once before the loop or branch "
                                     "(fields of struct parameters assigned in the kernel "
                                     "always are)")
        else:
            base.fields[target.attr] = value

    def field_value(self, node: ast.AST, f: Any, value: Any, what: str) -> Any:
        """A field's new value: constants wrap as the field's C type would;
        run-time values must be scalars of a kind the field accepts."""
        if isinstance(value, Val):
            if value.kind not in SCALAR_KINDS:
                raise self.error(node, f"{what} holds a number, not {describe(value)}")
            if f.kind == "int" and value.kind == "float":
                raise self.error(node, f"{what} is an integer field: convert with int(...)")
            return value
        try:
            return f.convert(value, what)
        except TypeError as exc:
            raise self.error(node, str(exc)) from None

    # --- statements ----------------------------------------------------------------
    def visit_body(self, body: list[ast.stmt]) -> None:
        for i, stmt in enumerate(body):
            self.locate(stmt)
            if isinstance(stmt, ast.Return):
                if i != len(body) - 1:
                    raise self.error(stmt, "return is only supported as the last statement: "
                                           "use if/else so that it comes last")
                value = self.eval(stmt.value) if stmt.value is not None else None
                raise ReturnSignal(self.read(stmt, value), stmt)
            self.visit(stmt)

    def visit_run_time_body(self, body: list[ast.stmt]) -> None:
        """A body under a run-time condition or loop, which cannot return:
        the IR's region would be left open."""
        try:
            self.visit_body(body)
        except ReturnSignal as ret:
            raise self.error(ret.node, "return inside a run-time if or loop is not supported: "
                                       "assign the result to a variable and return it at the "
                                       "end") from None

    def generic_visit(self, node: ast.AST) -> None:
        hints = {
            ast.Break: "break is not supported in kernels: loop with a condition instead",
            ast.Continue: "continue is not supported in kernels: use an if around the rest",
            ast.Try: "try/except is not supported in kernels: errors stop the kernel and "
                     "surface as pyasc.KernelError; test values with if instead",
            ast.Raise: "raise is not supported in kernels: use assert on compile-time values",
            ast.FunctionDef: "nested functions are not supported: decorate a module-level "
                             "function with @pyasc.jit and call it",
            ast.ClassDef: "classes cannot be defined in kernels",
            ast.Delete: "del is not supported in kernels: names live until the kernel ends; "
                        "rebind the name or stop using it",
            ast.Global: "global is not supported in kernels: read module-level constants "
                        "directly and pass changing values as kernel parameters",
            ast.Nonlocal: "nonlocal is not supported in kernels: read enclosing constants "
                          "directly and pass changing values as kernel parameters",
            ast.Import: "import is not supported in kernels: import at module level",
            ast.ImportFrom: "import is not supported in kernels: import at module level",
            ast.AsyncFor: "async code is not supported in kernels",
            ast.Match: "match is not supported in kernels: use if/elif",
        }
        message = hints.get(type(node), f"{type(node).__name__} is not supported in kernels")
        raise self.error(node, message)

    def visit_Pass(self, node: ast.Pass) -> None:
        return None

    def visit_Expr(self, node: ast.Expr) -> None:
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return None  # docstring
        self.eval(node.value)

    def assign(self, node: ast.AST, target: ast.AST, value: Any) -> None:
        if isinstance(target, (ast.Tuple, ast.List)):
            if not isinstance(value, (tuple, list)) or len(value) != len(target.elts):
                raise self.error(target, "can only unpack a tuple of the same length")
            for t, v in zip(target.elts, value):
                self.assign(node, t, v)
            return
        if isinstance(target, ast.Attribute):
            self.set_field(node, target, value)
            return
        if isinstance(target, ast.Subscript):
            base = self.read(target, self.eval(target.value))
            if isinstance(base, KernelArray):
                lower_constructs.array_store(self, target, base, self.eval(target.slice), value)
                return
        if not isinstance(target, ast.Name):
            raise self.error(target, "only names can be assigned in kernels (use set_value for "
                                     "elements)")
        name = target.id
        current = self.scope.bindings.get(name)
        # A list or tuple of values made in a loop's body (trans_data_to_5hd's
        # tensor lists, say) binds as it is, as a struct does: no variable
        # slot holds a Python list.
        listed = isinstance(value, (tuple, list)) and not isinstance(current, Var)
        if name not in self.scope.mutable or listed or \
                isinstance(value, (PendingGlobal, core.StructValue, KernelStruct, KernelArray)) or \
                getattr(value, "kernel_compile_time", False):  # asc.adv.Matmul objects
            self.scope.bindings[name] = value
            if isinstance(value, Val):  # emitted Ascend C calls it by this name
                self.builder.name(value.id, name)
            return
        ir_value = self.to_ir(node, value)
        if not isinstance(current, Var):
            vid = self.ir(node, self.builder.var, name, ir_value.id)
            current = Var(vid, ir_value.kind)
            self.scope.bindings[name] = current
        self.store(node, current.id, ir_value.id)

    def visit_Assign(self, node: ast.Assign) -> None:
        value = self.read(node, self.eval(node.value))
        for target in node.targets:
            self.assign(node, target, value)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.assign(node, node.target, self.read(node, self.eval(node.value)))

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        if isinstance(node.target, ast.Attribute):  # struct.field += v
            load = ast.Attribute(node.target.value, node.target.attr, ast.Load(),
                                 lineno=node.lineno, col_offset=node.col_offset)
            result = self.binary(node, node.op, self.read(node, self.eval(load)),
                                 self.eval(node.value))
            self.assign(node, node.target, self.read(node, result))
            return
        current = self.eval(ast.Name(node.target.id, ast.Load(), lineno=node.lineno,
                                     col_offset=node.col_offset)) \
            if isinstance(node.target, ast.Name) else None
        if current is None:
            raise self.error(node.target, "only names can be updated in kernels")
        result = self.binary(node, node.op, self.read(node, current), self.eval(node.value))
        self.assign(node, node.target, result)

    def visit_Assert(self, node: ast.Assert) -> None:
        test = self.read(node, self.eval(node.test))
        if isinstance(test, Val):
            raise self.error(node, "assert needs a compile-time condition (constants and "
                                   "ConstExpr parameters); for run-time values use an if")
        if not test:
            message = self.eval(node.msg) if node.msg is not None else "assertion failed"
            raise self.error(node, f"AssertionError: {message}")

    def visit_If(self, node: ast.If) -> None:
        test = self.read(node, self.eval(node.test))
        if not isinstance(test, Val):  # a compile-time branch
            self.visit_body(node.body if test else node.orelse)
            return
        cond = self.condition(node.test, test)
        self.ir(node, self.builder.if_begin, cond.id)
        self.rt_depth += 1
        self.visit_run_time_body(node.body)
        if node.orelse:
            self.ir(node, self.builder.else_)
            self.visit_run_time_body(node.orelse)
        self.rt_depth -= 1
        self.ir(node, self.builder.if_end)

    def visit_While(self, node: ast.While) -> None:
        if node.orelse:
            raise self.error(node, "while ... else is not supported in kernels")
        self.ir(node, self.builder.while_begin)
        test = self.read(node, self.eval(node.test))
        if not isinstance(test, Val):
            raise self.error(node.test, "a while condition must depend on run-time values (a "
                                        "constant one would never end, and break is not "
                                        "supported): loop with for i in range(n), or test a "
                                        "run-time value such as while i < n")
        self.ir(node, self.builder.while_body, self.condition(node.test, test).id)
        self.rt_depth += 1
        self.visit_run_time_body(node.body)
        self.rt_depth -= 1
        self.ir(node, self.builder.while_end)

    def visit_For(self, node: ast.For) -> None:
        if node.orelse:
            raise self.error(node, "for ... else is not supported in kernels")
        it = node.iter
        func = self.eval(it.func) if isinstance(it, ast.Call) else None
        if func is constructs.static_range:
            self.static_for(node, it)
            return
        if func is range or func is constructs.range:
            if it.keywords or not 1 <= len(it.args) <= 3:
                raise self.error(it, "range() takes 1 to 3 positional arguments in kernels")
            args = [self.read(a, self.eval(a)) for a in it.args]
            start, stop, step = (0, args[0], 1) if len(args) == 1 else \
                (args[0], args[1], args[2] if len(args) == 3 else 1)
            for a, v in zip(it.args, args):
                if isinstance(v, float) or isinstance(v, Val) and v.kind == "float":
                    raise self.error(a, "range() arguments must be integers: convert with "
                                        "int(...) or use integer arithmetic (//)")
            if not isinstance(step, Val) and step == 0:
                raise self.error(it, "range() step must not be zero")
            ids = [self.to_ir(it, v).id for v in (start, stop, step)]
            iv = self.val(node, self.ir(node, self.builder.for_begin, *ids))
            self.assign(node, node.target, iv)
            self.rt_depth += 1
            self.visit_run_time_body(node.body)
            self.rt_depth -= 1
            self.ir(node, self.builder.for_end)
            return
        items = self.read(node, self.eval(it))
        if isinstance(items, (tuple, list)):  # unrolled at compile time
            for item in items:
                self.assign(node, node.target, item)
                self.visit_body(node.body)
            return
        raise self.error(it, "kernels loop over range(...) or a tuple of compile-time values")

    def static_for(self, node: ast.For, it: ast.Call) -> None:
        """``for i in asc.static_range(...)``: unrolled at compile time."""
        if it.keywords or not 1 <= len(it.args) <= 3:
            raise self.error(it, "static_range() takes 1 to 3 positional arguments")
        args = [self.read(a, self.eval(a)) for a in it.args]
        for a, v in zip(it.args, args):
            if not isinstance(v, int) or isinstance(v, bool):
                raise self.error(a, f"static_range() bounds must be compile-time integers, not "
                                    f"{describe(v)}: use asc.range for run-time bounds")
        try:
            indices = builtins.range(*args)
        except ValueError as exc:
            raise self.error(it, f"static_range(): {exc}") from None
        if len(indices) > 4096:
            raise self.error(it, f"static_range() unrolls {len(indices)} iterations; at most "
                                 "4096: use asc.range")
        for i in indices:  # the loop variable stays a compile-time int
            if isinstance(node.target, ast.Name):
                self.scope.bindings[node.target.id] = i
            else:
                self.assign(node, node.target, i)
            self.visit_body(node.body)

    def visit_With(self, node: ast.With) -> None:
        """``with ctx [as name]:``: the context is a kernel object whose
        lowering gives enter/exit (upstream's only one is Matmul.iterate)."""
        if len(node.items) != 1:
            raise self.error(node, "a with statement in a kernel takes exactly one context")
        item = node.items[0]
        context = self.read(item.context_expr, self.eval(item.context_expr))
        enter = getattr(context, "kernel_enter", None)
        if enter is None:
            raise self.error(item.context_expr, f"{describe(context)} is not a context manager "
                                                "in kernels (PyAsc opens with-blocks only for "
                                                "APIs such as Matmul.iterate)")
        entered = enter(self, node)
        if item.optional_vars is not None:
            self.assign(node, item.optional_vars, entered)
        try:
            self.visit_body(node.body)
        finally:
            context.kernel_exit(self, node)

    def condition(self, node: ast.AST, value: Any) -> Val:
        v = self.to_ir(node, value)
        if v.kind == "bool":
            return v
        if v.kind in ("int", "float"):
            return self.op(node, "arith.ne", [v, 0])
        raise self.error(node, f"a {v.kind} value cannot be a condition")

    # --- expressions ---------------------------------------------------------------
    def eval(self, node: ast.AST) -> Any:
        method = getattr(self, "eval_" + type(node).__name__, None)
        if method is None:
            hints = {
                "ListComp": "list comprehensions are not supported in kernels: use a for loop",
                "DictComp": "dict comprehensions are not supported in kernels: use a for loop",
                "SetComp": "set comprehensions are not supported in kernels: use a for loop",
                "GeneratorExp": "generator expressions are not supported in kernels",
                "Lambda": "lambda is not supported in kernels: use a @pyasc.jit function",
                "Dict": "dicts are not supported in kernels",
                "Set": "sets are not supported in kernels",
                "JoinedStr": "f-strings are not supported in kernels: use printf(format, ...)",
                "Starred": "*args are not supported in kernels",
                "Await": "await is not supported in kernels",
                "Yield": "yield is not supported in kernels",
                "NamedExpr": "the walrus operator is not supported in kernels",
                "Slice": "slices are only supported as tensor[offset:]",
            }
            name = type(node).__name__
            raise self.error(node, hints.get(name, f"{name} expressions are not supported in "
                                                   "kernels"))
        return method(node)

    def eval_Constant(self, node: ast.Constant) -> Any:
        return node.value

    def eval_Tuple(self, node: ast.Tuple) -> tuple:
        return tuple(self.read(e, self.eval(e)) for e in node.elts)

    eval_List = eval_Tuple

    def eval_Name(self, node: ast.Name) -> Any:
        name = node.id
        if name in self.scope.bindings:
            return self.scope.bindings[name]
        if name in self.scope.mutable:
            raise self.error(node, f"'{name}' is used before it is assigned")
        if name in self.scope.outer:
            return self.scope.outer[name]
        if hasattr(builtins, name):
            return getattr(builtins, name)
        known = [*self.scope.bindings, *self.scope.mutable, *self.scope.outer, *dir(builtins)]
        raise self.error(node, f"name '{name}' is not defined: define it at module level or "
                               f"pass it as a kernel parameter{did_you_mean(name, known)}")

    def eval_Attribute(self, node: ast.Attribute) -> Any:
        base = self.read(node, self.eval(node.value))
        if isinstance(base, KernelStruct):
            if node.attr not in base.fields:
                raise self.error(node, f"{base.cls.__name__} has no field '{node.attr}'")
            return base.fields[node.attr]
        if isinstance(base, Val):
            if node.attr == "dtype" and base.dtype is not None:
                return base.dtype
            return BoundMethod(base, node.attr, node.value)
        if isinstance(base, PendingGlobal):
            return BoundMethod(base, node.attr, node.value)
        if isinstance(base, int) and not isinstance(base, bool) and node.attr == "ceildiv":
            return BoundMethod(base, node.attr, node.value)  # as on run-time integers
        try:
            return getattr(base, node.attr)
        except AttributeError:
            hint = did_you_mean(node.attr, dir(base))
            raise self.error(node, f"{describe(base)} has no attribute '{node.attr}'{hint}") \
                from None

    def eval_Subscript(self, node: ast.Subscript) -> Any:
        base = self.read(node, self.eval(node.value))
        if base is core.ConstExpr:
            return base
        if isinstance(base, KernelArray):
            return lower_constructs.array_load(self, node, base, self.eval(node.slice))
        if isinstance(base, (tuple, list)):
            index = self.read(node, self.eval(node.slice))
            if isinstance(index, Val):
                raise self.error(node.slice, "tuples can only be indexed by compile-time values")
            return base[index]
        if not isinstance(base, Val) or base.kind not in ("global", "local"):
            raise self.error(node, f"{describe(base)} cannot be indexed in a kernel")
        key = node.slice
        if isinstance(key, ast.Slice):
            if key.upper is not None or key.step is not None:
                raise self.error(key, "tensor slices take an offset only: write t[offset:]")
            offset = self.eval(key.lower) if key.lower is not None else 0
        else:
            offset = self.eval(key)
        offset = self.read(node, offset)
        self.check_int(key, offset, "a tensor offset")
        return self.op(node, f"{base.kind}.slice", [base, offset])

    def check_int(self, node: ast.AST, value: Any, what: str) -> None:
        ok = isinstance(value, (bool, int)) or isinstance(value, Val) and value.kind in ("int",
                                                                                       "bool")
        if not ok:
            raise self.error(node, f"{what} must be an integer, not {describe(value)}")

    _BIN_OPS = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "truediv",
                ast.FloorDiv: "floordiv", ast.Mod: "mod", ast.Pow: "pow", ast.BitAnd: "bitand",
                ast.BitOr: "bitor", ast.BitXor: "bitxor", ast.LShift: "shl", ast.RShift: "shr"}

    def binary(self, node: ast.AST, op: ast.operator, left: Any, right: Any) -> Any:
        left, right = self.read(node, left), self.read(node, right)
        if not isinstance(left, Val) and not isinstance(right, Val):
            try:
                return self.python_binary(op, left, right)
            except Exception as exc:  # the user's own arithmetic failed at compile time
                raise self.error(node, f"{type(exc).__name__}: {exc}") from None
        name = self._BIN_OPS.get(type(op))
        if name is None:
            raise self.error(node, f"{type(op).__name__} is not supported in kernels")
        for side in (left, right):
            if isinstance(side, Val) and side.kind not in SCALAR_KINDS + ("addr",):
                raise self.error(node, f"cannot apply '{_op_symbol(op)}' to a {kind_name(side)}: "
                                       "tensors are computed with vector instructions such as "
                                       "pyasc.add(dst, src0, src1, count) or pyasc.adds(dst, "
                                       "src, scalar, count)")
        if isinstance(left, Val) and left.kind == "addr":
            if name != "add":
                raise self.error(node, "a GlobalAddress only supports + offset")
            self.check_int(node, right, "a GlobalAddress offset")
            return self.op(node, "addr.offset", [left, right])
        if isinstance(right, Val) and right.kind == "addr":
            raise self.error(node, "write address + offset, with the GlobalAddress first")
        for side in (left, right):
            if not isinstance(side, (Val, bool, int, float)):
                raise self.error(node, f"cannot use {describe(side)} in arithmetic")
        if name == "truediv" and all(is_int(side) for side in (left, right)):
            name = "floordiv"  # PyAsc: `/` on run-time integers is integer division
        return self.op(node, f"arith.{name}", [left, right])

    @staticmethod
    def python_binary(op: ast.operator, a: Any, b: Any) -> Any:
        table = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
                 ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv,
                 ast.Mod: operator.mod, ast.Pow: operator.pow, ast.BitAnd: operator.and_,
                 ast.BitOr: operator.or_, ast.BitXor: operator.xor, ast.LShift: operator.lshift,
                 ast.RShift: operator.rshift}
        return table[type(op)](a, b)

    def eval_BinOp(self, node: ast.BinOp) -> Any:
        return self.binary(node, node.op, self.eval(node.left), self.eval(node.right))

    def eval_UnaryOp(self, node: ast.UnaryOp) -> Any:
        v = self.read(node, self.eval(node.operand))
        if not isinstance(v, Val):
            ops = {ast.USub: lambda x: -x, ast.UAdd: lambda x: +x, ast.Not: lambda x: not x,
                   ast.Invert: lambda x: ~x}
            return ops[type(node.op)](v)
        if v.kind not in SCALAR_KINDS:
            raise self.error(node, f"cannot apply a unary operator to a {kind_name(v)}")
        if isinstance(node.op, ast.USub):
            return self.op(node, "arith.neg", [v])
        if isinstance(node.op, ast.UAdd):
            return v
        if isinstance(node.op, ast.Not):
            return self.op(node, "arith.not", [self.condition(node, v)])
        return self.op(node, "arith.bitxor", [v, -1])

    def eval_BoolOp(self, node: ast.BoolOp) -> Any:
        values = [self.read(v, self.eval(v)) for v in node.values]
        if not any(isinstance(v, Val) for v in values):
            result = values[0]
            for v in values[1:]:
                result = (result and v) if isinstance(node.op, ast.And) else (result or v)
            return result
        name = "arith.and" if isinstance(node.op, ast.And) else "arith.or"
        result = self.condition(node, values[0])
        for v in values[1:]:
            result = self.op(node, name, [result, self.condition(node, v)])
        return result

    _CMP = {ast.Eq: "eq", ast.NotEq: "ne", ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt",
            ast.GtE: "ge"}

    def eval_Compare(self, node: ast.Compare) -> Any:
        left = self.read(node, self.eval(node.left))
        result = None
        for op, comparator in zip(node.ops, node.comparators):
            right = self.read(comparator, self.eval(comparator))
            if not isinstance(left, Val) and not isinstance(right, Val):
                table = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt,
                         ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge,
                         ast.Is: operator.is_, ast.IsNot: operator.is_not}
                if type(op) not in table:
                    raise self.error(node, f"{type(op).__name__} is not supported in kernels")
                part: Any = table[type(op)](left, right)
            else:
                if type(op) not in self._CMP:
                    raise self.error(node, f"{type(op).__name__} is not supported on run-time "
                                           "values")
                for side in (left, right):
                    if isinstance(side, Val) and side.kind not in SCALAR_KINDS:
                        raise self.error(node, f"cannot compare a {kind_name(side)}")
                part = self.op(node, f"arith.{self._CMP[type(op)]}", [left, right])
            if result is None:
                result = part
            elif isinstance(result, Val) or isinstance(part, Val):
                result = self.op(node, "arith.and", [self.condition(node, result),
                                                     self.condition(node, part)])
            else:
                result = result and part
            left = right
        return result

    def eval_IfExp(self, node: ast.IfExp) -> Any:
        test = self.read(node, self.eval(node.test))
        if not isinstance(test, Val):
            return self.eval(node.body if test else node.orelse)
        a = self.read(node, self.eval(node.body))
        b = self.read(node, self.eval(node.orelse))
        for side in (a, b):
            if isinstance(side, Val) and side.kind not in SCALAR_KINDS or \
                    not isinstance(side, (Val, bool, int, float)):
                raise self.error(node, "conditional expressions on run-time conditions must "
                                       "choose between numbers; use an if statement")
        return self.op(node, "arith.select", [self.condition(node, test), a, b])

    # --- calls -----------------------------------------------------------------------
    def eval_Call(self, node: ast.Call) -> Any:
        func = self.eval(node.func)
        if any(isinstance(a, ast.Starred) for a in node.args) or \
                any(k.arg is None for k in node.keywords):
            raise self.error(node, "*args and **kwargs are not supported in kernel calls: "
                                   "pass the arguments one by one")
        args = [self.read(a, self.eval(a)) for a in node.args]
        kwargs = {k.arg: self.read(k.value, self.eval(k.value)) for k in node.keywords}
        return lower_core.call(self, node, func, args, kwargs)

    def inline(self, node: ast.Call, jit_fn: Any, args: list, kwargs: dict) -> Any:
        """Calls a @pyasc.jit device function by inlining its body."""
        if self.depth > 32:
            raise self.error(node, "device functions nest too deeply (recursion is not "
                                   "supported)")
        fn = jit_fn.fn
        fn_node, source = parse_function(fn)
        try:
            bound = inspect.signature(fn).bind(*args, **kwargs)
        except TypeError as exc:
            raise self.error(node, f"{fn.__name__}(): {exc}") from None
        bound.apply_defaults()
        outer_scope = self.scope
        scope = Scope(fn, fn_node, source)
        for name, value in bound.arguments.items():
            if isinstance(value, KernelStruct):  # fields the callee assigns
                self.struct_slots(node, name, value, scope.assigned_attrs)
            annotation = fn.__annotations__.get(name)
            if core.is_constexpr(annotation) and isinstance(value, Val):
                raise self.error(node, f"{fn.__name__}(): parameter '{name}' is a ConstExpr but "
                                       "got a run-time value")
            scope.bindings[name] = value
            if isinstance(value, Val):  # emitted Ascend C calls it by this name
                self.builder.name(value.id, name)
        self.scope = scope
        self.depth += 1
        result = None
        try:
            self.visit_body(fn_node.body)
        except ReturnSignal as ret:
            result = ret.value
        finally:
            self.scope = outer_scope
            self.depth -= 1
        return result


def _op_symbol(op: ast.operator) -> str:
    return {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//",
            ast.Mod: "%", ast.Pow: "**"}.get(type(op), type(op).__name__)


