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

Speed: with ``CourseAgent`` itself (or a subclass that keeps its ``request2obs`` and
encoder), the four agents are not fed their requests as text step by step. One
``course_table.CourseTable`` keeps what is public once (read from the judge's state)
and each seat's own hand, and makes the observation and the mask of the seats asked to
decide only, by the seat view's rules; each event is logged once as the course's
request text, and an agent takes the log into its view (``CourseAgent.view``) the
moment anything reads it (``hand``, ``packs``, ``valid``...), so the attributes stay
right. The environment reads the judge's state, not its request strings. A subclass
that overrides ``request2obs`` (or any method it calls, or the encoder) gets every
request as text, as before; ``fast=False`` in the config asks that of any agent (the
reference the tests compare the fast path with: the same observations, masks and
rewards).

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

import numpy as np

from protocol.compiled import note_plain
from rulesets.botzone.course_agent import CourseAgent, course_response
from rulesets.botzone.course_table import CourseTable
from rulesets.botzone.encoders import CourseFeatures
from rulesets.botzone.judge import Judge
from rulesets.botzone.seat_view import N_ACTIONS, PENG, SUIT_ORDER, TILE_INDEX, chi_action
from rulesets.botzone.tiles import standard_tiles
from server.seam.contract import Reply

__all__ = ["CourseAgent", "MahjongGBEnv", "to_botzone"]

_PASS = "PASS"
_PASS_REPLY = Reply("OK", _PASS)
_ALL_PASS = [_PASS_REPLY] * 4
_NO_ACTION = np.zeros(N_ACTIONS, dtype=np.float32)
_DRAWS = [f"Player {seat} Draw" for seat in range(4)]


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


_BOTZONE = [to_botzone(course_response(action)) for action in range(N_ACTIONS)]
"""Each action's Botzone response, as ``CourseAgent.action2response`` then ``to_botzone``
say it."""

_TEXT_PATH = ("request2obs", "_request", "_obs", "_claim", "_end", "set_variant",
              "_follow", "_sync")


def follows_a_table(agent: Any) -> bool:
    """Whether ``agent`` may skip its requests' text and be told the events by a log
    (``CourseTable``): a ``CourseAgent`` whose request handling, observation and encoder
    are ``CourseAgent``'s own. A subclass that overrides ``request2obs`` (or any of the
    methods it calls) gets every request as text, as before."""
    cls = type(agent)
    return isinstance(agent, CourseAgent) and type(agent.encoder) is CourseFeatures and \
        all(getattr(cls, name) is getattr(CourseAgent, name) for name in _TEXT_PATH)


class MahjongGBEnv:
    """The course's environment interface on Botzone's judge (module docstring).
    ``fast=False`` in the config makes even ``CourseAgent`` take every request as text
    (the reference the fast path is tested against)."""

    agent_names: ClassVar[list[str]] = [f"player_{i}" for i in range(1, 5)]

    def __init__(self, config: Mapping[str, Any]) -> None:
        note_plain()  # once, on stderr, when the compiled core is not in use
        if "agent_clz" not in config:
            raise ValueError("must specify agent_clz to process features!")
        self.agentclz = config["agent_clz"]
        self.duplicate = bool(config.get("duplicate", True))
        self.variety = int(config.get("variety", -1))
        self.normalizeReward = bool(config.get("reward_norm", False))
        self.allow_fast = bool(config.get("fast", True))
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
        judge = self.judge = Judge(self.variant, {"srand": 0, "quan": self.prevalentWind,
                                                  "walltiles": self.originalTileWall},
                                   display_fans=False)
        # agents that take the variant (CourseAgent) count its walls and see its flowers
        sizes = tuple(len(w) for w in judge._walls)
        self._told_flowers: list[Any] = []
        for agent in self.agents:
            set_variant = getattr(agent, "set_variant", None)
            if set_variant is not None:
                set_variant(self.variant, sizes)
                self._told_flowers.append(agent)
        # the fast path: one table for the four seats, the agents told by a log
        self.fast = self.allow_fast and all(follows_a_table(a) for a in self.agents)
        self._log: list[tuple[int, str, str | None]] = []
        self.table: CourseTable | None = None
        if self.fast:
            self.table = CourseTable(judge, self.prevalentWind)
            for agent in self.agents:
                agent._follow(self._log)
        self._direct = self.fast and \
            type(self.agents[0]).action2response is CourseAgent.action2response
        wind = f"Wind {self.prevalentWind}"
        self._tell(-1, wind, wind)
        judge.play(_ALL_PASS)  # INIT
        for seat in range(4):
            hand = judge._hands[seat][:13]
            self._tell(seat, " ".join(["Deal", *hand]), None)
            if self.table is not None:
                for tile in hand:
                    self.table.add(seat, TILE_INDEX[tile])
        for seat in range(4):
            for tile in judge._flowers[seat]:
                self._flower(seat, tile)
        judge.play(_ALL_PASS)  # DEAL
        self._last_op = ""
        self._advance()
        return self._obs()

    def step(self, action_dict: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, float],
                                                             bool]:
        responses = [_PASS] * 4
        names = self.agent_names
        for seat in self.obs:
            action = action_dict[names[seat]]
            if self._direct and type(action) is int and 0 <= action < N_ACTIONS:
                responses[seat] = _BOTZONE[action]
            else:
                responses[seat] = to_botzone(str(self.agents[seat].action2response(action)))
        if self.state == "claim" and responses.count(_PASS) == 4:  # the common turn
            self.judge.play(_ALL_PASS)
            self._advance()
            return self._obs(), self._reward(), self.done
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
        sure = self._sure_claim(responses, discard)
        if sure is None:
            twin = judge.copy()
            output = twin.step([Reply("OK", text) for text in composed])
            display = output["display"]
            if output["command"] == "request" and display.get("action") in ("PENG", "CHI"):
                sure = (int(display["player"]), str(display["action"]),
                        str(display.get("tileCHI", "")))
        if sure is not None:
            seat, kind, middle = sure
            self._claiming = (kind, middle)
            self.cur_player = seat
            self.state = "discard"
            said = f"Player {seat} Peng" if kind == "PENG" else f"Player {seat} Chi {middle}"
            table = self.table
            if table is not None:
                self._log.append((seat, said, said))
                mask = table.claim(seat, kind, middle, discard)
                self.obs = {seat: {"observation": table.observation(seat),
                                   "action_mask": mask}}
                return
            for other in range(4):
                if other != seat:
                    self.agents[other].request2obs(said)
            self.obs = {seat: self.agents[seat].request2obs(said)}
            return
        self._judge(composed)  # as on the copy: a kong, a win, an error or all passing

    def _sure_claim(self, responses: list[str], discard: str) -> tuple[int, str, str] | None:
        """On the fast path, a claim the judge is sure to make without asking a copy of
        it: the one answer that is not a pass, a PENG or CHI the claimer's mask offers
        (the judge then has no HU, kong or earlier claim to check first, the claim is
        legal, the wall is not empty, and the discard composed for it is held)."""
        table = self.table
        if table is None or responses.count(_PASS) != 3:
            return None
        seat = next(seat for seat, text in enumerate(responses) if text != _PASS)
        words = responses[seat].split(" ")
        if words == ["PENG"]:
            kind, middle, action = "PENG", "", PENG + TILE_INDEX[discard]
        elif len(words) == 2 and words[0] == "CHI" and words[1] in TILE_INDEX and \
                words[1][0] in SUIT_ORDER and words[1][0] == discard[0] and \
                words[1][1] in "2345678" and abs(int(words[1][1]) - int(discard[1])) <= 1:
            kind, middle = "CHI", words[1]
            action = chi_action(SUIT_ORDER.index(middle[0]), int(middle[1]), int(discard[1]))
        else:
            return None
        if not table.on_discard(seat, self.cur_player, discard)[action]:
            return None
        return seat, kind, middle

    def _judge(self, responses: list[str]) -> None:
        if responses.count(_PASS) == 4:
            self.judge.play(_ALL_PASS)
        else:
            self.judge.play([_PASS_REPLY if text == _PASS else Reply("OK", text)
                             for text in responses])
        self._advance()

    def _advance(self) -> None:
        """Tell the agents what the judge did, read from its state, up to the next
        decision (a draw, a discard, an added kong) or the end."""
        judge = self.judge
        table = self.table
        agents = self.agents
        while not judge.finished:
            stage = judge._stage
            op = judge._last_op
            tile = judge._last_tile
            if stage < 4:
                if op == "BUHUA":
                    self._flower(stage, tile)
                    self._last_op = op
                    judge.play(_ALL_PASS)
                    continue
                self.cur_player = stage
                self.state = "draw"
                self._last_op = "DRAW"
                others = _DRAWS[stage]
                if table is not None:
                    self._log.append((stage, "Draw " + tile, others))
                    self.obs = table.draw(stage, tile)
                    return
                for seat in range(4):
                    if seat != stage:
                        agents[seat].request2obs(others)
                self.obs = {stage: agents[stage].request2obs(f"Draw {tile}")}
                return
            if stage < 8:  # a discard, after a draw, a PENG or a CHI
                player = stage - 4
                said = f"Player {player} Play {tile}"
                self.cur_player = player
                self.state = "claim"
                self._last_op = op
                if table is not None:
                    self._log.append((player, said, said))
                    self.obs = table.discard(player, tile)
                    return
                agents[player].request2obs(said)
                self.obs = {seat: agents[seat].request2obs(said)
                            for seat in range(4) if seat != player}
                return
            player = stage - 8
            if op != "GANG" and judge._last_bugang:  # an added kong: the others may rob it
                said = f"Player {player} BuGang {tile}"
                self.cur_player = player
                self.state = "rob"
                self._last_op = "BUGANG"
                if table is not None:
                    self._log.append((player, said, said))
                    table.kong_added(player, tile)
                    self.obs = {seat: {"observation": table.observation(seat),
                                       "action_mask": table.on_kong_added(seat, player, tile)}
                                for seat in range(4) if seat != player}
                    return
                agents[player].request2obs(said)
                self.obs = {seat: agents[seat].request2obs(said)
                            for seat in range(4) if seat != player}
                return
            if self._last_op in ("PLAY", "PENG", "CHI"):  # a kong claimed on the discard
                said = f"Player {player} Gang"
                self._tell(player, said, said)
                if table is not None:
                    table.kong_claimed(player, tile)
            else:
                self._tell(player, f"Player {player} AnGang {tile}", f"Player {player} AnGang")
                if table is not None:
                    table.kong_concealed(player, tile)
            self._last_op = "GANG"
            judge.play(_ALL_PASS)
        display = judge.output()["display"]
        action = display.get("action")
        if action == "HU":
            said = f"Player {display['player']} Hu"
        elif action == "HUANG":
            said = "Huang"
        else:
            said = f"Player {display['player']} Invalid"
        if table is not None:
            self._log.append((-1, said, said))
            self.obs = {seat: {"observation": table.observation(seat),
                               "action_mask": _NO_ACTION.copy()} for seat in range(4)}
        else:
            self.obs = {seat: agent.request2obs(said) for seat, agent in enumerate(agents)}
        assert judge.scores is not None
        self.reward = [float(s) for s in judge.scores]
        if self.normalizeReward and action == "HU":
            self.reward = _normalized(judge.scores, int(display["player"]))
        self.done = True

    def _tell(self, player: int, own: str, others: str | None) -> None:
        """An event no agent answers: ``own`` to ``player``, ``others`` to the rest (None:
        to no one else); logged for the agents that follow the table."""
        if self.table is not None:
            self._log.append((player, own, others))
            return
        for seat, agent in enumerate(self.agents):
            if seat == player:
                agent.request2obs(own)
            elif others is not None:
                agent.request2obs(others)

    def _flower(self, seat: int, tile: str) -> None:
        """A flower shown, told to the agents that know flowers (the course's have none)."""
        said = f"Player {seat} BuHua {tile}"
        if self.table is not None:
            self._log.append((-1, said, said))
            self.table.other()
            return
        for agent in self._told_flowers:
            agent.request2obs(said)

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
