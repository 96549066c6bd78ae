"""A process that imports TensorFlow once and forks each run of ``boot.py`` from there.

Importing TensorFlow costs ~3-4 s of CPU a process, more than most programs a verification runs
take. ``tf_migrate.verify.preloaded`` starts this script once per environment (the legacy and the
migrated side differ: ``TF_USE_LEGACY_KERAS``), as ``python preload.py HOME`` with HOME its own
folder (removed when it exits), and sends it one JSON request per line on stdin:
``{"script", "config", "cwd", "env", "stdout", "stderr"}``. For each it forks a child that becomes
the run a fresh ``python boot.py CONFIG`` would have been: its own session (process group), working
directory, environment, ``sys.path`` and ``sys.argv``, stdin from ``/dev/null``, stdout and stderr to
the given files; it answers ``{"pid": ...}`` at once and ``{"pid": ..., "returncode": ...}`` when the
child has ended (a negative code: the signal that ended it).

Forking is safe here because nothing has run yet: importing TensorFlow starts no thread of its own
(numpy's BLAS pool has fork handlers) and creates no session or eager context. Like ``boot.py`` it
never imports ``tf_migrate``.
"""

import importlib.util
import json
import os
import shutil
import sys
import tempfile


def main(home):
    """Serves requests until stdin closes; then removes ``home`` (this process's own folders)."""
    requests = os.dup(0)  # the protocol runs on private descriptors; 0 and 1 are /dev/null here
    channel = os.dup(1)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.close(null)
    base_path = [entry for entry in sys.path[1:] if entry not in _pythonpath(os.environ)]

    for name in ("numpy", "tensorflow"):  # what every run imports first
        importlib.import_module(name)

    pending = b""
    while True:
        while b"\n" not in pending:
            data = os.read(requests, 1 << 16)
            if not data:  # the parent has gone: so do we
                shutil.rmtree(home, ignore_errors=True)
                return 0
            pending += data
        line, pending = pending.split(b"\n", 1)
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            os.close(requests)
            os.close(channel)
            return _run(request, base_path)
        os.write(channel, (json.dumps({"pid": pid}) + "\n").encode())
        _, status = os.waitpid(pid, 0)
        os.write(channel, (json.dumps({"pid": pid, "returncode": os.waitstatus_to_exitcode(status)}) + "\n")
                 .encode())


def _pythonpath(env):
    return [entry for entry in env.get("PYTHONPATH", "").split(os.pathsep) if entry]


def _run(request, base_path):
    """In the forked child: become ``python SCRIPT CONFIG`` with the request's environment, and run it."""
    os.setsid()
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    null = os.open(os.devnull, os.O_RDONLY)
    out = os.open(request["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    err = os.open(request["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    for source, target in ((null, 0), (out, 1), (err, 2)):
        os.dup2(source, target)
        os.close(source)
    # A fresh interpreter's path: PYTHONPATH, then the installation's (boot.py drops its own folder).
    sys.path[:] = [os.path.abspath(entry) for entry in _pythonpath(os.environ)] + base_path
    tempfile.tempdir = None  # TMPDIR is the run's
    _keras_homes(os.environ.get("KERAS_HOME"))
    script, config = request["script"], request["config"]
    sys.argv = [script, config]
    spec = importlib.util.spec_from_file_location("_tf_migrate_verify_boot_main", script)
    boot = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(boot)
    return boot.main(config)  # its SystemExit (the program's sys.exit) ends this process the same way


def _keras_homes(home):
    """Keras and tf_keras read KERAS_HOME when TensorFlow imported them, here: the run's folder instead."""
    if not home:
        return
    for module_name, attribute in (("keras.src.backend.config", "_KERAS_DIR"),
                                   ("tf_keras.src.backend", "_keras_dir")):
        module = sys.modules.get(module_name)
        if module is not None and hasattr(module, attribute):
            setattr(module, attribute, home)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
