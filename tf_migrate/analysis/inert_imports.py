"""Imports that tie no two modules of a tree together (``tf_migrate/project``'s one mode per process).

A compat module switches TF1 behaviour on for its whole process, so every module it imports and that can run in
that process is kept compat with it. An import shares nothing at run time when a script no module imports
imports a module whose names it never reads, and that module, with everything it imports, only defines things
(no TF runs when it is imported): cnn-text's ``eval.py`` imports ``TextCNN`` and then restores a saved graph
instead, so its compat mode says nothing of ``text_cnn.py``'s, which ``train.py`` uses.
"""
from __future__ import annotations

from tf_migrate.analysis.project_index import ImportEdge, ProjectIndex


def inert_import(index: ProjectIndex, edge: ImportEdge) -> bool:
    """Whether ``edge`` shares nothing at run time (see the module doc)."""
    modules = index.modules
    importer = modules[edge.importer]
    if edge.star or any(other.target == edge.importer for other in index.edges):
        return False
    if importer.bound_by_import(edge.line) & importer.read_names:
        return False
    reached, todo = {edge.target}, [edge.target]
    while todo:
        name = todo.pop()
        if not modules[name].definitions_only:
            return False
        for other in index.edges:
            if other.importer == name and other.target not in reached:
                reached.add(other.target)
                todo.append(other.target)
    return True
