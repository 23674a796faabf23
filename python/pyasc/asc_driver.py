"""``python -m pyasc asc-compile``: CANN's ``.asc`` host programs on the simulator.

A ``.asc`` file is C++ with Ascend C kernels and a host ``main`` that launches
them as ``kernel<<<blockDim, l2ctrl, stream>>>(args...)``. The driver lexes the
file (comments, string, character and raw string literals are skipped, so a
``<<<`` inside them stays as it is), rewrites each launch into a call of
``AscendC::sim::host_launch`` (``include/ascendc/pyasc_sim_launch.h``), which
runs the kernel over blocks through libasc's launcher, and compiles the result
with the system C++ compiler (``$PYASC_CXX`` or ``c++``, C++17) against the
package's headers (``kernel_operator.h``, ``acl/acl.h``), linking the
package's ``libasc.so``. ``#line`` directives keep the user's file and lines in
compiler errors. It takes compiler-style arguments (``-c``, ``-o``, ``-I``,
``-D``, ``-O``...; ``--npu-arch=dav-2201`` is accepted), so that CMake can use
it as the ASC language's compiler (``share/cmake/ASC``).
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass

from pyasc import _C

__all__ = ["DriverError", "Launch", "Plan", "Token", "cmake_dir", "compile_command", "find_launches", "include_dirs",
           "lib_dir", "local_includes", "main", "tokenize", "translate"]

PACKAGE = os.path.dirname(os.path.abspath(__file__))
ARCHITECTURES = ("dav-2201",)
_PREFIXES = ("u8R", "uR", "UR", "LR", "R", "u8", "u", "U", "L")


class DriverError(Exception):
    """A ``.asc`` file the driver cannot translate (its message names the
    file and line), or arguments it cannot take."""


@dataclass(frozen=True)
class Token:
    """A token of the source: kind is ``id``, ``num``, ``str`` (a string or
    character literal, raw ones included), ``punct``, ``comment`` or ``ws``;
    the text is ``source[start:end]``."""

    kind: str
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Launch:
    """A ``callee<<<config>>>(args)`` launch: the replaced text is
    ``source[start:end]``; config and args are the texts inside."""

    start: int
    end: int
    callee: str
    config: str
    args: str
    line: int


def _ident_char(c: str) -> bool:
    return c.isalnum() or c == "_"


def _quoted_end(text: str, i: int, quote: str) -> int:
    """The index past the literal whose opening quote is at i, or -1 when
    the line ends first: a lone quote, as in an apostrophe in ``#error`` or
    ``#if 0`` text, which GCC only warns about (and rejects in code)."""
    j = i + 1
    while j < len(text):
        c = text[j]
        if c == "\\":
            j += 2
            continue
        if c == quote:
            return j + 1
        if c == "\n":
            break
        j += 1
    return -1


def _raw_end(text: str, i: int, file: str) -> int:
    """The index past the raw string literal whose opening quote is at i."""
    paren = text.find("(", i + 1, i + 18)
    line = text.count("\n", 0, i) + 1
    if paren < 0:
        raise DriverError(f"{file}:{line}: malformed raw string literal")
    close = ")" + text[i + 1:paren] + '"'
    end = text.find(close, paren + 1)
    if end < 0:
        raise DriverError(f"{file}:{line}: unterminated raw string literal")
    return end + len(close)


def tokenize(text: str, file: str = "<string>") -> list[Token]:
    """The tokens of C++ source text, whitespace and comments included, so
    that their texts joined give the source back. ``<<<`` and ``>>>`` are
    single tokens; every other punctuator is one character."""
    tokens: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        start = i
        if c.isspace():
            while i < n and text[i].isspace():
                i += 1
            kind = "ws"
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 2 if text[i] == "\\" and i + 1 < n else 1
            kind = "comment"
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                raise DriverError(f"{file}:{text.count(chr(10), 0, i) + 1}: unterminated comment")
            i, kind = end + 2, "comment"
        elif c.isdigit() or (c == "." and i + 1 < n and text[i + 1].isdigit()):
            # a pp-number: digit separators (1'000) and exponents' signs included
            i += 1
            while i < n and (_ident_char(text[i]) or text[i] in ".'" or
                             (text[i] in "+-" and text[i - 1] in "eEpP")):
                i += 1
            kind = "num"
        elif _ident_char(c):
            while i < n and _ident_char(text[i]):
                i += 1
            word, kind = text[start:i], "id"
            if i < n and text[i] in "\"'" and word in _PREFIXES:
                if word.endswith("R") and text[i] == '"':
                    i = _raw_end(text, i, file)
                    kind = "str"
                elif (end := _quoted_end(text, i, text[i])) >= 0:
                    i, kind = end, "str"
        elif c in "\"'" and (end := _quoted_end(text, i, c)) >= 0:
            i, kind = end, "str"
        elif text.startswith("<<<", i) or text.startswith(">>>", i):
            i, kind = i + 3, "punct"
        else:
            i, kind = i + 1, "punct"
        tokens.append(Token(kind, start, i, text[start:i]))
    return tokens


_OPEN = {"(": ")", "[": "]", "{": "}"}


def _code(tokens: list[Token]) -> list[Token]:
    return [t for t in tokens if t.kind not in ("ws", "comment")]


def _callee_start(code: list[Token], k: int) -> int:
    """The index in code of the first token of the callee ending just before
    code[k] (a name, qualified or with template arguments), or -1."""
    j = k - 1
    while j >= 0:
        if code[j].text in (">", ">>>"):
            depth = 0
            while j >= 0:
                t = code[j].text
                depth += 3 if t == ">>>" else 1 if t == ">" else -1 if t == "<" else 0
                j -= 1
                if depth == 0:
                    break
            if depth != 0:
                return -1
        if j < 0 or code[j].kind != "id":
            return -1
        if j >= 2 and code[j - 1].text == ":" and code[j - 2].text == ":":
            j -= 3
            if j < 0 or code[j].kind != "id" and code[j].text not in (">", ">>>"):
                return j + 1
            continue
        return j
    return -1


def _balanced_end(code: list[Token], k: int, stop: str) -> int:
    """The index of the first token `stop` at bracket depth 0 from code[k]."""
    depth = 0
    for j in range(k, len(code)):
        t = code[j].text
        if depth == 0 and t == stop:
            return j
        if t in _OPEN:
            depth += 1
        elif t in (")", "]", "}"):
            depth -= 1
            if depth < 0:
                return -1
    return -1


def _top_level_commas(code: list[Token]) -> int:
    depth, commas = 0, 0
    for t in code:
        if t.text in _OPEN:
            depth += 1
        elif t.text in (")", "]", "}"):
            depth -= 1
        elif t.text == "," and depth == 0:
            commas += 1
    return commas


def find_launches(text: str, file: str = "<string>") -> list[Launch]:
    """The ``callee<<<config>>>(args)`` launches of C++ source text, in order."""
    code = _code(tokenize(text, file))
    launches: list[Launch] = []
    for k, tok in enumerate(code):
        if tok.text != "<<<":
            continue
        line = text.count("\n", 0, tok.start) + 1
        first = _callee_start(code, k)
        if first < 0:
            raise DriverError(f"{file}:{line}: '<<<' does not follow a kernel's name")
        close = _balanced_end(code, k + 1, ">>>")
        if close < 0 or close + 1 >= len(code) or code[close + 1].text != "(":
            raise DriverError(f"{file}:{line}: a launch is kernel<<<blockDim, l2ctrl, "
                              "stream>>>(arguments)")
        rparen = _balanced_end(code, close + 2, ")")
        if rparen < 0:
            raise DriverError(f"{file}:{line}: the launch's arguments have no closing ')'")
        config = code[k + 1:close]
        if not config or _top_level_commas(config) != 2:
            raise DriverError(f"{file}:{line}: a launch's configuration is <<<blockDim, l2ctrl, "
                              "stream>>>")
        callee = text[code[first].start:code[k - 1].end]
        launches.append(Launch(
            start=code[first].start, end=code[rparen].end, callee=callee,
            config=text[code[k + 1].start:code[close - 1].end],
            args=text[code[close + 1].end:code[rparen].start], line=line))
    return launches


def _c_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def translate(text: str, file: str = "<string>", included: str = "") -> str:
    """The C++ that a ``.asc`` source becomes: a prologue with the
    simulator's headers, then the source under ``#line`` directives with each
    launch replaced by a call of ``AscendC::sim::host_launch`` (lines kept).
    What the kernels use (the cube, core kinds, SyncAll) is read from the
    source and from included, the text of the files it includes."""
    live, cube, group = _C.ascendc_traits(text + "\n" + included)
    out = [f"// {file}, translated by pyasc's asc-compile for the simulated cores\n",
           f"#define PYASC_SIM_ALL_LIVE {live}\n#define PYASC_SIM_CUBE {cube}\n",
           f"#define PYASC_SIM_GROUP {group}\n",
           '#include "kernel_operator.h"\n#include "pyasc_sim_launch.h"\n',
           f"#line 1 {_c_string(file)}\n"]
    pos = 0
    for launch in find_launches(text, file):
        out.append(text[pos:launch.start])
        original = text[launch.start:launch.end]
        args = launch.args.strip()
        # the callee as a value: a kernel's name, or a constexpr pointer to one (CANN's
        # matmul_high_performance picks its kernel so)
        call = (f"::AscendC::sim::host_launch<{launch.callee}, PYASC_SIM_KERNEL_GROUP>("
                f"{_c_string(launch.callee)}, "
                f"{launch.config}{', ' + launch.args if args else ''})")
        # the same number of lines, so that what follows keeps its line
        out.append(call + "\n" * max(0, original.count("\n") - call.count("\n")))
        pos = launch.end
    out.append(text[pos:])
    return "".join(out)


_QUOTED_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"\n]+)"', re.MULTILINE)
_MAX_INCLUDED = 64


def local_includes(text: str, dirs: list[str]) -> str:
    """The text of the files a source includes with ``#include "..."`` that
    are found in dirs (the source's own directory first), and of theirs in
    turn (at most 64 files): kernels in a header count as the source's."""
    seen: set[str] = set()
    parts: list[str] = []
    # pyasc's own headers (on the path when a CMake target such as tiling_api
    # brings them) are not the program's: their comments name the core kinds
    own = tuple(os.path.join(os.path.realpath(d), "") for d in include_dirs())
    pending = [(text, dirs)]
    while pending and len(seen) < _MAX_INCLUDED:
        body, where = pending.pop()
        for name in _QUOTED_INCLUDE.findall(body):
            for d in where:
                path = os.path.abspath(os.path.join(d, name))
                if os.path.isfile(path):
                    break
            else:
                continue
            if path in seen or len(seen) >= _MAX_INCLUDED or os.path.realpath(path).startswith(own):
                continue
            seen.add(path)
            try:
                with open(path, encoding="utf-8", errors="replace") as f:
                    found = f.read()
            except OSError:
                continue
            parts.append(found)
            pending.append((found, [os.path.dirname(path)] + where))
    return "\n".join(parts)


def include_dirs() -> list[str]:
    """The directories a ``.asc`` program is compiled against: Ascend C's
    (``kernel_operator.h``) and the one holding ``acl/``."""
    return [os.path.join(PACKAGE, "include", "ascendc"), os.path.join(PACKAGE, "include")]


def lib_dir() -> str:
    """The directory of the package's ``libasc.so``."""
    return os.path.join(PACKAGE, "lib")


def cmake_dir() -> str:
    """The CMake package's directory, for ``-DASC_DIR=...``."""
    return os.path.join(PACKAGE, "share", "cmake", "ASC")


_SOURCE_SUFFIXES = (".cpp", ".cc", ".cxx", ".c++", ".C")
_ARG_OPTIONS = ("-o", "-I", "-D", "-U", "-include", "-isystem", "-iquote", "-L", "-l", "-x",
                "-MF", "-MT", "-MQ", "-Xlinker")


@dataclass
class _Args:
    asc: list[str]
    passthrough: list[str]
    compile_only: bool
    output: str | None
    verbose: bool


def _parse(argv: list[str]) -> _Args:
    """Splits the command line into .asc sources and the compiler's own."""
    parsed = _Args([], [], False, None, False)
    i = 0
    while i < len(argv):
        a = argv[i]
        if a.startswith("--npu-arch"):
            arch = a.split("=", 1)[1] if "=" in a else (argv[i + 1] if i + 1 < len(argv) else "")
            i += 1 if "=" in a else 2
            if arch not in ARCHITECTURES:
                raise DriverError(f"--npu-arch={arch}: the simulator models "
                                  f"{', '.join(ARCHITECTURES)} (910B)")
            continue
        # the device compiler's own tuning options (bisheng's --cce-*) mean
        # nothing to the host C++ compiler
        if a.startswith("--cce-") or a in ("--run-mode=sim", "--run-mode=cpu"):
            i += 1
            continue
        if a == "-v":
            parsed.verbose = True
        elif a == "-c":
            parsed.compile_only = True
        elif a == "-o" and i + 1 < len(argv):
            parsed.output = argv[i + 1]
            i += 2
            continue
        elif a.endswith(".asc") and not a.startswith("-"):
            parsed.asc.append(a)
            i += 1
            continue
        if a in _ARG_OPTIONS and i + 1 < len(argv):
            parsed.passthrough += [a, argv[i + 1]]
            i += 2
            continue
        if a != "-v":
            parsed.passthrough.append(a)
        i += 1
    return parsed


def _compiler() -> list[str]:
    return shlex.split(os.environ.get("PYASC_CXX") or "c++")


def _link_flags() -> list[str]:
    lib = lib_dir()
    if not os.path.isfile(os.path.join(lib, "libasc.so")):
        raise DriverError(f"{lib}/libasc.so is missing: this pyasc was built without it")
    return [f"-L{lib}", "-lasc", f"-Wl,-rpath,{lib}", "-pthread"]


@dataclass
class Plan:
    """What the driver runs: the C++ compiler's command, the dependency file
    it writes (None: none), and each translated file's ``.asc`` source."""

    command: list[str]
    depfile: str | None
    sources: dict[str, str]


def _depfile(args: _Args) -> str | None:
    """Where -MD/-MMD (with -MF or beside the output, as GCC names it) write."""
    flags = args.passthrough
    if "-MF" in flags[:-1]:
        return flags[flags.index("-MF") + 1]
    if ("-MD" in flags or "-MMD" in flags) and args.output:
        return os.path.splitext(args.output)[0] + ".d"
    return None


def _include_flags(flags: list[str]) -> list[str]:
    """The directories of the -I options among flags (-I DIR and -IDIR)."""
    dirs = []
    for i, a in enumerate(flags):
        if a == "-I" and i + 1 < len(flags):
            dirs.append(flags[i + 1])
        elif a.startswith("-I") and len(a) > 2:
            dirs.append(a[2:])
    return dirs


def compile_command(argv: list[str], workdir: str) -> Plan:
    """The C++ compiler's command for the driver's arguments, the ``.asc``
    sources translated into workdir."""
    args = _parse(argv)
    nsources = len(args.asc) + sum(a.endswith(_SOURCE_SUFFIXES) for a in args.passthrough)
    if args.compile_only and nsources != 1:
        raise DriverError(f"-c takes one source file, got {nsources}")
    cmd = _compiler() + ["-std=c++17", "-pthread"]
    if not any(a.startswith("-O") for a in args.passthrough):
        cmd.append("-O2")
    for d in include_dirs():
        cmd += ["-I", d]
    sources: dict[str, str] = {}
    for n, src in enumerate(args.asc):
        try:
            with open(src, encoding="utf-8") as f:
                text = f.read()
        except OSError as exc:
            raise DriverError(f"cannot read {src}: {exc.strerror}") from exc
        stem = os.path.splitext(os.path.basename(src))[0]
        out = os.path.join(workdir, f"{n}_{stem}.cpp")
        search = [os.path.dirname(os.path.abspath(src)) or "."] + _include_flags(args.passthrough)
        with open(out, "w", encoding="utf-8") as f:
            f.write(translate(text, src, local_includes(text, search)))
        sources[out] = src
        # the .asc file's own directory first for its "..." includes
        cmd += ["-iquote", os.path.dirname(os.path.abspath(src)) or ".", "-x", "c++", out,
                "-x", "none"]
        if args.compile_only and not args.output:
            args.output = stem + ".o"
    cmd += args.passthrough
    if args.output:
        cmd += ["-o", args.output]
    if not args.compile_only:
        cmd += _link_flags()
    return Plan(cmd, _depfile(args) if sources else None, sources)


def _fix_depfile(path: str, sources: dict[str, str]) -> None:
    """Names the .asc sources in a dependency file where the compiler wrote
    their translations, which are gone once the driver exits."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return  # the compiler wrote none: nothing to fix
    for translated, src in sources.items():
        text = text.replace(translated, os.path.abspath(src).replace(" ", "\\ "))
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def main(argv: list[str]) -> int:
    """Runs the driver; returns the compiler's exit status (2 for the
    driver's own errors, printed as ``file:line: error: ...``)."""
    if argv in (["--version"], ["-dumpversion"]):
        print(f"pyasc asc-compile {_C.libasc_version()} (C++17 for the simulated AI cores)")
        return 0
    with tempfile.TemporaryDirectory(prefix="pyasc-asc-") as workdir:
        try:
            plan = compile_command(argv, workdir)
        except DriverError as exc:
            print(f"pyasc asc-compile: error: {exc}", file=sys.stderr)
            return 2
        if "-v" in argv:
            print(shlex.join(plan.command), file=sys.stderr)
        try:
            rc = subprocess.run(plan.command, check=False).returncode
            if rc == 0 and plan.depfile:
                _fix_depfile(plan.depfile, plan.sources)
            return rc
        except FileNotFoundError:
            print(f"pyasc asc-compile: error: no C++ compiler {plan.command[0]} (set PYASC_CXX)",
                  file=sys.stderr)
            return 2
