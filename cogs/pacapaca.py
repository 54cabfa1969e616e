"""The Alpaca Pacapaca cog: the table, the secret Draw 2, the negotiation panel with its
deal editor, and the scoring shown step by step (UX.md, "Alpaca Pacapaca").

The turn buttons, the partner picker, the drawer's Keep panel and the negotiation
panel's Accept / Decline / Give up come from the game's spec (``bot.app.pacapaca``: its
presenter, :class:`bot.present.pacapaca.PacapacaPresenter`, and its renderers) and are
decoded by :class:`GameCog` into the engine's legal actions. This cog keeps what is special to the game:

- the negotiation panel (a side panel, :mod:`bot.discord.side_panel`: a public message
  holding the answers, edited in place while the talks go on, closed when they end);
- the deal editor (custom id codes, scope ``g``, ``<t>`` = the turn number so a panel
  of an older negotiation is refused): ``edit.<t>`` (opens the negotiator's ephemeral),
  selects ``give.<t>`` ("Cards I give") and ``get.<t>`` ("Cards I get"; past 25 cards a
  list is several selects ``give.<t>,p<k>``, all shown), button ``prop.<t>`` (Propose).
  Each select change re-draws the ephemeral with the chosen options marked as defaults,
  so the draft lives in the message itself; the draft's logic is the presenter's
  (:func:`bot.present.pacapaca.redraft`, :func:`~bot.present.pacapaca.deal_choice`).

Hidden cards appear only in their owner's ephemerals and DMs, drawn from their own view.
"""

from __future__ import annotations

import io
import logging
from typing import Any

import discord

from bot.discord import choices, ids
from bot.discord.choices import Option, split_selects
from bot.discord.components import button, select
from bot.discord.layout import card, fit_text, panel
from bot.discord.replies import edit_panel, send_ephemeral
from bot.discord.side_panel import PanelWords, SidePanelCog
from bot.discord.table import EMBED_LIMIT, Table
from bot.games.base import Event
from bot.games.pacapaca.engine import PacapacaEngine
from bot.games.pacapaca.models import PacapacaView
from bot.i18n import ENGLISH, N_, translate
from bot.present import pacapaca as present
from bot.present.pacapaca import Draft, PacapacaPresenter
from bot.render.pool import Job
from bot.runtime import GameError
from bot.store import SeatRecord

log = logging.getLogger(__name__)


def card_options(cards: list[int], chosen: set[int], lang: str = ENGLISH) -> list[Option]:
    """Deal editor options for ``cards`` (value = card id; ``chosen`` marked default), in
    ``lang``."""
    return [Option(label=label, value=str(c), description=blurb, default=c in chosen)
            for c, label, blurb in present.card_choices(cards, lang)]


class PacapacaCog(SidePanelCog):
    """Alpaca Pacapaca on Discord (registry key ``pacapaca``)."""

    kind = "pacapaca"
    panel_name = "negotiation panel"
    panel_called = N_("the negotiation panel")
    panel_opens = ("negotiation_started",)
    #: Events that close a negotiation opened earlier.
    panel_closes = ("traded", "negotiation_failed")

    # -- negotiation panel --------------------------------------------------------------

    def panel_open(self, table: Table) -> bool:
        """The negotiation panel shows while a negotiation runs."""
        return bool(table.view(None).phase == "negotiation")

    async def panel_words(self, table: Table) -> PanelWords:
        """The public negotiation panel: the presenter's words and answers, Edit deal (the
        deal editor) and My hand."""
        v: PacapacaView = table.view(None)
        neg = v.negotiation
        assert neg is not None
        a, p = table.names[neg.active], table.names[neg.partner]
        if table.deadline is None:  # not read with the game (an edit of the open panel)
            table.deadline = await self.bot.service.deadline(table.record.id)
        lang = table.lang
        lines = PacapacaPresenter.negotiation_lines(v, table.names, table.deadline, lang)
        gid = table.record.id
        model = self.model(table)
        items = [
            button("g", gid, f"edit.{v.turn_number}", present.editor_words(p, lang)["edit"],
                   style=discord.ButtonStyle.primary, disabled=neg.proposals_left <= 0),
            *self.draw(gid, model.key, model.items, keys=model.keys, prints=model.prints,
                       lang=lang),
            button("g", gid, "hand", translate(lang, "My hand"), emoji="\N{OPEN BOOK}",
                   style=discord.ButtonStyle.secondary),
        ]
        return PanelWords(title=present.panel_title(a, p, lang),
                          text="\n".join(lines)[:EMBED_LIMIT], items=items,
                          footer=translate(lang, "Move {move}", move=table.state.version))

    def closed_words(self, table: Table, event: Event) -> tuple[str, str]:
        """The closed negotiation's title and words (the presenter's)."""
        return PacapacaPresenter.closed_lines(table.view(None), event, table.names,
                                              lang=table.lang)

    # -- private -----------------------------------------------------------------------

    async def _keep_panel(self, table: Table, seat: str, intro: str) -> dict[str, Any]:
        """The drawer's ephemeral (a Components V2 panel): the presenter's Keep panel with
        the two cards pictured (``drawn.png``, named in its alternative text: they are the
        drawer's own) and a Keep button each (from the drawer's own view)."""
        lang = table.member_lang
        words = present.hand_words(lang)
        model = self.model(table, seat, lang=lang)
        keep = model.panels["keep"]
        drawn = table.view(seat).drawn
        data = await self.closeup(table, "cards", drawn, title=words["drawn_title"], lang=lang)
        return {"view": panel(accent=self.accent, words=intro + keep.text, picture="drawn.png",
                              alt=PacapacaPresenter.cards_alt(words["drawn_alt"], drawn, lang),
                              items=self.draw(table.record.id, model.key, keep.items,
                                              keys=model.keys, lang=lang), lang=lang),
                "file": discord.File(io.BytesIO(data), filename="drawn.png")}

    async def event_panel(self, table: Table, seat: str, event: Event) -> dict[str, Any] | None:
        """The drawer gets the two cards pictured with a Keep button each (ephemeral)."""
        if event.type == "drew_private" and "keep" in self.model(table, seat).panels:
            return await self._keep_panel(table, seat, "")
        return None

    async def private_panel(self, table: Table, seat: SeatRecord) -> dict[str, Any]:
        """My hand: the two drawn cards with Keep buttons while choosing; otherwise the
        player's own cards face down in the discard pile."""
        v: PacapacaView = table.view(seat.seat)
        assert self.presenter is not None
        lang = table.member_lang
        words = present.hand_words(lang)
        pile = self.presenter.private_lines(v, seat.seat, table.names, lang=lang)[0]
        if "keep" in self.model(table, seat.seat).panels:
            return await self._keep_panel(table, seat.seat, pile + "\n")
        if not v.my_discards:
            png = await self.closeup(table, "alpaca", v, seat.seat, names=table.plain_names,
                                     lang=lang)
            return {"view": panel(accent=self.accent,
                                  words=pile + " " + words["alpaca"],
                                  picture="my-alpaca.png",
                                  alt=PacapacaPresenter.alpaca_alt(v, seat.seat, lang)),
                    "file": discord.File(io.BytesIO(png), filename="my-alpaca.png")}
        data = await self.closeup(table, "cards", v.my_discards, title=words["discards_title"],
                                  lang=lang)
        return {"view": panel(accent=self.accent, words=pile + " " + words["discards"],
                              picture="my-discards.png",
                              alt=PacapacaPresenter.cards_alt(
                                  words["discards_alt"], v.my_discards, lang)),
                "file": discord.File(io.BytesIO(data), filename="my-discards.png")}

    # -- components ----------------------------------------------------------------------

    async def on_game_component(
        self, interaction: discord.Interaction, table: Table, seat: SeatRecord,
        cid: ids.ComponentId, values: list[str],
    ) -> None:
        """The deal editor's components (see the module docstring); the other choices are
        the presenter's, decoded by the base."""
        parts = cid.code.split(".")
        head = parts[0]
        if head not in ("edit", "give", "get", "prop") or len(parts) != 2 \
                or not parts[1].isdecimal():
            raise GameError("bad_button", "This button is not one herdbot understands.")
        v: PacapacaView = table.view(None)
        refused = present.editor_refusal(v, seat.seat, int(parts[1]), table.member_lang)
        if refused is not None:
            raise GameError(*refused)
        if head == "edit":
            await send_ephemeral(interaction, secret=True,
                                 **self._deal_panel(table, seat.seat, None))
        elif head in ("give", "get"):
            await self._draft_changed(interaction, table, seat.seat, head, values)
        else:
            draft = self._draft_of(interaction.message, v.turn_number)
            engine = table.spec.engine_as(PacapacaEngine)
            await self.act(interaction, table, seat,
                           present.deal_choice(engine, seat.seat, draft), version=-1)

    # -- the deal editor ------------------------------------------------------------------

    def _deal_panel(self, table: Table, seat: str, draft: Draft | None) -> dict[str, Any]:
        """The negotiator's ephemeral: "Cards I give" / "Cards I get" and Propose. Without
        a draft it starts from the deal on the table (seen from ``seat``'s side)."""
        v: PacapacaView = table.view(None)
        give, get = draft = present.table_draft(v, seat) if draft is None else draft
        other, mine, theirs = present.deal_sides(v, seat)
        gid, t = table.record.id, v.turn_number
        oname = table.names[other]
        plain = table.plain_names[other]  # placeholders and option labels render no markdown
        lang = table.member_lang
        words = present.editor_words(plain, lang)
        items: list[discord.ui.Item[Any]] = []
        # 4 rows for the selects (one per 25 cards), the 5th for Propose; 60 tradeable
        # cards in all never need more than 4 (tests/discord/test_selects.py).
        for code, cards, chosen, ph, empty in (
            ("give", mine, give, words["give"], words["give_none"]),
            ("get", theirs, get, words["get"], words["get_none"]),
        ):
            if cards:
                room = choices.MAX_ROWS - 1 - len(items) - (
                    choices.selects_needed(len(theirs)) if code == "give" else 0)
                items += split_selects("g", gid, f"{code}.{t}",
                                       card_options(cards, set(chosen), lang),
                                       placeholder=ph[:150], noun=words["cards"],
                                       max_selects=room)
            else:
                items.append(select("g", gid, f"{code}.{t}",
                                    [discord.SelectOption(label=empty[:100], value="none")],
                                    placeholder=empty[:150], disabled=True))
        items.append(button("g", gid, f"prop.{t}", words["propose"],
                            style=discord.ButtonStyle.success))
        return {"view": panel(accent=self.accent, words=present.deal_text(oname, draft, lang),
                              items=items)}

    @staticmethod
    def _draft_of(message: discord.Message | None, t: int) -> Draft:
        """``(cards given, cards got)`` chosen in the deal editor ``message`` of turn ``t``."""
        give, get = (present.card_ids(choices.chosen_values(message, f"{side}.{t}"))
                     for side in ("give", "get"))
        return give, get

    async def _draft_changed(self, interaction: discord.Interaction, table: Table, seat: str,
                             which: str, values: list[str]) -> None:
        """A select of the deal editor changed: the editor redrawn with the new draft."""
        t = table.view(None).turn_number
        cid = str(dict(interaction.data or {}).get("custom_id", ""))
        offered = choices.offered_values(interaction.message, f"{which}.{t}", cid)
        here = set(present.card_ids(offered)) if offered is not None else None
        draft = present.redraft(self._draft_of(interaction.message, t), which, here,
                                present.card_ids(values))
        kwargs = self._deal_panel(table, seat, draft)
        try:
            await edit_panel(interaction, private=True, **kwargs)
        except discord.HTTPException as exc:
            log.info("could not update the deal editor: %s", exc)

    # -- the end ---------------------------------------------------------------------------

    def end_picture(self, table: Table, inputs: dict[str, Any] | None = None) -> Job | None:
        """The end's own picture: every alpaca with its final scoring (the ``final``
        close-up of the spectator view)."""
        return Job(table.spec.closeups["final"], (table.view(None),),
                   {"names": table.plain_names, "lang": table.lang})

    def picture(self, table: Table, inputs: dict[str, Any] | None = None) -> Job | None:
        """The table picture (the base's job) drawn in the game's language."""
        job = super().picture(table, inputs)
        if job is not None:
            job.kwargs["lang"] = table.lang
        return job

    async def final_message(self, table: Table,
                            lines: list[str] | None = None) -> dict[str, Any]:
        """The end of the game as one Components V2 message's parts (``view`` and
        ``file``), shown in the last table message (no new message: UX.md "A quiet
        thread"): led by ``lines`` (the last moves, already named; the newest kept when
        long), the three scoring steps, then the totals with the final picture. Discord's 4,000 characters over a
        message's texts: 400 + 3 x 1,000 + 500 and the title stay under it (each cut is
        said with a count)."""
        steps = [fit_text(step, 1000, table.lang)
                 for step in PacapacaPresenter.scoring_steps(table.view(None), table.names,
                                                             table.lang)]
        job = self.end_picture(table)
        assert job is not None
        data = await self.bot.draw(job)
        head = "\n".join(f"\N{BULLET} {t}" for t in lines or [])
        if len(head) > 400:
            head = "\N{HORIZONTAL ELLIPSIS}" + head[-399:]  # the newest moves, the last kept
        view = card(accent=self.accent, before=[head, *steps], picture="final.png",
                    alt=self.alt_text(table, lines or []),
                    after=["### " + present.final_heading(table.spec.name, table.record.id,
                                                          table.lang),
                           fit_text(self.final_text(table), 500, table.lang), table.lesson],
                    footer=self.table_footer(table), lang=table.lang)
        return {"view": view, "file": discord.File(io.BytesIO(data), filename="final.png")}


async def setup(bot: Any) -> None:
    """Extension entry point."""
    await bot.add_cog(PacapacaCog(bot))


__all__ = ["PacapacaCog", "card_options", "setup"]
