"""Who may drive ``railspec play``: the checks every request passes before the app sees
it, as a plain ASGI middleware (no library of the ``play`` extra needed).

The server holds the person's games on their own machine, and a web page anywhere could
try to drive it through the person's browser:

- by *DNS rebinding*: a page of ``evil.example`` whose name is made to resolve to
  127.0.0.1 reaches the server as its own origin, so the browser lets it read every
  answer. Its requests carry ``Host: evil.example``: only the names the server is served
  under are answered (:class:`Hosts`), anything else is a 421;
- by a *cross-site request*: a form or a ``no-cors`` fetch of another site can POST to
  127.0.0.1 (it cannot read the answer, but it acts). Such a request can only carry a
  ``text/plain``, form or multipart body: a POST body must be ``application/json``
  (else 415), and a POST whose ``Origin`` is not the server's own is a 403.

Every refusal is a 4xx with ``{"error": "one line"}``, like the app's own.
"""
from __future__ import annotations

import ipaddress
import json
import logging
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from dataclasses import dataclass
from typing import Any

#: The names of this machine that no outside page can take.
LOCAL_NAMES = ("localhost", "127.0.0.1", "::1")
#: The addresses meaning "every address of this machine" (``--host 0.0.0.0``).
WILDCARDS = ("0.0.0.0", "::", "")

#: Where a refusal is told (the server's logger).
log = logging.getLogger("railspec.play")

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def split_host(value: str) -> tuple[str, int | None] | None:
    """A ``Host`` header (or an origin's host part) as (lower-case name, port or None);
    None when it is not one (an IPv6 address is written in brackets)."""
    value = value.strip().lower()
    if value.startswith("["):
        name, bracket, rest = value[1:].partition("]")
        if not bracket or (rest and not rest.startswith(":")):
            return None
        port_text = rest[1:] if rest else None
    else:
        name, colon, port_text = value.partition(":")
        if not colon:
            port_text = None
    if not name or ":" in name and not _is_address(name):
        return None
    if port_text is None:
        return name, None
    if not port_text.isdigit() or len(port_text) > 5:
        return None
    return name, int(port_text)


@dataclass(frozen=True)
class Hosts:
    """The names a server answers to: ``names`` (lower-case; an IPv6 address without its
    brackets), on ``port`` (None: any port; a ``Host`` without a port means 80), and, when
    ``any_address`` (a server listening on every address), any IP address written as one.
    An address cannot be rebound to another machine: only a *name* can be made to point
    at this server by someone else."""

    names: frozenset[str]
    port: int | None = None
    any_address: bool = False

    @classmethod
    def serving(cls, host: str, port: int | None, also: Iterable[str] = ()) -> Hosts:
        """The hosts of a server listening on ``host`` (the ``--host`` given) and ``port``:
        ``host`` itself, this machine's local names, and the names ``also`` allows."""
        host = host.strip().strip("[]").lower()
        names = {*LOCAL_NAMES, *(name.strip().strip("[]").lower() for name in also)}
        if host not in WILDCARDS:
            names.add(host)
        return cls(frozenset(names), port, host in WILDCARDS)

    def allows(self, value: str) -> bool:
        """Whether a ``Host`` header (or an origin's ``host[:port]``) names this server."""
        parsed = split_host(value)
        if parsed is None:
            return False
        name, port = parsed
        if self.port is not None and (port if port is not None else 80) != self.port:
            return False
        return name in self.names or (self.any_address and _is_address(name))

    def allows_origin(self, origin: str) -> bool:
        """Whether an ``Origin`` header is a page of this server (``http://HOST[:PORT]``)."""
        scheme, sep, rest = origin.strip().partition("://")
        return bool(sep) and scheme.lower() == "http" and "/" not in rest and self.allows(rest)


#: The hosts of a server whose address is not known (an app made outside ``railspec
#: play``): this machine's local names, on any port.
LOCAL = Hosts(frozenset(LOCAL_NAMES))


def refusal(hosts: Hosts, method: str, headers: dict[str, str]) -> tuple[int, str] | None:
    """Why a request is refused before the app sees it (a status and one line), or None.
    ``headers``: lower-case names, the last value of each."""
    host = headers.get("host")
    if host is None or not hosts.allows(host):
        shown = "no Host header" if host is None else f"Host {host[:80]!r}"
        return 421, f"{shown}: this server answers to {', '.join(sorted(hosts.names))} only"
    if method != "POST":
        return None
    origin = headers.get("origin")
    if origin is not None and not hosts.allows_origin(origin):
        return 403, f"a request from the page {origin[:80]!r}: only this server's own page may act"
    kind = headers.get("content-type")
    has_body = headers.get("content-length", "0") != "0" or "transfer-encoding" in headers
    media = kind.split(";", 1)[0].strip().lower() if kind is not None else None
    if (media is not None or has_body) and media != "application/json":
        return 415, f"a body is JSON, sent as application/json, not {kind[:60] if kind else 'untyped'}"
    return None


class Guard:
    """The ASGI middleware refusing what :func:`refusal` refuses, for HTTP requests."""

    def __init__(self, app: ASGIApp, hosts: Hosts = LOCAL) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            # the app has none; a rebound page must not reach one added later either
            headers = {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope["headers"]}
            if not self.hosts.allows(headers.get("host", "")):
                await send({"type": "websocket.close", "code": 1008})
                return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        pairs = [(name.decode("latin-1").lower(), value.decode("latin-1")) for name, value in scope["headers"]]
        headers = dict(pairs)
        if sum(name == "host" for name, _ in pairs) > 1:
            refused: tuple[int, str] | None = (400, "more than one Host header")
        else:
            refused = refusal(self.hosts, scope["method"], headers)
        if refused is None:
            await self.app(scope, receive, send)
            return
        status, message = refused
        log.info(f"refused {scope['method']} {scope['path'][:80]}: {status} {message}")
        body = json.dumps({"error": message}).encode()
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})


__all__ = ["Guard", "Hosts", "LOCAL", "LOCAL_NAMES", "refusal", "split_host"]
