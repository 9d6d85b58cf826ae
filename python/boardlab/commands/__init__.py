"""The subcommands of `boardlab`: each module has register(subparsers) and sets args.run."""
