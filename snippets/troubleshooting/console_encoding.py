"""Print text that the console's code page cannot show, without
UnicodeEncodeError.

When Python's output goes to a pipe or a file (a log, "> out.txt", some IDE
consoles), Python encodes it in the Windows code page: GBK (cp936) on
Chinese Windows, cp1252 on English Windows. A character outside that code
page stops print() with UnicodeEncodeError. This script prints which
encoding its output has, then a line with a check mark, which neither GBK
nor cp1252 has.

    python console_encoding.py           # never fails: unknown characters
                                         # come out as \\u escapes
    python console_encoding.py --strict  # a plain print(): shows the error
                                         # where the encoding lacks them
"""

from __future__ import annotations

import argparse
import sys

# A check mark: in neither GBK nor cp1252.
SAMPLE = "training done \u2713"


def keep_printing(stream) -> None:
    """Keep the stream's encoding, but write what it cannot encode as
    backslash escapes (\\u2713) instead of raising UnicodeEncodeError.
    """
    stream.reconfigure(errors="backslashreplace")


class ArgumentParser(argparse.ArgumentParser):
    """argparse that reports a bad argument in one line, 'error: ...'."""

    def error(self, message: str):
        self.exit(2, f"error: {message} (see --help)\n")


def main(argv: list[str] | None = None) -> int:
    parser = ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--strict",
        action="store_true",
        help="print as a plain print() does, without the fix",
    )
    args = parser.parse_args(argv)

    print(f"stdout encoding: {sys.stdout.encoding}")
    if not args.strict:
        keep_printing(sys.stdout)
    try:
        print(SAMPLE)
    except UnicodeEncodeError as error:
        # The message readers see, on one line; the fix is above.
        print(f"error: UnicodeEncodeError: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
