"""The command line and the launcher: flags -> ServerArgs -> one process per TP rank."""
