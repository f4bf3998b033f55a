Feature: Drawing from the stock
  Between bouts the stock refills the hands: in turn, each player tops up to six cards,
  until the stock is used up and the rest get fewer or none. The stock's last card is
  always the face-up trump, so whoever draws it holds a card every player has seen. Once
  the stock runs short the order of drawing decides who gets what; the sources differ on
  that order, and the rule set makes it a setting.

  The players sit clockwise in the order they are named. In these examples the next
  cards to draw are named, so that each scenario can show who received which card. With
  six players the whole deck is dealt and nobody ever draws.

  @DRAW-1 @source-A @source-B @source-C @source-D
  Rule: Hands are topped up to six after every bout
    Once a bout has ended, whether it was beaten off or taken, every player who holds
    fewer than six cards takes cards from the top of the stock until they hold six again
    or the stock is exhausted. Attackers and defender alike refill.

    Example: After a beaten-off bout Anna and Boris both refill to six
      Given hearts are trump
      And Anna attacks Boris
      And Anna holds 7♣ 9♦ and 4 other cards
      And Boris holds 9♣ 10♦ and 4 other cards
      And the next cards to draw are 6♥ 7♥ 8♥ 9♥
      And 10 cards are left in the stock
      When Anna opens with 7♣
      And Boris covers 7♣ with 9♣
      And Anna throws in 9♦
      And Boris covers 9♦ with 10♦
      Then the bout is beaten off
      And each player holds 6 cards
      And Anna has 6♥ 7♥ in hand
      And Boris has 8♥ 9♥ in hand
      And the stock holds 6 cards

    Example: After Boris takes, Anna and Vera refill what they threw in
      Given the players Anna, Boris and Vera
      And hearts are trump
      And Anna attacks Boris
      And Anna holds 7♣ and 5 other cards
      And Vera holds 7♦ and 5 other cards
      And the next cards to draw are 6♥ 7♥
      And 10 cards are left in the stock
      When Anna opens with 7♣
      And Vera throws in 7♦
      And Boris takes
      Then Boris has taken the cards
      And Anna holds 6 cards
      And Anna has 6♥ in hand
      And Vera holds 6 cards
      And Vera has 7♥ in hand
      And Boris holds 8 cards
      And the stock holds 8 cards

  @DRAW-2 @source-A @source-B @source-C @source-D @variant
  Rule: The order of drawing is a setting: the attacker first, or in the order of joining the attack
    All sources let the defender draw last. Before that, sources A and C let the attacker
    draw first and then the other players in turn round the table; source D lets the
    players draw in the order in which they joined the attack; source B, a game for two,
    has the attacker draw before the defender, which both orders agree with. The rule set
    has the setting "draw_order": attacker-first for A, B, C and the classic games,
    join-order for D. The two orders differ once a player further round the table joins
    the attack before a player nearer the attacker; the order decides who gets which card,
    and who goes short when the stock runs out.

    Scenario Outline: Under <profile>, two players draw the attacker first and the defender last
      Given the rules of "<profile>"
      And hearts are trump
      And Anna attacks Boris
      And Anna holds 7♣ 9♦ and 4 other cards
      And Boris holds 9♣ 10♦ and 4 other cards
      And the next cards to draw are 6♥ 7♥
      And the face-up trump is A♥
      And 4 cards are left in the stock
      When Anna opens with 7♣
      And Boris covers 7♣ with 9♣
      And Anna throws in 9♦
      And Boris covers 9♦ with 10♦
      Then the bout is beaten off
      And Anna holds 6 cards
      And Anna has 6♥ 7♥ in hand
      And Boris holds 6 cards
      And Boris has A♥ in hand

      Examples:
        | profile          |
        | source-b         |
        | source-a         |
        | source-d         |
        | classic-throw-in |

    Scenario Outline: Under <profile> (<order>), three players draw Anna, Vera, then Boris
      Given the rules of "<profile>" with 3 players
      And hearts are trump
      And Anna attacks Boris
      And Anna holds 7♣ and 5 other cards
      And Boris holds 9♣ 9♦ and 4 other cards
      And Vera holds 7♦ and 5 other cards
      And the next cards to draw are 6♥ 7♥ 8♥ 9♥
      And 10 cards are left in the stock
      When Anna opens with 7♣
      And Vera throws in 7♦
      And Boris covers 7♣ with 9♣ and 7♦ with 9♦
      Then the bout is beaten off
      And each player holds 6 cards
      And Anna has 6♥ in hand
      And Vera has 7♥ in hand
      And Boris has 8♥ 9♥ in hand

      Examples:
        | profile  | order          |
        | source-a | attacker-first |
        | source-c | attacker-first |
        | source-d | join-order     |

    Scenario Outline: Under <profile>, four players draw in <order> order after Gleb joined before Vera
      Given the rules of "<profile>" with 4 players
      And hearts are trump
      And Anna attacks Boris
      And Anna holds 7♣ A♠ K♠ Q♠ J♠ 10♠
      And Boris holds 9♣ 9♦ 9♠ A♦ K♦ Q♦
      And Vera holds 7♠ 6♣ 8♣ 10♣ J♣ Q♣
      And Gleb holds 7♦ 6♦ 8♦ 10♦ J♦ K♣
      And the next cards to draw are 6♥ 7♥ 8♥ 9♥ 10♥ J♥
      And 8 cards are left in the stock
      When Anna opens with 7♣
      And Gleb throws in 7♦
      And Vera throws in 7♠
      And Boris covers 7♣ with 9♣ and 7♦ with 9♦ and 7♠ with 9♠
      Then the bout is beaten off
      And each player holds 6 cards
      And Anna has 6♥ in hand
      And Vera has <vera> in hand
      And Gleb has <gleb> in hand
      And Boris has 9♥ 10♥ J♥ in hand

      Examples:
        | profile          | order          | vera | gleb |
        | source-a         | attacker-first | 7♥   | 8♥   |
        | source-c         | attacker-first | 7♥   | 8♥   |
        | classic-throw-in | attacker-first | 7♥   | 8♥   |
        | source-d         | join-order     | 8♥   | 7♥   |

    Scenario Outline: Under <profile>, five players draw in <order> order from a stock that runs short
      Given the rules of "<profile>" with 5 players
      And hearts are trump
      And Anna attacks Boris
      And Anna holds 7♣ A♠ K♠ Q♠ J♠ 10♠
      And Boris holds 9♣ 9♦ 9♠ A♦ K♦ Q♦
      And Vera holds 6♣ 8♣ 10♣ J♣ Q♣ Q♥
      And Gleb holds 7♠ 6♠ 8♠ K♣ A♣ J♦
      And Dasha holds 7♦ 6♦ 8♦ 10♦ K♥ A♥
      And the next cards to draw are 6♥ 7♥ 8♥
      And the face-up trump is J♥
      And 4 cards are left in the stock
      When Anna opens with 7♣
      And Dasha throws in 7♦
      And Gleb throws in 7♠
      And Boris covers 7♣ with 9♣ and 7♦ with 9♦ and 7♠ with 9♠
      Then the bout is beaten off
      And the stock is empty
      And Anna has 6♥ in hand
      And Vera holds 6 cards
      And Gleb has <gleb> in hand
      And Dasha has <dasha> in hand
      And Boris has J♥ in hand
      And Boris holds 4 cards

      Examples:
        | profile  | order          | gleb | dasha |
        | source-a | attacker-first | 7♥   | 8♥    |
        | source-c | attacker-first | 7♥   | 8♥    |
        | source-d | join-order     | 8♥   | 7♥    |

  @DRAW-3 @source-A @source-B @source-C @source-D
  Rule: A full hand takes no card
    Drawing only tops a hand up to six. A player who still holds six cards after the
    bout, or more because they took cards earlier or in this bout, draws no card, and
    the next card goes to the next player in the order of drawing. No source says this
    in so many words; it is what "up to six" means.

    Example: Anna still holds seven cards after opening and draws nothing
      Given hearts are trump
      And Anna attacks Boris
      And Anna holds 7♣ and 7 other cards
      And Boris holds 9♣ and 5 other cards
      And the next card to draw is 6♥
      And 10 cards are left in the stock
      When Anna opens with 7♣
      And Boris covers 7♣ with 9♣
      Then the bout is beaten off
      And Anna holds 7 cards
      And Anna does not hold 6♥
      And Boris has 6♥ in hand
      And the stock holds 9 cards

    Example: Vera played no card, so the next card after Anna's goes to Boris
      Given the players Anna, Boris and Vera
      And hearts are trump
      And Anna attacks Boris
      And Anna holds 7♣ and 5 other cards
      And Boris holds 9♣ and 5 other cards
      And Vera holds 6 cards
      And the next cards to draw are 6♥ 7♥
      And 10 cards are left in the stock
      When Anna opens with 7♣
      And Boris covers 7♣ with 9♣
      Then the bout is beaten off
      And Anna has 6♥ in hand
      And Vera holds 6 cards
      And Vera does not hold 7♥
      And Boris has 7♥ in hand

    Example: Vera, who added nothing, still holds six cards and draws nothing
      While the stock lasts every bout starts with full hands, so a taker always ends
      the bout with more than six; a player who laid no card holds exactly six.

      Given the players Anna, Boris and Vera
      And hearts are trump
      And Anna attacks Boris
      And Anna holds 7♣ and 5 other cards
      And Boris holds 9♣ and 5 other cards
      And Vera holds 6 cards
      And the next cards to draw are 6♥ 7♥ 8♥
      And 10 cards are left in the stock
      When Anna opens with 7♣
      And Boris covers 7♣ with 9♣
      Then the bout is beaten off
      And Vera holds 6 cards
      And Vera does not hold 7♥
      And Anna has 6♥ in hand
      And Boris has 7♥ in hand
      And the stock holds 8 cards

  @DRAW-4 @source-A @source-B @source-C @source-D
  Rule: An empty stock ends the drawing, and its last card was the face-up trump
    Drawing goes on only while the stock has cards. When it runs out in the middle of the
    drawing, the players after that get nothing and play on with fewer than six cards;
    once it is empty, nobody draws after any later bout. The face-up trump under the
    stock is always the last card to be taken.

    Example: The stock runs out after Anna, and Vera plays on with five cards
      Given the players Anna, Boris and Vera
      And the face-up trump is Q♥
      And 1 card is left in the stock
      And Anna attacks Boris
      And Anna holds 7♣ and 5 other cards
      And Vera holds 7♦ and 5 other cards
      When Anna opens with 7♣
      And Vera throws in 7♦
      And Boris takes
      Then Boris has taken the cards
      And Anna has Q♥ in hand
      And Anna holds 6 cards
      And Vera holds 5 cards
      And the stock is empty
      And there is no face-up trump

    Example: With the stock empty, Anna and Boris play on with three cards each
      Given the stock is empty
      And hearts are trump
      And Anna attacks Boris
      And Anna holds 7♣ 9♦ and 3 other cards
      And Boris holds 9♣ 10♦ and 3 other cards
      When Anna opens with 7♣
      And Boris covers 7♣ with 9♣
      And Anna throws in 9♦
      And Boris covers 9♦ with 10♦
      Then the bout is beaten off
      And Anna holds 3 cards
      And Boris holds 3 cards
      And Boris attacks Anna next

    Example: With six players the whole deck is dealt and nobody ever draws
      Given the players Anna, Boris, Vera, Gleb, Dasha and Egor
      And hearts are trump
      And Anna attacks Boris
      And Anna holds 7♣ and 5 other cards
      And Boris holds 9♣ and 5 other cards
      When Anna opens with 7♣
      And Boris covers 7♣ with 9♣
      And every attacker says done
      Then the table is empty
      And the stock is empty
      And Anna holds 5 cards
      And Boris holds 5 cards
      And Boris attacks Vera next

  @DRAW-5 @source-A @fact
  Rule: The last drawer receives the face-up trump in everyone's sight
    Lying at the bottom of the stock, the face-up trump is the final card of the final
    draw. Everyone has seen it, so everyone knows whose hand it has gone into; the cards
    drawn before it stay hidden.

    Example: Boris draws last and takes the face-up queen of hearts for all to see
      Given the face-up trump is Q♥
      And 2 cards are left in the stock
      And the next card to draw is 8♠
      And Anna attacks Boris
      And Anna holds 7♣ and 5 other cards
      And Boris holds 10♣ and 5 other cards
      When Anna opens with 7♣
      And Boris covers 7♣ with 10♣
      Then the bout is beaten off
      And Anna has 8♠ in hand
      And Boris has Q♥ in hand
      And everyone knows that Boris holds exactly Q♥
      And none of Anna's cards is known to everyone

    Scenario Outline: Under <profile>, <last> draws last of four players and gets the ace of trumps
      Given the rules of "<profile>" with 4 players
      And hearts are trump
      And Anna attacks Boris
      And Anna holds 7♣ A♠ K♠ Q♠ J♠ 10♠
      And Boris holds 9♣ 9♦ 9♠ A♦ K♦ Q♦ K♣
      And Vera holds 7♠ 6♣ 8♣ 10♣ J♣ Q♣
      And Gleb holds 7♦ 6♦ 8♦ 10♦ J♦ A♣
      And the next cards to draw are 6♥ 7♥
      And the face-up trump is A♥
      And 3 cards are left in the stock
      And it is bout 4
      When Anna opens with 7♣
      And Gleb throws in 7♦
      And Vera throws in 7♠
      And Boris covers 7♣ with 9♣ and 7♦ with 9♦ and 7♠ with 9♠
      Then the bout is beaten off
      And the stock is empty
      And <last> has A♥ in hand
      And everyone knows that <last> holds exactly A♥
      And none of <first>'s cards is known to everyone
      And Boris holds 4 cards

      Examples:
        | profile  | last | first |
        | source-a | Gleb | Vera  |
        | source-d | Vera | Gleb  |

  @CLAR-7 @clarification
  Rule: After a transfer, the attacker-first order starts from the player who opened the bout
    A transfer makes the player who passed the attack on its attacker, so "the attacker
    draws first" needs a reading. The specification decides: in the attacker-first
    order, the attacker is whoever opened the bout, even when the attack has been passed
    on since; the other players follow clockwise from the opener, and the player who
    defended at the end of the bout draws last, even when that is the opener.

    Example: Anna opened, Boris passed the attack on to Vera, and Anna still draws first
      Given the classic transfer game
      And the players Anna, Boris, Vera and Gleb
      And hearts are trump
      And Anna attacks Boris
      And the table shows 8♠ uncovered
      And Anna holds K♠ A♠ K♣ A♣ K♦
      And Boris holds 8♦ 6♣ 7♣ 9♣ J♣ Q♣
      And Vera holds 10♠ 10♦ 6♦ 7♦ 9♦ J♦
      And Gleb holds 6♠ 7♠ 9♠ J♠ Q♠ A♦
      And the next cards to draw are 6♥ 7♥ 9♥ J♥
      And 10 cards are left in the stock
      When Boris transfers with 8♦
      And Vera covers 8♠ with 10♠ and 8♦ with 10♦
      Then the bout is beaten off
      And Anna has 6♥ in hand
      And Boris has 7♥ in hand
      And Vera has 9♥ J♥ in hand
      And each player holds 6 cards
      And Vera attacks Gleb next

    Scenario Outline: Under <profile>, the eights come back to Anna, who beats them and draws last
      Given the rules of "<profile>" with 3 players
      And clubs are trump
      And Anna attacks Boris
      And the table shows 8♠ uncovered
      And Anna holds 9♠ 9♥ 9♦ 7♣ 7♦
      And Boris holds 8♥ 6♣ 7♠ K♦ Q♦ A♦
      And Vera holds 8♦ 6♠ 7♥ 10♦ J♦ 6♦
      And the next cards to draw are A♠ K♠ Q♠ J♠ 10♠ 6♥
      And 10 cards are left in the stock
      When Boris transfers with 8♥
      And Vera transfers with 8♦
      And Anna covers 8♠ with 9♠ and 8♥ with 9♥ and 8♦ with 9♦
      Then the bout is beaten off
      And Boris has A♠ in hand
      And Vera has K♠ in hand
      And Anna holds Q♠ J♠ 10♠ 6♥ 7♣ 7♦
      And Anna attacks Boris next

      Examples:
        | profile           |
        | classic-transfer  |
        | source-d-transfer |

  @CLAR-19 @clarification
  Rule: Last-transferrer reading: after a transfer, the player who passed the attack on last draws first
    Many computer games read "the attacker draws first" differently from CLAR-7: once a
    bout has been passed on, its attacker is the player who passed it on last, and that
    player draws first. No source decides between the two readings (source B names the
    current attacker, but with its two players both readings pick the same seat), so the
    specification offers this one as a setting beside CLAR-7's. The others follow clockwise
    from that player, and the player who defended at the end of the bout draws last. The
    join order of source D is not affected: there the opener joined first (CLAR-8).

    Example: Anna opened, Boris passed the attack on to Vera, and Boris draws first
      Given the classic transfer game
      And the setting "draw_after_transfer" is "last-transferrer"
      And the players Anna, Boris, Vera and Gleb
      And hearts are trump
      And Anna attacks Boris
      And the table shows 8♠ uncovered
      And Anna holds K♠ A♠ K♣ A♣ K♦
      And Boris holds 8♦ 6♣ 7♣ 9♣ J♣ Q♣
      And Vera holds 10♠ 10♦ 6♦ 7♦ 9♦ J♦
      And Gleb holds 6♠ 7♠ 9♠ J♠ Q♠ A♦
      And the next cards to draw are 6♥ 7♥ 9♥ J♥
      And 10 cards are left in the stock
      When Boris transfers with 8♦
      And Vera covers 8♠ with 10♠ and 8♦ with 10♦
      Then the bout is beaten off
      And Boris has 6♥ in hand
      And Anna has 7♥ in hand
      And Vera has 9♥ J♥ in hand
      And each player holds 6 cards
      And Vera attacks Gleb next

    Scenario Outline: Under <profile> read so, the eights come back to Anna and <first> draws first
      In the attacker-first order Vera, who passed the eights on last, draws first; in
      source D's join order Boris still does, having joined before her.

      Given the rules of "<profile>" with 3 players
      And the setting "draw_after_transfer" is "last-transferrer"
      And clubs are trump
      And Anna attacks Boris
      And the table shows 8♠ uncovered
      And Anna holds 9♠ 9♥ 9♦ 7♣ 7♦
      And Boris holds 8♥ 6♣ 7♠ K♦ Q♦ A♦
      And Vera holds 8♦ 6♠ 7♥ 10♦ J♦ 6♦
      And the next cards to draw are A♠ K♠ Q♠ J♠ 10♠ 6♥
      And 10 cards are left in the stock
      When Boris transfers with 8♥
      And Vera transfers with 8♦
      And Anna covers 8♠ with 9♠ and 8♥ with 9♥ and 8♦ with 9♦
      Then the bout is beaten off
      And <first> has A♠ in hand
      And <second> has K♠ in hand
      And Anna holds Q♠ J♠ 10♠ 6♥ 7♣ 7♦

      Examples:
        | profile           | first | second |
        | classic-transfer  | Vera  | Boris  |
        | source-d-transfer | Boris | Vera   |

  @CLAR-8 @clarification
  Rule: In the join order, players draw by their first card of the bout, then the others clockwise
    Source D says only that players draw in the order they joined the attack, the
    defender last. The specification decides the details: the player who opened the bout
    draws first; then each player who played a card into the bout, in the order of the
    first card they played, a transfer counting as joining; then the players who played
    no card, clockwise from the opener; and last the player who defended at the end.

    Scenario Outline: Under <profile>, Gleb threw in before Boris passed the attack on, and <second> draws second
      Given the rules of "<profile>" with 4 players
      And hearts are trump
      And Anna attacks Boris
      And the table shows 8♠ uncovered
      And Anna holds 5 cards
      And Boris holds 8♦ and 5 other cards
      And Vera holds 10♠ 10♣ 10♦ and 3 other cards
      And Gleb holds 8♣ and 5 other cards
      And the next cards to draw are 6♥ 7♥ 9♥ J♥ Q♥ K♥
      And 10 cards are left in the stock
      When Gleb throws in 8♣
      And Boris transfers with 8♦
      And Vera covers 8♠ with 10♠ and 8♣ with 10♣ and 8♦ with 10♦
      Then the bout is beaten off
      And Anna has 6♥ in hand
      And <second> has 7♥ in hand
      And <third> has 9♥ in hand
      And Vera has J♥ Q♥ K♥ in hand

      Examples:
        | profile           | second | third |
        | classic-transfer  | Boris  | Gleb  |
        | source-d-transfer | Gleb   | Boris |

    Scenario Outline: Under <profile>, Vera opened and Anna joined, so the order wraps round the table
      Given the rules of "<profile>" with 5 players
      And hearts are trump
      And Vera attacks Gleb
      And Vera holds 7♣ and 5 other cards
      And Anna holds 7♦ and 5 other cards
      And Dasha holds 7♠ and 5 other cards
      And Gleb holds 9♣ 9♦ 9♠ and 3 other cards
      And the next card to draw is 6♥
      And the face-up trump is 9♥
      And 2 cards are left in the stock
      When Vera opens with 7♣
      And Anna throws in 7♦
      And Dasha throws in 7♠
      And Gleb covers 7♣ with 9♣, 7♦ with 9♦ and 7♠ with 9♠
      Then the bout is beaten off
      And the stock is empty
      And Vera has 6♥ in hand
      And <second> has 9♥ in hand
      And <third> holds 5 cards
      And Gleb holds 3 cards

      Examples:
        | profile  | second | third |
        | source-a | Dasha  | Anna  |
        | source-d | Anna   | Dasha |
