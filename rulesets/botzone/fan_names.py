"""Fan names of the GB (Chinese Official) calculator, Chinese and English.

Data, as PyMahjongGB 1.1.0 (the Botzone judge's calculator) names its fans:
`MahjongFanCalculator(..., verbose=True)` returns `(value, count, name_cn,
name_en)` from these tables, in this order: the 81 fans of the GB rules
(the last, 花牌, counts one per flower), then 明暗杠, the calculator's extra
fan for a concealed plus a melded kong. A judge `display` names fans in
Chinese only; the terminal and HTML views add the English name.
"""

from __future__ import annotations

from typing import NamedTuple


class FanName(NamedTuple):
    chinese: str
    english: str
    value: int


FAN_NAMES: tuple[FanName, ...] = (
    FanName("大四喜", "Big Four Winds", 88),
    FanName("大三元", "Big Three Dragons", 88),
    FanName("绿一色", "All Green", 88),
    FanName("九莲宝灯", "Nine Gates", 88),
    FanName("四杠", "Four Kongs", 88),
    FanName("连七对", "Seven Shifted Pairs", 88),
    FanName("十三幺", "Thirteen Orphans", 88),
    FanName("清幺九", "All Terminals", 64),
    FanName("小四喜", "Little Four Winds", 64),
    FanName("小三元", "Little Three Dragons", 64),
    FanName("字一色", "All Honors", 64),
    FanName("四暗刻", "Four Concealed Pungs", 64),
    FanName("一色双龙会", "Pure Terminal Chows", 64),
    FanName("一色四同顺", "Quadruple Chow", 48),
    FanName("一色四节高", "Four Pure Shifted Pungs", 48),
    FanName("一色四步高", "Four Pure Shifted Chows", 32),
    FanName("三杠", "Three Kongs", 32),
    FanName("混幺九", "All Terminals and Honors", 32),
    FanName("七对", "Seven Pairs", 24),
    FanName("七星不靠", "Greater Honors and Knitted Tiles", 24),
    FanName("全双刻", "All Even Pungs", 24),
    FanName("清一色", "Full Flush", 24),
    FanName("一色三同顺", "Pure Triple Chow", 24),
    FanName("一色三节高", "Pure Shifted Pungs", 24),
    FanName("全大", "Upper Tiles", 24),
    FanName("全中", "Middle Tiles", 24),
    FanName("全小", "Lower Tiles", 24),
    FanName("清龙", "Pure Straight", 16),
    FanName("三色双龙会", "Three-Suited Terminal Chows", 16),
    FanName("一色三步高", "Pure Shifted Chows", 16),
    FanName("全带五", "All Five", 16),
    FanName("三同刻", "Triple Pung", 16),
    FanName("三暗刻", "Three Concealed Pungs", 16),
    FanName("全不靠", "Lesser Honors and Knitted Tiles", 12),
    FanName("组合龙", "Knitted Straight", 12),
    FanName("大于五", "Upper Four", 12),
    FanName("小于五", "Lower Four", 12),
    FanName("三风刻", "Big Three Winds", 12),
    FanName("花龙", "Mixed Straight", 8),
    FanName("推不倒", "Reversible Tiles", 8),
    FanName("三色三同顺", "Mixed Triple Chow", 8),
    FanName("三色三节高", "Mixed Shifted Pungs", 8),
    FanName("无番和", "Chicken Hand", 8),
    FanName("妙手回春", "Last Tile Draw", 8),
    FanName("海底捞月", "Last Tile Claim", 8),
    FanName("杠上开花", "Out with Replacement Tile", 8),
    FanName("抢杠和", "Robbing The Kong", 8),
    FanName("碰碰和", "All Pungs", 6),
    FanName("混一色", "Half Flush", 6),
    FanName("三色三步高", "Mixed Shifted Chows", 6),
    FanName("五门齐", "All Types", 6),
    FanName("全求人", "Melded Hand", 6),
    FanName("双暗杠", "Two Concealed Kongs", 6),
    FanName("双箭刻", "Two Dragons Pungs", 6),
    FanName("全带幺", "Outside Hand", 4),
    FanName("不求人", "Fully Concealed Hand", 4),
    FanName("双明杠", "Two Melded Kongs", 4),
    FanName("和绝张", "Last Tile", 4),
    FanName("箭刻", "Dragon Pung", 2),
    FanName("圈风刻", "Prevalent Wind", 2),
    FanName("门风刻", "Seat Wind", 2),
    FanName("门前清", "Concealed Hand", 2),
    FanName("平和", "All Chows", 2),
    FanName("四归一", "Tile Hog", 2),
    FanName("双同刻", "Double Pung", 2),
    FanName("双暗刻", "Two Concealed Pungs", 2),
    FanName("暗杠", "Concealed Kong", 2),
    FanName("断幺", "All Simples", 2),
    FanName("一般高", "Pure Double Chow", 1),
    FanName("喜相逢", "Mixed Double Chow", 1),
    FanName("连六", "Short Straight", 1),
    FanName("老少副", "Two Terminal Chows", 1),
    FanName("幺九刻", "Pung of Terminals or Honors", 1),
    FanName("明杠", "Melded Kong", 1),
    FanName("缺一门", "One Voided Suit", 1),
    FanName("无字", "No Honors", 1),
    FanName("边张", "Edge Wait", 1),
    FanName("嵌张", "Closed Wait", 1),
    FanName("单钓将", "Single Wait", 1),
    FanName("自摸", "Self-Drawn", 1),
    FanName("花牌", "Flower Tiles", 1),
    FanName("明暗杠", "Concealed Kong and Melded Kong", 5),
)

ENGLISH: dict[str, str] = {f.chinese: f.english for f in FAN_NAMES}


def english(chinese: str) -> str:
    """The English name of a fan the judge named in Chinese ("" if unknown)."""
    return ENGLISH.get(chinese, "")
