Feature: Taking the cards
  Taking is the defender's alternative to covering, open whenever an attack card lies
  uncovered. The announcement does not close the bout: throwers may still add cards of
  the table's ranks, within the limits. When they are done, the taker receives the whole
  table, attack cards and covers alike, and the roles of the next bout go past the taker
  (ORDER-5).

  In these examples Anna attacks Boris unless a scenario says otherwise; with more
  players, Vera, Gleb, Dasha and Egor sit after Boris in this order.

  @TAKE-1 @source-A @source-C
  Rule: Taking needs no reason
    While an attack card lies uncovered the defender may take, whether or not some card
    in hand would cover it: the rules never ask. Only the defender can take.

    Example: No card of Boris's beats the king of clubs, so he takes
      Given hearts are trump
      And Anna attacks Boris
      And Anna holds K♣ and 5 other cards
      And Boris holds 6♣ Q♣ 8♦ 10♦ 9♠ J♠
      When Anna opens with K♣
      Then Boris's legal moves are
        | take |
      When Boris takes
      Then Boris has taken the cards
      And Boris has K♣ in hand

    Example: Boris could beat the seven with a trump but keeps the trump and takes
      Given hearts are trump
      And Anna attacks Boris
      And Anna holds 7♣ and 5 other cards
      And Boris holds 8♥ 6♣ 10♦ J♦ 9♠ Q♠
      When Anna opens with 7♣
      Then Boris may cover 7♣ with exactly 8♥
      And Boris may take
      When Boris takes
      Then it is accepted
      And Boris has taken the cards
      And Boris has 7♣ 8♥ in hand

    Example: Vera does not defend, so she cannot take Anna's card
      Given the players Anna, Boris and Vera
      And hearts are trump
      And Anna attacks Boris
      And Anna holds 7♣ and 5 other cards
      When Anna opens with 7♣
      Then Boris may take
      And Vera may not take
      When Vera takes
      Then it is rejected by TAKE-1

  @TAKE-2 @source-A @source-B @source-C @source-D
  Rule: Taking picks up everything on the table
    The taker picks up every card of the bout: the attack cards, covered or not, and
    the cards that covered them. Nothing goes to the discard pile, and the table is left
    empty.

    Example: Boris takes back the nine he covered with, along with both sevens
      Given hearts are trump
      And the stock is empty
      And Anna attacks Boris
      And the table shows 7♣ covered by 9♣ and 7♦ uncovered
      And Anna holds 8♠ J♦ K♠ A♠
      And Boris holds 6♠ 10♠ Q♠
      When Boris takes
      Then Boris has taken the cards
      And Boris holds 6♠ 7♣ 7♦ 9♣ 10♠ Q♠
      And the table is empty
      And the discard pile holds 26 cards

    Example: With three players, Boris picks up the cards of Anna and Vera alike
      Vera has thrown in the ten of spades after Boris covered the eight of diamonds
      with the ten of diamonds; Boris beat it, but cannot beat the eight of spades that
      Anna added.

      Given the players Anna, Boris and Vera
      And hearts are trump
      And the stock is empty
      And Anna attacks Boris
      And the table shows 8♦ covered by 10♦, 10♠ covered by Q♠ and 8♠ uncovered
      And Anna holds 3 cards
      And Boris holds 6♣ 7♦
      And Vera holds 4 cards
      When Boris takes
      Then Boris has taken the cards
      And Boris holds 6♣ 7♦ 8♦ 10♦ 10♠ Q♠ 8♠
      And Anna holds 3 cards
      And Vera holds 4 cards
      And the discard pile holds 22 cards

    Example: While the stock lasts, a taker with more than six cards draws none
      Given hearts are trump
      And 10 cards are left in the stock
      And Anna attacks Boris
      And the table shows 9♣ covered by J♣ and 9♦ uncovered
      And Anna holds 4 cards
      And Boris holds 5 cards
      When Boris takes
      Then Boris has taken the cards
      And Boris holds 8 cards
      And Anna holds 6 cards
      And the stock holds 8 cards

  @TAKE-3 @source-A @source-B
  Rule: Throw-ins go on after a take is announced, and the taker gets them too
    Announcing the take does not close the bout. Every player who may add attack cards
    may still add cards whose rank lies on the table, within the bout's limits (at most
    six attack cards, and never more than the defender can answer); whoever could still
    add a card says done when finished. The defender picks up the added cards with the
    rest. A card of a rank that is not on the table may not be added, take or no take.

    Example: Anna adds a second seven for Boris and keeps the third
      Given hearts are trump
      And Anna attacks Boris
      And Anna holds 7♣ 7♦ 7♠ and 3 other cards
      And Boris holds 6 cards
      When Anna opens with 7♣
      And Boris takes
      Then the bout goes on
      And Anna may throw in exactly 7♦ and 7♠
      When Anna throws in 7♦
      And Anna says done
      Then Boris has taken the cards
      And Boris has 7♣ 7♦ in hand
      And Anna has 7♠ in hand

    Example: After Boris takes, Anna may not add a card of a rank that is not on the table
      Given hearts are trump
      And Anna attacks Boris
      And Anna holds 7♣ 7♦ K♠ and 3 other cards
      And Boris holds 6 cards
      When Anna opens with 7♣
      And Boris takes
      And Anna throws in K♠
      Then it is rejected by ATTACK-3
      When Anna throws in 7♦
      Then Boris has taken the cards
      And Boris has 7♣ 7♦ in hand

    Example: With four players, Anna is done and Vera and Gleb add nines after Boris takes
      Anna holds the nine of trumps and chooses to keep it.

      Given the players Anna, Boris, Vera and Gleb
      And hearts are trump
      And Anna attacks Boris
      And Anna holds 9♦ 9♥ and 4 other cards
      And Boris holds 6 cards
      And Vera holds 9♣ and 5 other cards
      And Gleb holds 9♠ and 5 other cards
      When Anna opens with 9♦
      And Boris takes
      And Anna says done
      And Vera throws in 9♣
      And Gleb throws in 9♠
      Then Boris has taken the cards
      And Boris has 9♦ 9♠ 9♣ in hand
      And Anna has 9♥ in hand

    Example: With three players, Vera adds the sixth attack card and Anna's queen stays out
      Five attack cards lie on the table when Boris takes. Anna says done and keeps her
      queen of trumps; Vera's eight makes six, the most a bout allows, so the bout ends
      at once.

      Given the players Anna, Boris and Vera
      And hearts are trump
      And Anna attacks Boris
      And the table shows 8♣ covered by 10♣, 8♦ covered by 10♦, 10♠ covered by Q♠, Q♣ uncovered and Q♦ uncovered
      And Anna holds Q♥ and 2 other cards
      And Boris holds 4 cards
      And Vera holds 8♠ and 2 other cards
      When Boris takes
      Then Anna may throw in Q♥
      When Anna says done
      Then Vera may throw in 8♠
      When Vera throws in 8♠
      Then Boris has taken the cards
      And Boris has 8♣ 10♣ 8♦ 10♦ 10♠ Q♠ Q♣ Q♦ 8♠ in hand
      And Anna has Q♥ in hand

  @TAKE-4 @source-A @source-B @source-C @source-D
  Rule: A taker never leads the next bout
    The roles of the next bout go past the taker: the next player after the taker opens
    it (ORDER-5 in "Who attacks and who defends").

    Example: With two players, Boris takes and may not open the next bout
      Given hearts are trump
      And Anna attacks Boris
      And Anna holds 7♣ 8♦ 10♠ J♠ Q♦ K♦
      And Boris holds 8♣ and 5 other cards
      When Anna opens with 7♣
      And Boris takes
      Then Anna attacks Boris next
      When Boris opens with 8♣
      Then it is rejected by ATTACK-1

    Example: With three players, Boris takes and Vera leads the next bout instead of him
      Given the players Anna, Boris and Vera
      And hearts are trump
      And Anna attacks Boris
      And Anna holds 7♣ and 5 other cards
      And Boris holds 8♣ and 5 other cards
      When Anna opens with 7♣
      And Boris takes
      Then Vera attacks Anna next
      When Boris opens with 8♣
      Then it is rejected by ATTACK-1

    Example: With six players, Dasha takes Gleb's attack and Egor attacks Anna
      Given the players Anna, Boris, Vera, Gleb, Dasha and Egor
      And hearts are trump
      And Gleb attacks Dasha
      And Gleb holds J♣ and 2 other cards
      And Dasha holds 8♣ and 2 other cards
      And Anna holds 3 cards
      And Boris holds 3 cards
      And Vera holds 3 cards
      And Egor holds 3 cards
      When Gleb opens with J♣
      And Dasha takes
      Then Dasha has taken the cards
      And Egor attacks Anna next
      When Dasha opens with 8♣
      Then it is rejected by ATTACK-1

  @CLAR-4 @clarification
  Rule: A take is announced while a card lies uncovered, and then the defender waits
    The sources do not say when the defender may give up, nor what the defender may do
    after saying so. The specification decides: a take can be announced only while at
    least one attack card is uncovered, only once, and from then on the defender makes
    no move in the bout (no cover, no transfer) until the attackers are done and the
    cards are taken.

    Example: With every attack card covered, Boris has nothing to take
      Anna still holds a nine, so the bout is not over yet.

      Given hearts are trump
      And Anna attacks Boris
      And the table shows 7♣ covered by 9♣
      And Anna holds 9♦ and 5 other cards
      Then Boris may not take
      When Boris takes
      Then it is rejected by CLAR-4

    Example: Once he has announced a take, Boris may not cover any more
      Given hearts are trump
      And Anna attacks Boris
      And the table shows 7♣ uncovered
      And Boris has announced a take
      And Anna holds 7♦ and 4 other cards
      And Boris holds 9♣ and 5 other cards
      Then Boris may not cover 7♣ with 9♣
      When Boris covers 7♣ with 9♣
      Then it is rejected by CLAR-4

    Example: A take is announced only once
      Given hearts are trump
      And Anna attacks Boris
      And Anna holds 7♣ 7♦ and 4 other cards
      When Anna opens with 7♣
      And Boris takes
      Then Boris may not take
      When Boris takes
      Then it is rejected by CLAR-4

    Example: In the transfer game, Boris may not transfer after announcing a take
      Given the players Anna, Boris and Vera
      And the classic transfer game
      And hearts are trump
      And Anna attacks Boris
      And Anna holds 7♣ 7♠ and 4 other cards
      And Boris holds 7♦ and 5 other cards
      When Anna opens with 7♣
      Then Boris may transfer with 7♦
      When Boris takes
      Then Boris may not transfer
      When Boris transfers with 7♦
      Then it is rejected by CLAR-4

  @CLAR-20 @clarification
  Rule: A done said during a take stands for the rest of the bout
    The sources let the attackers go on adding cards once the defender has given up, and
    say nothing more about it. The specification decides that a done said during a take
    is final. Only a move of the defender lifts a done (CLAR-3), and a defender who has
    announced a take makes none, so an attacker who has said done adds no more cards to
    this bout, even when another attacker adds one after them.

    Example: Anna is done, Vera adds a seven, and the bout ends with Anna's seven kept back
      Given the players Anna, Boris and Vera
      And hearts are trump
      And Anna attacks Boris
      And Anna holds 7♣ 7♦ and 4 other cards
      And Boris holds 6 cards
      And Vera holds 7♠ and 5 other cards
      When Anna opens with 7♣
      And Boris takes
      And Anna says done
      And Vera throws in 7♠
      Then Boris has taken the cards
      And Boris has 7♣ 7♠ in hand
      And Anna has 7♦ in hand

    Example: After Vera's seven, Anna may still not add hers
      Given the players Anna, Boris and Vera
      And hearts are trump
      And Anna attacks Boris
      And Anna holds 7♣ 7♦ and 4 other cards
      And Boris holds 6 cards
      And Vera holds 7♠ 7♥ and 4 other cards
      When Anna opens with 7♣
      And Boris takes
      And Anna says done
      And Vera throws in 7♠
      Then the bout goes on
      And Anna may not throw in 7♦
      When Anna throws in 7♦
      Then it is rejected by CLAR-20
      When Vera says done
      Then Boris has taken the cards
      And Anna has 7♦ in hand

  @CLAR-21 @clarification
  Rule: Asked-again reading: each card thrown in during a take asks every attacker again
    Some computer games read the take the other way: every card an attacker adds during
    a take cancels each done said so far, and all who could still add a card are asked
    once more. No source decides between this and CLAR-20, so the specification offers
    it as a setting. A done still holds until another card is added: an attacker who has said
    done cannot change their mind on their own.

    Example: Anna is done, Vera adds a seven, and Anna is asked again and adds hers
      Given the players Anna, Boris and Vera
      And the setting "done_in_take" is "asked-again"
      And hearts are trump
      And Anna attacks Boris
      And Anna holds 7♣ 7♦ and 4 other cards
      And Boris holds 6 cards
      And Vera holds 7♠ and 5 other cards
      When Anna opens with 7♣
      And Boris takes
      And Anna says done
      And Vera throws in 7♠
      Then the bout goes on
      And Anna may throw in 7♦
      When Anna throws in 7♦
      Then Boris has taken the cards
      And Boris has 7♣ 7♠ 7♦ in hand

    Example: Having said done, Anna may not add her seven before anyone else adds a card
      Given the players Anna, Boris and Vera
      And the setting "done_in_take" is "asked-again"
      And hearts are trump
      And Anna attacks Boris
      And Anna holds 7♣ 7♦ and 4 other cards
      And Boris holds 6 cards
      And Vera holds 7♠ and 5 other cards
      When Anna opens with 7♣
      And Boris takes
      And Anna says done
      Then Anna may not throw in 7♦
      When Anna throws in 7♦
      Then it is rejected by CLAR-21
