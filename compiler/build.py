"""Build: the emitted Cython source turned into an importable engine module.

A stock variant whose installed module ``railspec.generated.<key>`` was built from the
very text emitted now (its ``SOURCE_HASH``, a hash of that text) is used as it is. Anything
else is compiled into a cache folder, one subfolder per content hash of (the source, the
canonical IR, railspec, Python, Cython, the platform and C compiler). A
folder that holds a built module is imported directly: the second load of a spec needs
neither Cython nor a C compiler.

A build runs Cython and the C compiler in a fresh temporary folder inside the cache and
renames it into place at the end, so a cache entry is either complete or absent and
concurrent builds of one spec (threads or processes) are safe: the first rename wins,
the others use its result.
"""
from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import importlib.util
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import threading
from pathlib import Path

from . import emit as _emit
from . import ir
from .base.errors import RailspecError

#: True when the last call of :func:`build` compiled nothing (stock module, a module
#: already imported, or a cache entry); False when it ran Cython and the C compiler.
last_build_was_cached = False
#: How the last :func:`build` got its module: "stock", "loaded", "cache" or "compiled".
last_build_kind = ""

#: The optimisation of run-time builds, chosen to compile fast: -O1 halves the C compile
#: time of -O2 and measured as fast in playouts. (The stock modules, built once by
#: setup.py at install, use -O3.)
OPTIMISE = "-O1"
CFLAGS = [OPTIMISE, "-g0", "-fPIC", "-fwrapv", "-fno-strict-aliasing", "-DNDEBUG"]

_lock = threading.Lock()
_TAIL_LINES = 40


def default_cache_dir() -> Path:
    """$RAILSPEC_CACHE, else ~/.cache/railspec."""
    env = os.environ.get("RAILSPEC_CACHE")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "railspec"


def _version(dist: str) -> str:
    from importlib import metadata
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "unknown"


def _toolchain() -> str:
    """What decides the binary besides the source: interpreter, ABI, platform, compiler."""
    return "\n".join([
        sys.version,
        sys.implementation.cache_tag or "",
        sysconfig.get_config_var("EXT_SUFFIX") or "",
        sysconfig.get_platform(),
        platform.machine(),
        os.environ.get("CC") or sysconfig.get_config_var("CC") or "",
        " ".join(CFLAGS),
    ])


def cache_key(variant, source: str) -> str:
    """The content hash naming a variant's cache folder."""
    digest = hashlib.sha256()
    for part in (
        b"railspec-build/1",
        ir.canonical_json(variant).encode("utf-8"),
        variant.key.encode("utf-8"),
        source.encode("utf-8"),
        _version("railspec").encode(),
        _version("Cython").encode(),
        _toolchain().encode("utf-8"),
    ):
        digest.update(hashlib.sha256(part).digest())
    return digest.hexdigest()


def _set_result(kind: str) -> None:
    global last_build_was_cached, last_build_kind
    last_build_kind = kind
    last_build_was_cached = kind != "compiled"
    build.last_build_was_cached = last_build_was_cached
    build.last_build_kind = kind


def stock_module(variant, source: str):
    """The installed railspec.generated.<key>, when it was built from ``source`` (the text
    emitted for ``variant`` now); else None."""
    if not re.fullmatch(r"[a-z][a-z0-9_]*", variant.key or ""):
        return None
    name = f"railspec.generated.{variant.key}"
    try:
        if importlib.util.find_spec(name) is None:
            return None
        module = importlib.import_module(name)
    except ImportError:
        return None
    if getattr(module, "SPEC_HASH", None) != variant.spec_hash:
        return None
    if getattr(module, "SOURCE_HASH", None) != _emit.source_hash(source):
        return None
    return module


def build(variant, source: str, cache_dir=None, compile_if_missing: bool = True):
    """The compiled engine module of ``variant`` whose emitted source is ``source``. With
    ``compile_if_missing=False``, None when neither a stock module nor a cache entry has it."""
    module = stock_module(variant, source)
    if module is not None:
        _set_result("stock")
        return module
    key = cache_key(variant, source)[:32]
    module_name = f"railspec_engine_{key}"
    root = Path(cache_dir).expanduser() if cache_dir is not None else default_cache_dir()
    final = root / key
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    library = final / f"{module_name}{suffix}"
    with _lock:
        if module_name in sys.modules:
            _set_result("loaded")
            return sys.modules[module_name]
        if library.is_file():
            module = _import(module_name, library)
            _set_result("cache")
            return module
        if not compile_if_missing:
            return None
        root.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=f".tmp-{key[:12]}-", dir=root))
        try:
            _compile(source, module_name, work, suffix)
            try:
                os.rename(work, final)
            except OSError:
                # another process built the same entry first: use theirs; a folder left
                # without its module (removed by hand) is replaced
                if not library.is_file():
                    shutil.rmtree(final, ignore_errors=True)
                    os.rename(work, final)
                    work = None
            else:
                work = None
        finally:
            if work is not None:
                shutil.rmtree(work, ignore_errors=True)
        module = _import(module_name, library)
        _set_result("compiled")
        return module


def _import(module_name: str, library: Path):
    spec = importlib.util.spec_from_file_location(module_name, library)
    if spec is None or spec.loader is None:
        raise RailspecError(f"cannot load the engine module {library}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[module_name]
        raise
    return module


def _tail(text: str) -> str:
    lines = text.strip().splitlines()
    return "\n".join(lines[-_TAIL_LINES:])


def _run(command: list[str], cwd: Path, what: str) -> None:
    try:
        done = subprocess.run(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, errors="replace")
    except OSError as err:
        raise RailspecError(f"building the engine: cannot run {what} ({command[0]}): {err.strerror}") from None
    if done.returncode != 0:
        raise RailspecError(f"building the engine: {what} failed (exit {done.returncode}):\n{_tail(done.stdout)}")


def _compile(source: str, module_name: str, work: Path, suffix: str) -> None:
    """Cython then the C compiler, in ``work``; leaves ``module_name + suffix`` there."""
    pyx = work / f"{module_name}.pyx"
    pyx.write_text(source, encoding="utf-8")
    c_file = work / f"{module_name}.c"
    _run([sys.executable, "-m", "cython", "-3", "--fast-fail", "-o", c_file.name, pyx.name], work, "cython")
    library = work / f"{module_name}{suffix}"
    if os.name == "posix":
        cc = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")
        include = sysconfig.get_paths()["include"]
        extra = ["-undefined", "dynamic_lookup"] if sys.platform == "darwin" else []
        _run([*cc, "-shared", *CFLAGS, f"-I{include}", *extra, c_file.name, "-o", library.name], work,
             "the C compiler")
    else:
        _build_ext(c_file, module_name, work)
    if not library.is_file():
        found = sorted(work.glob(f"{module_name}*{suffix}"))
        if not found:
            raise RailspecError("building the engine: the compiler produced no module")
        found[0].rename(library)


def _build_ext(c_file: Path, module_name: str, work: Path) -> None:
    """setuptools' build_ext, for platforms where the C compiler is not simply ``cc``."""
    import io
    from contextlib import redirect_stderr, redirect_stdout

    from setuptools import Distribution, Extension
    from setuptools.command.build_ext import build_ext

    ext = Extension(module_name, [str(c_file)], extra_compile_args=["/O2"] if os.name == "nt" else [OPTIMISE, "-g0"])
    dist = Distribution({"name": module_name, "ext_modules": [ext]})
    cmd = build_ext(dist)
    cmd.build_lib = str(work)
    cmd.build_temp = str(work / "build")
    cmd.inplace = False
    out = io.StringIO()
    try:
        with redirect_stdout(out), redirect_stderr(out):
            cmd.ensure_finalized()
            cmd.run()
    except Exception as err:  # distutils raises its own error types
        raise RailspecError(f"building the engine: the C compiler failed: {err}\n{_tail(out.getvalue())}") from None


build.last_build_was_cached = False
build.last_build_kind = ""
