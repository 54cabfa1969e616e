"""The Llamas Unleashed rules engine (pure; see ``bot.games.base`` for the contract).

Turn (rulebook, Playing the Game; RULES.md: Llamas Unleashed): start of turn (Herd Bonuses
and "at the start of your turn" effects form one link: the mandatory ones' targets are
asked first, then the player adds optional ones, each with its targets, in the order they
should resolve, and proceeds; then the link resolves), Draw phase (1 card), Action phase
(play one card or draw one more; "play one more card" effects add card plays only), end
of turn (discard down to the hand limit). With 2 players the player going second is dealt
a sixth card (our ruling, for balance). A played card goes onto the pile; other players
holding an Instant they may play get a reaction window; responses stack and resolve last
in, first out, and after each Instant resolves a new window opens on the card now on top.
The win (7 Animals with 2-5 players, 6 with 6-8) and the deck-out end are checked only
once the whole chain has resolved.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from pydantic import TypeAdapter

from bot.games.base import Action, Engine, Event, IllegalAction, Pending, Result, Timeout, rng, say
from bot.games.unleashed.cards import catalog
from bot.games.unleashed.effects import planning
from bot.games.unleashed.effects.ops import step
from bot.games.unleashed.effects.statics import (
    animal_count,
    animals_to_win,
    can_enter,
    card,
    extra_plays,
    hand_limit,
    herd_kinds,
    may_play_instants,
    name,
    skips_draw,
)
from bot.games.unleashed.effects.targets import feasible
from bot.games.unleashed.effects.zones import (
    draw,
    enter_field,
    new_id,
    others,
    shuffle_deck,
    to_discard,
)
from bot.games.unleashed.labels import action_label
from bot.games.unleashed.models import (
    Activate,
    Choose,
    ChooseBaby,
    DrawCard,
    Frame,
    Pass,
    Play,
    Proceed,
    Reaction,
    Respond,
    StackItem,
    UnleashedOptions,
    UnleashedState,
    UnleashedView,
    action_adapter,
    copy_state,
)
from bot.games.unleashed.scoring import deck_out_winners, final_result
from bot.games.unleashed.views import source_words, table_view

HAND_SIZE = 5  # rulebook, Setting Up: deal 5 cards to each player
#: Longest open (hiding) reaction window in seconds: a window nobody answers adds at most
#: this much to a play (RULES.md: reaction window, "short by default").
OPEN_WINDOW_SECONDS = 5.0


class UnleashedEngine(Engine[UnleashedState, UnleashedOptions]):
    """Llamas Unleashed for 2-8 players (RULES.md: Llamas Unleashed)."""

    key: ClassVar[str] = "llamas-unleashed"
    state_model: ClassVar[type[UnleashedState]] = UnleashedState
    options_model: ClassVar[type[UnleashedOptions]] = UnleashedOptions
    action_adapter: ClassVar[TypeAdapter[Any]] = action_adapter
    only_pending_act: ClassVar[bool] = True

    # -- set-up ---------------------------------------------------------------------------

    def new_game(self, players: Sequence[str], *, seed: int,
                 options: UnleashedOptions | None = None) -> UnleashedState:
        """Shuffle the deck, put the Babies in the Nursery and wait for every player to
        choose a Baby (rulebook, Setting Up). Raises ``ValueError`` outside 2-8 players."""
        players = list(players)
        if not 2 <= len(players) <= 8 or len(set(players)) != len(players):
            raise ValueError("Llamas Unleashed needs 2 to 8 distinct players")
        cat = catalog()
        st = UnleashedState(seats=players, seed=seed, options=options or UnleashedOptions())
        st.deck = list(cat.deck_ids)
        shuffle_deck(st)
        st.nursery = list(cat.nursery_ids)
        st.hands = {s: [] for s in players}
        st.fields = {s: [] for s in players}
        st.shields = {s: [] for s in players}
        return st

    def _finish_setup(self, st: UnleashedState, ev: list[Event]) -> None:
        for _ in range(HAND_SIZE):
            for s in st.seats:
                st.hands[s].append(st.deck.pop())
        for s in st.seats:
            say(ev, "dealt", f"{s} is dealt {HAND_SIZE} cards.", seat=s)
            say(ev, "dealt_private", "Your hand: " + ", ".join(name(c) for c in st.hands[s]) + ".",
                to=[s], cards=list(st.hands[s]))
        first = st.seats[rng(st).randrange(len(st.seats))]
        say(ev, "first", f"{first} goes first.", seat=first)
        if len(st.seats) == 2 and st.deck:
            # RULES.md (our ruling, for balance): with 2 players the one who goes second
            # is dealt a sixth card.
            second = others(st, first)[0]
            st.hands[second].append(st.deck.pop())
            say(ev, "dealt_extra", f"{second} goes second and is dealt a sixth card.",
                seat=second)
            say(ev, "dealt_private", f"Your sixth card: {name(st.hands[second][-1])}.",
                to=[second], cards=[st.hands[second][-1]])
        self._begin_turn(st, first, ev)

    # -- turn structure -------------------------------------------------------------------

    def _begin_turn(self, st: UnleashedState, seat: str, ev: list[Event]) -> None:
        for _ in range(len(st.seats) + 1):
            if seat not in st.skip_next:
                break
            st.skip_next.remove(seat)
            say(ev, "skipped", f"{seat} skips this turn.", seat=seat)
            seat = others(st, seat)[0]
        st.active = seat
        st.turn += 1
        st.phase = "start"
        st.start_done = False
        st.used_triggers = []
        st.plays_left = 0
        st.card_plays = 0
        st.acted = False
        st.shields[seat] = []
        st.herd = herd_kinds(st, seat)
        st.start_cards = [c for c in st.fields[seat] if card(c).start is not None]
        say(ev, "turn", f"It is {seat}'s turn.", seat=seat, turn=st.turn)
        mandatory = planning.mandatory_start_frames(st, seat)
        # Everything that triggers at the start of the turn is one link: the mandatory
        # effects' targets are asked now, then the player adds optional effects (Activate,
        # each with its targets) and proceeds; only then does the link resolve.
        planning.new_link(st, mandatory, open_=True)

    def optional_triggers(self, st: UnleashedState) -> list[tuple[str, dict[str, Any], str]]:
        """Optional start-of-turn effects the active player may still add to the
        start-of-turn link: ``(source, effect dict, text)``; only those whose required
        parts can be done now, with no card chosen already in the link."""
        link = st.building  # None: a state stored before start-of-turn links
        if st.phase != "start" or st.start_done or st.active is None or (
                link is not None and (not link.open or link.tasks or link.later)):
            return []
        taken = st.links.get(str(link.id), []) if link is not None else []
        seat = st.active
        out = []
        bonuses = catalog().card_set.herd.bonuses
        for k in st.herd:
            b = bonuses[k]  # type: ignore[index]
            src = f"herd:{k}"
            if b.optional and src not in st.used_triggers:
                out.append((src, b.eff.model_dump(exclude_defaults=True), b.text))
        for cid in st.fields[seat]:
            t = card(cid).start
            src = f"card:{cid}"
            if (t is not None and t.optional and src not in st.used_triggers
                    and cid in st.start_cards):
                out.append((src, t.eff.model_dump(exclude_defaults=True), card(cid).text))
        return [o for o in out if feasible(st, o[1], seat, taken=taken)]

    def _advance(self, st: UnleashedState, ev: list[Event]) -> bool:
        """Automatic steps once the chain is empty. True when something changed."""
        seat = st.active
        if st.phase == "start" and seat is not None:
            if not st.start_done:
                # A state stored before start-of-turn links: offer its optional effects.
                planning.new_link(st, [], open_=True)
                st.start_done = True
                return True
            if skips_draw(st, seat):
                say(ev, "skip_draw", f"{seat} skips their Draw phase.", seat=seat)
            else:
                draw(st, seat, 1, ev)
            st.phase = "action"
            st.plays_left = 1
            st.card_plays = extra_plays(st, seat)
            return True
        if st.phase == "action" and seat is not None:
            if st.plays_left > 0 or (st.card_plays > 0 and self._any_play(st, seat)):
                return False
            st.phase = "end"
            return True
        if st.phase == "end" and seat is not None:
            excess = len(st.hands[seat]) - hand_limit(st, seat)
            if excess > 0:
                st.work.append(Frame(eff={"op": "discard", "n": excess}, actor=seat,
                                     link=new_id(st)))
                return True
            self._begin_turn(st, others(st, seat)[0], ev)
            return True
        return False

    def _any_play(self, st: UnleashedState, seat: str) -> bool:
        return any(self.plays_for(st, seat, c) for c in st.hands[seat])

    def _run(self, st: UnleashedState, ev: list[Event]) -> None:
        """Run the chain until a player must decide or the game ends: choose the targets of
        the link being built, resolve the link's effects, start the next link from the
        effects triggered meanwhile, then the pile (a new reaction window after each
        Instant), then the turn's own steps."""
        while st.phase != "over" and st.choice is None and st.reaction is None:
            link = st.building
            if link is not None:
                if link.tasks or link.later:
                    planning.plan_step(st, ev)
                    continue
                if link.open:
                    if self.optional_triggers(st):
                        return  # the player adds optional effects or proceeds
                    st.start_done = True
                    link.open = False
                planning.commit_link(st)
                continue
            if st.work:
                step(st, st.work.pop(), ev)
                continue
            if st.queued:
                roots, st.queued = st.queued, []
                planning.new_link(st, roots)
                continue
            if st.stack and not st.stack[-1].resolving:
                if st.repoll:
                    st.repoll = False
                    self._open_window(st)
                    continue
                self._resolve_top(st, ev)
                continue
            st.repoll = False
            st.links = {}
            st.plan = {}
            if self._check_end(st, ev):
                return
            if not self._advance(st, ev):
                return

    # -- the pile ---------------------------------------------------------------------------

    def instant_ok(self, st: UnleashedState, seat: str, cid: int) -> bool:
        """Whether ``seat`` may play Instant ``cid`` on the top card of the pile now."""
        if not st.stack or st.stack[-1].resolving:
            return False
        top = st.stack[-1]
        d = card(cid)
        if d.instant is None or top.seat == seat or not may_play_instants(st, seat):
            return False
        if d.instant.op == "ambush":
            # Playable only when it can destroy something (rulebook, Actions That Are
            # Impossible): an Animal in the answered player's Field as it is now.
            return card(top.card).is_animal and feasible(st, self._ambush(top.seat), seat)
        return d.instant.respond == "any" or card(top.card).is_animal

    @staticmethod
    def _ambush(victim: str) -> dict[str, Any]:
        return {"op": "destroy", "whose": "seat", "seat": victim,
                "filter": {"types": ["baby", "basic", "magical"]}}

    def _open_window(self, st: UnleashedState) -> None:
        top = st.stack[-1]
        order = others(st, top.seat)
        if st.options.open_windows:
            # Everyone who might answer, judged only from public facts (Fields, hand sizes).
            eligible = [s for s in order if may_play_instants(st, s) and st.hands[s]]
        else:
            eligible = [s for s in order if any(self.instant_ok(st, s, c) for c in st.hands[s])]
        st.reaction = Reaction(id=new_id(st), eligible=eligible) if eligible else None

    def _resolve_top(self, st: UnleashedState, ev: list[Event]) -> None:
        item = st.stack[-1]
        d = card(item.card)
        if d.instant is not None:
            st.stack.pop()
            to_discard(st, item.card)
            target = st.stack[-1] if st.stack else None
            if target is None:
                return
            st.repoll = True  # the players get a new window on the card now on top
            if d.instant.op == "counter":
                st.stack.pop()
                if d.kind is not None and card(target.card).kind == d.kind:
                    st.hands[item.seat].append(target.card)
                    say(ev, "countered", f"{item.seat}'s {d.name} cancels {name(target.card)} and "
                        f"{item.seat} takes it into their hand.", card=target.card, seat=item.seat,
                        taken=True, by=item.card)
                else:
                    to_discard(st, target.card)
                    say(ev, "countered", f"{item.seat}'s {d.name} cancels {name(target.card)}.",
                        card=target.card, seat=item.seat, taken=False, by=item.card)
            else:  # ambush
                say(ev, "ambush", f"{item.seat}'s {d.name} strikes {target.seat}'s Field.",
                    seat=item.seat, victim=target.seat, by=item.card)
                planning.new_link(st, [Frame(eff=self._ambush(target.seat), actor=item.seat,
                                             source=item.card)])
            return
        if d.type == "magic":
            planning.resolve_magic(st, item)
            return
        st.stack.pop()
        dest = item.field or item.seat
        if can_enter(st, item.card, dest):
            say(ev, "enter", f"{d.name} enters {dest}'s Field.", card=item.card, seat=dest)
            enter_field(st, item.card, dest, ev)
        else:
            to_discard(st, item.card)
            say(ev, "fizzle", f"{d.name} cannot enter {dest}'s Field and is discarded.",
                card=item.card, seat=dest)

    # -- the end -----------------------------------------------------------------------------

    def _check_end(self, st: UnleashedState, ev: list[Event]) -> bool:
        if st.phase in ("setup", "over"):
            return False
        order = [st.active, *others(st, st.active)] if st.active else list(st.seats)
        for s in order:
            if animal_count(st, s) >= animals_to_win(st, s):
                self._finish(st, [s], f"{s} has {animal_count(st, s)} Animals.", ev,
                             count=animal_count(st, s))
                return True
        if not st.deck:
            self._finish(st, deck_out_winners(st), "The deck ran out.", ev)
            return True
        return False

    def _finish(self, st: UnleashedState, winners: list[str], reason: str,
                ev: list[Event], count: int | None = None) -> None:
        st.phase = "over"
        st.reaction = None
        st.choice = None
        st.result = final_result(st, winners, reason)
        text = f"{', '.join(winners)} wins. {reason}" if winners else f"Everyone loses. {reason}"
        # (``count``: the winner's Animals when they won on Animals; None: the deck ran out)
        say(ev, "game_over", text, winners=winners, count=count)

    # -- contract ----------------------------------------------------------------------------

    def pending(self, state: UnleashedState) -> Pending:
        """Who decides now. Set-up: every seat without a Baby (timeout: a random Baby);
        a choice: its seat (timeout: the last option, which is "No" or "Done" where
        those exist); a reaction window: the eligible
        seats that have not passed, ``reaction_seconds`` (at most ``OPEN_WINDOW_SECONDS``
        with ``open_windows``; one deadline for every seat), timeout Pass; else the active
        player's turn."""
        st = state
        if st.phase == "over":
            return Pending(seats=[], kind="over", key="over")
        if st.phase == "setup":
            seats = [s for s in st.seats if s not in st.babies_chosen]
            return Pending(seats=seats, kind="setup", key="setup",
                           seconds=st.options.setup_seconds,
                           timeouts=[Timeout(seat=s, action={"type": "baby", "card": None})
                                     for s in seats])
        if st.choice is not None:
            return Pending(seats=[st.choice.seat], kind="choice", key=f"choice:{st.choice.id}",
                           timeouts=[Timeout(seat=st.choice.seat,
                                             action={"type": "choose",
                                                     "option": len(st.choice.options) - 1})])
        if st.reaction is not None:
            seats = [s for s in st.reaction.eligible if s not in st.reaction.passed]
            seconds = self.window_seconds(st)
            return Pending(seats=seats, kind="reaction", key=f"reaction:{st.reaction.id}",
                           seconds=seconds,
                           timeouts=[Timeout(seat=s, action={"type": "pass"}) for s in seats])
        assert st.active is not None
        return Pending(seats=[st.active], kind="turn", key=f"turn:{st.turn}:{st.phase}")

    @staticmethod
    def window_seconds(st: UnleashedState) -> float:
        """How long a reaction window lasts (seconds): ``reaction_seconds``, at most
        ``OPEN_WINDOW_SECONDS`` when windows are open to everyone."""
        if st.options.open_windows:
            return min(st.options.reaction_seconds, OPEN_WINDOW_SECONDS)
        return st.options.reaction_seconds

    def legal_actions(self, state: UnleashedState, player: str) -> list[Action]:
        """Every action ``player`` may take now (see :mod:`.models` for the classes)."""
        st = state
        if st.phase == "over" or player not in st.seats:
            return []
        if st.phase == "setup":
            if player in st.babies_chosen:
                return []
            return [ChooseBaby(card=None), *(ChooseBaby(card=c) for c in st.nursery)]
        if st.choice is not None:
            if st.choice.seat != player:
                return []
            return [Choose(option=i) for i in range(len(st.choice.options))]
        if st.reaction is not None:
            r = st.reaction
            if player not in r.eligible or player in r.passed:
                return []
            acts: list[Action] = [Respond(card=c) for c in st.hands[player]
                                  if self.instant_ok(st, player, c)]
            return [*acts, Pass()]
        if player != st.active:
            return []
        if st.phase == "start":
            return [*(Activate(source=src) for src, _, _ in self.optional_triggers(st)),
                    Proceed()]
        if st.phase == "action" and (st.plays_left > 0 or st.card_plays > 0):
            out: list[Action] = []
            for c in st.hands[player]:
                out.extend(self.plays_for(st, player, c))
            if st.deck and st.plays_left > 0:  # an extra card play is never a draw
                out.append(DrawCard())
            if st.acted:
                out.append(Proceed())
            return out
        return []

    def _legal(self, st: UnleashedState, player: str, action: Action) -> bool:
        """``action in legal_actions(st, player)``, without listing every play."""
        if isinstance(action, Play):
            return (st.phase == "action" and st.choice is None and st.reaction is None
                    and player == st.active and (st.plays_left > 0 or st.card_plays > 0)
                    and action.card in st.hands[player]
                    and action in self.plays_for(st, player, action.card))
        return action in self.legal_actions(st, player)

    def plays_for(self, st: UnleashedState, player: str, cid: int) -> list[Play]:
        """The ways ``player`` may play ``cid`` from hand in the Action phase: Magic only
        when its requirement can be met with targets chosen before its link resolves
        (rulebook, Actions That Are Impossible and Order of Resolution; RULES.md, Grazing
        Rights: the card it discards is no target for its bring); Animals into any Field they may enter; Upgrades
        and Downgrades into any Field; Instants never (they answer plays)."""
        d = card(cid)
        if d.type == "magic":
            assert d.play is not None
            eff = d.play.model_dump(exclude_defaults=True)
            return [Play(card=cid)] if feasible(st, eff, player, cid, exclude=cid) else []
        if d.type in ("basic", "magical", "upgrade", "downgrade"):
            return [Play(card=cid, field=s) for s in [player, *others(st, player)]
                    if can_enter(st, cid, s)]
        return []

    def fork(self, state: UnleashedState) -> UnleashedState:
        """An independent copy of ``state`` that :meth:`play` may change (``copy_state``)."""
        return copy_state(state)

    def apply(self, state: UnleashedState, player: str,
              action: Action) -> tuple[UnleashedState, list[Event]]:
        """Apply ``action`` for ``player`` on a copy. Raises :class:`IllegalAction`:
        ``game_over``, ``not_your_turn`` (not a seat that must decide now) or ``illegal``."""
        self._check(state, player, action)
        st = copy_state(state)
        ev: list[Event] = []
        self._step(st, player, action, ev)
        return st, ev

    def take_back_point(self, before: UnleashedState, seat: str, action: Action,
                        after: UnleashedState) -> bool:
        """Only a Baby chosen by name while others still choose (hands are dealt after
        the last); every other action draws, shows a card or starts effects."""
        return (isinstance(action, ChooseBaby) and action.card is not None
                and after.phase == "setup" and after.rng_calls == before.rng_calls)

    def apply_legal(self, state: UnleashedState, player: str,
                    action: Action) -> tuple[UnleashedState, list[Event]]:
        """:meth:`apply` without the check (``Engine.apply_legal``)."""
        st = copy_state(state)
        ev: list[Event] = []
        self._step(st, player, action, ev)
        return st, ev

    def play(self, state: UnleashedState, player: str, action: Action) -> None:
        """:meth:`apply` in place, for playouts: the same checks and refusals (state
        unchanged), no copy; afterwards ``state`` equals what :meth:`apply` would have
        returned (its events are made and dropped)."""
        self._check(state, player, action)
        self._step(state, player, action, [])

    def play_legal(self, state: UnleashedState, player: str, action: Action) -> None:
        """:meth:`play` without the check (``Engine.play_legal``)."""
        self._step(state, player, action, [])

    def _check(self, state: UnleashedState, player: str, action: Action) -> None:
        """Raise :class:`IllegalAction` unless ``player`` may take ``action`` now."""
        if state.phase == "over":
            raise IllegalAction("game_over", "The game is over.")
        if player not in self.pending(state).seats:
            raise IllegalAction("not_your_turn", "It is not your decision right now.")
        if not self._legal(state, player, action):
            raise IllegalAction("illegal", "You cannot do that right now.")

    def _step(self, st: UnleashedState, player: str, action: Action, ev: list[Event]) -> None:
        """Carry out a checked ``action`` on ``st`` (owned by the caller), events into
        ``ev``."""
        st.version += 1
        if isinstance(action, ChooseBaby):
            cid = action.card
            if cid is None:
                cid = st.nursery[rng(st).randrange(len(st.nursery))]
            st.nursery.remove(cid)
            st.fields[player].append(cid)
            st.babies_chosen.append(player)
            say(ev, "baby", f"{player} chooses {name(cid)} for their Field.", seat=player, card=cid)
            if len(st.babies_chosen) == len(st.seats):
                self._finish_setup(st, ev)
        elif isinstance(action, Choose):
            assert st.choice is not None
            opt = st.choice.options[action.option]
            st.choice = None
            asking = st.building.tasks[0] if st.building is not None else st.work[-1]
            asking.data["pick"] = opt.value
        elif isinstance(action, Respond):
            st.hands[player].remove(action.card)
            target = st.stack[-1]
            st.stack.append(StackItem(card=action.card, seat=player))
            say(ev, "respond", f"{player} answers {name(target.card)} with {name(action.card)}.",
                seat=player, card=action.card, target=target.card)
            self._open_window(st)
        elif isinstance(action, Pass):
            assert st.reaction is not None
            st.reaction.passed.append(player)
            if set(st.reaction.eligible) <= set(st.reaction.passed):
                st.reaction = None
        elif isinstance(action, Activate):
            for src, eff, _ in self.optional_triggers(st):
                if src == action.source:
                    st.used_triggers.append(src)
                    cid = int(src[5:]) if src.startswith("card:") else None
                    say(ev, "activate", f"{player} uses {source_words(src)}.",
                        seat=player, source=src)
                    herd = src[5:] if src.startswith("herd:") else None
                    if st.building is None:  # a state stored before start-of-turn links
                        planning.new_link(st, [], open_=True)
                    assert st.building is not None
                    planning.add_root(st, st.building, Frame(eff=eff, actor=player,
                                                             source=cid, herd=herd))
                    break
        elif isinstance(action, Proceed):
            if st.phase == "start":
                st.start_done = True
                if st.building is not None:
                    st.building.open = False  # the start-of-turn link resolves now
            else:
                st.plays_left = 0
                st.card_plays = 0
        elif isinstance(action, DrawCard):
            st.plays_left -= 1
            st.acted = True
            draw(st, player, 1, ev)
        elif isinstance(action, Play):
            if st.card_plays > 0:  # an extra play is spent on a card play first
                st.card_plays -= 1
            else:
                st.plays_left -= 1
            st.acted = True
            st.hands[player].remove(action.card)
            st.stack.append(StackItem(card=action.card, seat=player, field=action.field))
            where = (" into their own Field" if action.field == player
                     else f" into {action.field}'s Field" if action.field else "")
            say(ev, "play", f"{player} plays {name(action.card)}{where}.", seat=player,
                card=action.card, field=action.field)
            self._open_window(st)
        self._run(st, ev)

    def action_label(self, state: UnleashedState, action: Action) -> str:
        """See :func:`bot.games.unleashed.labels.action_label`."""
        return action_label(state, action)

    def result(self, state: UnleashedState) -> Result | None:
        """The result once the game is over."""
        return state.result

    def view(self, state: UnleashedState, viewer: str | None) -> UnleashedView:
        """What ``viewer`` may see (:func:`~bot.games.unleashed.views.table_view`)."""
        return table_view(state, viewer, self.pending(state), self.optional_triggers(state),
                          self.window_seconds(state))
