"""Tests of THUPC 2021's simulator."""
