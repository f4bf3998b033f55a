"""durak-spec: the executable rules specification of Durak and its reference engine.

The public API in one import::

    from durak_spec import profile, new_game, legal_actions, apply, parse_card
"""

from .actions import (
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
from .cards import DECK, Card, CardError, Rank, Suit, format_cards, parse_card, parse_cards
from .engine import (
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
from .errors import DurakError, IllegalAction, InvalidState, NotationError
from .game import Game, ReplayError
from .persist import SavedGameError
from .rules import (
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
from .state import GameState, Outcome, Pair
from .view import PlayerView
from .view import view as player_view

__version__ = "0.1.0"

__all__ = [
    "AXES",
    "DECK",
    "PROFILES",
    "Action",
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
