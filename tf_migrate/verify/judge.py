"""The verdict of a verification: the runs of the legacy program against the migrated one.

A failed run is judged first, then what makes the runs not comparable (an open read/update
order, random draws that were not shared, nothing printed, no variables and no results held by
names), then a legacy program that computed nothing (it opened no Session: a module of layer
and model functions), then the printed output, the trained variables and the results the program's names hold
(``output_compare``, ``state_compare``, ``values_compare``).
"""
import re

from tf_migrate.verify import draw_match, output_compare, state_compare, values_compare

EQUIVALENT = "equivalent"
DIFFERENT = "different"
LEGACY_FAILS = "legacy-fails"
MIGRATED_FAILS = "migrated-fails"
NOT_COMPARABLE = "not-comparable"
NO_COMPUTATION = "no-computation"


_NOISE = re.compile(
    r"^(?:[IWEF]\d{4} \d\d:\d\d:\d\d|WARNING: All log messages|WARNING:tensorflow:|"
    r"Instructions for updating:|WARNING:absl:|\S+: (?:Deprecation|User|Future)Warning:|\s*warnings\.warn\()"
)


def error_tail(run):
    """The last frames and the message of a run's last traceback, without TF's log noise."""
    if run.timed_out:
        return f"timed out after {run.timeout:g} s; the process was killed"
    lines = [line for line in run.stderr.splitlines() if line.strip() and not _NOISE.match(line)]
    starts = [i for i, line in enumerate(lines) if line.startswith("Traceback (most recent call last):")]
    if not starts:
        return "\n".join(lines[-10:]) or f"exited with status {run.returncode}"
    block = lines[starts[-1]:]
    message = next((i for i, line in enumerate(block) if i and not line.startswith(" ")), len(block))
    frames, text = block[max(1, message - 4):message], []
    for line in block[message:]:
        if line.startswith("Original stack trace for"):
            break
        if not line[0].isspace():  # TF's messages list where each op was defined: drop that
            text.append(line)
    return "\n".join(block[:1] + frames + text[:8])


def judge(legacy_runs, migrated, *, rtol, atol):
    """The verdict (status, detail) of the legacy runs (one, or both fetch orders) against the migrated run."""
    legacy = legacy_runs[0]
    if legacy.failed:
        return LEGACY_FAILS, error_tail(legacy)
    if migrated.failed:
        if len(legacy_runs) > 1 and legacy_runs[1].failed:  # TF1's order, not the migration, decides
            return NOT_COMPARABLE, (
                f"sess.run at {legacy.events_of('ambiguous')[0]['where']} reads variables it also updates, in no "
                f"defined order, and the order decides whether the program fails: the migrated run failed "
                f"({error_tail(migrated).splitlines()[-1][:160]}), and so did the legacy run in the "
                f"update-before-read order ({error_tail(legacy_runs[1]).splitlines()[-1][:160]})")
        return MIGRATED_FAILS, error_tail(migrated)
    unresolvable = legacy.events_of("unresolvable")
    if unresolvable:
        where = unresolvable[0]["where"]
        return NOT_COMPARABLE, (
            f"sess.run at {where} fetches {', '.join(unresolvable[0]['fetches'])} together with an "
            "update of the variables they read; TF1 leaves that order open and these values "
            "cannot be re-read without side effects"
        )
    reason = draw_match.reconcile(legacy.events, migrated.events)
    if reason and not draw_match.legacy_drew_more(legacy.events, migrated.events):
        return NOT_COMPARABLE, reason
    # Draws only TF1 made (a second initializer run drawing the first model's variables again) leave the
    # variables unaligned: then the output alone can show the two agree, and other output proves nothing.
    status, detail = _compared(legacy_runs, migrated, rtol=rtol, atol=atol, with_state=not reason)
    if reason and status == EQUIVALENT:
        return status, (f"{detail}; variables not compared: the legacy program also made random draws the "
                        f"migrated one does not ({reason})")
    return (NOT_COMPARABLE, reason) if reason else (status, detail)


def _compared(legacy_runs, migrated, *, rtol, atol, with_state):
    """The verdict of the outputs, trained variables (``with_state``) and held results of two runs."""
    legacy = legacy_runs[0]
    states = [_state(run, migrated) if with_state else None for run in legacy_runs]
    printed = bool(output_compare.tokenize(legacy.stdout))
    nothing_held = states[0] is None or states[0].status == state_compare.UNMATCHED
    if not printed and nothing_held and _opened_no_session(legacy):
        if output_compare.tokenize(migrated.stdout):
            return DIFFERENT, ("the legacy program opened no Session and printed nothing; the migrated one printed "
                               f"{migrated.stdout.strip().splitlines()[0][:120]!r}")
        return NO_COMPUTATION, (
            "the legacy program opened no Session, so it computed nothing (it defines functions, layers or "
            "constants); both versions ran to their end without error and printed nothing. Its code runs, "
            "and is verified, in the programs that import it")
    if not printed and nothing_held:
        why = (f" and {states[0].detail}" if states[0]
               else " and no trained variables or sess.run results held by names to compare")
        return NOT_COMPARABLE, "the legacy program printed nothing to compare" + why
    differences = [
        output_compare.first_difference(run.stdout, migrated.stdout, rtol=rtol, atol=atol) if printed else None
        for run in legacy_runs
    ]
    threads = legacy.events_of("threads")
    if printed and None not in differences and threads:
        return NOT_COMPARABLE, (
            f"sess.run at {threads[0]['where']} runs in a worker thread: threads that share variables "
            f"interleave as the OS schedules them, so no two runs repeat each other ({differences[0]})")
    racing = legacy.events_of("racing")
    if printed and None not in differences and racing:  # equal output is still equal; other output proves nothing
        return NOT_COMPARABLE, f"sess.run at {racing[0]['where']} {_race(racing[0])} ({differences[0]})"
    verdicts = [_verdict(difference, state, printed) for difference, state in zip(differences, states)]
    matching = [i for i, (status, _) in enumerate(verdicts) if status == EQUIVALENT]
    if racing and not matching and all(difference is None for difference in differences):
        # Equal output, other trained values: the values TF1's scheduler let the racing update read.
        return NOT_COMPARABLE, f"sess.run at {racing[0]['where']} {_race(racing[0])} (equal output; {verdicts[0][1]})"
    if len(legacy_runs) == 1:
        return verdicts[0]
    if not matching:
        return DIFFERENT, verdicts[0][1] + _order_note(legacy, "matches neither order")
    order = "read-before-update" if matching[0] == 0 else "update-before-read"
    return EQUIVALENT, verdicts[matching[0]][1] + _order_note(legacy, f"matches the {order} order")


def _race(event):
    """What a ``racing`` event of the fetch-order log says, as a sentence."""
    if event.get("variables"):
        return (f"updates {', '.join(event['variables'])} twice with no order between the updates, "
                "so TF1 leaves the result to its scheduler")
    return (f"computes updates from variables it also updates, with no order between the read and the "
            f"update ({', '.join(event['reads'])}), so TF1 leaves the values read to its scheduler")


def _opened_no_session(legacy):
    """True when the legacy run says it opened no Session (runs that do not count them say nothing)."""
    counts = legacy.events_of("sessions")
    return bool(counts) and counts[-1]["opened"] == 0


def _state(legacy, migrated):
    """The trained variables' verdict, joined with the verdict on the results names hold (None: neither).

    A difference in either is the difference; unmatched variables leave the names to judge.
    """
    variables = state_compare.compare(legacy.state, migrated.state)
    values = values_compare.compare(legacy.values, migrated.values)
    if values is None:
        return variables
    if variables is None or variables.status == state_compare.UNMATCHED or values.status == state_compare.DIFFERENT:
        return values
    if variables.status == state_compare.DIFFERENT:
        return variables
    return state_compare.StateVerdict(state_compare.EQUAL, f"{variables.detail}, {values.detail}")


def _verdict(difference, state, printed):
    """The status and detail of one legacy run against the migrated one: output first, then state."""
    state_note = ""
    if state is not None and state.status == state_compare.DIFFERENT:
        state_note = f"; {state.detail}"
    if difference is not None:
        return DIFFERENT, difference + state_note
    output = "equal output" if printed else "nothing printed"
    if state is not None and state.status == state_compare.DIFFERENT:
        return DIFFERENT, f"{output}, but {state.detail}"
    if state is None:
        return EQUIVALENT, output
    if state.status == state_compare.EQUAL:
        return EQUIVALENT, f"{output}, {state.detail}"
    return EQUIVALENT, f"{output} (trained variables not compared: {state.detail})"


def _order_note(legacy, verdict):
    where = legacy.events_of("ambiguous")[0]["where"]
    return f" (sess.run at {where} reads variables it also updates, in no defined order; the migrated output {verdict})"
