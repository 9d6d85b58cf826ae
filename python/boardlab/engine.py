"""Access to the C++ players and arena: search players from _boardlab, network players from _boardlab_nn when needed."""

import importlib

from boardlab import _boardlab


def needs_network(specs) -> bool:
    return any(spec.strip().startswith("agent:") for spec in specs)


def module_for(specs):
    """_boardlab_nn (LibTorch) only when a spec names a trained agent, so plain games start fast."""
    if needs_network(specs):
        try:
            return importlib.import_module("boardlab._boardlab_nn")
        except ImportError as error:  # built without BOARDLAB_TORCH
            raise ValueError(f"agent players need the LibTorch module, which this build lacks: {error}") from None
    return _boardlab


def network_module():
    return module_for(["agent:"])


def make_bot(spec: str, game, seed: int):
    return module_for([spec]).make_bot(spec, game, seed)
