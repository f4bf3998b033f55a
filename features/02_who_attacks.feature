Feature: Who attacks and who defends
  Two roles change hands from bout to bout, attacker and defender, and the two always
  sit side by side: the defender is the attacker's left-hand neighbour. Where the roles
  go next depends on how the bout ended: one seat on after a defence that held, two
  seats on after a take. Players who have gone out no longer count when the roles move.
  (Who makes the very first attack of a game is told in "Cards and the deal".)

  The players sit clockwise in the order they are named: Anna first, then Boris, then
  Vera, Gleb, Dasha and Egor. With two players, Boris's left-hand neighbour is Anna again.

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
