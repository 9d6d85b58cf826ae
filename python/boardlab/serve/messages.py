"""What a page may send: every WebSocket message read and checked against one schema here, before any handler sees it."""

import json
import re
from dataclasses import dataclass
from typing import Any, Callable

from boardlab import _boardlab

MAX_MESSAGE_BYTES = 1 << 20  # a pasted record of the longest game is a few tens of KB
MAX_TEXT = 1000  # characters of a name, a spec, a path
MAX_RECORD = MAX_MESSAGE_BYTES  # characters of a record: bounded by the message itself
MAX_SEATS = 6  # the most seats of any game (core/game_spec.h's limit)
MAX_PARAMS = 16
MAX_ACTION = 2**31 - 1
MAX_POSITION = 10**7
MAX_SIMULATIONS = _boardlab.MAX_SIMULATIONS  # mcts/search_config.h: a few seconds of search on this kind of machine
MAX_SEED = 2**64 - 1
GAME_ID = re.compile(r"[0-9a-f]{12}")


class MessageError(ValueError):
    """A message refused before any handler ran: the one line the page is sent back."""


def clip(text: Any, limit: int = 60) -> str:
    """`text` as a page or a terminal may be shown it: printable, and at most `limit` characters."""
    shown = str(text).encode("utf-8", "backslashreplace").decode("utf-8")
    shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in shown)
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


@dataclass(frozen=True)
class Field:
    """One field of a message: how it is read (`read(value, name)` returns the value or raises
    MessageError), and whether it may be left out (then None)."""

    read: Callable[[Any, str], Any]
    optional: bool = False


def _integer(value: Any, name: str, low: int, high: int) -> int:
    # JSON's true is not 1, and 1e400 or 2.5 are not seat numbers.
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise MessageError(f"{name} must be a whole number from {low} to {high:,}, got {clip(json.dumps(value))}")
    if isinstance(value, str):
        # ASCII digits and spaces only: int() would read other scripts' digits, and \s takes control codes.
        digits = re.fullmatch(r" *([0-9]{1,20}) *", value)
        if digits is None:
            raise MessageError(f"{name} must be a whole number from {low} to {high:,}, got {clip(repr(value))}")
        value = int(digits.group(1))
    if not low <= value <= high:
        raise MessageError(f"{name} must be from {low} to {high:,}, got {clip(value)}")
    return value


def integer(low: int, high: int, optional: bool = False) -> Field:
    """A whole number in [low, high]: a JSON number, or digits in a string (a text box's value);
    an empty string counts as left out when the field is optional."""

    def read(value: Any, name: str) -> int | None:
        if optional and value == "":
            return None
        return _integer(value, name, low, high)

    return Field(read, optional)


def text(limit: int = MAX_TEXT, optional: bool = False) -> Field:
    def read(value: Any, name: str) -> str:
        if not isinstance(value, str):
            raise MessageError(f"{name} must be text, got {clip(json.dumps(value))}")
        if len(value) > limit:
            raise MessageError(f"{name} is {len(value):,} characters long; at most {limit:,}")
        if "\x00" in value:
            raise MessageError(f"{name} holds a NUL character")
        return value

    return Field(read, optional)


def flag(optional: bool = True) -> Field:
    def read(value: Any, name: str) -> bool:
        if not isinstance(value, bool):
            raise MessageError(f"{name} must be true or false, got {clip(json.dumps(value))}")
        return value

    return Field(read, optional)


def _seats(value: Any, name: str) -> list[int]:
    if not isinstance(value, list) or len(value) > MAX_SEATS:
        raise MessageError(f"{name} must be a list of at most {MAX_SEATS} seat numbers")
    seats = [_integer(seat, f"{name}[{i}]", 0, MAX_SEATS - 1) for i, seat in enumerate(value)]
    if len(set(seats)) != len(seats):
        raise MessageError(f"{name} names a seat twice")
    return seats


def _keys(value: Any, name: str) -> list[str]:
    if not isinstance(value, list) or len(value) > MAX_SEATS:
        raise MessageError(f"{name} must be a list of at most {MAX_SEATS} seat keys")
    return [text(64).read(key, f"{name}[{i}]") for i, key in enumerate(value)]


def _params(value: Any, name: str) -> dict[str, str]:
    """A game's parameters as key=value text, as load_game reads them; empty values are left out."""
    if not isinstance(value, dict) or len(value) > MAX_PARAMS:
        raise MessageError(f"{name} must be at most {MAX_PARAMS} key=value pairs")
    params = {}
    for key, item in value.items():
        key = text(64).read(key, f"{name} key")
        if isinstance(item, bool):
            item = "true" if item else "false"
        elif isinstance(item, int):
            item = str(item)
        item = text(200).read(item, f"{name}[{clip(key, 20)}]")
        if item.strip():
            params[key] = item.strip()
    return params


def _game_id(value: Any, name: str) -> str:
    if not isinstance(value, str) or not GAME_ID.fullmatch(value):
        raise MessageError(f"{name} must be a game id (12 hexadecimal digits), got {clip(json.dumps(value))}")
    return value


def _nullable(field: Field) -> Field:
    """JSON null counts as left out."""
    return Field(lambda value, name: None if value is None else field.read(value, name), True)


SEATS = Field(_seats, optional=True)
PARAMS = Field(_params, optional=True)

# Every message a page may send, with every field it may carry; anything else is refused.
SCHEMA: dict[str, dict[str, Field]] = {
    "new_game": {"game": text(200), "params": PARAMS, "players": text(), "seed": integer(0, MAX_SEED, True)},
    "join": {"id": Field(_game_id), "seats": SEATS, "keys": Field(_keys, optional=True),
             "restore": flag(), "game": text(200, True), "players": text(optional=True),
             "record": _nullable(text(MAX_RECORD))},
    "play": {"seat": integer(0, MAX_SEATS - 1), "action": integer(0, MAX_ACTION)},
    "refused_click": {"seat": _nullable(integer(0, MAX_SEATS - 1)), "text": text(200)},
    "undo": {},
    "resign": {},
    "analyse": {"game": _nullable(text(200)), "params": PARAMS, "text": text(MAX_RECORD),
                "run": _nullable(text()), "at_end": flag()},
    "step": {"position": integer(0, MAX_POSITION)},
    "agent": {"checkpoint": text(), "simulations": _nullable(integer(1, MAX_SIMULATIONS, True))},
    "watch_run": {"path": text()},
    "runs": {},
}


def parse_message(data: "str | bytes") -> tuple[str, dict[str, Any]]:
    """The kind of message `data` is and its fields, each checked (a field left out is None);
    MessageError with one line naming what is wrong and why."""
    if len(data) > MAX_MESSAGE_BYTES:
        raise MessageError(f"the message is {len(data):,} characters long; at most {MAX_MESSAGE_BYTES:,}")
    try:
        message = json.loads(data, parse_constant=_no_constant)
    except RecursionError:
        raise MessageError("the message is nested too deeply to be one of this page's messages") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise MessageError(f"the message is not JSON ({clip(error, 80)})") from None
    if not isinstance(message, dict):
        raise MessageError("a message must be a JSON object with a type")
    kind = message.get("type")
    if not isinstance(kind, str) or kind not in SCHEMA:
        raise MessageError(f"unknown message {clip(json.dumps(kind), 40)} (known: {', '.join(SCHEMA)})")
    fields = SCHEMA[kind]
    unknown = [key for key in message if key != "type" and key not in fields]
    if unknown:
        raise MessageError(f"{kind}: unknown field {clip(json.dumps(unknown[0]), 40)} "
                           f"(known: {', '.join(fields) or 'none'})")
    checked = {}
    for name, field in fields.items():
        if name not in message:
            if not field.optional:
                raise MessageError(f"{kind}: the field {name} is missing")
            checked[name] = None
            continue
        checked[name] = field.read(message[name], f"{kind}: {name}")
    return kind, checked


def _no_constant(name: str):
    raise MessageError(f"the message holds {name}, which is not JSON")
