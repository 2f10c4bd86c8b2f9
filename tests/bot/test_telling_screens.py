"""A saved move is laid out as screens before anything is sent
(`Teller.lay_out`, `bot.service.outcome.Tell`): what each person and the group
will be shown can be read as data, and `Sender.deliver` sends exactly that.

Played from a seeded 3-person game through the service's own command (the
Mini App's `Play.choose`), checked move by move until the turn has passed
twice: the player who goes on choosing gets the next question in the message
they answered; a turn that ends closes its prompt for good and the next
player's question goes out as a new message that rings; the group's table is
brought up to date, or its closed turn set in stone and the table posted anew.
"""

from __future__ import annotations

from bot.service.base import Actor
from bot.service.outcome import CloseTurn, Closing, Prompt, RepostView, ShowView, Tell
from bot.service.views import TABLE
from bot.store import Store
from engine import pending
from tests.bot.harness import Harness, people

GROUP = -100_250_001


async def test_a_move_is_laid_out_as_screens_and_delivered_as_laid_out(store: Store) -> None:
    h = Harness(store)
    users = people("Анна", "Борис", "Вера")
    by_id = {u.id: u for u in users}
    await h.open_game(GROUP, users[0], users[1:], seed=11)
    games = h.app.games
    turns_passed = went_on = 0
    while turns_passed < 2:
        table = await h.table(GROUP)
        ids = await store.messages(GROUP)
        assert table.state is not None
        decision = pending(table.state)
        assert decision is not None
        user_id = table.seats[decision.seat].user_id
        assert user_id is not None
        actor = Actor(user_id, by_id[user_id].full_name)
        sent_before = len(h.tg.requests)

        reply = await games.play.choose(actor, GROUP, table.game_no, decision.id, 0)

        assert len(h.tg.requests) == sent_before, "a command decides; it sends nothing"
        [tell] = reply.effects
        assert isinstance(tell, Tell)
        after = tell.table
        assert after.state is not None
        upcoming = pending(after.state)
        assert upcoming is not None
        prompts = [s for s in tell.private if isinstance(s, Prompt)]
        closings = [s for s in tell.private if isinstance(s, Closing)]
        mine = ids[f"prompt:{decision.seat}"]
        if upcoming.seat == decision.seat:
            # they go on choosing: the next question in the message they answered
            went_on += 1
            assert prompts == [p for p in prompts if p.edit == mine]
            assert [p.decision for p in prompts] == [upcoming.id]
            assert closings == [] and tell.forget == ()
            assert tell.group == (ShowView(TABLE),)
        else:
            turns_passed += 1
            # their prompt keeps its story, loses its buttons; the next asked rings
            assert [(c.user_id, c.message_id) for c in closings] == [(user_id, mine)]
            assert set(tell.forget) == {f"prompt:{decision.seat}", f"shown:{decision.seat}"}
            [prompt] = prompts
            assert (prompt.seat, prompt.decision, prompt.edit) == (upcoming.seat, upcoming.id, None)
            assert prompt.ring
            assert tell.group == (
                CloseTurn(TABLE, tuple(games.teller.render.closed_lines(after, after.state) or ())),
                RepostView(TABLE),
            )

        await h.app.telling.sender.deliver(tell)

        told = await store.messages(GROUP)
        assert told[f"shown:{upcoming.seat}"] == upcoming.id
        prompt_message = told[f"prompt:{upcoming.seat}"]
        next_user = after.seats[upcoming.seat].user_id
        assert next_user is not None
        assert prompts[0].text == h.tg.texts[(next_user, prompt_message)]
        if upcoming.seat != decision.seat:
            assert f"prompt:{decision.seat}" not in told
            assert closings[0].text == h.tg.texts[(user_id, mine)]
    assert went_on > 0, "the seed's turns have a player choosing twice"
