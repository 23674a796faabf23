"""``python -m pyasc``: information about the installation."""

from __future__ import annotations

import argparse
import os
import sys

from pyasc import _api, _C, _cache, _info

CACHE_ACTIONS = {
    "info": "print where the kernel cache is, its entries and its size",
    "clear": "delete every entry of the kernel cache",
}


def build_parser() -> argparse.ArgumentParser:
    """The command line's parser: its commands and their help."""
    parser = argparse.ArgumentParser(
        prog="python -m pyasc",
        description="pyasc: Python-native operator programming for Ascend-style AI cores.")
    parser.add_argument("--version", action="version",
                        version=f"pyasc {_C.libasc_version()}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    commands.add_parser("info", help="devices, their properties, the C compiler, versions")
    cache = commands.add_parser(
        "cache", help="the on-disk kernel cache",
        epilog="actions: " + "; ".join(f"{k}: {v}" for k, v in CACHE_ACTIONS.items()))
    cache.add_argument("action", choices=tuple(CACHE_ACTIONS), metavar="{info,clear}",
                       help="info: where it is and its size; clear: delete its entries")
    api = commands.add_parser("api", help="the documented APIs, supported and not yet, per group")
    api.add_argument("--summary", action="store_true", help="only the counts per group")
    return parser


def run(args: argparse.Namespace) -> None:
    """Prints what the parsed command asks for."""
    if args.command == "info":
        print(_info.report())
    elif args.command == "api":
        print(_api.report(verbose=not args.summary))
    elif args.action == "info":
        print(_cache.info())
    else:
        print(_cache.clear())


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the process exit status."""
    args = build_parser().parse_args(argv)
    try:
        run(args)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader (`| head`) has gone: stop quietly, as Unix tools do.
        # Python flushes stdout again at exit, so point it at /dev/null.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
