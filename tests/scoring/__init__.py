"""Tests of ``scoring``: hand analysis, the fan table (against the GB calculator), settlement."""
