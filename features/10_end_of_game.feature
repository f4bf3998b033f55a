Feature: The end of the game
  Play stops once no more than one player has cards left. A player still holding cards
  at that point is the durak, the one who loses; everyone else is placed by the moment
  they emptied their hand. An empty hand counts only once the stock is empty: before
  that, it is refilled at the end of the bout. After that, a player whose hand is empty
  at a bout's end takes no further part and can no longer become the durak. Source D
  plays for a winner instead: under its goal the game ends as soon as the first player
  goes out (END-5, on the page about the outcome).

  Who has gone out, and whether the game is over, is settled when a bout ends: after the
  table has been discarded or taken and everyone has drawn. The result lists the players
  in the order they went out (players who went out at the same moment share a place) and
  names the durak, or says that the game is a draw.

  @END-1 @source-A @source-C
  Rule: With the stock empty, an empty hand takes a player out of the game
    Going out needs two things at a bout's end: an empty hand and an empty stock. A
    player who is out cannot become the durak, plays no further part, and is passed by
    when the roles of attacker and defender move on.

    Example: Anna plays her last card, Boris beats it, and Anna is out
      Given the players Anna, Boris and Vera
      And the stock is empty
      And Anna attacks Boris
      And Anna holds 7♣
      And Boris holds 9♣ K♦
      And Vera holds A♠ 6♦ 8♠
      When Anna opens with 7♣
      And Boris covers 7♣ with 9♣
      Then the bout is beaten off
      And Anna holds no cards
      And Anna is out
      And the game goes on
      And Boris attacks Vera next

    Example: Vera throws in her last card and goes out, so Boris attacks Gleb next
      Vera was never attacked in this bout; she goes out all the same once the bout is
      over, and the attack passes over her empty seat.

      Given the players Anna, Boris, Vera and Gleb
      And hearts are trump
      And the stock is empty
      And Anna attacks Boris
      And Anna holds 7♣ K♠
      And Boris holds 9♣ 9♦ A♠
      And Vera holds 7♦
      And Gleb holds 6♣ 8♦ 10♠ Q♣
      When Anna opens with 7♣
      And Vera throws in 7♦
      And Boris covers 7♣ with 9♣ and 7♦ with 9♦
      Then the bout is beaten off
      And Vera is out
      And Anna is still in the game
      And Boris attacks Gleb next

    Example: A player who is out takes no part in the next bouts
      Given the players Anna, Boris and Vera
      And Vera is out
      And Anna attacks Boris
      And the table shows 7♣ covered by 9♣
      And Anna holds 7♦ and 3 other cards
      And Boris holds 4 cards
      Then Vera may not throw in any card
      And Vera may not say done
      When Vera says done
      Then it is rejected by END-1

  @END-2 @source-B
  Rule: While the stock lasts, running out of cards ends nothing
    A player who plays their last card while there are still cards to draw stays in the
    game: they draw at the end of the bout like everyone else, as far as the stock goes.

    Example: Anna lays her last card and draws a new hand
      Anna began the bout with six cards and has laid five of them; Boris has covered
      them all and holds one card more.

      Given the players Anna and Boris
      And hearts are trump
      And 14 cards are left in the stock
      And Anna attacks Boris
      And the table shows 7♠ covered by 10♠, 7♦ covered by 10♦, 10♣ covered by Q♣, Q♠ covered by K♠ and K♦ covered by A♦
      And Anna holds 7♣
      And Boris holds 9♣
      When Anna throws in 7♣
      Then Anna holds no cards
      And Anna is still in the game
      And the game goes on
      When Boris covers 7♣ with 9♣
      Then the bout is beaten off
      And Anna holds 6 cards
      And Boris holds 6 cards
      And the stock holds 2 cards
      And Boris attacks Anna next

    Example: Boris covers with his last card and refills his hand
      Boris began the bout with six cards and has covered five attack cards with five
      of them.

      Given the players Anna, Boris and Vera
      And hearts are trump
      And 12 cards are left in the stock
      And Anna attacks Boris
      And the table shows 7♠ covered by 10♠, 7♦ covered by 10♦, 10♣ covered by Q♣, Q♠ covered by K♠ and K♦ covered by A♦
      And Anna holds 7♣ and 4 other cards
      And Boris holds 9♣
      When Anna throws in 7♣
      And Boris covers 7♣ with 9♣
      Then the bout is beaten off
      And Boris holds 6 cards
      And Boris is still in the game
      And Boris attacks Vera next

    Example: Boris runs out and draws the last two cards of the stock, the face-up trump among them
      Anna draws first and needs one card; Boris, who drew last, gets what is left. He
      holds only two cards now, but he is still in the game.

      Given the players Anna and Boris
      And the face-up trump is 10♥
      And 3 cards are left in the stock
      And Anna attacks Boris
      And the table shows 7♠ covered by 10♠, 7♦ covered by 10♦, 10♣ covered by Q♣, Q♠ covered by K♠ and K♦ covered by A♦
      And Anna holds 7♣ and 5 other cards
      And Boris holds 9♣
      When Anna throws in 7♣
      And Boris covers 7♣ with 9♣
      Then the bout is beaten off
      And the stock is empty
      And Boris holds 2 cards
      And Boris has 10♥ in hand
      And Boris is still in the game
      And Boris attacks Anna next

  @END-3 @source-A @source-C
  Rule: The durak is the one player still holding cards at the end
    The game stops at the bout end that leaves exactly one player with cards; that
    player has lost and is the durak.

    @EX-8 @example @source-C
    Example: Source C's final position: Anna is out, and Boris, who still has cards, is the durak
      Source C ends with a final position but names no cards: player 1 (here Anna) has
      none left and player 2 (here Boris) still has some. This example supplies them:
      hearts are trump, Anna's last card is the ten of spades, and Boris covers it with
      the queen of spades and keeps the seven of diamonds and the eight of clubs.

      Given the players Anna and Boris
      And hearts are trump
      And the stock is empty
      And Anna attacks Boris
      And Anna holds 10♠
      And Boris holds Q♠ 7♦ 8♣
      When Anna opens with 10♠
      And Boris covers 10♠ with Q♠
      Then the bout is beaten off
      And Anna is out
      And Boris holds 7♦ 8♣
      And Boris is the durak
      And the finishing order is Anna

    Example: With three players, Anna and then Boris go out and Vera is the durak
      Given the players Anna, Boris and Vera
      And hearts are trump
      And the stock is empty
      And Anna attacks Boris
      And Anna holds 7♣
      And Boris holds 9♣ 6♦
      And Vera holds 8♦ K♣ A♠
      When Anna opens with 7♣
      And Boris covers 7♣ with 9♣
      Then Anna is out
      And the game goes on
      And Boris attacks Vera next
      When Boris opens with 6♦
      And Vera covers 6♦ with 8♦
      Then Boris is out
      And Vera is the durak
      And the finishing order is Anna, then Boris

    Example: Six players play down to the last one, and Egor is the durak
      Gleb, Vera and Dasha went out earlier, in that order. Anna goes out by playing her
      last card; the attack then passes the three empty seats on its way to Egor, who
      cannot beat the jack of diamonds and takes it, and Boris is out too.

      Given the players Anna, Boris, Vera, Gleb, Dasha and Egor
      And hearts are trump
      And Gleb, Vera and Dasha are out
      And Anna attacks Boris
      And Anna holds 7♣
      And Boris holds 9♣ J♦
      And Egor holds 8♦ 10♠ Q♣
      When Anna opens with 7♣
      And Boris covers 7♣ with 9♣
      Then Anna is out
      And Boris attacks Egor next
      When Boris opens with J♦
      Then Egor may not cover J♦ with any card
      When Egor takes
      Then Egor has taken the cards
      And Boris is out
      And Egor is the durak
      And the finishing order is Gleb, then Vera, then Dasha, then Anna, then Boris

  @END-4 @source-A @source-B @source-C
  Rule: If nobody is left with cards, the game is drawn
    If the bout that empties the last hands leaves nobody holding a card, there is no
    durak: the game ends in a draw, and the players who went out together share the
    last place in the finishing order.

    Example: Anna plays her last card and Boris beats it with his last card
      Given the players Anna and Boris
      And the stock is empty
      And Anna attacks Boris
      And Anna holds 7♣
      And Boris holds 9♣
      When Anna opens with 7♣
      And Boris covers 7♣ with 9♣
      Then the bout is beaten off
      And the game is a draw
      And the finishing order is Anna and Boris together

    Example: Anna throws in her last seven and Boris beats it with his last card
      Given the players Anna and Boris
      And hearts are trump
      And the stock is empty
      And Anna attacks Boris
      And Anna holds 7♣ 7♦
      And Boris holds 9♣ 10♦
      When Anna opens with 7♣
      And Boris covers 7♣ with 9♣
      Then the game goes on
      When Anna throws in 7♦
      And Boris covers 7♦ with 10♦
      Then the game is a draw
      And Anna and Boris are out

  @CLAR-9 @clarification
  Rule: Several players out at the same moment make a draw only if nobody is left with cards
    The sources speak of a draw between the last two players. The specification decides
    how this extends to more players: players who go out at the same bout end share one
    place in the finishing order; if they were the last ones holding cards, nobody is the
    durak and the game is a draw, however many of them there are; if someone still holds
    cards after them, that player is the durak as usual.

    Example: Vera went out earlier, then Anna and Boris go out together: a draw among three
      Given the players Anna, Boris and Vera
      And Vera is out
      And Anna attacks Boris
      And Anna holds 7♣
      And Boris holds 9♣
      When Anna opens with 7♣
      And Boris covers 7♣ with 9♣
      Then the game is a draw
      And the finishing order is Vera, then Anna and Boris together
      And nobody may act

    Example: Anna, Boris and Vera all go out in the same bout after Gleb: a draw among four
      Given the players Anna, Boris, Vera and Gleb
      And hearts are trump
      And Gleb is out
      And Anna attacks Boris
      And Anna holds 7♣
      And Boris holds 9♣ 9♦
      And Vera holds 7♦
      When Anna opens with 7♣
      And Vera throws in 7♦
      And Boris covers 7♣ with 9♣ and 7♦ with 9♦
      Then the game is a draw
      And the finishing order is Gleb, then Anna, Boris and Vera together

    Example: Anna and Boris go out together while Vera still holds cards, so Vera is the durak
      Given the players Anna, Boris and Vera
      And hearts are trump
      And the stock is empty
      And Anna attacks Boris
      And Anna holds 7♣
      And Boris holds 9♣
      And Vera holds K♠ A♠
      When Anna opens with 7♣
      And Boris covers 7♣ with 9♣
      Then Vera is the durak
      And the finishing order is Anna and Boris together

  @END-5 @source-A @source-B @source-C @source-D @variant @clarification
  Rule: The goal is a setting: the last player holding cards loses, or the first player out wins
    Sources A, B and C play until at most one player still has cards: that player is the
    durak (the goal "last-holder-loses", also the classic games'). Source D sets a
    different aim, to be the first to get rid of every card, and its profiles play the
    goal "first-out-wins". D does not say whether the others play on, nor does it name a
    loser, so the specification decides: the race ends at the bout end where the first
    player goes out (the stock being empty, as always), that player wins, and players who
    go out at that same bout end share the win. If everyone still playing goes out
    together, the game is a draw, under either goal.

    Under either goal the result keeps the finishing order, first place included (under
    the race, only that first place), and names as the durak the one player left holding
    cards, where there is exactly one.

    Scenario Outline: Under <profile> with the goal <goal>, Anna's going out <ends> the game
      The same bout under both goals, side by side: each profile plays its own goal, and
      the setting "goal" turns any profile into the other game.

      Given the rules of "<profile>" with 3 players
      And the setting "goal" is "<goal>"
      And hearts are trump
      And the stock is empty
      And Anna attacks Boris
      And Anna holds 7♣
      And Boris holds 9♣ 6♦
      And Vera holds 8♦ K♣ A♠
      When Anna opens with 7♣
      And Boris covers 7♣ with 9♣
      Then Anna went out first
      And <result>

      Examples:
        | profile           | goal              | ends         | result                         |
        | source-a          | last-holder-loses | does not end | the game goes on               |
        | source-c          | last-holder-loses | does not end | the game goes on               |
        | classic-throw-in  | last-holder-loses | does not end | the game goes on               |
        | classic-throw-in  | first-out-wins    | ends         | the game is over and Anna wins |
        | source-d          | first-out-wins    | ends         | the game is over and Anna wins |
        | source-d-transfer | first-out-wins    | ends         | the game is over and Anna wins |
        | source-d          | last-holder-loses | does not end | the game goes on               |

    Example: Anna and Boris share the first place, and the game goes on between Vera and Gleb
      Given the players Anna, Boris, Vera and Gleb
      And hearts are trump
      And the stock is empty
      And Anna attacks Boris
      And Anna holds 7♣
      And Boris holds 9♣
      And Vera holds 6♦
      And Gleb holds 8♦ K♠ A♠
      When Anna opens with 7♣
      And Boris covers 7♣ with 9♣
      Then Anna and Boris went out first
      And the game goes on
      And Vera attacks Gleb next
      When Vera opens with 6♦
      And Gleb covers 6♦ with 8♦
      Then Gleb is the durak
      And the finishing order is Anna and Boris together, then Vera

    Example: With two players the race leaves one player holding cards, who is the durak
      Given the rules of "source-d"
      And hearts are trump
      And the stock is empty
      And Anna attacks Boris
      And Anna holds 10♠
      And Boris holds Q♠ 7♦ 8♣
      When Anna opens with 10♠
      And Boris covers 10♠ with Q♠
      Then the game is over and Anna wins
      And Boris is the durak

    Example: Anna and Boris go out at the same bout end and win together; Vera and Gleb hold cards
      Given the rules of "source-d" with 4 players
      And hearts are trump
      And the stock is empty
      And Anna attacks Boris
      And Anna holds 7♣
      And Boris holds 9♣
      And Vera holds 6♦
      And Gleb holds 8♦ K♠ A♠
      When Anna opens with 7♣
      And Boris covers 7♣ with 9♣
      Then the game is over and Anna and Boris win together
      And the finishing order is Anna and Boris together
      And nobody is the durak

  @END-6 @source-B
  Rule: Nothing is decided until the bout is over and the hands are refilled
    An empty hand in the middle of a bout decides nothing yet: the bout is played to its
    end, the table is discarded or taken, the players draw, and only then is it seen who
    is out and whether the game is over.

    Example: Anna's hand is empty while Boris still has to answer, and he takes
      Given the players Anna and Boris
      And hearts are trump
      And the stock is empty
      And Anna attacks Boris
      And Anna holds 7♣ 7♦
      And Boris holds 9♣ 10♦ K♠ A♠
      When Anna opens with 7♣
      And Boris covers 7♣ with 9♣
      And Anna throws in 7♦
      Then Anna holds no cards
      And Anna is still in the game
      And the game goes on
      And Boris may take
      When Boris takes
      Then Boris has taken the cards
      And Anna is out
      And Boris is the durak

    Example: Both hands run empty in the bout, but the draw refills them and nobody is out
      Had the result been judged before the draw, this would have been a draw; but eight
      cards were left in the stock: Anna draws six of them and Boris the last two.

      Given the players Anna and Boris
      And hearts are trump
      And 8 cards are left in the stock
      And Anna attacks Boris
      And the table shows 7♠ covered by 10♠, 7♦ covered by 10♦, 10♣ covered by Q♣, Q♠ covered by K♠ and K♦ covered by A♦
      And Anna holds 7♣
      And Boris holds 9♣
      When Anna throws in 7♣
      And Boris covers 7♣ with 9♣
      Then the bout is beaten off
      And the stock is empty
      And Anna holds 6 cards
      And Boris holds 2 cards
      And the game goes on
      And Boris attacks Anna next

  @CLAR-13 @clarification
  Rule: A defender who beats the attack with their last card, the stock empty, has defended and is out
    The sources do not say what happens when the defender covers with the last card in
    hand while nothing is left to draw. The specification decides that the defence has
    succeeded: no attack card can be added against an empty hand (both wordings of the
    hand limit, LIMIT-2, already say so, since a defender who became the defender with
    some cards has answered that many), the bout is beaten off, and the defender is out
    at its end. The next attack is made by the next player still in the game after the
    defender.

    Example: Boris beats the seven with his last card; Anna and Vera cannot add their sevens
      Given the players Anna, Boris and Vera
      And hearts are trump
      And the stock is empty
      And Anna attacks Boris
      And Anna holds 7♣ 7♦
      And Boris holds 9♣
      And Vera holds K♠ 7♠ A♠
      When Anna opens with 7♣
      And Boris covers 7♣ with 9♣
      Then the bout is beaten off
      And Boris is out
      And Vera attacks Anna next

    Example: The attack comes back to Anna, who beats both eights with her last two cards
      Under source B's transfer game the limit counts the cards the defender held when
      they became the defender. Anna opened with three cards and held two when the attack
      came back to her; once she has answered both eights Boris may not add his eight of
      clubs, so Anna's defence stands and she is out.

      Given the rules of "source-b-transfer"
      And hearts are trump
      And the stock is empty
      And Anna attacks Boris
      And Anna holds 8♠ 9♠ 9♦
      And Boris holds 8♦ 8♣ K♣
      When Anna opens with 8♠
      And Boris transfers with 8♦
      Then Boris attacks Anna
      When Anna covers 8♠ with 9♠ and 8♦ with 9♦
      Then the bout is beaten off
      And Anna is out
      And Boris is the durak

  @CLAR-2 @clarification
  Rule: Once the game is over, nobody may act
    The specification decides that a finished game accepts no further move: no opening,
    no throw-in, no cover, no take and no done, from the durak or anyone else.

    Example: Boris, the durak, may not open another bout
      Given the players Anna and Boris
      And hearts are trump
      And the stock is empty
      And Anna attacks Boris
      And Anna holds 7♣
      And Boris holds 9♣ K♦ A♠
      When Anna opens with 7♣
      And Boris covers 7♣ with 9♣
      Then Boris is the durak
      And nobody may act
      When Boris opens with K♦
      Then it is rejected by CLAR-2

    Example: After a draw, nobody may say done
      Given the players Anna and Boris
      And the stock is empty
      And Anna attacks Boris
      And Anna holds 7♣
      And Boris holds 9♣
      When Anna opens with 7♣
      And Boris covers 7♣ with 9♣
      Then the game is a draw
      And nobody may act
      When Anna says done
      Then it is rejected by CLAR-2
