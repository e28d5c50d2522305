"""``railspec lsp``: a Language Server Protocol server for ``.rail`` files.

The editor-facing part (:mod:`.server`) needs the ``lsp`` extra (pygls, lsprotocol); the
rest is plain Python over the compiler's own stages, so it can be read and tested without
an editor:

- :mod:`.analysis` checks an open document with the specs it extends (the editor's unsaved
  text where a base is open too) and indexes the names it declares and uses;
- :mod:`.features` answers hovers, completions, renames, outlines and folding from an
  analysis;
- :mod:`.keywords` finds a statement's entry in docs/language.md.

Nothing here names a mechanic: statements, names and keywords are found through the
grammar, the node classes and the registry.
"""
