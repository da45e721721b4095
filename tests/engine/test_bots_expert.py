"""The expert bot: sampled worlds agree with its view, it keeps its budget, it plays
only legal moves, and it cannot read hidden state."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from modernart.engine import Game
from modernart.engine.bots import make_bot
from modernart.engine.bots.expert import ExpertBot
from modernart.engine.bots.selfplay import play_out
from modernart.engine.bots.worlds import PublicMemory, sample_world
from modernart.engine.cards import COPIES

VARIANTS = ["classic", "japanese"]


def _play_until(game: Game, steps: int, rng: random.Random, memory: PublicMemory) -> None:
    """Random legal play for `steps` actions (or to the last decision), events to `memory`."""
    bots = [make_bot("random", rng.randrange(1000)) for _ in range(game.n)]
    for _ in range(steps):
        seats = game.to_act()
        rng.shuffle(seats)
        action = None
        for seat in seats:
            action = bots[seat].choose(game.view(seat))
            if action is not None:
                memory.observe(game.apply({**action, "seat": seat}))
                break
        if action is None:
            memory.observe(game.apply({"type": "close"}))
        if game.finished:
            return


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(3, 5),
    steps=st.integers(0, 300),
    variant=st.sampled_from(VARIANTS),
    remember=st.booleans(),
)
def test_sampled_worlds_never_contradict_the_view(
    seed: int, players: int, steps: int, variant: str, remember: bool
) -> None:
    """R4/R14 secrecy held: a world built from one seat's view and the public events
    shows that seat exactly the same view, and never a card it has seen elsewhere."""
    rng = random.Random(seed)
    if players == 3 and rng.random() < 0.5:
        variant = "classic_3p_virtual"
    game = Game([f"p{i}" for i in range(players)], variant, seed=seed)
    memory = PublicMemory()
    _play_until(game, steps, rng, memory)
    assume(not game.finished)
    seat = rng.randrange(players)
    view = game.view(seat)
    world = sample_world(view, memory if remember else None, rng)
    assert world.view(seat) == view
    assert world.cards_in_play() == 70
    on_board = Counter(c for h in world.hands for c in h) + Counter(world.played)
    on_board += Counter(c for p in world.purchased for c in p)
    on_board += Counter(world.deck[world.deck_pos :])
    assert not on_board - Counter(COPIES)  # no card more often than R3 has it
    if remember:
        # Money follows from public payments: the world's is the true money.
        assert world.money == game.money
        # The hidden cards (other hands, the deck's rest) are exactly the ones never
        # shown, though dealt anew: the same multiset as the truth's.
        assert _hidden(world, seat) == _hidden(game, seat)


def _hidden(game: Game, seat: int) -> Counter[str]:
    cards = Counter(c for s, h in enumerate(game.hands) if s != seat for c in h)
    return cards + Counter(game.deck[game.deck_pos :])
