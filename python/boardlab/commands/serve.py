"""`boardlab serve`: the web app on a local port: play, analyse and watch runs in the browser."""

import argparse
import asyncio
import os

from boardlab.errors import CliError
from boardlab.flags import int_in
from boardlab.serve.access import default_token_file, load_token
from boardlab.serve.page_bots import DEFAULT_MOVE_SECONDS

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def register(subparsers) -> None:
    parser = subparsers.add_parser("serve", help="the web app: play, analyse records, watch runs in a browser")
    parser.add_argument("--port", type=int_in(0, 65535), default=8000,
                        help="port to listen on (default 8000; 0 picks a free one)")
    parser.add_argument("--runs", default="runs", help="the folder of run folders to show (default runs/)")
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to bind (default 127.0.0.1: this machine only; anyone who can reach another address and "
        "has the address with its token can use the app, so bind one only on a network you trust)",
    )
    parser.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                        help="a host name pages may reach this server by, besides IP addresses and localhost "
                        "(repeatable); other names are refused, as DNS rebinding would use them")
    parser.add_argument("--token-file", metavar="PATH",
                        help="where the secret that pages connect with is kept, so that open pages reconnect "
                        f"after a restart (default {_shown(default_token_file())}; made, readable by you only, "
                        "when missing)")
    parser.add_argument("--bot-delay", type=float, default=0.2, metavar="SECONDS",
                        help="pause before each bot move, so that its sub-moves can be followed (default 0.2)")
    parser.add_argument("--move-seconds", type=float, default=DEFAULT_MOVE_SECONDS, metavar="SECONDS",
                        help="the longest a page's bot thinks about one move before it plays its best so far "
                        f"(default {DEFAULT_MOVE_SECONDS:g})")
    parser.set_defaults(run=run)


def _shown(path) -> str:
    home = os.path.expanduser("~")
    return "~" + str(path)[len(home):] if str(path).startswith(home + os.sep) else str(path)


def run(args: argparse.Namespace) -> int:
    try:
        from aiohttp import web
    except ImportError:
        raise CliError("the web app needs aiohttp (Debian: apt-get install python3-aiohttp)") from None
    from boardlab.serve.app import make_app

    if not 0 <= args.bot_delay <= 60:
        raise CliError(f"--bot-delay must be from 0 to 60 seconds, got {args.bot_delay:g}")
    if not 0.1 <= args.move_seconds <= 3600:
        raise CliError(f"--move-seconds must be from 0.1 to 3,600 seconds, got {args.move_seconds:g}")
    token_file = args.token_file or default_token_file()
    try:
        token = load_token(token_file)
    except (OSError, ValueError) as error:
        raise CliError(f"the token file {token_file}: {getattr(error, 'strerror', None) or error}") from None
    app = make_app(args.runs, args.bot_delay, token=token, allowed_hosts=args.allow_host,
                   move_seconds=args.move_seconds)
    try:
        asyncio.run(_serve(web, app, args.host, args.port, args.runs))
    except OSError as error:
        raise CliError(f"cannot listen on {args.host}:{args.port}: {error.strerror or error}") from None
    return 0


async def _serve(web, app, host: str, port: int, runs: str) -> None:
    """Runs the app until Ctrl-C or SIGTERM (the command line's handlers), saying where it listens."""
    runner = web.AppRunner(app, handle_signals=False)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port, shutdown_timeout=2.0).start()
        # The port actually bound (--port 0 asks the system for a free one), on one line for scripts.
        bound_host, bound_port = runner.addresses[0][:2]
        reach = "only this machine can connect" if host in LOCAL_HOSTS \
            else "other machines can connect, with the token"
        missing = "" if os.path.isdir(runs) else ", not there yet"
        token = app["boardlab"].access.token
        shown_host = f"[{bound_host}]" if ":" in bound_host else bound_host
        print(f"boardlab serve: http://{shown_host}:{bound_port}/#token={token} (bound to {bound_host}: {reach}); "
              f"runs from {runs.rstrip('/')}/{missing}; Ctrl-C stops", flush=True)
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()
