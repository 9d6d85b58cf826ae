"""`python -m boardlab`: the boardlab command line."""

from boardlab.cli import main

raise SystemExit(main())
