"""Hand analysis, the fan table and settlement. Pure: no I/O."""

import protocol.compiled  # noqa: F401  (first: MAHJONG_PURE acts before a compiled module)
from protocol.lazy import names_from

# The names below are loaded on first use (PEP 562), each from its module: a process
# that needs one module (a sample bot: ``scoring.analysis``) does not pay at its start
# for the others (the fan table above all).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from scoring.analysis import (
        Decomposition,
        decompositions,
        is_winning,
        shanten,
        waiting_tiles,
    )
    from scoring.distance import regular_distance
    from scoring.fans import (
        FAN_TABLE,
        FANS,
        Fan,
        FanResult,
        HandError,
        WinningHand,
        can_win,
        score,
        score_tiles,
    )
    from scoring.melds import Meld, MeldKind, parse_meld
    from scoring.settlement import BASE, WinKind, settle

__all__ = [
    "BASE", "FANS", "FAN_TABLE", "Decomposition", "Fan", "FanResult", "HandError", "Meld",
    "MeldKind", "WinKind", "WinningHand", "can_win", "decompositions", "is_winning",
    "parse_meld", "regular_distance", "score", "score_tiles", "settle", "shanten",
    "waiting_tiles",
]
_MODULES = {
    "scoring.analysis": ("Decomposition", "decompositions", "is_winning", "shanten",
                         "waiting_tiles"),
    "scoring.distance": ("regular_distance",),
    "scoring.fans": ("FAN_TABLE", "FANS", "Fan", "FanResult", "HandError", "WinningHand",
                     "can_win", "score", "score_tiles"),
    "scoring.melds": ("Meld", "MeldKind", "parse_meld"),
    "scoring.settlement": ("BASE", "WinKind", "settle"),
}
__getattr__ = names_from(globals(), _MODULES)
