"""The nearest valid target hand (SPEC-noi2014 §5): the search ``SeatView.target``
answers ``4`` with, on count arrays.

``nearest(hand, caps, sets, late)`` gives the concealed (upper-case) part of the
target as 27 counts: ``hand`` the seat's concealed tiles, ``caps`` the copies of each
kind its melds leave (4 - melded), ``sets`` the sets its melds leave (4 - melds),
``late`` each kind's last position in the chance sequence as far as the seat can
tell (``SeatView._last_seen``). The target keeps as many of ``hand``'s tiles as any
valid target can (the distance is then the smallest); of the ways to share the sets
and the pair among the three suits, the one whose needed kinds were last seen latest,
the first such way in the order below on ties.

How: each suit's kinds a set touching a held kind can reach (two beyond the first and
last held) go through one dynamic programme (``_window``: kind by kind, every way to
start runs, at most two equal ones, and to place a pung or the pair; a state is (runs
started at the kind before, two before, sets so far, pairs so far), states taken in
the order first reached, ties keeping the first way found, so that order is part of
the result). It gives, for each (sets, pairs) the suit can hold, the most of the hand
kept and one such part (its counts). The sets and the pair the suits leave out go, as
pungs and a pair, to kinds not held (``free``: they keep nothing, so the latest-seen
kinds with room first). Every (sets, pairs) of suit B, then T, then W, in that order,
is tried; the best (most kept, then the latest smallest needed position) wins, the
first on ties. If the free kinds have no room (hardly ever), every set is placed in
the suits: the programme over each whole suit, with no touching rule.

The programme's tables are cached by the window's counts and caps (one int key), so
suits held alike in different places share one. Pure; compiled by the install
(``tools/build_mypyc.py``).
"""

from __future__ import annotations

from typing import Final

N_KINDS: Final = 27
FAR: Final = 1 << 30  # later than any position: no needed kind
_STATES: Final = 90  # ((a * 3 + b) * 5 + sets) * 2 + pairs: runs a, b 0-2, sets 0-4, pairs 0-1
_SLOTS: Final = 10  # sets * 2 + pairs
_CACHE_MAX: Final = 1 << 16
# a state's parts, by state
_RUNS_A: Final = [s // 30 for s in range(_STATES)]  # runs started at the kind before
_RUNS_B: Final = [s // 10 % 3 for s in range(_STATES)]  # runs started two kinds before
_SETS_OF: Final = [(s >> 1) % 5 for s in range(_STATES)]

# A window's table, per slot (sets * 2 + pairs): the most of the hand kept + 1 (0: no
# such part), such a part's counts, and the places where it holds more than the hand (the
# kinds it needs). Bytes, so that the cache holds no object the garbage collector visits.
Table = tuple[bytes, tuple[bytes, ...], tuple[bytes, ...]]
_NO_SUIT: Final[Table] = (bytes([1]) + bytes(_SLOTS - 1), (b"",) * _SLOTS, (b"",) * _SLOTS)

# (window counts, caps, size, touching) as one int -> the window's table
_cache: dict[int, Table] = {}


def nearest(hand: list[int], caps: list[int], sets: int, late: list[int]) -> list[int]:
    """The nearest target's concealed tiles as 27 counts (the module docstring)."""
    # the kinds not held, the latest seen first (then in kind order): sorted as ints
    order = sorted((FAR - late[k]) * 32 + k for k in range(N_KINDS) if not hand[k])
    pick = _search(hand, caps, sets, late, [key & 31 for key in order], True)
    if pick is None:  # no room on the free kinds: every set in the suits
        pick = _search(hand, caps, sets, late, [], False)
    assert pick is not None
    return pick


def _search(hand: list[int], caps: list[int], sets: int, late: list[int], free: list[int],
            touching: bool) -> list[int] | None:
    """The best target of the suits' tables and ``free`` kinds (none: the suits hold it
    all); None if no part of the tables fits."""
    starts = [0, 0, 0]
    sizes = [0, 0, 0]
    tables: list[Table] = []
    chance_of: list[list[int]] = []
    for suit in range(3):
        base = 9 * suit
        start, end = 0, 9
        if touching:
            first, last = -1, -1
            for i in range(9):
                if hand[base + i]:
                    if first < 0:
                        first = i
                    last = i
            if first < 0:
                start, end = 0, 0
            else:
                start = first - 2 if first > 2 else 0
                end = last + 3 if last < 6 else 9
        starts[suit], sizes[suit] = start, end - start
        table = _window(hand, caps, base + start, end - start, touching) \
            if end > start else _NO_SUIT
        tables.append(table)
        kept_row, needs = table[0], table[2]
        at = base + start
        chances = [FAR] * _SLOTS
        for slot in range(_SLOTS):
            if kept_row[slot]:
                need = needs[slot]
                chance = FAR
                for n in range(len(need)):
                    position = late[at + need[n]]
                    if position < chance:
                        chance = position
                chances[slot] = chance
        chance_of.append(chances)
    # each free kind: its suit and place in that suit's window (-1: outside it)
    free_suit = [k // 9 for k in free]
    free_at = [k % 9 - starts[k // 9] if 0 <= k % 9 - starts[k // 9] < sizes[k // 9] else -1
               for k in free]
    kept_b, kept_t, kept_w = tables[0][0], tables[1][0], tables[2][0]
    parts_b, parts_t, parts_w = tables[0][1], tables[1][1], tables[2][1]
    chance_b, chance_t, chance_w = chance_of
    rows_t = [slot for slot in range(_SLOTS) if kept_t[slot]]
    rows_w = [slot for slot in range(_SLOTS) if kept_w[slot]]
    best_kept, best_chance = -1, -1
    best_b, best_t, best_w = -1, -1, -1
    for jb in range(_SLOTS):
        kb = kept_b[jb]
        if not kb:
            continue
        for jt in rows_t:
            sets_bt, pairs_bt = (jb >> 1) + (jt >> 1), (jb & 1) + (jt & 1)
            if sets_bt > sets or pairs_bt > 1:
                continue
            kbt = kb + kept_t[jt]
            chance_bt = chance_b[jb] if chance_b[jb] < chance_t[jt] else chance_t[jt]
            for jw in rows_w:
                used, pairs = sets_bt + (jw >> 1), pairs_bt + (jw & 1)
                if used > sets or pairs > 1 or (not free and (used != sets or pairs != 1)):
                    continue
                kept = kbt + kept_w[jw]  # (+ 3: each suit's is one more)
                if kept < best_kept:
                    continue
                chance = _fill_chance(parts_b[jb], parts_t[jt], parts_w[jw], free, free_suit,
                                      free_at, caps, late, sets - used, 1 - pairs)
                if chance < 0:
                    continue
                if chance_bt < chance:
                    chance = chance_bt
                if chance_w[jw] < chance:
                    chance = chance_w[jw]
                if kept > best_kept or chance > best_chance:
                    best_kept, best_chance = kept, chance
                    best_b, best_t, best_w = jb, jt, jw
    if best_kept < 0:
        return None
    pick = [0] * N_KINDS
    for suit, slot in ((0, best_b), (1, best_t), (2, best_w)):
        part = tables[suit][1][slot]
        at = 9 * suit + starts[suit]
        for i in range(sizes[suit]):
            pick[at + i] = part[i]
    pungs = sets - (best_b >> 1) - (best_t >> 1) - (best_w >> 1)
    pairs = 1 - (best_b & 1) - (best_t & 1) - (best_w & 1)
    for k in free:
        if not pungs and not pairs:
            break
        if pungs and pick[k] + 3 <= caps[k]:
            pick[k] += 3
            pungs -= 1
        elif pairs and pick[k] + 2 <= caps[k]:
            pick[k] += 2
            pairs -= 1
    return pick


def _fill_chance(part_b: bytes, part_t: bytes, part_w: bytes, free: list[int],
                 free_suit: list[int], free_at: list[int], caps: list[int], late: list[int],
                 pungs: int, pairs: int) -> int:
    """Put ``pungs`` pungs and ``pairs`` pairs on the ``free`` kinds, the first first,
    where there is room beside the suits' parts: the smallest late position of the kinds
    they take (FAR: none), or -1 if they do not all find room."""
    chance = FAR
    for n in range(len(free)):
        if not pungs and not pairs:
            break
        k = free[n]
        at = free_at[n]
        suit = free_suit[n]
        held = 0 if at < 0 else (part_b if suit == 0 else part_t if suit == 1 else part_w)[at]
        if pungs and held + 3 <= caps[k]:
            pungs -= 1
        elif pairs and held + 2 <= caps[k]:
            pairs -= 1
        else:
            continue
        if late[k] < chance:
            chance = late[k]
    return -1 if pungs or pairs else chance


def _window(hand: list[int], caps: list[int], start: int, size: int, touching: bool) -> Table:
    """The table of the kinds ``start`` .. ``start + size - 1`` (of one suit), cached."""
    key = 1 if touching else 0
    for i in range(start, start + size):
        held, cap = hand[i], caps[i]
        if not (0 <= held <= 4 and 0 <= cap <= 4):  # no game holds these: not cached
            return _programme(hand[start:start + size], caps[start:start + size], touching)
        key = key * 25 + held * 5 + cap
    key = key * 10 + size
    found = _cache.get(key)
    if found is not None:
        return found
    if len(_cache) >= _CACHE_MAX:
        _cache.clear()
    made = _programme(hand[start:start + size], caps[start:start + size], touching)
    _cache[key] = made
    return made


def _reach(kept: list[int], back: list[int], reached: list[int], key: int, state: int,
           before: int, count: int, held: int) -> None:
    """State ``key`` of the next kind, reached from ``state`` (which kept ``before``) by
    taking ``count`` of this kind, of which ``held`` are in hand: kept if it keeps more
    than the best way there so far."""
    value = before + (count if count < held else held)
    old = kept[key]
    if value > old:
        if old < 0:
            reached.append(key)
        kept[key] = value
        back[key] = state * 8 + count


def _programme(hand: list[int], caps: list[int], touching: bool) -> Table:
    """For each slot (sets * 2 + pairs: 0-4 sets, 0-1 pair, at most ``caps`` of a kind) of
    these kinds (a suit's, or a run of them the sets cannot leave), the most of ``hand``
    it keeps and such a part (the module docstring). ``touching``: only sets and a pair
    that touch a kind of ``hand``."""
    size = len(hand)
    # touching: no more sets than tiles held (a set that keeps nothing more goes to free
    # kinds instead, or the whole-suit search runs)
    total = 0
    for n in hand:
        total += n
    most = 4 if not touching or total > 4 else total
    runs_a, runs_b, sets_of = _RUNS_A, _RUNS_B, _SETS_OF
    order: list[int] = [0]  # the states reached, in the order first reached
    kept = [-1] * _STATES  # the most kept so far (-1: not reached)
    kept[0] = 0
    levels: list[list[int]] = []  # per kind: state -> the state before * 8 + the count
    for i in range(size):
        cap, held = caps[i], hand[i]
        top = 0
        if i + 2 < size and (not touching or held or hand[i + 1] or hand[i + 2]):
            top = 2
        extras = held > 0 or not touching
        nxt = [-1] * _STATES
        nxt_order: list[int] = []
        back = [0] * _STATES
        for state in order:
            before = kept[state]
            pairs = state & 1
            sets = sets_of[state]
            a = runs_a[state]
            b = runs_b[state]
            for runs in range(top + 1):
                started = sets + runs
                low = a + b + runs
                if started > most or low > cap:
                    break
                key = (((runs * 3 + a) * 5) + started) * 2 + pairs
                # the runs alone, then a pung, then the pair, at this kind
                _reach(nxt, back, nxt_order, key, state, before, low, held)
                if not extras:
                    continue
                if low + 3 <= cap and started < most:
                    _reach(nxt, back, nxt_order, key + 2, state, before, low + 3, held)
                if low + 2 <= cap and not pairs:
                    _reach(nxt, back, nxt_order, key + 1, state, before, low + 2, held)
        levels.append(back)
        kept = nxt
        order = nxt_order
    out_kept = bytearray(_SLOTS)
    parts = [b""] * _SLOTS
    needs = [b""] * _SLOTS
    for key in order:
        if key >= _SLOTS:  # runs still open
            continue
        counts = bytearray(size)
        state = key
        for i in range(size - 1, -1, -1):
            step = levels[i][state]
            state = step >> 3
            counts[i] = step & 7
        out_kept[key] = kept[key] + 1
        parts[key] = bytes(counts)
        needs[key] = bytes([i for i in range(size) if counts[i] > hand[i]])
    return bytes(out_kept), tuple(parts), tuple(needs)
