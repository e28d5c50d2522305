"""The two parts of an emitted engine module: its code and its numbers.

Every number of a variant (its sizes, constants, tables, observation offsets and scales,
its key and hashes) is written in one C block near the top of the emitted module, between
:data:`BEGIN` and :data:`END`; the Cython code around it only names them. Two specs with
the same mechanics and the same template switches therefore have the same code, whatever
their maps and numbers, and Cython's translation of that code (the slow half of a build)
can be shared: :func:`split` takes the code out (the numbers block becomes an ``#include``
of :data:`HEADER`) and the numbers (that header's text); :func:`code_key` names the
translation.

This module imports nothing of railspec, so that setup.py can load it by path to write the
stock variants' translations when it builds them (see compiler/build.py for their use).
"""
from __future__ import annotations

import hashlib
import re

#: The line that opens a module's numbers block, and the line that closes it.
BEGIN = "# --- the variant's numbers (begin: the build keeps them in a C header) ---"
END = "# --- the variant's numbers (end) ---"
#: The header a split module includes in place of its numbers block.
HEADER = "railspec_numbers.h"
#: The directives line: the code starts there (the comment lines above it name the
#: variant, its spec and its hashes, and so are numbers too).
_DIRECTIVES = "# cython:"
#: How the C of the numbers block is indented inside its verbatim string.
_INDENT = "    "
#: A module's name in the build: this prefix and 32 hex digits, so that one translation can
#: be renamed for another module by replacing its digits (Cython's string table stores
#: each string's length, which a name of another length would break).
MODULE_PREFIX = "railspec_engine_"
KEY_LENGTH = 32
_KEY = re.compile(rf"[0-9a-f]{{{KEY_LENGTH}}}")


class LayoutError(ValueError):
    """An emitted module without the numbers block where :func:`split` expects it."""


def split(source: str) -> tuple[str, str]:
    """``(code, header)`` of an emitted module: the code is the text from its directives
    line on, with the numbers block replaced by an ``#include`` of :data:`HEADER`; the
    header is the block's C, after the module's leading comment lines (as a C comment)."""
    lines = source.split("\n")
    try:
        first = next(i for i, line in enumerate(lines) if line.startswith(_DIRECTIVES))
        begin = lines.index(BEGIN, first)
        end = lines.index(END, begin)
    except (StopIteration, ValueError):
        raise LayoutError("the emitted module has no numbers block") from None
    block = lines[begin + 1:end]
    if len(block) < 3 or block[0] != "cdef extern from *:" or block[1] != _INDENT + '"""' \
            or block[-1] != _INDENT + '"""':
        raise LayoutError("the numbers block is not one verbatim C string")
    c_lines = [line[len(_INDENT):] if line.startswith(_INDENT) else line for line in block[2:-1]]
    comment = [line[1:].strip().replace("*/", "* /") for line in lines[:first]]
    header = "".join(f"/* {line} */\n" for line in comment if line) + "\n".join(c_lines) + "\n"
    code = lines[first:begin] + [f'cdef extern from "{HEADER}":', _INDENT + "pass"] + lines[end + 1:]
    return "\n".join(code), header


#: A ``cimport`` line of a module: ``from NAME cimport …`` or ``cimport NAME [as …]``.
_CIMPORT = re.compile(r"^[ \t]*(?:from[ \t]+([\w.]+)[ \t]+cimport\b|cimport[ \t]+([\w.]+))", re.M)


def cimports(code: str) -> list[str]:
    """The modules ``code`` cimports, by their dotted names, sorted, each once. The ones that
    are railspec's or a mechanic's (a mechanic's compiled module, such as the longest
    path's search) have a .pxd the translation needs: a build puts each where Cython finds
    it (at its package's path in a folder on Cython's include path), and its text is part
    of the translation's key."""
    return sorted({from_name or name for from_name, name in _CIMPORT.findall(code)})


def code_key(code: str, cython_version: str, pxds: tuple[str, ...] = ()) -> str:
    """The name of the Cython translation of ``code`` (32 hex digits): a hash of the code,
    the text of the .pxd files it cimports from railspec or a mechanic (``pxds``, in the
    order of :func:`cimports`) and the Cython that translates it."""
    digest = hashlib.sha256()
    for part in (b"railspec-translation/1", cython_version.encode("utf-8"), code.encode("utf-8"),
                 *(pxd.encode("utf-8") for pxd in pxds)):
        digest.update(hashlib.sha256(part).digest())
    return digest.hexdigest()[:KEY_LENGTH]


def module_name(key: str) -> str:
    """The module name a build gives the engine keyed ``key`` (32 hex digits)."""
    if not _KEY.fullmatch(key):
        raise ValueError(f"a module key is {KEY_LENGTH} lowercase hex digits, not {key!r}")
    return MODULE_PREFIX + key


def renamed(translation: str, old_key: str, new_key: str) -> str:
    """A translation made for the module keyed ``old_key``, made for ``new_key``: the module
    name is in its strings, its symbol names and its file name, always as these digits."""
    module_name(old_key), module_name(new_key)  # both must be keys: the lengths must agree
    return translation.replace(old_key, new_key)


def cython_command(python: str, pyx_name: str, c_name: str) -> list[str]:
    """How a translation is made (the same for setup.py's stock translations and a build's):
    Cython run on ``pyx_name`` in its folder, writing ``c_name``."""
    return [python, "-m", "cython", "-3", "--fast-fail", "-o", c_name, pyx_name]
