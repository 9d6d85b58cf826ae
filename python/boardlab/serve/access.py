"""Who may use the web app: the server's secret in the page's address, the Host check against DNS rebinding and the same-origin check against other web sites."""

import hmac
import ipaddress
import os
import pathlib
import secrets
from urllib.parse import urlsplit

TOKEN_BYTES = 24  # 192 bits: not guessable from a web page, however many tries it makes


def default_token_file() -> pathlib.Path:
    """Where `boardlab serve` keeps its secret between starts, so that open pages reconnect after a restart."""
    state = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return pathlib.Path(state) / "boardlab" / "serve-token"


def load_token(path: "str | os.PathLike") -> str:
    """The secret kept in `path`, made (readable by this user only) when there is none; OSError when the
    file cannot be read or written, ValueError when it holds no token."""
    path = pathlib.Path(path)
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        token = secrets.token_urlsafe(TOKEN_BYTES)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as file:
            file.write(token + "\n")
        return token
    if not path.is_file():
        raise ValueError(f"the token file {path} is not a regular file")
    if path.stat().st_mode & 0o077:
        raise ValueError(f"the token file {path} may be read by other users: chmod 600 it, or delete it "
                         "for a new one")
    token = path.read_text(encoding="ascii", errors="replace").strip()
    if len(token) < 16 or not token.replace("-", "").replace("_", "").isalnum():
        raise ValueError(f"the token file {path} holds no token (16 or more letters, digits, - or _): "
                         "delete it for a new one")
    return token


def token_matches(expected: str, given: "str | None") -> bool:
    # In constant time: a page timing its refusals learns nothing of the token.
    return given is not None and hmac.compare_digest(expected.encode(), given.encode("utf-8", "replace"))


class Access:
    """The checks every request passes: its Host names this server (an IP address, localhost, the bound
    name or one of `allowed_hosts`), a browser's Origin is this server itself, and a WebSocket carries
    the token."""

    def __init__(self, token: str, allowed_hosts: "list[str] | tuple[str, ...]" = ()):
        self.token = token
        self.allowed_hosts = {"localhost", *(h.lower() for h in allowed_hosts)}

    def host_problem(self, host: "str | None") -> str | None:
        """Why a request with this Host header is refused, or None. A name other than those known can only
        reach this server through DNS rebinding: another site's name that now resolves here."""
        if not host:
            return "the request names no Host"
        name = urlsplit("//" + host).hostname or ""
        if name in self.allowed_hosts or _is_ip_address(name):
            return None
        return f"this server is not {name!r} (serve --allow-host {name} if it is)"

    def origin_problem(self, origin: "str | None", host: str) -> str | None:
        """Why a browser page from `origin` may not connect, or None. Browsers always send Origin with a
        WebSocket; programs that send none (scripts, tests) still need the token."""
        if origin is None:
            return None
        parts = urlsplit(origin)
        if parts.scheme not in ("http", "https") or parts.netloc.lower() != host.lower():
            return f"pages from {origin[:80]} may not use this server, only its own page"
        return None

    def token_problem(self, given: "str | None") -> str | None:
        if token_matches(self.token, given):
            return None
        return ("this page lacks the server's token: open the address `boardlab serve` printed "
                "(it ends in #token=...)")


def _is_ip_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True
