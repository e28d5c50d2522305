"""Build: the emitted Cython source turned into an importable engine module.

A stock variant whose installed module ``railspec.generated.<key>`` was built from the
very text emitted now (its ``SOURCE_HASH``, a hash of that text) is used as it is. Anything
else is compiled into a cache folder, one subfolder per content hash of (the source, the
canonical IR, railspec, Python, Cython, the platform and C compiler). A
folder that holds a built module is imported directly: the second load of a spec needs
neither Cython nor a C compiler.

A build needs Cython's translation of the module's code and the C compiler. The code
leaves out the variant's numbers (compiler/numbers_block.py), so every variant with the same
mechanics has the same code: its translation is kept in the cache (``translations/``) and
one is installed for each stock variant's code, and a spec that changes a stock map's
numbers, routes or tickets costs only the C compiler.

A build runs in a fresh temporary folder inside the cache and renames it into place at
the end, so a cache entry is either complete or absent and
concurrent builds of one spec (threads or processes) are safe: the first rename wins,
the others use its result.
"""
from __future__ import annotations

import dataclasses
import functools
import gzip
import hashlib
import importlib
import importlib.machinery
import importlib.util
import json
import os
import pickle
import platform
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import threading
import zlib
from pathlib import Path

from . import emit as _emit
from . import ir, numbers_block, specs
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
    """The content hash naming a variant's cache folder (with the .pxd files the source
    cimports: the module is compiled against them)."""
    digest = hashlib.sha256()
    for part in (
        b"railspec-build/1",
        ir.canonical_json(variant).encode("utf-8"),
        variant.key.encode("utf-8"),
        source.encode("utf-8"),
        *_pxd_texts(source),
        _version("railspec").encode(),
        _version("Cython").encode(),
        _toolchain().encode("utf-8"),
    ):
        digest.update(hashlib.sha256(part).digest())
    return digest.hexdigest()


@functools.lru_cache(maxsize=16)
def cimported_pxds(code: str) -> tuple[tuple[str, Path], ...]:
    """The modules ``code`` cimports whose .pxd railspec or a mechanic ships (the compiled
    modules of a mechanic's folder, such as the longest path's search), each with that
    file: ``(dotted name, path)``. Cython's own (libc, cpython) are not among them."""
    found = []
    for name in numbers_block.cimports(code):
        package, _, stem = name.rpartition(".")
        try:
            spec = importlib.util.find_spec(package) if package else None
        except (ImportError, ValueError):
            spec = None
        for location in (spec.submodule_search_locations or []) if spec is not None else []:
            pxd = Path(location) / f"{stem}.pxd"
            if pxd.is_file():
                found.append((name, pxd))
                break
    return tuple(found)


def _pxd_texts(code: str) -> list[bytes]:
    return [path.read_bytes() for _name, path in cimported_pxds(code)]


def _place_pxds(code: str, folder: Path) -> None:
    """The .pxd files ``code`` cimports, copied into ``folder`` at their packages' paths
    (railspec/mechanics/<name>/<stem>.pxd), where Cython run in ``folder`` finds them
    whether railspec is installed from a wheel or in place (an editable install's
    packages are not folders of that name)."""
    for name, path in cimported_pxds(code):
        target = folder.joinpath(*name.split(".")).with_suffix(".pxd")
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)


#: The files whose text decides what :func:`railspec.compiler.emit.emit` writes for a given
#: IR: the compiler's code and templates, and each mechanic's folder (with the Python face,
#: engine_face.pyx, through whose Engine a module's games are played).
_GENERATOR_FILES = ("*.py", "*.j2", "*.lark", "*.h", "*.pxd", "*.pyx")


@functools.lru_cache(maxsize=None)
def _folder_digest(folder: str) -> bytes:
    """A hash of the generator's files in ``folder`` and below (names and contents); a
    mechanic's ``tests`` folder is not the generator's, so editing a test renders nothing."""
    digest = hashlib.sha256()
    root = Path(folder)
    paths = sorted({p for pattern in _GENERATOR_FILES for p in root.rglob(pattern)
                    if "__pycache__" not in p.parts and "tests" not in p.relative_to(root).parts})
    for path in paths:
        digest.update(str(path.relative_to(root)).encode("utf-8") + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.digest()


def engine_key(variant) -> str:
    """What decides a variant's engine module, without rendering it: the spec hash (of the
    canonical IR), the key, the text of the code that emits it (the compiler's files and every registered
    mechanic's folder), and the toolchain. Equal keys give equal emitted sources, so the
    index below maps a key to a module already built from that source and a load need not
    render the engine (a render is most of a warm start's time)."""
    digest = hashlib.sha256()
    folders = _generator_folders(variant.registry)
    # the spec hash stands for the canonical IR (it is its hash: a full render of the JSON
    # would cost more than the render this key saves)
    for part in (b"railspec-engine-key/1", variant.spec_hash.encode("utf-8"), variant.key.encode("utf-8"),
                 *(_folder_digest(folder) for folder in folders), _version("railspec").encode(),
                 _version("Cython").encode(), _toolchain().encode("utf-8")):
        digest.update(hashlib.sha256(part).digest())
    return digest.hexdigest()


def _index_path(root: Path, key: str) -> Path:
    return root / "index" / f"{key[:40]}.json"


def _read_index(root: Path, key: str) -> dict | None:
    try:
        entry = json.loads(_index_path(root, key).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return entry if isinstance(entry, dict) and isinstance(entry.get("source_hash"), str) else None


def _write_index(root: Path, key: str, entry: dict) -> None:
    """Record what ``key`` built, atomically; an unwritable cache only loses the shortcut."""
    path = _index_path(root, key)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(entry, f)
        os.replace(tmp, path)
    except OSError:
        pass


def load_module(variant, render, cache_dir=None, compile_if_missing: bool = True):
    """The engine module of ``variant``, rendering its source (``render()``) only when no
    module built from the same generator and IR is known: a stock module or a cache entry
    recorded under its :func:`engine_key` is imported directly. Otherwise as
    :func:`build`, and the result is recorded for the next load."""
    root = Path(cache_dir).expanduser() if cache_dir is not None else default_cache_dir()
    key = engine_key(variant)
    entry = _read_index(root, key)
    if entry is not None:
        module = _known_module(variant, entry, root)
        if module is not None:
            return module
    source = render()
    module = build(variant, source, cache_dir=cache_dir, compile_if_missing=compile_if_missing)
    if module is not None:
        where = "stock" if last_build_kind == "stock" else cache_key(variant, source)[:numbers_block.KEY_LENGTH]
        _write_index(root, key, {"source_hash": _emit.source_hash(source), "module": where})
    return module


def _known_module(variant, entry: dict, root: Path):
    """The module an index entry names, if it is there and still built from that source."""
    where = entry.get("module")
    if where == "stock":
        name = f"railspec.generated.{variant.key}"
        try:
            module = importlib.import_module(name)
        except ImportError:
            return None
        if getattr(module, "SPEC_HASH", None) == variant.spec_hash and \
                getattr(module, "SOURCE_HASH", None) == entry["source_hash"]:
            _set_result("stock")
            return module
        return None
    if not isinstance(where, str) or not re.fullmatch(rf"[0-9a-f]{{{numbers_block.KEY_LENGTH}}}", where):
        return None
    module_name = numbers_block.module_name(where)
    with _lock:
        if module_name in sys.modules:
            _set_result("loaded")
            return sys.modules[module_name]
        library = root / where / f"{module_name}{importlib.machinery.EXTENSION_SUFFIXES[0]}"
        if not library.is_file():
            return None
        module = _import(module_name, library)
    _set_result("cache")
    return module


def _generator_folders(registry) -> list[str]:
    return [str(Path(__file__).resolve().parent)] + sorted({str(mechanic.folder()) for mechanic in registry})


def ir_cache_key(path: Path, text: bytes, registry) -> str:
    """The key of a checked spec in the IR cache: the file (its resolved path and bytes)
    and the code that parses and checks it (the compiler's files and every registered
    mechanic's folder). The files it extends are recorded in the entry itself."""
    digest = hashlib.sha256()
    for part in (b"railspec-ir/1", str(Path(path).resolve()).encode("utf-8"), text,
                 *(_folder_digest(folder) for folder in _generator_folders(registry)), _version("railspec").encode()):
        digest.update(hashlib.sha256(part).digest())
    return digest.hexdigest()


def read_checked(key: str, registry, cache_dir=None):
    """The checked IR recorded under ``key`` (its registry set to ``registry``), or None
    when there is none or a file it extends has changed since."""
    root = Path(cache_dir).expanduser() if cache_dir is not None else default_cache_dir()
    try:
        with open(root / "ir" / f"{key[:40]}.pickle", "rb") as f:
            chain, variant = pickle.load(f)
        for name, digest in chain:
            if hashlib.sha256(specs.read_spec_text(name).encode("utf-8")).hexdigest() != digest:
                return None
    except (OSError, EOFError, ValueError, TypeError, AttributeError, ImportError, pickle.UnpicklingError,
            RailspecError):
        return None
    return dataclasses.replace(variant, registry=registry) if isinstance(variant, ir.Variant) else None


def write_checked(key: str, variant, extended: list[tuple[str, str]], cache_dir=None) -> None:
    """Record a checked IR and the files it extends (path, text), so that the next load of
    the same spec in another process skips parsing and checking. The registry is not
    recorded: the loader gives its own. An unwritable cache only loses the shortcut."""
    root = Path(cache_dir).expanduser() if cache_dir is not None else default_cache_dir()
    chain = [(name, hashlib.sha256(text.encode("utf-8")).hexdigest()) for name, text in extended]
    try:
        folder = root / "ir"
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=folder)
        with os.fdopen(fd, "wb") as f:
            pickle.dump((chain, dataclasses.replace(variant, registry=None)), f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, folder / f"{key[:40]}.pickle")
    except (OSError, pickle.PicklingError, TypeError, AttributeError):
        pass


def _set_result(kind: str) -> None:
    global last_build_was_cached, last_build_kind
    last_build_kind = kind
    last_build_was_cached = kind != "compiled"


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
    key = cache_key(variant, source)[:numbers_block.KEY_LENGTH]
    module_name = numbers_block.module_name(key)
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
        moved = False  # the work folder became the entry
        try:
            _compile(source, module_name, work, suffix, root)
            try:
                os.rename(work, final)
            except OSError:
                # another process built the same entry first: use theirs; a folder left
                # without its module (removed by hand) is replaced
                if not library.is_file():
                    shutil.rmtree(final, ignore_errors=True)
                    os.rename(work, final)
                    moved = True
            else:
                moved = True
        finally:
            if not moved:
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


def _compile(source: str, module_name: str, work: Path, suffix: str, root: Path) -> None:
    """The module's code translated by Cython (or its translation found: see
    :func:`translation`), its numbers written as the header the code includes, then the C
    compiler, in ``work``; leaves ``module_name + suffix`` there."""
    code, header = numbers_block.split(source)
    # the code as it was translated, for tracebacks; the numbers beside it, for the compiler
    (work / f"{module_name}.pyx").write_text(code, encoding="utf-8")
    (work / numbers_block.HEADER).write_text(header, encoding="utf-8")
    text, translated_as = translation(code, root)
    c_file = work / f"{module_name}.c"
    c_file.write_text(numbers_block.renamed(text, translated_as, module_name[len(numbers_block.MODULE_PREFIX):]),
                      encoding="utf-8")
    library = work / f"{module_name}{suffix}"
    if os.name == "posix":
        _optimise_module_code_only(c_file)
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
    # the C (1.3 MB for USA) is the translation renamed: the entry keeps the code and the
    # header it was made from, a tenth of its size
    c_file.unlink()


#: Where the last :func:`translation` came from: "cache", "shipped" or "cython".
last_translation = ""


def shipped_translations() -> Path | None:
    """The folder of the translations installed with railspec (setup.py writes one for each
    stock variant's code), or None."""
    found = importlib.util.find_spec("railspec.generated")
    if found is None or not found.submodule_search_locations:
        return None
    return Path(list(found.submodule_search_locations)[0]) / "translations"


def translation(code: str, root: Path) -> tuple[str, str]:
    """Cython's C translation of ``code`` (a module's code part: numbers_block.split) and the
    key its module was named by (numbers_block.module_name). Variants with the same mechanics
    have the same code, so a translation is kept: in the cache folder's ``translations``
    (written by the first build of that code) or among the shipped ones (a stock variant's
    code); else Cython translates it (about 1.3 s of a 2.3 s cold build). The .pxd files
    the code cimports from a mechanic's compiled modules are part of the key, and Cython
    finds them beside the code."""
    global last_translation
    key = numbers_block.code_key(code, _version("Cython"),
                                 tuple(text.decode("utf-8") for text in _pxd_texts(code)))
    name = f"{key}.c.gz"
    for kind, folder in (("cache", root / "translations"), ("shipped", shipped_translations())):
        if folder is None:
            continue
        try:
            text = gzip.decompress((folder / name).read_bytes()).decode("utf-8")
        except (OSError, EOFError, UnicodeDecodeError, zlib.error):
            continue
        last_translation = kind
        return text, key
    with tempfile.TemporaryDirectory(prefix=".tmp-translate-", dir=root) as tmp:
        module_name = numbers_block.module_name(key)
        (Path(tmp) / f"{module_name}.pyx").write_text(code, encoding="utf-8")
        _place_pxds(code, Path(tmp))
        _run(numbers_block.cython_command(sys.executable, f"{module_name}.pyx", f"{module_name}.c"), Path(tmp),
             "cython")
        text = (Path(tmp) / f"{module_name}.c").read_text(encoding="utf-8")
    _keep_translation(root / "translations", name, text)
    last_translation = "cython"
    return text, key


def _keep_translation(folder: Path, name: str, text: str) -> None:
    """Write a translation into the cache, atomically; an unwritable cache only loses it."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=folder)
        with os.fdopen(fd, "wb") as f:
            f.write(gzip.compress(text.encode("utf-8"), compresslevel=6))
        os.replace(tmp, folder / name)
    except OSError:
        pass


#: Cython's C file, in its own section markers: from the first (after the includes) to the
#: module's code, and from the end of the module's code on, come Cython's utility functions,
#: the module's start-up and its type slots; the module's code (its rules, hot) lies between.
_GLUE_START = "/* #### Code section: utility_code_proto_before_types ### */"
_MODULE_CODE = "/* #### Code section: module_code ### */"
_GLUE_AGAIN = "/* #### Code section: module_exttypes ### */"


def _optimise_module_code_only(c_file: Path) -> None:
    """Have GCC optimise the module's own code alone, at OPTIMISE, and compile Cython's glue
    at -O0: the glue is over half the C compiler's work and runs once or on the Python
    side (the Python face is engine_face's), while the rules run in the same functions as
    before. A user spec's cold build: 3.9 G instructions of gcc against 4.8 G, the batch
    loop's instructions unchanged. A file without the markers (another Cython) is left as
    it is; compilers other than GCC ignore the pragma."""
    text = c_file.read_text(encoding="utf-8")
    glue, module, again = text.find(_GLUE_START), text.find(_MODULE_CODE), text.find(_GLUE_AGAIN)
    if not 0 <= glue < module < again:
        return
    cold, hot = '#pragma GCC optimize ("O0")\n', f'#pragma GCC optimize ("{OPTIMISE[1:]}")\n'
    c_file.write_text(text[:glue] + cold + text[glue:module] + hot + text[module:again] + cold + text[again:],
                      encoding="utf-8")


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

