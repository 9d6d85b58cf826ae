"""Fuzz target: the web app's messages as any page may send them, through the one parser and every handler of a live app.

A random-mutation driver (no coverage guidance: Debian has no Python fuzzing engine), run by
scripts/fuzz.sh beside the libFuzzer targets and replayed over its saved inputs by
tests/python/test_serve_access.py:

    python3 fuzz/serve_message.py SECONDS CRASH_DIR INPUT_DIR...

A finding is any input after which the server does anything but answer: an exception that
escapes the parser or a handler, a reply that says the server failed, a reply that is not one
JSON line, or an error longer than a page is ever shown. The input goes to CRASH_DIR/current
(scripts/fuzz.sh renames it by its hash) and the driver exits 1.
"""

import asyncio
import json
import pathlib
import random
import sys
import time

from boardlab.serve.app import MAX_ERROR, App, Client
from boardlab.serve.access import Access
from boardlab.serve.messages import SCHEMA

import boardlab

# Values that have broken parsers: huge and odd numbers, wrong types, deep nesting, odd text.
INTERESTING = ["1e400", "-1", "0", "18446744073709551616", "2147483648", "true", "null", "[]", "{}", "\"\"",
               "\"\\ud800\"", "\"\\u0000\"", "NaN", "[" * 200 + "]" * 200, "\"" + "x" * 2000 + "\"",
               "\"../../../etc/passwd\"", "\"/dev/zero\"", "\"uct:1000000000\"", "[0,0,0,0,0,0,0]", "[999]",
               "[\"a\"]", "{\"a\":{\"b\":[]}}", "\"\\udcff\"", "-0.5", "1.0"]


class FakeSocket:
    """Stands for a page's WebSocket: keeps what the server sends."""

    closed = False

    def __init__(self):
        self.sent: list[str] = []

    async def send_str(self, text: str) -> None:
        self.sent.append(text)


def check(app: App, data: str) -> str | None:
    """Why `data` is a finding, or None: it is sent by a fresh page of `app`, and every reply is read."""
    socket = FakeSocket()
    client = Client(socket)

    async def exchange() -> None:
        await app.dispatch(client, data)
        await asyncio.sleep(0)  # let the bots' first step begin, as a page would

    try:
        asyncio.get_event_loop().run_until_complete(exchange())
    except Exception as error:  # noqa: BLE001 - any escape is the finding
        return f"{type(error).__name__} escaped: {error!s:.200}"
    finally:
        session = client.session
        app.detach(client)
        if session is not None:
            app.stop_unwatched(session)
    for text in socket.sent:
        if "\n" in text:
            return "a reply spans lines"
        reply = json.loads(text)
        message = str(reply.get("message", ""))
        if reply.get("type") == "error" and ("server failed" in message or len(message) > MAX_ERROR):
            return f"error reply: {message[:300]}"
    return None


# Field values seen in the saved inputs: swapped between messages, they make inputs that pass
# the parser and reach the handlers in new combinations.
VALUES: list[tuple[str, object]] = []


def mutate(rng: random.Random, data: str) -> str:
    for _ in range(1 if rng.random() < 0.6 else rng.randint(2, 4)):
        data = rng.choice((_replace_value, _replace_value, _cross, _cross, _add_field, _splice, _bytes))(rng, data)
    return data


def _cross(rng: random.Random, data: str) -> str:
    """A field of this message given the value another saved message has for a field of that name."""
    message = _object(data)
    if message is None or not VALUES:
        return data
    key, value = rng.choice(VALUES)
    if key != "type":
        message[key] = value
    return json.dumps(message)


def _object(data: str) -> dict | None:
    """The message as a dict, when it is one: the structural mutations keep it one."""
    try:
        message = json.loads(data)
    except (ValueError, RecursionError):
        return None
    return message if isinstance(message, dict) else None


def _interesting(rng: random.Random):
    return json.loads(rng.choice(INTERESTING).replace("NaN", "null"))


def _replace_value(rng: random.Random, data: str) -> str:
    """A field's value swapped for an interesting one (the structure kept, so that handlers are reached)."""
    message = _object(data)
    if not message:
        return data
    message[rng.choice(sorted(message))] = _interesting(rng)
    return json.dumps(message)


def _add_field(rng: random.Random, data: str) -> str:
    message = _object(data)
    if message is None:
        return data
    kind = rng.choice(sorted(SCHEMA))
    message[rng.choice((*SCHEMA[kind], "type", "x"))] = _interesting(rng)
    return json.dumps(message)


def _splice(rng: random.Random, data: str) -> str:
    at = rng.randint(0, len(data))
    return data[:at] + rng.choice(INTERESTING) + data[at + rng.randint(0, 3):]


def _bytes(rng: random.Random, data: str) -> str:
    if not data:
        return data
    at = rng.randrange(len(data))
    return data[:at] + chr(rng.choice((0, 0x22, 0x5C, 0x7B, 0x7D, rng.randint(1, 0x10FFFF) & 0xD7FF))) + data[at + 1:]


def read_inputs(folders: list[str]) -> list[str]:
    """The saved inputs of `folders`; their fields become the values _cross swaps in."""
    inputs = []
    for folder in folders:
        for path in sorted(pathlib.Path(folder).glob("*")):
            if path.is_file():
                inputs.append(path.read_bytes().decode("utf-8", "replace"))
    for data in inputs:
        try:
            message = json.loads(data)
        except (ValueError, RecursionError):
            continue
        if isinstance(message, dict):
            VALUES.extend(message.items())
    return inputs


def make_app(runs: str = "/nonexistent") -> App:
    return App(runs, 0, boardlab.load_game, Access("fuzz-token-0123456789"), move_seconds=0.05)


def main(seconds: float, crashes: str, folders: list[str]) -> int:
    app = make_app()
    inputs = read_inputs(folders) or ['{"type":"runs"}']
    for data in inputs:  # the saved inputs first, as libFuzzer replays its corpus
        if (why := check(app, data)) is not None:
            return _found(crashes, data, why)
    rng = random.Random(int(time.time()))
    executions, end = len(inputs), time.monotonic() + seconds
    while time.monotonic() < end:
        data = mutate(rng, rng.choice(inputs))
        executions += 1
        if (why := check(app, data)) is not None:
            return _found(crashes, data, why)
    print(f"stat::number_of_executed_units: {executions}")
    return 0


def _found(crashes: str, data: str, why: str) -> int:
    path = pathlib.Path(crashes) / "current"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(data, encoding="utf-8", errors="surrogatepass")
    print(f"ERROR: serve_message: {why} (input in {path})")
    return 1


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit("usage: serve_message.py SECONDS CRASH_DIR [INPUT_DIR...]")
    asyncio.set_event_loop(asyncio.new_event_loop())
    sys.exit(main(float(sys.argv[1]), sys.argv[2], sys.argv[3:]))
