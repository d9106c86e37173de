"""Tests of the shell, a folder per subpackage of ``server``."""
