"""The command-line layer: parses options, calls the library, renders, sets the exit code."""
