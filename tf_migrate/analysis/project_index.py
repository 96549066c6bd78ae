"""An index of a source tree, built with the stdlib ``ast`` before any LibCST work.

One pass per module: a text check first (a module that never says "tensorflow"
is recorded as TF-free and its imports are read only if it imports at all), then
Python's C parser. The index gives:

- the module graph: ``import a.b``, ``from a import b``, relative imports and
  star imports, resolved to files inside the tree. A name is looked up as Python
  would for a script run from its own folder (that folder first), then from the
  tree's root. Imports that reach no file of the tree are outside it (numpy, TF).
- ``sys.path`` edits (``sys.path.append(...)``, ``site.addsitedir``), reported
  with their line and never followed: the folder they add is known only at run time.
- which modules import TensorFlow, under which alias, and whether as ``compat.v1``;
- the graph-building names each module defines at top level: functions and
  classes whose bodies use TensorFlow, directly or through another such name.

The index never imports the user's code or TensorFlow. Project-level decisions
(which modules must share a mode) are made from it in ``tf_migrate/project.py``.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Set, Tuple

from tf_migrate.analysis.module_calls import attributes_called_once, count_calls, module_sessions, session_arguments

TENSORFLOW = "tensorflow"


@dataclass(frozen=True)
class ImportEdge:
    """One import statement of a module that reaches another module of the tree."""

    importer: str  # module name, dotted
    line: int
    target: str  # module name, dotted
    names: Tuple[str, ...]  # names imported from it ("*" for a star import; () for ``import target``)

    @property
    def star(self) -> bool:
        return "*" in self.names


@dataclass
class ModuleInfo:
    """What the pre-pass knows of one module."""

    name: str
    path: Path
    mentions_tensorflow: bool = False  # the text says "tensorflow" somewhere (comments and strings count)
    tf_aliases: Dict[str, str] = field(default_factory=dict)  # local name -> tensorflow module it binds
    imports: List[Tuple[int, str, Tuple[str, ...], int]] = field(default_factory=list)  # line, module, names, level
    sys_path_edits: List[int] = field(default_factory=list)
    graph_builders: Set[str] = field(default_factory=set)
    top_level_names: Set[str] = field(default_factory=set)
    functions: Set[str] = field(default_factory=set)  # top-level ``def`` names
    classes: Set[str] = field(default_factory=set)  # top-level ``class`` names
    class_members: Dict[str, Tuple[str, ...]] = field(default_factory=dict)  # class -> its methods, class attributes
    local_names: Dict[Tuple[int, str], str] = field(default_factory=dict)  # (line, name) -> name bound: ``as``
    definitions_only: bool = False  # importing it runs no TF: imports, defs, constants and a main guard
    # name -> how often the module calls it by name (2 for a call in a loop, comprehension or `with` block)
    calls: Dict[str, int] = field(default_factory=dict)
    # attribute names the module names once in all, in a call made once by its top-level code (``som.train(x)``,
    # not in a loop, a function or a class): a method of an object it builds that runs once
    called_once: Set[str] = field(default_factory=set)
    # name -> the (session, parameter) each call of it passes: a module-level name bound once to a new session, and
    # the keyword (or ``#position``) it fills; None for a call that passes none, or stands in a function or class
    session_arguments: Dict[str, Set[Optional[Tuple[str, str]]]] = field(default_factory=dict)
    explicit_all: Optional[Tuple[str, ...]] = None  # __all__ when it is a literal
    read_names: Set[str] = field(default_factory=set)  # every name the module's code reads
    syntax_error: str = ""

    @property
    def imports_tensorflow(self) -> bool:
        return bool(self.tf_aliases)

    @property
    def imports_compat_v1(self) -> bool:
        return any(full.startswith("tensorflow.compat.v1") for full in self.tf_aliases.values())

    def bound_by_import(self, line: int) -> Set[str]:
        """The names the module's import statement at ``line`` binds ("*" for a star import)."""
        bound: Set[str] = set()
        for at, module, names, _ in self.imports:
            if at != line:
                continue
            if not names:
                bound.add(self.local_names.get((line, module), module.split(".")[0]))
            bound.update(self.local_names.get((line, name), name) for name in names)
        return bound

    def star_exports(self) -> Set[str]:
        """The names ``from module import *`` binds: ``__all__``, else every top-level name without ``_``."""
        if self.explicit_all is not None:
            return set(self.explicit_all)
        return {name for name in self.top_level_names | set(self.tf_aliases) if not name.startswith("_")}


def module_name(path: Path, root: Path) -> str:
    """``pkg.mod`` for ``root/pkg/mod.py``; ``pkg`` for ``root/pkg/__init__.py``."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts and parts[-1] == "__init__" and len(parts) > 1:
        parts = parts[:-1]
    return ".".join(parts)


def scan_module(name: str, path: Path, text: str) -> ModuleInfo:
    """The index entry of one module's source ``text`` (never raises on bad source)."""
    info = ModuleInfo(name, path, mentions_tensorflow=TENSORFLOW in text)
    if "import" not in text:
        return info  # nothing to resolve: no imports, no TensorFlow
    try:
        tree = compile(text, str(path), "exec", flags=ast.PyCF_ONLY_AST, dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as error:
        info.syntax_error = str(error)
        return info
    _read_imports(tree, info)
    info.definitions_only = all(_defines_only(node) for node in tree.body)
    info.read_names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)}
    count_calls(tree, info.calls)
    info.called_once = attributes_called_once(tree, set(info.tf_aliases))
    session_arguments(tree, module_sessions(tree), info.session_arguments)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            info.functions.add(node.name)
        elif isinstance(node, ast.ClassDef):
            info.classes.add(node.name)
            info.class_members[node.name] = _class_members(node)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            info.top_level_names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            for target in (node.targets if isinstance(node, ast.Assign) else [node.target]):
                for leaf in ast.walk(target):
                    if isinstance(leaf, ast.Name):
                        info.top_level_names.add(leaf.id)
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__"
                                                    for t in node.targets):
                info.explicit_all = _literal_names(node.value)
    if info.imports_tensorflow:
        info.graph_builders = _graph_builders(tree, set(info.tf_aliases))
    return info


def _class_members(node: ast.ClassDef) -> Tuple[str, ...]:
    """The names a class's own body binds: its methods and class attributes."""
    found = set()
    for child in node.body:
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.add(child.name)
        elif isinstance(child, (ast.Assign, ast.AnnAssign)):
            for target in (child.targets if isinstance(child, ast.Assign) else [child.target]):
                found.update(leaf.id for leaf in ast.walk(target) if isinstance(leaf, ast.Name))
    return tuple(sorted(found))


def single_instance_classes(info: ModuleInfo) -> Set[str]:
    """The classes a module defines and calls exactly once itself, outside loops and variable-sharing scopes."""
    return {name for name in info.classes if info.calls.get(name) == 1}


def one_session_classes(info: ModuleInfo) -> Dict[str, str]:
    """The classes a module defines and calls more than once itself, every call passing the same module-level
    session at the same parameter: class -> that parameter (a keyword, or ``#position``)."""
    found = {}
    for name in info.classes:
        passed = info.session_arguments.get(name, set())
        if info.calls.get(name, 0) > 1 and len(passed) == 1 and None not in passed:
            found[name] = next(iter(passed))[1]
    return found


def _defines_only(node: ast.stmt) -> bool:
    """A top-level statement that runs no TF when the module is imported."""
    if isinstance(node, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef, ast.Pass)):
        return True
    if isinstance(node, ast.If):  # if __name__ == "__main__": runs only as a script
        test = node.test
        return (isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == "__name__")
    if isinstance(node, (ast.Expr, ast.Assign, ast.AnnAssign)):
        return node.value is None or not any(isinstance(n, ast.Call) for n in ast.walk(node.value))
    return False


def _read_imports(tree: ast.Module, info: ModuleInfo) -> None:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _is_tensorflow(alias.name):
                    local = alias.asname or alias.name.split(".")[0]
                    info.tf_aliases[local] = alias.name if alias.asname else TENSORFLOW
                if alias.asname:
                    info.local_names[(node.lineno, alias.name)] = alias.asname
                info.imports.append((node.lineno, alias.name, (), 0))
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            names = tuple(alias.name for alias in node.names)
            for alias in node.names:
                if alias.asname:
                    info.local_names[(node.lineno, alias.name)] = alias.asname
            if node.level == 0 and _is_tensorflow(module):
                for alias in node.names:
                    if alias.name != "*":
                        info.tf_aliases[alias.asname or alias.name] = f"{module}.{alias.name}"
            info.imports.append((node.lineno, module, names, node.level))
        elif isinstance(node, ast.Call) and _edits_sys_path(node.func):
            info.sys_path_edits.append(node.lineno)
        elif isinstance(node, (ast.Assign, ast.AugAssign)) and any(
                _dotted(t) == "sys.path" for t in (node.targets if isinstance(node, ast.Assign) else [node.target])):
            info.sys_path_edits.append(node.lineno)


def _is_tensorflow(module: str) -> bool:
    return module == TENSORFLOW or module.startswith(TENSORFLOW + ".")


def _edits_sys_path(func: ast.expr) -> bool:
    dotted = _dotted(func) or ""
    return dotted in ("site.addsitedir",) or (dotted.startswith("sys.path.") and dotted.count(".") == 2
                                                and dotted.rsplit(".", 1)[1] in ("append", "insert", "extend"))


def _dotted(node: ast.expr) -> Optional[str]:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = _dotted(node.value)
        return None if head is None else f"{head}.{node.attr}"
    return None


def _literal_names(value: ast.expr) -> Optional[Tuple[str, ...]]:
    if isinstance(value, (ast.List, ast.Tuple)) and all(
            isinstance(e, ast.Constant) and isinstance(e.value, str) for e in value.elts):
        return tuple(e.value for e in value.elts)
    return None


def _graph_builders(tree: ast.Module, tf_names: Set[str]) -> Set[str]:
    """Top-level functions and classes that use TensorFlow, directly or through one another."""
    uses: Dict[str, Set[str]] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            uses[node.name] = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
    builders = {name for name, read in uses.items() if read & tf_names}
    grew = True
    while grew:
        more = {name for name, read in uses.items() if name not in builders and read & builders}
        builders |= more
        grew = bool(more)
    return builders


@dataclass
class ProjectIndex:
    """The modules of one tree and the import edges between them."""

    root: Path
    modules: Dict[str, ModuleInfo] = field(default_factory=dict)
    edges: List[ImportEdge] = field(default_factory=list)
    outside: Dict[str, List[Tuple[int, str]]] = field(default_factory=dict)  # module -> imports not in the tree

    def by_path(self) -> Dict[Path, ModuleInfo]:
        return {info.path: info for info in self.modules.values()}

    def imports_of(self, name: str) -> List[ImportEdge]:
        return [edge for edge in self.edges if edge.importer == name]

    def sys_path_edits(self) -> List[Tuple[Path, int]]:
        return [(info.path, line) for info in self.modules.values() for line in sorted(info.sys_path_edits)]


def build_index(root: Path, paths: Iterable[Path], read=lambda path: path.read_text(encoding="utf-8")) -> ProjectIndex:
    """The index of the ``.py`` files ``paths`` under ``root``; unreadable files are left out (the
    per-file pass reports them).

    Only modules that can take part in an edge are parsed: a module whose import lines name no
    module of the tree (and no relative one), that no import line of the tree names, and that
    does not edit ``sys.path`` is alone; a line scan decides that, so a tree of unrelated
    scripts costs a regex search per file.
    """
    index = ProjectIndex(root)
    texts: Dict[str, Tuple[Path, str]] = {}
    for path in paths:
        if path.suffix != ".py":
            continue
        try:
            texts[module_name(path.absolute(), root.absolute())] = (path, read(path))
        except (OSError, UnicodeError, ValueError):
            continue
    parts = {part for name in texts for part in name.split(".")}
    named: Dict[str, Set[str]] = {name: _import_words(text) for name, (_, text) in texts.items()}
    wanted = set().union(*named.values()) if named else set()
    for name, (path, text) in texts.items():
        linked = named[name] & (parts | {"."}) or set(name.split(".")) & wanted or _SYS_PATH.search(text)
        index.modules[name] = scan_module(name, path, text) if linked else ModuleInfo(
            name, path, mentions_tensorflow=TENSORFLOW in text)
    for info in index.modules.values():
        for line, module, names, level in info.imports:
            _resolve(index, info, line, module, names, level)
    return index


_IMPORT_LINE = re.compile(r"^[ \t]*(?:from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]*\(?([\w ,\t*]*)|import[ \t]+([\w., \t]+))",
                          re.MULTILINE)
_SYS_PATH = re.compile(r"\bsys\.path\b|\baddsitedir\b")


def _import_words(text: str) -> Set[str]:
    """The dotted-name parts the module's import lines name ("." for a relative import)."""
    words: Set[str] = set()
    for dots, module, names, plain in _IMPORT_LINE.findall(text):
        if dots:
            words.add(".")
        words.update(re.findall(r"\w+", module + " " + names + " " + plain))
    return words


def _resolve(index: ProjectIndex, info: ModuleInfo, line: int, module: str, names: Tuple[str, ...],
             level: int) -> None:
    if level:
        package = info.name.split(".")
        if info.path.name != "__init__.py":
            package = package[:-1]
        base = package[:len(package) - (level - 1)] if level > 1 else package
        candidates = [".".join(base + ([module] if module else []))]
    else:
        folder = info.name.split(".")[:-1] if info.path.name != "__init__.py" else info.name.split(".")
        # A script's own folder comes first on sys.path; the tree's root is where packages resolve.
        candidates = [".".join(folder + [module]), module] if folder else [module]
    for candidate in candidates:
        candidate = candidate.strip(".")
        if candidate in index.modules:
            plain = tuple(n for n in names if f"{candidate}.{n}" not in index.modules)
            if plain or not names:
                index.edges.append(ImportEdge(info.name, line, candidate, plain))
            for sub in names:  # from package import module
                if f"{candidate}.{sub}" in index.modules:
                    index.edges.append(ImportEdge(info.name, line, f"{candidate}.{sub}", ()))
            return
    index.outside.setdefault(info.name, []).append((line, module))
