"""THUPC 2021 in the ruleset registry: a contest simulator, not a match.

Its one command is ``server thupc`` (a game log from a wall); bots do not play
it here, so every match command says so (``server.seam.contract.Unsupported``).
"""

from __future__ import annotations

from pathlib import Path

from server.seam.contract import CommandArgs, Ruleset, Unsupported


class ThupcRuleset(Ruleset):
    name = "thupc2021"
    title = "THUPC 2021 problem L's simulator (server thupc)"

    def _unsupported(self, what: str) -> Unsupported:
        return Unsupported(f"the {self.name} ruleset is a simulator with no {what}: "
                           "use 'server thupc WALL_FILE'")


    def simulate(self, args: CommandArgs) -> int:
        """``server thupc [WALL_FILE]``: the game log of a wall; the exit status."""
        from rulesets.thupc2021.command import thupc_command

        wall_file: Path | None = args["wall_file"]
        return thupc_command(wall_file)


RULESET = ThupcRuleset()
