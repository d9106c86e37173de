"""The default ruleset as a PettingZoo environment, and policies as bots of its protocol.

``env(**options)`` is ``raw_env(**options)`` in PettingZoo's order-enforcing
wrapper, found as PettingZoo's own environments are (``chess_v6.env()``). One
episode is one hand of ``rulesets.default.engine.hand.Hand``, the engine that
judges real matches, driven in-process. The per-turn loop (the engine, the four
seat views, who decides) is ``rulesets.default.env_table.EnvTable``, a pure module
the compiled core (``tools/build_mypyc.py``) covers; this module is the
PettingZoo shell around it.

* Agents ``player_0``..``player_3`` are seats 0..3.
* Actions: ``Discrete(128)``, one per protocol answer (``rulesets.default.actions``:
  0..33 ``out``, 34..67 ``agang``, 68..101 ``jgang``, 102 ``hu``, 103 ``pass``,
  104 ``peng``, 105 ``gang``, 106..126 ``chi <low>``, 127 ``qgang``).
* Observations: ``{"observation": encoder.encode(view), "action_mask": int8[128]}``
  where the view (``rulesets.default.seat_view.SeatView``) is built only from
  the lines the seat's bot would receive and its own answers. The mask holds
  exactly the answers the engine accepts (all zeros for an agent not asked).
  The default encoder is ``rulesets.default.encoding.DefaultEncoder``.
* A decision whose only legal action is ``pass`` (a discard one cannot win
  on, pung, kong or chow; an added kong one cannot rob) is not asked: the
  environment passes for the seat. Agents act only when they have a choice.
  Several seats may have a choice on one discard: they are asked one after the
  other, nearest after the discarder first, and the engine resolves the claims
  when all have answered (no seat sees another's answer).
* ``reset(seed=s)`` deals as ``server simulate --seed s`` does: deal 0 of seed
  ``s`` (``rulesets.default.engine.rng.deal``), then deals 1, 2, ... on each
  ``reset()`` without a seed; ``reset(options={"wall": [136 tile codes], "first":
  seat})`` plays a given deal. Same deal and same actions give the same hand.
* Rewards are 0 until the hand ends, then each seat's settlement points (SPEC
  section 5: base 4 plus the fan total; no fines in-process). ``infos[agent]``
  then holds ``scores`` (all four), ``result`` (``self_drawn``, ``discard``,
  ``robbed_kong`` or ``draw``), ``winner``, ``payer`` and ``fan_total``.
* ``write_log(folder)`` writes the hand as a match writes a hand folder
  (``events.jsonl`` and the original ``game.log``), which ``server verify`` checks.
* A masked-out action raises ``IllegalActionError`` naming the agent and the
  action; nothing changes.

``policy_bot(policy, encoder=None)`` makes a bot class of a policy (a callable
``(observation, mask) -> action``) that plays in-process (``server simulate
--bots path/to/file.py:PolicyBot``) and as a program (``PolicyBot.main()``);
``bot_actor(factory)`` makes any in-process bot an opponent for
``server.training.single_agent.SingleAgentEnv``.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar, NoReturn, TextIO

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from protocol.compiled import note_plain
from protocol.messages import (
    FromAI,
    Id,
    Join,
    MalformedLine,
    Pass,
    ToAI,
    format_line,
    parse_to_ai,
)
from protocol.tiles import Tile, TileError, parse_tile
from rulesets.default.actions import ANSWERS, N_ACTIONS, OUT, PASS, action_of, describe
from rulesets.default.encoding import DefaultEncoder, Encoder
from rulesets.default.engine.hand import SEATS, Hand
from rulesets.default.engine.legacy_log import format_legacy_log
from rulesets.default.engine.record import event_json, input_json, legacy_log
from rulesets.default.engine.rng import deal
from rulesets.default.engine.simulate import InProcessBot, resolve_bot
from rulesets.default.env_table import NOT_LEGAL, EnvTable
from rulesets.default.seat_view import SeatView
from server.training.errors import IllegalActionError

AGENTS = tuple(f"player_{seat}" for seat in range(SEATS))
Policy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.int8]], int]
Observation = dict[str, npt.NDArray[Any]]
_PASS = Pass()


class EnvOptionError(ValueError):
    """A reset option that gives no playable deal."""


def _parse_wall(options: Mapping[str, Any]) -> tuple[list[Tile], int]:
    wall_in = options["wall"]
    if "first" not in options:
        raise EnvOptionError("reset options: a 'wall' needs a 'first' (the seat that draws "
                             "first, 0..3)")
    first = options["first"]
    if not isinstance(first, int) or not 0 <= first < SEATS:
        raise EnvOptionError(f"reset options: 'first' is {first!r}, not a seat 0..3")
    if isinstance(wall_in, str):
        wall_in = wall_in.split()
    wall: list[Tile] = []
    for i, t in enumerate(wall_in):
        try:
            wall.append(parse_tile(t) if isinstance(t, str) else Tile(int(t)))
        except (TileError, ValueError):
            raise EnvOptionError(f"reset options: wall tile {i} ({t!r}) is not a tile") \
                from None
    if len(wall) != 136 or sorted(wall) != sorted(Tile(k) for k in range(34) for _ in range(4)):
        raise EnvOptionError(f"reset options: the wall holds {len(wall)} tiles, not the 136 "
                             "tiles four of each kind")
    return wall, first


class raw_env(AECEnv[str, Observation, int]):  # type: ignore[misc]  # AECEnv is untyped
    """One hand of the default ruleset as an agent-environment cycle (module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "mahjong_default_v0", "render_modes": ["ansi"], "is_parallelizable": False,
    }

    def __init__(self, encoder: Encoder | None = None, render_mode: str | None = None) -> None:
        super().__init__()
        note_plain()  # once, on stderr, when the compiled core is not in use
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: use None or 'ansi'")
        self.render_mode = render_mode
        self.encoder: Encoder = DefaultEncoder() if encoder is None else encoder
        self.possible_agents = list(AGENTS)
        self.agent_name_mapping = {agent: seat for seat, agent in enumerate(AGENTS)}
        low = float(getattr(self.encoder, "low", -np.inf))
        high = float(getattr(self.encoder, "high", np.inf))
        obs_space = spaces.Dict({
            "observation": spaces.Box(low, high, tuple(self.encoder.shape), np.float32),
            "action_mask": spaces.Box(0, 1, (N_ACTIONS,), np.int8),
        })
        self.observation_spaces = {agent: obs_space for agent in AGENTS}
        self.action_spaces = {agent: spaces.Discrete(N_ACTIONS) for agent in AGENTS}
        self.seed: int | None = None  # the deals' seed, and the next deal's number
        self.deal_index = 0
        self.episode = 0  # counts resets (bot actors start fresh bots on a new one)
        self.table: EnvTable | None = None  # the hand, its seat views and lines
        self._rewards_cleared = False  # whether ``rewards`` holds PettingZoo's cleared 0s
        self.hand: Hand | None = None
        self.views: list[SeatView] = []
        self._lines: list[list[ToAI]] = []
        self._game: tuple[int, int] | None = None  # (seed, deal) of this hand, if dealt so

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # --- the cycle --------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self.seed, self.deal_index = int(seed), 0
        elif self.seed is None:
            self.seed, self.deal_index = int.from_bytes(os.urandom(8), "big") >> 1, 0
        if options and "wall" in options:
            wall, first = _parse_wall(options)
            self._game = None
        else:
            dealt = deal(self.seed, self.deal_index)
            wall, first = list(dealt.wall), dealt.first
            self._game = (self.seed, self.deal_index)
            self.deal_index += 1
        self.episode += 1
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._rewards_cleared = False
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        self.table = table = EnvTable(wall, first)
        self.hand, self.views, self._lines = table.hand, table.views, table.lines
        self._advanced()

    def _advanced(self) -> None:
        """After the table played up to the next real choice or the end."""
        table = self.table
        assert table is not None
        if table.seat < 0:
            self._finish()
        else:
            self.agent_selection = AGENTS[table.seat]

    @property
    def _legal(self) -> list[int]:
        return [] if self.table is None else self.table.legal

    def _finish(self) -> None:
        hand = self.hand
        assert hand is not None and hand.result is not None
        result = hand.result
        scores = list(result.deltas)
        info = {
            "scores": scores,
            "result": "draw" if result.kind is None else result.kind.name.lower(),
            "winner": result.winner, "payer": result.payer, "fan_total": result.fan_total,
        }
        self._rewards_cleared = False
        for seat, agent in enumerate(AGENTS):
            self.rewards[agent] = float(scores[seat])
            self.terminations[agent] = True
            self.infos[agent] = dict(info, scores=list(scores))

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self.table
        assert table is not None and action is not None
        a = int(action)
        seat = table.act(a)
        if seat < -1:
            self._refused(agent, a, seat)
        self._cumulative_rewards[agent] = 0.0
        if not self._rewards_cleared:  # PettingZoo's _clear_rewards: only 0 (int) until the end
            self._clear_rewards()
            self._rewards_cleared = True
        # Rewards are 0 until the hand ends (every step after it is a dead step), so
        # accumulating them changes something only on the last step.
        if seat < 0:
            self._finish()
            self._accumulate_rewards()
        else:
            self.agent_selection = AGENTS[seat]

    def _refused(self, agent: str, a: int, why: int) -> NoReturn:
        table = self.table
        assert table is not None
        if why == NOT_LEGAL:
            shown = describe(a) if 0 <= a < N_ACTIONS else "out of range"
            raise IllegalActionError(
                f"{agent}: action {a} ({shown}) is not legal now; legal: "
                + ", ".join(f"{x} ({describe(x)})" for x in sorted(table.legal)))
        verdict = table.refused  # the mask and the engine disagree
        assert verdict is not None
        raise RuntimeError(f"bug: {agent}'s legal {describe(a)} was "
                           f"{verdict.verdict.value} by the engine: {verdict.reason}")

    def observe(self, agent: str) -> Observation:
        seat = self.agent_name_mapping[agent]
        table = self.table
        if agent == self.agent_selection and not self.terminations.get(agent, True) \
                and table is not None:
            mask = table.mask()
        else:
            mask = bytearray(N_ACTIONS)
        return {"observation": self.encoder.encode(self.views[seat]),
                "action_mask": np.frombuffer(mask, np.int8)}

    def last(self, observe: bool = True) -> tuple[Observation | None, float, bool, bool,
                                                  dict[str, Any]]:
        """PettingZoo's ``last``, the same answer with fewer calls (it runs every step)."""
        agent = self.agent_selection
        assert agent is not None
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def legal_actions(self) -> list[int]:
        """The actions the selected agent may take (what its mask allows), sorted."""
        return sorted(self._legal)

    def seat_lines(self, agent: str) -> list[ToAI]:
        """Every line the agent's seat has been sent this hand, in order (read only)."""
        return self._lines[self.agent_name_mapping[agent]]

    def bot_seed(self, agent: str) -> int:
        """The seed ``server simulate`` gives this seat's bot in this deal."""
        seed, index = self._game if self._game is not None else (self.seed or 0, 0)
        return seed * 1_000_003 + index * SEATS + self.agent_name_mapping[agent]

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.hand is None:
            return None
        hand = self.hand
        rows = [f"wall left {hand.wall_left}; to act: {self.agent_selection}"]
        for seat in range(SEATS):
            tiles = " ".join(str(t) for t in sorted(hand.hands[seat]))
            melds = " ".join(f"{m.kind.value}:{m.tile}" for m in hand.melds[seat])
            river = " ".join(str(t) for t in hand.rivers[seat])
            rows.append(f"{AGENTS[seat]}: {tiles} | {melds} | {river}")
        return "\n".join(rows)

    def close(self) -> None:
        pass

    # --- the record -----------------------------------------------------------------------

    def write_log(self, path: str | os.PathLike[str]) -> Path:
        """Write the hand so far as a hand folder of a match (``events.jsonl``, and
        ``game.log`` once it has ended), which ``server verify`` checks; its scores
        (``deltas``) are the rewards. ``path`` is that folder: a path naming a file
        (``game.json``, an existing file) is refused, since a hand is several files."""
        hand = self.hand
        if hand is None:
            raise RuntimeError("write_log before reset: no hand was dealt")
        folder = Path(path)
        if folder.is_file() or (folder.suffix.lower() in _FILE_SUFFIXES and not folder.is_dir()):
            raise ValueError(
                f"write_log writes a hand folder (events.jsonl, game.log), not a file: "
                f"give it a folder such as {folder.with_suffix('').name or 'hand'!r} "
                f"(not {folder.name!r}); server verify takes the folder")
        folder.mkdir(parents=True, exist_ok=True)
        names = list(AGENTS)
        header: dict[str, Any] = {
            "game_id": "env", "hand": 1, "group": 1, "round": 1, "deal": 1,
            "first": hand.first, "wall": [t.code for t in hand.wall],
            "seats": [{"player": seat, "name": name} for seat, name in enumerate(names)],
            "env_seed": self._game[0] if self._game else None,
            "env_deal": self._game[1] if self._game else None,
        }
        result = hand.result
        if result is not None:
            text = format_legacy_log(legacy_log(hand, names, 1, 1))
            (folder / "game.log").write_text(text, encoding="utf-8")
        result_json: dict[str, Any] = {
            "result": "unfinished" if result is None else
            "draw" if result.kind is None else result.kind.value,
            "winner_seat": None if result is None else result.winner,
            "payer_seat": None if result is None else result.payer,
            "win_tile": None if result is None or result.win_tile is None
            else result.win_tile.code,
            "fans": [] if result is None or result.fans is None else
            [list(f) for f in result.fans.fans],
            "fan_total": None if result is None or result.fans is None else result.fans.total,
            "deltas": None if result is None else list(result.deltas),
            "fines": [0] * SEATS, "faults": {},
            "points_by_player": None if result is None else list(result.deltas),
        }
        with (folder / "events.jsonl").open("w", encoding="utf-8") as f:
            f.write(json.dumps({"type": "hand", **header}) + "\n")
            for event in hand.events:
                f.write(json.dumps({"type": "event", **event_json(event)}) + "\n")
            for item in hand.inputs:
                f.write(json.dumps({"type": "input", **input_json(item)}) + "\n")
            if result is not None:
                f.write(json.dumps({"type": "result", **result_json}) + "\n")
        return folder


_FILE_SUFFIXES = (".json", ".jsonl", ".log", ".txt")
"""Endings of a file that ``write_log`` refuses as its folder's name."""


def env(**options: Any) -> AECEnv[str, Observation, int]:
    """``raw_env(**options)`` with PettingZoo's order enforcing."""
    return wrappers.OrderEnforcingWrapper(raw_env(**options))


# --- policies as bots ---------------------------------------------------------------------


class PolicyBotBase:
    """A policy playing one seat from its protocol lines (``policy_bot`` makes these).

    In-process (``server simulate``, ``bot_actor``): ``Bot(seed=...)`` and
    ``receive(message)``; as a program: ``Bot.main()``. A decision whose only
    legal action is ``pass`` is answered without asking the policy, as in the
    environment; an action the mask forbids is replaced by a safe one (pass, or
    discarding the drawn tile) and reported on stderr (``fallbacks`` counts them).
    """

    policy: ClassVar[Policy]
    encoder: ClassVar[Encoder]
    name = "policy"

    def __init__(self, seed: int | None = 0) -> None:
        self.seed = seed
        self.view = SeatView()
        self.fallbacks = 0

    def receive(self, message: ToAI) -> FromAI | None:
        view = self.view
        if type(message) is Id and view.seat >= 0:
            self.view = view = SeatView()  # a new hand on the same stream
        view.receive(message)
        if view.prompt is None:
            return None
        legal = view.legal_actions()
        if legal == [PASS]:
            action = PASS
        else:
            mask = np.zeros(N_ACTIONS, dtype=np.int8)
            mask[legal] = 1
            action = int(type(self).policy(self.encoder.encode(view), mask))
            if action not in legal:
                safe = PASS if PASS in legal else OUT + (view.drawn if view.drawn is not None
                                                         else legal[0])
                shown = describe(action) if 0 <= action < N_ACTIONS else "out of range"
                print(f"{self.name}: the policy chose {action} ({shown}), not legal after "
                      f"{format_line(message)!r}; answering {describe(safe)!r}",
                      file=sys.stderr, flush=True)
                self.fallbacks += 1
                action = safe
        answer = ANSWERS[action]
        view.answered(answer)
        return answer

    @classmethod
    def main(cls, argv: Sequence[str] | None = None, stdin: TextIO | None = None,
             stdout: TextIO | None = None) -> int:
        """Play as a bot program: write ``join``, answer the server's lines, return 0
        at the end of input (``python3 my_bot.py`` in ``server match``)."""
        source = sys.stdin if stdin is None else stdin
        sink = sys.stdout if stdout is None else stdout
        bot = cls(seed=0)

        def write(answer: FromAI | Join) -> None:
            sink.write(format_line(answer) + "\n")
            sink.flush()

        try:
            write(Join())
            while line := source.readline():
                if not line.strip():
                    continue
                try:
                    message = parse_to_ai(line)
                except MalformedLine as exc:
                    print(f"ignored: {exc}", file=sys.stderr, flush=True)
                    continue
                answer = bot.receive(message)
                if answer is not None:
                    write(answer)
        except (BrokenPipeError, KeyboardInterrupt):
            pass
        return 0


def policy_bot(policy: Policy, encoder: Encoder | None = None) -> type[PolicyBotBase]:
    """A bot class playing ``policy`` on observations of ``encoder`` (the default
    encoder if None): ``PolicyBot = policy_bot(my_policy)`` in a file makes
    ``path/to/file.py:PolicyBot`` a bot of ``server simulate``, and
    ``PolicyBot.main()`` under ``if __name__ == "__main__":`` a bot program."""
    chosen: Encoder = DefaultEncoder() if encoder is None else encoder

    class PolicyBot(PolicyBotBase):
        pass

    PolicyBot.policy = staticmethod(policy)
    PolicyBot.encoder = chosen
    return PolicyBot


# --- in-process bots as opponents -----------------------------------------------------------


Actor = Callable[[Any, str], int]


def bot_actor(factory: Callable[[int], InProcessBot] | str) -> Actor:
    """An actor ``(env, agent) -> action`` playing an in-process bot: a sample AI's name
    (``random``, ``greedy``), a ``module:Class`` or ``path.py:Class`` spec, or a factory
    ``seed -> bot`` (a bot class such as a ``policy_bot``). The bot is fed the seat's
    protocol lines as the server would send them (a fresh bot per hand, seeded as
    ``server simulate`` seeds it), and its answer to the prompt becomes the action."""
    build: Callable[[int], InProcessBot]
    if isinstance(factory, str):
        build = resolve_bot(factory)
    else:
        cls = factory

        def build(seed: int) -> InProcessBot:
            return cls(seed)

    bots: dict[tuple[int, str], tuple[int, InProcessBot, list[int]]] = {}

    def actor(environment: Any, agent: str) -> int:
        raw = environment.unwrapped
        key = (id(raw), agent)
        held = bots.get(key)
        if held is None or held[0] != raw.episode:
            held = (raw.episode, build(raw.bot_seed(agent)), [0])
            bots[key] = held
        _, bot, cursor = held
        lines = raw.seat_lines(agent)
        reply: FromAI | None = None
        for message in lines[cursor[0]:]:
            reply = bot.receive(message)
        cursor[0] = len(lines)
        if reply is None:
            last = format_line(lines[-1]) if lines else "nothing"
            raise RuntimeError(f"{agent}: the bot gave no answer to {last!r}")
        return action_of(reply)

    return actor
