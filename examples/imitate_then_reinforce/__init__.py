"""A numpy-only policy for the default ruleset: imitation of the greedy sample AI, then
REINFORCE against random bots, played as a bot by ``policy_bot.py`` (see README.md)."""
