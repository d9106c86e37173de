"""A drop-in for the PKU course's ``MahjongGBEnv``, every move judged by Botzone's judge.

The course's code moves over unchanged: ``MahjongGBEnv(config)`` with ``agent_clz``
(the student's agent class: ``agent_clz(seat)``, ``request2obs(request)``,
``action2response(action)``, ``observation_space``, ``action_space``),
``duplicate`` (default True), ``variety`` and ``reward_norm``;
``agent_names = ['player_1', ..., 'player_4']`` (seats 0..3); ``reset(prevalentWind=-1,
tileWall='')`` returns the observations of the agents to act, ``step(action_dict)``
returns ``(obs, reward, done)`` dicts as the course's does.

The agents get the course's own requests: ``Wind 0``, ``Deal t1 .. t13``, ``Draw X``,
``Player N Draw``, ``Player N Play X``, ``Player N Peng``, ``Player N Chi M``,
``Player N Gang``, ``Player N AnGang`` (``Player N AnGang X`` to N itself),
``Player N BuGang X``, ``Player N Hu``, ``Huang``, ``Player N Invalid``. Who is asked
is the course's: the drawer after a draw, the three others after a discard or an
added kong, the claimer (for its discard) after its PENG or CHI.

What differs, because the judge decides: each response is translated into the
Botzone response and given to ``judge.Judge`` (the one ``server match`` runs). A
PENG or CHI is checked by the judge (on a copy) before its claimer is asked for the
discard; several HU claims, the check order (HU from the discarder's next seat on,
then PENG/GANG in seat order, then CHI), kong and wall-end rules, the fan minimum
(flowers excluded) and the penalties (-30 to the offender, +10 to the others) are
the judge's. ``duplicate=False`` is Botzone's classic game: one wall of 144 tiles
with the eight flowers (a given ``tileWall`` is used verbatim, flowers or not);
flowers are replaced as the judge does and a flower's fan raises the payment.
Rewards are the judge's scores; ``reward_norm`` scales a win as the course does (the
losers -1, the payer another -1, the winner the square root of half its gain).

An agent with a ``set_variant(variant, wall_sizes)`` method (``CourseAgent``) is
told the game before its first request and, in classic, every flower (``Player N
BuHua X``; the deal's right after ``Deal``), so its walls and masks are the judge's.
The course's own ``FeatureAgent`` has neither and is told no flower.

The course's environment differs from the judge in one score: on a self-drawn win it
counts the drawn tile twice for 和绝张 (the judge wants three shown, the drawn tile not
counted), so about 5% of its games score otherwise than here; here agrees with the
judge. ``CourseAgent`` (``course_agent``) is the course's ``FeatureAgent`` interface
whose masks are exactly the judge's.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any, ClassVar

from rulesets.botzone.course_agent import CourseAgent
from rulesets.botzone.judge import Judge
from rulesets.botzone.tiles import standard_tiles
from server.seam.contract import Reply

__all__ = ["CourseAgent", "MahjongGBEnv", "to_botzone"]

_PASS = "PASS"


def to_botzone(response: str) -> str:
    """A course response (``Pass``, ``Play X``, ``Chi M``, ``Gang X``...) in Botzone's words
    (a claim's discard is added later); an unknown one is passed on to be refused."""
    words = response.split()
    if not words:
        return ""
    head = words[0].upper()
    if head == "ANGANG":
        head = "GANG"
    return " ".join([head, *words[1:]])


class MahjongGBEnv:
    """The course's environment interface on Botzone's judge (module docstring)."""

    agent_names: ClassVar[list[str]] = [f"player_{i}" for i in range(1, 5)]

    def __init__(self, config: Mapping[str, Any]) -> None:
        if "agent_clz" not in config:
            raise ValueError("must specify agent_clz to process features!")
        self.agentclz = config["agent_clz"]
        self.duplicate = bool(config.get("duplicate", True))
        self.variety = int(config.get("variety", -1))
        self.normalizeReward = bool(config.get("reward_norm", False))
        self.r = random.Random()
        self.observation_space = getattr(self.agentclz, "observation_space", None)
        self.action_space = getattr(self.agentclz, "action_space", None)
        self.variant = "duplicate" if self.duplicate else "classic"

    # --- the course's interface --------------------------------------------------------

    def reset(self, prevalentWind: int = -1, tileWall: str = "") -> dict[str, Any]:
        self.agents = [self.agentclz(i) for i in range(4)]
        self.reward: list[float] | None = None
        self.done = False
        rng: Any = random
        if self.variety > 0:
            rng = random.Random(self.r.randint(0, self.variety - 1))
        self.prevalentWind = rng.randint(0, 3) if prevalentWind < 0 else prevalentWind
        if tileWall:
            wall = tileWall.split()
        else:
            wall = standard_tiles(self.variant)
            rng.shuffle(wall)
        self.originalTileWall = " ".join(wall)
        self.judge = Judge(self.variant, {"srand": 0, "quan": self.prevalentWind,
                                          "walltiles": self.originalTileWall},
                           display_fans=False)
        # agents that take the variant (CourseAgent) count its walls and see its flowers
        sizes = tuple(len(w) for w in self.judge._walls)
        self._told_flowers: list[Any] = []
        for agent in self.agents:
            set_variant = getattr(agent, "set_variant", None)
            if set_variant is not None:
                set_variant(self.variant, sizes)
                self._told_flowers.append(agent)
        for agent in self.agents:
            agent.request2obs(f"Wind {self.prevalentWind}")
        self.judge.step([Reply("OK", _PASS)] * 4)  # INIT
        requests = self.judge.requests()
        for seat, request in enumerate(requests):
            tiles = request.split(" ")[5:18]
            self.agents[seat].request2obs(" ".join(["Deal", *tiles]))
        if self._told_flowers:
            words = requests[0].split(" ")
            flowers = iter(words[18:])
            for seat in range(4):
                for _ in range(int(words[1 + seat])):
                    self._tell_flower(seat, next(flowers))
        self.judge.step([Reply("OK", _PASS)] * 4)  # DEAL
        self._last_op = ""
        self._advance()
        return self._obs()

    def step(self, action_dict: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, float],
                                                             bool]:
        responses = [_PASS] * 4
        for seat in self.obs:
            action = action_dict[self.agent_names[seat]]
            responses[seat] = to_botzone(str(self.agents[seat].action2response(action)))
        if self.state == "claim":
            self._claim(responses)
            return self._obs(), self._reward(), self.done
        if self.state == "discard":
            seat = self.cur_player
            kind, middle = self._claiming
            words = responses[seat].split(" ")
            tile = words[1] if len(words) == 2 and words[0] == "PLAY" else "PASS"
            claim = ["PASS"] * 4
            claim[seat] = f"PENG {tile}" if kind == "PENG" else f"CHI {middle} {tile}"
            responses = claim
        self._judge(responses)
        return self._obs(), self._reward(), self.done

    # --- the judge's turns, in the course's words ----------------------------------------

    def _claim(self, responses: list[str]) -> None:
        """Claims on a discard: a PENG or CHI the judge would make first asks its claimer
        for the discard; anything else goes to the judge as it is."""
        judge = self.judge
        discard = judge._last_tile
        composed = list(responses)
        claimed = False
        for seat, text in enumerate(responses):
            if text == _PASS:
                continue
            words = text.split(" ")
            if words[0] == "PENG" and len(words) == 1:
                composed[seat] = f"PENG {_spare(judge._hands[seat], [discard] * 2)}"
                claimed = True
            elif words[0] == "CHI" and len(words) == 2 and len(words[1]) == 2:
                suit, number = words[1][0], words[1][1]
                chow = [f"{suit}{chr(ord(number) + k)}" for k in (-1, 0, 1)]
                spare = _spare([*judge._hands[seat], discard], chow)
                composed[seat] = f"CHI {words[1]} {spare}"
                claimed = True
        if not claimed:  # no PENG or CHI to try first: straight to the judge
            self._judge(composed)
            return
        twin = judge.copy()
        output = twin.step([Reply("OK", text) for text in composed])
        display = output["display"]
        if output["command"] == "request" and display.get("action") in ("PENG", "CHI"):
            seat = int(display["player"])
            kind = str(display["action"])
            middle = str(display.get("tileCHI", ""))
            self._claiming = (kind, middle)
            self.cur_player = seat
            self.state = "discard"
            said = f"Player {seat} Peng" if kind == "PENG" else f"Player {seat} Chi {middle}"
            for other in range(4):
                if other != seat:
                    self.agents[other].request2obs(said)
            self.obs = {seat: self.agents[seat].request2obs(said)}
            return
        self._judge(composed)  # as on the copy: a kong, a win, an error or all passing

    def _judge(self, responses: list[str]) -> None:
        self.judge.step([Reply("OK", text) for text in responses])
        self._responses = responses
        self._advance()

    def _advance(self) -> None:
        judge = self.judge
        while not judge.finished:
            requests = judge.requests()
            words = requests[0].split(" ")
            if words[0] == "2" or (words[0] == "3" and words[2] == "DRAW"):
                player = next(s for s, r in enumerate(requests) if r.startswith("2 "))
                tile = requests[player].split(" ")[1]
                for seat in range(4):
                    if seat != player:
                        self.agents[seat].request2obs(f"Player {player} Draw")
                self.cur_player = player
                self.state = "draw"
                self.obs = {player: self.agents[player].request2obs(f"Draw {tile}")}
                self._last_op = "DRAW"
                return
            player, op = int(words[1]), words[2]
            if op in ("PLAY", "PENG", "CHI"):
                tile = words[-1]
                said = f"Player {player} Play {tile}"
                self.agents[player].request2obs(said)
                self.obs = {seat: self.agents[seat].request2obs(said)
                            for seat in range(4) if seat != player}
                self.cur_player = player
                self.state = "claim"
                self._last_op = op
                return
            if op == "BUGANG":
                said = f"Player {player} BuGang {words[3]}"
                self.agents[player].request2obs(said)
                self.obs = {seat: self.agents[seat].request2obs(said)
                            for seat in range(4) if seat != player}
                self.cur_player = player
                self.state = "rob"
                self._last_op = op
                return
            if op == "GANG":
                if self._last_op in ("PLAY", "PENG", "CHI"):
                    for agent in self.agents:
                        agent.request2obs(f"Player {player} Gang")
                else:
                    tile = self._responses[player].split(" ")[-1]
                    for seat, agent in enumerate(self.agents):
                        agent.request2obs(f"Player {player} AnGang"
                                          + (f" {tile}" if seat == player else ""))
            if op == "BUHUA":
                self._tell_flower(player, words[3])
            self._last_op = op  # GANG or BUHUA
            judge.step([Reply("OK", _PASS)] * 4)
        display = judge.output()["display"]
        action = display.get("action")
        if action == "HU":
            said = f"Player {display['player']} Hu"
        elif action == "HUANG":
            said = "Huang"
        else:
            said = f"Player {display['player']} Invalid"
        self.obs = {seat: agent.request2obs(said) for seat, agent in enumerate(self.agents)}
        assert judge.scores is not None
        self.reward = [float(s) for s in judge.scores]
        if self.normalizeReward and action == "HU":
            self.reward = _normalized(judge.scores, int(display["player"]))
        self.done = True

    def _tell_flower(self, seat: int, tile: str) -> None:
        """A flower shown, told to the agents that know flowers (the course's have none)."""
        for agent in self._told_flowers:
            agent.request2obs(f"Player {seat} BuHua {tile}")

    def _obs(self) -> dict[str, Any]:
        return {self.agent_names[k]: v for k, v in self.obs.items()}

    def _reward(self) -> dict[str, float]:
        if self.reward:
            return {self.agent_names[k]: self.reward[k] for k in self.obs}
        return {self.agent_names[k]: 0 for k in self.obs}


def _spare(tiles: list[str], taken: list[str]) -> str:
    """A tile left in ``tiles`` once ``taken`` are out (any tile if they are not all there)."""
    left = Counter(tiles)
    left.subtract(taken)
    return next((tile for tile, n in left.items() if n > 0), tiles[0] if tiles else "W1")


def _normalized(scores: list[int], winner: int) -> list[float]:
    """The course's normalised rewards of a win: the losers -1, the one who fed the win
    another -1, the winner the square root of half its gain."""
    out = [-1.0] * 4
    others = [seat for seat in range(4) if seat != winner]
    if len({scores[seat] for seat in others}) > 1:  # a discard or a kong paid: its payer
        out[min(others, key=lambda seat: scores[seat])] = -2.0
    out[winner] = (scores[winner] / 2) ** 0.5
    return out
