"""The language: the core grammar (grammar.lark, with its extension points), the syntax tree
(:mod:`.ast`) and the parser (:mod:`.parse`), which adds each mechanic's grammar fragment."""
