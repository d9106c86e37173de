"""Tests of the sample bots and their framework, in every ruleset."""
