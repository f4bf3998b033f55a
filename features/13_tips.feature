Feature: Tips for players
  The sources end with advice on how to play well. Advice is not a rule: nothing in the
  game forces a player to follow it, and this chapter makes no claim about which play
  wins more often. What it does show is the rule of play that each tip rests on, in a
  concrete position that the engine plays out: which cards may follow, who has to take,
  who draws which card, what everybody gets to see.

  Each tip below is one rule, with its ID and the sources that give it. The players
  sit clockwise in the order they are named; unless a scenario says otherwise, Anna and
  Boris play the classic throw-in game and hearts are trump.

  @TIP-1 @source-A @source-C @tip
  Rule: A low card is cheapest to part with while the stock can replace it
    Sources A and C both advise playing low cards early and keeping the strong ones for
    later. The mechanism: while the stock lasts, a card played away is replaced from the
    stock at the end of the bout, so shedding a six costs nothing but the six. Once the
    stock is empty there is no replacement: low cards left in hand beat almost nothing,
    while a trump that nothing beats can be played without a reply.

    Example: While the stock lasts, Anna trades her six of clubs for a fresh card
      Given hearts are trump
      And Anna attacks Boris
      And Anna holds 6♣ 8♦ 9♠ 10♦ K♥ A♥
      And Boris holds 7♣ 10♣ 6♥ 9♦ J♠ Q♠
      And the next cards to draw are Q♦ and 8♣
      When Anna opens with 6♣
      Then Boris may cover 6♣ with exactly 7♣ 10♣ and 6♥
      When Boris covers 6♣ with 7♣
      Then the bout is beaten off
      And Anna holds 8♦ 9♠ 10♦ Q♦ K♥ A♥
      And Boris attacks Anna next

    Example: At the end, Anna's sixes and seven cannot beat Boris's eight
      Given hearts are trump
      And the stock is empty
      And Boris attacks Anna
      And Anna holds 6♣ 6♦ 6♠ 7♣
      And Boris holds 8♣ 9♥
      When Boris opens with 8♣
      Then Anna may not cover 8♣ with any card
      When Anna covers 8♣ with 7♣
      Then it is rejected by BEAT-5
      When Anna takes
      Then Anna has taken the cards
      And Boris attacks Anna next
      When Boris opens with 9♥
      And Anna takes
      Then Boris is out
      And Anna is the durak

    Example: Anna's last card, the ace of trumps, cannot be beaten and she goes out
      Given hearts are trump
      And the stock is empty
      And Anna attacks Boris
      And Anna holds A♥
      And Boris holds K♥ Q♥ A♠ A♣ A♦
      When Anna opens with A♥
      Then Boris may not cover A♥ with any card
      When Boris covers A♥ with K♥
      Then it is rejected by BEAT-4
      When Boris takes
      Then Anna is out
      And Boris is the durak

  @TIP-2 @source-A @source-B @source-C @tip
  Rule: A trump spent on a cover is gone for good
    Sources A, B and C all advise thrift with trumps, and source A weighs an early take of
    low cards against the loss of a trump. The mechanism: a covering card is discarded
    with its bout and never played again, whereas a defender who takes keeps every card of
    their hand and adds the table to it. Side by side, the same attack leaves Boris
    without his trump when he covers, and with it when he takes.

    Example: Boris covers the seven of clubs with his eight of trumps, and the trump is gone
      Given hearts are trump
      And 20 cards are left in the stock
      And the next cards to draw are K♠ and 10♣
      And Anna attacks Boris
      And Anna holds 7♣ 9♠ 10♦ J♦ Q♣ A♦
      And Boris holds 8♥ 6♠ 9♦ 10♠ J♠ Q♦
      When Anna opens with 7♣
      Then Boris may cover 7♣ with exactly 8♥
      When Boris covers 7♣ with 8♥
      Then the bout is beaten off
      And Boris holds 6♠ 9♦ 10♠ 10♣ J♠ Q♦
      And Boris does not hold 8♥
      And the discard pile holds 6 cards

    Example: Boris takes the seven of clubs instead, and keeps his eight of trumps
      Given hearts are trump
      And 20 cards are left in the stock
      And the next cards to draw are K♠ and 10♣
      And Anna attacks Boris
      And Anna holds 7♣ 9♠ 10♦ J♦ Q♣ A♦
      And Boris holds 8♥ 6♠ 9♦ 10♠ J♠ Q♦
      When Anna opens with 7♣
      And Boris takes
      Then Boris has taken the cards
      And Boris holds 6♠ 7♣ 8♥ 9♦ 10♠ J♠ Q♦
      And Anna holds 9♠ 10♦ J♦ Q♣ K♠ A♦
      And the discard pile holds 4 cards
      And Anna attacks Boris next

    Example: Boris takes three low cards and still holds the nine of trumps
      Source A weighs three low cards against one trump; here Boris has beaten the six
      of spades with the eight of spades, and only his nine of trumps would beat the
      six of diamonds.

      Given hearts are trump
      And Anna attacks Boris
      And the table shows 6♠ covered by 8♠ and 6♦ uncovered
      And Anna holds 10♣ Q♣ A♣ K♦
      And Boris holds 9♥ 7♣ J♣ K♠ A♠
      Then Boris may cover 6♦ with exactly 9♥
      When Boris takes
      Then Boris has taken the cards
      And Boris holds 6♠ 6♦ 7♣ 8♠ 9♥ J♣ K♠ A♠

  @TIP-3 @source-A @source-C @tip
  Rule: Nine trumps, one of them in plain sight
    Sources A and C both advise counting trumps. Source A adds the two facts that make
    counting possible, nine trumps and one of them face up; source C's reason is to know
    when an attack is safe. The mechanism: the deck holds exactly nine cards of the trump
    suit; the face-up one, at the bottom of the stock, ends in the hand of whoever empties
    it; and a trump that has been discarded is gone, so the next lower trump becomes the
    highest one left.

    Example: With six players every card is dealt, and the hands hold all nine trumps
      Given the players Anna, Boris, Vera, Gleb, Dasha and Egor
      When the game is dealt from a stacked deck
        """
        Anna:  6♦ 6♣ 7♣ 8♣ 9♣ 10♣
        Boris: 7♦ J♣ Q♣ K♣ A♣ 6♥
        Vera:  8♦ 9♦ 7♥ 8♥ 9♥ 10♥
        Gleb:  10♦ J♥ Q♥ K♥ A♥ 6♠
        Dasha: Q♦ K♦ 7♠ 8♠ 9♠ 10♠
        Egor:  A♦ J♠ Q♠ K♠ A♠ J♦
        """
      Then diamonds are trump
      And the players hold 9 trumps between them
      And Anna attacks Boris

    Example: The last card of the stock, the face-up nine of trumps, goes to Anna
      Given hearts are trump
      And the face-up trump is 9♥
      And 1 card is left in the stock
      And Anna attacks Boris
      And Anna holds 7♣ and 5 other cards
      And Boris holds 9♣ and 6 other cards
      When Anna opens with 7♣
      And Boris covers 7♣ with 9♣
      Then the bout is beaten off
      And Anna has 9♥ in hand
      And Boris holds 6 cards
      And the stock is empty
      And there is no face-up trump

    Example: Once the ace of trumps is discarded, the king of trumps cannot be beaten
      Given hearts are trump
      And the stock is empty
      And A♥ is in the discard pile
      And Anna attacks Boris
      And Anna holds K♥ 7♣
      And Boris holds Q♥ J♥ 10♥ A♠ A♣ A♦
      When Anna opens with K♥
      Then Boris may not cover K♥ with any card
      When Boris covers K♥ with Q♥
      Then it is rejected by BEAT-3

  @TIP-4 @source-A @source-C @tip
  Rule: A card matching the table always fits a throw-in or a transfer
    Source A advises keeping cards of equal rank, for throwing in and for transfers;
    source C advises attacking with them. The mechanism: a card may join an attack only if
    its rank is already on the table, so the twin of a card just played always fits; and
    in the transfer game a defender who holds a card of the attack's rank may lay it down
    and pass the whole attack to the next player.

    Example: Anna's second seven may be thrown in, her eight may not
      Given hearts are trump
      And Anna attacks Boris
      And Anna holds 7♣ 7♦ 8♠ 10♣ K♠ A♦
      And Boris holds J♣ and 5 other cards
      When Anna opens with 7♣
      And Boris covers 7♣ with J♣
      Then Anna may throw in exactly 7♦
      When Anna throws in 8♠
      Then it is rejected by ATTACK-3
      When Anna throws in 7♦
      Then it is accepted
      And the table shows 7♣ covered by J♣ and 7♦ uncovered

    Example: Without a pair, Anna's attack ends with its first card
      Given hearts are trump
      And Anna attacks Boris
      And Anna holds 7♣ 8♠ 9♦ 10♣ K♠ A♦
      And Boris holds J♣ and 5 other cards
      When Anna opens with 7♣
      And Boris covers 7♣ with J♣
      Then the bout is beaten off
      And Boris attacks Anna next

    Example: In the transfer game, Boris's pair of eights passes the attack and adds to it
      Given the classic transfer game
      And the players Anna, Boris and Vera
      And hearts are trump
      And Anna attacks Boris
      And Anna holds 8♠ and 5 other cards
      And Boris holds 8♣ 8♦ and 4 other cards
      When Anna opens with 8♠
      Then Boris may transfer with 8♣ and 8♦
      When Boris transfers with 8♣
      Then it is accepted
      And Boris attacks Vera
      And the table shows 8♠ uncovered and 8♣ uncovered
      And Boris may throw in 8♦

    Example: In the throw-in game the same pair of eights passes nothing on
      Given the classic throw-in game
      And the players Anna, Boris and Vera
      And hearts are trump
      And Anna attacks Boris
      And Anna holds 8♠ and 5 other cards
      And Boris holds 8♣ 8♦ and 4 other cards
      When Anna opens with 8♠
      Then Boris may not transfer
      When Boris transfers with 8♣
      Then it is rejected by TRANSFER-8

  @TIP-5 @source-A @tip
  Rule: Who draws the face-up trump can be worked out
    Source A advises following the stock's count as it runs down, because of the face-up
    trump at its bottom. The mechanism: after a bout the attacker draws first, the others
    follow in turn and the defender draws last, each up to six cards; whoever takes the
    last card of the stock takes the face-up trump. How many cards the stock holds, and
    how many cards each player has played in the bout, decide who that is.

    Scenario Outline: With <n> left in the stock, <drawer> draws the face-up trump
      Given hearts are trump
      And the face-up trump is 9♥
      And <stock> left in the stock
      And Anna attacks Boris
      And Anna holds 7♣ and 5 other cards
      And Boris holds 9♣ and <others> other cards
      When Anna opens with 7♣
      And Boris covers 7♣ with 9♣
      Then the bout is beaten off
      And <drawer> has 9♥ in hand
      And the stock is empty

      Examples:
        | n       | stock       | others | drawer |
        | 1 card  | 1 card is   | 6      | Anna   |
        | 2 cards | 2 cards are | 5      | Boris  |

    Example: Anna throws in a second seven, so she needs two cards and draws the face-up trump herself
      Given hearts are trump
      And the face-up trump is 9♥
      And 2 cards are left in the stock
      And Anna attacks Boris
      And Anna holds 7♣ 7♦ J♦ Q♠ K♠ A♣
      And Boris holds 9♣ 10♦ and 4 other cards
      When Anna opens with 7♣
      And Boris covers 7♣ with 9♣
      And Anna throws in 7♦
      And Boris covers 7♦ with 10♦
      Then the bout is beaten off
      And Anna has 9♥ in hand
      And Boris holds 4 cards
      And the stock is empty

    Example: With three players, Vera says done and Boris, drawing last, gets the face-up trump
      Given the players Anna, Boris and Vera
      And hearts are trump
      And the face-up trump is 9♥
      And 2 cards are left in the stock
      And Anna attacks Boris
      And Anna holds 7♣ J♦ Q♠ K♠ A♣ A♠
      And Vera holds 7♦ 8♠ J♠ Q♦ K♦ A♦
      And Boris holds 9♣ 10♦ and 4 other cards
      When Anna opens with 7♣
      And Boris covers 7♣ with 9♣
      And Vera says done
      Then the bout is beaten off
      And Boris has 9♥ in hand
      And Vera holds 6 cards
      And the stock is empty

    Example: With three players, Vera throws in, so she draws the face-up trump before Boris
      Given the players Anna, Boris and Vera
      And hearts are trump
      And the face-up trump is 9♥
      And 2 cards are left in the stock
      And Anna attacks Boris
      And Anna holds 7♣ J♦ Q♠ K♠ A♣ A♠
      And Vera holds 7♦ 8♠ J♠ Q♦ K♦ A♦
      And Boris holds 9♣ 10♦ and 4 other cards
      When Anna opens with 7♣
      And Boris covers 7♣ with 9♣
      And Vera throws in 7♦
      And Boris covers 7♦ with 10♦
      Then the bout is beaten off
      And Vera has 9♥ in hand
      And Boris holds 4 cards
      And the stock is empty

  @TIP-6 @source-A @tip
  Rule: Endgame: an attack card the defender cannot beat forces a take
    Source A's advice here is about the endgame and the choice of attack card. The
    mechanism: a defender who cannot beat an attack card has no move but to take, and a
    take brings every card of the bout into their hand, the ones already beaten included;
    with nothing left to draw, those cards stay there.

    Example: Boris has no diamond and no trump, so the nine of diamonds forces him to take
      Given the rules of "source-a"
      And hearts are trump
      And the stock is empty
      And Anna attacks Boris
      And Anna holds 9♦ 6♣ K♠
      And Boris holds 7♣ J♣ A♠
      When Anna opens with 9♦
      Then Boris's legal moves are
        | take |
      When Boris covers 9♦ with A♠
      Then it is rejected by BEAT-5
      When Boris takes
      Then Boris has taken the cards
      And Boris holds 7♣ 9♦ J♣ A♠
      And Anna attacks Boris next

    Example: Attacked with the six of clubs instead, Boris beats it and attacks next
      Given the rules of "source-a"
      And hearts are trump
      And the stock is empty
      And Anna attacks Boris
      And Anna holds 9♦ 6♣ K♠
      And Boris holds 7♣ J♣ A♠
      When Anna opens with 6♣
      Then Boris may cover 6♣ with exactly 7♣ and J♣
      When Boris covers 6♣ with J♣
      Then the bout is beaten off
      And Boris attacks Anna next

    Example: One eight Boris cannot beat makes him take the eight he had beaten as well
      Given the rules of "source-a"
      And hearts are trump
      And the stock is empty
      And Anna attacks Boris
      And the table shows 8♣ covered by 10♣
      And Anna holds 8♦ K♠ A♦
      And Boris holds 7♣ J♣ A♠
      When Anna throws in 8♦
      Then Boris may not cover 8♦ with any card
      When Boris takes
      Then Boris has taken the cards
      And Boris holds 7♣ 8♣ 8♦ 10♣ J♣ A♠

  @TIP-7 @source-C @tip
  Rule: Seen cards narrow down the hidden hands
    Source C advises remembering the cards played. The mechanism: cards that a defender
    picks up from the table, and the face-up trump drawn from the stock, go into a hand in
    full view, so every player knows that the hand holds them until they are played again.
    Cards drawn face down from the stock are known only to their holder.

    Example: Everyone knows the three cards Boris picked up
      Given hearts are trump
      And Anna attacks Boris
      And the table shows 7♣ covered by 9♣ and 9♦ uncovered
      And Anna holds 6♦ Q♠ K♠ A♣
      And Boris holds 10♣ J♥ 6♠ Q♦ K♦
      Then none of Boris's cards is known to everyone
      When Boris takes
      Then Boris has taken the cards
      And everyone knows that Boris holds exactly 7♣ 9♣ and 9♦

    Example: A card Boris plays again is no longer in his hand for the others to count
      Given hearts are trump
      And Anna attacks Boris
      And the table shows 7♣ covered by 9♣ and 9♦ uncovered
      And Anna holds 6♦ Q♠ K♠ A♣
      And Boris holds 10♣ J♥ 6♠ Q♦ K♦
      When Boris takes
      And Anna opens with 6♦
      And Boris covers 6♦ with 9♦
      Then everyone knows that Boris holds exactly 7♣ and 9♣

    Example: Boris draws the face-up trump in full view, Anna's draw stays hidden
      Given hearts are trump
      And the face-up trump is 9♥
      And 2 cards are left in the stock
      And Anna attacks Boris
      And Anna holds 7♣ and 5 other cards
      And Boris holds 9♣ and 5 other cards
      When Anna opens with 7♣
      And Boris covers 7♣ with 9♣
      Then the bout is beaten off
      And everyone knows that Boris holds exactly 9♥
      And none of Anna's cards is known to everyone

  @TIP-8 @source-B @tip
  Rule: A transfer depends on the size of the next hand
    Source B advises a look at that hand before any transfer. The mechanism: a transfer is
    allowed only if the player who would defend next holds at least one card per attack
    card that would then lie on the table; with too few, the transfer is refused and the
    defender must cover or take.

    Scenario Outline: <attack> on the table and Vera holding <vera>: Boris <verdict> transfer
      Vera would face the attack cards on the table and Boris's eight of clubs.

      Given the classic transfer game
      And the players Anna, Boris and Vera
      And hearts are trump
      And the stock is empty
      And Anna attacks Boris
      And the table shows <table>
      And Boris holds 8♣ 10♠ J♠ Q♠
      And Vera holds <vera>
      Then Boris <verdict> transfer with 8♣

      Examples:
        | attack     | table                         | vera    | verdict |
        | One eight  | 8♠ uncovered                  | 1 card  | may not |
        | One eight  | 8♠ uncovered                  | 2 cards | may     |
        | Two eights | 8♠ uncovered and 8♦ uncovered | 2 cards | may not |
        | Two eights | 8♠ uncovered and 8♦ uncovered | 3 cards | may     |

    Example: Vera holds one card, so Boris's transfer with the eight of clubs is refused
      Given the classic transfer game
      And the players Anna, Boris and Vera
      And hearts are trump
      And the stock is empty
      And Anna attacks Boris
      And Anna holds 8♠ K♦ A♦
      And Boris holds 8♣ 10♠ J♠ Q♠
      And Vera holds 1 card
      When Anna opens with 8♠
      And Boris transfers with 8♣
      Then it is rejected by TRANSFER-3
      And Boris may take
      And Boris may cover 8♠ with 10♠

    Scenario Outline: With two players the attack goes back to Anna, who holds <left> after opening
      Given the rules of "source-b-transfer"
      And hearts are trump
      And the stock is empty
      And Anna attacks Boris
      And Anna holds <hand>
      And Boris holds <boris>
      When Anna opens with 8♠
      Then Boris <verdict> transfer with 8♣

      Examples:
        | left    | hand        | boris         | verdict |
        | 1 card  | 8♠ 7♦       | 8♣ 10♠ J♠ Q♠  | may not |
        | 2 cards | 8♠ 7♦ K♦    | 8♣ 10♠ J♠     | may     |

  @TIP-9 @source-C @tip
  Rule: Every thrower's cards count toward one attack
    Source C advises attackers in larger games to combine their cards. The mechanism:
    every player but the defender may add cards of the ranks on the table, so cards that
    the attacker lacks may come from the others, up to the limit of six attack cards and
    of the defender's hand.

    Example: Anna has nothing more to add, but Vera and Gleb have sevens and nines
      Given the rules of "source-c" with 4 players
      And hearts are trump
      And Anna attacks Boris
      And the table shows 7♣ covered by 9♣
      And Anna holds K♠ Q♠ A♣ J♦ A♠
      And Boris holds 8♦ 10♦ 6♣ 8♣ J♣
      And Vera holds 7♦ 9♦ 6♠ 10♠
      And Gleb holds 7♠ 9♠ 6♦ Q♦
      Then Anna may not throw in any card
      And Vera may throw in exactly 7♦ and 9♦
      When Vera says done
      Then Gleb may throw in exactly 7♠ and 9♠

    Example: Together Vera and Gleb bring four more cards and Boris must take them all
      Given the rules of "source-c" with 4 players
      And hearts are trump
      And Anna attacks Boris
      And the table shows 7♣ covered by 9♣
      And Anna holds K♠ Q♠ A♣ J♦ A♠
      And Boris holds 8♦ 10♦ 6♣ 8♣ J♣
      And Vera holds 7♦ 9♦ 6♠ 10♠
      And Gleb holds 7♠ 9♠ 6♦ Q♦
      When Vera throws in 7♦ and 9♦
      And Gleb throws in 7♠ and 9♠
      Then the table shows 7♣ covered by 9♣, 7♦ uncovered, 9♦ uncovered, 7♠ uncovered and 9♠ uncovered
      And Boris may not cover 7♠ with any card
      When Boris takes
      Then Boris has taken the cards
      And Boris holds 11 cards
      And Vera attacks Gleb next

    Example: Together they still stop where Boris's hand runs out
      Given the rules of "source-c" with 4 players
      And hearts are trump
      And Anna attacks Boris
      And the table shows 7♣ covered by 9♣
      And Anna holds K♠ Q♠ A♣ J♦ A♠
      And Boris holds 8♦ 10♦ 6♣
      And Vera holds 7♦ 9♦ 6♠ 10♠
      And Gleb holds 7♠ 9♠ 6♦ Q♦
      When Vera throws in 7♦
      And Boris covers 7♦ with 8♦
      And Vera throws in 9♦
      And Boris covers 9♦ with 10♦
      And Gleb throws in 7♠
      Then it is accepted
      When Gleb throws in 9♠
      Then it is rejected by LIMIT-2

  @TIP-10 @source-B @tip
  Rule: Each cover can open a new rank for throw-ins
    Source B advises keeping the table's ranks in view. The mechanism: a card may be added
    to the attack only if a card of its rank already lies on the table, as an attack card
    or as a cover; so every cover the defender plays can open the way for another rank.

    Example: Over the ten of diamonds beaten by the queen, only tens and queens may follow
      Given the rules of "source-b"
      And hearts are trump
      And Anna attacks Boris
      And the table shows 10♦ covered by Q♦
      And Anna holds 10♠ Q♣ J♦ K♦ 6♣
      Then Anna may throw in exactly 10♠ and Q♣
      When Anna throws in J♦
      Then it is rejected by ATTACK-3

    Example: Boris covers with the king of spades, and now Anna's king may follow
      Given the rules of "source-b"
      And hearts are trump
      And Anna attacks Boris
      And the table shows 10♦ covered by Q♦
      And Anna holds 10♠ Q♣ J♦ K♦ 6♣
      And Boris holds K♠ and 4 other cards
      When Anna throws in 10♠
      And Boris covers 10♠ with K♠
      Then Anna may throw in exactly Q♣ and K♦

    Scenario Outline: Boris covers the seven of clubs with <cover>, and Anna may add only <allowed>
      Given the rules of "source-b"
      And hearts are trump
      And Anna attacks Boris
      And Anna holds 7♣ 8♦ 6♠ K♣ A♦ J♠
      And Boris holds 8♣ 6♥ 10♦ Q♠ K♠ A♠
      When Anna opens with 7♣
      And Boris covers 7♣ with <cover>
      Then Anna may throw in exactly <allowed>

      Examples:
        | cover | allowed |
        | 8♣    | 8♦      |
        | 6♥    | 6♠      |

  @TIP-11 @source-C @tip
  Rule: Every card taken needs a bout of its own to leave the hand
    Source C notes that a take can pay and warns against a large hand. The mechanism: a
    take adds every card of the table to the defender's hand, including the cards thrown
    in after the take was announced, while a defence that holds sends the same cards to
    the discard pile. Once the stock is empty nothing dilutes a large hand, and each of
    its cards needs a bout of its own to leave it.

    Example: Boris takes the two sevens, and his hand grows from six to eight cards
      Given hearts are trump
      And the stock is empty
      And Anna attacks Boris
      And Anna holds 7♣ 7♦ 9♠ A♥
      And Boris holds 8♣ J♦ 6♠ 10♠ Q♣ K♠
      When Anna opens with 7♣
      And Boris takes
      And Anna throws in 7♦
      Then Boris has taken the cards
      And Boris holds 8 cards
      And Anna holds 9♠ A♥
      And Anna attacks Boris next

    Example: Boris beats the same sevens instead, and four cards are left in his hand
      Given hearts are trump
      And the stock is empty
      And Anna attacks Boris
      And Anna holds 7♣ 7♦ 9♠ A♥
      And Boris holds 8♣ J♦ 6♠ 10♠ Q♣ K♠
      When Anna opens with 7♣
      And Boris covers 7♣ with 8♣
      And Anna throws in 7♦
      And Boris covers 7♦ with J♦
      Then the bout is beaten off
      And Boris holds 6♠ 10♠ Q♣ K♠
      And Boris attacks Anna next
