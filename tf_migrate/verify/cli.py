"""``--verify``: run every legacy program and its migration, report per file; ``--verify-entry``: one project
command."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Dict, List, Optional

from tf_migrate import report, verify, verify_entry
from tf_migrate.report import ERROR, INFO, WARNING, Finding
from tf_migrate.runner import FileOutcome

# Statuses that do not make --verify fail: the migration is right, or nothing can judge it.
_ACCEPTED = {verify.EQUIVALENT, verify.NO_COMPUTATION, verify.NOT_COMPARABLE, verify.LEGACY_FAILS}
_SEVERITY = {verify.EQUIVALENT: INFO, verify.NO_COMPUTATION: INFO, verify.NOT_COMPARABLE: WARNING, verify.LEGACY_FAILS: WARNING,
             verify.DIFFERENT: ERROR, verify.MIGRATED_FAILS: ERROR}


def verify_outcomes(outcomes: List[FileOutcome], timeout: float, summary: "report.Summary",
                    verdicts: Optional[Dict[str, verify.VerifyResult]] = None) -> bool:
    """Verify each migrated file; True when every one is equivalent or legitimately not comparable.

    ``verdicts``, when given, receives each file's full result (for the HTML report).
    """
    all_good = True
    for outcome in outcomes:
        if outcome.outcome in (report.FAILED, report.SKIPPED):
            continue
        result = verify.verify_program(outcome.source, outcome.new_source, path=Path(outcome.path),
                                       kind=outcome.kind, timeout=timeout)
        detail = result.detail.strip().splitlines()[-1] if result.detail.strip() else ""
        line = f"verify {outcome.path}: {result.status} ({result.seconds:.1f} s)" + (f": {detail}" if detail else "")
        print(line, file=sys.stderr)
        summary.findings.append(Finding(outcome.path, 1, 0, "verify", _SEVERITY[result.status],
                                        f"{result.status}" + (f": {detail}" if detail else "")))
        summary.verify_counts[result.status] += 1
        if verdicts is not None:
            verdicts[outcome.path] = result
        all_good &= result.status in _ACCEPTED
    return all_good


def verify_entry_command(command: str, root: Path, outcomes: List[FileOutcome], timeout: float,
                         summary: "report.Summary") -> bool:
    """Run the entry ``command`` in the original and the migrated tree; True when accepted (as --verify)."""
    try:
        result = verify_entry.verify_entry(command, root, outcomes, timeout)
    except verify_entry.EntryError as error:
        summary.findings.append(Finding(str(root), 0, 0, "verify-entry", ERROR, str(error)))
        return False
    detail = result.detail.strip().splitlines()[-1] if result.detail.strip() else ""
    print(f"verify-entry {command!r} in {root}: {result.status} ({result.seconds:.1f} s)"
          + (f": {detail}" if detail else ""), file=sys.stderr)
    summary.findings.append(Finding(str(root), 0, 0, "verify-entry", _SEVERITY[result.status],
                                    f"{command}: {result.status}" + (f": {detail}" if detail else "")))
    summary.verify_counts[result.status] += 1
    return result.status in _ACCEPTED
