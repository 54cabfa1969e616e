"""Decision keys and the codes a table's choices carry (pure: no Discord, no I/O).

A model is drawn for one seat and one decision, named by a short *decision key*
(:func:`decision_key`): a hash of the pending decision (kind and key) and of that seat's
legal actions. A click whose key is no longer the clicker's (or, for someone not to act,
any pending seat's) decision key is stale ("This table has moved on"). Because the key
hashes the legal actions, not the state version, two set-up placements by different
players at the same moment both stand: one's placement does not change the other's
choices, so the other's key stays the same.

A decision several seats make at once (:func:`simultaneous`: a set-up, a reaction
window, a negotiation) may change a seat's key though its own decision is still open:
another seat's pick shrinks the list (Llamas Unleashed's Babies come from one Nursery),
or a choice shared by two seats is coded with the key of the one whose action it indexes
(Pacapaca's Accept) and that seat has acted. There each choice also carries a
fingerprint of its action (:func:`choice_value`), and a click whose key went stale still
plays the action it names when that action is in the clicker's legal actions now
(:func:`decode`); an opener of a private panel opens the clicker's panel as it is now
(:func:`still_deciding`). A seat's own answer takes it out of such a decision (it
passes, accepts, places once), so a second press of a spent choice stays stale.

Custom ids (see :mod:`bot.discord.ids`) carry the game id and a code:

- ``a.<key>.<index>``: a button playing action ``index``;
- ``s.<key>``: a select whose option values are action indexes (a paged select adds the
  ``,p<page>`` / ``,b<page>`` / ``,f<page>`` of :mod:`bot.discord.choices`);
- ``o.<key>.<panel>``: a button opening the ephemeral panel ``panel`` of the model
  (``panel``: letters, digits, ``_`` and ``-``).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.base import Action, Engine, IllegalAction, Pending

#: Characters of a decision key (hex digits of a BLAKE2b digest: 40 bits).
KEY_LENGTH = 10

_PANEL = re.compile(r"[A-Za-z0-9_\-]{1,24}")
_CODE = re.compile(
    rf"(?P<kind>[aso])\.(?P<key>[0-9a-f]{{{KEY_LENGTH}}})(?:\.(?P<arg>[A-Za-z0-9_\-]{{1,24}}))?"
)


class StaleChoice(Exception):
    """The choice was drawn for a decision that is over ("This table has moved on")."""


class ForgedChoice(Exception):
    """The choice names no action of the decision (an index out of range, a bad code)."""


def decision_key(pending: Pending, legal: Sequence[Action]) -> str:
    """The :data:`KEY_LENGTH`-hex-digit key of a decision as one seat faces it: a BLAKE2b
    hash of the pending kind and key and of the seat's legal actions in order. Equal keys
    mean index ``i`` names the same action."""
    h = hashlib.blake2b(digest_size=KEY_LENGTH // 2)
    h.update(f"{pending.kind}\x1f{pending.key}".encode())
    h.update(b"".join([b"\x1e" + _json(action) for action in legal]))
    return h.hexdigest()


def _json(action: Action) -> bytes:
    """``action.model_dump_json()`` as UTF-8 bytes (pydantic's serializer, called as
    ``model_dump_json`` calls it)."""
    return action.__pydantic_serializer__.to_json(action)  # type: ignore[no-any-return]


def action_code(key: str, index: int, prints: Sequence[str] = ()) -> str:
    """The component code of a button playing action ``index``: ``a.<key>.<index>``
    (``<index>-<fingerprint>`` in a decision with ``prints``, see :func:`choice_value`)."""
    return f"a.{key}.{choice_value(index, prints)}"


def select_code(key: str) -> str:
    """The component code of a select whose values are action indexes: ``s.<key>``."""
    return f"s.{key}"


def panel_code(key: str, panel: str) -> str:
    """The component code of a button opening ``panel``: ``o.<key>.<panel>``. Raises
    ``ValueError`` for a panel name outside ``[A-Za-z0-9_-]{1,24}``."""
    if not _PANEL.fullmatch(panel):
        raise ValueError(f"bad panel name {panel!r}")
    return f"o.{key}.{panel}"


def parse_code(code: str) -> tuple[str, str, str] | None:
    """``(kind, key, arg)`` of a presenter code (``kind`` ``"a"``, ``"s"`` or ``"o"``;
    ``arg`` the index or panel name, ``""`` for a select), or ``None`` when ``code`` is
    not one (an older cog's own code)."""
    match = _CODE.fullmatch(code)
    if match is None:
        return None
    kind, arg = match["kind"], match["arg"] or ""
    if (kind == "s") != (arg == "") or (kind == "a" and not _VALUE.fullmatch(arg)):
        return None
    return kind, match["key"], arg


#: Decisions each seat makes once while other seats make theirs, so that a seat's options
#: shrink as the others decide (Llamas Unleashed's set-up: every seat picks a Baby from
#: one Nursery): :func:`simultaneous` even when one seat is left.
REPICK_KINDS = frozenset({"setup"})

_VALUE = re.compile(r"(?P<index>\d{1,4})(?:-(?P<print>[0-9a-f]{6}))?")


def fingerprint(pending: Pending, action: Action) -> str:
    """Six hex digits naming ``action`` within the decision ``pending`` (its kind and key):
    a BLAKE2b hash, so a forged fingerprint names no action."""
    h = hashlib.blake2b(digest_size=3)
    h.update(f"{pending.kind}\x1f{pending.key}\x1e".encode())
    h.update(_json(action))
    return h.hexdigest()


def simultaneous(pending: Pending, legal_of: Mapping[str, Sequence[Action]]) -> bool:
    """True when ``pending`` is decided by several seats at once: more than one seat has
    legal actions (``legal_of``: seat -> its ``legal_actions``), or it is one of
    :data:`REPICK_KINDS`. Its choices carry fingerprints (:func:`repick_prints`)."""
    return pending.kind in REPICK_KINDS or sum(1 for legal in legal_of.values() if legal) > 1


class Prints(Sequence[str]):
    """The fingerprints of ``legal`` in order (:func:`fingerprint`), each worked out when
    first asked for: a model draws only a few of a long list (Pacapaca's deals)."""

    def __init__(self, pending: Pending, legal: Sequence[Action]):
        self._pending, self._legal = pending, legal
        self._done: dict[int, str] = {}

    def __len__(self) -> int:
        return len(self._legal)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        i = range(len(self._legal))[index]  # IndexError past the end, as a tuple
        if i not in self._done:
            self._done[i] = fingerprint(self._pending, self._legal[i])
        return self._done[i]


def repick_prints(pending: Pending, legal: Sequence[Action],
                  together: bool = False) -> Sequence[str]:
    """The fingerprints of ``legal`` in order (:class:`Prints`) when ``pending`` is one of
    :data:`REPICK_KINDS` or ``together`` (a :func:`simultaneous` decision), else ``()``."""
    if not together and pending.kind not in REPICK_KINDS:
        return ()
    return Prints(pending, legal)


def choice_value(index: int, prints: Sequence[str] = ()) -> str:
    """A select value or button argument for action ``index``: ``"<index>"``, or
    ``"<index>-<fingerprint>"`` when ``prints`` (from :func:`repick_prints`) has one."""
    return f"{index}-{prints[index]}" if 0 <= index < len(prints) else str(index)


def index_of(text: str) -> int:
    """An action index from a code or a select value (``"3"`` or ``"3-<fingerprint>"``).
    Raises :class:`ForgedChoice` unless the index is a decimal number below 10000."""
    match = _VALUE.fullmatch(text)
    if match is None:
        raise ForgedChoice(text)
    return int(match["index"])


def print_of(text: str) -> str:
    """The fingerprint of a value made by :func:`choice_value`, ``""`` when it has none."""
    match = _VALUE.fullmatch(text)
    return (match["print"] or "") if match else ""


def seat_for(engine: Engine[Any, Any], state: Any, seat: str, key: str) -> str:
    """The seat whose decision ``key`` names now: ``seat`` itself when it is its decision
    key, else the pending seat, then any other seat, whose key it is (someone pressed a
    choice meant for another player). Raises :class:`StaleChoice` when it is nobody's.
    An ``engine`` with a ``decision_key(state, seat)`` method gives the keys itself."""
    pending = engine.pending(state)
    order = [seat, *pending.seats, *getattr(state, "seats", [])]
    known = getattr(engine, "decision_key", None)
    for who in dict.fromkeys(order):
        if (known(state, who) if known is not None
                else decision_key(pending, engine.legal_actions(state, who))) == key:
            return who
    raise StaleChoice(key)


def decode(engine: Engine[Any, Any], state: Any, seat: str, key: str, index: int,
           fingerprint_: str = "") -> Action:
    """The action a click of ``seat`` on choice ``index`` of decision ``key`` plays now:
    ``legal_actions(state, who)[index]`` for ``who`` = :func:`seat_for`; when ``who`` is
    not ``seat``, the engine refuses it for ``seat`` in its own words ("It is Maya's
    turn."). Raises :class:`StaleChoice` (see :func:`seat_for`) and
    :class:`ForgedChoice` for an index past the actions.

    A stale key with a ``fingerprint`` (see :func:`choice_value`: drawn in a
    :func:`simultaneous` decision) plays the action it names when that action is in
    ``seat``'s legal actions now, in the same decision (the fingerprint hashes its kind
    and key): another seat's move changed the key, not this choice."""
    try:
        who = seat_for(engine, state, seat, key)
    except StaleChoice:
        if fingerprint_:
            pending = engine.pending(state)
            for action in engine.legal_actions(state, seat):
                if fingerprint(pending, action) == fingerprint_:
                    return action
        raise
    legal = engine.legal_actions(state, who)
    if not 0 <= index < len(legal):
        raise ForgedChoice(str(index))
    return legal[index]


def still_deciding(engine: Engine[Any, Any], state: Any, seat: str) -> bool:
    """True when ``seat`` has legal actions in a :func:`simultaneous` decision now: a
    private panel it opens from a table drawn before another seat's move (a stale key)
    opens as it is now, for it to decide."""
    if not engine.legal_actions(state, seat):
        return False
    if engine.pending(state).kind in REPICK_KINDS:
        return True
    return any(engine.legal_actions(state, s) for s in getattr(state, "seats", []) if s != seat)


def refusal(engine: Engine[Any, Any], state: Any, seat: str, action: Action) -> IllegalAction:
    """The engine's refusal of ``action`` for ``seat`` (``apply`` on a copy, nothing
    stored): used when someone opens a panel meant for another player. An action the
    engine would accept yields ``IllegalAction("not_yours", ...)``."""
    try:
        engine.apply(state, seat, action)
    except IllegalAction as exc:
        return exc
    return IllegalAction("not_yours", "This choice is not yours to make.")
