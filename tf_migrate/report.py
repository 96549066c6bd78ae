"""Findings and the run summary, printed as text or JSON."""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Dict, Iterable, List

INFO = "info"
WARNING = "warning"
ERROR = "error"
SEVERITIES = (INFO, WARNING, ERROR)


@dataclass(frozen=True)
class Finding:
    """One change made, or one place that could not be converted."""

    path: str
    line: int
    col: int
    rule: str
    severity: str
    message: str

    def format(self) -> str:
        return f"{self.path}:{self.line}:{self.col}: {self.severity.upper()} {self.rule}: {self.message}"


# Outcome of one file.
UNCHANGED = "unchanged"
EAGER = "eager"
COMPAT = "compat"
FAILED = "failed"
SKIPPED = "skipped"


@dataclass
class Summary:
    files_seen: int = 0
    outcomes: Counter = field(default_factory=Counter)
    compat_reasons: Dict[str, str] = field(default_factory=dict)
    outcome_by_file: Dict[str, str] = field(default_factory=dict)
    findings: List[Finding] = field(default_factory=list)
    verify_counts: Counter = field(default_factory=Counter)

    def add(self, path: str, outcome: str, findings: Iterable[Finding], compat_reason: str = "") -> None:
        self.files_seen += 1
        self.outcomes[outcome] += 1
        self.outcome_by_file[path] = outcome
        self.findings.extend(findings)
        if outcome == COMPAT:
            self.compat_reasons[path] = compat_reason

    def by_severity(self) -> Counter:
        return Counter(f.severity for f in self.findings)

    def text(self) -> str:
        sev = self.by_severity()
        lines = [f.format() for f in self.findings]
        lines.append(
            f"{self.files_seen} file(s) seen: {self.outcomes[EAGER]} converted to eager, "
            f"{self.outcomes[COMPAT]} kept in compat mode, {self.outcomes[UNCHANGED]} unchanged, "
            f"{self.outcomes[SKIPPED]} skipped, {self.outcomes[FAILED]} failed"
        )
        for path, why in sorted(self.compat_reasons.items()):
            lines.append(f"  compat: {path}: {why}")
        lines.append("findings: " + ", ".join(f"{sev[s]} {s}" for s in SEVERITIES))
        if self.verify_counts:
            lines.append("verify: " + ", ".join(f"{n} {status}" for status, n in sorted(self.verify_counts.items())))
        return "\n".join(lines)

    def json(self) -> str:
        return json.dumps(
            {
                "files_seen": self.files_seen,
                "outcomes": dict(self.outcomes),
                "compat_reasons": self.compat_reasons,
                "files": self.outcome_by_file,
                "findings_by_severity": dict(self.by_severity()),
                "verify": dict(self.verify_counts),
                "findings": [asdict(f) for f in self.findings],
            },
            indent=2,
        )


GENERIC_REASON = "has no eager rewrite in tf-migrate yet"


def explained_reason(reason: str, blocked: List["Finding"], declined: List["Finding"]) -> str:
    """The compat reason: the first blocker's, or, where that only says an API call was left as it was, what the rule
    that declined that call said at its line (``tf.layers.dense configured from values local to its function``)."""
    first = blocked[0] if blocked else None
    if first is None or GENERIC_REASON not in reason:
        return reason
    why = next((f.message for f in declined if f.severity != INFO and (f.line, f.col) == (first.line, first.col)), None)
    return why or reason
