"""The local web app (`boardlab serve`): play any game by clicking, analyse records with an agent, watch training runs."""
