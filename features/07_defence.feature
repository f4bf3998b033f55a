Feature: A successful defence
  The discard pile collects the cards of every bout that is beaten off, attack cards and
  covers alike, and nothing ever leaves it. A bout is beaten off when every attack card
  is covered and no thrower adds another; the player who defended it then leads the
  next bout (ORDER-4).

  In these examples Anna attacks Boris unless a scenario says otherwise; with more
  players, Vera, Gleb, Dasha and Egor sit after Boris in this order.

  @DEFEND-1 @source-A @source-B @source-C @source-D
  Rule: A beaten-off table is discarded for good, and the defender leads next
    A beaten-off bout (every attack card covered, every thrower with something to add
    done) sends its whole table to the discard pile. No rule moves a card out of that
    pile again: not a draw, not a take, not a later bout. The player who held the
    defence opens the next bout (ORDER-4).

    Example: Boris beats the seven of clubs, and both cards go to the discard pile
      Given hearts are trump
      And Anna attacks Boris
      And Anna holds 7♣ 8♦ 10♠ J♠ Q♦ K♦
      And Boris holds 9♣ and 5 other cards
      And 12 cards are in the discard pile
      When Anna opens with 7♣
      And Boris covers 7♣ with 9♣
      Then the bout is beaten off
      And the table is empty
      And the discard pile holds 14 cards
      And Boris does not hold 7♣ 9♣
      And Boris attacks Anna next
      When Boris opens with 9♣
      Then it is rejected by CLAR-1

    Example: With three players, the bout is beaten off only once Anna says done
      Vera throws in a ten after Boris's first cover. When Boris has beaten that too,
      Anna still holds the eight of spades, so the bout is not over until she says done.

      Given the players Anna, Boris and Vera
      And hearts are trump
      And Anna attacks Boris
      And Anna holds 8♦ 8♠ and 4 other cards
      And Boris holds 10♦ Q♠ and 4 other cards
      And Vera holds 10♠ and 5 other cards
      And 6 cards are in the discard pile
      When Anna opens with 8♦
      And Boris covers 8♦ with 10♦
      And Vera throws in 10♠
      And Boris covers 10♠ with Q♠
      Then the bout goes on
      And Anna may say done
      When Anna says done
      Then the bout is beaten off
      And the discard pile holds 10 cards
      And Anna has 8♠ in hand
      And Boris attacks Vera next

    Example: The discarded cards stay out when the next bout is taken
      Boris beats off Anna's seven and attacks her with the king of diamonds, which she
      takes. Only the king goes to her hand: the seven and nine of clubs stay in the
      discard pile.

      Given hearts are trump
      And Anna attacks Boris
      And Anna holds 7♣ 8♦ 10♠ J♠ Q♦ 6♠
      And Boris holds 9♣ K♦ A♣ A♦ A♠ 6♣
      And the next cards to draw are 6♦ and 7♦
      And 12 cards are in the discard pile
      When Anna opens with 7♣
      And Boris covers 7♣ with 9♣
      Then the bout is beaten off
      When Boris opens with K♦
      And Anna takes
      Then Anna has taken the cards
      And Anna has K♦ in hand
      And Anna does not hold 7♣ 9♣
      And the discard pile holds 14 cards

    Example: With six players, Egor beats off three attackers, and all six cards are discarded
      Six players hold every card, so the stock is empty; nobody runs out of cards here.

      Given the players Anna, Boris, Vera, Gleb, Dasha and Egor
      And hearts are trump
      And Dasha attacks Egor
      And Dasha holds 8♣ and 2 other cards
      And Egor holds 10♣ J♦ Q♠ and 1 other card
      And Anna holds 8♦ and 2 other cards
      And Boris holds 10♠ and 2 other cards
      And Vera holds 3 cards
      And Gleb holds 4 cards
      When Dasha opens with 8♣
      And Egor covers 8♣ with 10♣
      And Anna throws in 8♦
      And Egor covers 8♦ with J♦
      And Boris throws in 10♠
      And Egor covers 10♠ with Q♠
      Then the bout is beaten off
      And the discard pile holds 22 cards
      And Egor holds 1 card
      And Egor attacks Anna next
