"""Write ``pickled_0_1_0.pkl``: values pickled by chkobba 0.1.0, which
``tests/test_pickles_0_1_0.py`` reads with this version. Run with 0.1.0's sources first
on the path (a worktree of the release's commit), from the project's root:

    git worktree add /tmp/v010 3ecc727
    PYTHONPATH=/tmp/v010/src python tests/data/make_pickled_0_1_0.py

It is kept to say how the file was made; the tests never run it.
"""

from __future__ import annotations

import pickle
from pathlib import Path

from chkobba import TUNISIAN, __version__, apply, new_match, observe
from chkobba.arena import play_match, tournament
from chkobba.bots import GreedyBot, ISMCTSBot, RandomBot


def main() -> None:
    if __version__ != "0.1.0":
        raise SystemExit(f"run with 0.1.0's sources first on the path, not {__version__}'s")
    result = play_match([GreedyBot(seed=1), RandomBot(seed=2)], seed=3)
    record = result.record
    state = new_match(record.players, dealer=record.dealer)
    states = {0: state}
    for index, move in enumerate(record.moves, start=1):
        state = apply(state, move)
        if index % 40 == 0 or index == len(record.moves):
            states[index] = state
    values = {
        "version": __version__,
        "record_json": record.to_json(),
        "states": states,  # after that many of the record's moves
        "views": {
            index: observe(s, s.current_player)
            for index, s in states.items()
            if s.current_player is not None
        },
        "rules": TUNISIAN,
        "result": result,
        "table": tournament([GreedyBot(seed=1), RandomBot(seed=2)], games=2, seed=1),
        "bots": [GreedyBot(seed=1), RandomBot(seed=2), ISMCTSBot(iterations=50, seed=3)],
    }
    Path(__file__).with_name("pickled_0_1_0.pkl").write_bytes(pickle.dumps(values, protocol=4))


if __name__ == "__main__":  # (the suite imports this file for its doctests: nothing runs)
    main()
