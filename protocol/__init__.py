"""The wire vocabulary: tiles, messages and line framing. Pure: no I/O."""

from protocol import compiled  # noqa: F401  (first: MAHJONG_PURE acts before a compiled module)
from protocol.lazy import names_from

# The names below are loaded on first use (PEP 562), each from its module: a process
# that needs one module (a sample bot: ``protocol.messages``) does not pay at its start
# for the others.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from protocol.framing import MAX_LINE, FramingError, LineBuffer, decode_line, encode_line
    from protocol.messages import (
        FROM_AI,
        TO_AI,
        AGang,
        Chi,
        First,
        FromAI,
        Gang,
        Hu,
        Id,
        Init,
        JGang,
        Join,
        MAGang,
        MalformedLine,
        MChi,
        Message,
        MFail,
        MGang,
        MHu,
        MJGang,
        MOut,
        MPeng,
        MPick,
        Out,
        Pass,
        Peng,
        Pick,
        QGang,
        ToAI,
        format_line,
        parse_from_ai,
        parse_line,
        parse_to_ai,
    )
    from protocol.tiles import (
        ALL_TILES,
        N_KINDS,
        Suit,
        Tile,
        TileError,
        format_tiles,
        full_set,
        parse_tile,
        parse_tiles,
        tile_counts,
    )

__all__ = [
    "ALL_TILES", "FROM_AI", "MAX_LINE", "N_KINDS", "TO_AI", "AGang", "Chi", "First",
    "FramingError", "FromAI", "Gang", "Hu", "Id", "Init", "JGang", "Join", "LineBuffer",
    "MAGang", "MChi", "MFail", "MGang", "MHu", "MJGang", "MOut", "MPeng", "MPick",
    "MalformedLine", "Message", "Out", "Pass", "Peng", "Pick", "QGang", "Suit", "Tile",
    "TileError", "ToAI", "decode_line", "encode_line", "format_line", "format_tiles",
    "full_set", "parse_from_ai", "parse_line", "parse_tile", "parse_tiles", "parse_to_ai",
    "tile_counts",
]
_MODULES = {
    "protocol.framing": ("MAX_LINE", "FramingError", "LineBuffer", "decode_line",
                         "encode_line"),
    "protocol.messages": ("FROM_AI", "TO_AI", "AGang", "Chi", "First", "FromAI",
                          "Gang", "Hu", "Id", "Init", "JGang", "Join", "MAGang",
                          "MalformedLine", "MChi", "Message", "MFail", "MGang", "MHu",
                          "MJGang", "MOut", "MPeng", "MPick", "Out", "Pass", "Peng",
                          "Pick", "QGang", "ToAI", "format_line", "parse_from_ai",
                          "parse_line", "parse_to_ai"),
    "protocol.tiles": ("ALL_TILES", "N_KINDS", "Suit", "Tile", "TileError",
                       "format_tiles", "full_set", "parse_tile", "parse_tiles",
                       "tile_counts"),
}
__getattr__ = names_from(globals(), _MODULES)
