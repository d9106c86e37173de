"""Random games of the default env with every mask put to the engine (tests and bench).

``play_checked(games, seed)`` plays random legal actions; before every answer
the engine gets (an agent's action, or a pass the env gives for a seat that
may only pass), every seat the engine waits on has its legal actions compared
with what ``Hand.check`` accepts, all 128 actions each time. An
``AssertionError`` names the first disagreement.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from rulesets.default.actions import ANSWERS, HU, N_ACTIONS, PASS, describe
from rulesets.default.engine.hand import Hand, Verdict
from rulesets.default.env import raw_env


@dataclass
class Stats:
    decisions: int = 0  # asked of an agent
    seat_checks: int = 0  # a waiting seat's legal actions compared with the engine
    only_pass: int = 0  # of those, seats that could only pass
    checks: int = 0  # Hand.check calls
    kinds: Counter[str] = field(default_factory=Counter)


def engine_accepts(hand: Hand, seat: int) -> set[int]:
    return {a for a in range(N_ACTIONS)
            if hand.check(seat, ANSWERS[a]).verdict is Verdict.ACCEPTED}


def play_checked(games: int, seed: int) -> Stats:
    stats = Stats()
    env = raw_env()
    seen: set[tuple[int, int]] = set()

    def check(seat: int) -> None:  # before every answer the engine gets
        table = env.table
        assert table is not None
        hand = table.hand
        for waiting in hand.waiting:
            if (len(hand.events), waiting) in seen:
                continue  # compared already in this window
            seen.add((len(hand.events), waiting))
            view = table.views[waiting]
            legal = set(view.legal_actions())
            accepted = engine_accepts(hand, waiting)
            stats.checks += N_ACTIONS
            stats.seat_checks += 1
            stats.only_pass += legal == {PASS}
            assert legal == accepted, (
                f"seat {waiting}: the mask allows {sorted(map(describe, legal - accepted))}"
                f" the engine refuses, forbids {sorted(map(describe, accepted - legal))} "
                "it accepts")
            assert view.only_pass() == (legal == {PASS}), f"seat {waiting}: only_pass"

    rng = np.random.default_rng(seed)
    for game in range(games):
        env.reset(seed=seed * 1_000_000 + game)
        table = env.table
        assert table is not None
        assert not table.hand.inputs  # nothing was answered before the hook is in
        table.before_answer = check
        seen.clear()
        while not all(env.terminations.values()):
            mask = env.observe(env.agent_selection)["action_mask"]
            # Random, but winning whenever it can, so that wins are met too.
            action = HU if mask[HU] else int(rng.choice(np.flatnonzero(mask)))
            stats.decisions += 1
            stats.kinds[describe(action).split()[0]] += 1
            env.step(action)
    return stats
