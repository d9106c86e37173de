#!/usr/bin/env python3
"""Exits at once, without a word."""
