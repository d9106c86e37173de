"""The single-agent Gymnasium wrapper, around the default ruleset's environment (and
Botzone's and NOI 2014's)."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from rulesets.default.env import IllegalActionError, bot_actor, env
from server.training.single_agent import SingleAgentEnv


def wrapped(**options: object) -> SingleAgentEnv:
    return SingleAgentEnv(env(), bot_actor("greedy"), **options)  # type: ignore[arg-type]


def test_gymnasium_check_env_passes() -> None:
    check_env(SingleAgentEnv(env(), bot_actor("random"), illegal="replace"),
              skip_render_check=True)
    check_env(wrapped(illegal="replace", rotate=True), skip_render_check=True)


def play(sa: SingleAgentEnv, seed: int) -> tuple[float, dict[str, object], int]:
    rng = np.random.default_rng(seed)
    obs, info = sa.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        assert obs["action_mask"].any()
        obs, reward, terminated, truncated, info = sa.step(
            int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        total += reward
        steps += 1
        if terminated or truncated:
            return total, info, steps


def test_the_learner_is_asked_only_its_own_decisions_and_gets_its_score() -> None:
    sa = wrapped()
    for seed in range(3):
        total, info, steps = play(sa, seed)
        seat = sa.env.unwrapped.agent_name_mapping[sa.learner]
        assert total == info["scores"][seat]  # type: ignore[index]
        assert steps > 5
        assert sa.learner == "player_0"


def test_same_seed_same_episode_and_rotation_is_seeded() -> None:
    a, b = wrapped(rotate=True), wrapped(rotate=True)
    assert play(a, 5) == play(b, 5)
    seats = set()
    for seed in range(12):
        a.reset(seed=seed)
        seats.add(a.learner)
    assert len(seats) > 1


def test_illegal_actions_raise_or_are_replaced() -> None:
    sa = wrapped()
    obs, _ = sa.reset(seed=1)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match="player_0: action"):
        sa.step(bad)
    lenient = wrapped(illegal="replace")
    obs, _ = lenient.reset(seed=1)
    *_, info = lenient.step(bad)
    assert info["illegal_action"] == bad
    with pytest.raises(ValueError, match="illegal='x'"):
        wrapped(illegal="x")
    with pytest.raises(ValueError, match="no actor for player_2"):
        SingleAgentEnv(env(), {"player_1": bot_actor("random")})


def test_action_masks_match_the_observation() -> None:
    sa = wrapped()
    obs, _ = sa.reset(seed=3)
    assert (sa.action_masks() == obs["action_mask"].astype(bool)).all()


def test_check_env_passes_around_botzone_and_noi2014_with_their_sample_ais() -> None:
    """The wrapper takes any ruleset's environment: one learner among that ruleset's own
    sample AIs, played in-process from the seat's requests."""
    import sample_ai.botzone.random_bot as botzone_random
    import sample_ai.noi2014.greedy_bot as noi_greedy
    from rulesets.botzone import env as botzone
    from rulesets.noi2014 import env as noi2014

    for aec, actor in ((botzone.env(variant="duplicate"), botzone.bot_actor(botzone_random)),
                       (botzone.env(variant="classic"), botzone.bot_actor(botzone_random)),
                       (noi2014.env(), noi2014.bot_actor(noi_greedy))):
        sa = SingleAgentEnv(aec, actor, illegal="replace", rotate=True)
        check_env(sa, skip_render_check=True)
        total, info, _ = play(sa, 3)
        seat = int(sa.learner.removeprefix("player_"))
        assert total == info["scores"][seat]  # type: ignore[index]
