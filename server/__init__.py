"""The match server: the pure hand engine (``server.engine``) and its trio shell."""
