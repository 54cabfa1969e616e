"""The Llamas & Alpacas table in Discord (UX.md: "Llamas & Alpacas").

Everything in this game is public except the order of the draw pile, so every step is
played with public buttons on the table message; only the active player may press them
(anyone else is told whose turn it is by the engine's refusal):

- set-up (phase ``"setup"``): a 3x3 grid ``"1 · free"`` ... ``"9 · free"``; each player who
  still holds a starting card presses one, in any order (these buttons carry no version,
  so two players placing at the same moment both succeed).
- turn: ``"Take 1 (free)"``, ``"Take 3 (1🍀 1🥕)"`` ... (disabled when unaffordable) and
  ``"Move a card"`` (disabled without a legal move). Move opens an ephemeral panel for
  the active player: a from-space grid, then a to-space grid.
- keep-treats: a select of the splits (``"Keep 6 clovers, 4 carrots"``).
- choose-space: the 3x3 grid of the active player's board; occupied spaces are disabled,
  unless the board is full, when each button names the card it replaces.

Custom-id codes (all but set-up with the table's state version): ``st.<space>`` (set-up),
``pl.<space>``, ``tk.<position>``,
``mv`` (open the move panel), ``mf.<src>`` (move: from-space chosen), ``mt.<src>.<dst>``,
and the select ``kp`` whose value is the number of clovers kept.
"""

from __future__ import annotations

import io
import random
from typing import TYPE_CHECKING, Any

import discord

from bot.discord import ids
from bot.discord.choices import Option, paged_select
from bot.discord.components import button, view_of
from bot.discord.game_cog import GameCog, Table, named
from bot.discord.replies import defer, edit_panel, send_ephemeral, send_error
from bot.games.base import Event
from bot.games.llamas_alpacas.engine import LlamasAlpacasEngine
from bot.games.llamas_alpacas.models import (
    TREAT_LIMIT,
    Keep,
    LlamasAlpacasState,
    LlamasAlpacasView,
    Move,
    Place,
    PlayerView,
    Take,
    TakeCost,
)
from bot.render.llamas_alpacas import board_picture, render_table, warm_up
from bot.runtime import GameError, Update, UpdateKind
from bot.store import SeatRecord

if TYPE_CHECKING:
    from bot.discord.bot import HerdBot

CLOVER = "\N{FOUR LEAF CLOVER}"
CARROT = "\N{CARROT}"

#: Names used on the /rules example picture.
EXAMPLE_NAMES = {"s0": "Maya", "s1": "Tomasz", "s2": "Ana"}


def cost_text(cost: TakeCost | None) -> str:
    """A take cost for a button label: ``"free"``, ``"1🍀 1🥕"``, ``"2🥕"``; ``"can't pay"``
    for ``None`` (unaffordable)."""
    if cost is None:
        return "can't pay"
    parts = []
    if cost.clovers:
        parts.append(f"{cost.clovers}{CLOVER}")
    if cost.carrots:
        parts.append(f"{cost.carrots}{CARROT}")
    return " ".join(parts) if parts else "free"


def plural(n: int, word: str) -> str:
    """``"1 clover"``, ``"6 clovers"``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def keep_label(clovers: int) -> str:
    """The keep-treats option for keeping ``clovers`` clovers and the rest (of 10) carrots,
    e.g. ``"Keep 6 clovers, 4 carrots"``."""
    return f"Keep {plural(clovers, 'clover')}, {plural(TREAT_LIMIT - clovers, 'carrot')}"


def space_label(view_player: PlayerView, space: int, *, replace: bool = False) -> str:
    """A grid button label for ``space`` (0-8) of a board: ``"4 · free"``,
    ``"4 · Llama red 2"`` or, when the card would be replaced, ``"4 · replace Llama red 2"``."""
    card = view_player.board[space]
    if card is None:
        return f"{space + 1} · free"
    return f"{space + 1} · {'replace ' if replace else ''}{card.short()}"


def highlight_of(events: list[Event]) -> dict[str, list[int]]:
    """Spaces to outline per seat from public events: where a card was placed, replaced or
    moved to, and every space of a scored line (whose cards have left the board)."""
    out: dict[str, list[int]] = {}
    for e in events:
        seat = e.data.get("seat")
        if e.to is not None or not isinstance(seat, str):
            continue
        spaces: list[int] = []
        if e.type in ("placed_start", "placed", "replaced"):
            spaces = [int(e.data["space"])]
        elif e.type == "moved":
            spaces = [int(e.data["dst"])]
        elif e.type == "scored":
            spaces = [int(sp) for line in e.data.get("lines", []) for sp in line["spaces"]]
        for sp in spaces:
            if sp not in out.setdefault(seat, []):
                out[seat].append(sp)
    return out


class LlamasAlpacasCog(GameCog):
    """Discord flows of Llamas & Alpacas on top of :class:`GameCog`."""

    kind = "llamas-alpacas"
    #: Nothing is hidden but the draw pile order, which no refusal names.
    hidden_info = False

    def __init__(self, bot: HerdBot) -> None:
        super().__init__(bot)
        #: game id -> gold outlines for the next pictures: the spaces where the last
        #: update placed or moved cards and the lines it scored (``{seat: [spaces]}``).
        self._highlight: dict[int, dict[str, list[int]]] = {}

    async def cog_load(self) -> None:
        """Pay the renderer's one-off warm-up (about 1 s: palette and card tiles) and build
        the /rules example picture at start-up, in a worker thread, so that the first
        table of the first game is as quick as the others."""
        await self.bot.render(warm_up)
        await self.example_image()

    # -- helpers -----------------------------------------------------------------------

    @staticmethod
    def _state(table: Table) -> LlamasAlpacasState:
        state = table.state
        assert isinstance(state, LlamasAlpacasState)
        return state

    @staticmethod
    def _view(table: Table) -> LlamasAlpacasView:
        view = table.view(None)
        assert isinstance(view, LlamasAlpacasView)
        return view

    @staticmethod
    def _player(view: LlamasAlpacasView, seat: str) -> PlayerView:
        return next(p for p in view.players if p.seat == seat)

    # -- hooks -------------------------------------------------------------------------

    def render(self, table: Table) -> bytes:
        """The table picture (row and every board) from the spectator view."""
        return render_table(self._view(table), names=table.plain_names,
                            highlight=self._highlight.get(table.record.id))

    async def on_update(self, update: Update, interaction: discord.Interaction | None = None) -> None:
        """Remember where the update's cards landed and what scored (outlined in gold on
        the picture), then the base behaviour."""
        if update.state is not None and update.steps:
            self._highlight[update.record.id] = highlight_of(update.events())
        await super().on_update(update, interaction)
        if update.result is not None or update.kind in (UpdateKind.ENDED, UpdateKind.ARCHIVE):
            self._highlight.pop(update.record.id, None)
            self._post_locks.pop(update.record.id, None)

    def build_example(self) -> bytes:
        """A mid-game 3-player table for ``/rules``: of the first 15 turns of a seeded AI
        game, the start of the turn with the most cards on the boards (scored lines leave
        the boards, so a later turn can show empty ones)."""
        from bot.ai.llamas_alpacas import heuristic_policy

        engine = LlamasAlpacasEngine()
        state = engine.new_game(list(EXAMPLE_NAMES), seed=11)
        rand = random.Random(11)
        best, most = state, -1
        for _ in range(200):
            if state.phase == "turn":
                cards = sum(c is not None for p in state.players for c in p.board)
                if cards >= most:
                    best, most = state, cards
                if state.turn_no >= 15:
                    break
            seat = engine.pending(state).seats[0]
            legal = engine.legal_actions(state, seat)
            state, _ = engine.apply(state, seat, heuristic_policy(engine.view(state, seat), legal, rand))
        return render_table(engine.view(best, None), names=EXAMPLE_NAMES)

    def turn_text(self, table: Table) -> str:
        """What must happen now, in words, e.g. ``"**Maya**'s turn (3🍀 3🥕): take a card
        from the row (card 1 is free) or move a card on your board."``."""
        view = self._view(table)
        names = table.names
        if view.phase == "setup":
            waiting = ", ".join(f"**{names[s]}**" for s in view.pending)
            return (f"Set-up: place your starting card on your board with the buttons "
                    f"1-9 (row by row). Waiting for {waiting}.")
        assert view.active is not None
        me = self._player(view, view.active)
        who = f"**{names[view.active]}**"
        last = " This is the last round." if view.end_triggered else ""
        if view.phase == "turn":
            return (f"{who}'s turn ({me.clovers}{CLOVER} {me.carrots}{CARROT}): take a card "
                    f"from the row (card 1 is free, each card you skip costs a treat) or "
                    f"move a card on your board.{last}")
        if view.phase == "keep_treats":
            assert view.keep is not None
            total = view.keep.clovers + view.keep.carrots
            return (f"{who} holds {total} treats ({view.keep.clovers}{CLOVER} "
                    f"{view.keep.carrots}{CARROT}) but may keep only 10: choose which; the "
                    f"rest go onto card {view.keep.target + 1} of the row.{last}")
        held = view.held.short() if view.held else "the card"
        if None in me.board:
            return f"{who} is placing **{held}** on a free space of their board.{last}"
        return (f"{who}'s board is full: **{held}** replaces the card on the space "
                f"they pick (the old card is discarded).{last}")

    def table_items(self, table: Table) -> list[discord.ui.Item[Any]]:
        """The buttons (or select) of the current phase; see the module docstring."""
        state = self._state(table)
        view = self._view(table)
        gid, ver = table.record.id, table.record.version
        if view.phase == "setup":
            return [
                button("g", gid, f"st.{s}", f"{s + 1} · free", row=s // 3,
                       style=discord.ButtonStyle.primary)
                for s in range(9)
            ]
        if view.active is None:
            return []
        me = self._player(view, view.active)
        if view.phase == "turn":
            costs = table.spec.engine_as(LlamasAlpacasEngine).costs(state, view.active)
            items: list[discord.ui.Item[Any]] = []
            for pos, cost in enumerate(costs, start=1):
                items.append(button(
                    "g", gid, f"tk.{pos}", f"Take {pos} ({cost_text(cost)})", version=ver,
                    disabled=cost is None, row=(pos - 1) // 3,
                    style=discord.ButtonStyle.primary if cost is not None
                    else discord.ButtonStyle.secondary,
                ))
            can_move = any(c is None for c in me.board) and any(c is not None for c in me.board)
            items.append(button("g", gid, "mv", "Move a card", version=ver,
                                disabled=not can_move, row=2))
            return items
        if view.phase == "keep_treats":
            assert view.keep is not None
            k = view.keep
            lo, hi = max(0, TREAT_LIMIT - k.carrots), min(k.clovers, TREAT_LIMIT)
            options = [
                Option(
                    label=keep_label(c), value=str(c),
                    description=(f"{plural(k.clovers - c, 'clover')} and "
                                 f"{plural(k.carrots - (TREAT_LIMIT - c), 'carrot')} go onto "
                                 f"card {k.target + 1}"),
                )
                for c in range(lo, hi + 1)
            ]
            # At most 11 splits (0-10 clovers): one select in row 0.
            return list(paged_select("g", gid, "kp", options, version=ver, noun="Splits",
                                     placeholder="Which 10 treats do you keep?", row=0))
        # choose_space
        full = None not in me.board
        return [
            button("g", gid, f"pl.{s}", space_label(me, s, replace=full), version=ver,
                   row=s // 3, disabled=not full and me.board[s] is not None,
                   style=discord.ButtonStyle.primary if full or me.board[s] is None
                   else discord.ButtonStyle.secondary)
            for s in range(9)
        ]

    def table_view(self, table: Table) -> discord.ui.View:
        """The phase's items, then My hand (and I'm back) on their own row below."""
        items = list(self.table_items(table)) if table.result is None else []
        if table.record.status == "active" and table.result is None:
            items.append(button("g", table.record.id, "hand", "My hand",
                                emoji="\N{OPEN BOOK}", style=discord.ButtonStyle.secondary,
                                row=3))
            if any(s.ai_takeover for s in table.seats):
                items.append(button("g", table.record.id, "back", "I'm back",
                                    style=discord.ButtonStyle.success, row=3))
        return view_of(*items)

    def ping_key(self, table: Table) -> str:
        """Once per turn: the players who must place a starting card are pinged on the
        first table only, then the active player when a turn begins (not again for the
        keep-treats and place steps of the same turn, which share the pending key
        ``turn-N``)."""
        return table.pending.key


    def final_text(self, table: Table) -> str:
        """The result sentence, then per player (best first): points, the lines scored by
        conditions met, and the treats left (the tie-break)."""
        result = table.result
        if result is None:
            return ""
        names = table.names
        view = self._view(table)
        out = [f"**{named(result.reason, names)}**"]
        for seat in sorted(result.scores, key=lambda s: -result.scores[s]):
            p = self._player(view, seat)
            lines = [f"{ln.label} ({ln.points:+d})" for ln in result.breakdown.get(seat, [])
                     if not ln.label.startswith("Treats")]
            crown = "\N{TROPHY} " if seat in result.winners else ""
            detail = "; ".join(lines) if lines else "no lines scored"
            out.append(f"{crown}**{names[seat]}**: {result.scores[seat]} points - {detail}; "
                       f"{plural(p.clovers + p.carrots, 'treat')} left ({p.clovers}{CLOVER} "
                       f"{p.carrots}{CARROT})")
        return "\n".join(out)

    async def private_panel(self, table: Table, seat: SeatRecord) -> dict[str, Any]:
        """No hidden cards here: the player's own treats, score, lines and board in words."""
        view = self._view(table)
        me = self._player(view, seat.seat)
        lines = ", ".join(f"{n} with {i + 1} condition{'s' if i else ''}"
                          for i, n in enumerate(me.lines) if n) or "none yet"
        board = []
        for r in range(3):
            cells = [c.short() if c else "free" for c in me.board[r * 3:r * 3 + 3]]
            board.append(f"Row {r + 1}: " + " | ".join(cells))
        text = [
            "This game has no hidden cards: everything is on the table picture.",
            f"You have **{me.score} points** and **{me.clovers}{CLOVER} {me.carrots}{CARROT}** "
            f"({me.clovers + me.carrots} of at most {TREAT_LIMIT} treats).",
            f"Lines scored: {lines}.",
        ]
        if me.start_card is not None:
            text.append(f"Your starting card, to place: **{me.start_card.short()}**.")
        text.append("Your board:\n" + "\n".join(board))
        pic = await self.bot.render(board_picture, view, seat.seat, names=table.plain_names)
        return {"content": "\n".join(text),
                "file": discord.File(io.BytesIO(pic.png), filename="my-board.png")}

    # -- components --------------------------------------------------------------------

    async def on_game_component(
        self, interaction: discord.Interaction, table: Table, seat: SeatRecord,
        cid: ids.ComponentId, values: list[str],
    ) -> None:
        """Decode a grid/take/move/keep component into an engine action and play it."""
        code = cid.code
        head, _, rest = code.partition(".")
        bad = GameError("bad_button", "This button is not one herdbot understands.")
        try:
            nums = [int(x) for x in rest.split(".")] if rest else []
        except ValueError:
            raise bad from None
        limit = {"st": 8, "pl": 8, "mf": 8, "mt": 8, "tk": 6}.get(head, 8)
        low = 1 if head == "tk" else 0
        if any(not low <= n <= limit for n in nums):
            raise bad
        if head == "st" and len(nums) == 1:
            # Set-up buttons carry no version: players place in any order, so a click
            # racing another player's placement still counts. Only valid during set-up.
            if self._state(table).phase != "setup":
                await self.answer_stale(interaction, table)
                return
            await self.place_start(interaction, table, seat, nums[0])
        elif head == "pl" and len(nums) == 1:
            await self.act(interaction, table, seat, Place(space=nums[0]), version=cid.version)
        elif head == "tk" and len(nums) == 1:
            await self.act(interaction, table, seat, Take(position=nums[0]), version=cid.version)
        elif head == "kp":
            if len(values) != 1 or not values[0].isdecimal() or int(values[0]) > TREAT_LIMIT:
                raise GameError("bad_choice", "Choose one way to keep 10 treats.")
            clovers = int(values[0])
            await self.act(interaction, table, seat,
                           Keep(clovers=clovers, carrots=TREAT_LIMIT - clovers),
                           version=cid.version)
        elif head == "mv" and not nums:
            self._check_can_move(table, seat)
            await send_ephemeral(interaction, **self._move_panel(table, seat, None))
        elif head == "mf" and len(nums) == 1:
            self._check_can_move(table, seat, src=nums[0])
            await edit_panel(interaction, private=True, **self._move_panel(table, seat, nums[0]))
        elif head == "mt" and len(nums) == 2:
            src, dst = nums
            view = self._view(table)
            card = self._player(view, seat.seat).board[src]
            self._check_can_move(table, seat, src=src)
            what = card.short() if card else "the card"
            await edit_panel(interaction, private=True,
                             content=f"Moving {what} from space {src + 1} to space {dst + 1}...",
                             view=None)
            await self.act(interaction, table, seat, Move(src=src, dst=dst), version=cid.version)
        else:
            raise bad

    async def place_start(
        self, interaction: discord.Interaction, table: Table, seat: SeatRecord, space: int
    ) -> None:
        """Place the starting card on ``space`` (0-8) without a version check: set-up
        placements do not depend on each other, so one made a moment after another
        player's still counts. The engine refuses a second placement in words."""
        if seat.ai_takeover:
            await send_error(interaction, "The AI is playing your seat: press I'm back first.")
            return
        await defer(interaction)
        try:
            await self.bot.service.act(table.record.id, seat.seat, Place(space=space),
                                       expected_version=None, origin=interaction)
        except GameError as exc:
            await send_error(interaction, named(exc.message, table.names))

    def _check_can_move(self, table: Table, seat: SeatRecord, src: int | None = None) -> None:
        """Refuse (``GameError``) opening the move panel out of turn or when no move exists."""
        state = self._state(table)
        active = state.seats[state.active]
        if state.phase == "setup":
            raise GameError("wrong_step", "First everyone places a starting card.")
        if active != seat.seat:
            raise GameError("not_your_turn", f"It is {table.names[active]}'s turn.")
        if state.phase != "turn":
            raise GameError("wrong_step", "Finish your turn first: a card can only move "
                                          "instead of taking one.")
        legal = [a for a in table.legal(seat.seat) if isinstance(a, Move)]
        if not legal:
            raise GameError("no_move", "You have no card that can move to an empty space.")
        if src is not None and not any(a.src == src for a in legal):
            raise GameError("empty_space", "There is no card on that space to move.")

    def _move_panel(self, table: Table, seat: SeatRecord, src: int | None) -> dict[str, Any]:
        """The ephemeral move panel: the from-space grid (``src`` None) or the to-space grid."""
        gid, ver = table.record.id, table.record.version
        me = self._player(self._view(table), seat.seat)
        items: list[discord.ui.Item[Any]] = []
        if src is None:
            for s in range(9):
                card = me.board[s]
                label = f"{s + 1} · {card.short()}" if card else f"{s + 1} · free"
                items.append(button("g", gid, f"mf.{s}", label, version=ver, row=s // 3,
                                    disabled=card is None,
                                    style=discord.ButtonStyle.primary if card
                                    else discord.ButtonStyle.secondary))
            content = "Move a card: which card moves? (spaces 1-9, row by row)"
        else:
            card = me.board[src]
            assert card is not None
            for s in range(9):
                other = me.board[s]
                if s == src:
                    label = f"{s + 1} · {other.short()} (moving)" if other else f"{s + 1}"
                elif other is None:
                    label = f"{s + 1} · free"
                else:
                    label = f"{s + 1} · {other.short()}"
                items.append(button("g", gid, f"mt.{src}.{s}", label, version=ver, row=s // 3,
                                    disabled=other is not None,
                                    style=discord.ButtonStyle.success if s == src
                                    else discord.ButtonStyle.primary if other is None
                                    else discord.ButtonStyle.secondary))
            items.append(button("g", gid, "mv", "Back", version=ver, row=3))
            content = f"Move **{card.short()}** from space {src + 1} to which free space?"
        return {"content": content, "view": view_of(*items)}

    async def handle_component(
        self, interaction: discord.Interaction, cid: ids.ComponentId, values: list[str]
    ) -> None:
        """The base checks; "Back" in the move panel edits the panel instead of posting."""
        if cid.code == "mv" and cid.version is not None and interaction.message is not None \
                and interaction.message.flags.ephemeral:
            table = await self.load_table(cid.game_id)
            seat = table.seat_of(interaction.user.id)
            if seat is not None and table.record.status == "active" \
                    and cid.version == table.record.version:
                self._check_can_move(table, seat)
                await edit_panel(interaction, private=True, **self._move_panel(table, seat, None))
                return
        await super().handle_component(interaction, cid, values)


async def setup(bot: HerdBot) -> None:
    """Extension entry point."""
    await bot.add_cog(LlamasAlpacasCog(bot))
