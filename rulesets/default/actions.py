"""The default ruleset's answers as a discrete action space (128 actions), and back.

Every answer of the line protocol (SPEC section 3, ``protocol.messages``) is one
action index; the index of a tile kind ``k`` is its number in ``protocol.tiles``
(``1M``..``9M`` = 0..8, ``1S``..``9S`` = 9..17, ``1T``..``9T`` = 18..26, then
``E S W N Z F B`` = 27..33).

=========  =====================  ==========================================
index      answer                 when it may be legal
=========  =====================  ==========================================
0..33      ``out <k>``            own turn (after ``pick``), or the discard
                                  after one's own pung or chow
34..67     ``agang <k>``          own turn: four ``k`` in the concealed hand
68..101    ``jgang <k>``          own turn: a melded pung of ``k`` and ``k`` in hand
102        ``hu``                 own turn (self-drawn win), or on another
                                  seat's discard
103        ``pass``               on another seat's discard or added kong
104        ``peng``               on a discard: two of it in hand
105        ``gang``               on a discard: three of it in hand
106..126   ``chi <low>``          on the discard of the seat before: the run
                                  from ``low`` holds the discard; ``low`` is
                                  suit ``s`` (M, S, T = 0, 1, 2) rank ``r``
                                  (1..7), index ``106 + 7 * s + (r - 1)``
127        ``qgang``              on another seat's added kong: robbing it wins
=========  =====================  ==========================================

Pure: no numpy, so the policy bot and the property tests share it with the engine.
"""

from __future__ import annotations

from typing import Final

from protocol.messages import AGang, Chi, FromAI, Gang, Hu, JGang, Out, Pass, Peng, QGang
from protocol.tiles import N_KINDS, Tile

OUT: Final = 0
AGANG: Final = OUT + N_KINDS  # 34
JGANG: Final = AGANG + N_KINDS  # 68
HU: Final = JGANG + N_KINDS  # 102
PASS: Final = HU + 1  # 103
PENG: Final = PASS + 1  # 104
GANG: Final = PENG + 1  # 105
CHI: Final = GANG + 1  # 106: 21 chow starts, 1..7 of each suit
N_CHI: Final = 21
QGANG: Final = CHI + N_CHI  # 127
N_ACTIONS: Final = QGANG + 1  # 128


def chi_index(low: int) -> int:
    """The action of ``chi <low>``; ``low`` must start a run (a suited rank 1..7)."""
    suit, rank0 = divmod(low, 9)
    if suit > 2 or rank0 > 6:
        raise ValueError(f"no chow starts at {Tile(low).code}")
    return CHI + 7 * suit + rank0


def _chi_low(index: int) -> Tile:
    suit, rank0 = divmod(index - CHI, 7)
    return Tile(9 * suit + rank0)


# Each action's answer, made once (the answers are immutable values).
ANSWERS: Final[tuple[FromAI, ...]] = (
    *(Out(Tile(k)) for k in range(N_KINDS)),
    *(AGang(Tile(k)) for k in range(N_KINDS)),
    *(JGang(Tile(k)) for k in range(N_KINDS)),
    Hu(), Pass(), Peng(), Gang(),
    *(Chi(_chi_low(i)) for i in range(CHI, CHI + N_CHI)),
    QGang(),
)
assert len(ANSWERS) == N_ACTIONS


def answer_of(action: int) -> FromAI:
    """The protocol answer of an action index; ``ValueError`` if there is none."""
    if not 0 <= action < N_ACTIONS:
        raise ValueError(f"action {action} is not in 0..{N_ACTIONS - 1}")
    return ANSWERS[action]


def action_of(answer: FromAI) -> int:
    """The action index of a protocol answer; ``ValueError`` for ``join``."""
    if isinstance(answer, Out):
        return OUT + answer.tile
    if isinstance(answer, AGang):
        return AGANG + answer.tile
    if isinstance(answer, JGang):
        return JGANG + answer.tile
    if isinstance(answer, Chi):
        return chi_index(answer.tile)
    simple = _SIMPLE.get(type(answer))
    if simple is None:
        raise ValueError(f"{answer.keyword} is not an answer to a prompt")
    return simple


_SIMPLE: dict[type[FromAI], int] = {Hu: HU, Pass: PASS, Peng: PENG, Gang: GANG, QGang: QGANG}


def describe(action: int) -> str:
    """An action as its protocol line (``out 5M``, ``chi 3T``, ``pass``)."""
    answer = answer_of(action)
    tile = getattr(answer, "tile", None)
    return answer.keyword if tile is None else f"{answer.keyword} {Tile(tile).code}"
