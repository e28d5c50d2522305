"""``railspec lsp`` driven as an editor drives it: pytest-lsp starts the real server
(``python -m railspec lsp``) over stdio, opens and edits documents and asks what an editor
asks. On a copy of the USA spec and on a spec extending tests/base.rail, with the base's
error shown on the ``extends`` line. The last test measures how long a change to the
largest stock spec takes to come back as diagnostics and prints it (never asserted)."""
from __future__ import annotations

import asyncio
import re
import shutil
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

import pytest

pytest.importorskip("pygls")
pytest.importorskip("pytest_lsp")

import pytest_lsp  # noqa: E402
from lsprotocol import types as lsp  # noqa: E402
from pygls.protocol import default_converter  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities  # noqa: E402

from railspec import compiler  # noqa: E402

HERE = Path(__file__).resolve().parent
pytestmark = pytest.mark.asyncio(loop_scope="module")


def recording_client() -> LanguageClient:
    """A test client that keeps every publishDiagnostics it receives, in order (waiting
    for the next notification could miss one of two that arrive together: a base's and
    then its child's)."""
    client = LanguageClient(converter_factory=default_converter)
    client.published = []
    client.traces = []

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def published(client: LanguageClient, params: lsp.PublishDiagnosticsParams):
        client.diagnostics[params.uri] = params.diagnostics
        client.published.append(params)

    @client.feature(lsp.LOG_TRACE)
    def traced(client: LanguageClient, params: lsp.LogTraceParams):
        client.traces.append(params.message)

    return client


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "railspec", "lsp"],
                                              client_factory=recording_client),
                    scope="module", loop_scope="module")
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(lsp.InitializeParams(
        capabilities=client_capabilities("visual-studio-code")))
    # the server's trace says which checks start and which are stopped
    lsp_client.protocol.notify(lsp.SET_TRACE, lsp.SetTraceParams(value=lsp.TraceValues.Verbose))
    yield
    await lsp_client.shutdown_session()


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """A folder with copies of stock specs (USA, Italy, Pennsylvania, the largest) and of
    tests/base.rail, and a spec extending it."""
    where = tmp_path_factory.mktemp("specs")
    shutil.copy(compiler.stock_path("usa"), where / "usa.rail")
    largest = max(compiler.stock_names(), key=lambda name: compiler.stock_path(name).stat().st_size)
    shutil.copy(compiler.stock_path(largest), where / "largest.rail")
    for name in ("italy", "pennsylvania", "united_kingdom", "france"):
        shutil.copy(compiler.stock_path(name), where / f"{name}.rail")
    shutil.copy(HERE / "base.rail", where / "base.rail")
    # fewer trains than the base's: its 16 cars hold what 4 players place (no warning of a crowded map)
    (where / "child.rail").write_text('extends "base.rail"\nvariant "Child"\ntrains 6\nroute Alpha - Epsilon 4 red\n'
                                      "ticket Beta - Epsilon 12\n", encoding="utf-8")
    return where


class Doc:
    """An open document: its uri, text and version, edited as an editor edits (whole text)."""

    def __init__(self, client: LanguageClient, path: Path):
        self.client, self.path, self.uri = client, path, path.resolve().as_uri()
        self.text = path.read_text(encoding="utf-8")
        self.version = 1

    async def open(self) -> list[lsp.Diagnostic]:
        self.mark = len(self.client.published)
        self.client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(
            uri=self.uri, language_id="rail", version=self.version, text=self.text)))
        return await diagnostics(self.client, self.uri, self.version, since=self.mark)

    def change(self, text: str) -> None:
        self.mark = len(self.client.published)
        self.version += 1
        self.text = text
        self.client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=self.uri, version=self.version),
            content_changes=[lsp.TextDocumentContentChangeEvent_Type2(text=text)]))

    async def edit(self, text: str) -> list[lsp.Diagnostic]:
        self.change(text)
        return await diagnostics(self.client, self.uri, self.version, since=self.mark)

    def close(self) -> None:
        self.client.text_document_did_close(lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(self.uri)))

    def at(self, needle: str, nth: int = 0) -> lsp.Position:
        """Where ``»`` stands in the nth place the text reads as ``needle`` (at its start
        without one); a space of the needle stands for any run of blanks, so the positions
        do not depend on how the spec is laid out."""
        found = [m.start(2) for m in re.finditer(loose(needle), self.text)][nth]
        line = self.text.count("\n", 0, found)
        return lsp.Position(line=line, character=found - (self.text.rfind("\n", 0, found) + 1))

    def ident(self) -> lsp.TextDocumentIdentifier:
        return lsp.TextDocumentIdentifier(self.uri)


def loose(needle: str) -> str:
    """A pattern reading ``needle`` with any blanks where it has a space, in two groups:
    before and after its ``»``."""
    before, _, after = needle.rpartition("»") if "»" in needle else ("", "", needle)
    def part(text):
        return "[ \t]+".join(re.escape(word) for word in text.split(" "))
    return f"({part(before)})({part(after)})"


async def diagnostics(client: LanguageClient, uri: str, version: int | None = None, until=lambda found: True,
                      since: int = 0) -> list[lsp.Diagnostic]:
    """The first diagnostics published for ``uri`` after the ``since``-th notification
    (for ``version`` when given) that ``until`` accepts; a test fails after 30 s without."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        for params in client.published[since:]:
            if params.uri == uri and (version is None or params.version == version) and until(params.diagnostics):
                return list(params.diagnostics)
        await asyncio.sleep(0.005)
    raise AssertionError(f"no diagnostics for {uri} (version {version}) in 30 s")


def errors(found: list[lsp.Diagnostic]) -> list[lsp.Diagnostic]:
    return [d for d in found if d.severity == lsp.DiagnosticSeverity.Error]


async def test_diagnostics_appear_and_clear_with_a_quick_fix(client: LanguageClient, folder):
    doc = Doc(client, folder / "usa.rail")
    assert await doc.open() == []
    good = doc.text
    bad = re.sub(loose("route Denver - Omaha"), lambda m: m.group(0) + "a", good, count=1)
    found = errors(await doc.edit(bad))
    assert len(found) == 1 and "unknown city 'Omahaa'" in found[0].message
    assert found[0].range.start == doc.at("Omahaa")
    assert found[0].range.end == doc.at("Omahaa»")
    actions = await client.text_document_code_action_async(lsp.CodeActionParams(
        text_document=doc.ident(), range=found[0].range, context=lsp.CodeActionContext(diagnostics=found)))
    (edit,) = actions[0].edit.changes[doc.uri]
    assert edit.new_text == "Omaha" and edit.range == found[0].range
    # a syntax error, and another: both lines reported, the rest still indexed
    broken = re.sub(r"(?m)^(trains[ \t]+)45", r"\1forty-five", re.sub(r"(?m)^(hand[ \t]+)4", r"\1", bad))
    messages = [d.message for d in errors(await doc.edit(broken))]
    assert len(messages) == 2 and all("unexpected" in m for m in messages)
    assert await doc.edit(good) == []
    doc.close()


async def test_hover_on_a_city_a_route_a_ticket_and_a_keyword(client: LanguageClient, folder):
    doc = Doc(client, folder / "usa.rail")
    await doc.open()
    variant = compiler.check_file(folder / "usa.rail")
    denver = next(c for c in variant.cities if c.name == "Denver")

    async def hover(position) -> str:
        found = await client.text_document_hover_async(lsp.HoverParams(text_document=doc.ident(), position=position))
        return found.contents.value

    city = await hover(doc.at("city »Denver"))
    routes = [r.name for r in variant.routes if denver.id in (r.a, r.b)]
    assert "**city Denver**" in city and f"routes ({len(routes)})" in city and routes[0] in city
    assert f"tickets naming it ({sum(1 for t in variant.tickets if denver.id in (t.a, t.b))})" in city
    route = await hover(doc.at("route Denver - Omaha »4"))
    omaha = variant.route_named("Denver-Omaha")
    assert f"length {omaha.length}, {omaha.colour_name}, {variant.route_points[omaha.length]} points" in route
    ticket = await hover(doc.at("ticket Denver - El Paso »4"))
    assert "**ticket Denver-El Paso**" in ticket and "fewest cars to complete it: 4" in ticket
    keyword = await hover(doc.at("t»rains 45"))
    assert "Trains (carts) per player" in keyword and "docs/language.md" in keyword
    doc.close()


async def test_definition_references_and_rename_of_a_city(client: LanguageClient, folder):
    doc = Doc(client, folder / "usa.rail")
    await doc.open()
    use = doc.at("route »Denver - Omaha")
    found = await client.text_document_definition_async(lsp.DefinitionParams(text_document=doc.ident(), position=use))
    assert [(d.uri, d.range.start) for d in found] == [(doc.uri, doc.at("city »Denver"))]
    refs = await client.text_document_references_async(lsp.ReferenceParams(
        text_document=doc.ident(), position=use, context=lsp.ReferenceContext(include_declaration=True)))
    written = [m for m in re.finditer(r"\bDenver\b", doc.text)
               if not doc.text[doc.text.rfind("\n", 0, m.start()) + 1:m.start()].lstrip().startswith("#")
               and "#" not in doc.text[doc.text.rfind("\n", 0, m.start()) + 1:m.start()]]
    assert len(refs) == len(written) > 5
    edit = await client.text_document_rename_async(lsp.RenameParams(text_document=doc.ident(), position=use,
                                                                             new_name="Mile High City"))
    changes = edit.changes[doc.uri]
    assert len(changes) == len(refs) and {c.new_text for c in changes} == {"Mile High City"}
    lines = doc.text.split("\n")
    for change in sorted(changes, key=lambda c: (c.range.start.line, c.range.start.character), reverse=True):
        row = lines[change.range.start.line]
        lines[change.range.start.line] = (row[:change.range.start.character] + change.new_text
                                          + row[change.range.end.character:])
    renamed = folder / "renamed.rail"
    renamed.write_text("\n".join(lines), encoding="utf-8")
    assert compiler.check_file(renamed).city_named("Mile High City")
    # a colour goes to its card line
    colour = await client.text_document_definition_async(lsp.DefinitionParams(
        text_document=doc.ident(), position=doc.at(" »pink", nth=1)))
    assert colour[0].range.start == doc.at("card »pink")
    doc.close()


async def test_names_a_mechanic_declares(client: LanguageClient, folder):
    """Companies and groups of cities are found as cities are: from the statements that
    declare them (keyed by their name) and the fields that use them."""
    doc = Doc(client, folder / "pennsylvania.rail")
    await doc.open()
    use = doc.at('"»Reading Lines"', nth=1)
    found = await client.text_document_definition_async(lsp.DefinitionParams(text_document=doc.ident(), position=use))
    assert found[0].range.start == doc.at('company »"Reading Lines"')  # the quotes are the name's
    refs = await client.text_document_references_async(lsp.ReferenceParams(
        text_document=doc.ident(), position=use, context=lsp.ReferenceContext(include_declaration=False)))
    assert len(refs) == doc.text.count('"Reading Lines"') - 1
    hover = await client.text_document_hover_async(lsp.HoverParams(text_document=doc.ident(), position=use))
    assert "**company Reading Lines**" in hover.contents.value
    doc.close()
    doc = Doc(client, folder / "italy.rail")
    await doc.open()
    region = doc.at("region »Campania")
    refs = await client.text_document_references_async(lsp.ReferenceParams(
        text_document=doc.ident(), position=region, context=lsp.ReferenceContext(include_declaration=True)))
    assert [r.range.start for r in refs] == [region]
    city = await client.text_document_definition_async(lsp.DefinitionParams(
        text_document=doc.ident(), position=doc.at("region Campania: »Napoli")))
    assert city[0].range.start == doc.at("city »Napoli")
    base = doc.text.rstrip("\n") + "\n"
    doc.change(base + "region Nowhere: Nap")
    found = await client.text_document_completion_async(lsp.CompletionParams(
        text_document=doc.ident(), position=lsp.Position(line=base.count("\n"), character=len("region Nowhere: Nap"))))
    assert [item.label for item in found.items] == ["Napoli"]
    doc.close()


async def test_hovers_while_the_spec_does_not_check(client: LanguageClient, folder):
    """An edit under way (an unknown city further down) keeps the facts of the last version
    that checked."""
    doc = Doc(client, folder / "usa.rail")
    await doc.open()
    found = await doc.edit(doc.text + "route Denver - Nowhere 2 red\n")
    assert errors(found)
    hover = await client.text_document_hover_async(lsp.HoverParams(
        text_document=doc.ident(), position=doc.at("city »Denver")))
    assert "routes (" in hover.contents.value and "last version that checked" in hover.contents.value
    doc.close()


async def test_without_the_extra_one_line_names_it(monkeypatch, capsys):
    from railspec.tools import cli, cli_lsp

    real = cli_lsp.importlib.util.find_spec
    monkeypatch.setattr(cli_lsp.importlib.util, "find_spec", lambda name, *a: None if name == "pygls" else real(name))
    assert cli.main(["lsp"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pip install railspec[lsp]" in err


async def test_completion_in_context(client: LanguageClient, folder):
    doc = Doc(client, folder / "usa.rail")
    await doc.open()
    base = doc.text.rstrip("\n") + "\n"

    async def complete(line: str) -> list[str]:
        doc.change(base + line)
        position = lsp.Position(line=base.count("\n"), character=len(line))
        found = await client.text_document_completion_async(lsp.CompletionParams(text_document=doc.ident(),
                                                                                 position=position))
        return [item.label for item in found.items]

    assert "Salt Lake City" in await complete("route Salt L")
    assert await complete("ticket Den") == ["Denver"]
    colours = await complete("route Denver - Omaha 4 ")
    assert {"red", "pink", "gray"} <= set(colours) and "Denver" not in colours
    statements = await complete("rou")
    assert statements == ["route", "route points"]
    everything = await complete("")
    for cls in compiler.default_registry().language.nodes:  # every mechanic's statements too
        if getattr(cls, "words", ""):
            assert cls.words in everything
    assert await complete("tiebreak most tickets, l") == ["longest path"]  # the keys the registry defines
    after_colour = await complete("route Denver - Omaha 4 red ")
    assert "tunnel" in after_colour and "ferry" in after_colour and "bullet" in after_colour
    # Japan's statements, and the condition a mechanic joins to the end trigger
    assert await complete("bul") == ["bullet ranking", "bullet trains", "bullet without"]
    assert "and" in await complete("end when trains <= 2 ")
    assert await complete("end when trains <= 2 and ") == ["bullet"]
    assert await complete("end when trains <= 2 and bullet ") == ["trains"]
    await doc.edit(base)
    doc.close()


async def test_completion_of_technology_statements(client: LanguageClient, folder):
    """The United Kingdom's technology statements: their words, the cities a Concession
    opens, Right of Way's effect, and the route attribute that needs none."""
    doc = Doc(client, folder / "united_kingdom.rail")
    await doc.open()
    base = doc.text.rstrip("\n") + "\n"

    async def complete(line: str) -> list[str]:
        doc.change(base + line)
        position = lsp.Position(line=base.count("\n"), character=len(line))
        found = await client.text_document_completion_async(lsp.CompletionParams(text_document=doc.ident(),
                                                                                 position=position))
        return [item.label for item in found.items]

    assert await complete("techn") == ["technology", "technology sets of"]
    assert await complete("start") == ["starting locomotives"]
    assert await complete('technology "Isle of Man Concession" costs 1 copies 4 opens cities Carm') == ["Carmarthen"]
    assert "needs" in await complete("route Southampton - New York 10 gray ferry 3 ")
    assert "claims" in await complete("technology Detour costs 4 copies 1 ")  # Right of Way's effect
    assert await complete("technology Detour costs 4 copies 1 claims ") == ["owned"]
    await doc.edit(base)
    doc.close()


async def test_completion_of_track_beds(client: LanguageClient, folder):
    """France's statements (track_building): their words, a crossing's cities, and 'bed'
    among the attributes after a route's colour."""
    doc = Doc(client, folder / "france.rail")
    await doc.open()
    base = doc.text.rstrip("\n") + "\n"

    async def complete(line: str) -> list[str]:
        doc.change(base + line)
        position = lsp.Position(line=base.count("\n"), character=len(line))
        found = await client.text_document_completion_async(lsp.CompletionParams(text_document=doc.ident(),
                                                                                 position=position))
        return [item.label for item in found.items]

    assert "tracks buildable" in await complete("tra")
    assert "pieces" in await complete("pie")
    assert "crossing" in await complete("cros")
    assert await complete("crossing Angers - Ren") == ["Rennes"]
    assert await complete("crossing Angers - Rennes / Le M") == ["Le Mans"]
    assert "bed" in await complete("route Amiens - Calais 2 gray ")
    await doc.edit(base)
    doc.close()


async def test_formatting_gives_railspec_fmt_layout(client: LanguageClient, folder):
    doc = Doc(client, folder / "usa.rail")
    await doc.open()
    tidy = compiler.format_text(doc.text)
    untidy = re.sub(loose("route Denver - Omaha"), "route   Denver -  Omaha", tidy, count=1)
    untidy = re.sub(r"(?m)^(trains\s+45)\s*(#.*)?\n(hand\s+4)", r"\1; \3", untidy, count=1)
    assert untidy != tidy
    await doc.edit(untidy)
    edits = await client.text_document_formatting_async(lsp.DocumentFormattingParams(
        text_document=doc.ident(), options=lsp.FormattingOptions(tab_size=4, insert_spaces=True)))
    (edit,) = edits
    lines = untidy.split("\n")
    assert edit.range.start == lsp.Position(0, 0) and edit.range.end == lsp.Position(len(lines) - 1, len(lines[-1]))
    assert edit.new_text == compiler.format_text(untidy) and re.search(r"(?m)^trains\s+45\s*\nhand\s+4", edit.new_text)
    await doc.edit(tidy)
    assert await client.text_document_formatting_async(lsp.DocumentFormattingParams(
        text_document=doc.ident(), options=lsp.FormattingOptions(tab_size=4, insert_spaces=True))) == []
    await doc.edit(re.sub(r"(?m)^trains\s+45", "trains", tidy))  # does not parse: nothing to format
    assert await client.text_document_formatting_async(lsp.DocumentFormattingParams(
        text_document=doc.ident(), options=lsp.FormattingOptions(tab_size=4, insert_spaces=True))) is None
    doc.close()


async def test_outline_and_folding(client: LanguageClient, folder):
    doc = Doc(client, folder / "usa.rail")
    await doc.open()
    variant = compiler.check_file(folder / "usa.rail")
    symbols = await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(text_document=doc.ident()))
    groups = {s.name: s for s in symbols}
    assert {"components", "cities", "routes", "tickets"} <= set(groups)
    assert len(groups["cities"].children) == len(variant.cities)
    assert len(groups["routes"].children) == len(variant.routes)
    assert len(groups["tickets"].children) == len(variant.tickets)
    for mechanic, _ in variant.present():  # each mechanic with a statement of its own has its group
        mine = [s for s in compiler.parse(doc.text).statements
                if any(isinstance(s, cls) for cls in mechanic.statements)]
        if mine:
            assert len(groups[mechanic.title].children) == len(mine)
    folds = await client.text_document_folding_range_async(lsp.FoldingRangeParams(text_document=doc.ident()))
    route_lines = [i for i, line in enumerate(doc.text.split("\n")) if line.startswith("route ") and
                   not line.startswith("route points")]
    assert any(f.start_line == route_lines[0] and f.end_line == route_lines[-1] for f in folds)
    assert any(f.kind == lsp.FoldingRangeKind.Comment for f in folds)
    doc.close()


async def test_a_spec_extending_a_base_with_an_error(client: LanguageClient, folder):
    child = Doc(client, folder / "child.rail")
    assert await child.open() == []
    definition = await client.text_document_definition_async(lsp.DefinitionParams(
        text_document=child.ident(), position=child.at("Alpha")))
    base_uri = (folder / "base.rail").resolve().as_uri()
    base_lines = (folder / "base.rail").read_text(encoding="utf-8").split("\n")
    assert definition[0].uri == base_uri and definition[0].range.start.line == base_lines.index("city Alpha")
    base_file = await client.text_document_definition_async(lsp.DefinitionParams(text_document=child.ident(),
                                                                                         position=child.at("base")))
    assert base_file[0].uri == base_uri
    # the base opened and broken in the editor, unsaved: the child shows the error on its extends line
    base = Doc(client, folder / "base.rail")
    await base.open()
    base.change(base.text.replace("route Beta - Gamma 3 gray", "route Beta - Gamma 3 purple"))
    found = errors(await diagnostics(client, child.uri, until=errors, since=base.mark))
    assert len(found) == 1 and found[0].range.start.line == 0
    line = base_lines.index("route Beta - Gamma 3 gray") + 1
    assert f"base.rail:{line}:" in found[0].message and "unknown colour 'purple'" in found[0].message
    (related,) = found[0].related_information
    assert related.location.uri == base_uri and related.location.range.start == base.at("purple")
    base.change(base.text.replace("purple", "gray"))
    assert errors(await diagnostics(client, child.uri, until=lambda found: not errors(found), since=base.mark)) == []
    mark = len(client.published)
    base.close()
    assert errors(await diagnostics(client, child.uri, since=mark)) == []  # read from disk once closed
    # a change on disk reaches the child when the client says so
    path = folder / "base.rail"
    saved = path.read_text(encoding="utf-8")
    for text, wanted in ((saved.replace("city Delta", "city Delat"), errors), (saved, lambda found: not errors(found))):
        mark = len(client.published)
        path.write_text(text, encoding="utf-8")
        client.workspace_did_change_watched_files(lsp.DidChangeWatchedFilesParams(
            changes=[lsp.FileEvent(uri=base_uri, type=lsp.FileChangeType.Changed)]))
        assert await diagnostics(client, child.uri, until=wanted, since=mark) is not None
    child.close()


@pytest.mark.parametrize("first_line", ['extends "nowhere"', 'extends "nowhere.rail"', 'extends "loop.rail"'])
async def test_a_base_that_cannot_be_read_is_said_as_railspec_check_says_it(tmp_path, first_line):
    """The server follows extends itself (to read bases from the editor); its messages are
    the checker's."""
    from railspec.tools.lsp.analysis import Analyzer

    spec = tmp_path / "loop.rail"
    spec.write_text(f'{first_line}\nvariant "Loop"\n', encoding="utf-8")
    with pytest.raises(compiler.base.errors.SpecError) as raised:
        compiler.check_file(spec)
    found = Analyzer().analyze(str(spec), spec.read_text(encoding="utf-8")).problems
    assert [(p.span.line, p.message) for p in found] == [(1, raised.value.message)]


async def test_a_document_over_the_size_limit_is_not_parsed(client: LanguageClient, folder: Path) -> None:
    """As railspec check refuses a spec file over 4 MB, the server refuses a document over
    4 MB: one diagnostic, no parse (a parse would take about a minute)."""
    text = "# " + "x" * compiler.base.limits.MAX_SPEC_BYTES + "\n"
    path = folder / "huge.rail"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(compiler.base.errors.SpecError) as refused:
        compiler.check_file(path)
    doc = Doc(client, path)
    (found,) = await doc.open()
    size = f"{len(text.encode()):,} bytes, larger than the 4 MB a spec file may be"
    assert size in found.message and size in refused.value.message
    assert found.severity == lsp.DiagnosticSeverity.Error and found.range.start == lsp.Position(0, 0)
    symbols = await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(text_document=doc.ident()))
    assert symbols == []
    assert await doc.edit('extends "usa.rail"\nvariant "Small"\n') == []  # under the limit: checked again
    doc.close()


async def test_a_long_check_holds_nothing_up_and_a_stale_one_stops(client: LanguageClient, folder: Path) -> None:
    """A spec of a megabyte takes seconds to check: the check runs off the server's loop,
    so a hover on another document is answered meanwhile, and a change stops it half-way
    (the server's trace says so); only the new text's diagnostics are published."""
    small = Doc(client, folder / "italy.rail")
    await small.open()
    usa = (folder / "usa.rail").read_text(encoding="utf-8")
    routes = "\n".join(line for line in usa.split("\n") if line.startswith("route "))
    big = folder / "big.rail"
    big.write_text(usa + "\n" + "\n".join([routes] * (1024 * 1024 // len(routes))), encoding="utf-8")
    doc = Doc(client, big)
    doc.mark = mark = len(client.published)
    traces = len(client.traces)
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(
        uri=doc.uri, language_id="rail", version=1, text=doc.text)))
    await until(lambda: f"railspec: checking {doc.uri} (version 1)" in client.traces[traces:])
    hover = await client.text_document_hover_async(lsp.HoverParams(
        text_document=small.ident(), position=small.at("city »Napoli")))
    assert "**city Napoli**" in hover.contents.value
    assert await doc.edit('extends "usa.rail"\nvariant "Small"\n') == []
    stopped = f"railspec: stopped checking {doc.uri} (version 1): a newer text replaced it"
    await until(lambda: stopped in client.traces[traces:])
    assert [p.version for p in client.published[mark:] if p.uri == doc.uri] == [2]
    doc.close()
    small.close()


async def until(condition: Callable[[], bool], seconds: float = 30) -> None:
    """Wait for ``condition()`` (a test fails after 30 s without)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "waited 30 s in vain"
        await asyncio.sleep(0.005)


async def test_a_change_to_the_largest_spec_is_answered_quickly(client: LanguageClient, folder, capsys):
    doc = Doc(client, folder / "largest.rail")
    assert errors(await doc.open()) == []
    original = doc.text
    timings = []
    for k in range(8):
        # an edit an author makes: a route's length, then back, then a misspelt name
        text = re.sub(r"(?m)^trains(\s+)\d+", rf"trains\g<1>{46 + k}", original) if k % 2 == 0 \
            else original + f"# note {k}\n"
        start = time.perf_counter()
        await doc.edit(text)
        timings.append((time.perf_counter() - start) * 1000)
    with capsys.disabled():
        print(f"\nrailspec lsp: a change to {doc.path.name} ({len(original):,} bytes) answered with diagnostics "
              f"in {statistics.median(timings):.0f} ms (median of {len(timings)}; "
              f"min {min(timings):.0f}, max {max(timings):.0f})")
    doc.close()


async def test_completion_of_the_northern_lights_statements(client: LanguageClient, folder):
    """On a copy of the Northern Lights spec: the words its statements begin with, the keys
    a bonus card's 'by' takes, the groups its 'touching' names, the cities of a group, the
    draw bonus among the route attributes and the sized form of 'tracks usable'."""
    shutil.copy(compiler.stock_path("northern_lights"), folder / "northern_lights.rail")
    doc = Doc(client, folder / "northern_lights.rail")
    assert errors(await doc.open()) == []
    base = doc.text.rstrip("\n") + "\n"

    async def complete(line: str) -> list[str]:
        doc.change(base + line)
        position = lsp.Position(line=base.count("\n"), character=len(line))
        found = await client.text_document_completion_async(lsp.CompletionParams(text_document=doc.ident(),
                                                                                 position=position))
        return [item.label for item in found.items]

    assert await complete("bonus") == ["bonus card", "bonus cards", "bonus country", "bonus group"]
    assert "tracks usable N of S" in await complete("tr") and "substitute N of one colour" in await complete("sub")
    assert await complete("tracks usable 1 ") == ["for", "of"]
    assert await complete('bonus card "Far north" 8 by l') == ["longest path"]
    touching = await complete('bonus card "Far north" 8 for most routes touching ')
    assert {"Arctic", "Capitals", "Norway"} <= set(touching) and "longest path" not in touching
    assert await complete('bonus card "Far north" 8 for most tickets completed ') == ["touching", "worth"]
    assert await complete("bonus group Fjords: Tro") == ["Tromsø", "Trondheim"]
    assert "draw" in await complete("route Oslo - Bergen 3 gray ferry 1 ")
    await doc.edit(base)
    doc.close()


async def test_completion_of_the_city_markers_statement(client: LanguageClient, folder):
    """On a copy of the Old West spec: 'city' completes to the places' statement and to the
    city markers' (docs/language.md, "City markers"), whose next word is 'cost'."""
    shutil.copy(compiler.stock_path("old_west"), folder / "old_west.rail")
    doc = Doc(client, folder / "old_west.rail")
    assert errors(await doc.open()) == []
    base = doc.text.rstrip("\n") + "\n"

    async def complete(line: str) -> list[str]:
        doc.change(base + line)
        position = lsp.Position(line=base.count("\n"), character=len(line))
        found = await client.text_document_completion_async(lsp.CompletionParams(text_document=doc.ident(),
                                                                                 position=position))
        return [item.label for item in found.items]

    assert "city markers" in await complete("ci")
    assert await complete("city markers 3 ") == ["cost"]
    await doc.edit(base)
    doc.close()
