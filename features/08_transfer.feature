Feature: The transfer game
  The transfer game (perevodnoy) lets a defender hand the bout on instead of answering
  it. While no attack card is covered, a card of the attack's rank added to the table
  makes the next player the defender of every attack card, and that player has the same
  choice. The throw-in game (podkidnoy) has no transfer.

  In these examples Anna attacks Boris unless a scenario says otherwise; the players sit
  clockwise in the order they are named, so an attack that Boris passes on goes to the
  player after him. After a transfer, the player who passed the attack on is the attacker
  of the player who now defends.

  @TRANSFER-1 @source-A @source-B @source-D @variant
  Rule: Before any cover, a card of the attack's rank hands the attack on
    A transfer changes who defends, not what the table holds: the defender adds a card of
    the attack's rank as one more attack card and becomes an attacker, and the next player
    still in the game becomes the defender of every attack card on the table. Only the
    defender may transfer, and only before their first cover. Sources A, B and D describe
    such a game beside the throw-in game, so transfers are a setting of the rules: on in
    the transfer profiles, off in the throw-in profiles and in source C's.

    @EX-4 @example @source-A
    Example: Boris transfers 8♠ with 8♥, and Vera covers both eights (source A's transfer picture)
      Source A names only the two eights. This example seats three players, makes clubs
      trump, and lets Vera beat the eights with the ten of spades and the queen of hearts.

      Given the classic transfer game
      And the players Anna, Boris and Vera
      And clubs are trump
      And Anna attacks Boris
      And the table shows 8♠ uncovered
      And Boris holds 8♥ and 5 other cards
      And Vera holds 10♠ Q♥ and 4 other cards
      When Boris transfers with 8♥
      Then it is accepted
      And the table shows 8♠ uncovered and 8♥ uncovered
      And Boris attacks Vera
      And Boris does not hold 8♥
      When Vera covers 8♠ with 10♠
      Then the bout goes on
      When Vera covers 8♥ with Q♥
      Then the bout is beaten off
      And Vera attacks Anna next

    Scenario Outline: Under <profile> with <players> players, Boris tries to pass the eight of spades on
      Given the rules of "<profile>" with <players> players
      And diamonds are trump
      And Anna attacks Boris
      And the table shows 8♠ uncovered
      And Boris holds 8♥ 10♣ and 4 other cards
      When Boris transfers with 8♥
      Then <verdict>

      Examples:
        | profile           | players | verdict                      |
        | classic-transfer  | 3       | it is accepted               |
        | source-a-transfer | 3       | it is accepted               |
        | source-b-transfer | 2       | it is accepted               |
        | source-d-transfer | 3       | it is accepted               |
        | classic-throw-in  | 3       | it is rejected by TRANSFER-8 |
        | source-a          | 3       | it is rejected by TRANSFER-8 |
        | source-b          | 2       | it is rejected by TRANSFER-8 |
        | source-c          | 3       | it is rejected by TRANSFER-8 |
        | source-d          | 3       | it is rejected by TRANSFER-8 |

    Example: With four players the eights move on to Vera, and all but Vera may add eights
      Given the classic transfer game
      And the players Anna, Boris, Vera and Gleb
      And hearts are trump
      And Anna attacks Boris
      And the table shows 8♠ uncovered
      And Anna holds 8♣ and 4 other cards
      And Boris holds 8♦ and 5 other cards
      And Gleb holds 8♥ and 5 other cards
      When Boris transfers with 8♦
      Then it is accepted
      And Boris attacks Vera
      And Anna may throw in 8♣
      And Gleb may throw in 8♥
      And Vera may not throw in any card

    Example: Only the defender passes the attack on
      Given the classic transfer game
      And the players Anna, Boris, Vera and Gleb
      And hearts are trump
      And Anna attacks Boris
      And the table shows 8♠ uncovered
      And Boris holds 9♠ and 5 other cards
      And Gleb holds 8♦ and 5 other cards
      When Gleb transfers with 8♦
      Then it is rejected by TRANSFER-1
      And Anna attacks Boris

  @TRANSFER-2 @source-B
  Rule: The transfer card has the rank that every attack card shares
    A transfer works only while all attack cards on the table are of one rank, and the
    card added to pass them on must be of that rank too. A card of another rank never
    passes the attack on, even one that would beat an attack card. When two or three cards
    of the rank already lie there, one more of it still transfers all of them.

    Example: Boris may pass the eight on with either red eight, and with nothing else
      Given the classic transfer game
      And the players Anna, Boris and Vera
      And clubs are trump
      And Anna attacks Boris
      And the table shows 8♠ uncovered
      And Boris holds 8♥ 8♦ 9♠ 7♠ K♣ A♦
      Then Boris may transfer with 8♥ and 8♦
      And Boris may not transfer with 9♠ 7♠ K♣ and A♦
      When Boris transfers with 9♠
      Then it is rejected by TRANSFER-2

    Example: A third eight passes two eights on to Vera
      Given the classic transfer game
      And the players Anna, Boris and Vera
      And hearts are trump
      And Anna attacks Boris
      And the table shows 8♠ uncovered and 8♣ uncovered
      And Boris holds 8♦ and 5 other cards
      When Boris transfers with 8♦
      Then it is accepted
      And the table shows 8♠ uncovered, 8♣ uncovered and 8♦ uncovered
      And Boris attacks Vera

    Example: Under source B, Anna opens with two eights and Boris hands back three
      Given the rules of "source-b-transfer"
      And hearts are trump
      And Anna attacks Boris
      And Anna holds 8♠ 8♣ 10♦ J♦ Q♦ K♦
      And Boris holds 8♦ 9♣ and 4 other cards
      When Anna opens with 8♠ and 8♣
      And Boris transfers with 9♣
      Then it is rejected by TRANSFER-2
      When Boris transfers with 8♦
      Then it is accepted
      And Boris attacks Anna
      And the table shows 8♠ uncovered, 8♣ uncovered and 8♦ uncovered

  @TRANSFER-3 @source-A @source-B @source-D
  Rule: The receiver needs a card for every attack card
    A transfer needs a receiver who can answer it card for card: the next player must
    hold one card or more for each attack card that will lie on the table, the transfer
    card included. If that hand is too small, the defender has to cover or take. The
    receiver is the next player still in the game: a player who is out is skipped, and
    then it is the hand of the player after them that counts.

    Example: Vera holds exactly two cards, enough for two eights
      Given the classic transfer game
      And the players Anna, Boris and Vera
      And hearts are trump
      And the stock is empty
      And Anna attacks Boris
      And the table shows 8♠ uncovered
      And Boris holds 8♦ 9♠ 10♣
      And Vera holds 2 cards
      Then Boris may transfer with 8♦
      When Boris transfers with 8♦
      Then it is accepted
      And Boris attacks Vera

    Example: Vera with a single card cannot be handed two eights
      Given the classic transfer game
      And the players Anna, Boris and Vera
      And hearts are trump
      And the stock is empty
      And Anna attacks Boris
      And the table shows 8♠ uncovered
      And Boris holds 8♦ 9♠ 10♣
      And Vera holds 1 card
      Then Boris may not transfer
      And Boris's legal moves are
        | cover 8♠ with 9♠ |
        | take             |
      When Boris transfers with 8♦
      Then it is rejected by TRANSFER-3

    Example: Vera is out, so the eights go to Gleb, and Gleb's two cards are too few for three eights
      Given the classic transfer game
      And the players Anna, Boris, Vera and Gleb
      And hearts are trump
      And Vera is out
      And Anna attacks Boris
      And the table shows 8♠ uncovered and 8♣ uncovered
      And Boris holds 8♦ 9♠ 9♣
      And Gleb holds 2 cards
      When Boris transfers with 8♦
      Then it is rejected by TRANSFER-3
      And Boris may not transfer

    Example: Vera is out, so Boris passes the eight on to Gleb
      Given the classic transfer game
      And the players Anna, Boris, Vera and Gleb
      And hearts are trump
      And Vera is out
      And Anna attacks Boris
      And the table shows 8♠ uncovered
      And Boris holds 8♦ 9♠ 9♣
      And Gleb holds 2 cards
      When Boris transfers with 8♦
      Then it is accepted
      And Boris attacks Gleb

  @TRANSFER-4 @source-B
  Rule: A transfer cannot take the attack beyond six cards
    The ceiling of six attack cards binds transfers as well. All attack cards of a
    transfer share one rank, and a rank has four cards, so a transfer puts at most four
    attack cards on the table and this bound never stops a transfer by itself. What
    it does mean is that a transfer starts no fresh count: once the new defender covers
    and the attackers throw in, the bout stops at six attack cards, the cards before the
    transfer included.

    Example: Boris passes on the fourth eight, and no attacker has another card to add
      Given the classic transfer game
      And the players Anna, Boris and Vera
      And hearts are trump
      And Anna attacks Boris
      And the table shows 8♠ uncovered, 8♣ uncovered and 8♦ uncovered
      And Boris holds 8♥ and 5 other cards
      And Vera holds 6 cards
      When Boris transfers with 8♥
      Then it is accepted
      And the table shows 8♠ uncovered, 8♣ uncovered, 8♦ uncovered and 8♥ uncovered
      And Boris attacks Vera
      And Anna may not throw in any card

    Example: After Boris's transfer the bout still stops at six attack cards
      Given the classic transfer game
      And the players Anna, Boris and Vera
      And hearts are trump
      And Anna attacks Boris
      And the table shows 8♠ uncovered
      And Anna holds 8♣ 10♣ J♠ J♦ Q♠
      And Boris holds 8♦ and 5 other cards
      And Vera holds 10♠ 10♦ J♣ Q♣ K♠ and 3 other cards
      When Boris transfers with 8♦
      And Vera covers 8♠ with 10♠ and 8♦ with 10♦
      And Anna throws in 8♣ and 10♣
      And Vera covers 8♣ with J♣ and 10♣ with Q♣
      And Anna throws in J♠
      And Vera covers J♠ with K♠
      And Anna throws in J♦
      Then it is accepted
      And Anna may not throw in any card
      When Anna throws in Q♠
      Then it is rejected by LIMIT-1

  @TRANSFER-5 @source-A @source-B @source-D
  Rule: Transfers are possible only while every attack card is uncovered
    A transfer is an answer to an attack that is still wholly unbeaten. As soon as the
    defender covers any attack card, passing the attack on is over for this bout: the
    defender beats the rest or takes. The same holds for a player who received the attack
    by a transfer and has started to beat it.

    Example: Boris beats the eight of spades and can then no longer pass the eight of clubs on
      Given the classic transfer game
      And the players Anna, Boris and Vera
      And hearts are trump
      And Anna attacks Boris
      And the table shows 8♠ uncovered and 8♣ uncovered
      And Boris holds 8♦ 10♠ and 4 other cards
      Then Boris may transfer with 8♦
      When Boris covers 8♠ with 10♠
      Then Boris may not transfer
      When Boris transfers with 8♦
      Then it is rejected by TRANSFER-5

    Example: With one eight already covered, only beating and taking remain
      Given the classic transfer game
      And the players Anna, Boris and Vera
      And hearts are trump
      And Anna attacks Boris
      And the table shows 8♠ covered by 10♠ and 8♣ uncovered
      And Boris holds 8♦ 9♣ 6♦
      Then Boris's legal moves are
        | cover 8♣ with 9♣ |
        | take             |

    Example: Vera, who received the eights, beats one and may not pass the other on
      Given the classic transfer game
      And the players Anna, Boris, Vera and Gleb
      And hearts are trump
      And Anna attacks Boris
      And the table shows 8♠ uncovered
      And Boris holds 8♣ and 5 other cards
      And Vera holds 8♦ 9♠ and 4 other cards
      When Boris transfers with 8♣
      And Vera covers 8♠ with 9♠
      And Vera transfers with 8♦
      Then it is rejected by TRANSFER-5

  @TRANSFER-6 @source-B @source-D
  Rule: A transferred attack can be transferred again
    The receiver of a transferred attack is a defender like any other, with the same
    moves under the same conditions, so an attack can travel several seats round the
    table; with two players it returns at once to the player who opened the bout. The
    player who passed it on is now an attacker and cannot pass it again.

    Example: Vera's choices after the transfer are to beat, pass on again, or take
      Given the classic transfer game
      And the players Anna, Boris, Vera and Gleb
      And hearts are trump
      And Anna attacks Boris
      And the table shows 8♠ uncovered
      And Boris holds 8♥ 8♣ and 4 other cards
      And Vera holds 8♦ 10♠ 7♣ 6♣
      When Boris transfers with 8♥
      Then Vera's legal moves are
        | cover 8♠ with 10♠ |
        | transfer 8♦       |
        | take              |
      When Boris transfers with 8♣
      Then it is rejected by TRANSFER-1

    Example: Around six players the eights travel on until Dasha faces all four
      Given the classic transfer game
      And the players Anna, Boris, Vera, Gleb, Dasha and Egor
      And clubs are trump
      And Anna attacks Boris
      And the table shows 8♠ uncovered
      And Anna holds 5 cards
      And Boris holds 8♥ and 5 other cards
      And Vera holds 8♦ and 5 other cards
      And Gleb holds 8♣ and 5 other cards
      And Dasha holds 6 cards
      When Boris transfers with 8♥
      And Vera transfers with 8♦
      And Gleb transfers with 8♣
      Then Gleb attacks Dasha
      And the table shows 8♠ uncovered, 8♥ uncovered, 8♦ uncovered and 8♣ uncovered
      And Dasha may not transfer
      When Dasha takes
      Then Dasha has taken the cards
      And Egor attacks Anna next

    Example: Under source B the eight comes straight back to Anna, who may send it back again
      Given the rules of "source-b-transfer"
      And hearts are trump
      And Anna attacks Boris
      And Anna holds 8♠ 8♦ 9♠ 10♠ K♦ A♦
      And Boris holds 8♥ K♣ A♣ Q♣
      When Anna opens with 8♠
      And Boris transfers with 8♥
      Then Boris attacks Anna
      And Anna may transfer with 8♦
      When Anna transfers with 8♦
      Then it is accepted
      And Anna attacks Boris
      And Boris's legal moves are
        | take |

  @TRANSFER-7 @source-B @variant
  Rule: A shown trump is no transfer, unless a table agrees otherwise
    Under source B a transfer needs a card laid on the table; holding up a trump of the
    attack's rank achieves nothing. Some tables play that showing such a trump is
    enough. The rule set makes this the switch "transfer_by_showing_trump"; it is off in
    every profile, the source profiles and the classic ones alike, and only a table that
    turns it on (in a transfer game) lets a shown trump pass the attack on.

    Scenario Outline: Under <profile>, showing the trump eight does not pass the attack on
      Given the rules of "<profile>" with <players> players
      And hearts are trump
      And Anna attacks Boris
      And the table shows 8♠ uncovered
      And Boris holds 8♥ 9♣ and 4 other cards
      Then Boris may not show 8♥ to transfer
      And Boris may transfer with 8♥
      When Boris shows 8♥ to transfer
      Then it is rejected by TRANSFER-7

      Examples:
        | profile           | players |
        | classic-transfer  | 3       |
        | source-a-transfer | 3       |
        | source-b-transfer | 2       |
        | source-d-transfer | 3       |

    Example: With the switch on, Boris shows the eight of hearts and Vera must beat the eight of spades
      Given the classic transfer game
      And the switch "transfer_by_showing_trump" is on
      And the players Anna, Boris and Vera
      And hearts are trump
      And Anna attacks Boris
      And the table shows 8♠ uncovered
      And Boris holds 8♥ 9♣ and 4 other cards
      And Vera holds 10♠ and 5 other cards
      When Boris shows 8♥ to transfer
      Then it is accepted
      And Boris attacks Vera
      And the table shows 8♠ uncovered
      When Vera covers 8♠ with 10♠
      Then the bout goes on
      And Boris may throw in 8♥
      When Boris says done
      Then the bout is beaten off

    Example: With the switch on, an eight that is not a trump still has to be laid down
      Given the classic transfer game
      And the switch "transfer_by_showing_trump" is on
      And the players Anna, Boris and Vera
      And hearts are trump
      And Anna attacks Boris
      And the table shows 8♠ uncovered
      And Boris holds 8♦ 9♣ and 4 other cards
      Then Boris may not show 8♦ to transfer
      And Boris may transfer with 8♦
      When Boris shows 8♦ to transfer
      Then it is rejected by TRANSFER-7

  @CLAR-6 @clarification
  Rule: A shown trump stays in the hand, becomes known to all, and is shown once a bout
    Source B mentions showing a trump only to rule it out, and the other sources are
    silent, so the specification decides how it works at tables that turn the switch on:
    the shown trump stays in the defender's hand, and from then on every player knows it
    is there; it adds no card to the attack, so the next defender needs only as many
    cards as already lie on the table; and one card can be shown only once in a bout,
    even if the attack comes back to its holder. Laying that card down to transfer, or
    throwing it in later as an attacker, remains possible.

    Example: Boris keeps the shown eight of hearts, and everyone knows he has it
      Given the classic transfer game
      And the switch "transfer_by_showing_trump" is on
      And the players Anna, Boris and Vera
      And hearts are trump
      And Anna attacks Boris
      And the table shows 8♠ uncovered
      And Boris holds 8♥ 9♣ and 4 other cards
      When Boris shows 8♥ to transfer
      Then it is accepted
      And Boris has 8♥ in hand
      And Boris holds 6 cards
      And everyone knows that Boris holds 8♥
      And the table shows 8♠ uncovered

    Example: Vera holds a single card, enough for a shown trump but not for a laid one
      Given the classic transfer game
      And the switch "transfer_by_showing_trump" is on
      And the players Anna, Boris and Vera
      And hearts are trump
      And the stock is empty
      And Anna attacks Boris
      And the table shows 8♠ uncovered
      And Boris holds 8♥ 9♣ 7♦
      And Vera holds 1 card
      Then Boris may show 8♥ to transfer
      And Boris may not transfer with 8♥
      When Boris transfers with 8♥
      Then it is rejected by TRANSFER-3
      When Boris shows 8♥ to transfer
      Then it is accepted
      And Boris attacks Vera

    Example: The attack comes back to Boris, who may not show the same trump again
      Given the classic transfer game
      And the switch "transfer_by_showing_trump" is on
      And hearts are trump
      And Anna attacks Boris
      And Anna holds 8♦ 9♠ K♦ A♦
      And Boris holds 8♥ K♣ A♣
      And the table shows 8♠ uncovered
      When Boris shows 8♥ to transfer
      And Anna transfers with 8♦
      Then Anna attacks Boris
      And Boris may not show 8♥ to transfer
      And Boris may transfer with 8♥
      When Boris shows 8♥ to transfer
      Then it is rejected by CLAR-6

  @CLAR-14 @clarification
  Rule: A transfer may send the attack back to the player who opened the bout
    The sources do not say what happens when a transfer reaches the player who opened the
    bout. The specification decides that it is allowed and that nothing special follows:
    the opener becomes the defender of every attack card on the table, with the same
    choices as any defender, and no longer adds cards to this bout. With two players every
    transfer does this, since the next player is always the opener. After the bout, the
    usual order applies: a successful defender attacks next, a player who took does not.

    Example: With two players Boris's transfer sends the eights back to Anna, who takes them
      Given the classic transfer game
      And hearts are trump
      And Anna attacks Boris
      And Anna holds 8♠ 7♣ 9♣ 10♣
      And Boris holds 8♦ K♠ A♠ Q♠
      When Anna opens with 8♠
      And Boris transfers with 8♦
      Then Boris attacks Anna
      When Anna takes
      Then Anna has taken the cards
      And Boris attacks Anna next

    Example: Around three players the eights come back to Anna, who beats all three
      Given the classic transfer game
      And the players Anna, Boris and Vera
      And clubs are trump
      And Anna attacks Boris
      And the table shows 8♠ uncovered
      And Anna holds 8♣ 9♠ 9♥ 9♦ A♠
      And Boris holds 8♥ and 5 other cards
      And Vera holds 8♦ and 5 other cards
      When Boris transfers with 8♥
      And Vera transfers with 8♦
      Then Vera attacks Anna
      And the table shows 8♠ uncovered, 8♥ uncovered and 8♦ uncovered
      When Anna throws in 8♣
      Then it is rejected by ATTACK-4
      When Anna covers 8♠ with 9♠ and 8♥ with 9♥ and 8♦ with 9♦
      Then the bout is beaten off
      And Anna attacks Boris next

    Example: Around four players the four eights come back to Anna
      Given the classic transfer game
      And the players Anna, Boris, Vera and Gleb
      And spades are trump
      And Anna attacks Boris
      And the table shows 8♠ uncovered
      And Anna holds 6♠ 7♠ 9♠ 10♠ J♠
      And Boris holds 8♥ and 5 other cards
      And Vera holds 8♦ and 5 other cards
      And Gleb holds 8♣ and 5 other cards
      When Boris transfers with 8♥
      And Vera transfers with 8♦
      And Gleb transfers with 8♣
      Then it is accepted
      And Gleb attacks Anna
      And Anna may not transfer
      And Anna may cover 8♠ with exactly 9♠ 10♠ and J♠

  @TRANSFER-8
  Rule: Transfers belong to the transfer game only
    In the throw-in game (podkidnoy) the defender covers or takes; a card of the attack's
    rank is just another card there, and neither laying it down nor showing it passes the
    attack on.

    Example: In the classic throw-in game Boris cannot pass the eight of spades on
      Given the classic throw-in game
      And the players Anna, Boris and Vera
      And hearts are trump
      And Anna attacks Boris
      And the table shows 8♠ uncovered
      And Boris holds 8♦ 9♠ 6♣
      Then Boris may not transfer
      And Boris's legal moves are
        | cover 8♠ with 9♠ |
        | take             |
      When Boris transfers with 8♦
      Then it is rejected by TRANSFER-8

    Example: Nor does showing a trump eight pass the attack on in source C's game
      Given the rules of "source-c" with 3 players
      And hearts are trump
      And Anna attacks Boris
      And the table shows 8♠ uncovered
      And Boris holds 8♥ 9♠ 6♣
      When Boris shows 8♥ to transfer
      Then it is rejected by TRANSFER-8
      When Boris covers 8♠ with 8♥
      Then the bout is beaten off

  @CLAR-22 @clarification
  Rule: A player who has just played out their hand is still the next player for a transfer
    Once the stock is used up, a player who lays down their last card is safe, but the
    sources do not say whether a transfer in that same bout still counts them as the
    next player. The specification decides that it does: such a player leaves the game
    when the bout is over (END-1), so until then a transfer goes to them, and as they
    hold no card to answer with, it is refused (TRANSFER-3). While the stock still has
    cards, nobody leaves at all (END-2).

    Example: Anna opened with her last card, so Vera may not pass the eights back round to her
      Given the classic transfer game
      And the players Anna, Boris and Vera
      And hearts are trump
      And the stock is empty
      And Anna attacks Boris
      And Anna holds 8♠
      And Boris holds 8♦ 10♣ J♣ Q♣ K♣
      And Vera holds 8♣ 9♠ 9♦ J♠
      When Anna opens with 8♠
      And Boris transfers with 8♦
      Then Boris attacks Vera
      And Vera may not transfer with 8♣
      When Vera transfers with 8♣
      Then it is rejected by TRANSFER-3
      When Vera covers 8♠ with 9♠ and 8♦ with 9♦
      Then the bout is beaten off
      And Anna is out
      And Vera attacks Boris next

    Example: Round four players the eights reach Gleb, who may not pass them on to Anna
      Given the classic transfer game
      And the players Anna, Boris, Vera and Gleb
      And hearts are trump
      And the stock is empty
      And Anna attacks Boris
      And Anna holds 8♠
      And Boris holds 8♦ J♣ Q♣ K♣ A♣
      And Vera holds 8♣ J♠ Q♠ K♠
      And Gleb holds 8♥ 10♠ 10♦ 10♣
      When Anna opens with 8♠
      And Boris transfers with 8♦
      And Vera transfers with 8♣
      Then Vera attacks Gleb
      And Gleb may not transfer with 8♥
      When Gleb covers 8♠ with 10♠ and 8♦ with 10♦ and 8♣ with 10♣
      Then the bout is beaten off
      And Anna is out
      And Gleb attacks Boris next

  @CLAR-23 @clarification
  Rule: Passed-over reading: a transfer skips a player who has just played out their hand
    Some computer games count a player who has laid down their last card, the stock
    being used up, as gone at once: a transfer passes over them to the next player who
    still holds cards. No source decides between this and CLAR-22, so the specification
    offers it as a setting. If nobody but the defender holds cards any more, there is
    nobody to pass the attack to.

    Example: Anna opened with her last card, and Vera passes the eights on to Boris
      Given the classic transfer game
      And the setting "transfer_target" is "next-with-cards"
      And the players Anna, Boris and Vera
      And hearts are trump
      And the stock is empty
      And Anna attacks Boris
      And Anna holds 8♠
      And Boris holds 8♦ 10♣ J♣ Q♣ K♣
      And Vera holds 8♣ 9♠ 10♠ J♠
      When Anna opens with 8♠
      And Boris transfers with 8♦
      Then Vera may transfer with 8♣
      When Vera transfers with 8♣
      Then it is accepted
      And Vera attacks Boris
      And Boris may not transfer
      When Boris takes
      Then Boris has taken the cards
      And Anna is out
      And Vera attacks Boris next

    Example: Round four players the eights reach Gleb, who passes them past Anna to Boris
      Given the classic transfer game
      And the setting "transfer_target" is "next-with-cards"
      And the players Anna, Boris, Vera and Gleb
      And hearts are trump
      And the stock is empty
      And Anna attacks Boris
      And Anna holds 8♠
      And Boris holds 8♦ J♣ Q♣ K♣ A♣
      And Vera holds 8♣ J♠ Q♠ K♠
      And Gleb holds 8♥ 10♠ 10♦ 10♣
      When Anna opens with 8♠
      And Boris transfers with 8♦
      And Vera transfers with 8♣
      And Gleb transfers with 8♥
      Then it is accepted
      And Gleb attacks Boris
      When Boris takes
      Then Boris has taken the cards
      And Anna is out
      And Vera attacks Gleb next
