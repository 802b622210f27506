"""Tools defined by ``.sql`` files: parsing a file's header, the tool that runs it, the bundled set."""
