"""Mutation gaps of stop 82 (review 82I: 113 mutants of the lines 6170681..7f815e3 changed
in src/, 94 caught by the targeted files, 2 by others, 5 equivalent): each test fails on
one of the 12 real survivors, and passes on the code as it is."""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import stat
import sys
from pathlib import Path

import pytest

from chkobba import (
    TUNISIAN,
    ChkobbaError,
    Cut,
    Rules,
    State,
    apply,
    cards,
    new_match,
    random_shuffle,
)
from chkobba._files import write_atomically
from chkobba.cli.arguments import _seed
from chkobba.errors import shown
from chkobba.snapshots import deal_score_in
from tests.helpers import run_cli, spades_and_diamonds_score

# --- checks: the table's repeats, at the limit -------------------------------------------


def _mid_deal_with_table(table: str) -> str:
    """A Tunisian state after a round of lays that took nothing, its table ``table`` (10
    cards: the four dealt and six laid), new hands of three and 24 cards in the stock."""
    state = apply(apply(new_match(), random_shuffle(random.Random(3))), Cut(keep=True))
    data = state.to_dict()
    wanted = [str(c) for c in cards(table)]
    held = [c for hand in data["hands"] for c in hand]
    rest = [c for c in data["stock"] + data["table"] + held if c not in wanted]
    data.update(table=wanted, hands=[rest[:3], rest[3:6]], stock=rest[6:])
    return json.dumps(data)


def test_a_table_one_repeat_past_the_limit_is_refused() -> None:
    # Six cards laid on the four dealt, nothing taken: two pairs (the most four dealt
    # cards hold under Tunisian) read back, three do not.
    kept = "2C 2S 3H 3S 5C 6C 7S QS JS KS"
    assert State.from_json(_mid_deal_with_table(kept)).table == cards(kept)
    with pytest.raises(ChkobbaError) as caught:
        State.from_json(_mid_deal_with_table("2C 2S 3H 3S 4H 4S 5C 6C 7S KS"))
    assert str(caught.value).endswith(
        "repeats capture values 3 times: a card whose value is on the table captures, so "
        "only the four dealt can share one (2 repeats at most under the tunisian profile)"
    )


# --- errors: a repr of exactly the limit is whole ----------------------------------------


def test_a_repr_of_exactly_sixty_two_characters_is_not_cut() -> None:
    class Exact:
        def __repr__(self) -> str:
            return "X" * 62

    assert shown([Exact()], 300) == "[" + "X" * 62 + "]"
    assert shown([Exact()] * 2, 300).count("…") == 0


# --- rules: the whole range of noncharacters ---------------------------------------------


@pytest.mark.parametrize("character", ["\ufdd0", "\ufdef", "\ufffe", "\U0001ffff", "\U0010ffff"])
def test_every_noncharacter_is_refused_in_a_name_read_too(character: str) -> None:
    profile = {**TUNISIAN.to_dict(), "name": f"club {character}"}
    with pytest.raises(ChkobbaError, match=r"^rules: name must be printable text"):
        Rules.from_dict(profile)


# --- snapshots: a boolean in a deal score's tally ----------------------------------------


def test_a_boolean_in_a_tally_is_refused_by_the_reader_itself() -> None:
    data = {**spades_and_diamonds_score().to_dict(), "card_counts": [True, 13]}
    with pytest.raises(ChkobbaError) as caught:
        deal_score_in("deal_score", data)
    assert (
        str(caught.value)
        == "deal_score.card_counts[0] must be a whole number, not true (a boolean)"
    )


# --- files: the special bits of the mode are kept ----------------------------------------


@pytest.mark.skipif(not hasattr(os, "fchmod"), reason="POSIX permissions")
def test_saving_keeps_the_special_bits_of_the_mode(tmp_path: Path) -> None:
    target = tmp_path / "kept.json"
    target.write_bytes(b"x")
    target.chmod(0o1640)
    if stat.S_IMODE(target.stat().st_mode) != 0o1640:
        pytest.skip("this file system does not keep the sticky bit on a file")
    write_atomically(target, b"y")
    assert target.read_bytes() == b"y"
    assert stat.S_IMODE(target.stat().st_mode) == 0o1640


# --- arguments: what counts as a number too long -----------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        " " + "9" * 5000,
        "9" * 5000 + "\n",
        "1_" + "1" * 5000,
        "-" + "9" * 5000,
        "+" + "9" * 5000,
    ],
)
def test_every_form_int_reads_is_too_long_not_wrong(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match=r"has too many digits$"):
        _seed(text)


@pytest.mark.parametrize("text", ["12x", "1__2", "_12", "12_", "0x10", "1 2"])
def test_what_int_refuses_is_not_a_whole_number(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match=r"is not a whole number$"):
        _seed(text)


# --- replay: standard input closed, or holding what is not UTF-8 -------------------------


def test_replay_of_a_closed_text_stream_says_it_is_closed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    closed = io.StringIO()
    closed.close()
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdin", closed)
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    from chkobba.cli import main

    assert main(["replay", "-", "--no-boards"]) == 1
    assert "cannot read standard input: it is closed" in err.getvalue()


def test_replay_of_a_text_stream_holding_an_escaped_byte_names_the_byte() -> None:
    code, _, err = run_cli("replay", "-", "--no-boards", stdin='{"format": "\udcff"}\n')
    assert code == 1
    assert "not UTF-8 text: byte 12 is 0xff" in err


def test_the_seed_check_is_the_one_the_command_uses() -> None:
    # (The survivors above are _seed's: the command parses --seed with it.)
    code, _, err = run_cli("simulate", "--games", "1", "--seed", "12x")
    assert code == 2 and "'12x' is not a whole number" in err
