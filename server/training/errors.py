"""What every training environment raises for an action its mask forbids."""

from __future__ import annotations


class IllegalActionError(ValueError):
    """An action the mask forbids: the message names the agent, the action and the legal
    ones, and the environment is unchanged."""
