"""Seeded Botzone games on a 136-tile wall without flowers, as human games are played,
with every claim a seat could make often made (so that some lose: ``Ignore`` clauses).

``play(seed)`` gives the game record; the greedy sample AI decides what it would, and
a seat that would pass a claim it could make claims it anyway with ``eager`` odds.
"""

from __future__ import annotations

import random
from typing import Any

from rulesets.botzone.judge import Judge
from rulesets.botzone.seat_view import CHI, GANG, HU, PASS, SeatView
from rulesets.botzone.tiles import standard_tiles
from sample_ai.botzone import greedy_bot
from server.seam.contract import Reply


def play(seed: int, eager: float = 0.3) -> dict[str, Any]:
    """One game: a shuffled wall of 136 tiles, greedy seats, eager claims."""
    rng = random.Random(seed)
    tiles = standard_tiles("duplicate")
    rng.shuffle(tiles)
    initdata = {"srand": 0, "quan": rng.randrange(4), "walltiles": " ".join(tiles)}
    judge = Judge("classic", initdata)
    views = [SeatView("classic", (136,)) for _ in range(4)]
    outputs: list[dict[str, Any]] = [judge.output()]
    players: list[list[dict[str, Any]]] = [[], [], [], []]
    requests: list[list[str]] = [[], [], [], []]
    responses: list[list[str]] = [[], [], [], []]
    while not judge.finished:
        asked = judge.requests()
        turn = []
        for seat in range(4):
            view = views[seat]
            view.update(asked[seat])
            requests[seat].append(asked[seat])
            response = greedy_bot.respond(requests[seat], responses[seat]) \
                if view.kind and view.has_choice() else "PASS"
            legal = view.legal_actions() if view.kind else [PASS]
            claims = [a for a in legal if a == HU or CHI <= a < GANG + 34]
            if response == "PASS" and claims and rng.random() < eager:
                action = rng.choice(claims)
                if CHI <= action < GANG:
                    view.claim(action)
                    discard = rng.choice(view.legal_actions())
                    view.unclaim()
                    response = view.response(action, discard)
                elif action != HU:
                    response = view.response(action)
            turn.append(response)
        for seat in range(4):
            views[seat].respond(turn[seat])
            responses[seat].append(turn[seat])
            players[seat].append({"request": asked[seat], "response": turn[seat],
                                  "verdict": "OK", "ms": 0, "debug": None, "cause": None})
        outputs.append(judge.step([Reply("OK", r) for r in turn]))
    return {"ruleset": "botzone", "variant": "classic", "initdata": judge.initdata,
            "number": 1, "group": 1, "order": [0, 1, 2, 3], "about": f"seed {seed}",
            "names": ["a", "b", "c", "d"], "scores": judge.scores, "players": players,
            "judge": outputs}


