"""What an Alpaca Pacapaca player sees (``PacapacaEngine.view``)."""

from __future__ import annotations

from bot.games.pacapaca.cards import catalog
from bot.games.pacapaca.models import (
    AlpacaView,
    DiscardView,
    FinalAlpaca,
    FinalView,
    NegotiationView,
    PacapacaState,
    PacapacaView,
)
from bot.games.pacapaca.scoring import SeatScore


def table_view(state: PacapacaState, viewer: str | None, final: FinalView | None
               ) -> PacapacaView:
    """Everything ``viewer`` may see: all alpacas, deck and pile sizes, the viewer's own
    discards still in the pile and own drawn cards, the public side of every pile card
    (who put it there, the card added with it, the table then), the public negotiation,
    and ``final`` (:func:`final_view`) once over. Never the deck order, others' drawn
    cards or discards."""
    s = state
    cat = catalog()
    finished = s.phase == "finished"
    active = None if finished else s.seats[s.active]
    neg_view = None
    if s.negotiation is not None and active is not None:
        n = s.negotiation
        neg_view = NegotiationView(
            active=active,
            partner=n.partner,
            active_gives=list(n.active_gives),
            partner_gives=list(n.partner_gives),
            deal_version=n.deal_version,
            accepted=list(n.accepted),
            proposals=n.proposals,
            proposals_left=cat.negotiation.max_proposals - n.proposals,
            proposed_by=n.proposed_by,
            deadline_seconds=cat.negotiation.seconds,
        )
    return PacapacaView(
        viewer=viewer,
        seats=list(s.seats),
        active=active,
        turn_number=s.turn_number,
        phase=s.phase,
        alpacas=[
            AlpacaView(
                seat=p,
                head=s.alpacas[p].head,
                body=s.alpacas[p].body,
                neck=list(s.alpacas[p].neck),
                babies=list(s.alpacas[p].babies),
            )
            for p in s.seats
        ],
        deck_size=len(s.deck),
        pile_size=len(s.pile),
        my_discards=[pc.card for pc in s.pile if viewer is not None and pc.by == viewer],
        discards=[DiscardView(by=pc.by, kept=pc.kept, deck_size=pc.deck,
                              before=[list(a) for a in pc.alpacas]) for pc in s.pile],
        drawn=list(s.drawn) if viewer is not None and viewer == active else [],
        drawn_count=len(s.drawn),
        negotiation=neg_view,
        negotiated=s.negotiated,
        final_round=s.final_turns_left is not None,
        final_turns_left=s.final_turns_left,
        babies=s.babies,
        pool_size=s.pool_size,
        final=final,
    )


def final_view(state: PacapacaState, scores: dict[str, SeatScore], winners: list[str]
               ) -> FinalView:
    """The final scoring as seen by everyone: each alpaca's kept and removed parts and
    score lines (``scores``, in seat order), and the ``winners``."""
    sc = scores
    return FinalView(
        alpacas=[
            FinalAlpaca(
                seat=p,
                kept=sc[p].analysis.kept,
                removed=sc[p].analysis.removed,
                scarves=sc[p].analysis.scarves,
                ribbons=sc[p].analysis.ribbons,
                neck_length=sc[p].analysis.length,
                lines=sc[p].lines,
                total=sc[p].total,
            )
            for p in state.seats
        ],
        winners=winners,
    )
