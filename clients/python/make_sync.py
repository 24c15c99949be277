"""Writes the synchronous client (src/atelier/client.py) from the asynchronous one (src/atelier/async_client.py).

The two clients are the same methods over the same sans-I/O requests (_base.py), one awaited and one not, so
only the asynchronous one is written by hand: edit async_client.py, then run ``python3 make_sync.py`` here.
``--check`` writes nothing and fails when client.py is not what async_client.py makes (the test suite runs it).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent / "src" / "atelier"
SOURCE = PACKAGE / "async_client.py"
TARGET = PACKAGE / "client.py"

HEADER = "# Made from async_client.py by make_sync.py: edit that file and run `python3 make_sync.py` (clients/python).\n"

# Whole lines that say which client this is, or import what only asyncio needs; None drops the line.
LINES: dict[str, str | None] = {
    '"""The asynchronous client, :class:`AsyncAtelier` (the same methods as :class:`atelier.Atelier`, awaited)."""': (
        '"""The synchronous client, :class:`Atelier`."""'
    ),
    "import asyncio": None,
    "from collections.abc import AsyncIterator, Callable, Mapping, Sequence": (
        "from collections.abc import Callable, Iterator, Mapping, Sequence"
    ),
    '    """An asyncio client of the Atelier API (on ``httpx.AsyncClient``); see :class:`atelier.Atelier`.': (
        '    """A client of the Atelier API.'
    ),
    "    raises an :class:`atelier.AtelierError` subclass for a non-2xx answer. Use it as ``async with``, or": (
        "    raises an :class:`atelier.AtelierError` subclass for a non-2xx answer. Use it as a context manager, or"
    ),
    "    await :meth:`close`.": "    call :meth:`close`.",
}

# Then, in every line, the asynchronous spelling of a thing becomes the synchronous one.
WORDS: list[tuple[str, str]] = [
    (r"\basync (def|with|for) ", r"\1 "),
    (r"\bawait ", ""),
    (r"\bAsyncAtelier\b", "Atelier"),
    (r"\bhttpx\.AsyncClient\b", "httpx.Client"),
    (r"\bAsyncIterator\b", "Iterator"),
    (r"\basyncio\.sleep\b", "time.sleep"),
    (r"\baclosing\b", "closing"),
    (r"\.aclose\(", ".close("),
    (r"\.aread\(", ".read("),
    (r"\.aiter_(lines|bytes)\(", r".iter_\1("),
    (r"\b__a(enter|exit)__\b", r"__\1__"),
]


def synchronous(source: str) -> str:
    # A line of LINES that the source no longer has would let the asynchronous wording through unnoticed.
    missing = [line for line in LINES if line not in source.splitlines()]
    if missing:
        raise ValueError("async_client.py no longer has these lines; update LINES in make_sync.py:\n" + "\n".join(missing))
    out = [HEADER]
    for line in source.splitlines(keepends=True):
        bare = line.rstrip("\n")
        if bare in LINES:
            replaced = LINES[bare]
            if replaced is None:
                continue
            line = replaced + "\n"
        for pattern, replacement in WORDS:
            line = re.sub(pattern, replacement, line)
        out.append(line)
    return "".join(out)


def main(argv: list[str]) -> int:
    try:
        made = synchronous(SOURCE.read_text(encoding="utf-8"))
    except ValueError as err:
        print(err)
        return 2
    if "--check" in argv:
        if TARGET.read_text(encoding="utf-8") == made:
            return 0
        print("clients/python/src/atelier/client.py is not what async_client.py makes: run python3 clients/python/make_sync.py")
        return 1
    TARGET.write_text(made, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
