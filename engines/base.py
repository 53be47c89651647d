"""The engine contract every game implements (see docs/engine.md).

An engine is pure rules: no discord, no asyncio, no database, no clock, no random module.
State is a JSON-compatible dict, so a snapshot is just ``json.dumps(state)``.
"""
from __future__ import annotations

import pickle
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from engines.text import Msg, Name

Action = dict[str, Any]
State = dict[str, Any]

#: The seat that plays chance actions (dice, shuffles, draws) and expired timers.
CHANCE = -1


class RuleError(Exception):
    """An illegal action, with the sentence that tells the player why: an English template and its values
    (``RuleError("{corp} cannot reach {where}.", corp=cid, where=name)``), said in each reader's language by the
    bot; ``str()`` is the English."""

    def __init__(self, template: str | Msg, **values: Any):
        self.msg = template if isinstance(template, Msg) else Msg(template, values)
        super().__init__(str(self.msg))


@dataclass(frozen=True)
class ChanceRequest:
    """What the chance seat must draw next.

    kind "dice": ``count`` dice with ``sides`` sides; the outcome is a list of ints.
    kind "shuffle": a permutation of ``range(count)``.
    kind "pick": one index in ``range(count)``.
    """

    kind: str
    count: int
    sides: int = 6
    reason: str | Msg = ""  # what the draw is for, in words (a message, said in each reader's language)


@dataclass(frozen=True)
class Awaiting:
    """Who must act now: several seats at once for a simultaneous secret choice,
    or a chance request, or nobody when the game is over."""

    seats: frozenset[int] = frozenset()
    chance: ChanceRequest | None = None
    #: Seconds the seats have before the engine's ``expire`` action is applied (deal windows).
    window: float | None = None
    #: Words for "what the game waits for", e.g. msg("a secret card choice"): a message (engines/text.py), said in
    #: each reader's language; a plain string is said as it is.
    prompt: str | Msg = ""
    #: A simultaneous secret choice: seats may change their mind until the last one has
    #: chosen, and the step's end is a reveal that undo may not cross.
    secret: bool = False
    #: The seats whose decision the game waits for, to be pinged and reminded, when not every seat that may act
    #: now is one (an 18xx offer: the seller decides, the buyer may only take it back). None: all of ``seats``.
    deciding: frozenset[int] | None = None

    @property
    def pinged(self) -> frozenset[int]:
        return self.seats if self.deciding is None else self.deciding


@dataclass(frozen=True)
class Option:
    """A table option a game offers at creation (variants, round counts...)."""

    name: str
    description: str
    default: Any
    choices: tuple[Any, ...] = field(default_factory=tuple)


def clone(state: State) -> State:
    """A deep copy of a state (plain JSON-like data), several times faster than copy.deepcopy."""
    return pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))


@cache
def _fields():
    """engines/fields.py, which builds on this module: imported at the first move rather than at the top, and once
    (an import statement in `apply` cost more than the action's check)."""
    from engines import fields
    return fields


class Engine:
    """Base class. Subclasses implement the rule methods; ``apply`` copies the state
    so a failed action leaves the caller's state untouched."""

    name: str = ""
    title: str = ""
    title_ja: str = ""  # the title as Japanese players know it
    min_players: int = 2
    max_players: int = 4
    #: Bump when the state layout changes; stored with each game.
    data_version: int = 1
    options: tuple[Option, ...] = ()
    #: How often selfplay plays ``auto_action`` instead of a uniform legal move (games where random play
    #: cannot finish, e.g. a walker that must not revisit a point).
    selfplay_auto: float = 0.0
    #: The players' actions and the types of their fields (engines/fields.py), checked before ``_apply``.
    actions: dict[str, dict[str, str]] = {}
    #: False when every seat's view is the public one: the runtime then never looks for private changes.
    has_secrets: bool = True

    @property
    def title_name(self) -> Name:
        """The game's title in both languages (the bot says it in each reader's)."""
        return Name(self.title, self.title_ja)

    # --- to implement -------------------------------------------------
    def setup(self, options: dict[str, Any], seats: int) -> State:
        raise NotImplementedError

    def awaiting(self, state: State) -> Awaiting:
        raise NotImplementedError

    def _apply(self, state: State, seat: int, action: Action) -> None:
        """Mutate ``state`` (a private copy) or raise RuleError before mutating."""
        raise NotImplementedError

    def legal(self, state: State, seat: int) -> list[Action]:
        raise NotImplementedError

    def view(self, state: State, seat: int) -> dict[str, Any]:
        raise NotImplementedError

    def public(self, state: State) -> dict[str, Any]:
        raise NotImplementedError

    def private(self, state: State, seat: int) -> dict[str, Any]:
        """What only this seat knows: its view less the public part. An engine that knows which keys are
        secret may say so more cheaply (tests/test_private_diff.py holds it to this definition)."""
        return self.privates(state, seat + 1)[seat]

    def hides(self, state: State) -> bool:
        """Whether this state holds secrets: ``has_secrets``, unless the game keeps them only by a table option
        (1890's hidden cash)."""
        return self.has_secrets

    def privates(self, state: State, seats: int) -> list[dict[str, Any]]:
        """``private`` for seats 0..seats-1, the public part computed once."""
        if not self.has_secrets:
            return [{} for _ in range(seats)]
        pub = self.public(state)
        return [{k: v for k, v in self.view(state, s).items() if pub.get(k, object()) != v} for s in range(seats)]

    def scores(self, state: State) -> list[int] | None:
        """Final scores by seat once the game is over, else None."""
        raise NotImplementedError

    def ranking(self, state: State) -> list[list[int]]:
        """Seats from first place to last once the game is over; seats tied on the game's tie-break share a
        place. Default: by score alone (a game with a tie-break overrides this)."""
        scores = self.scores(state) or []
        places: list[list[int]] = []
        for seat in sorted(range(len(scores)), key=lambda s: -scores[s]):
            if places and scores[places[-1][0]] == scores[seat]:
                places[-1].append(seat)
            else:
                places.append([seat])
        return places

    def label(self, action: Action) -> Msg | str:
        """A short name of an action for buttons and logs, a message said in the reader's language (engines name
        their own moves; this default names chance outcomes, else the action's type as it is written)."""
        from engines.words import chance_label

        return chance_label(action) or str(action.get("type", "a move")).replace("_", " ").capitalize()

    # --- optional hooks -----------------------------------------------
    def auto_action(self, state: State, seat: int) -> Action | None:
        """What a seat plays when its time runs out (auto-pass), or None if the game has none."""
        return None

    def expire(self, state: State) -> Action | None:
        """The CHANCE-seat action applied when an awaiting ``window`` runs out."""
        return None

    def can_act(self, state: State, seat: int) -> bool:
        """May this seat send an action now? Default: it is awaited. Engines with secret
        steps also let seats that already chose change their mind. Every awaited seat may act
        (``apply`` asks only about the others)."""
        return seat in self.awaiting(state).seats

    def who_acts(self, state: State) -> Awaiting:
        """What ``apply`` checks a move against: ``awaiting``'s seats, chance request and window. An engine whose
        prompt costs more to word than to know who acts may leave the prompt out here (apply never shows it)."""
        return self.awaiting(state)

    def reveals(self, before: State, seat: int, action: Action, after: State) -> bool:
        """True when the action revealed something hidden, so undo may not cross it.
        Default: it was the last choice a simultaneous secret step waited for, or the end of
        its window."""
        aw = self.awaiting(before)
        return aw.secret and (seat == CHANCE or aw.seats == frozenset({seat}))

    # --- provided -----------------------------------------------------
    def apply(self, state: State, seat: int, action: Action, *, in_place: bool = False) -> State:
        """The state after the move; the state given is left as it was, unless ``in_place``: a caller that throws
        the state away when a move is refused (a replay of a whole log) may save the copy."""
        self.check_move(state, seat, action, self.who_acts(state))
        new = state if in_place else self.clone(state)
        self._apply(new, seat, action)
        return new

    def check_move(self, state: State, seat: int, action: Action, aw: Awaiting) -> None:
        """Refuses a move that is not well formed or not this seat's to make now (``aw``: ``who_acts(state)``,
        which an engine that overrides ``apply`` may have at hand)."""
        fields = _fields()
        if type(action) is not dict or type(action.get("type")) is not str:
            raise RuleError("That is not a move this game knows.")
        if type(seat) is not int or seat < CHANCE:
            raise RuleError("That is not a seat at this table.")
        if seat == CHANCE:
            if aw.chance is not None:
                fields.check_chance(action, aw.chance)
            elif not (aw.window and action == self.expire(state)):
                raise RuleError("No chance draw is due now.")
        elif seat not in aw.seats and not self.can_act(state, seat):
            if aw.seats or aw.chance:
                raise RuleError("It is not your turn.")
            raise RuleError("The game is over.")
        else:
            fields.check_action(action, self.actions)

    def clone(self, state: State) -> State:
        """The copy ``apply`` changes. An engine whose state holds a large part it only ever replaces, never
        changes in place, may share that part between the copies."""
        return clone(state)

    def is_over(self, state: State) -> bool:
        return self.scores(state) is not None

    def default_options(self) -> dict[str, Any]:
        return {o.name: o.default for o in self.options}

    def check_setup(self, options: dict[str, Any], seats: int) -> dict[str, Any]:
        """What every ``setup`` checks first: the options (returned with defaults filled), then the seat count."""
        merged = self.check_options(options)
        if not self.min_players <= seats <= self.max_players:
            raise RuleError("{game} takes {least} to {most} players.", game=self.title_name,
                            least=self.min_players, most=self.max_players)
        return merged

    def check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """Fill defaults and refuse unknown or out-of-range options with a sentence."""
        known = {o.name: o for o in self.options}
        for key in options:
            if key not in known:
                raise RuleError("{game} has no option called {name}.", game=self.title_name, name=repr(key))
        merged = self.default_options() | options
        for o in self.options:
            if o.choices and merged[o.name] not in o.choices:
                allowed = ", ".join(str(c) for c in o.choices)
                raise RuleError("Option {name} must be one of {allowed}.", name=o.name, allowed=allowed)
        return merged
