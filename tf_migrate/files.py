"""Find, read and write source files without losing a byte.

Reading keeps what a rewrite must give back: the encoding (PEP 263 cookie
or BOM), and the line endings (LibCST keeps them in the text). Writing is
atomic (a temp file in the same folder, then ``os.replace``) and keeps the
file's mode bits, so a crash leaves either the old file or the new one.
"""
from __future__ import annotations

import codecs
import errno
import io
import os
import stat
import tempfile
import tokenize
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator, List, Optional, Set, Tuple

SUFFIXES = (".py", ".ipynb")
SKIP_DIRS = {".git", ".hg", ".svn", "__pycache__", ".venv", "venv", ".tox", "node_modules", ".ipynb_checkpoints"}


class ReadError(Exception):
    def __init__(self, path: Path, line: int, message: str) -> None:
        super().__init__(f"{path}:{line}: {message}")
        self.path, self.line, self.message = path, line, message


class Problem(str):
    """``"path: message"`` for a path that cannot be searched; ``.path`` and ``.message`` keep the parts.

    ``fatal`` is False for what loses nothing: a symlink loop skipped (its files are reached anyway).
    """

    def __new__(cls, path: object, message: str, fatal: bool = True) -> "Problem":
        problem = super().__new__(cls, f"{path}: {message}")
        problem.path, problem.message, problem.fatal = str(path), message, fatal
        return problem


@dataclass(frozen=True)
class SourceFile:
    path: Path
    text: str
    encoding: str
    bom: bool
    mode: int
    stamp: Optional[Tuple[int, int]] = None  # (size, mtime_ns) when read: a later change is not overwritten


def discover(paths: Iterable[str], exclude: Iterable[Path] = ()) -> Tuple[List[Path], List[Problem]]:
    """Files under ``paths`` (.py and .ipynb), each once, in a stable order; plus problems found."""
    excluded = {_real(p) for p in exclude}
    seen: Set[Path] = set()
    found: List[Path] = []
    problems: List[Problem] = []
    for raw in paths:
        path = Path(raw)
        if not path.exists():
            why = "broken symbolic link or symlink loop" if path.is_symlink() else "no such file or directory"
            problems.append(Problem(raw, why))
            continue
        if not (path.is_file() or path.is_dir()):
            problems.append(Problem(raw, "not a regular file or directory"))
            continue
        for candidate in _walk(path, excluded, problems):
            real = _real(candidate)
            if real in seen:
                continue
            seen.add(real)
            found.append(candidate)
    return found, problems


def _real(path) -> Path:
    """The path with symlinks resolved; unlike Path.resolve() it does not raise on a symlink loop."""
    return Path(os.path.realpath(path))


def _walk(path: Path, excluded: Set[Path], problems: List[Problem]) -> Iterator[Path]:
    """Files under ``path``. Symlinks are followed inside the tree only: a link to ``..`` must not let
    ``-w`` rewrite files the user did not name."""
    top = _real(path)
    if top in excluded:
        return
    if path.is_file():
        yield path
        return
    visited: Set[Tuple[int, int]] = set()

    def unreadable(error: OSError) -> None:
        problems.append(Problem(error.filename, f"cannot list: {error.strerror}"))

    def inside(link: Path) -> bool:
        if not link.is_symlink() or _within(_real(link), top):
            return True
        problems.append(Problem(link, f"symlink to {os.readlink(link)}, outside {path}: not followed", fatal=False))
        return False

    for root, dirs, files in os.walk(path, onerror=unreadable, followlinks=True):
        try:
            info = os.stat(root)
        except OSError as error:
            unreadable(error)
            dirs[:] = []
            continue
        if (info.st_dev, info.st_ino) in visited:
            problems.append(Problem(root, "symlink loop, not followed", fatal=False))
            dirs[:] = []
            continue
        visited.add((info.st_dev, info.st_ino))
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and _real(Path(root, d)) not in excluded
                         and inside(Path(root, d)))
        for name in sorted(files):
            if name.endswith(SUFFIXES) and inside(Path(root, name)):
                yield Path(root, name)


def _within(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def _read_bytes(path: Path) -> Tuple[bytes, int, Tuple[int, int]]:
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # a FIFO named x.py would block the read forever
            raise ReadError(path, 0, "not a regular file")
        with open(path, "rb") as handle:
            info = os.fstat(handle.fileno())
            data = handle.read()
    except OSError as error:
        raise ReadError(path, 0, f"cannot read: {error.strerror or error}") from None
    return data, stat.S_IMODE(info.st_mode), (info.st_size, info.st_mtime_ns)


def read_source(path: Path) -> SourceFile:
    """Decode a .py file as Python does (BOM, coding cookie, else UTF-8)."""
    data, mode, stamp = _read_bytes(path)
    if b"\x00" in data:
        raise ReadError(path, 1, "binary file (NUL bytes), not Python source")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as error:
        raise ReadError(path, 1, f"bad encoding declaration: {error}") from None
    bom = encoding == "utf-8-sig"
    try:
        text = data.decode(encoding)
    except (UnicodeDecodeError, LookupError) as error:
        line = data[: getattr(error, "start", 0)].count(b"\n") + 1
        raise ReadError(path, line, f"cannot decode as {encoding}: {error}") from None
    return SourceFile(path, text, "utf-8" if bom else encoding, bom, mode, stamp)


def read_text_file(path: Path) -> SourceFile:
    """Read a notebook (JSON, UTF-8, perhaps with a BOM that is kept)."""
    data, mode, stamp = _read_bytes(path)
    bom = data.startswith(codecs.BOM_UTF8)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise ReadError(path, line, f"not UTF-8: {error}") from None
    return SourceFile(path, text, "utf-8", bom, mode, stamp)


def write_atomic(path: Path, text: str, like: Optional[SourceFile] = None) -> None:
    """Replace ``path`` with ``text`` in one step, keeping encoding, BOM and mode of ``like``.

    A symbolic link is followed, so the file it names is rewritten and the
    link stays a link. A file without any write bit is refused even for root,
    who may write anything: read-only is the owner's wish not to change it.
    """
    path = Path(os.path.realpath(path))
    old = _stat_or_none(path)
    if old is not None and (not stat.S_IMODE(old.st_mode) & 0o222 or not os.access(path, os.W_OK)):
        raise PermissionError(errno.EACCES, "file is read-only; not rewritten", str(path))
    if old is not None and like is not None and like.stamp is not None and _same_file(like.path, old) \
            and like.stamp != (old.st_size, old.st_mtime_ns):
        raise OSError(errno.EAGAIN, "file changed on disk since it was read; not rewritten", str(path))
    encoding = like.encoding if like else "utf-8"
    data = text.encode(encoding)
    if like is not None and like.bom:
        data = codecs.BOM_UTF8 + data
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tf-migrate", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        mode = like.mode if like is not None else (0o666 & ~_umask())
        os.chmod(temp, mode)
        if old is not None:
            _keep_owner(temp, old)
        os.replace(temp, path)
    except BaseException:
        if os.path.exists(temp):
            os.unlink(temp)
        raise
    _sync_folder(path.parent)


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (a power cut otherwise may undo it)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems cannot sync a folder; the rename is still atomic
    finally:
        os.close(fd)


def _same_file(path: Path, info: os.stat_result) -> bool:
    try:
        read = os.stat(path)
    except OSError:
        return False
    return (read.st_dev, read.st_ino) == (info.st_dev, info.st_ino)


def _stat_or_none(path: Path) -> Optional[os.stat_result]:
    try:
        return os.stat(path)
    except FileNotFoundError:
        return None


def _keep_owner(temp: str, old: os.stat_result) -> None:
    """Give the new file the old one's owner and group where we may (as root, say)."""
    if (old.st_uid, old.st_gid) == (os.geteuid(), os.getegid()):
        return
    try:
        os.chown(temp, old.st_uid, old.st_gid)
    except OSError:
        pass  # not permitted: the file becomes ours, as with any editor's save


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
