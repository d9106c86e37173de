"""Settlement (SPEC section 5): base 4, F the fan total; fines paid to nobody."""

from __future__ import annotations

import pytest

from scoring.settlement import BASE, WinKind, apply_fines, settle

# (description, winner, kind, fan total, payer, point changes per seat)
CASES = [
    ("self-drawn: each other seat pays 4 + F", 2, WinKind.SELF_DRAWN, 7, None,
     [-11, -11, 33, -11]),
    ("self-drawn with no fan", 0, WinKind.SELF_DRAWN, 0, None, [12, -4, -4, -4]),
    ("discard: the discarder pays 4 + F, the others 4", 0, WinKind.DISCARD, 1, 3,
     [13, -4, -4, -5]),
    ("discard, big hand", 3, WinKind.DISCARD, 88, 1, [-4, -92, -4, 100]),
    ("robbed kong: the kong owner pays like a discarder", 1, WinKind.ROBBED_KONG, 3, 2,
     [-4, 15, -7, -4]),
    ("draw: no payment", None, None, 0, None, [0, 0, 0, 0]),
]


@pytest.mark.parametrize(("winner", "kind", "fans", "payer", "deltas"),
                         [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_settlement_of_each_kind_of_result(winner, kind, fans, payer, deltas):
    assert settle(winner, kind, fans, payer) == deltas


@pytest.mark.parametrize(("winner", "kind", "fans", "payer", "deltas"),
                         [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_settlement_is_zero_sum(winner, kind, fans, payer, deltas):
    assert sum(settle(winner, kind, fans, payer)) == 0


def test_base_is_four():
    assert BASE == 4


@pytest.mark.parametrize("winner", range(4))
@pytest.mark.parametrize("fans", [0, 1, 24, 88])
def test_every_seat_and_fan_total_settles_zero_sum(winner, fans):
    self_drawn = settle(winner, WinKind.SELF_DRAWN, fans)
    assert self_drawn[winner] == 3 * (BASE + fans) and sum(self_drawn) == 0
    for payer in range(4):
        if payer == winner:
            continue
        for kind in (WinKind.DISCARD, WinKind.ROBBED_KONG):
            deltas = settle(winner, kind, fans, payer)
            assert deltas[winner] == 3 * BASE + fans
            assert deltas[payer] == -(BASE + fans)
            assert sum(deltas) == 0


@pytest.mark.parametrize("kind", [WinKind.DISCARD, WinKind.ROBBED_KONG])
@pytest.mark.parametrize("payer", [None, 1])
def test_a_win_on_a_discard_needs_a_payer_other_than_the_winner(kind, payer):
    with pytest.raises(ValueError, match="payer"):
        settle(1, kind, 5, payer)


def test_fines_are_deducted_separately_and_paid_to_nobody():
    deltas = settle(0, WinKind.DISCARD, 6, 2)
    assert deltas == [18, -4, -10, -4]
    after = apply_fines(deltas, [0, 3, 0, 12])
    assert after == [18, -7, -10, -16]
    assert sum(after) == -15  # the fines leave the table


def test_fines_apply_on_a_draw_too():
    assert apply_fines(settle(None, None, 0), [1, 0, 0, 2]) == [-1, 0, 0, -2]


def test_fines_need_one_entry_per_seat():
    with pytest.raises(ValueError):
        apply_fines([0, 0, 0, 0], [1, 2, 3])
