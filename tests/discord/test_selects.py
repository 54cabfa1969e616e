"""Any number of choices in Discord: bot/discord/choices.py on its own (26, 100, 101, 250
options: every one reachable, every page within Discord's limits), then through the real
discord.py dispatch in the sandbox: an Unleashed hand of 30 cards plays its 30th card from
the panel, an 8-player Lasso picks the last of 28 targets, stale pages are refused in words,
and every message the bot sent keeps Discord's component limits."""

from __future__ import annotations

import pytest
import pytest_asyncio

from bot.discord import choices
from bot.discord.choices import Option, paged_select, parse_page, split_selects
from bot.discord.components import view_of
from bot.games.pacapaca.cards import catalog as pacapaca_catalog
from bot.games.registry import Registry
from bot.games.unleashed.models import Play
from tests.discord.conftest import make_bot
from tests.discord.test_unleashed import (
    CAT,
    install,
    new_bot,
    open_panel,
    play_card,
    start,
    state_of,
)
from tests.games.unleashed.unleashed_helpers import build
from tests.support import headline, rows, title
from tests.support.component_rules import assert_components_ok, component_problems

LEFT, RIGHT = "\N{BLACK LEFT-POINTING TRIANGLE}", "\N{BLACK RIGHT-POINTING TRIANGLE}"


def opts(n: int) -> list[Option]:
    return [Option(label=f"Card {i}", value=str(i), description=f"Text {i}") for i in range(n)]


def rendered(items) -> list[dict]:
    """The component dicts discord.py would send for ``items`` (with a Refresh button and
    two more buttons, as on the Unleashed panel)."""
    from bot.discord.components import button

    extra = [button("g", 1, "draw.1", "Draw a card"), button("g", 1, "proc.1.a", "End"),
             button("g", 1, "hand", "Refresh")]
    return view_of(*items, *extra).to_components()


def pages_of(n: int) -> list[list[dict]]:
    """Every page of a paged select of ``n`` options, reached by its own Next buttons."""
    out = []
    page = 0
    while True:
        comps = rendered(paged_select("g", 1, "ch.7", opts(n), placeholder="Pick one",
                                      noun="Cards", page=page))
        out.append(comps)
        nxt = [c for row in comps for c in row["components"]
               if c["type"] == 2 and parse_page(c["custom_id"].split(":", 4)[-1])[1] == "f"]
        if not nxt or nxt[0].get("disabled"):
            return out
        page = parse_page(nxt[0]["custom_id"].split(":", 4)[-1])[2] + 1


# -- the module on its own --------------------------------------------------------------


@pytest.mark.parametrize(("n", "pages"), [(1, 1), (25, 1), (26, 2), (100, 4), (101, 5),
                                          (250, 10)])
def test_every_option_is_on_exactly_one_page_within_discords_limits(n, pages):
    seen = []
    shown = pages_of(n)
    assert len(shown) == pages == choices.page_count(n)
    for k, comps in enumerate(shown):
        assert component_problems(comps) == []
        # The select alone in row 1; Previous, Next and the 3 other buttons share row 2.
        assert [len(row["components"]) for row in comps] == [1, 3 if pages == 1 else 5]
        sel = comps[0]["components"][0]
        assert sel["type"] == 3
        seen += [o["value"] for o in sel["options"]]
        if pages == 1:
            assert sel["custom_id"] == "hs:g:1:x:ch.7" and sel["placeholder"] == "Pick one"
        else:
            assert sel["custom_id"] == f"hs:g:1:x:ch.7,p{k}"
            first, last = 25 * k + 1, min(n, 25 * k + 25)
            assert sel["placeholder"] == f"Cards {first}-{last} of {n}: Pick one"
            prev, nxt = comps[1]["components"][:2]
            assert prev["custom_id"] == f"hb:g:1:x:ch.7,b{k}"
            assert nxt["custom_id"] == f"hb:g:1:x:ch.7,f{k}"
            assert prev.get("disabled", False) is (k == 0)
            assert nxt.get("disabled", False) is (k == pages - 1)
    # Values are the caller's (global), each on exactly one page, in order.
    assert seen == [str(i) for i in range(n)]


def test_page_labels_placeholders_and_clamping():
    items = paged_select("g", 1, "play.3", opts(60), placeholder="Play a card from your hand",
                         noun="Cards", page=1)
    sel, prev, nxt = (i.item for i in items)
    assert sel.placeholder == "Cards 26-50 of 60: Play a card from your hand"
    assert prev.label == f"{LEFT} Cards 1-25 of 60" and nxt.label == f"Cards 51-60 of 60 {RIGHT}"
    last = paged_select("g", 1, "play.3", opts(60), placeholder="x", noun="Cards", page=99)
    assert last[0].item.placeholder == "Cards 51-60 of 60: x"
    assert [o.value for o in last[0].item.options] == [str(i) for i in range(50, 60)]
    assert last[2].item.label == f"Next {RIGHT}" and last[2].item.disabled
    assert choices.page_of(opts(60), "57") == 2
    assert choices.span(2, 60, "Cards") == "Cards 51-60 of 60"


def test_options_a_maker_names_not_are_options_in_the_messages_language():
    items = paged_select("g", 1, "play.3", opts(60), placeholder="Wähle", page=1, lang="de")
    sel, prev, nxt = (i.item for i in items)
    assert sel.placeholder == "Optionen 26-50 von 60: Wähle"
    assert prev.label == f"{LEFT} Optionen 1-25 von 60"
    assert nxt.label == f"Optionen 51-60 von 60 {RIGHT}"
    [first, _] = split_selects("g", 1, "give.4", opts(40), placeholder="Choisis", lang="fr")
    assert first.item.placeholder == "Options 1 à 25 sur 40 : Choisis"
    english = paged_select("g", 1, "play.3", opts(30), placeholder="Pick")
    assert english[0].item.placeholder == "Options 1-25 of 30: Pick"


def test_a_paged_placeholder_is_one_sentence_each_language_words():
    """French puts a space before the colon; each language words the whole label."""
    fr = paged_select("g", 1, "play.3", opts(60), placeholder="Joue une carte", noun="Cartes",
                      page=1, lang="fr")
    assert fr[0].item.placeholder == "Cartes 26 à 50 sur 60 : Joue une carte"
    en = paged_select("g", 1, "play.3", opts(60), placeholder="Play a card", noun="Cards",
                      page=2, lang="en")
    assert en[0].item.placeholder == "Cards 51-60 of 60: Play a card"
    pl = split_selects("g", 1, "give.4", opts(30), placeholder="Wybierz", lang="pl")
    assert [s.item.placeholder for s in pl] == ["Opcje 1-25 z 30: Wybierz",
                                               "Opcje 26-30 z 30: Wybierz"]


def test_texts_are_cut_to_discords_limits_and_bad_options_refused():
    long = Option(label="L" * 130, value="v", description="D" * 130)
    sel = paged_select("g", 1, "c", [long], placeholder="P" * 200)[0].item
    option = sel.options[0]
    assert option.label == "L" * 99 + "\u2026" and option.description == "D" * 99 + "\u2026"
    assert sel.placeholder == "P" * 149 + "\u2026"
    with pytest.raises(ValueError, match="option values must be unique"):
        paged_select("g", 1, "c", [Option("a", "1"), Option("b", "1")], placeholder="p")
    with pytest.raises(ValueError, match="no options to offer"):
        paged_select("g", 1, "c", [], placeholder="p")
    with pytest.raises(ValueError, match="an option value must be 1-100 characters"):
        paged_select("g", 1, "c", [Option("a", "x" * 101)], placeholder="p")


def test_parse_page():
    assert parse_page("ch.7,p2") == ("ch.7", "p", 2)
    assert parse_page("field.3.12,b0") == ("field.3.12", "b", 0)
    assert parse_page("play.3,f11") == ("play.3", "f", 11)
    assert parse_page("play.3") == ("play.3", None, 0)
    assert parse_page("acc.2.5") == ("acc.2.5", None, 0)


def test_split_selects_each_its_own_id_and_the_row_budget():
    sels = split_selects("g", 1, "give.4", opts(60), placeholder="Cards I give", noun="Cards",
                         max_selects=3)
    assert [s.item.custom_id for s in sels] == ["hs:g:1:x:give.4,p0", "hs:g:1:x:give.4,p1",
                                                "hs:g:1:x:give.4,p2"]
    assert [(s.item.min_values, s.item.max_values, len(s.item.options)) for s in sels] == [
        (0, 25, 25), (0, 25, 25), (0, 10, 10)]
    assert sels[2].item.placeholder == "Cards 51-60 of 60: Cards I give"
    one = split_selects("g", 1, "give.4", opts(3), placeholder="Cards I give")
    assert [s.item.custom_id for s in one] == ["hs:g:1:x:give.4"]
    with pytest.raises(ValueError, match="76 options need 4 selects; only 3 rows are free"):
        split_selects("g", 1, "give.4", opts(76), placeholder="p", max_selects=3)


def test_pacapaca_deal_editor_never_needs_more_than_four_select_rows():
    """Both lists together hold at most every tradeable card (56 neck cards, 4 babies):
    however they are split, 4 selects of 25 hold them, leaving a row for Propose."""
    cat = pacapaca_catalog()
    total = len(cat.neck_deck) + len(cat.baby_ids)
    assert total == 60
    worst = max(choices.selects_needed(a) + choices.selects_needed(total - a)
                for a in range(total + 1))
    assert worst == 4


# -- in the sandbox, through discord.py ---------------------------------------------------


@pytest_asyncio.fixture
async def sb(world, clock, tmp_path):
    """The real bot with Llamas Unleashed, connected to ``world``."""
    sandbox = await world.connect(new_bot(tmp_path / "u.sqlite3", clock))
    yield sandbox
    await world.disconnect()


def _code(comp) -> str:
    return comp["custom_id"].split(":", 4)[-1]


async def test_a_hand_of_30_plays_its_30th_card_from_the_second_page(world, sb):
    ana = world.member("Ana")
    thread = await start(world)
    st = build(3, fields={"s0": ["cria_button"], "s1": ["lamb_acorn"], "s2": ["kid_clover"]})
    others = [c for c in st.deck if CAT[c].type in ("magic", "upgrade", "downgrade")][:29]
    animal = next(c for c in st.deck if CAT[c].key == "trail_llama")
    st.hands["s0"] = [*others, animal]
    st.deck = [c for c in st.deck if c not in st.hands["s0"]]
    await install(world, sb.bot, st)
    panel = await open_panel(ana, thread)
    assert title(panel) == "Your hand (30 cards)"
    # One option per legal play (the Trail Llama, last in the hand, has one per Field).
    legal = (await sb.bot.game_cog("llamas-unleashed").load_table(1)).legal("s0")
    plays = [i for i, a in enumerate(legal) if isinstance(a, Play)]
    n = len(plays)
    assert n > 28 and legal[plays[-1]] == Play(card=animal, field="s2")
    sel = panel.selects()
    assert len(sel) == 1 and _code(sel[0]).startswith("s.") and _code(sel[0]).endswith(",p0")
    assert len(sel[0]["options"]) == 25
    assert sel[0]["placeholder"] == f"Cards 1-25 of {n}: Play a card from your hand"
    assert panel.labels == [f"{LEFT} Previous", f"Cards 26-{n} of {n} {RIGHT}", "Draw a card",
                            "Refresh"]
    assert panel.is_disabled(f"{LEFT} Previous")
    await ana.click(panel, f"Cards 26-{n} of {n} {RIGHT}")
    # The same ephemeral, edited in place, shows page 2.
    page2 = ana.last_reply
    assert page2.id == panel.id and page2.ephemeral
    sel = page2.selects()[0]
    assert _code(sel).endswith(",p1")
    assert sel["placeholder"] == f"Cards 26-{n} of {n}: Play a card from your hand"
    assert [o["value"] for o in sel["options"]] == [str(i) for i in plays[25:]]
    assert [o["label"] for o in sel["options"]][-3:] == [
        "Trail Llama: your Field", "Trail Llama: Bo's Field", "Trail Llama: Cy's Field"]
    assert page2.labels[:2] == [f"{LEFT} Cards 1-25 of {n}", f"Next {RIGHT}"]
    await ana.select(page2, [str(legal.index(Play(card=animal, field="s0")))],
                     custom_id=sel["custom_id"])
    after = await state_of(sb.bot)
    assert animal in after.fields["s0"] and len(after.hands["s0"]) == 29
    # The follow-up panel shows the plays left (the Llama's three are gone), from page 1.
    fresh = ana.last_reply
    assert fresh.id != panel.id
    assert fresh.selects()[0]["placeholder"] == f"Cards 1-25 of {n - 3}: Play a card from your hand"
    # The turn moves on (a draw ends the Action phase); the old page is out of date.
    await ana.click(fresh, "Draw a card")
    assert (await state_of(sb.bot)).choice is not None  # discarding down to the limit
    await ana.click(page2, f"{LEFT} Cards 1-25 of {n}")
    assert headline(ana.last_reply) == "This table has moved on. Here is the current one:"
    assert assert_components_ok(world) >= 5


NAMES8 = ("Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal")
BASICS = ["trail_llama", "highland_llama", "sleepy_llama", "suri_alpaca", "huacaya_alpaca",
          "shy_alpaca", "meadow_goat", "cliff_goat", "bearded_goat", "woolly_ram",
          "curlhorn_ram", "hilltop_ram"] * 2


@pytest.fixture
def members() -> tuple[str, ...]:
    return NAMES8


@pytest.mark.parametrize(("n", "targets"), [(7, 30), (8, 28)])
async def test_a_lasso_at_7_and_8_players_steals_the_last_of_more_than_25_targets(
        world, sb, n, targets):
    ana = world.member("Ana")
    thread = await start(world, NAMES8[:n])
    babies = [k for k, d in CAT.designs.items() if d.type == "baby"]
    per = 24 // (n - 1)  # Basic Animals in each other Field, a Baby besides
    fields = {"s0": [babies[0]]}
    for i in range(1, n):
        fields[f"s{i}"] = [babies[i], *BASICS[per * (i - 1):per * i]]
    st = build(n, hands={"s0": ["lasso"]}, fields=fields)
    await install(world, sb.bot, st)
    panel = await open_panel(ana, thread)
    await play_card(sb, ana, panel, st.hands["s0"][0])
    chooser = ana.last_reply
    assert headline(chooser) == "**Choose a card to steal (Lasso):**"
    choice = (await state_of(sb.bot)).choice
    assert choice is not None and len(choice.options) == targets
    last = choice.options[-1]
    assert last.seat is None and last.card in st.fields[f"s{n - 1}"]
    sel = chooser.selects()
    assert len(sel) == 1 and _code(sel[0]).startswith("s.") and _code(sel[0]).endswith(",p0")
    assert sel[0]["placeholder"] == f"Options 1-25 of {targets}: Choose a card to steal (Lasso):"
    # Next, then the last option (its value is its index in the engine's list).
    await ana.click(chooser, f"Options 26-{targets} of {targets} {RIGHT}")
    page2 = ana.last_reply
    assert page2.id == chooser.id
    sel = page2.selects()[0]
    assert _code(sel).endswith(",p1")
    assert [o["value"] for o in sel["options"]] == [str(i) for i in range(25, targets)]
    name = CAT[last.card].name
    assert sel["options"][-1]["label"] == f"{name} ({NAMES8[n - 1]})"
    await ana.select(page2, [str(targets - 1)], custom_id=sel["custom_id"])
    after = await state_of(sb.bot)
    assert after.choice is None
    assert last.card in after.fields["s0"] and last.card not in after.fields[f"s{n - 1}"]
    assert f"Ana steals {name} from {NAMES8[n - 1]}" in thread.last_message.text
    # Every message of the game kept Discord's component limits.
    assert assert_components_ok(world) >= 8


async def test_pacapaca_deal_editor_offers_all_30_neck_cards_in_two_selects(world, clock,
                                                                          tmp_path):
    """A neck of 30 cards: "Cards I give" is two selects (25 + 5) with their own ids; a
    card chosen in each is kept when the other changes, and Propose sends both."""
    from bot.app import builtin_games

    PSPEC = builtin_games()["pacapaca"]
    from tests.support.pacapaca_ui import EXTENSIONS, GID

    bot = make_bot(tmp_path / "p.sqlite3", clock, registry=Registry([PSPEC]),
                   extensions=EXTENSIONS)
    await world.connect(bot)
    ana, bo = world.member("Ana"), world.member("Bo")
    await ana.slash("play", game="pacapaca")
    lobby = ana.last_reply
    await bo.click(lobby, "Join")
    await ana.click(lobby, "Start")
    thread = lobby.thread
    engine = PSPEC.engine
    rec = await bot.store.get_game(GID)
    st = engine.load_state(rec.state)
    me, other = st.seats[st.active], st.seats[1 - st.active]
    # Test set-up: 30 neck cards for the active player, 3 for the other, from the
    # catalog's neck deck (a 2-player game deals fewer).
    free = [c for c in pacapaca_catalog().neck_deck
            if all(c not in a.neck for a in st.alpacas.values())][:33]
    st.alpacas[me].neck, st.alpacas[other].neck = free[:30], free[30:]
    st.deck = [c for c in st.deck if c not in free]
    st.version = rec.version + 1
    await bot.store.commit_action(GID, expected_version=rec.version,
                                  state=st.model_dump_json(), version=st.version, seat="test",
                                  action={"type": "setup"}, events=[])
    am = ana if me == "s0" else bo
    cog = bot.game_cog("pacapaca")
    await cog.post_table(await cog.load_table(GID))
    await world.settle()
    table = [m for m in am.visible(thread) if not m.ephemeral and rows(m)][-1]
    await am.click(table, "Negotiate")
    await am.select(am.last_reply, [am.last_reply.selects()[0]["options"][0]["label"]])  # other
    panel = [m for m in am.visible(thread) if not m.ephemeral and rows(m)][-1]
    await am.click(panel, "Edit deal")
    editor = am.last_reply
    t = (await bot.service.load(GID))[3].turn_number
    assert [_code(s) for s in editor.selects()] == [f"give.{t},p0", f"give.{t},p1", f"get.{t}"]
    give0, give1, get = editor.selects()
    assert give0["placeholder"] == "Cards 1-25 of 30: Cards I give"
    assert give1["placeholder"] == "Cards 26-30 of 30: Cards I give"
    assert (len(give0["options"]), give0["max_values"]) == (25, 25)
    assert (len(give1["options"]), give1["max_values"]) == (5, 5)
    offered = {o["value"] for s in (give0, give1) for o in s["options"]}
    assert offered == {str(c) for c in st.alpacas[me].neck}  # none left out
    first, last = give0["options"][0]["value"], give1["options"][-1]["value"]
    await am.select(editor, [last], custom_id=give1["custom_id"])
    editor = am.last_reply
    await am.select(editor, [first], custom_id=give0["custom_id"])
    editor = am.last_reply
    wanted = editor.selects()[2]["options"][0]["value"]
    await am.select(editor, [wanted], custom_id=editor.selects()[2]["custom_id"])
    editor = am.last_reply
    await am.click(editor, "Propose")
    neg = (await bot.service.load(GID))[3].negotiation
    assert sorted(neg.active_gives) == sorted([int(first), int(last)])
    assert neg.partner_gives == [int(wanted)]
    assert assert_components_ok(world) >= 5
    await world.disconnect()


def test_a_single_select_refuses_more_than_25_options_instead_of_cutting():
    from bot.discord.components import select

    many = [o.select_option() for o in opts(26)]
    with pytest.raises(ValueError, match="a select holds 1-25 options, not 26"):
        select("g", 1, "c", many)
    with pytest.raises(ValueError, match="a select holds 1-25 options, not 0"):
        select("g", 1, "c", [])
    assert len(select("g", 1, "c", many[:25]).item.options) == 25


async def test_a_table_works_out_each_seats_legal_actions_and_view_once(world, sb, monkeypatch):
    await start(world)
    cog = sb.bot.game_cog("llamas-unleashed")
    table = await cog.load_table(1)
    engine = table.spec.engine
    real_legal, real_view = engine.legal_actions, engine.view
    calls: list[tuple[str, str | None]] = []

    def legal(state, seat):
        calls.append(("legal", seat))
        return real_legal(state, seat)

    def view(state, seat):
        calls.append(("view", seat))
        return real_view(state, seat)

    monkeypatch.setattr(engine, "legal_actions", legal)
    monkeypatch.setattr(engine, "view", view)
    first = table.legal("s0")
    assert first == real_legal(table.state, "s0") and len(first) > 0
    assert table.legal("s0") is first
    assert table.view(None) is table.view(None)
    assert table.legal("s1") == real_legal(table.state, "s1")
    assert calls == [("legal", "s0"), ("view", None), ("legal", "s1")]
    again = await cog.load_table(1)  # a new table (a new state) works them out again
    assert again.legal("s0") == first and calls[-1] == ("legal", "s0") and len(calls) == 4
