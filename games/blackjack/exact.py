"""House edges by recursive analysis over the shoe's composition.

* :func:`insurance_edge` -- exact (``Fraction``): for every player two-card hand that is
  offered insurance against an ace, the chance of a ten-value hole card in the 311-card
  rest of the shoe, weighted by the chance of that hand.
* :func:`buster_edge` -- exact (``Fraction``): every dealer drawing sequence from a full shoe
  (up card, hole card, draws under the table's soft-17 rule; a dealer natural stops), grouped
  by the multiset of cards drawn, so each state is computed once. The player's cards are not
  removed: the usual convention for a side bet on the dealer's hand alone, stated in the
  method string. Result: the bust probability by number of cards, then the edge.
* :func:`main_edge` -- the main bet under the table's strategy chart (the very chart the
  simulator and autoplay play), float64. For each player two-card hand and dealer up card the
  dealer's final-total probabilities are computed composition-dependently from the shoe less
  those three cards and conditioned on the peek (no dealer natural); the player's draws are
  composition-dependent along each path; doubles, the single split (both hands from the same
  depleted shoe, evaluated independently) and split aces (one card, 21 is not a blackjack)
  follow the rules. Not removed from the dealer's shoe: the player's hit cards; the player's
  draws are not conditioned on the peek. Those two effects are below 1e-4 of a unit (the
  analysis agrees with the 10^7-round simulation, bench/results/blackjack.md), so the figure
  is reported with ``exact=False`` and four significant digits of meaning.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from fractions import Fraction

from games.blackjack.hand import dealer_hits, total_of_points
from games.blackjack.rules import BlackjackRules
from games.blackjack.strategy import Chart, choose, load_chart

Shoe = tuple[int, ...]  # counts of points 1..10 at index 0..9


def full_shoe(decks: int) -> Shoe:
    return tuple([4 * decks] * 9 + [16 * decks])


def _minus(shoe: Shoe, *pts: int) -> Shoe:
    counts = list(shoe)
    for p in pts:
        counts[p - 1] -= 1
    return tuple(counts)


# --- insurance ------------------------------------------------------------------


def insurance_edge(rules: BlackjackRules) -> Fraction:
    """House edge per unit of insurance wagered, exact over the shoe composition."""
    shoe = _minus(full_shoe(rules.decks), 1)  # the dealer's ace is known
    n = sum(shoe)
    weight_sum = Fraction(0)
    edge_sum = Fraction(0)
    for a in range(1, 11):
        for b in range(a, 11):
            natural = {a, b} == {1, 10}
            if natural and rules.even_money:
                continue  # offered even money, not insurance
            ca = shoe[a - 1]
            cb = shoe[b - 1] - (1 if a == b else 0)
            if ca <= 0 or cb <= 0:
                continue
            ways = ca * cb * (1 if a == b else 2)
            weight = Fraction(ways, n * (n - 1))
            rest = _minus(shoe, a, b)
            p_ten = Fraction(rest[9], sum(rest))
            ratio = Fraction(rules.insurance_pays.num, rules.insurance_pays.den)
            player_ev = p_ten * ratio - (1 - p_ten)
            weight_sum += weight
            edge_sum += weight * -player_ev
    return edge_sum / weight_sum


# --- dealer bust sequences (Buster Bet) -------------------------------------------


def dealer_bust_by_cards(rules: BlackjackRules) -> dict[int, Fraction]:
    """Exact P(dealer busts with n cards) from a full shoe (0 key: does not bust)."""
    base = full_shoe(rules.decks)

    @functools.cache
    def walk(drawn: Shoe) -> dict[int, Fraction]:
        pts = [p + 1 for p in range(10) for _ in range(drawn[p])]
        ncards = len(pts)
        total, soft = total_of_points(pts)
        if ncards == 2 and total == 21:
            return {0: Fraction(1)}  # dealer natural: stands, no bust
        if ncards >= 2 and not dealer_hits(total, soft, rules.dealer_hits_soft_through):
            return {ncards if total > 21 else 0: Fraction(1)}
        left = [base[i] - drawn[i] for i in range(10)]
        n = sum(left)
        out: dict[int, Fraction] = {}
        for i in range(10):
            if left[i] == 0:
                continue
            p = Fraction(left[i], n)
            nxt = list(drawn)
            nxt[i] += 1
            for k, q in walk(tuple(nxt)).items():
                out[k] = out.get(k, Fraction(0)) + p * q
        return out

    return walk((0,) * 10)


def buster_edge(rules: BlackjackRules) -> Fraction:
    """House edge of the Buster Bet per unit wagered, exact (see the module docstring)."""
    dist = dealer_bust_by_cards(rules)
    ev = Fraction(0)
    for cards, p in dist.items():
        odds = rules.buster_pay(cards) if cards else None
        ev += p * (Fraction(odds.num, odds.den) if odds is not None else -1)
    return -ev


# --- main bet under the strategy chart -----------------------------------------------

_STAND_KEYS = (17, 18, 19, 20, 21, 22)  # 22 = bust


def _dealer_dist(shoe: Shoe, up: int, rules: BlackjackRules) -> tuple[list[float], float]:
    """Dealer final totals given no natural (index 0..5 for 17..21, bust), and P(natural)."""
    hits = rules.dealer_hits_soft_through
    memo: dict[Shoe, list[float]] = {}

    def walk(drawn: Shoe) -> list[float]:
        got = memo.get(drawn)
        if got is not None:
            return got
        pts = [up] + [p + 1 for p in range(10) for _ in range(drawn[p])]
        total, soft = total_of_points(pts)
        if not dealer_hits(total, soft, hits):
            res = [0.0] * 6
            res[min(total, 22) - 17] = 1.0
            memo[drawn] = res
            return res
        left = [shoe[i] - drawn[i] for i in range(10)]
        n = sum(left)
        res = [0.0] * 6
        for i in range(10):
            if left[i] == 0:
                continue
            p = left[i] / n
            nxt = list(drawn)
            nxt[i] += 1
            sub = walk(tuple(nxt))
            for k in range(6):
                res[k] += p * sub[k]
        memo[drawn] = res
        return res

    n = sum(shoe)
    res = [0.0] * 6
    p_natural = 0.0
    for i in range(10):
        if shoe[i] == 0:
            continue
        p = shoe[i] / n
        if {up, i + 1} == {1, 10}:
            p_natural += p
            continue
        first = [0] * 10
        first[i] = 1
        sub = walk(tuple(first))
        for k in range(6):
            res[k] += p * sub[k]
    scale = 1.0 - p_natural
    return [x / scale for x in res], p_natural


def _stand_ev(total: int, dealer: list[float]) -> float:
    if total > 21:
        return -1.0
    ev = dealer[5]  # dealer busts
    for k in range(5):
        d = 17 + k
        if total > d:
            ev += dealer[k]
        elif total < d:
            ev -= dealer[k]
    return ev


def _hand_ev(
    chart: Chart,
    rules: BlackjackRules,
    shoe: Shoe,
    up: int,
    dealer: list[float],
) -> Callable[[tuple[int, ...], bool, bool], float]:
    """EV of playing a hand (its card points) by the chart; memoised per call.

    ``shoe`` is the shoe *before* this hand's own cards are removed (less the up card and any
    other player card), so the hand's cards are taken out along each path.
    """
    memo: dict[tuple[tuple[int, ...], bool, bool], float] = {}

    def play(cards: tuple[int, ...], first: bool, split_hand: bool) -> float:
        key = (cards, first, split_hand)
        got = memo.get(key)
        if got is not None:
            return got
        total, soft = total_of_points(cards)
        if total >= 21:
            res = _stand_ev(total, dealer)
            memo[key] = res
            return res
        can_double = first and (not split_hand or rules.double_after_split)
        decision = choose(
            chart,
            total,
            soft,
            None,
            up,
            can_double=can_double,
            can_split=False,
            can_surrender=False,
        )
        if decision == "stand":
            res = _stand_ev(total, dealer)
        else:
            left = list(shoe)
            for c in cards:
                left[c - 1] -= 1
            n = sum(left)
            res = 0.0
            for i in range(10):
                if left[i] <= 0:
                    continue
                p = left[i] / n
                nxt = tuple(sorted((*cards, i + 1)))
                if decision == "double":
                    t, _ = total_of_points(nxt)
                    res += p * 2.0 * _stand_ev(t, dealer)
                else:
                    res += p * play(nxt, False, split_hand)
        memo[key] = res
        return res

    return play


def _split_ev(
    chart: Chart, rules: BlackjackRules, after_up: Shoe, up: int, dealer: list[float], c: int
) -> float:
    """EV of splitting a pair of ``c`` (two hands, each staked 1) from the shoe less the up card."""
    pool = _minus(after_up, c)  # the other hand's card is gone
    play = _hand_ev(chart, rules, pool, up, dealer)
    shoe = _minus(pool, c)
    n = sum(shoe)
    one = 0.0
    for i in range(10):
        if shoe[i] == 0:
            continue
        p = shoe[i] / n
        cards = tuple(sorted((c, i + 1)))
        if c == 1 and rules.split_aces_one_card:
            t, _ = total_of_points(cards)
            one += p * _stand_ev(t, dealer)  # a split-aces 21 is a 21, not a blackjack
        else:
            one += p * play(cards, True, True)
    return 2.0 * one


def main_edge(rules: BlackjackRules) -> float:
    """House edge of the main bet per initial unit, playing the table's chart (float64)."""
    if rules.surrender_min_total is not None or rules.bust_push_totals or rules.max_hands > 2:
        raise ValueError("main_edge analyses the Pinnacle rule set only; use the simulation")
    chart = load_chart(rules.strategy)
    base = full_shoe(rules.decks)
    n = sum(base)
    natural_pay = rules.natural_pays.num / rules.natural_pays.den
    total_ev = 0.0
    for up in range(1, 11):
        p_up = base[up - 1] / n
        after_up = _minus(base, up)
        m = sum(after_up)
        for a in range(1, 11):
            for b in range(a, 11):
                ca = after_up[a - 1]
                cb = after_up[b - 1] - (1 if a == b else 0)
                if ca <= 0 or cb <= 0:
                    continue
                p_hand = ca * cb * (1 if a == b else 2) / (m * (m - 1))
                shoe = _minus(after_up, a, b)
                dealer, p_nat = _dealer_dist(shoe, up, rules)
                if {a, b} == {1, 10}:
                    ev = (1.0 - p_nat) * natural_pay  # push against a dealer natural
                else:
                    play = _hand_ev(chart, rules, after_up, up, dealer)
                    cards = (a, b)
                    total, soft = total_of_points(cards)
                    can_split = True
                    decision = choose(
                        chart,
                        total,
                        soft,
                        a if a == b else None,
                        up,
                        can_double=True,
                        can_split=can_split and a == b,
                        can_surrender=False,
                    )
                    if decision == "split":
                        ev_play = _split_ev(chart, rules, after_up, up, dealer, a)
                    else:
                        ev_play = play(cards, True, False)
                    ev = p_nat * -1.0 + (1.0 - p_nat) * ev_play
                total_ev += p_up * p_hand * ev
    return -total_ev
