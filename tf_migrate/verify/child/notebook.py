"""Notebooks for ``tf_migrate.verify``: as one script, or in a real Jupyter kernel.

Script path (``script_cells``): the code cells run in order in one namespace, the
value of a cell's last expression is printed as a prompt would show it, and
IPython syntax is neutralized: line magics (``%...``) and shell escapes
(``!...``) become ``pass`` (``%time stmt`` runs ``stmt``; ``x = !cmd`` sets
``x = None``); cell magics run their body as Python for ``%%time``/``%%capture``
(the latter silenced), write it for ``%%writefile``, and drop it otherwise
(``%%bash``, ``%%html``, ...).

Kernel path (``python notebook.py CONFIG.json``): nbclient runs the code
cells in an ipykernel of this interpreter, after a hidden first cell that
prepares the process as ``boot.prepare`` does, sends TF's log to stderr
(in a kernel TF logs to stdout) and stubs ``%matplotlib`` where matplotlib is
not installed. What the cells print to stdout and their
``text/plain`` results are written to stdout, so both paths compare the same way.
"""

import json
import os
import re
import sys

_LINE_MAGIC = re.compile(r"^(?P<indent>\s*)(?P<target>[\w.\[\]'\", ]+\s*=\s*)?(?P<kind>[%!])(?P<rest>.*)$")


def _neutralize_line(line):
    match = _LINE_MAGIC.match(line)
    if match is None or match.group("rest").startswith("%"):
        return line
    indent, target, rest = match.group("indent"), match.group("target"), match.group("rest")
    if target:
        return f"{indent}{target}None"
    if match.group("kind") == "%" and rest.split(" ", 1)[0] == "time" and " " in rest:
        return indent + rest.split(" ", 1)[1]
    return indent + "pass"


def neutralize(source):
    """A code cell's source as plain Python (see module doc)."""
    lines = source.splitlines()
    first = lines[0].strip() if lines else ""
    if first.startswith("%%"):
        magic, _, args = first[2:].partition(" ")
        body = "\n".join(lines[1:])
        if magic == "time":
            return neutralize(body)
        if magic == "capture":
            return (
                "import contextlib as _c, io as _io\n"
                f"with _c.redirect_stdout(_io.StringIO()):\n    exec({neutralize(body)!r}, globals())\n"
            )
        if magic == "writefile":
            words = args.split()
            mode = "a" if "-a" in words or "--append" in words else "w"
            name = [w for w in words if not w.startswith("-")][-1]
            return f"with open({name!r}, {mode!r}) as _f:\n    _f.write({body + chr(10)!r})\n"
        return ""
    text = "\n".join(_neutralize_line(line) for line in lines)
    return text + "\n" if text else ""


def _code_cells(notebook):
    return [
        (index, "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"])
        for index, cell in enumerate(notebook["cells"], start=1)
        if cell.get("cell_type") == "code"
    ]


def script_cells(notebook_text, label):
    """The code cells of a notebook (JSON text) as runnable cells for ``boot``."""
    notebook = json.loads(notebook_text)
    return [
        {"filename": f"{label} cell {index}", "source": neutralize(source)}
        for index, source in _code_cells(notebook)
    ]


_HIDDEN_CELL = """\
import importlib.util as _u, sys as _s
_spec = _u.spec_from_file_location("_tf_migrate_verify_boot", {boot!r})
_boot = _u.module_from_spec(_spec); _s.modules["_tf_migrate_verify_boot"] = _boot; _spec.loader.exec_module(_boot)
_boot.prepare({mode!r}, program_dir={program_dir!r}, log_path={log!r}, fetch_order={order!r},
              user_files={user_files!r})
from tensorflow.python.platform import tf_logging as _log  # TF logs to stdout in kernels: not output
for _h in _log.get_logger().handlers:
    _h.setStream(_s.stderr)
if _u.find_spec("matplotlib") is None:
    get_ipython().register_magic_function(lambda line: None, "line", "matplotlib")
del _u, _s, _spec, _boot, _log
"""


def hidden_cell(mode, *, program_dir, log, fetch_order, user_files):
    boot = os.path.join(os.path.dirname(os.path.abspath(__file__)), "boot.py")
    return _HIDDEN_CELL.format(
        boot=boot, mode=mode, program_dir=program_dir, log=log, order=fetch_order, user_files=user_files
    )


def kernel_available():
    import importlib.util

    return all(importlib.util.find_spec(name) for name in ("nbclient", "nbformat", "ipykernel"))


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _cell_output(cell):
    parts = []
    for output in cell.get("outputs", []):
        if output.get("output_type") == "stream" and output.get("name") == "stdout":
            parts.append(output["text"])
        elif output.get("output_type") in ("execute_result", "display_data"):
            text = output.get("data", {}).get("text/plain")
            if text is not None:
                parts.append(text + "\n")
    return "".join(parts)


def _kernelspec(root):
    """A kernelspec for this interpreter, so a system-wide ``python3`` spec cannot win."""
    folder = os.path.join(root, "kernels", "tf-migrate-verify")
    os.makedirs(folder, exist_ok=True)
    spec = {"argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
            "display_name": "tf-migrate verify", "language": "python"}
    with open(os.path.join(folder, "kernel.json"), "w", encoding="utf-8") as f:
        json.dump(spec, f)
    os.environ["JUPYTER_PATH"] = root
    return "tf-migrate-verify"


def run_kernel(config):
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError

    notebook = nbformat.reads(config["notebook"], as_version=4)
    cells = [c for c in notebook.cells if c.cell_type == "code"]
    notebook.cells = [nbformat.v4.new_code_cell(config["hidden"])] + cells
    client = NotebookClient(
        notebook,
        timeout=config["timeout"],
        kernel_name=_kernelspec(config["jupyter_path"]),
        resources={"metadata": {"path": config["cwd"]}},
    )
    status = 0
    try:
        client.execute()
    except CellTimeoutError as error:
        print(f"CellTimeoutError: {error}", file=sys.stderr)
        status = 124
    except CellExecutionError as error:
        print(_ANSI.sub("", str(error)), file=sys.stderr)
        status = 1
    sys.stdout.write("".join(_cell_output(cell) for cell in notebook.cells[1:]))
    sys.stdout.flush()
    return status


if __name__ == "__main__":
    sys.path.pop(0)
    with open(sys.argv[1], encoding="utf-8") as f:
        sys.exit(run_kernel(json.load(f)))
