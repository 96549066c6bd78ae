"""``tf-migrate --verify``: run a legacy program and its migration, compare what they do.

Parent side (this package's modules): ``verifier`` starts the two runs, ``judge`` gives their verdict,
``output_compare`` compares printed output, ``draw_match`` the random draws, ``cli`` reports
per file. Child side (``child/``): what runs inside each program's own process (``boot``,
``random_draws``, ``fetch_order``, ``notebook``); it never imports ``tf_migrate``.
"""
from tf_migrate.verify.judge import DIFFERENT, EQUIVALENT, LEGACY_FAILS, MIGRATED_FAILS, NO_COMPUTATION, NOT_COMPARABLE
from tf_migrate.verify.verifier import RunSummary, VerifyResult, run_program, verify_program

__all__ = [
    "DIFFERENT", "EQUIVALENT", "LEGACY_FAILS", "MIGRATED_FAILS", "NO_COMPUTATION", "NOT_COMPARABLE", "RunSummary",
    "VerifyResult", "run_program", "verify_program",
]
