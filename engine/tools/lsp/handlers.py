"""What the language server does for each message of the protocol: the requests (hover,
completion, rename …), each answered from the analysis of the document's current text,
and the notifications that keep the server's copy of the editor's documents.

A request handler awaits the analysis (made off the event loop, :meth:`RailServer.analysis`)
and computes its answer off the loop too (:meth:`RailServer.answer`): a rename parses the
files it edits again, a formatting parses the document, and a spec can be megabytes long.
The loop only passes messages.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcInvalidParams

from ... import compiler
from ...compiler.base.errors import SpecError
from . import features
from .analysis import ERROR, Analysis, oversize
from .places import Places, uri_of, utf16

if TYPE_CHECKING:  # the server calls these; they only need its type
    from .server import RailServer

#: What the server calls itself in messages and diagnostics.
NAME = "railspec"

_SYMBOL_KINDS = {
    "group": lsp.SymbolKind.Namespace, "place": lsp.SymbolKind.Class, "route": lsp.SymbolKind.Field,
    "ticket": lsp.SymbolKind.Event, "declaration": lsp.SymbolKind.Constant, "statement": lsp.SymbolKind.Property,
}
_COMPLETION_KINDS = {"statement": lsp.CompletionItemKind.Keyword, "keyword": lsp.CompletionItemKind.Keyword,
                     "place": lsp.CompletionItemKind.Class, "colour": lsp.CompletionItemKind.Color}
_FOLDING_KINDS = {"comment": lsp.FoldingRangeKind.Comment, "region": lsp.FoldingRangeKind.Region}


# --- diagnostics (computed with the analysis, in its thread) ----------------------------------

def diagnostics(places: Places, analysis: Analysis) -> list[lsp.Diagnostic]:
    """An analysis's problems as the protocol's diagnostics."""
    lines = analysis.lines
    out = []
    for problem in analysis.problems:
        span = problem.span
        related = None
        if problem.origin is not None:
            origin = features.Range.of(problem.origin)
            related = [lsp.DiagnosticRelatedInformation(location=places.location(origin, analysis),
                                                        message="where it is in the base")]
        out.append(lsp.Diagnostic(
            range=lsp.Range(start=places.position(lines, span.line, span.col),
                            end=places.position(lines, span.line, max(span.end_col, span.col + 1))),
            message=problem.message, source=NAME,
            severity=lsp.DiagnosticSeverity.Error if problem.severity == ERROR else lsp.DiagnosticSeverity.Warning,
            data={"fix": problem.fix} if problem.fix is not None else None, related_information=related))
    return out


# --- notifications ------------------------------------------------------------------------------

def did_open(ls: RailServer, params: lsp.DidOpenTextDocumentParams) -> None:
    """A document opened: check it."""
    ls.document_changed(params.text_document.uri)


def did_change(ls: RailServer, params: lsp.DidChangeTextDocumentParams) -> None:
    """A document edited: check it again (the check under way for the old text stops)."""
    ls.document_changed(params.text_document.uri)


def did_save(ls: RailServer, params: lsp.DidSaveTextDocumentParams) -> None:
    """A document saved: the documents extending it may read it from disk."""
    ls.recheck(params.text_document.uri)


def did_close(ls: RailServer, params: lsp.DidCloseTextDocumentParams) -> None:
    """A document closed: forget it, clear its diagnostics; the documents extending it
    read it from disk now."""
    ls.document_closed(params.text_document.uri)


def watched_files(ls: RailServer, params: lsp.DidChangeWatchedFilesParams) -> None:
    """A spec changed on disk (where the client watches files): the open documents
    reading it as a base are checked again."""
    ls.files_changed([ls.path_of(change.uri) for change in params.changes])


# --- requests -------------------------------------------------------------------------------------

async def _answered(ls: RailServer, uri: str, name: str, answer: Callable[[Places, Analysis], Any]) -> Any:
    """``answer(places, analysis)`` for the current analysis of a document, computed off
    the loop."""
    analysis = await ls.analysis(uri)
    return await ls.answer(lambda places: answer(places, analysis), name)


async def hover(ls: RailServer, params: lsp.HoverParams) -> lsp.Hover | None:
    """What a name, a route, a ticket or a statement's keyword is."""
    def answer(places: Places, analysis: Analysis) -> lsp.Hover | None:
        found = features.hover(analysis, *places.at(analysis, params.position))
        if found is None:
            return None
        text, span = found
        return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text),
                         range=places.range(features.Range.of(span), analysis))
    return await _answered(ls, params.text_document.uri, "hover", answer)


async def definition(ls: RailServer, params: lsp.DefinitionParams) -> list[lsp.Location] | None:
    """Where the name under the cursor is declared (or the file an ``extends`` names)."""
    def answer(places: Places, analysis: Analysis) -> list[lsp.Location] | None:
        found = features.definition(places.analyzer, analysis, *places.at(analysis, params.position))
        return [places.location(r, analysis) for r in found] or None
    return await _answered(ls, params.text_document.uri, "definition", answer)


async def references(ls: RailServer, params: lsp.ReferenceParams) -> list[lsp.Location] | None:
    """Every place the name under the cursor is written."""
    def answer(places: Places, analysis: Analysis) -> list[lsp.Location] | None:
        found = features.references(analysis, *places.at(analysis, params.position),
                                    declaration=params.context.include_declaration)
        return [places.location(r, analysis) for r in found] or None
    return await _answered(ls, params.text_document.uri, "references", answer)


def _completion_item(places: Places, analysis: Analysis, item: features.Completion) -> lsp.CompletionItem:
    edit = lsp.TextEdit(range=places.range(item.replace, analysis), new_text=item.insert or item.label) \
        if item.replace is not None else None
    doc = lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=item.documentation) if item.documentation else None
    return lsp.CompletionItem(label=item.label, detail=item.detail or None, documentation=doc,
                              kind=_COMPLETION_KINDS.get(item.kind, lsp.CompletionItemKind.Value),
                              text_edit=edit, filter_text=item.label)


async def completion(ls: RailServer, params: lsp.CompletionParams) -> lsp.CompletionList:
    """What may be written at the cursor."""
    def answer(places: Places, analysis: Analysis) -> lsp.CompletionList:
        line, col = places.at(analysis, params.position)
        found = features.completions(analysis, places.analyzer.language, line, col)
        return lsp.CompletionList(is_incomplete=False,
                                  items=[_completion_item(places, analysis, item) for item in found])
    return await _answered(ls, params.text_document.uri, "completion", answer)


async def prepare_rename(ls: RailServer, params: lsp.PrepareRenameParams) -> lsp.Range | None:
    """The name a rename at the cursor would change, or None."""
    def answer(places: Places, analysis: Analysis) -> lsp.Range | None:
        occ = analysis.index.at(analysis.path, *places.at(analysis, params.position))
        return None if occ is None else places.range(features.Range.of(occ.name.span), analysis)
    return await _answered(ls, params.text_document.uri, "prepareRename", answer)


async def rename(ls: RailServer, params: lsp.RenameParams) -> lsp.WorkspaceEdit:
    """The edits renaming the name under the cursor in every file of the chain; an
    invalid-params error saying why when it cannot be renamed."""
    def answer(places: Places, analysis: Analysis) -> lsp.WorkspaceEdit:
        try:
            edits = features.rename(places.analyzer, analysis, *places.at(analysis, params.position),
                                    params.new_name)
        except features.RenameRefused as why:
            raise JsonRpcInvalidParams(f"{NAME}: {why}") from None
        return lsp.WorkspaceEdit(changes={
            uri_of(path): [lsp.TextEdit(range=places.range(where, analysis), new_text=text) for where, text in items]
            for path, items in edits.items()})
    return await _answered(ls, params.text_document.uri, "rename", answer)


def _symbol(places: Places, analysis: Analysis, symbol: features.Symbol) -> lsp.DocumentSymbol:
    return lsp.DocumentSymbol(name=symbol.name or "?", detail=symbol.detail or None,
                              kind=_SYMBOL_KINDS[symbol.kind], range=places.range(symbol.range, analysis),
                              selection_range=places.range(symbol.selection, analysis),
                              children=[_symbol(places, analysis, c) for c in symbol.children] or None)


async def document_symbol(ls: RailServer, params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol]:
    """The outline: statements grouped by kind."""
    def answer(places: Places, analysis: Analysis) -> list[lsp.DocumentSymbol]:
        return [_symbol(places, analysis, s) for s in features.symbols(analysis)]
    return await _answered(ls, params.text_document.uri, "documentSymbol", answer)


async def folding_range(ls: RailServer, params: lsp.FoldingRangeParams) -> list[lsp.FoldingRange]:
    """Runs of statements of one kind, and of comment lines."""
    def answer(places: Places, analysis: Analysis) -> list[lsp.FoldingRange]:
        return [lsp.FoldingRange(start_line=start - 1, end_line=end - 1, kind=_FOLDING_KINDS[kind])
                for start, end, kind in features.folding(analysis)]
    return await _answered(ls, params.text_document.uri, "foldingRange", answer)


async def code_action(ls: RailServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction] | None:
    """Quick fixes: a "did you mean" name put in place of the misspelt one."""
    uri = params.text_document.uri

    def answer(places: Places, analysis: Analysis) -> list[lsp.CodeAction] | None:
        first, _ = places.at(analysis, params.range.start)
        last, _ = places.at(analysis, params.range.end)
        actions = []
        for title, where, text, problem in features.quick_fixes(analysis, first, last, places.analyzer.language):
            span = places.range(where, analysis)
            diagnostic = lsp.Diagnostic(range=span, message=problem.message, source=NAME,
                                        severity=lsp.DiagnosticSeverity.Error)
            actions.append(lsp.CodeAction(
                title=title, kind=lsp.CodeActionKind.QuickFix, diagnostics=[diagnostic], is_preferred=True,
                edit=lsp.WorkspaceEdit(changes={uri: [lsp.TextEdit(range=span, new_text=text)]})))
        return actions or None
    return await _answered(ls, uri, "codeAction", answer)


async def formatting(ls: RailServer, params: lsp.DocumentFormattingParams) -> list[lsp.TextEdit] | None:
    """The spec's canonical layout (``railspec fmt``'s), as one edit of the whole text;
    a spec that does not parse, or is too large to, is left as it is (its diagnostics
    say why)."""
    uri = params.text_document.uri
    text = ls.document_text(uri)
    path = ls.path_of(uri)

    def answer(places: Places) -> list[lsp.TextEdit] | None:
        if oversize(text) is not None:
            return None
        try:
            formatted = compiler.format_text(text, path, places.analyzer.registry)
        except SpecError:
            return None
        if formatted == text:
            return []
        lines = text.split("\n")
        end = lsp.Position(line=len(lines) - 1, character=utf16(lines[-1], len(lines[-1]) + 1))
        return [lsp.TextEdit(range=lsp.Range(start=lsp.Position(line=0, character=0), end=end), new_text=formatted)]
    return await ls.answer(answer, "formatting")


def _document_uri(params: Any) -> str | None:
    """The document a request is about (every request here has one)."""
    document = getattr(params, "text_document", None)
    return getattr(document, "uri", None)


#: The requests answered, with the options their capability is announced with.
REQUESTS: dict[str, tuple[Callable, object]] = {
    lsp.TEXT_DOCUMENT_HOVER: (hover, None),
    lsp.TEXT_DOCUMENT_DEFINITION: (definition, None),
    lsp.TEXT_DOCUMENT_REFERENCES: (references, None),
    lsp.TEXT_DOCUMENT_COMPLETION: (completion, lsp.CompletionOptions(trigger_characters=[" ", "-", ","])),
    lsp.TEXT_DOCUMENT_PREPARE_RENAME: (prepare_rename, None),
    lsp.TEXT_DOCUMENT_RENAME: (rename, None),
    lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL: (document_symbol, None),
    lsp.TEXT_DOCUMENT_FOLDING_RANGE: (folding_range, None),
    lsp.TEXT_DOCUMENT_CODE_ACTION: (code_action,
                                    lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix])),
    lsp.TEXT_DOCUMENT_FORMATTING: (formatting, None),
}
#: The notifications handled (after pygls has updated its copy of the documents).
NOTIFICATIONS: dict[str, Callable] = {
    lsp.TEXT_DOCUMENT_DID_OPEN: did_open,
    lsp.TEXT_DOCUMENT_DID_CHANGE: did_change,
    lsp.TEXT_DOCUMENT_DID_SAVE: did_save,
    lsp.TEXT_DOCUMENT_DID_CLOSE: did_close,
    lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES: watched_files,
}
