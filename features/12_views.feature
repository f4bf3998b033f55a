Feature: What the players see
  Durak keeps most of each hand hidden and shows everything else. The size of the stock
  and the face-up card beneath it, the cards on the table and the number of cards in
  every hand are open to all. Cards that a defender picks up from the table are seen
  going into that hand, so everyone knows where they are until they are played again.
  What nobody else can see is the rest of each hand.

  A view is written as a table of what one player sees: the stock, the face-up trump
  and the trump suit, the table, the discard pile, and one row per player. The
  player's own row lists their cards; another player's row gives the number of cards
  and the cards in it that everyone knows ("6 cards, 9♦ known").

  What a player may do is shown the same way the game shows it: the playable cards are
  exactly the player's legal moves, and the moves have the names players use at the
  table: open, throw in, cover, transfer, take, and done (also called "beaten").

  @VIEW-1 @source-A
  Rule: The stock's size and the face-up trump are public
    The size of the stock and the face-up card beneath it are public from the deal to
    the moment the last card is drawn. The trump suit stays known after that card is
    gone: it is the suit of the card the last drawer took.

    Example: After a deal for three, Vera sees the stock of 18 and the nine of diamonds
      Given the players Anna, Boris and Vera
      When the game is dealt from a stacked deck
        """
        Anna:  6♣ 7♣ 8♣ 9♣ 10♣ J♣
        Boris: 6♦ 7♦ 8♦ 10♦ J♦ Q♦
        Vera:  6♠ 7♠ 8♠ 9♠ 10♠ J♠
        face-up: 9♦
        """
      Then Vera sees
        | stock   | 18 cards           |
        | face-up | 9♦                 |
        | trump   | diamonds           |
        | table   | empty              |
        | Anna    | 6 cards            |
        | Boris   | 6 cards            |
        | Vera    | 6♠ 7♠ 8♠ 9♠ 10♠ J♠ |
      And Anna sees
        | stock | 18 cards           |
        | Anna  | 6♣ 7♣ 8♣ 9♣ 10♣ J♣ |
        | Vera  | 6 cards            |

    Example: The last two cards are drawn, and everyone knows Boris took the face-up nine
      Anna draws the hidden card and Boris the face-up nine of diamonds. The stock is
      gone, diamonds stay trump, and the nine is known to be in Boris's hand.

      Given the players Anna and Boris
      And the face-up trump is 9♦
      And 2 cards are left in the stock
      And the next card to draw is 8♠
      And Anna attacks Boris
      And Anna holds 7♣ and 5 other cards
      And Boris holds 10♣ and 5 other cards
      Then Boris sees
        | stock   | 2 cards  |
        | face-up | 9♦       |
        | trump   | diamonds |
      When Anna opens with 7♣
      And Boris covers 7♣ with 10♣
      Then the bout is beaten off
      And Anna sees
        | stock   | empty          |
        | face-up | none           |
        | trump   | diamonds       |
        | Boris   | 6 cards, 9♦ known |
      And everyone knows that Boris holds exactly 9♦
      And none of Anna's cards is known to everyone

  @VIEW-2 @source-A @source-C
  Rule: The table, the hand sizes and every taken card are common knowledge
    Each player sees the attack and cover cards on the table and how many cards each
    hand holds. When the defender takes, every card of the table goes into that hand in
    plain sight, so all players know those cards are there until they are played.
    Source C does not describe what the players see; its advice to remember the cards
    played (TIP-7) takes for granted that they are seen.

    Example: Vera watches Boris take three sevens and a nine
      Given the players Anna, Boris and Vera
      And the face-up trump is J♥
      And 10 cards are left in the stock
      And Anna attacks Boris
      And the table shows 7♣ covered by 9♣ and 7♦ uncovered
      And Anna holds 6♣ 6♦ 10♠ K♦
      And Boris holds 8♠ J♣ Q♠ 6♠ 10♣
      And Vera holds 7♠ Q♦ K♣ 8♦ 10♦ A♣
      Then Vera sees
        | stock   | 10 cards                          |
        | face-up | J♥                                |
        | table   | 7♣ covered by 9♣ and 7♦ uncovered |
        | Anna    | 4 cards                           |
        | Boris   | 5 cards                           |
        | Vera    | 7♠ 8♦ 10♦ Q♦ K♣ A♣                |
      When Boris takes
      And Vera throws in 7♠
      Then Boris has taken the cards
      And everyone knows that Boris holds exactly 7♣, 7♦, 7♠ and 9♣
      And Anna sees
        | stock | 7 cards                   |
        | table | empty                     |
        | Anna  | 6 cards                   |
        | Boris | 9 cards, 7♣ 7♦ 7♠ 9♣ known |
        | Vera  | 6 cards                   |

    Example: A card Boris took is known only until he plays it
      Given the players Anna and Boris
      And hearts are trump
      And 10 cards are left in the stock
      And Anna attacks Boris
      And Anna holds 9♣ 8♣ and 4 other cards
      And Boris holds 6 cards
      When Anna opens with 9♣
      And Boris takes
      Then Boris has taken the cards
      And everyone knows that Boris holds 9♣
      And Anna attacks Boris next
      When Anna opens with 8♣
      And Boris covers 8♣ with 9♣
      Then the bout is beaten off
      And none of Boris's cards is known to everyone

  @VIEW-3 @source-A
  Rule: The cards a player may play are exactly their legal moves, and the moves have familiar names
    At any moment a player can play exactly the cards that make a legal move, and no
    other; a player with no legal move plays nothing. Besides cards, the moves are to
    take (the defender), to say done or "beaten" (an attacker who adds nothing more),
    and, in the transfer game, to transfer.

    Example: Boris, defending in the transfer game, may cover, transfer or take
      Given the classic transfer game
      And diamonds are trump
      And Anna attacks Boris
      And the table shows 8♠ uncovered
      And Boris holds 8♥ 10♠ 6♣ Q♣
      Then Boris's legal moves are
        | cover 8♠ with 10♠ |
        | transfer 8♥       |
        | take              |
      And the cards Boris may play are 8♥ and 10♠
      When Boris covers 8♠ with 6♣
      Then it is rejected by BEAT-5

    Example: Once the seven is beaten, Anna may throw in her seven of diamonds or call it beaten
      "Beaten" is the name source A gives to the attacker's done.

      Given hearts are trump
      And Anna attacks Boris
      And the table shows 7♣ covered by 9♣
      And Anna holds 7♦ K♠ 6♣
      And Boris holds 5 cards
      Then Anna's legal moves are
        | throw 7♦ |
        | beaten   |
      And the cards Anna may play are 7♦
      And Boris may play no card
      When Anna throws in K♠
      Then it is rejected by ATTACK-3

    Example: Vera may throw in her seven at once, and say done only after Boris has covered
      Given the players Anna, Boris and Vera
      And hearts are trump
      And Anna attacks Boris
      And the table shows 7♣ uncovered
      And Anna holds 5 cards
      And Boris holds 9♣ and 5 other cards
      And Vera holds 7♠ Q♦ K♣ A♠
      Then Vera's legal moves are
        | throw 7♠ |
      And the cards Vera may play are 7♠
      When Boris covers 7♣ with 9♣
      Then Vera's legal moves are
        | throw 7♠ |
        | done     |

    Example: Between bouts only Anna, the attacker, has cards to play
      Given the players Anna, Boris and Vera
      And Anna attacks Boris
      And Anna holds 6♣ 9♦ K♠
      And Vera holds 8♦ and 5 other cards
      Then the cards Anna may play are 6♣, 9♦ and K♠
      And Boris may play no card
      And Vera may play no card
      When Vera opens with 8♦
      Then it is rejected by ATTACK-1
