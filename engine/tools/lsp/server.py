"""The language server of ``railspec lsp``, on pygls and lsprotocol (the ``lsp`` extra):
the protocol's side of :mod:`.analysis` and :mod:`.features`.

Formatting is :func:`railspec.compiler.format_text`'s layout (``railspec fmt``).

Diagnostics are published for a document on open and after every change, a few
milliseconds after the last change of a burst (each change cancels the pending check, so
what is published is always the latest text's), and again for every open document that
extends it. Requests (hover, completion …) use the analysis of the document's current
text, made on demand when the pending check has not run yet.

Positions: the protocol counts columns in UTF-16 code units, the compiler in characters;
each conversion goes through the line's text.
"""
from __future__ import annotations

import asyncio
from pathlib import Path

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcInvalidParams
from pygls.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from ... import __version__, compiler
from ...compiler.base.errors import SpecError
from . import features
from .analysis import ERROR, Analysis, Analyzer

#: How long a burst of changes is waited out before a document is checked (seconds).
DEBOUNCE = 0.01
#: What the server calls itself in messages and diagnostics.
NAME = "railspec"

_SYMBOL_KINDS = {
    "group": lsp.SymbolKind.Namespace, "place": lsp.SymbolKind.Class, "route": lsp.SymbolKind.Field,
    "ticket": lsp.SymbolKind.Event, "declaration": lsp.SymbolKind.Constant, "statement": lsp.SymbolKind.Property,
}
_COMPLETION_KINDS = {"statement": lsp.CompletionItemKind.Keyword, "keyword": lsp.CompletionItemKind.Keyword,
                     "place": lsp.CompletionItemKind.Class, "colour": lsp.CompletionItemKind.Color}


def _utf16(line: str, col: int) -> int:
    """A 1-based character column of ``line`` as a 0-based UTF-16 offset."""
    return len(line[:max(0, col - 1)].encode("utf-16-le")) // 2


def _chars(line: str, offset: int) -> int:
    """A 0-based UTF-16 offset of ``line`` as a 1-based character column."""
    units = 0
    for k, char in enumerate(line):
        if units >= offset:
            return k + 1
        units += 2 if ord(char) > 0xFFFF else 1
    return len(line) + 1


class RailServer(LanguageServer):
    """The railspec language server: an :class:`Analyzer` over the editor's open texts."""

    def __init__(self):
        super().__init__(NAME, __version__)
        self.analyzer = Analyzer()
        self.pending: dict[str, asyncio.Task] = {}
        self.versions: dict[str, int | None] = {}

    # --- documents ------------------------------------------------------------------------

    def path_of(self, uri: str) -> str:
        return to_fs_path(uri) or uri

    def text_of(self, uri: str) -> str:
        return self.workspace.get_text_document(uri).source

    def analysis(self, uri: str) -> Analysis:
        """The analysis of a document's current text."""
        path = self.path_of(uri)
        text = self.text_of(uri)
        self.analyzer.open_texts[path] = text
        return self.analyzer.analyze(path, text)

    def file_lines(self, path: str, analysis: Analysis | None = None) -> list[str]:
        """The lines of a file the positions refer to: the editor's text, else the chain's."""
        text = self.analyzer.open_text(path)
        if text is None and analysis is not None:
            text = next((s.text for s in analysis.files if s.path == path), None)
        if text is None:
            try:
                text = Path(path).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                text = ""
        return text.split("\n")

    def position(self, lines: list[str], line: int, col: int) -> lsp.Position:
        text = lines[line - 1] if 0 < line <= len(lines) else ""
        return lsp.Position(line=max(0, line - 1), character=_utf16(text, col))

    def range(self, where: features.Range, analysis: Analysis | None = None) -> lsp.Range:
        lines = self.file_lines(where.file, analysis)
        return lsp.Range(start=self.position(lines, where.line, where.col),
                         end=self.position(lines, where.end_line, where.end_col))

    def location(self, where: features.Range, analysis: Analysis) -> lsp.Location:
        return lsp.Location(uri=from_fs_path(str(Path(where.file).resolve())) or where.file,
                            range=self.range(where, analysis))

    def at(self, analysis: Analysis, pos: lsp.Position) -> tuple[int, int]:
        """A protocol position as the compiler's (1-based line, character column)."""
        lines = analysis.lines
        text = lines[pos.line] if pos.line < len(lines) else ""
        return pos.line + 1, _chars(text, pos.character)

    # --- diagnostics ----------------------------------------------------------------------

    def schedule(self, uri: str) -> None:
        """Check a document soon: a change made meanwhile replaces this check."""
        task = self.pending.pop(uri, None)
        if task is not None:
            task.cancel()
        self.pending[uri] = asyncio.ensure_future(self._publish_later(uri))

    async def _publish_later(self, uri: str) -> None:
        await asyncio.sleep(DEBOUNCE)
        self.pending.pop(uri, None)
        try:
            self.publish(uri)
        except Exception as err:  # noqa: BLE001 - a bug of ours: said in the client's log, the server goes on
            self.show_message_log(f"{NAME}: checking {uri} failed: {err!r}", lsp.MessageType.Error)

    def publish(self, uri: str, dependents: bool = True) -> None:
        """Publish a document's diagnostics, then those of the open documents extending it."""
        if self.workspace.text_documents.get(uri) is None:
            return
        analysis = self.analysis(uri)
        lines = analysis.lines
        out = []
        for problem in analysis.problems:
            span = problem.span
            related = None
            if problem.origin is not None:
                origin = features.Range.of(problem.origin)
                related = [lsp.DiagnosticRelatedInformation(location=self.location(origin, analysis),
                                                            message="where it is in the base")]
            out.append(lsp.Diagnostic(
                range=lsp.Range(start=self.position(lines, span.line, span.col),
                                end=self.position(lines, span.line, max(span.end_col, span.col + 1))),
                message=problem.message, source=NAME,
                severity=lsp.DiagnosticSeverity.Error if problem.severity == ERROR else lsp.DiagnosticSeverity.Warning,
                data={"fix": problem.fix} if problem.fix is not None else None, related_information=related))
        self.publish_diagnostics(uri, out, version=self.workspace.get_text_document(uri).version)
        if dependents:
            reading = self.analyzer.dependents(analysis.path)
            for other in list(self.workspace.text_documents):
                if other != uri and self.path_of(other) in reading:
                    self.publish(other, dependents=False)


def build() -> RailServer:
    """The server with every feature registered."""
    server = RailServer()

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: RailServer, params: lsp.DidOpenTextDocumentParams):
        ls.analyzer.open_texts[ls.path_of(params.text_document.uri)] = params.text_document.text
        ls.schedule(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: RailServer, params: lsp.DidChangeTextDocumentParams):
        uri = params.text_document.uri
        ls.analyzer.open_texts[ls.path_of(uri)] = ls.text_of(uri)
        ls.schedule(uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: RailServer, params: lsp.DidSaveTextDocumentParams):
        ls.schedule(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: RailServer, params: lsp.DidCloseTextDocumentParams):
        uri = params.text_document.uri
        path = ls.path_of(uri)
        ls.analyzer.open_texts.pop(path, None)
        ls.analyzer.forget(path)
        task = ls.pending.pop(uri, None)
        if task is not None:
            task.cancel()
        ls.publish_diagnostics(uri, [])
        for other in list(ls.workspace.text_documents):  # documents extending it read it from disk now
            if other != uri:
                ls.schedule(other)

    @server.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def watched_files(ls: RailServer, params: lsp.DidChangeWatchedFilesParams):
        """A spec changed on disk (where the client watches files): the open documents
        reading it as a base are checked again."""
        changed = [ls.path_of(change.uri) for change in params.changes]
        reading = {doc for path in changed for doc in ls.analyzer.dependents(path)}
        for uri in list(ls.workspace.text_documents):
            if ls.path_of(uri) in reading:
                ls.schedule(uri)

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(ls: RailServer, params: lsp.HoverParams):
        analysis = ls.analysis(params.text_document.uri)
        found = features.hover(analysis, *ls.at(analysis, params.position))
        if found is None:
            return None
        text, span = found
        return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text),
                         range=ls.range(features.Range.of(span), analysis))

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: RailServer, params: lsp.DefinitionParams):
        analysis = ls.analysis(params.text_document.uri)
        found = features.definition(ls.analyzer, analysis, *ls.at(analysis, params.position))
        return [ls.location(r, analysis) for r in found] or None

    @server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
    def references(ls: RailServer, params: lsp.ReferenceParams):
        analysis = ls.analysis(params.text_document.uri)
        found = features.references(analysis, *ls.at(analysis, params.position),
                                    declaration=params.context.include_declaration)
        return [ls.location(r, analysis) for r in found] or None

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=[" ", "-", ","]))
    def completion(ls: RailServer, params: lsp.CompletionParams):
        analysis = ls.analysis(params.text_document.uri)
        line, col = ls.at(analysis, params.position)
        items = []
        for item in features.completions(analysis, ls.analyzer.language, line, col):
            edit = lsp.TextEdit(range=ls.range(item.replace, analysis), new_text=item.insert or item.label) \
                if item.replace is not None else None
            doc = lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=item.documentation) \
                if item.documentation else None
            items.append(lsp.CompletionItem(label=item.label, detail=item.detail or None, documentation=doc,
                                            kind=_COMPLETION_KINDS.get(item.kind, lsp.CompletionItemKind.Value),
                                            text_edit=edit, filter_text=item.label))
        return lsp.CompletionList(is_incomplete=False, items=items)

    @server.feature(lsp.TEXT_DOCUMENT_PREPARE_RENAME)
    def prepare_rename(ls: RailServer, params: lsp.PrepareRenameParams):
        analysis = ls.analysis(params.text_document.uri)
        occ = analysis.index.at(analysis.path, *ls.at(analysis, params.position))
        if occ is None:
            return None
        return ls.range(features.Range.of(occ.name.span), analysis)

    @server.feature(lsp.TEXT_DOCUMENT_RENAME)
    def rename(ls: RailServer, params: lsp.RenameParams):
        analysis = ls.analysis(params.text_document.uri)
        try:
            edits = features.rename(ls.analyzer, analysis, *ls.at(analysis, params.position), params.new_name)
        except features.RenameRefused as why:
            raise JsonRpcInvalidParams(f"{NAME}: {why}") from None
        changes = {}
        for path, items in edits.items():
            uri = from_fs_path(str(Path(path).resolve())) or path
            changes[uri] = [lsp.TextEdit(range=ls.range(where, analysis), new_text=text) for where, text in items]
        return lsp.WorkspaceEdit(changes=changes)

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def document_symbol(ls: RailServer, params: lsp.DocumentSymbolParams):
        analysis = ls.analysis(params.text_document.uri)

        def convert(symbol: features.Symbol) -> lsp.DocumentSymbol:
            return lsp.DocumentSymbol(name=symbol.name or "?", detail=symbol.detail or None,
                                      kind=_SYMBOL_KINDS[symbol.kind], range=ls.range(symbol.range, analysis),
                                      selection_range=ls.range(symbol.selection, analysis),
                                      children=[convert(c) for c in symbol.children] or None)
        return [convert(s) for s in features.symbols(analysis)]

    @server.feature(lsp.TEXT_DOCUMENT_FOLDING_RANGE)
    def folding_range(ls: RailServer, params: lsp.FoldingRangeParams):
        analysis = ls.analysis(params.text_document.uri)
        kinds = {"comment": lsp.FoldingRangeKind.Comment, "region": lsp.FoldingRangeKind.Region}
        return [lsp.FoldingRange(start_line=start - 1, end_line=end - 1, kind=kinds[kind])
                for start, end, kind in features.folding(analysis)]

    @server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION,
                    lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]))
    def code_action(ls: RailServer, params: lsp.CodeActionParams):
        analysis = ls.analysis(params.text_document.uri)
        first, _ = ls.at(analysis, params.range.start)
        last, _ = ls.at(analysis, params.range.end)
        uri = params.text_document.uri
        actions = []
        for title, where, text, problem in features.quick_fixes(analysis, first, last, ls.analyzer.language):
            span = ls.range(where, analysis)
            diagnostic = lsp.Diagnostic(range=span, message=problem.message, source=NAME,
                                        severity=lsp.DiagnosticSeverity.Error)
            actions.append(lsp.CodeAction(
                title=title, kind=lsp.CodeActionKind.QuickFix, diagnostics=[diagnostic], is_preferred=True,
                edit=lsp.WorkspaceEdit(changes={uri: [lsp.TextEdit(range=span, new_text=text)]})))
        return actions or None

    @server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
    def formatting(ls: RailServer, params: lsp.DocumentFormattingParams):
        """The spec's canonical layout (``railspec fmt``'s), as one edit of the whole text;
        a spec that does not parse is left as it is (its diagnostics say why)."""
        uri = params.text_document.uri
        text = ls.text_of(uri)
        try:
            formatted = compiler.format_text(text, ls.path_of(uri), ls.analyzer.registry)
        except SpecError:
            return None
        if formatted == text:
            return []
        lines = text.split("\n")
        end = lsp.Position(line=len(lines) - 1, character=_utf16(lines[-1], len(lines[-1]) + 1))
        return [lsp.TextEdit(range=lsp.Range(start=lsp.Position(line=0, character=0), end=end), new_text=formatted)]

    return server


def serve() -> None:
    """Run the server over stdin and stdout until the client exits it."""
    build().start_io()

