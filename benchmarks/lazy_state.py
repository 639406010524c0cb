"""How much a compact, lazily decoded ``State`` would save the step API (issue #8).

Usage::

    python benchmarks/lazy_state.py [--deals N] [--runs R] [--seed S]
    python benchmarks/lazy_state.py --check [--deals N]
    python benchmarks/lazy_state.py --only engine|prototype [--warmup W] [--deals N]

Issue #8 asks for a step API (``legal_moves`` + ``apply``) three times as fast as 0.1.0's
and suggests a compact internal form behind ``State`` whose public fields are decoded
lazily. This script measures that suggestion before anyone rebuilds the core around it.
It plays the random 2-player deals of ``benchmarks/playouts.py`` (its loop) two ways:
through the engine, and with every play going through a throwaway prototype of the lazy
design:

- the successor of a play stores only what the next ``legal_moves`` needs (hands,
  table, stock, the player to move) and the table's value signature, kept up to date
  play by play instead of summed again;
- the piles, chkobbas and last capturer are not built: each capture adds a link to a
  chain of gains, decoded once, when the deal ends;
- the hand and table updates are written inline, and the successor is a copy of the
  instance dict, as the engine's is;
- ``legal_moves`` and ``apply`` keep the engine's checks (the state's type, the phase,
  the move among the legal ones) and return the same ``Play`` objects in the same order.

``--check`` plays N deals both ways from the same seed and compares every final state
(the prototype is exact for the 2-player Tunisian profile, which is all it handles).
Without it the script alternates runs of both in this process and prints deals per
second and their medians; ``--only KIND`` plays ``--warmup`` deals and then ``--deals``
deals of one kind and nothing else, for an instruction count that does not drift::

    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        python benchmarks/lazy_state.py --only prototype --warmup 2000 --deals 300

(and the same with ``--deals 0``; the difference divided by 300 is the cost of a deal).
Measured at 1cc6239 (``--warmup 2000``): the engine 1.63 million instructions per deal
in this loop, the prototype 1.53 million, 6% less, where a step API three times as fast
as 0.1.0's (2.50 million) needs 0.83 million. Counted again at 0697bec (2026-12-06) the
engine takes 1.424 million and the prototype 1.472, 3% more: the engine has gone past
it. What the lazy design skips is not where a step's time goes; what every design keeps
is (the hand's plays as ``Play`` values, the move found among them, the new hands and
table, a new object per play, the random choice, the interpreter's calls between them).
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from _args import at_least_zero, positive

from chkobba import TUNISIAN, Phase, Play, State, apply, legal_moves, new_match, random_shuffle
from chkobba._plays import _LAY, _TAKE_ONE, _in_table_order, _lookup
from chkobba._successors import end_deal
from chkobba.cards import Card
from chkobba.errors import ChkobbaError

_SHUFFLE, _CUT, _PLAY = Phase.SHUFFLE, Phase.CUT, Phase.PLAY
_new, _set = object.__new__, object.__setattr__
_LOOKUP = _lookup(TUNISIAN)
_BIT = _LOOKUP.bit_of
#: A chain of gains: the previous link (or None), the capturer, the card played, the
#: cards taken and whether it swept the table.
Gains = tuple[Any, int, Card, frozenset[Card], bool] | None


def engine_deals(deals: int, seed: int) -> list[State]:
    """The final state of ``deals`` random deals through the engine."""
    return _deals(deals, seed, legal_moves, apply, _unchanged)


def prototype_deals(deals: int, seed: int) -> list[State]:
    """The same deals with every play through the prototype (shuffle and cut: the engine)."""
    return _deals(deals, seed, _legal_moves, _apply, _compact)


def _deals(
    deals: int,
    seed: int,
    legal: Callable[[State], tuple[Any, ...]],
    step: Callable[[State, Any], State],
    dealt: Callable[[State], State],
) -> list[State]:
    """playouts.py's loop of random deals, ``legal`` and ``step`` for every play and
    ``dealt`` applied to the state after the cut."""
    rng = random.Random(seed)
    choose = rng.choice
    ends = []
    for _ in range(deals):
        state = new_match()
        while not state.deal_scores:
            if state.phase is _SHUFFLE:
                state = apply(state, random_shuffle(rng))
            elif state.phase is _CUT:
                state = dealt(apply(state, choose(legal_moves(state))))
            else:
                state = step(state, choose(legal(state)))
        ends.append(state)
    return ends


def _unchanged(state: State) -> State:
    return state


def _compact(state: State) -> State:
    """A freshly dealt engine state in the prototype's form (once per deal)."""
    fields = state.__dict__.copy()
    if fields["phase"] is not _PLAY:  # a voided deal: back to the shuffle
        return state
    fields["_signature"] = sum(_BIT[c] for c in fields["table"])
    fields["_gains"] = None
    fields["_legal_plays"] = None
    for lazy in ("captured", "chkobbas", "last_capturer"):  # decoded at the deal's end
        del fields[lazy]
    made = _new(State)
    _set(made, "__dict__", fields)
    return made


def _legal_moves(state: State) -> tuple[Play, ...]:
    if type(state) is not State:
        raise ChkobbaError(f"{state!r} is not a State")
    fields = state.__dict__
    if fields["phase"] is not _PLAY:
        return ()
    plays: tuple[Play, ...] | None = fields["_legal_plays"]
    if plays is None:
        hand = fields["hands"][fields["current_player"]]
        plays = fields["_legal_plays"] = _hand_plays(hand, fields["table"], fields["_signature"])
    return plays


def _hand_plays(
    hand: tuple[Card, ...], table: tuple[Card, ...], signature: int
) -> tuple[Play, ...]:
    """chkobba._plays.hand_plays with the table's signature given (not summed again)."""
    entry = _LOOKUP.cache.get(signature)
    if entry is None:
        entry = _LOOKUP.kernel.entry(signature)
    options, key_of = entry[1], _LOOKUP.key_of
    by_value: list[Card] | None = None
    plays: list[Play] = []
    for held in hand:
        captures = options[key_of[held]]
        if not captures:
            plays.append(_LAY[held])
            continue
        if by_value is None:
            by_value = sorted(table, key=_LOOKUP.code_key)
        if len(captures) == 1:
            at = captures[0][1]
            if at >= 0:
                plays.append(_TAKE_ONE[held][by_value[at]])
            else:
                plays.append(Play(held, frozenset(map(by_value.__getitem__, captures[0][2]))))
        else:
            plays += _in_table_order(held, captures, by_value, table)
    return tuple(plays)


def _apply(state: State, move: Play) -> State:
    if type(move) is Play and type(state) is State:
        fields = state.__dict__
        plays = fields["_legal_plays"]
        if fields["phase"] is _PLAY and plays is not None and move in plays:
            return _play(fields, move.card, move.capture)
    raise ChkobbaError(f"the prototype plays only listed plays, not {move!r}")


def _play(fields: dict[str, Any], played: Card, capture: frozenset[Card]) -> State:
    """A play's successor in the prototype's form (2 players)."""
    player: int = fields["current_player"]
    hands: tuple[tuple[Card, ...], ...] = fields["hands"]
    hand = hands[player]
    at = hand.index(played)
    hand = hand[1:] if at == 0 else hand[:at] + hand[at + 1 :]
    hands = (hand, hands[1]) if player == 0 else (hands[0], hand)
    table: tuple[Card, ...] = fields["table"]
    stock: tuple[Card, ...] = fields["stock"]
    signature: int = fields["_signature"]
    gains: Gains = fields["_gains"]
    round_over = not hands[0] and not hands[1]
    last_card = round_over and not stock
    if capture:
        if len(capture) == 1:
            (taken,) = capture
            at = table.index(taken)
            table = table[1:] if at == 0 else table[:at] + table[at + 1 :]
            signature -= _BIT[taken]
        else:
            table = tuple(itertools.filterfalse(capture.__contains__, table))
            signature -= sum(map(_BIT.__getitem__, capture))
        sweep = not table and (not last_card or fields["rules"].last_card_chkobba)
        gains = (gains, player, played, capture, sweep)
    else:
        table = (*table, played)
        signature += _BIT[played]
    if last_card:
        return _end(fields, table, gains)
    if round_over:
        cutter = (fields["dealer"] + 1) % 2
        dealt, stock = stock[:6], stock[6:]
        hands = (dealt[cutter::2], dealt[1 - cutter :: 2])
        next_player = cutter
    else:
        next_player = 1 - player
    successor = fields.copy()
    successor["current_player"] = next_player
    successor["hands"] = hands
    successor["table"] = table
    successor["stock"] = stock
    successor["_signature"] = signature
    successor["_gains"] = gains
    successor["_attrs_cached_hash"] = None
    successor["_legal_plays"] = None
    made = _new(State)
    _set(made, "__dict__", successor)
    return made


def _end(fields: dict[str, Any], table: tuple[Card, ...], gains: Gains) -> State:
    """Decode the chain of gains and score the deal with the engine's end_deal."""
    links = []
    while gains is not None:
        links.append(gains)
        gains = gains[0]
    piles: list[list[Card]] = [[], []]
    chkobbas = [0, 0]
    last = None
    for _, player, played, capture, sweep in reversed(links):
        piles[player % 2] += (played, *sorted(capture, key=lambda card: card.index))
        chkobbas[player % 2] += sweep
        last = player
    start = fields.copy()
    for key in ("_signature", "_gains"):
        del start[key]
    start.update(captured=((), ()), chkobbas=(0, 0), last_capturer=None)
    state = _new(State)
    _set(state, "__dict__", start)
    return end_deal(state, table, (tuple(piles[0]), tuple(piles[1])), tuple(chkobbas), last)


_KINDS = {"engine": engine_deals, "prototype": prototype_deals}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__ and __doc__.splitlines()[0])
    parser.add_argument("--deals", type=at_least_zero, default=2000)
    parser.add_argument("--runs", type=positive, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--check", action="store_true", help="compare both ways' final states")
    parser.add_argument("--only", choices=sorted(_KINDS), help="play one kind only")
    parser.add_argument("--warmup", type=at_least_zero, default=0, help="with --only: deals first")
    args = parser.parse_args()
    if args.deals == 0 and not args.only:  # 0 is the base callgrind subtracts, with --only
        parser.error("argument --deals: 0 deals is a base to count with --only, not a timed run")
    if args.check:
        same = engine_deals(args.deals, args.seed) == prototype_deals(args.deals, args.seed)
        print(f"{args.deals} deals, the same final states both ways: {same}")
        raise SystemExit(0 if same else 1)
    if args.only:
        _KINDS[args.only](args.warmup, args.seed + 1)
        _KINDS[args.only](args.deals, args.seed)
        return
    for kind in _KINDS.values():  # warm the caches both share
        kind(args.deals, args.seed + 1)
    rates: dict[str, list[float]] = {name: [] for name in _KINDS}
    for run in range(args.runs):
        for name, kind in _KINDS.items():
            start = time.perf_counter()
            kind(args.deals, args.seed + run)
            rates[name].append(args.deals / (time.perf_counter() - start))
        print("  ".join(f"{name} {rates[name][-1]:7.0f}" for name in _KINDS), "deals/s")
    engine, prototype = (statistics.median(rates[name]) for name in _KINDS)
    ratio = prototype / engine
    print(f"median: engine {engine:.0f}, prototype {prototype:.0f} deals/s ({ratio:.2f}x)")


if __name__ == "__main__":
    main()
