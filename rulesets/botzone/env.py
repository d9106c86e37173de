"""Botzone's Chinese Standard Mahjong as a PettingZoo environment, on the exact judge.

    from rulesets.botzone.env import env, raw_env
    e = env(variant="duplicate")          # or "classic"; encoder=... for your own
    e.reset(seed=1)                        # or options={"initdata": {...}}
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        action = None if term or trunc else policy(obs["observation"], obs["action_mask"])
        e.step(action)

Agents ``player_0``..``player_3`` are seats 0..3 (East, South, West, North; seat 0
deals). Every move goes to ``judge.Judge`` (the one ``server match`` runs, without
its display-only fan values): what the mask allows, the judge accepts. Actions
are the PKU course's 235 (``seat_view``: PASS 0, HU 1, PLAY 2..35, CHI 36..98,
PENG 99..132, GANG 133..166, ANGANG 167..200, BUGANG 201..234). Observations
are a seat's ``SeatView`` (only what its bot is told) through the encoder
(``encoders.DefaultEncoder`` by default), with the mask of the legal actions
(all zero for an agent that is not to act).

How a judge turn becomes decisions. Botzone asks every seat every turn; here
only a seat with a real choice acts (a seat that can only pass is not asked;
the judge gets its PASS). On a discard, every seat that may claim (HU, PENG,
GANG, CHI) decides, nearest to the discarder first, without seeing the others'
choices, as on Botzone. The winning claim is then the judge's (``_take_discard``):
the first HU from the discarder's next seat on; else the PENG or GANG (at most one
seat can make one); else the CHI of the next seat. A winning PENG or CHI is then a
second decision of its seat: the discard, from the view after the claim (its
observation's decision row says so); the judge gets the one response
``PENG X`` / ``CHI M X``. A claim that lost is given to the judge (and the log)
as PASS: the judge never reads a claim behind the winning one. An added kong's
tile may be robbed (HU) by the other seats, nearest first.

Rewards are 0 until the game ends, then the judge's scores (a masked env never
errs, so no penalty arises). ``infos`` then hold ``scores``, ``end`` (HU, HUANG
or the error) and ``winner``. ``write_log(path)`` writes the game as the record
``server match`` writes (``game.json``), re-judged with the displays, which
``server verify`` accepts. ``policy_bot`` turns a policy into a Botzone bot;
``bot_actor`` turns a Botzone bot into an in-process opponent.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.wrappers import order_enforcing

from protocol.compiled import note_plain
from rulesets.botzone.encoders import DefaultEncoder, Encoder
from rulesets.botzone.judge import Judge
from rulesets.botzone.seat_view import (
    AFTER_CLAIM,
    CHI,
    DISCARD,
    GANG,
    N_ACTIONS,
    PASS,
    PENG,
    SeatView,
    action_of,
    describe,
)
from rulesets.botzone.table import Table
from rulesets.botzone.tiles import check_variant
from server.seam.contract import Reply
from server.training.errors import IllegalActionError
from server.training.records import write_game_json

AGENTS = tuple(f"player_{seat}" for seat in range(4))
AGENT_SEATS = {agent: seat for seat, agent in enumerate(AGENTS)}
_INT8 = np.dtype(np.int8)
KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"

Policy = Callable[[np.ndarray, np.ndarray], int]
Actor = Callable[["raw_env", str], int]


class raw_env(AECEnv[str, dict[str, np.ndarray], int]):  # type: ignore[misc]
    """One Botzone Mahjong game per ``reset`` (module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "botzone_mahjong_v0", "render_modes": [], "is_parallelizable": False}

    def __init__(self, variant: str = "duplicate", encoder: Encoder | None = None,
                 render_mode: str | None = None) -> None:
        super().__init__()
        note_plain()  # once, on stderr, when the compiled core is not in use
        check_variant(variant)
        self.variant = variant
        self.encoder: Encoder = encoder if encoder is not None else DefaultEncoder()
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        low = float(getattr(self.encoder, "low", -np.inf))
        high = float(getattr(self.encoder, "high", np.inf))
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(low, high, self.encoder.shape, np.float32),
            "action_mask": spaces.Box(0, 1, (N_ACTIONS,), np.int8),
        })
        self._act_space = spaces.Discrete(N_ACTIONS)
        self._rng: random.Random | None = None
        self.judge: Judge | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    # --- a game --------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: Mapping[str, Any] | None = None) -> None:
        """A new game: its deal from ``seed`` (Botzone's own shuffle of an ``srand`` drawn
        from it) or ``options={"initdata": {...}}`` (an initdata without ``srand`` gets one
        from the seed, so the game is fully determined)."""
        if seed is not None or self._rng is None:
            self._rng = random.Random(seed)
        srand = self._rng.randrange(2**31)
        given = (options or {}).get("initdata")
        if given is not None and not isinstance(given, Mapping):
            raise ValueError("options['initdata'] must be a JSON object (srand, quan, "
                             "walltiles)")
        initdata: dict[str, Any] = {"srand": srand, **(given or {})}
        self.initdata = initdata
        table = self._table = Table(self.variant, initdata)
        self.judge = table.judge
        self._views = table.views
        self._requests = table.requests
        self._responses = table.responses
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        self.agent_selection = AGENTS[0]
        self._next()

    @property
    def _deciders(self) -> list[int]:
        return self._table.deciders

    @property
    def _choices(self) -> dict[int, int]:
        return self._table.choices

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = AGENT_SEATS[agent]
        view = self._views[seat]
        deciders = self._table.deciders
        if deciders and deciders[0] == seat:
            return {"observation": self.encoder.encode(view),
                    "action_mask": np.frombuffer(view.mask(), _INT8)}
        return {"observation": self.encoder.encode(view),
                "action_mask": np.zeros(N_ACTIONS, _INT8)}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """``AECEnv.last``: the selected agent's observation, reward, ends and info."""
        agent = self.agent_selection
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def view(self, agent: str) -> SeatView:
        """The seat's view (what its bot knows now)."""
        return self._views[AGENTS.index(agent)]

    def history(self, agent: str) -> tuple[list[str], list[str]]:
        """The seat's Botzone requests so far (the last is the current one) and responses."""
        seat = AGENTS.index(agent)
        return self._requests[seat], self._responses[seat]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = AGENT_SEATS[agent]
        view = self._views[seat]
        if action is None or int(action) not in view.legal_actions():
            said = "no action" if action is None else describe_safe(int(action))
            raise IllegalActionError(f"{agent}: {said} is not legal now (legal: "
                                     f"{', '.join(describe(a) for a in view.legal_actions())})")
        self._cumulative_rewards[agent] = 0
        self._table.act(seat, int(action))
        self._next()  # the rewards are 0 until _finish accumulates the scores, once

    def _next(self) -> None:
        """The next agent to act, or the end of the game."""
        deciders = self._table.deciders
        if deciders:
            self.agent_selection = AGENTS[deciders[0]]
        else:
            self._finish()

    def _finish(self) -> None:
        judge = self.judge
        assert judge is not None and judge.scores is not None
        display = judge.output()["display"]
        scores = list(judge.scores)
        info = {"scores": scores, "end": display.get("action"),
                "winner": display.get("player") if display.get("action") == "HU" else None}
        for seat, agent in enumerate(AGENTS):
            self.rewards[agent] = scores[seat]
            self.terminations[agent] = True
            self.infos[agent] = dict(info)
        self.agent_selection = AGENTS[0]
        self._accumulate_rewards()

    # --- the record ------------------------------------------------------------------

    def record(self) -> dict[str, Any]:
        """The game so far as ``server match`` records it (re-judged with the displays)."""
        judge = Judge(self.variant, self.initdata)
        outputs = [judge.output()]
        players: list[list[dict[str, Any]]] = [[], [], [], []]
        for turn in range(len(self._responses[0])):
            requests = judge.requests()
            for seat in range(4):
                players[seat].append({"request": requests[seat],
                                      "response": self._responses[seat][turn],
                                      "verdict": "OK", "ms": 0, "debug": None, "cause": None})
            outputs.append(judge.step([Reply("OK", self._responses[seat][turn])
                                       for seat in range(4)]))
        return {"ruleset": "botzone", "variant": self.variant, "initdata": dict(self.initdata),
                "number": 1, "group": 1, "order": [0, 1, 2, 3],
                "about": "a game played through the training environment",
                "names": list(AGENTS), "scores": judge.scores, "players": players,
                "judge": outputs}

    def write_log(self, path: str | Path) -> Path:
        """Write the game as a Botzone game record (``game.json`` inside ``path`` if it is a
        folder); ``server verify`` accepts it, and its scores are the rewards."""
        return write_game_json(path, self.record())

    def render(self) -> None:
        return None

    def close(self) -> None:
        return None


def describe_safe(action: int) -> str:
    try:
        return describe(action)
    except ValueError:
        return f"action {action}"


def _before_reset(name: str) -> Any:
    raise AttributeError(f"{name} cannot be accessed before reset")


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order-enforcing wrapper, with the same checks and errors, made cheap.

    The wrapper reaches the game's attributes through ``__getattr__``, which Python calls
    only after a failed lookup has raised (and caught) an ``AttributeError``: about a
    microsecond for each of the eight lookups of a step of the PettingZoo loop, a quarter
    of the step. Here they are properties (checked before ``reset`` exactly as the
    wrapper checks them); ``last``, ``step`` and ``agent_iter``'s iterator ask the game
    directly once reset, with the wrapper's checks."""

    agents = property(
        lambda self: self.env.agents if self._has_reset else _before_reset("agents"))
    agent_selection = property(
        lambda self: self.env.agent_selection if self._has_reset
        else _before_reset("agent_selection"))
    rewards = property(
        lambda self: self.env.rewards if self._has_reset else _before_reset("rewards"))
    terminations = property(
        lambda self: self.env.terminations if self._has_reset
        else _before_reset("terminations"))
    truncations = property(
        lambda self: self.env.truncations if self._has_reset
        else _before_reset("truncations"))
    infos = property(
        lambda self: self.env.infos if self._has_reset else _before_reset("infos"))
    _cumulative_rewards = property(lambda self: self.env._cumulative_rewards)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            _before_reset("agent_selection")
        return self.env.last(observe)  # type: ignore[no-any-return]

    def step(self, action: int | None) -> None:
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        if not self._has_reset:
            return super().agent_iter(max_iter)
        return _Iterable(self, max_iter)

    def __str__(self) -> str:
        return str(self.env)


class _Iterable(order_enforcing.AECOrderEnforcingIterable):  # type: ignore[misc]
    def __iter__(self) -> _Iterator:
        return _Iterator(self.env, self.max_iter)


class _Iterator(order_enforcing.AECOrderEnforcingIterator):  # type: ignore[misc]
    """``AECOrderEnforcingIterator`` (the same checks), reading the game directly."""

    def __next__(self) -> str:
        wrapper = self.env
        game = wrapper.env
        if not game.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        return game.agent_selection  # type: ignore[no-any-return]


def env(**options: Any) -> wrappers.OrderEnforcingWrapper[str, dict[str, np.ndarray], int]:
    """``raw_env(**options)`` in PettingZoo's order-enforcing wrapper (``_OrderEnforcing``:
    the same wrapper with cheaper attribute lookups)."""
    return _OrderEnforcing(raw_env(**options))


# --- policies as bots, bots as opponents ---------------------------------------------------


class _PolicyBotBase:
    policy: Policy
    encoder: Encoder
    variant: str

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._view = SeatView(self.variant)
        self._seen = 0

    def _decide(self) -> int:
        view = self._view
        legal = view.legal_actions()
        if legal == [PASS]:
            return PASS
        mask = np.zeros(N_ACTIONS, dtype=np.int8)
        mask[legal] = 1
        action = int(type(self).policy(self.encoder.encode(view), mask))
        if action not in legal:
            raise IllegalActionError(f"the policy chose {describe_safe(action)}, not legal "
                                     "now")
        return action

    def respond(self, requests: Sequence[str], responses: Sequence[str]) -> str:
        """The response to ``requests[-1]`` (one object per game; history given whole)."""
        view = self._view
        for k in range(self._seen, len(requests)):
            if k > 0:
                view.respond(responses[k - 1])
            view.update(requests[k])
        self._seen = len(requests)
        action = self._decide()
        if view.kind == DISCARD and (PENG <= action < GANG or CHI <= action < PENG):
            view.claim(action)
            return view.response(action, self._decide())
        return view.response(action)

    @classmethod
    def main(cls, argv: Sequence[str] | None = None) -> int:
        """Run as a Botzone bot: JSON interaction (``--simple`` for simple), and
        ``--keep-running`` to stay alive between turns."""
        args = sys.argv[1:] if argv is None else list(argv)
        simple = "--simple" in args
        keep_running = "--keep-running" in args
        if simple:
            n = int(sys.stdin.readline())
            lines = [sys.stdin.readline().rstrip("\r\n") for _ in range(2 * n - 1)]
            sys.stdin.readline()
            sys.stdin.readline()
            requests, responses = lines[0::2], lines[1::2]
        else:
            given = json.loads(sys.stdin.readline())
            requests, responses = list(given["requests"]), list(given["responses"])
        bot = cls()
        while True:
            answer = bot.respond(requests, responses)
            responses.append(answer)
            print(answer if simple else json.dumps({"response": answer}))
            if not keep_running:
                sys.stdout.flush()
                return 0
            print(KEEP_RUNNING, flush=True)
            line = sys.stdin.readline()
            if not line:
                return 0
            if simple:
                requests.append(line.rstrip("\r\n"))
            else:
                value = json.loads(line)
                requests.append(str(value["requests"][-1]) if isinstance(value, dict)
                                else str(value))


def policy_bot(policy: Policy, encoder: Encoder | None = None,
               variant: str = "duplicate") -> type[_PolicyBotBase]:
    """A Botzone bot class playing ``policy`` (observation, mask) -> action on ``encoder``'s
    observations: ``Bot(seed=0).respond(requests, responses)`` in-process, ``Bot.main()`` as
    a real bot process. ``variant`` says which walls it counts (Botzone does not tell)."""
    check_variant(variant)
    return type("PolicyBot", (_PolicyBotBase,), {
        "policy": staticmethod(policy),
        "encoder": encoder if encoder is not None else DefaultEncoder(),
        "variant": variant,
    })


def bot_actor(factory: Any) -> Actor:
    """An actor ``(env, agent) -> action`` playing a Botzone bot in-process: ``factory`` is
    a module or object with ``respond(requests, responses)`` (a sample AI's module), or a
    class (or callable) making one such object per game (a ``policy_bot`` class)."""
    shared = factory if hasattr(factory, "respond") and not isinstance(factory, type) \
        else None
    # A bot per (env, agent), with the judge of the game it is playing: a new judge is a
    # new game, so a new bot. Holding the judge keeps its id from being reused by a later
    # game's judge (an id alone was: a stale bot, mid-way through an old game, answered).
    bots: dict[tuple[int, str], tuple[Any, Any]] = {}
    discards: dict[tuple[int, str], int] = {}

    def act(game: raw_env, agent: str) -> int:
        base = game.unwrapped if hasattr(game, "unwrapped") else game
        assert isinstance(base, raw_env)
        view = base.view(agent)
        if view.kind == AFTER_CLAIM:
            return discards.pop((id(base), agent))
        if shared is not None:
            bot = shared
        else:
            key = (id(base), agent)
            held = bots.get(key)
            if held is None or held[0] is not base.judge:
                if held is None and len(bots) > 256:  # envs long gone
                    bots.clear()
                try:
                    bot = factory(seed=0)
                except TypeError:
                    bot = factory()
                bots[key] = (base.judge, bot)
            else:
                bot = held[1]
        requests, responses = base.history(agent)
        reply = bot.respond(list(requests), list(responses))
        action, discard = action_of(str(reply), view)
        if discard is not None:
            discards[(id(base), agent)] = discard
        return action

    return act


__all__ = ["AGENTS", "IllegalActionError", "bot_actor", "env", "policy_bot", "raw_env"]
