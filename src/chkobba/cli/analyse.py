"""``chkobba analyse RECORD``: a game review by the strongest bot.

Every decision of the chosen seat (or of every seat) is replayed and the bot's
evaluation of each legal move is shown as expected deal points for the mover's side;
the moves that lost the most are listed at the end. ``--json`` prints the same as data.
"""

from __future__ import annotations

import contextlib
import json
import math

from chkobba.bots.analysis import MoveReview, review_record, worst
from chkobba.bots.ismcts import ISMCTSBot
from chkobba.bots.registry import BotSpec
from chkobba.cards import Card
from chkobba.cli.narrate import counted
from chkobba.cli.output import Output
from chkobba.cli.play import move_label, points
from chkobba.cli.replay import CommandError, load_record, record_name, tag_line
from chkobba.errors import ChkobbaError
from chkobba.moves import Cut
from chkobba.state import sides_of

__all__ = ["BLUNDER", "UsageError", "run_analyse"]


class UsageError(CommandError):
    """A bad argument that shows only as the command runs (a seat the record does not
    have): reported as argparse reports a bad argument, with exit status 2."""


#: A move that gives up at least this many expected deal points is flagged (and shown in
#: red); one that loses less is no mistake worth naming.
BLUNDER = 0.5


def _lost_much(review: MoveReview) -> bool:
    # Compared as the review prints the loss, to the hundredth: a loss of 0.496 reads
    # "loses 0.50 points", and a reader who sees that must see it flagged.
    return round(review.loss, 2) >= BLUNDER  # NaN (not tried): False


_VALUES = "the mover's side's expected deal points minus the opponents'"
# With three sides each for himself, the search's value is against the other two's mean.
_VALUES_3 = "the mover's side's expected deal points minus the mean of the other sides'"


def run_analyse(
    out: Output,
    path: str,
    *,
    seat: int | None,
    bot: BotSpec,
    seed: int,
    flagged: int,
    as_json: bool,
    game: int | None = None,
    err: Output | None = None,
) -> int:
    """Review the record at ``path`` (game number ``game`` of a file holding one record
    per line) and print the result; a progress bar on ``err`` while it runs, if that is
    a terminal."""
    name = record_name(path)
    evaluator = bot.build(seed=seed)
    if not isinstance(evaluator, ISMCTSBot):
        raise UsageError(f"argument --bot: {bot} cannot evaluate moves (use expert or ismcts)")
    record = load_record(path, name, game)
    if seat is not None and not 0 <= seat < record.players:
        raise UsageError(
            f"argument --seat: {record.players}-player record {name} has no player {seat} "
            f"(players 0 to {record.players - 1})"
        )
    try:
        # Replayed first (a fraction of the review's cost), so that an illegal move is
        # named as replay names it: move 3 (index 2), its text and the engine's reason.
        states = record.replay()
        with contextlib.ExitStack() as stack:
            advance = None
            if err is not None:
                advance = stack.enter_context(err.progress(len(record.moves), "reviewing moves"))
            reviews = review_record(
                record,
                seats=None if seat is None else (seat,),
                evaluator=evaluator,
                progress=advance,
            )
    except ChkobbaError as error:
        raise CommandError(f"{name}: {error}") from None
    # Only the moves that gave up a meaningful amount are flagged, the most first.
    lost = worst([review for review in reviews if _lost_much(review)], flagged)
    # A cut is judged by the card on top, which the cutter saw: named with the cut.
    tops = {
        review.index: states[review.index].stock[0]
        for review in reviews
        if isinstance(review.played, Cut)
    }
    if as_json:
        data = {
            "record": path,
            "game": game,
            "bot": str(bot),
            "seed": seed,
            "seat": seat,
            "moves": [_review_data(review, tops) for review in reviews],
            "worst": [review.index for review in lost],
            "tags": dict(record.tags),  # the record's, as replay shows them
        }
        out.line(json.dumps(data, indent=2))
        return 0
    values = _VALUES if sides_of(record.players) == 2 else _VALUES_3
    _print(out, name, reviews, lost, flagged, tag_line(record), values, tops)
    return 0


def _review_data(review: MoveReview, tops: dict[int, Card]) -> dict[str, object]:
    """A review's JSON object; a cut's with ``top``, the card it kept or exposed."""
    data: dict[str, object] = review.to_dict()
    if review.index in tops:
        data["top"] = str(tops[review.index])
    return data


def _played(review: MoveReview, tops: dict[int, Card]) -> str:
    """The move played, as the review prints it: a cut with the card on top."""
    label = move_label(review.played)
    top = tops.get(review.index)
    return label if top is None else f"{label} with {top.symbol} on top"


def _print(
    out: Output,
    name: str,
    reviews: list[MoveReview],
    lost: list[MoveReview],
    asked: int,
    tags: str | None,
    values: str,
    tops: dict[int, Card],
) -> None:
    out.line(f"analysing {out.literal(name)}: {counted(len(reviews), 'decision')}", "bold")
    if tags is not None:
        out.line(out.literal(tags))
    out.line(f"values: {values}")
    flagged = {review.index for review in lost}
    for review in reviews:
        much = _lost_much(review)
        # In words as well as in red: a pipe, --no-colour or a screen reader sees no colour.
        mark = "  <- lost the most" if review.index in flagged else "  <- a mistake" if much else ""
        style = "red" if much else None
        # A loss is unknown (NaN) when the search never tried the move played.
        loses = "not tried" if math.isnan(review.loss) else f"loses {points(review.loss, sign='')}"
        out.line(
            f"{review.index + 1}. player {review.player} played {_played(review, tops)}"
            f" ({loses}){mark}",
            style=style,
        )
        for item in review.ranked:
            out.line(f"     {points(item.value):>13}  {move_label(item.move)}", "dim")
    if lost:
        out.line("moves that lost the most:", "bold")
        for review in lost:
            out.line(
                f"  move {review.index + 1}, player {review.player}: {_played(review, tops)}"
                f" instead of {move_label(review.best.move)} (loses {points(review.loss, sign='')})"
            )
    elif asked:
        out.line(f"no move flagged: none lost {BLUNDER} points or more by the bot's reckoning")
