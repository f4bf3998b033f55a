"""Which of the sources' tested tips a costly move went against (layer 7).

The coach compares the move played with the better move its evaluator found and names
the tip (TIP-1 … TIP-11, :class:`~durak_spec.play.bots.Tip`) that the difference between
them is about, the first that applies in this order: a transfer where defending was
better (TIP-8), a take that swells the hand (TIP-11), a trump spent where the better move
keeps it (TIP-2), a pair broken (TIP-4), a higher card played where a lower one of the
same kind would do (TIP-1), a thrower other than the attacker who stopped while a card
could still go on the table (TIP-9). Each tip links to its section of the tips chapter
and to its experiment on the evidence page of the website
(``tips-evidence.html#evidence-TIP-2``), where the tip was put to the test.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from durak_spec.core.cards import Card
from durak_spec.core.ruleindex import load_rule_index
from durak_spec.game.view import PlayerView
from durak_spec.model.actions import Action, Cover, Done, Open, Take, ThrowIn, Transfer
from durak_spec.play.bots.knowledge import strength
from durak_spec.play.bots.tips import Tip
from durak_spec.play.tipsim import EXPERIMENTS, evidence_anchor

__all__ = ["EARLY_STOCK", "EVIDENCE_PAGE", "LARGE_HAND", "TipNote", "evidence_link",
           "tip_link", "which_tip"]

EVIDENCE_PAGE = "tips-evidence.html"
"""The website's page with every tip's experiment (anchors ``evidence-TIP-n``)."""

EARLY_STOCK = 12
"""A trump spent while the stock holds at least this many cards is called spent early
(TIP-2; the heuristic player's ``big_stock``)."""

LARGE_HAND = 8
"""A take that leaves more cards than this in hand swells it (TIP-11; the heuristic
player's ``max_hand_after_take``)."""


@dataclass(frozen=True, slots=True)
class TipNote:
    """A tip a move went against: its ID, its title and where the website explains and
    tests it."""

    tip: Tip
    title: str
    why: str
    """What in the move goes against the tip, in a few words."""

    @property
    def id(self) -> str:
        return self.tip.value

    @property
    def link(self) -> str:
        """The tip's section in the tips chapter (``tips.html#TIP-2``)."""
        return tip_link(self.tip)

    @property
    def evidence(self) -> str:
        """The tip's experiment on the evidence page (``tips-evidence.html#evidence-TIP-2``)."""
        return evidence_link(self.tip)

    def to_json(self) -> dict[str, str]:
        return {"id": self.id, "title": self.title, "why": self.why, "link": self.link,
                "evidence": self.evidence}


def tip_link(tip: Tip) -> str:
    """The tip's section on the website, relative to the book's root."""
    return f"{load_rule_index()[tip.value].chapter}.html#{tip.value}"


def evidence_link(tip: Tip) -> str:
    """The tip's experiment on the evidence page, relative to the book's root."""
    return f"{EVIDENCE_PAGE}#{evidence_anchor(tip.value)}"


def _trumps(action: Action, seen: PlayerView) -> int:
    if isinstance(action, Transfer) and action.show:
        return 0  # a shown trump stays in the hand
    return sum(1 for c in action.cards if c.suit == seen.trump)


def _breaks_pair(action: Action, hand: tuple[Card, ...]) -> bool:
    """Whether the action plays some but not all cards of a rank held twice or more."""
    if isinstance(action, Transfer) and action.show:
        return False
    held = Counter(c.rank for c in hand)
    played = Counter(c.rank for c in action.cards)
    return any(held[rank] >= 2 and count < held[rank] for rank, count in played.items())


def _note(tip: Tip, why: str) -> TipNote | None:
    """The note, for a tip the evidence page tests (every tip the coach names is)."""
    if all(e.tip != tip for e in EXPERIMENTS):
        return None
    return TipNote(tip, load_rule_index()[tip.value].title, why)


def which_tip(seen: PlayerView, played: Action, better: Action) -> TipNote | None:
    """The tip that ``played`` went against where ``better`` follows it, if any."""
    if isinstance(played, Transfer) and not isinstance(better, Transfer):
        return _note(Tip.CHECK_TRANSFER_TARGET,
                     "the attack was passed on where defending it was better")
    if isinstance(played, Take) and not isinstance(better, Take):
        after = len(seen.hand) + sum(1 + (p.cover is not None) for p in seen.table)
        if after > LARGE_HAND:
            return _note(Tip.MIND_HAND_SIZE, f"the take leaves {after} cards in hand")
    if _trumps(played, seen) > _trumps(better, seen):
        early = " early" if seen.stock >= EARLY_STOCK else ""
        return _note(Tip.SAVE_TRUMPS, f"a trump spent{early} where {better.move} keeps it"
                     + (f" ({seen.stock} cards in the stock)" if seen.stock else ""))
    if _breaks_pair(played, seen.hand) and not _breaks_pair(better, seen.hand):
        return _note(Tip.KEEP_PAIRS, "a pair in hand was broken")
    if (type(played) is type(better) and len(played.cards) == len(better.cards) == 1
            and isinstance(played, Open | ThrowIn | Cover)
            and strength(played.cards[0], seen.trump) > strength(better.cards[0], seen.trump)):
        return _note(Tip.LOW_CARDS_FIRST, f"{played.cards[0]} played where "
                                          f"{better.cards[0]} would do")
    if (isinstance(played, Done) and isinstance(better, ThrowIn)
            and seen.seat != seen.attacker):
        return _note(Tip.THROW_IN_TOGETHER, "a card that fitted the attack was kept back")
    return None

