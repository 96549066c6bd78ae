"""``--verify``: run every legacy program and its migration, report per file."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Dict, List, Optional

from tf_migrate import report, verify
from tf_migrate.report import ERROR, INFO, WARNING, Finding
from tf_migrate.runner import FileOutcome

# Statuses that do not make --verify fail: the migration is right, or nothing can judge it.
_ACCEPTED = {verify.EQUIVALENT, verify.NOT_COMPARABLE, verify.LEGACY_FAILS}
_SEVERITY = {verify.EQUIVALENT: INFO, verify.NOT_COMPARABLE: WARNING, verify.LEGACY_FAILS: WARNING,
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
