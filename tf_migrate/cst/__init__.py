"""One home for the LibCST editing helpers every layer uses.

``text.code`` (a node's source; ``text.module_code``, a module's, rendered once), ``names`` (fresh
names), ``arguments`` (reading a call's arguments against an API signature, writing ``name=value``)
and ``imports`` (adding an import after the tensorflow one). These modules import no other part of
tf_migrate but the traversal.
"""
