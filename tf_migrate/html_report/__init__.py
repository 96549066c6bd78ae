"""``--html-report DIR``: a static report of a run that people can browse and share.

>>> write_report(Path("report"), outcomes, summary)  # doctest: +SKIP
PosixPath('report/index.html')

``DIR/index.html`` holds the counts, a chart of outcomes (and of verify
verdicts when ``--verify`` ran) and a table of every file; ``DIR/files/``
holds one page per file (``file_page``). The pages are self-contained: one
inline style sheet, inline SVG, no script and nothing fetched at view time.
Page names are stable for a path and safe whatever characters it holds.
"""
from __future__ import annotations

import dataclasses
import hashlib
import re
from pathlib import Path
from typing import Dict, Optional, Sequence

from tf_migrate import files, report
from tf_migrate.html_report.file_page import file_page
from tf_migrate.html_report.index_page import index_page
from tf_migrate.runner import FileOutcome

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_NAME_TAIL = 60  # characters of the path kept in a page name: the end, where the file name is


def page_name(path: str) -> str:
    """The file name of ``path``'s page: readable, unique (a hash of the whole path), and safe anywhere."""
    digest = hashlib.sha256(path.encode("utf-8", "surrogateescape")).hexdigest()[:10]
    readable = _UNSAFE.sub("_", path)[-_NAME_TAIL:].strip("._") or "file"
    return f"{readable}-{digest}.html"


def write_report(folder: Path, outcomes: Sequence[FileOutcome], summary: report.Summary,
                 verdicts: Optional[Dict[str, object]] = None, inputs: Sequence[str] = ()) -> Path:
    """Write the report of a run into ``folder`` (created if needed); return the index page's path.

    Args:
        folder: where ``index.html`` and ``files/`` go; pages of earlier runs there are overwritten.
        outcomes: the run's ``FileOutcome`` list.
        summary: the run's summary (the counts shown are its counts).
        verdicts: path -> ``verify.VerifyResult``, when ``--verify`` ran.
        inputs: the paths the run was given, shown on the index.

    Raises ``OSError`` when a page cannot be written.
    """
    pages = folder / "files"
    pages.mkdir(parents=True, exist_ok=True)
    entries = []
    for outcome in map(_with_source, outcomes):
        name = page_name(outcome.path)
        verdict = verdicts.get(outcome.path) if verdicts is not None else None
        _write(pages / name, file_page(outcome, verdict))
        entries.append((outcome, f"files/{name}"))
    index = folder / "index.html"
    _write(index, index_page(entries, summary, verdicts, inputs))
    return index


def _with_source(outcome: FileOutcome) -> FileOutcome:
    """A file that failed keeps no source; read it again so that its page shows the line that failed."""
    if outcome.outcome != report.FAILED or outcome.source:
        return outcome
    try:
        read = files.read_text_file if outcome.kind == "ipynb" else files.read_source
        text = read(Path(outcome.path)).text
    except files.ReadError:  # unreadable then, unreadable now: the page shows the findings alone
        return outcome
    return dataclasses.replace(outcome, source=text, new_source=text)


def _write(path: Path, html: str) -> None:
    # Paths from the file system may hold undecodable bytes (surrogate escapes): show them, do not crash.
    path.write_bytes(html.encode("utf-8", "backslashreplace"))
