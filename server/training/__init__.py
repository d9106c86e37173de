"""Training on the exact rules: what every ruleset's environment shares.

The environments themselves live with their rulesets (``rulesets/<ruleset>/env.py``);
this package holds what is the same for all of them, such as the single-agent Gymnasium
wrapper. It needs the ``rl`` install extra (pettingzoo, gymnasium, numpy) and imports no
ruleset, trio or rich.
"""
