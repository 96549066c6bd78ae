"""Which deferred statements one run needs (a backward slice over names)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional, Set, Tuple

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.run_sites import RunSite
from tf_migrate.analysis.symbols import reads


@dataclass
class RunPlan:
    """What the generated function of one run site computes."""

    site: RunSite
    statements: List["pm.Statement"]  # deferred statements, in program order
    fed: List[Tuple[str, Optional[cst.BaseExpression]]]  # (key, value) in feed order; value None if dynamic
    dynamic_feed: bool
    unfed_placeholders: List["pm.Statement"] = field(default_factory=list)
    reads: Set[str] = field(default_factory=set)  # every key the function reads

    @property
    def needs_function(self) -> bool:
        return bool(self.statements or self.fed or self.unfed_placeholders or self.dynamic_feed)


def plan_run(scope: "pm.Scope", site: RunSite, limit: int) -> RunPlan:
    """Slice ``scope`` for ``site``, using statements before index ``limit``."""
    literal = site.literal_feeds
    dynamic = literal is None
    # A key given twice in the feed dict literal: Python keeps the last value, in the first one's place.
    fed = [] if dynamic else list({key: value for key, _, value in literal}.items())
    fed_keys = {key for key, _ in fed}
    needed = {k for k in reads(site.fetch) if scope.deferred(k)} - fed_keys
    chosen: List[pm.Statement] = []
    placeholders: List[pm.Statement] = []
    for st in reversed(scope.statements[:limit]):
        if st.role != pm.DEFER or not set(st.defines) & needed:
            continue
        needed -= set(st.defines)
        if st.kind == pm.PLACEHOLDER:
            placeholders.append(st)
            continue
        chosen.append(st)
        needed |= {k for k in st.reads if scope.deferred(k)} - fed_keys
    chosen.reverse()
    placeholders.reverse()
    all_reads = set(reads(site.fetch))
    for st in chosen + placeholders:
        all_reads |= st.reads
    return RunPlan(site, chosen, fed, dynamic, placeholders, all_reads)
