Feature: Who attacks and who defends
  Two roles change hands from bout to bout, attacker and defender, and the two always
  sit side by side: the defender is the attacker's left-hand neighbour. Where the roles
  go next depends on how the bout ended: one seat on after a defence that held, two
  seats on after a take. Players who have gone out no longer count when the roles move.
  The very first attacker of a game is found in the hands just dealt: it is whoever
  holds the lowest trump.

  The players sit clockwise in the order they are named: Anna first, then Boris, then
  Vera, Gleb, Dasha and Egor. With two players, Boris's left-hand neighbour is Anna again.
  A stacked deck lists each player's six cards in the order they are dealt, the next
  cards of the stock, and the card that is turned face up.

  @ORDER-1 @source-A @source-B @source-D
  Rule: The lowest trump in any hand leads the first bout
    Only trumps in the players' hands count: a low trump in the stock, or a low card
    of another suit, decides nothing. The first attacker attacks the next player.

    Example: Vera's seven of spades is the lowest trump dealt
      Given the players Anna, Boris and Vera
      When the game is dealt from a stacked deck
        """
        Anna:  J♠ 6♣ 7♣ 8♣ 9♣ 10♣
        Boris: 8♠ 6♦ 7♦ 8♦ 9♦ 10♦
        Vera:  7♠ 6♥ 7♥ 8♥ 9♥ 10♥
        stock: 6♠
        face-up: 10♠
        """
      Then Vera attacks Anna
      And only Vera may act

    Example: The only trump dealt, a king, leads ahead of Anna's three sixes
      Given the players Anna and Boris
      When the game is dealt from a stacked deck
        """
        Anna:  6♣ 6♦ 6♥ 7♣ 7♦ 7♥
        Boris: K♠ 8♣ 8♦ 8♥ 9♣ 9♦
        face-up: 10♠
        """
      Then Boris attacks Anna

    Example: Nobody but the holder of the lowest trump may open
      Given the players Anna, Boris and Vera
      When the game is dealt from a stacked deck
        """
        Anna:  J♠ 6♣ 7♣ 8♣ 9♣ 10♣
        Boris: 8♠ 6♦ 7♦ 8♦ 9♦ 10♦
        Vera:  7♠ 6♥ 7♥ 8♥ 9♥ 10♥
        face-up: 10♠
        """
      And Anna opens with 6♣
      Then it is rejected by ATTACK-1

  @ORDER-2 @CLAR-11 @source-B @variant @clarification
  Rule: When nobody holds a trump, chance picks the first attacker
    Source B leaves the first attack to chance when the deal gives nobody a trump.
    Sources A, C and D do not cover this case; the specification decides that chance
    decides under their rules as well, so every profile plays it the same way. Chance is
    the game's seed: the same deal with the same seed always gives the first attack to
    the same player. A table that prefers a fixed rule can switch "no_trump_lead" to
    "first-seat", and then the player in the first seat attacks first.

    Scenario Outline: Under <profile>, chance picks the first attacker when nobody holds a trump
      Given the rules of "<profile>"
      When the game is dealt from a stacked deck
        """
        Anna:  6♣ 7♣ 8♣ 9♣ 10♣ J♣
        Boris: 6♦ 7♦ 8♦ 9♦ 10♦ J♦
        face-up: 6♥
        """
      Then chance picks the first attacker

      Examples:
        | profile          |
        | source-a         |
        | source-b         |
        | source-c         |
        | source-d         |
        | classic-throw-in |

    Example: With the first-seat switch, Anna attacks first when nobody holds a trump
      Given the classic throw-in game
      And the setting "no_trump_lead" is "first-seat"
      When the game is dealt from a stacked deck
        """
        Anna:  6♣ 7♣ 8♣ 9♣ 10♣ J♣
        Boris: 6♦ 7♦ 8♦ 9♦ 10♦ J♦
        face-up: 6♥
        """
      Then Anna attacks first whatever the seed

  @ORDER-7 @source-B @variant @clarification
  Rule: Who leads a later game of a match is a setting; the lowest trump leads again by default
    Under source B the result of an earlier game has no say in who attacks first: the
    lowest trump leads every game, the durak of the last one included. The other
    sources say nothing about later games, and published practice differs, so the
    specification makes it the setting "later_game_lead": "lowest-trump" (B, and every
    profile), "left-of-durak" (the player after the last durak attacks first, so the
    durak is attacked last) and "right-of-durak" (the player before the last durak
    attacks first, so the durak defends the first bout). After a game with no durak, a
    draw, the lowest trump leads under every value. Seats keep their places from game to
    game.

    Example: The durak of the last game holds the lowest trump and leads the next one
      Given the players Anna and Boris
      And the stock is empty
      And Anna attacks Boris
      And Anna holds 7♣
      And Boris holds 9♣ 10♦ J♦
      When Anna opens with 7♣
      And Boris covers 7♣ with 9♣
      Then Boris is the durak
      When the next game is dealt from a stacked deck
        """
        Anna:  6♣ 7♣ 8♣ 9♣ 10♣ J♣
        Boris: 7♥ 6♦ 7♦ 8♦ 9♦ 10♦
        face-up: A♥
        """
      Then Boris attacks Anna

    Scenario Outline: With later_game_lead "<lead>", Vera was the durak, and <first> attacks <second> next
      Vera holds the lowest trump of the new deal, the six of hearts.

      Given the rules of "classic-throw-in" with 3 players
      And the setting "later_game_lead" is "<lead>"
      And hearts are trump
      And the stock is empty
      And Anna attacks Boris
      And Anna holds 7♣
      And Boris holds 9♣ 6♦
      And Vera holds 8♦ A♠ K♠
      When Anna opens with 7♣
      And Boris covers 7♣ with 9♣
      And Boris opens with 6♦
      And Vera covers 6♦ with 8♦
      Then Vera is the durak
      When the next game is dealt from a stacked deck
        """
        Anna:  7♥ 6♣ 7♣ 8♣ 9♣ 10♣
        Boris: 6♦ 7♦ 8♦ 9♦ 10♦ J♦
        Vera:  6♥ 6♠ 7♠ 8♠ 9♠ 10♠
        face-up: A♥
        """
      Then <first> attacks <second>

      Examples:
        | lead           | first | second |
        | lowest-trump   | Vera  | Anna   |
        | left-of-durak  | Anna  | Boris  |
        | right-of-durak | Boris | Vera   |

    Example: After a draw the lowest trump leads, whatever the setting
      Given the classic throw-in game
      And the setting "later_game_lead" is "left-of-durak"
      And the players Anna and Boris
      And the stock is empty
      And Anna attacks Boris
      And Anna holds 7♣
      And Boris holds 9♣
      When Anna opens with 7♣
      And Boris covers 7♣ with 9♣
      Then the game is a draw
      When the next game is dealt from a stacked deck
        """
        Anna:  7♥ 6♣ 7♣ 8♣ 9♣ 10♣
        Boris: 6♥ 6♦ 7♦ 8♦ 9♦ 10♦
        face-up: A♥
        """
      Then Boris attacks Anna

  @ORDER-3 @source-A @source-C @source-D
  Rule: The defender is the player on the attacker's left
    Whoever attacks, the player who answers is the one who comes next in turn, sitting
    on the attacker's left. Only that player may cover the attack cards or take them;
    the others at the table can at most add attack cards. Round the table, the last
    seat's left-hand neighbour is the first seat.

    Example: Anna's seven is Boris's to answer, not Vera's
      Given the players Anna, Boris and Vera
      And hearts are trump
      And Anna attacks Boris
      And Anna holds 7♣ and 5 other cards
      And Boris holds 9♣ and 5 other cards
      And Vera holds 10♣ and 5 other cards
      When Anna opens with 7♣
      Then Anna attacks Boris
      And Boris may cover 7♣ with 9♣
      And Boris may take
      And Vera may not take
      When Vera covers 7♣ with 10♣
      Then it is rejected by BEAT-6

    Example: Gleb in the last of four seats attacks Anna in the first
      Given the players Anna, Boris, Vera and Gleb
      And hearts are trump
      And Gleb attacks Anna
      And Gleb holds 8♦ and 5 other cards
      When Gleb opens with 8♦
      Then Gleb attacks Anna
      And Anna may take
      And Boris may not take
      When Boris takes
      Then it is rejected by TAKE-1

    Example: In a deal for six, Egor in the last seat leads against Anna
      Egor's six of spades is the last card dealt, so spades are trump, and it is the
      lowest trump: Egor attacks, and the player after him is Anna in the first seat.

      Given the players Anna, Boris, Vera, Gleb, Dasha and Egor
      When the game is dealt from a stacked deck
        """
        Egor: 7♦ 8♦ 9♦ 10♦ J♦ 6♠
        """
      Then spades are trump
      And Egor attacks Anna
      When Boris opens with 6♣
      Then it is rejected by ATTACK-1

  @ORDER-4 @source-A @source-B @source-C @source-D
  Rule: A defender who beats off the attack attacks next
    A beaten-off bout moves both roles one seat on: the player who defended opens the
    next bout, and the player to their left defends it. The attacker of the bout just
    beaten off does not lead again.

    Example: With two players, Boris beats off Anna's seven and attacks her in turn
      Given hearts are trump
      And Anna attacks Boris
      And Anna holds 7♣ 8♦ 10♠ J♠ Q♦ K♦
      And Boris holds 9♣ and 5 other cards
      When Anna opens with 7♣
      And Boris covers 7♣ with 9♣
      Then the bout is beaten off
      And Boris attacks Anna next
      When Anna opens with 8♦
      Then it is rejected by ATTACK-1

    Example: With three players, Boris beats off Anna and Vera and attacks Vera
      Given the players Anna, Boris and Vera
      And hearts are trump
      And Anna attacks Boris
      And Anna holds 7♣ 9♦ and 4 other cards
      And Boris holds 9♣ J♠ and 4 other cards
      And Vera holds 7♠ and 5 other cards
      When Anna opens with 7♣
      And Boris covers 7♣ with 9♣
      And Vera throws in 7♠
      And Boris covers 7♠ with J♠
      And Anna says done
      Then the bout is beaten off
      And Boris attacks Vera next

    Example: With four players, Anna beats off Gleb and attacks Boris
      Given the players Anna, Boris, Vera and Gleb
      And hearts are trump
      And Gleb attacks Anna
      And Gleb holds 8♦ and 5 other cards
      And Anna holds Q♦ and 5 other cards
      And Boris holds 4 cards
      And Vera holds 4 cards
      When Gleb opens with 8♦
      And Anna covers 8♦ with Q♦
      Then the bout is beaten off
      And Anna attacks Boris next
      When Vera opens with 6♣
      Then it is rejected by ATTACK-1

    Example: With six players, Egor beats off Dasha and attacks Anna
      Six players hold every card, so the stock is empty; everyone keeps some cards,
      so nobody goes out.

      Given the players Anna, Boris, Vera, Gleb, Dasha and Egor
      And hearts are trump
      And Dasha attacks Egor
      And Dasha holds 8♣ and 2 other cards
      And Egor holds 10♣ and 2 other cards
      And Anna holds 3 cards
      And Boris holds 3 cards
      And Vera holds 3 cards
      And Gleb holds 3 cards
      When Dasha opens with 8♣
      And Egor covers 8♣ with 10♣
      Then the bout is beaten off
      And Egor attacks Anna next

  @ORDER-5 @source-A @source-B @source-C @source-D
  Rule: After a take the lead moves two seats on
    A take moves the roles two seats on instead of one: the taker's left-hand neighbour
    opens the next bout, and the player to that neighbour's left defends it. With two
    players the count comes round to the same attacker, who attacks the taker again.

    Example: With two players, Anna attacks Boris again after he takes
      Given hearts are trump
      And Anna attacks Boris
      And Anna holds 7♣ 8♦ 10♠ J♠ Q♦ K♦
      When Anna opens with 7♣
      And Boris takes
      Then Boris has taken the cards
      And Anna attacks Boris next

    Example: With three players, Vera attacks Anna after Boris takes
      Given the players Anna, Boris and Vera
      And hearts are trump
      And Anna attacks Boris
      And Anna holds 7♣ and 5 other cards
      When Anna opens with 7♣
      And Boris takes
      Then Boris has taken the cards
      And Vera attacks Anna next

    Example: With four players, Vera attacks Gleb after Boris takes
      Given the players Anna, Boris, Vera and Gleb
      And hearts are trump
      And Anna attacks Boris
      And Anna holds 7♣ and 5 other cards
      When Anna opens with 7♣
      And Boris takes
      Then Boris has taken the cards
      And Vera attacks Gleb next
      When Boris opens with 6♣
      Then it is rejected by ATTACK-1

    Example: With six players, Boris attacks Vera after Anna takes Egor's attack
      Given the players Anna, Boris, Vera, Gleb, Dasha and Egor
      And hearts are trump
      And Egor attacks Anna
      And Egor holds K♠ and 2 other cards
      And Anna holds 3 cards
      And Boris holds 3 cards
      And Vera holds 3 cards
      And Gleb holds 3 cards
      And Dasha holds 3 cards
      When Egor opens with K♠
      And Anna takes
      Then Anna has taken the cards
      And Boris attacks Vera next

  @ORDER-6 @clarification
  Rule: Once players are out, the roles move on among those still in the game
    The sources never say what happens to the turn order once players start to leave
    the game. The specification decides that a player who is out no longer counts: the
    next attacker and the next defender are always the next players round the table who
    still hold cards, whoever has to be passed over to find them.

    Example: With Vera out, Gleb attacks Anna after Boris takes
      Given the players Anna, Boris, Vera and Gleb
      And hearts are trump
      And Vera is out
      And Anna attacks Boris
      And Anna holds 7♣ and 2 other cards
      And Boris holds 3 cards
      And Gleb holds 4 cards
      When Anna opens with 7♣
      And Boris takes
      Then Boris has taken the cards
      And Gleb attacks Anna next
      When Vera opens with 6♣
      Then it is rejected by END-1

    Example: With Gleb out, Vera beats off Boris and attacks Anna
      Given the players Anna, Boris, Vera and Gleb
      And hearts are trump
      And Gleb is out
      And Boris attacks Vera
      And Boris holds 8♦ and 2 other cards
      And Vera holds Q♦ and 2 other cards
      And Anna holds 4 cards
      When Boris opens with 8♦
      And Vera covers 8♦ with Q♦
      Then the bout is beaten off
      And Vera attacks Anna next

    Example: Anna goes out with her last card, so Vera attacks Boris after he takes
      The stock is empty. Anna's opening card is her last, so she is out when the bout
      ends; Vera leads next, and the player after Vera still in the game is Boris.

      Given the players Anna, Boris and Vera
      And hearts are trump
      And the stock is empty
      And Anna attacks Boris
      And Anna holds 7♣
      And Boris holds 3 cards
      And Vera holds 4 cards
      When Anna opens with 7♣
      And Boris takes
      Then Anna is out
      And Vera attacks Boris next

    Example: With six players and Vera and Gleb out, Dasha attacks Egor after Boris takes
      Given the players Anna, Boris, Vera, Gleb, Dasha and Egor
      And hearts are trump
      And Vera and Gleb are out
      And Anna attacks Boris
      And Anna holds 7♣ and 2 other cards
      And Boris holds 3 cards
      And Dasha holds 3 cards
      And Egor holds 3 cards
      When Anna opens with 7♣
      And Boris takes
      Then Boris has taken the cards
      And Dasha attacks Egor next

  @CLAR-15 @clarification
  Rule: A defender who goes out by beating off the attack passes the lead on
    Once the stock is empty, a defender who covers the last attack card with their last
    card is out when the bout ends, and so cannot attack next. The sources are silent on
    who leads then; the specification decides that the attack goes to the next player
    after that defender who is still in the game, against the player on their left.
    While the stock still has cards, nobody goes out: the defender draws and attacks as
    usual.

    Example: Boris covers with his last card and goes out, so Vera attacks Anna
      Given the players Anna, Boris and Vera
      And hearts are trump
      And the stock is empty
      And Anna attacks Boris
      And Anna holds 7♣ and 2 other cards
      And Boris holds 9♣
      And Vera holds 4 cards
      When Anna opens with 7♣
      And Boris covers 7♣ with 9♣
      Then the bout is beaten off
      And Boris is out
      And Vera attacks Anna next
      When Boris opens with 9♣
      Then it is rejected by END-1

    Example: With six players, Boris goes out and Vera is out already, so Gleb attacks Dasha
      Given the players Anna, Boris, Vera, Gleb, Dasha and Egor
      And hearts are trump
      And Vera is out
      And Anna attacks Boris
      And Anna holds 7♣ and 2 other cards
      And Boris holds 9♣
      And Gleb holds 3 cards
      And Dasha holds 3 cards
      And Egor holds 4 cards
      When Anna opens with 7♣
      And Boris covers 7♣ with 9♣
      Then the bout is beaten off
      And Boris is out
      And Gleb attacks Dasha next

    Example: While the stock lasts, Boris covers with his last card, draws and attacks Vera
      Boris began the bout with six cards and has covered five attack cards with five
      of them.

      Given the players Anna, Boris and Vera
      And hearts are trump
      And 10 cards are left in the stock
      And Anna attacks Boris
      And the table shows 7♠ covered by 10♠, 7♦ covered by 10♦, 10♣ covered by Q♣, Q♠ covered by K♠ and K♦ covered by A♦
      And Anna holds 7♣ and 4 other cards
      And Boris holds 9♣
      When Anna throws in 7♣
      And Boris covers 7♣ with 9♣
      Then the bout is beaten off
      And Boris is still in the game
      And Boris holds 6 cards
      And Boris attacks Vera next
