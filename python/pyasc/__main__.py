"""``python -m pyasc``: information about the installation."""

from __future__ import annotations

import argparse
import os
import runpy
import subprocess
import sys
import tempfile

from pyasc import _api, _C, _cache, _info, asc_driver, profiler

CACHE_ACTIONS = {
    "info": "print where the kernel cache is, its entries and its size",
    "clear": "delete every entry of the kernel cache",
}


class _PrintCMakeDir(argparse.Action):
    """``--cmake-dir``: prints the CMake package's directory and exits."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        print(asc_driver.cmake_dir())
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    """The command line's parser: its commands and their help."""
    parser = argparse.ArgumentParser(
        prog="python -m pyasc",
        description="pyasc: Python-native operator programming for Ascend-style AI cores.")
    parser.add_argument("--version", action="version",
                        version=f"pyasc {_C.libasc_version()}")
    parser.add_argument("--cmake-dir", action=_PrintCMakeDir, nargs=0,
                        help="print the directory of the CMake package ASC (for -DASC_DIR=...)")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    commands.add_parser("info", help="devices, their properties, the C compiler, versions")
    cache = commands.add_parser(
        "cache", help="the on-disk kernel cache",
        epilog="actions: " + "; ".join(f"{k}: {v}" for k, v in CACHE_ACTIONS.items()))
    cache.add_argument("action", choices=tuple(CACHE_ACTIONS), metavar="{info,clear}",
                       help="info: where it is and its size; clear: delete its entries")
    api = commands.add_parser("api", help="the documented APIs, supported and not yet, per group")
    api.add_argument("--summary", action="store_true", help="only the counts per group")
    asc = commands.add_parser(
        "asc-compile", help="build a CANN .asc host program for the simulator (C++ compiler "
        "arguments: -c, -o, -I, -D, --npu-arch=dav-2201 ...)",
        description="Translates .asc files' kernel<<<...>>>(...) launches and compiles them with "
                    "the C++ compiler against pyasc's headers and libasc (docs/ascendc.md).")
    asc.add_argument("args", nargs=argparse.REMAINDER, help="compiler arguments and sources")
    prof = commands.add_parser(
        "prof", help="run a script with every kernel launch profiled (docs/perf-model.md)",
        description="Runs SCRIPT as __main__ inside pyasc.profile(), then prints the "
                    "modelled device time of each launch (msprof op's summary). A SCRIPT "
                    "that is not a .py file is a program (an executable built by "
                    "asc-compile or CMake) run with its kernel launches profiled.")
    prof.add_argument("--trace", metavar="PATH", help="also write a Chrome/Perfetto trace")
    prof.add_argument("script", help="the Python script (or the .asc program) to run")
    prof.add_argument("args", nargs=argparse.REMAINDER, help="the script's arguments")
    return parser


def run_profiled(script: str, script_args: list[str], trace: str | None) -> int:
    """Runs script under pyasc.profile(); prints the table (and writes the
    trace) even when the script exits early. Returns the script's exit status."""
    if not os.path.isfile(script):
        print(f"python -m pyasc prof: no such script: {script}", file=sys.stderr)
        return 2
    if not script.endswith(".py") and os.access(script, os.X_OK):
        return run_program(script, script_args, trace)
    status = 0
    argv, path = sys.argv, list(sys.path)
    sys.argv = [script, *script_args]
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))  # as `python script` does
    try:
        with profiler.profile() as prof:
            try:
                runpy.run_path(script, run_name="__main__")
            except SystemExit as exc:
                status = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        sys.argv, sys.path[:] = argv, path
    return _report(prof, trace, status)


def _report(prof: profiler.Profile, trace: str | None, status: int) -> int:
    """Prints a run's launches as msprof's table (and writes the trace if
    asked); returns the run's exit status."""
    print(f"== pyasc prof: {len(prof.launches)} launch(es), modelled Atlas A2 device time")
    prof.table()
    if trace:
        prof.export_chrome_trace(trace)
        print(f"trace: {trace}")
    return status


def run_program(program: str, program_args: list[str], trace: str | None) -> int:
    """Runs a host program (a .asc program's executable) with its kernel
    launches profiled (libasc's PYASC_PROFILE_OUT: each launch appends its
    records to a file), then prints the table as for a script."""
    with tempfile.TemporaryDirectory(prefix="pyasc-prof-") as tmp:
        out = os.path.join(tmp, "launches.jsonl")
        env = {**os.environ, "PYASC_PROFILE_OUT": out}
        path = program if os.sep in program else os.path.join(os.curdir, program)
        status = subprocess.run([path, *program_args], env=env, check=False).returncode
        prof = profiler.read_launches(out) if os.path.exists(out) else profiler.Profile()
    return _report(prof, trace, status)


def run(args: argparse.Namespace) -> int:
    """Prints what the parsed command asks for; returns the exit status."""
    if args.command == "prof":
        return run_profiled(args.script, args.args, args.trace)
    if args.command == "info":
        print(_info.report())
    elif args.command == "api":
        print(_api.report(verbose=not args.summary))
    elif args.action == "info":
        print(_cache.info())
    else:
        print(_cache.clear())
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the process exit status."""
    if argv is None:
        argv = sys.argv[1:]
    if argv[:1] == ["asc-compile"] and argv[1:2] not in (["-h"], ["--help"]):
        # its arguments are a compiler's, which argparse would take for its own
        return asc_driver.main(argv[1:])
    args = build_parser().parse_args(argv)
    try:
        status = run(args)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader (`| head`) has gone: stop quietly, as Unix tools do.
        # Python flushes stdout again at exit, so point it at /dev/null.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    return status


if __name__ == "__main__":
    sys.exit(main())
