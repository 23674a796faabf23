"""``python -m pyasc``: information about the installation."""

from __future__ import annotations

import argparse
import sys

from pyasc import _api, _cache, _info


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the process exit status."""
    parser = argparse.ArgumentParser(prog="python -m pyasc")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("info", help="devices, their properties, the C compiler, versions")
    cache = commands.add_parser("cache", help="the on-disk kernel cache")
    cache.add_argument("action", choices=("info", "clear"))
    api = commands.add_parser("api", help="the documented APIs, supported and not yet, per group")
    api.add_argument("--summary", action="store_true", help="only the counts per group")
    args = parser.parse_args(argv)
    if args.command == "info":
        print(_info.report())
    elif args.command == "api":
        print(_api.report(verbose=not args.summary))
    elif args.action == "info":
        print(_cache.info())
    else:
        print(_cache.clear())
    return 0


if __name__ == "__main__":
    sys.exit(main())
