Feature: Variants and rule profiles
  The four sources agree on the heart of the game but differ in details: whether a bout
  may open with several cards, whether the first bout has a lower limit, in which order
  the players draw, whether the attack can be transferred. The specification turns every
  such difference into a setting of the rule set, and gathers each source's choices into
  a named profile, next to the classic throw-in game (podkidnoy) and the classic transfer
  game (perevodnoy):

    classic-throw-in    the usual throw-in game
    classic-transfer    the usual game with transfers
    source-a            source A's throw-in game
    source-a-transfer   source A's transfer game
    source-b            source B's two-player game without transfer
    source-b-transfer   source B's two-player game with transfer
    source-c            the game as source C teaches it
    source-d            source D's normal game
    source-d-transfer   source D's transfer game

  Some tables also allow a player holding the six of trumps to swap it for the face-up
  trump. No source plays this way, so it is a switch that every profile leaves off.

  @VAR-2 @source-A @source-B @source-C @source-D @variant
  Rule: Each source's choices form a named profile, and the profiles can be compared side by side
    A profile fixes every setting at once. The tables below play the same position under
    every profile, so that one can read off at a glance where the sources part ways.

    Scenario Outline: Under <profile>, Anna <may> open with two sevens together
      Only source B lets a bout open with several cards of one rank; everywhere else the
      attacker opens with one card and adds the others by throwing them in.

      Given the rules of "<profile>"
      And hearts are trump
      And Anna attacks Boris
      And Anna holds 7♣ 7♦ and 4 other cards
      Then Anna <may> open with 7♣ and 7♦ together
      When Anna opens with 7♣ and 7♦
      Then it is <verdict>

      Examples:
        | profile           | may     | verdict               |
        | classic-throw-in  | may not | rejected by ATTACK-2  |
        | classic-transfer  | may not | rejected by ATTACK-2  |
        | source-a          | may not | rejected by ATTACK-2  |
        | source-a-transfer | may not | rejected by ATTACK-2  |
        | source-b          | may     | accepted              |
        | source-b-transfer | may     | accepted              |
        | source-c          | may not | rejected by ATTACK-2  |
        | source-d          | may not | rejected by ATTACK-2  |
        | source-d-transfer | may not | rejected by ATTACK-2  |

    Scenario Outline: Under <profile>, a sixth attack card in the first bout is <verdict>
      Source A lowers the limit to five in a game's first bout, and the classic games
      follow it; source B rules that out, and sources C and D mention none. Boris has
      beaten four of the five attack cards and holds two more cards, so only the
      first-bout limit can stop Anna's jack of diamonds. Where there is no such limit,
      he has beaten the fifth card too and holds one card (where there is, that beat
      would end the bout).

      Given the rules of "<profile>"
      And it is the first bout
      And hearts are trump
      And Anna attacks Boris
      And the table shows 7♣ covered by 9♣, 7♦ covered by 9♦, 9♠ covered by J♠, 7♠ covered by 10♠ and <fifth>
      And Anna holds J♦
      And Boris holds <held>
      When Anna throws in J♦
      Then it is <verdict>

      Examples:
        | profile           | fifth            | held    | verdict             |
        | classic-throw-in  | J♣ uncovered     | 2 cards | rejected by LIMIT-3 |
        | classic-transfer  | J♣ uncovered     | 2 cards | rejected by LIMIT-3 |
        | source-a          | J♣ uncovered     | 2 cards | rejected by LIMIT-3 |
        | source-a-transfer | J♣ uncovered     | 2 cards | rejected by LIMIT-3 |
        | source-b          | J♣ covered by Q♣ | 1 card  | accepted            |
        | source-b-transfer | J♣ covered by Q♣ | 1 card  | accepted            |
        | source-c          | J♣ covered by Q♣ | 1 card  | accepted            |
        | source-d          | J♣ covered by Q♣ | 1 card  | accepted            |
        | source-d-transfer | J♣ covered by Q♣ | 1 card  | accepted            |

    Scenario Outline: Under <profile>, Boris <may> pass the eight of spades on with the eight of hearts
      Sources A, B and D each describe a transfer game besides the throw-in game; source C
      teaches only the throw-in game.

      Given the rules of "<profile>"
      And diamonds are trump
      And Anna attacks Boris
      And the table shows 8♠ uncovered
      And Boris holds 8♥ and 5 other cards
      Then Boris <may> transfer with 8♥
      When Boris transfers with 8♥
      Then it is <verdict>

      Examples:
        | profile           | may     | verdict                |
        | classic-throw-in  | may not | rejected by TRANSFER-8 |
        | classic-transfer  | may     | accepted               |
        | source-a          | may not | rejected by TRANSFER-8 |
        | source-a-transfer | may     | accepted               |
        | source-b          | may not | rejected by TRANSFER-8 |
        | source-b-transfer | may     | accepted               |
        | source-c          | may not | rejected by TRANSFER-8 |
        | source-d          | may not | rejected by TRANSFER-8 |
        | source-d-transfer | may     | accepted               |

    Scenario Outline: Under <profile>, the face-up ace of hearts goes to <lucky>
      Sources A and C let the attacker draw first and then the others clockwise; source D
      lets the players draw in the order they joined the attack. Gleb threw in before
      Vera, and only two cards are left, so the order decides who gets the face-up ace.
      Source B is a game for two, where the attacker draws before the defender under
      every reading, so its profiles are not in this table.

      Given the rules of "<profile>" with 4 players
      And the face-up trump is A♥
      And 2 cards are left in the stock
      And the next card to draw is 8♠
      And Anna attacks Boris
      And Anna holds 7♣ and 5 other cards
      And Boris holds 9♣ 9♦ 9♠ and 3 other cards
      And Vera holds 7♠ and 5 other cards
      And Gleb holds 7♦ and 5 other cards
      When Anna opens with 7♣
      And Gleb throws in 7♦
      And Vera throws in 7♠
      And Boris covers 7♣ with 9♣, 7♦ with 9♦ and 7♠ with 9♠
      Then the bout is beaten off
      And Anna has 8♠ in hand
      And <lucky> has A♥ in hand
      And <unlucky> holds 5 cards

      Examples:
        | profile           | lucky | unlucky |
        | classic-throw-in  | Vera  | Gleb    |
        | classic-transfer  | Vera  | Gleb    |
        | source-a          | Vera  | Gleb    |
        | source-a-transfer | Vera  | Gleb    |
        | source-c          | Vera  | Gleb    |
        | source-d          | Gleb  | Vera    |
        | source-d-transfer | Gleb  | Vera    |

  @VAR-1 @source-B @variant
  Rule: There is no trump exchange unless a table switches it on
    Some players allow the holder of the six of trumps to swap it for the face-up trump
    under the stock. Source B rules this out in so many words and the other sources do
    not mention it, so every profile leaves the switch "trump_exchange" off; with the
    switch on, the attacker may make the swap before opening a bout.

    Scenario Outline: Under <profile>, Anna may not swap the six of hearts for the face-up ace
      Given the rules of "<profile>"
      And the face-up trump is A♥
      And 10 cards are left in the stock
      And Anna attacks Boris
      And Anna holds 6♥ 7♣ K♠ and 3 other cards
      Then Anna may not exchange the trump six
      When Anna exchanges the trump six
      Then it is rejected by VAR-1

      Examples:
        | profile           |
        | classic-throw-in  |
        | classic-transfer  |
        | source-a          |
        | source-a-transfer |
        | source-b          |
        | source-b-transfer |
        | source-c          |
        | source-d          |
        | source-d-transfer |

    Example: With the switch on, Anna swaps the six of hearts for the ace and then opens
      Given the classic throw-in game
      And the switch "trump_exchange" is on
      And the face-up trump is A♥
      And 10 cards are left in the stock
      And Anna attacks Boris
      And Anna holds 6♥ 7♣ K♠ 8♦ 10♣ Q♦
      Then Anna may exchange the trump six
      When Anna exchanges the trump six
      Then it is accepted
      And Anna holds A♥ 7♣ K♠ 8♦ 10♣ Q♦
      And the face-up trump is 6♥
      And the stock holds 10 cards
      And only Anna may act
      When Anna opens with 7♣
      Then it is accepted
      And Anna may not exchange the trump six

    Example: With the switch on under source D's rules, Vera swaps the six with four players
      Given the rules of "source-d" with 4 players
      And the switch "trump_exchange" is on
      And the face-up trump is J♠
      And 8 cards are left in the stock
      And Vera attacks Gleb
      And Vera holds 6♠ and 5 other cards
      When Vera exchanges the trump six
      Then Vera has J♠ in hand
      And Vera does not hold 6♠
      And the face-up trump is 6♠

  @CLAR-5 @clarification
  Rule: With the exchange switched on, only the attacker swaps, before opening, while the stock still has cards above the trump
    No source describes how an exchange is made, so the specification decides: only the
    player about to open a bout may swap, only before the first card of the bout is
    played, and only while at least one hidden card still lies on top of the face-up trump
    (so the exchanged six is never simply the next card drawn). The swap is not a move of
    the bout: the same player then opens as usual. The six goes face up under the stock,
    and the card taken up is known to every player.

    Example: Boris holds the six of hearts, but only Anna, the attacker, may swap
      Given the classic throw-in game
      And the switch "trump_exchange" is on
      And the face-up trump is A♥
      And 10 cards are left in the stock
      And Anna attacks Boris
      And Boris holds 6♥ and 5 other cards
      Then Boris may not exchange the trump six
      When Boris exchanges the trump six
      Then it is rejected by CLAR-5

    Example: Once Anna has opened, the swap comes too late
      Given the classic throw-in game
      And the switch "trump_exchange" is on
      And the face-up trump is A♥
      And 10 cards are left in the stock
      And Anna attacks Boris
      And the table shows 7♣ uncovered
      And Anna holds 6♥ and 4 other cards
      Then Anna may not exchange the trump six
      When Anna exchanges the trump six
      Then it is rejected by CLAR-5

    Scenario Outline: With <hidden> above the face-up ace, Anna's swap is <verdict>
      The stock count includes the face-up ace itself.

      Given the classic throw-in game
      And the switch "trump_exchange" is on
      And the face-up trump is A♥
      And <stock>
      And Anna attacks Boris
      And Anna holds 6♥ and 5 other cards
      When Anna exchanges the trump six
      Then it is <verdict>

      Examples:
        | hidden       | stock                         | verdict            |
        | four cards   | 5 cards are left in the stock | accepted           |
        | two cards    | 3 cards are left in the stock | accepted           |
        | one card     | 2 cards are left in the stock | accepted           |
        | no card      | 1 card is left in the stock   | rejected by CLAR-5 |

    Example: Everyone knows that Anna took up the ace of hearts, until she plays it
      Given the players Anna, Boris and Vera
      And the switch "trump_exchange" is on
      And the face-up trump is A♥
      And 10 cards are left in the stock
      And Anna attacks Boris
      And Anna holds 6♥ 7♣ K♠ and 3 other cards
      Then none of Anna's cards is known to everyone
      When Anna exchanges the trump six
      Then everyone knows that Anna holds exactly A♥
      When Anna opens with A♥
      Then none of Anna's cards is known to everyone
