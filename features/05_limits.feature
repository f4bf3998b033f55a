Feature: Limits on attack cards
  A bout cannot grow without end. It holds at most six attack cards, never more than the
  defender can answer, and under source A's rules no more than five in the first bout of
  a game. Only attack cards count, not the covers.

  The players sit clockwise in the order they are named: Anna, Boris, Vera, Gleb, Dasha
  and Egor. In these examples Anna attacks Boris unless a transfer passes the attack on.
  Unless a scenario says otherwise, the bout in play is a later bout of the game, not the
  first.

  @LIMIT-1 @source-A @source-B @source-C @source-D
  Rule: Six attack cards fill a bout
    However many cards the defender holds and however many players attack, no bout ever
    carries more than six attack cards. The covering cards are not counted, so the table
    may hold up to twelve cards. Once six attack cards are down, nobody may add another,
    even if they hold a card of a rank on the table.

    Scenario Outline: Under <profile>, a seventh attack card is refused though Boris holds eight cards
      Given the rules of "<profile>"
      And hearts are trump
      And Anna attacks Boris
      And the table shows 7♣ covered by 8♣, 7♦ covered by 8♦, 8♠ covered by 10♠, 7♠ covered by J♠, 10♣ covered by Q♣ and 10♦ uncovered
      And Anna holds 8♥ J♦ 6♣ 6♦
      And Boris holds 8 cards
      And 4 cards are in the discard pile
      And it is bout 7
      Then Anna may not throw in any card
      When Anna throws in 8♥
      Then it is rejected by LIMIT-1

      Examples:
        | profile  |
        | source-a |
        | source-b |
        | source-c |
        | source-d |

    Example: Anna adds the sixth attack card, and then no more
      Given hearts are trump
      And Anna attacks Boris
      And the table shows 7♣ covered by 8♣, 7♦ covered by 8♦, 8♠ covered by 10♠, 7♠ covered by J♠ and 10♣ covered by Q♣
      And Anna holds 10♦ 8♥ 6♣ 6♦
      And Boris holds 8 cards
      Then Anna may throw in exactly 10♦ and 8♥
      When Anna throws in 10♦
      Then it is accepted
      And Anna may not throw in any card
      When Anna throws in 8♥
      Then it is rejected by LIMIT-1

    Example: With six players, Egor adds the sixth card and Dasha's would be the seventh
      Given the players Anna, Boris, Vera, Gleb, Dasha and Egor
      And hearts are trump
      And Anna attacks Boris
      And the table shows 7♣ covered by 10♣, 10♦ covered by Q♦, 7♦ covered by 9♦, Q♠ covered by K♠ and 7♠ covered by 8♠
      And Anna holds 2 cards
      And Boris holds 8 cards
      And Vera holds 2 cards
      And Gleb holds 2 cards
      And Dasha holds 10♠ and 5 other cards
      And Egor holds Q♣ and 5 other cards
      When Egor throws in Q♣
      Then it is accepted
      When Dasha throws in 10♠
      Then it is rejected by LIMIT-1
      And the table shows 7♣ covered by 10♣, 10♦ covered by Q♦, 7♦ covered by 9♦, Q♠ covered by K♠, 7♠ covered by 8♠ and Q♣ uncovered

  @LIMIT-2 @source-A @source-B @source-C @source-D @clarification
  Rule: No more attack cards than the defender can answer
    The defender's hand caps the attack as well, and the sources word the cap in two
    ways. Sources A and C set the attack cards against the defender's hand without saying
    at what moment the hand is counted (C caps the attack at six or the hand size,
    whichever is smaller); sources B and D count the cards the defender held at the
    start. The rule set's setting "limit_reading" keeps both wordings: "current-hand"
    (the profiles of A and C, and the classic games) and "start-hand" (the profiles of B
    and D).

    The specification decides what each wording measures. Current-hand: the attack cards
    still uncovered may never outnumber the cards in the defender's hand now. Start-hand:
    all attack cards of the bout may never outnumber the cards the defender held at the
    moment they became the defender, that is at the bout's opening or, in the transfer
    game, at the transfer that passed the attack to them. This agrees with B's and D's
    transfer clauses, by which the new defender must be able to answer the whole attack.
    A defender's hand changes within a bout only by covering, one card for one answered
    attack card, so the two wordings allow exactly the same cards in every position a
    game can reach; a property test over random games of every profile
    (tests/test_limit_readings.py) checks it. The two values of the setting are therefore
    not a disagreement between the sources: they are kept so that each profile states
    its source's wording.

    Scenario Outline: Under <profile>, Boris's hand stops the attack at three cards
      Boris began the bout with three cards: he has covered one and holds two, and two
      attack cards are uncovered. Both readings give the same limit here.

      Given the rules of "<profile>"
      And hearts are trump
      And the stock is empty
      And Anna attacks Boris
      And the table shows 7♣ covered by 9♣, 7♦ uncovered and 9♠ uncovered
      And Anna holds 7♠ 9♦ K♣ A♣
      And Boris holds 2 cards
      Then Anna may not throw in any card
      When Anna throws in 7♠
      Then it is rejected by LIMIT-2

      Examples:
        | profile  |
        | source-a |
        | source-b |
        | source-c |
        | source-d |

    Scenario Outline: Under <profile>, the eights go round and come back to Anna, who is counted afresh
      Anna opens with an eight and it is transferred three times, coming back to her with
      four eights on the table and four cards in her hand. She became the defender again
      with those four cards, so the bout may hold four attack cards against her, whatever
      she held when she opened it. Once she has covered two eights she holds two cards
      and faces two: neither wording lets Boris add his nine or his ten.

      Given the rules of "<profile>"
      And hearts are trump
      And the face-up trump is A♥
      And 4 cards are left in the stock
      And Anna attacks Boris
      And Anna holds 8♠ 8♣ 9♥ 10♥ J♥ Q♥
      And Boris holds 8♦ 8♥ 6♣ 7♣ 9♣ 10♣
      When Anna opens with 8♠
      And Boris transfers with 8♦
      And Anna transfers with 8♣
      And Boris transfers with 8♥
      Then Boris attacks Anna
      And Anna holds 4 cards
      When Anna covers 8♠ with 9♥ and 8♦ with 10♥
      Then Anna holds 2 cards
      And Boris may not throw in any card
      When Boris throws in 9♣
      Then it is rejected by LIMIT-2

      Examples:
        | profile           | wording      |
        | source-a-transfer | current-hand |
        | classic-transfer  | current-hand |
        | source-b-transfer | start-hand   |
        | source-d-transfer | start-hand   |

    @profile-source-b
    Example: Under source B, Anna cannot lead three sevens against Boris's two cards
      Given the rules of "source-b"
      And hearts are trump
      And the stock is empty
      And Anna attacks Boris
      And Anna holds 7♣ 7♦ 7♠ K♦
      And Boris holds 2 cards
      Then Anna may open with 7♣ and 7♦ together
      And Anna may not open with 7♣ 7♦ and 7♠ together
      When Anna opens with 7♣ 7♦ and 7♠
      Then it is rejected by LIMIT-2

    Example: Anna and Vera together may not give Boris more cards than he holds
      Boris takes the two sevens. The attackers may still add cards, but no more uncovered
      attack cards than the three cards in his hand: Vera's seven is the last, the bout
      ends with it, and Anna's seven stays in her hand.

      Given the players Anna, Boris and Vera
      And hearts are trump
      And the stock is empty
      And Anna attacks Boris
      And the table shows 7♣ uncovered and 7♦ uncovered
      And Anna holds 7♥ and 2 other cards
      And Boris holds 10♣ J♦ Q♠
      And Vera holds 7♠ and 3 other cards
      When Boris takes
      And Vera throws in 7♠
      Then it is accepted
      And Boris has taken the cards
      And Anna has 7♥ in hand

  @LIMIT-3 @source-A @source-B @variant
  Rule: Source A's first bout stops at five attack cards
    Source A lowers the limit to five for the opening bout of each game; source B rules
    such a limit out in so many words, and sources C and D name none. The lower limit is
    the switch "first_bout_limit_five": on in source A's profiles and in the classic
    games, off in the profiles of B, C and D. From the second bout on, six is the limit
    everywhere.

    Scenario Outline: Under <profile>, Anna tries to add a sixth attack card in the first bout
      Where five is the limit, the fifth attack card is still uncovered (once Boris has
      beaten it the bout is over); elsewhere Boris has beaten all five with the cards
      he was dealt.

      Given the rules of "<profile>"
      And it is the first bout
      And spades are trump
      And Anna attacks Boris
      And the table shows 7♣ covered by 9♣, 7♦ covered by 9♦, 9♥ covered by J♥, 7♥ covered by 10♥ and <fifth>
      And Anna holds J♦
      And Boris holds <held>
      When Anna throws in J♦
      Then it is <outcome>

      Examples:
        | profile           | fifth             | held    | outcome             |
        | source-a          | 10♣ uncovered     | 2 cards | rejected by LIMIT-3 |
        | source-a-transfer | 10♣ uncovered     | 2 cards | rejected by LIMIT-3 |
        | classic-throw-in  | 10♣ uncovered     | 2 cards | rejected by LIMIT-3 |
        | source-b          | 10♣ covered by Q♣ | 1 card  | accepted            |
        | source-c          | 10♣ covered by Q♣ | 1 card  | accepted            |
        | source-d          | 10♣ covered by Q♣ | 1 card  | accepted            |

    @profile-source-a
    Example: Under source A, a later bout takes the sixth card again
      Given the rules of "source-a"
      And spades are trump
      And Anna attacks Boris
      And the table shows 7♣ covered by 9♣, 7♦ covered by 9♦, 9♥ covered by J♥, 7♥ covered by 10♥ and 10♣ covered by Q♣
      And Anna holds J♦
      And Boris holds 2 cards
      When Anna throws in J♦
      Then it is accepted

    Example: With three players, Vera's card would be the sixth of the first bout
      Given the players Anna, Boris and Vera
      And it is the first bout
      And spades are trump
      And Anna attacks Boris
      And the table shows 7♣ covered by 9♣, 7♦ covered by 9♦, 9♥ covered by J♥, 7♥ covered by 10♥ and 10♣ uncovered
      And Anna holds J♦ 6♣ A♣
      And Boris holds 2 cards
      And Vera holds 10♦ 6♦ 8♣ A♦
      Then Vera may not throw in any card
      When Vera throws in 10♦
      Then it is rejected by LIMIT-3

    @profile-source-a
    Example: Under source A, the second bout takes a sixth card though nothing has been discarded yet
      Boris took the first bout, so the discard pile is still empty and he began this bout
      with seven cards. The first bout is over all the same: the five-card limit is gone,
      whatever the discard pile holds.

      Given the rules of "source-a"
      And it is bout 2
      And the discard pile is empty
      And spades are trump
      And Anna attacks Boris
      And the table shows 7♣ covered by 9♣, 7♦ covered by 9♦, 9♥ covered by J♥, 7♥ covered by 10♥ and 10♣ covered by Q♣
      And Anna holds J♦
      And Boris holds 2 cards
      When Anna throws in J♦
      Then it is accepted

  @LIMIT-4 @source-B
  Rule: Transfers do not lift the limit of six
    A bout that is passed on keeps every attack card it has collected: the opening, each
    transfer card and each card thrown in count together toward the six, whoever defends
    at the end. Since a deck holds four cards of a rank, a transfer itself leaves at most
    four attack cards on the table; it is the cards added after a transfer that meet the
    limit. An engine refuses the seventh card by the limit of six (LIMIT-1).

    Scenario Outline: Under <profile>, the transferred eights count toward Boris's six
      Anna took cards earlier and holds ten, so her hand does not limit the attack.

      Given the rules of "<profile>"
      And hearts are trump
      And Anna attacks Boris
      And Anna holds 8♠ 10♠ J♣ J♦ A♥ Q♣ and 4 other cards
      And Boris holds 8♣ 8♦ 8♥ 10♣ 10♦ 10♥
      When Anna opens with 8♠
      And Boris transfers with 8♣
      And Boris throws in 8♦ and 8♥
      And Anna covers 8♠ with 10♠, 8♣ with J♣, 8♦ with J♦ and 8♥ with A♥
      And Boris throws in 10♣
      And Anna covers 10♣ with Q♣
      And Boris throws in 10♦
      Then Boris attacks Anna
      And Boris may not throw in any card
      When Boris throws in 10♥
      Then it is rejected by LIMIT-1

      Examples:
        | profile           |
        | source-a-transfer |
        | source-b-transfer |
        | source-d-transfer |
        | classic-transfer  |

    Example: With four players, the attack passes twice and the six still holds
      Gleb took cards earlier and holds eight, so his hand does not limit the attack.

      Given the players Anna, Boris, Vera and Gleb
      And the classic transfer game
      And diamonds are trump
      And Anna attacks Boris
      And Anna holds 8♠ 8♣ 10♥ and 3 other cards
      And Boris holds 8♥ 10♦ and 4 other cards
      And Vera holds 8♦ 10♣ and 4 other cards
      And Gleb holds 10♠ J♥ Q♦ K♣ A♦ and 3 other cards
      When Anna opens with 8♠
      And Boris transfers with 8♥
      And Vera transfers with 8♦
      Then Vera attacks Gleb
      When Gleb covers 8♠ with 10♠, 8♥ with J♥ and 8♦ with Q♦
      And Anna throws in 8♣
      And Gleb covers 8♣ with K♣
      And Boris throws in 10♦
      And Gleb covers 10♦ with A♦
      And Vera throws in 10♣
      Then it is accepted
      When Anna throws in 10♥
      Then it is rejected by LIMIT-1
