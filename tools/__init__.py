"""Development tools that are not part of the installed server (not packaged):
the project's own import-linter contract type (``tools.import_cycles``).
May import anything; nothing in the project imports it."""
