"""chkobba: a pure, typed rules engine for the Tunisian card game Chkobba.

Play a whole deal with random moves:

>>> import random
>>> from chkobba import new_match, legal_moves, apply, random_shuffle, Phase
>>> rng = random.Random(2026)
>>> state = new_match(players=2)
>>> while not state.deal_scores:
...     if state.phase is Phase.SHUFFLE:
...         state = apply(state, random_shuffle(rng))
...     else:
...         state = apply(state, rng.choice(legal_moves(state)))
>>> sum(len(pile) for pile in state.captured) + len(state.table)
40
>>> state.scores == state.deal_scores[0].points
True
"""

from chkobba.captures import capture_options
from chkobba.cards import DECK, Card, Rank, Suit, card, cards, format_cards
from chkobba.checks import check_state
from chkobba.engine import apply, illegal_reason, is_legal, legal_moves
from chkobba.errors import (
    ChkobbaError,
    IllegalMoveError,
    NotationError,
    RecordError,
    StaleMoveError,
)
from chkobba.events import MoveOutcome, apply_with_outcome
from chkobba.game import Game
from chkobba.moves import Cut, Move, Play, Shuffle, random_shuffle
from chkobba.notation import parse_move
from chkobba.records import Record
from chkobba.render import render
from chkobba.rollouts import rollout
from chkobba.rules import CARD_RULES_PLUS, PROFILES, TUNISIAN, Rules
from chkobba.scoring import DealScore, score_deal
from chkobba.state import Phase, State, new_match
from chkobba.views import (
    PlayerView,
    PublicView,
    check_public_view,
    check_view,
    observe,
    public_view,
)

__version__ = "0.2.0.dev0"

__all__ = [
    "CARD_RULES_PLUS",
    "DECK",
    "PROFILES",
    "TUNISIAN",
    "Card",
    "ChkobbaError",
    "Cut",
    "DealScore",
    "Game",
    "IllegalMoveError",
    "Move",
    "MoveOutcome",
    "NotationError",
    "Phase",
    "Play",
    "PlayerView",
    "PublicView",
    "Rank",
    "Record",
    "RecordError",
    "Rules",
    "Shuffle",
    "StaleMoveError",
    "State",
    "Suit",
    "apply",
    "apply_with_outcome",
    "capture_options",
    "card",
    "cards",
    "check_public_view",
    "check_state",
    "check_view",
    "format_cards",
    "illegal_reason",
    "is_legal",
    "legal_moves",
    "new_match",
    "observe",
    "parse_move",
    "public_view",
    "random_shuffle",
    "render",
    "rollout",
    "score_deal",
]
