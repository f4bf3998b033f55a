"""durak-spec: the executable rules specification of Durak and its reference engine.

The public API in one import::

    from durak_spec import profile, new_game, legal_actions, apply, parse_card
"""

from durak_spec.core.cards import (
    DECK,
    Card,
    CardError,
    Rank,
    Suit,
    format_cards,
    parse_card,
    parse_cards,
)
from durak_spec.core.errors import (
    BadAction,
    DurakError,
    IllegalAction,
    InputError,
    InvalidState,
    NotationError,
)
from durak_spec.core.version import __version__
from durak_spec.engine import (
    apply,
    attack_limit,
    beats,
    check,
    first_attacker,
    is_legal,
    legal_actions,
    new_game,
    throwers,
    validate_state,
)
from durak_spec.game.history import Game, ReplayError
from durak_spec.game.persist import SavedGameError
from durak_spec.game.view import PlayerView
from durak_spec.game.view import view as player_view
from durak_spec.model.actions import (
    Action,
    Cover,
    Done,
    ExchangeTrump,
    Open,
    Take,
    ThrowIn,
    Transfer,
    action_from_json,
    parse_action,
)
from durak_spec.model.rules import (
    AXES,
    PROFILES,
    DrawOrder,
    LimitReading,
    NoTrumpLead,
    Profile,
    RuleSet,
    RuleSetError,
    profile,
)
from durak_spec.model.state import GameState, Outcome, Pair

__all__ = [
    "AXES",
    "DECK",
    "PROFILES",
    "Action",
    "BadAction",
    "Card",
    "CardError",
    "Cover",
    "Done",
    "DrawOrder",
    "DurakError",
    "ExchangeTrump",
    "Game",
    "GameState",
    "IllegalAction",
    "InputError",
    "InvalidState",
    "LimitReading",
    "NoTrumpLead",
    "NotationError",
    "Open",
    "Outcome",
    "Pair",
    "PlayerView",
    "Profile",
    "Rank",
    "ReplayError",
    "RuleSet",
    "RuleSetError",
    "SavedGameError",
    "Suit",
    "Take",
    "ThrowIn",
    "Transfer",
    "__version__",
    "action_from_json",
    "apply",
    "attack_limit",
    "beats",
    "check",
    "first_attacker",
    "format_cards",
    "is_legal",
    "legal_actions",
    "new_game",
    "parse_action",
    "parse_card",
    "parse_cards",
    "player_view",
    "profile",
    "throwers",
    "validate_state",
]
