"""Find, read and write source files without losing a byte.

Reading keeps what a rewrite must give back: the encoding (PEP 263 cookie
or BOM), and the line endings (LibCST keeps them in the text). Writing is
atomic (a temp file in the same folder, then ``os.replace``) and keeps the
file's mode bits, so a crash leaves either the old file or the new one.
"""
from __future__ import annotations

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


@dataclass(frozen=True)
class SourceFile:
    path: Path
    text: str
    encoding: str
    bom: bool
    mode: int


def discover(paths: Iterable[str], exclude: Iterable[Path] = ()) -> Tuple[List[Path], List[str]]:
    """Files under ``paths`` (.py and .ipynb), each once, in a stable order; plus problems found."""
    excluded = {Path(p).resolve() for p in exclude}
    seen: Set[Path] = set()
    found: List[Path] = []
    problems: List[str] = []
    for raw in paths:
        path = Path(raw)
        if not path.exists():
            problems.append(f"{raw}: no such file or directory")
            continue
        for candidate in _walk(path, excluded, problems):
            real = candidate.resolve()
            if real in seen:
                continue
            seen.add(real)
            found.append(candidate)
    return found, problems


def _walk(path: Path, excluded: Set[Path], problems: List[str]) -> Iterator[Path]:
    if path.resolve() in excluded:
        return
    if path.is_file():
        yield path
        return
    visited: Set[Tuple[int, int]] = set()
    for root, dirs, files in os.walk(path, followlinks=True):
        info = os.stat(root)
        if (info.st_dev, info.st_ino) in visited:
            problems.append(f"{root}: symlink loop, not followed")
            dirs[:] = []
            continue
        visited.add((info.st_dev, info.st_ino))
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and Path(root, d).resolve() not in excluded)
        for name in sorted(files):
            if name.endswith(SUFFIXES):
                yield Path(root, name)


def read_source(path: Path) -> SourceFile:
    """Decode a .py file as Python does (BOM, coding cookie, else UTF-8)."""
    try:
        data = path.read_bytes()
        mode = stat.S_IMODE(path.stat().st_mode)
    except OSError as error:
        raise ReadError(path, 0, f"cannot read: {error.strerror}") from None
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
    return SourceFile(path, text, "utf-8" if bom else encoding, bom, mode)


def read_text_file(path: Path) -> SourceFile:
    """Read a notebook (JSON, UTF-8)."""
    try:
        data = path.read_bytes()
        mode = stat.S_IMODE(path.stat().st_mode)
        return SourceFile(path, data.decode("utf-8"), "utf-8", False, mode)
    except OSError as error:
        raise ReadError(path, 0, f"cannot read: {error.strerror}") from None
    except UnicodeDecodeError as error:
        raise ReadError(path, 1, f"not UTF-8: {error}") from None


def write_atomic(path: Path, text: str, like: Optional[SourceFile] = None) -> None:
    """Replace ``path`` with ``text`` in one step, keeping encoding, BOM and mode of ``like``."""
    if path.exists() and not os.access(path, os.W_OK):
        raise PermissionError(f"{path}: file is read-only; not rewritten")
    encoding = like.encoding if like else "utf-8"
    data = text.encode(encoding)
    if like is not None and like.bom:
        data = b"\xef\xbb\xbf" + data
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tf-migrate", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        mode = like.mode if like is not None else (0o666 & ~_umask())
        os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException:
        if os.path.exists(temp):
            os.unlink(temp)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
