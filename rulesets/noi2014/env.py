"""NOI 2014 Mahjong as a PettingZoo environment on the ruleset's own engine, and
policies as NOI bots.

* ``raw_env(encoder=None, render_mode=None)``: a ``pettingzoo.AECEnv``;
  ``env(**options)`` is it wrapped in PettingZoo's ``OrderEnforcingWrapper`` (found
  as ``chess_v6.env()`` / ``chess_v6.raw_env()`` are).
* Agents ``player_0``..``player_3`` are seats 0..3 (0 = East, the dealer).
* ``reset(seed=S)`` deals the wall a NOI match deals from seed S (``server match
  --ruleset noi2014 --seed S`` plays the same wall); ``reset(options={"wall":
  [...108 codes...]})`` plays a wall given. Same deal + same actions = same game.
* Actions: ``Discrete(58)``, documented action by action in
  ``rulesets.noi2014.seat_view`` (0-26 discard a kind, 27-53 kong a kind on one's
  own turn, 54 win, 55 pass, 56 pung the discard (then the same agent picks the
  discard after it: a second decision), 57 kong the discard). Each observation is
  ``{"observation": encoder output, "action_mask": int8[58]}``; the mask is exactly
  the actions the engine accepts (all zeros for an agent not to act). An action the
  mask forbids raises ``IllegalActionError`` and changes nothing.
* Only real choices are asked: a request whose only answer is PASS (a seat number,
  the deal, a notice, a discard one cannot claim) is answered PASS by the env, and
  the end's target hand by ``SeatView.target()`` (the nearest valid one).
* Claims on one discard are decisions of several agents, asked one after the other
  (in turn order after the discarder), none told of the others' choices; the
  engine then settles them together: a win beats a kong beats a pung, of equal
  claims the nearest seat after the discarder.
* Rewards: 0 until the game ends, then each seat's points in it (4/3/2/1, ties
  averaged: 2.5); every agent is in the game (and not terminated) until it ends,
  winners included (they are simply not asked any more). ``infos[agent]`` at the
  end: ``scores`` (all four), ``end`` (``"wall"`` or ``"players"``), ``winners``
  (in order) and ``places``.
* ``write_log(path)``: the game as a NOI match records it (``game.json``), which
  ``server verify`` re-runs; its scores are the rewards.
* ``policy_bot(policy, encoder=None)``: a class of NOI bots playing a policy, in
  process (``Bot(seed=0).respond(requests, responses)``) or as a real bot process
  (``Bot.main()``: the contest's JSON interaction, ``--keep-running``,
  ``--simple``). ``bot_actor(factory)``: an in-process bot (a sample AI module,
  a policy bot class) as an actor ``(env, agent) -> action``.

Observations come from one ``SeatView`` per seat, fed only what that seat's bot is
told and its own replies: the same class a policy bot runs, so a policy sees the
same observation here and in a match.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from protocol.compiled import note_plain
from rulesets.noi2014.encoders import DefaultEncoder, Encoder, Observation
from rulesets.noi2014.engine import Game
from rulesets.noi2014.fast_table import FastTable
from rulesets.noi2014.planes import mask as action_mask
from rulesets.noi2014.seat_view import (
    CLAIM,
    DRAW,
    GANG,
    HU,
    INDEX,
    KONG,
    N_ACTIONS,
    PASS,
    PENG,
    PLAY,
    PUNG_DISCARD,
    TARGET,
    SeatView,
    action_name,
    response_of,
)
from rulesets.noi2014.table import Table
from rulesets.noi2014.tiles import check_wall, shuffled_wall
from server.training.errors import IllegalActionError
from server.training.records import write_game_json

PLAYERS = 4
AGENTS = [f"player_{seat}" for seat in range(PLAYERS)]

Policy = Callable[[Observation, npt.NDArray[np.int8]], int]


class raw_env(AECEnv):  # type: ignore[misc]  # PettingZoo's name
    """One NOI 2014 game per ``reset`` (see the module docstring)."""

    metadata: dict[str, Any] = {"name": "noi2014_v0", "render_modes": [],  # noqa: RUF012
                                "is_parallelizable": False}

    def __init__(self, encoder: Encoder | None = None, render_mode: str | None = None) -> None:
        super().__init__()
        note_plain()  # once, on stderr, when the compiled core is not in use
        if render_mode is not None:
            raise ValueError("the NOI 2014 environment has no render modes (use write_log "
                             "and server replay)")
        self.render_mode = None
        self.encoder: Encoder = encoder if encoder is not None else DefaultEncoder()
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self._seat = {agent: seat for seat, agent in enumerate(AGENTS)}
        obs_space = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, tuple(self.encoder.shape), np.float32),
            "action_mask": spaces.Box(0, 1, (N_ACTIONS,), np.int8)})
        self.observation_spaces = dict.fromkeys(AGENTS, obs_space)
        self.action_spaces = {agent: spaces.Discrete(N_ACTIONS) for agent in AGENTS}
        self._rng = random.Random()
        self.game_number = 0
        self._default = type(self.encoder) is DefaultEncoder  # its codes come from _fast
        self._wall: list[str] = []
        self._fast: FastTable | None = None  # the game played (``fast_table``)
        self._table: Table | None = None  # the reference replaying it, made when read
        self._replayed = 0  # actions of ``_fast.log`` the reference has replayed

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # --- a game ---------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng.seed(seed)
        options = dict(options or {})  # only "wall" is read (others are ignored)
        if "wall" in options:
            wall = check_wall(options["wall"])
            self.setup: dict[str, Any] = {"wall": list(wall)}
        else:
            deal = seed if seed is not None else self._rng.randrange(2**31)
            wall = shuffled_wall(deal, 0)
            self.setup = {"seed": deal, "game": 0}
        self.game_number += 1
        self._wall = list(wall)
        self._fast = FastTable(self._wall)
        self._table = None
        self._replayed = 0
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        self.agent_selection = AGENTS[0]
        self._next()

    # --- the reference, replayed when text or views are read --------------------------------

    @property
    def table(self) -> Table | None:
        """The game as the reference ``table.Table`` plays it (the engine, every request
        and reply as text, the seat views), replayed up to now from the actions taken."""
        fast = self._fast
        if fast is None:
            return None
        table = self._table
        if table is None:
            table = self._table = Table(self._wall)
            self._replayed = 0
        log = fast.log
        while self._replayed < len(log):
            seat, action = divmod(log[self._replayed], N_ACTIONS)
            assert table.queue and table.queue[0] == seat and action in table.legal
            table.act(seat, action)
            self._replayed += 1
        if not table.queue:  # the game is over: every claim made is applied
            for view in table.views:
                view.claim_applied()
        return table

    @property
    def game(self) -> Game | None:
        """The engine's game (``engine.Game``: the reference, replayed up to now)."""
        table = self.table
        return None if table is None else table.game

    @property
    def views(self) -> list[SeatView]:
        """The four seats' views (the reference's, replayed up to now)."""
        table = self.table
        return [] if table is None else table.views

    @property
    def requests_of(self) -> list[list[str]]:
        table = self.table
        return [[] for _ in AGENTS] if table is None else table.requests_of

    @property
    def responses_of(self) -> list[list[str]]:
        table = self.table
        return [[] for _ in AGENTS] if table is None else table.responses_of

    # --- the game played ------------------------------------------------------------------

    @property
    def _legal(self) -> list[int]:
        fast = self._fast
        return fast.legal if fast is not None else []

    def _next(self) -> None:
        """Select the seat that decides now, or finish the game."""
        fast = self._fast
        assert fast is not None
        if fast.queue:
            self.agent_selection = AGENTS[fast.queue[0]]
        else:
            self._finish()

    def _finish(self) -> None:
        fast = self._fast
        assert fast is not None and fast.result is not None
        result = fast.result
        scores = list(result.points)
        for seat, agent in enumerate(AGENTS):
            self.rewards[agent] = scores[seat]
            self.terminations[agent] = True
            self.infos[agent] = {"scores": list(scores), "end": result.end,
                                 "winners": list(result.winners), "places": list(result.places)}
        self._accumulate_rewards()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        fast = self._fast
        assert fast is not None
        chosen = -1 if action is None else int(action)
        if chosen not in fast.legal:
            said = "None" if action is None else _named(chosen)
            raise IllegalActionError(f"{agent} may not play {said} now (legal: "
                                     f"{', '.join(_named(a) for a in self._legal)})")
        # (rewards are all 0 until the game ends, and then every step is a dead one)
        fast.act(self._seat[agent], chosen)
        queue = fast.queue
        if queue:
            self.agent_selection = AGENTS[queue[0]]
        else:
            self._finish()

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """``AECEnv.last``: the selected agent's observation, reward, ends and info."""
        agent = self.agent_selection
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    # --- what an agent sees ----------------------------------------------------------------

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self._seat[agent]
        fast = self._fast
        if agent == self.agent_selection and not self.terminations[agent] \
                and fast is not None:
            mask = np.frombuffer(action_mask(fast.legal), dtype=np.int8)
        else:
            mask = np.zeros(N_ACTIONS, dtype=np.int8)
        found = fast.planes(seat) if self._default and fast is not None else None
        if found is not None:  # the deciding seat's, or any at the end: no replay
            observation = np.frombuffer(found, dtype=np.float32).reshape(self.encoder.shape)
        else:
            observation = self.encoder.encode(self.views[seat])
        return {"observation": observation, "action_mask": mask}

    def legal_actions(self, agent: str | None = None) -> list[int]:
        """The actions the agent may take now (only the selected agent has any)."""
        agent = self.agent_selection if agent is None else agent
        return list(self._legal) if agent == self.agent_selection else []

    def history(self, agent: str) -> tuple[list[str], list[str]]:
        """The seat's protocol so far: every request it was sent (the last one is being
        decided) and its responses. Do not change them."""
        seat = self._seat[agent]
        return self.requests_of[seat], self.responses_of[seat]

    def action_of(self, agent: str, response: str) -> int:
        """The action of a bot's response at the agent's decision now (a PENG response:
        PENG at the claim; its discard at the discard after it)."""
        view = self.views[self._seat[agent]]
        words = response.strip().split()
        action = -1
        if view.decision == PUNG_DISCARD:
            if len(words) == 2 and words[0] == "PENG" and words[1] in INDEX:
                action = PLAY + INDEX[words[1]]
        elif words == ["HU"]:
            action = HU
        elif words == ["PASS"]:
            action = PASS
        elif view.decision == CLAIM and words == ["GANG"]:
            action = KONG
        elif view.decision == CLAIM and len(words) == 2 and words[0] == "PENG":
            action = PENG
        elif view.decision == DRAW and len(words) == 2 and words[1] in INDEX:
            action = {"PLAY": PLAY, "GANG": GANG}.get(words[0], -N_ACTIONS) + INDEX[words[1]]
        if action not in self.legal_actions(agent):
            raise IllegalActionError(f"{agent}: the response {response!r} is no legal action "
                                     "now")
        return action

    # --- the record ------------------------------------------------------------------------

    def record(self) -> dict[str, Any]:
        """The game so far as a NOI match records it (``game.json``)."""
        game = self.game
        if game is None:
            raise ValueError("no game yet: call reset() first")
        table = self.table
        assert table is not None
        return {"ruleset": "noi2014", "setup": dict(self.setup), "wall": list(game.wall),
                "number": 1, "group": 1, "order": list(range(PLAYERS)),
                "about": "one game (the training environment)", "names": list(AGENTS),
                "scores": game.scores,
                "players": [self._entries(table, s) for s in range(PLAYERS)],
                "judge": list(table.judge)}

    def _entries(self, table: Table, seat: int) -> list[dict[str, Any] | None]:
        """A seat's lines of the record, one per turn (None: not asked)."""
        answers = iter(table.responses_of[seat])
        return [None if request is None else
                {"request": request, "response": next(answers), "verdict": "OK", "ms": 0,
                 "debug": None, "cause": None} for request in table.turns[seat]]

    def write_log(self, path: str | Path) -> Path:
        """Write the game as a NOI match's ``game.json`` (into ``path``, or
        ``path/game.json`` if ``path`` is a folder); ``server verify`` accepts it."""
        return write_game_json(path, self.record())

    def render(self) -> None:
        return None

    def close(self) -> None:
        return None


def _named(action: int) -> str:
    try:
        return f"{action} ({action_name(action)})"
    except ValueError:
        return str(action)


def env(**options: Any) -> OrderEnforcingWrapper:
    """``raw_env(**options)`` in PettingZoo's order-enforcing wrapper."""
    return OrderEnforcingWrapper(raw_env(**options))


# --- policies as bots, bots as actors ------------------------------------------------------


class Responder(Protocol):
    def respond(self, requests: Sequence[str], responses: Sequence[str]) -> str: ...


class PolicyBotBase:
    """One game of a NOI bot playing ``policy`` on ``encoder``'s observations (made by
    ``policy_bot``)."""

    policy: Policy
    encoder: Encoder
    KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.view = SeatView()
        self._seen = 0  # requests fed to the view
        self._done = 0  # own responses fed to the view

    def respond(self, requests: Sequence[str], responses: Sequence[str]) -> str:
        """The answer to ``requests[-1]``, given the game's history (fed incrementally:
        one object per game)."""
        view = self.view
        while self._seen < len(requests):
            if self._seen > self._done:
                view.did(requests[self._done], responses[self._done])
                self._done += 1
            view.see(requests[self._seen])
            self._seen += 1
        decision = view.decision
        if decision == TARGET:
            return view.target()
        legal = view.legal()
        if decision not in (DRAW, CLAIM) or (decision == CLAIM and len(legal) == 1):
            return "PASS"
        action = self._choose(legal)
        if action != PENG:
            return response_of(action)
        view.choose_pung()
        return response_of(PENG, self._choose(view.legal()))

    def _choose(self, legal: list[int]) -> int:
        mask = np.zeros(N_ACTIONS, dtype=np.int8)
        mask[legal] = 1
        action = int(type(self).policy(self.encoder.encode(self.view), mask))
        if action not in legal:
            raise IllegalActionError(f"the policy chose {_named(action)}, which the mask "
                                     "forbids")
        return action

    @classmethod
    def main(cls, argv: Sequence[str] | None = None) -> int:
        """Run as a NOI bot process: one JSON line in (``requests``, ``responses``),
        ``{"response": ...}`` out; ``--keep-running`` stays alive between turns (Botzone's
        keep-running mode), ``--simple`` speaks Botzone's simple interaction."""
        argv = sys.argv[1:] if argv is None else list(argv)
        simple, keep = "--simple" in argv, "--keep-running" in argv
        bot = cls()
        try:
            requests, responses = _read_history(simple)
        except (ValueError, KeyError, TypeError):
            requests, responses = ["?"], []
        while True:
            try:
                answer = bot.respond(requests, responses)
            except (ValueError, KeyError, IndexError) as exc:  # never crash: say why, PASS
                print(f"policy bot: {exc}", file=sys.stderr)
                answer = _fallback(requests[-1] if requests else "")
            responses.append(answer)
            print(answer if simple else json.dumps({"response": answer}), flush=not keep)
            if not keep:
                return 0
            print(cls.KEEP_RUNNING, flush=True)
            line = sys.stdin.readline()
            if not line:
                return 0
            try:
                requests.append(_next_request(line, simple))
            except (ValueError, KeyError, TypeError, IndexError):
                requests.append("?")


def policy_bot(policy: Policy, encoder: Encoder | None = None) -> type[PolicyBotBase]:
    """A class of NOI bots playing ``policy`` (``(observation, mask) -> action``) on
    ``encoder``'s observations (the default encoder if None): ``Bot(seed=0)`` is one
    game's in-process bot (``respond``), ``Bot.main()`` a real bot process."""
    chosen = encoder if encoder is not None else DefaultEncoder()
    return type("PolicyBot", (PolicyBotBase,), {"policy": staticmethod(policy),
                                                "encoder": chosen,
                                                "__module__": PolicyBotBase.__module__})


def _fallback(request: str) -> str:
    words = request.split()
    return f"PLAY {words[1]}" if len(words) == 2 and words[0] == "2" else "PASS"


def _read_history(simple: bool) -> tuple[list[str], list[str]]:
    if simple:
        n = int(sys.stdin.readline().strip() or "0")
        lines = [sys.stdin.readline().rstrip("\r\n") for _ in range(2 * n - 1)]
        sys.stdin.readline()
        sys.stdin.readline()
        return lines[0::2], lines[1::2]
    given = json.loads(sys.stdin.readline())
    return [str(r) for r in given["requests"]], [str(r) for r in given["responses"]]


def _next_request(line: str, simple: bool) -> str:
    if simple:
        return line.rstrip("\r\n")
    value = json.loads(line)
    return str(value["requests"][-1]) if isinstance(value, dict) else str(value)


Actor = Callable[[Any, str], int]


def bot_actor(factory: ModuleType | Callable[..., Responder] | Responder) -> Actor:
    """An in-process NOI bot as an actor ``(env, agent) -> action``: ``factory`` is a
    module or object with ``respond(requests, responses)`` (the sample AIs' modules), or
    a callable making one bot per game (a ``policy_bot`` class). The bot is given the
    seat's protocol history; its response becomes the action (a ``PENG Y``: the pung,
    then Y at the discard after it)."""
    fresh = not hasattr(factory, "respond") or isinstance(factory, type)
    bots: dict[tuple[int, int, str], Responder] = {}
    pung_discard: dict[tuple[int, int, str], str] = {}

    def act(environment: Any, agent: str) -> int:
        raw: raw_env = environment.unwrapped
        key = (id(raw), raw.game_number, agent)
        if raw.views[raw._seat[agent]].decision == PUNG_DISCARD and key in pung_discard:
            return raw.action_of(agent, pung_discard.pop(key))
        bot = bots.get(key)
        if bot is None:
            if len(bots) > 64:
                bots.clear()
            made: Responder = factory() if fresh else factory  # type: ignore[operator,assignment]
            bots[key] = bot = made
        requests, responses = raw.history(agent)
        text = bot.respond(requests, responses)
        action = raw.action_of(agent, text)
        if action == PENG:
            pung_discard[key] = text
        return action

    return act
