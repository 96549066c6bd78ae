"""``tf-migrate --verify``: run a legacy program and its migration, compare what they do.

Parent side (this package's modules): ``verifier`` starts the two runs and judges them,
``output_compare`` compares printed output, ``draw_match`` the random draws, ``cli`` reports
per file. Child side (``child/``): what runs inside each program's own process (``boot``,
``random_draws``, ``fetch_order``, ``notebook``); it never imports ``tf_migrate``.
"""
from tf_migrate.verify.verifier import (
    DIFFERENT, EQUIVALENT, LEGACY_FAILS, MIGRATED_FAILS, NOT_COMPARABLE, RunSummary, VerifyResult,
    run_program, verify_program,
)

__all__ = [
    "DIFFERENT", "EQUIVALENT", "LEGACY_FAILS", "MIGRATED_FAILS", "NOT_COMPARABLE", "RunSummary",
    "VerifyResult", "run_program", "verify_program",
]
