"""`boardlab serve`: the web app on a local port: play, analyse and watch runs in the browser."""

import argparse
import asyncio
import os

from boardlab.errors import CliError
from boardlab.flags import int_in

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def register(subparsers) -> None:
    parser = subparsers.add_parser("serve", help="the web app: play, analyse records, watch runs in a browser")
    parser.add_argument("--port", type=int_in(0, 65535), default=8000,
                        help="port to listen on (default 8000; 0 picks a free one)")
    parser.add_argument("--runs", default="runs", help="the folder of run folders to show (default runs/)")
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to bind (default 127.0.0.1: this machine only; the app has no login, so bind another "
        "address only on a network you trust)",
    )
    parser.add_argument("--bot-delay", type=float, default=0.2, metavar="SECONDS",
                        help="pause before each bot move, so that its sub-moves can be followed (default 0.2)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        from aiohttp import web
    except ImportError:
        raise CliError("the web app needs aiohttp (Debian: apt-get install python3-aiohttp)") from None
    from boardlab.serve.app import make_app

    if not 0 <= args.bot_delay <= 60:
        raise CliError(f"--bot-delay must be from 0 to 60 seconds, got {args.bot_delay:g}")
    app = make_app(args.runs, args.bot_delay)
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
            else "other machines can connect, and the app has no login"
        missing = "" if os.path.isdir(runs) else ", not there yet"
        print(f"boardlab serve: http://{bound_host}:{bound_port}/ (bound to {bound_host}: {reach}); "
              f"runs from {runs.rstrip('/')}/{missing}; Ctrl-C stops", flush=True)
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()
