Feature: Attacking and throwing in
  A bout grows from its opening card. Each later attack card must repeat a rank already
  on the table and come from a player whom the rules allow to add cards. The bout ends
  in one of two ways: the defender takes, or every attack card is covered and nobody
  adds another.

  The players sit clockwise in the order they are named: Anna, Boris, Vera, Gleb, Dasha
  and Egor. In these examples Anna attacks Boris, so Boris defends; Vera is Boris's
  left-hand neighbour. Unless a scenario names other rules, the classic throw-in game is
  played, in which every player but the defender may throw in.

  @ATTACK-1 @source-A @source-C @source-D
  Rule: A bout opens with one card of the attacker's choosing
    Between bouts only the attacker may act. They start the bout by putting down a single
    card, and it may be any card they hold: no rank or suit is asked for. Before that card
    is down nobody else plays anything, since there is nothing yet to beat, take or add
    to.

    Example: Anna may open with any card she holds
      Given hearts are trump
      And Anna attacks Boris
      And Anna holds 6♣ 10♦ Q♠ A♥
      Then Anna may open with any of her cards
      And only Anna may act
      When Anna opens with A♥
      Then it is accepted
      And the table shows A♥ uncovered
      And Anna holds 6♣ 10♦ Q♠

    @EX-9 @example @source-C
    Example: Player 1 opens the round with the nine of clubs (source C)
      Source C's player 1 is Anna here. The source names only the opening card; hearts are
      trump, as in the game source C goes on to describe (EX-5).

      Given hearts are trump
      And Anna attacks Boris
      And Anna holds 9♣ and 5 other cards
      When Anna opens with 9♣
      Then it is accepted
      And the table shows 9♣ uncovered
      And Anna holds 5 cards
      And Boris may take

    Example: The defender cannot open the bout
      Given hearts are trump
      And Anna attacks Boris
      And Boris holds 7♦ and 5 other cards
      When Boris opens with 7♦
      Then it is rejected by ATTACK-1

    Example: Vera cannot add a card before Anna has opened
      Given the players Anna, Boris and Vera
      And hearts are trump
      And Anna attacks Boris
      And Anna holds 7♣ and 5 other cards
      And Vera holds 7♦ and 5 other cards
      When Vera throws in 7♦
      Then it is rejected by ATTACK-1

  @ATTACK-2 @source-B @variant
  Rule: Under source B a bout may open with several cards of one rank
    Source B allows an opening of several cards, all of one rank, laid down together;
    sources A, C and D open with a single card. How many cards an opening may hold is
    therefore a switch of the rule set, "multi_card_opening", which is on in source B's
    profiles only. Cards of different ranks never open together, whatever the rules.

    Scenario Outline: Under <profile>, Anna tries to open with both of her sevens
      Given the rules of "<profile>"
      And hearts are trump
      And Anna attacks Boris
      And Anna holds 7♣ 7♦ 9♠ K♦ 10♣ J♣
      When Anna opens with 7♣ and 7♦
      Then it is <outcome>

      Examples:
        | profile           | outcome              |
        | source-a          | rejected by ATTACK-2 |
        | source-b          | accepted             |
        | source-b-transfer | accepted             |
        | source-c          | rejected by ATTACK-2 |
        | source-d          | rejected by ATTACK-2 |
        | classic-throw-in  | rejected by ATTACK-2 |

    @profile-source-b
    Example: Under source B, Anna leads three sevens at once and Boris must answer all three
      Given the rules of "source-b"
      And hearts are trump
      And Anna attacks Boris
      And Anna holds 7♣ 7♦ 7♠ K♦ 10♣ J♣
      Then Anna may open with 7♣ 7♦ and 7♠ together
      And Anna may open with 7♣ and 7♠ together
      When Anna opens with 7♣ 7♦ and 7♠
      Then it is accepted
      And the table shows 7♣ uncovered, 7♦ uncovered and 7♠ uncovered
      And Anna holds K♦ 10♣ J♣

    @profile-source-b
    Example: Even under source B, a seven and a nine do not open together
      Given the rules of "source-b"
      And hearts are trump
      And Anna attacks Boris
      And Anna holds 7♣ 9♣ 9♦ K♦ 10♣ J♣
      Then Anna may not open with 7♣ and 9♣ together
      And Anna may open with 9♣ and 9♦ together
      When Anna opens with 7♣ and 9♣
      Then it is rejected by ATTACK-2

  @ATTACK-3 @source-A @source-B @source-C @source-D
  Rule: Every card added after the opening repeats a rank already on the table
    Once the bout is open, a further attack card is allowed only if a card of the same
    rank already lies on the table. Attack cards and covering cards both count; the suit
    does not matter. Cards may be added before the defender has answered the earlier
    ones.

    Example: Anna adds the seven of diamonds before Boris has answered the seven of clubs
      Given hearts are trump
      And Anna attacks Boris
      And the table shows 7♣ uncovered
      And Anna holds 7♦ 8♣ K♠
      Then Anna may throw in exactly 7♦
      When Anna throws in 7♦
      Then it is accepted
      And the table shows 7♣ uncovered and 7♦ uncovered

    Example: The rank of Boris's covering card may be added as well
      Given hearts are trump
      And Anna attacks Boris
      And the table shows 7♣ covered by 10♣
      And Anna holds 10♦ 8♦ Q♠
      Then Anna may throw in exactly 10♦
      When Anna throws in 10♦
      Then it is accepted
      And the table shows 7♣ covered by 10♣ and 10♦ uncovered

    Example: An eight cannot join a bout of sevens
      Given hearts are trump
      And Anna attacks Boris
      And the table shows 7♣ uncovered
      And Anna holds 8♣ 8♦ K♠
      Then Anna may not throw in any card
      When Anna throws in 8♣
      Then it is rejected by ATTACK-3

    @EX-3 @example @source-A
    Example: With 7♣ covered by 9♣, Anna and Vera may add only sevens and nines (source A)
      Source A's picture: the seven of clubs covered by the nine of clubs, with no trump
      named. This example takes diamonds, as source A's other picture does (EX-1). Anna
      and Vera both attack, and the engine lists which of their cards fit (Anna's, then
      Vera's once Anna has said done): exactly the sevens and nines, trump or not.

      Given the players Anna, Boris and Vera
      And diamonds are trump
      And Anna attacks Boris
      And the table shows 7♣ covered by 9♣
      And Anna holds 7♥ 8♣ 9♠ K♠
      And Vera holds 7♠ 9♦ 10♥ J♣
      Then Anna may throw in exactly 7♥ and 9♠
      When Anna says done
      Then Vera may throw in exactly 7♠ and 9♦
      When Anna throws in 8♣
      Then it is rejected by ATTACK-3
      When Vera throws in 10♥
      Then it is rejected by ATTACK-3
      When Vera throws in 9♦
      Then it is accepted
      And the table shows 7♣ covered by 9♣ and 9♦ uncovered

  @ATTACK-4 @source-A @source-C @source-D @variant @clarification
  Rule: Who may throw in besides the attacker is a setting; the defender never does
    The defender never adds to an attack on themselves, and with two players the attacker
    is the only one left who can. With more players, sources A and D let everyone else
    add attack cards too. Source C's rules name only the attacker as adding cards; the
    other attackers appear in one of its tips (TIP-9), which has them work together in a
    larger game. Who may throw in is the setting "throw_in": only the attacker
    ("attacker"); the attacker and the defender's left-hand neighbour ("neighbours", a
    table custom that no source names); or every player still in the game except the
    defender ("all", the reading of sources A and D and of the classic game). Source B's
    profiles, written for two players, keep "attacker" when more play.

    Three things the sources leave open are the specification's decision: source C's
    profile takes "all", following that tip, since C's rules do not say who else may add
    cards; the neighbour is the next player after the defender who is still in the game,
    so a player who is out is passed over; and the order in which several attackers add
    cards and stop follows the bout protocol below (CLAR-16 and CLAR-3).

    Scenario Outline: With four players and throw_in "<who>", Gleb tries to add a seven
      Given the players Anna, Boris, Vera and Gleb
      And the setting "throw_in" is "<who>"
      And hearts are trump
      And Anna attacks Boris
      And the table shows 7♣ uncovered
      And Anna holds 7♦ and 4 other cards
      And Vera holds 7♠ and 5 other cards
      And Gleb holds 7♥ and 5 other cards
      Then Anna may throw in 7♦
      And Vera <vera> throw in 7♠
      When Gleb throws in 7♥
      Then it is <gleb>

      Examples:
        | who        | vera    | gleb                 |
        | attacker   | may not | rejected by ATTACK-4 |
        | neighbours | may     | rejected by ATTACK-4 |
        | all        | may     | accepted             |

    Scenario Outline: With six players and throw_in "<who>", Gleb is Boris's neighbour while Vera is out
      Vera has gone out, so the next player after Boris who is still in the game is Gleb.

      Given the players Anna, Boris, Vera, Gleb, Dasha and Egor
      And the setting "throw_in" is "<who>"
      And Vera is out
      And hearts are trump
      And Anna attacks Boris
      And the table shows 9♣ uncovered
      And Gleb holds 9♦ and 5 other cards
      And Dasha holds 9♠ and 5 other cards
      And Egor holds 9♥ and 5 other cards
      Then Gleb <gleb> throw in 9♦
      And Dasha <dasha> throw in 9♠
      When Egor throws in 9♥
      Then it is <egor>

      Examples:
        | who        | gleb    | dasha   | egor                 |
        | attacker   | may not | may not | rejected by ATTACK-4 |
        | neighbours | may     | may not | rejected by ATTACK-4 |
        | all        | may     | may     | accepted             |

    Scenario Outline: With three players under <profile>, Vera tries to add a seven
      Source C's profile accepts Vera's seven by the specification's choice above, not
      because C's rules say so.

      Given the rules of "<profile>" with 3 players
      And hearts are trump
      And Anna attacks Boris
      And the table shows 7♣ covered by 9♣
      And Anna holds 7♦ and 5 other cards
      And Vera holds 7♠ and 5 other cards
      When Vera throws in 7♠
      Then it is <outcome>

      Examples:
        | profile          | outcome              |
        | source-a         | accepted             |
        | source-b         | rejected by ATTACK-4 |
        | source-c         | accepted             |
        | source-d         | accepted             |
        | classic-throw-in | accepted             |

    Example: With two players only Anna adds cards, even when everyone may throw in
      Given the setting "throw_in" is "all"
      And hearts are trump
      And Anna attacks Boris
      And the table shows 7♣ covered by 9♣
      And Anna holds 7♠ and 5 other cards
      And Boris holds 7♦ 10♣ and 4 other cards
      Then Anna may throw in 7♠
      When Boris throws in 7♦
      Then it is rejected by ATTACK-4

  @ATTACK-5 @source-A @source-B
  Rule: Attackers close the attack by saying done
    An attacker with no card to add, or none worth giving up, says "done"; once every
    attack card is covered, some tables say "beaten" instead. The bout is beaten off when
    no attack card is left uncovered and each attacker who could still add a card has
    said done: the table goes onto the discard pile, and the player who defended leads
    the next bout. The defender never says done; they cover, take or, in the transfer
    game, transfer.

    Example: Anna says done after Boris beats the seven of clubs
      Given hearts are trump
      And Anna attacks Boris
      And Anna holds 7♣ 7♦ K♠ 10♦ 8♠ 6♦
      And Boris holds 9♣ and 5 other cards
      When Anna opens with 7♣
      And Boris covers 7♣ with 9♣
      Then the bout goes on
      And Anna may say done
      When Anna says done
      Then the bout is beaten off
      And Boris attacks Anna next

    Example: With three players the defence holds only when Anna and Vera are both done
      Given the players Anna, Boris and Vera
      And hearts are trump
      And Anna attacks Boris
      And the table shows 7♣ covered by 9♣
      And Anna holds 7♦ and 5 other cards
      And Vera holds 9♠ and 5 other cards
      When Anna says done
      Then the bout goes on
      When Vera says done
      Then the bout is beaten off
      And Boris attacks Vera next

    Example: Boris cannot declare the bout over himself
      Given hearts are trump
      And Anna attacks Boris
      And the table shows 7♣ covered by 9♣
      And Anna holds 7♦ and 5 other cards
      When Boris says done
      Then it is rejected by ATTACK-5

  @ATTACK-6 @source-A
  Rule: A bout runs from its opening to a discard or a take
    One bout holds every card played from its opening to its end: the opening card or
    cards, each card thrown in and each cover. Source A's word for it is "attack". It
    closes with the whole table in the discard pile, every card beaten, or with the whole
    table in the defender's hand. The next bout starts again from an empty table, so the
    ranks of the last one no longer count.

    Example: The six cards of one bout go to the discard pile together
      Given the players Anna, Boris and Vera
      And hearts are trump
      And 12 cards are in the discard pile
      And Anna attacks Boris
      And Anna holds 8♣ 8♦ 6♠ 7♠ 6♦ 7♦
      And Boris holds J♣ Q♦ 10♦ A♠ K♠ 6♣
      And Vera holds J♦ 6♥ 7♥ 9♠ A♦ 7♣
      When Anna opens with 8♣
      And Boris covers 8♣ with J♣
      And Vera throws in J♦
      And Boris covers J♦ with Q♦
      And Anna throws in 8♦
      And Boris covers 8♦ with 10♦
      Then the bout is beaten off
      And the discard pile holds 18 cards
      And the table is empty
      And Boris attacks Vera next

    Example: Every card of a bout that Boris takes goes into his hand
      Given the players Anna, Boris and Vera
      And hearts are trump
      And Anna attacks Boris
      And Anna holds 8♣ 8♦ 6♠ 7♠ 6♦ 7♦
      And Boris holds J♣ A♠ K♠ 6♣ 9♦ 10♠
      And Vera holds J♦ 6♥ 7♥ 9♠ Q♠ 7♣
      When Anna opens with 8♣
      And Boris covers 8♣ with J♣
      And Vera throws in J♦
      And Boris takes
      And Anna throws in 8♦
      Then Boris has taken the cards
      And Boris has 8♣ J♣ J♦ 8♦ in hand
      And Vera attacks Anna next

    Example: After the bout, its ranks no longer open the way for more cards
      Given the players Anna, Boris and Vera
      And hearts are trump
      And Anna attacks Boris
      And Anna holds 8♣ 8♦ 6♠ 7♠ 6♦ 7♦
      And Boris holds J♣ Q♦ 10♦ A♠ K♠ 6♣
      And Vera holds 9♣ 9♦ 9♠ 7♣ Q♠ A♦
      When Anna opens with 8♣
      And Boris covers 8♣ with J♣
      And Anna says done
      Then the bout is beaten off
      When Anna throws in 8♦
      Then it is rejected by ATTACK-1

  @CLAR-1 @clarification
  Rule: Every card a player plays comes from their own hand
    The sources take this for granted; the specification states it so that an engine
    checks it. Nobody plays a card of another player's hand, of the stock, the face-up
    trump, the discard pile or a card already lying on the table.

    Example: Anna cannot open with a card that Boris holds
      Given hearts are trump
      And Anna attacks Boris
      And Anna holds 6♣ 10♦ Q♠ K♠
      And Boris holds 7♦ and 5 other cards
      When Anna opens with 7♦
      Then it is rejected by CLAR-1

    Example: Vera cannot throw in the seven that Anna holds
      Given the players Anna, Boris and Vera
      And hearts are trump
      And Anna attacks Boris
      And the table shows 7♣ uncovered
      And Anna holds 7♦ and 5 other cards
      And Vera holds 6 cards
      When Vera throws in 7♦
      Then it is rejected by CLAR-1

    Example: Boris cannot cover with the face-up trump under the stock
      Given the face-up trump is 6♥
      And Anna attacks Boris
      And the table shows 7♣ uncovered
      When Boris covers 7♣ with 6♥
      Then it is rejected by CLAR-1

    Example: Anna cannot throw in the nine that already covers her seven
      Given hearts are trump
      And Anna attacks Boris
      And the table shows 7♣ covered by 9♣
      And Anna holds 7♦ and 5 other cards
      When Anna throws in 9♣
      Then it is rejected by CLAR-1

  @CLAR-16 @clarification
  Rule: After the opening the defender and the attackers act in any order
    The sources describe throwing in and defending, but not who moves when several
    players may act at once. The specification decides that there are no turns within a
    bout: once the bout is open, the defender and every player allowed to throw in may
    act whenever they like, first come first served, as at a real table. The one move
    that has to wait for the table is saying done, which the next rule (CLAR-3) allows
    only when nothing is left to cover.

    Example: Vera throws in before Boris answers, and Anna adds after his cover
      Given the players Anna, Boris and Vera
      And hearts are trump
      And Anna attacks Boris
      And the table shows 7♣ uncovered
      And Anna holds 7♠ and 5 other cards
      And Boris holds 9♣ 10♦ and 4 other cards
      And Vera holds 7♦ and 5 other cards
      Then Boris may cover 7♣ with 9♣
      And Vera may throw in 7♦
      And Anna may throw in 7♠
      When Vera throws in 7♦
      And Boris covers 7♣ with 9♣
      And Anna throws in 7♠
      Then it is accepted
      And the table shows 7♣ covered by 9♣, 7♦ uncovered and 7♠ uncovered

    Example: With six players, three attackers add cards while Boris covers
      Given the players Anna, Boris, Vera, Gleb, Dasha and Egor
      And hearts are trump
      And Anna attacks Boris
      And the table shows 9♣ uncovered
      And Anna holds 5 cards
      And Boris holds 10♣ J♦ Q♠ K♥ and 2 other cards
      And Gleb holds 9♦ and 5 other cards
      And Egor holds 9♠ and 5 other cards
      And Vera holds 10♠ and 5 other cards
      When Egor throws in 9♠
      And Boris covers 9♣ with 10♣
      And Gleb throws in 9♦
      And Vera throws in 10♠
      And Boris covers 9♦ with J♦
      Then it is accepted
      And the table shows 9♣ covered by 10♣, 9♠ uncovered, 9♦ covered by J♦ and 10♠ uncovered
      And Boris may cover 9♠ with Q♠
      And Boris may cover 10♠ with K♥

    Example: Anna cannot say done while the seven of clubs is uncovered
      Given the players Anna, Boris and Vera
      And hearts are trump
      And Anna attacks Boris
      And the table shows 7♣ uncovered
      And Anna holds 7♠ and 5 other cards
      Then Anna may not say done
      When Anna says done
      Then it is rejected by CLAR-3
      When Boris takes
      Then Anna may say done

  @CLAR-3 @clarification
  Rule: Done waits for a covered table and lapses when the defender moves; the bout ends when nobody is left to ask
    The specification decides how saying done works and how the bout comes to an end.
    An attacker may say done only when there is nothing to cover: every attack card is
    covered, or the defender has announced a take. A done stands only until the
    defender's next move (a cover, a take or a transfer): after it the attacker may add
    cards again and, if they could, must say done again. A player who holds no card that
    they may add is not asked and need not say done. The bout ends the moment nothing is
    left to cover (or a take has been announced) and every attacker who could still add a
    card has said done; if nobody can add anything, the last cover ends it at once.

    Example: Anna's done lapses when Boris covers the nine that Vera added
      Given the players Anna, Boris and Vera
      And hearts are trump
      And Anna attacks Boris
      And the table shows 7♣ covered by 9♣
      And Anna holds 7♠ 10♠ and 4 other cards
      And Boris holds 10♦ and 5 other cards
      And Vera holds 9♦ and 5 other cards
      When Anna says done
      Then it is accepted
      When Anna throws in 7♠
      Then it is rejected by CLAR-3
      When Vera throws in 9♦
      And Boris covers 9♦ with 10♦
      Then Anna may throw in exactly 7♠ and 10♠
      And Anna may say done

    Example: Gleb has nothing to add, so only Anna is asked
      Given the players Anna, Boris, Vera and Gleb
      And hearts are trump
      And Anna attacks Boris
      And the table shows 7♣ covered by 9♣
      And Anna holds 7♦ and 5 other cards
      And Vera holds 8♦ J♠ K♣
      And Gleb holds 8♠ Q♦ A♣
      Then Gleb may not say done
      When Gleb says done
      Then it is rejected by CLAR-3
      When Anna says done
      Then the bout is beaten off

    Example: The last cover ends the bout at once when nobody can add a card
      Given the players Anna, Boris and Vera
      And hearts are trump
      And Anna attacks Boris
      And the table shows 7♣ uncovered
      And Anna holds 6 cards
      And Boris holds 9♣ and 5 other cards
      And Vera holds 6 cards
      When Boris covers 7♣ with 9♣
      Then the bout is beaten off
      And Boris attacks Vera next

    Example: After Boris's take, the bout ends once Anna and Vera are both done
      Given the players Anna, Boris and Vera
      And hearts are trump
      And Anna attacks Boris
      And the table shows 7♣ uncovered
      And Anna holds 7♦ 7♠ and 4 other cards
      And Vera holds 7♥ and 5 other cards
      When Boris takes
      And Anna throws in 7♦
      And Anna says done
      Then the bout goes on
      When Vera says done
      Then Boris has taken the cards
      And Boris has 7♣ 7♦ in hand

  @CLAR-12 @clarification
  Rule: An attacker who has played their last card sits out the rest of the bout
    The sources do not say what happens to an attacker whose hand runs out in the middle
    of a bout. The specification decides: that player simply adds nothing more and is not
    asked to say done, while the others carry on. If the stock still has cards, they draw
    back up to six when the bout ends and play on; if the stock is empty, they are out
    once the bout is over.

    Example: Anna plays out her hand while the stock lasts, and refills from it
      Anna began the bout with six cards and has laid four of them, all covered; her
      last two fill the bout to its six attack cards.

      Given the players Anna, Boris and Vera
      And hearts are trump
      And 10 cards are left in the stock
      And Anna attacks Boris
      And the table shows 7♥ covered by 8♥, 8♠ covered by 10♠, 10♣ covered by Q♣ and Q♠ covered by K♠
      And Anna holds 7♣ 7♦
      And Boris holds 9♣ 10♦
      And Vera holds 7♠ and 5 other cards
      When Anna throws in 7♣
      And Boris covers 7♣ with 9♣
      And Anna throws in 7♦
      Then Anna holds no cards
      And Anna may not throw in any card
      And Anna may not say done
      When Boris covers 7♦ with 10♦
      Then the bout is beaten off
      And Anna holds 6 cards
      And Anna is still in the game

    Example: Anna, out of cards, cannot say done
      Given the players Anna, Boris and Vera
      And hearts are trump
      And Anna attacks Boris
      And the table shows 7♣ covered by 9♣ and 7♦ covered by 10♦
      And Anna holds no cards
      And Vera holds 7♠ and 5 other cards
      When Anna says done
      Then it is rejected by CLAR-3

    Example: With the stock empty, Anna is out once the bout she emptied her hand in is over
      Given the players Anna, Boris and Vera
      And the stock is empty
      And hearts are trump
      And Anna attacks Boris
      And Anna holds 8♣
      And Boris holds 10♣ Q♦ and 3 other cards
      And Vera holds 10♦ 8♦ and 2 other cards
      When Anna opens with 8♣
      And Boris covers 8♣ with 10♣
      And Vera throws in 10♦
      Then Anna holds no cards
      And the bout goes on
      When Boris covers 10♦ with Q♦
      And Vera says done
      Then the bout is beaten off
      And Anna is out
      And Boris attacks Vera next

  @CLAR-17 @variant @clarification
  Rule: Opener-first: after each answer the attacker is asked first, then clockwise
    No source says in which order the players act within a bout, so the specification
    decides, and offers three protocols as the setting "turn_order". Under "free" (CLAR-3,
    the default of every profile) the defender and every player who may add a card act
    in any order. Under "opener-first" (CLAR-17) and "last-thrower" (CLAR-18) one seat
    acts at a time, as most computer implementations play: the defender answers each
    attack card before anybody adds another. The specification decides how
    "opener-first" orders the attackers. While an attack card is uncovered and no take
    is announced, only the defender acts. Once nothing is left to cover, exactly one attacker is asked: the first
    who could add a card and has not said done, going clockwise from the attacker and
    past the defender. They add one card, which the defender answers, or they say done
    and the next is asked. After each answer the asking starts again from the attacker.
    After a take the attacker asked may add several cards, one at a time; whether a done
    said then is final is a reading of its own (CLAR-20, CLAR-21).

    Scenario Outline: Under turn order <order>, Anna <may> add a card while the seven is uncovered
      Given the setting "turn_order" is "<order>"
      And spades are trump
      And Anna attacks Boris
      And the table shows 7♣ uncovered
      And Anna holds 7♦ and 5 other cards
      Then Anna <may> throw in 7♦
      And Boris may take

      Examples:
        | order        | may     |
        | free         | may     |
        | opener-first | may not |
        | last-thrower | may not |

    Example: After Boris covers Vera's nine, Anna is asked again before Gleb
      Given the players Anna, Boris, Vera and Gleb
      And the setting "turn_order" is "opener-first"
      And hearts are trump
      And Anna attacks Boris
      And the table shows 7♣ covered by 9♣
      And Anna holds 7♦ and 5 other cards
      And Boris holds 10♦ and 5 other cards
      And Vera holds 9♦ 9♠ and 4 other cards
      And Gleb holds 7♠ and 5 other cards
      Then only Anna may act
      When Vera throws in 9♦
      Then it is rejected by CLAR-17
      When Anna says done
      Then only Vera may act
      When Vera throws in 9♦
      Then only Boris may act
      When Boris covers 9♦ with 10♦
      Then only Anna may act
      And Anna may throw in 7♦
      When Anna says done
      Then only Vera may act
      When Vera says done
      Then only Gleb may act
      When Gleb says done
      Then the bout is beaten off

    Example: After Boris's take, Anna adds her sevens one by one before Vera is asked
      Given the players Anna, Boris and Vera
      And the setting "turn_order" is "opener-first"
      And hearts are trump
      And Anna attacks Boris
      And the table shows 7♣ uncovered
      And Anna holds 7♦ 7♠ and 4 other cards
      And Boris holds 6 cards
      And Vera holds 7♥ and 5 other cards
      When Boris takes
      Then only Anna may act
      When Vera throws in 7♥
      Then it is rejected by CLAR-17
      When Anna throws in 7♦
      Then only Anna may act
      When Anna throws in 7♠
      Then only Vera may act
      When Vera throws in 7♥
      Then Boris has taken the cards
      And Boris has 7♣ 7♦ 7♠ 7♥ in hand

  @CLAR-18 @variant @clarification
  Rule: Last-thrower: after each answer the last thrower is asked first, then clockwise
    The specification decides how the turn-based protocol "last-thrower" orders the
    attackers. It plays as "opener-first", except for who is asked first once nothing is
    left to cover: the seat that played the last attack card. The asking goes on
    clockwise round the table, past the defender, and comes back round to the attackers
    before the last thrower; the bout is over when everyone who could still add a card
    has said done since the last attack card.

    Scenario Outline: Under turn order <order>, Anna's card thrown in while the seven is uncovered is rejected by <rule>
      Given the setting "turn_order" is "<order>"
      And spades are trump
      And Anna attacks Boris
      And the table shows 7♣ uncovered
      And Anna holds 7♦ and 5 other cards
      And Boris holds 9♣ and 5 other cards
      When Anna throws in 7♦
      Then it is rejected by <rule>
      And only Boris may act
      When Boris covers 7♣ with 9♣
      Then only Anna may act
      And Anna may throw in 7♦

      Examples:
        | order        | rule    |
        | opener-first | CLAR-17 |
        | last-thrower | CLAR-18 |

    Example: After Boris covers Vera's nine, Vera is asked first, then Gleb, then Anna
      Given the players Anna, Boris, Vera and Gleb
      And the setting "turn_order" is "last-thrower"
      And hearts are trump
      And Anna attacks Boris
      And the table shows 7♣ covered by 9♣
      And Anna holds 7♦ and 5 other cards
      And Boris holds 10♦ and 5 other cards
      And Vera holds 9♦ 9♠ and 4 other cards
      And Gleb holds 7♠ and 5 other cards
      When Anna says done
      And Vera throws in 9♦
      And Boris covers 9♦ with 10♦
      Then only Vera may act
      And Vera may throw in 9♠
      When Anna throws in 7♦
      Then it is rejected by CLAR-18
      When Vera says done
      Then only Gleb may act
      When Gleb says done
      Then only Anna may act
      When Anna says done
      Then the bout is beaten off

    Example: After Boris takes Vera's nine, Vera adds first and Anna after her
      Given the players Anna, Boris and Vera
      And the setting "turn_order" is "last-thrower"
      And hearts are trump
      And Anna attacks Boris
      And the table shows 7♣ covered by 9♣
      And Anna holds 7♦ and 5 other cards
      And Boris holds 6 cards
      And Vera holds 9♦ 7♥ and 4 other cards
      When Anna says done
      And Vera throws in 9♦
      And Boris takes
      Then only Vera may act
      When Anna throws in 7♦
      Then it is rejected by CLAR-18
      When Vera throws in 7♥
      Then only Anna may act
      When Anna throws in 7♦
      Then Boris has taken the cards
      And Boris has 7♣ 9♣ 9♦ 7♥ 7♦ in hand
