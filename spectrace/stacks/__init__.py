"""Live stack capture of hung servers: py-spy dumps of a process tree, classified per rank."""
