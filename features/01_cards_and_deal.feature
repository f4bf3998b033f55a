Feature: Cards and the deal
  Before the first bout, the deal settles what each player holds (six cards from a short
  deck of 36) and which suit is trump (the suit of a card laid open for all to see). Who
  attacks first follows from the hands dealt: see "Who attacks and who defends".

  The players sit clockwise in the order they are named: Anna first, then Boris, then
  Vera, and so on. A stacked deck lists each player's six cards in the order they are
  dealt, the next cards of the stock, and the card that is turned face up.

  @DEAL-1 @source-A @source-B @source-D
  Rule: The deck has 36 cards, the six up to the ace of each suit
    Four suits of nine cards each, from the six up through the ten to jack, queen, king
    and ace; the twos to fives are left out. A deal needs every one of the 36 cards
    exactly once.

    Example: A two-player deal accounts for all 36 cards
      Given the players Anna and Boris
      When the game is dealt from a stacked deck
        """
        Anna:  6♣ 7♣ 8♣ 9♣ 10♣ J♣
        Boris: Q♣ K♣ A♣ 6♦ 7♦ 8♦
        face-up: 9♥
        """
      Then it is accepted
      And each player holds 6 cards
      And the stock holds 24 cards

    Example: A deck that lacks a card is refused
      When the game is dealt from a deck without 7♣
      Then it is rejected by DEAL-1

    Example: A deck that holds a card twice is refused
      When the game is dealt from a deck with Q♠ twice
      Then it is rejected by DEAL-1

  @DEAL-2 @source-A @source-B @source-D
  Rule: Within a suit the ranks run from the six up to the ace
    A card outranks every lower card of its own suit. The six is the lowest card of a
    suit and the ace the highest; the order does not wrap around.

    Scenario Outline: <higher> outranks <lower>
      Given hearts are trump
      And Anna attacks Boris
      And the table shows <lower> uncovered
      And Boris holds <higher> and 5 other cards
      When Boris covers <lower> with <higher>
      Then it is accepted

      Examples:
        | lower | higher |
        | 6♣    | 7♣     |
        | 7♣    | 8♣     |
        | 8♣    | 9♣     |
        | 9♣    | 10♣    |
        | 10♣   | J♣     |
        | J♣    | Q♣     |
        | Q♣    | K♣     |
        | K♣    | A♣     |

    Example: No spade ranks above the ace of spades
      Given hearts are trump
      And Anna attacks Boris
      And the table shows A♠ uncovered
      And Boris holds 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠
      Then Boris may not cover A♠ with any card
      When Boris covers A♠ with K♠
      Then it is rejected by BEAT-5

  @DEAL-3 @source-A @source-B @source-D @variant
  Rule: Two to six players can play
    Sources A and D allow any number of players from two to six; source B describes a
    game for two. The number of players is therefore a setting of every rule profile.
    More players leave fewer cards in the stock.

    Scenario Outline: A deal for <players> players leaves <stock> cards in the stock
      Given the rules of "source-a" with <players> players
      When the game is dealt from a stacked deck
        """
        Anna: 6♣ 7♣ 8♣ 9♣ 10♣ J♣
        """
      Then each player holds 6 cards
      And the stock holds <stock> cards

      Examples:
        | players | stock |
        | 2       | 24    |
        | 3       | 18    |
        | 4       | 12    |
        | 5       | 6     |

    Example: Seven players are too many for one deck
      Given the rules of "source-a"
      When a game for 7 players is set up
      Then it is rejected by DEAL-3

    Example: Nobody plays Durak alone
      Given the rules of "source-d"
      When a game for 1 player is set up
      Then it is rejected by DEAL-3

  @DEAL-4 @source-A @source-B @source-C @source-D
  Rule: A hand starts with six cards
    The cards are dealt six to each player in seat order; with six players that is the
    whole deck. Source C does not describe the deal, but its rule of refilling hands to
    six after each bout takes the six-card hand for granted.

    Example: Three players each receive six cards in turn
      Given the players Anna, Boris and Vera
      When the game is dealt from a stacked deck
        """
        Anna:  6♣ 7♣ 8♣ 9♣ 10♣ J♣
        Boris: 6♦ 7♦ 8♦ 9♦ 10♦ J♦
        Vera:  6♠ 7♠ 8♠ 9♠ 10♠ J♠
        face-up: K♥
        """
      Then Anna holds 6♣ 7♣ 8♣ 9♣ 10♣ J♣
      And Boris holds 6♦ 7♦ 8♦ 9♦ 10♦ J♦
      And Vera holds 6♠ 7♠ 8♠ 9♠ 10♠ J♠
      And the stock holds 18 cards

    Example: Six players share out the whole deck
      Given the players Anna, Boris, Vera, Gleb, Dasha and Egor
      When the game is dealt from a stacked deck
        """
        Anna:  6♣ 7♣ 8♣ 9♣ 10♣ J♣
        Boris: Q♣ K♣ A♣ 6♦ 7♦ 8♦
        Vera:  9♦ 10♦ J♦ Q♦ K♦ A♦
        Gleb:  6♥ 7♥ 8♥ 9♥ 10♥ 6♠
        Dasha: J♥ Q♥ K♥ A♥ 7♠ 8♠
        Egor:  9♠ 10♠ J♠ Q♠ A♠ K♠
        """
      Then each player holds 6 cards
      And the stock is empty

  @DEAL-5 @source-A @source-B @source-C @source-D
  Rule: One suit is trump from the deal to the end: the suit of the face-up card
    Trump is settled once, at the deal, by the first card left over after the hands,
    which is laid face up. Drawing that card later changes nothing: every bout of the
    game has the same trump suit. Source C says only that trump is settled when the game
    starts.

    Example: The face-up nine of diamonds makes diamonds trump
      Given the players Anna and Boris
      When the game is dealt from a stacked deck
        """
        Anna:  6♣ 7♣ 8♣ 9♣ 10♣ J♣
        Boris: 6♠ 7♠ 8♠ 9♠ 10♠ J♠
        face-up: 9♦
        """
      Then diamonds are trump
      And the face-up trump is 9♦

    Example: Diamonds stay trump once the nine of diamonds has been drawn
      Given the face-up trump is 9♦
      And 1 card is left in the stock
      And Anna attacks Boris
      And Anna holds 7♣ and 5 other cards
      And Boris holds 10♣ K♠ and 5 other cards
      When Anna opens with 7♣
      And Boris covers 7♣ with 10♣
      Then the bout is beaten off
      And Anna has 9♦ in hand
      And the stock is empty
      And diamonds are trump
      When Boris opens with K♠
      And Anna covers K♠ with 9♦
      Then it is accepted

  @DEAL-6 @source-A @source-B @source-C @source-D
  Rule: The trump card waits at the bottom of the stock, in view
    The face-up card is placed beneath the stock, where it stays in sight, and it is the
    stock's last card: every hidden card is drawn before it.

    Example: The hidden cards are drawn before the face-up queen of hearts
      Given the face-up trump is Q♥
      And 4 cards are left in the stock
      And the next cards to draw are 8♠ and 9♠
      And Anna attacks Boris
      And Anna holds 7♣ and 5 other cards
      And Boris holds 10♣ and 5 other cards
      When Anna opens with 7♣
      And Boris covers 7♣ with 10♣
      Then the bout is beaten off
      And Anna has 8♠ in hand
      And Boris has 9♠ in hand
      And the stock holds 2 cards
      And the face-up trump is Q♥

    Example: The last card drawn is the face-up trump
      Given the face-up trump is Q♥
      And 2 cards are left in the stock
      And the next card to draw is 8♠
      And Anna attacks Boris
      And Anna holds 7♣ and 5 other cards
      And Boris holds 10♣ and 5 other cards
      When Anna opens with 7♣
      And Boris covers 7♣ with 10♣
      Then the bout is beaten off
      And Anna has 8♠ in hand
      And Boris has Q♥ in hand
      And the stock is empty
      And there is no face-up trump

  @DEAL-7 @source-A @fact
  Rule: The deck holds nine trumps
    Every suit has nine cards, so there are nine trumps in the game, from the six of
    trumps up to the ace.

    Example: With six players all nine trumps are in the hands
      Given the players Anna, Boris, Vera, Gleb, Dasha and Egor
      When the game is dealt from a stacked deck
        """
        Anna:  6♣ 7♣ 8♣ 9♣ 10♣ J♣
        Boris: Q♣ K♣ A♣ 6♦ 7♦ 8♦
        Vera:  9♦ 10♦ J♦ Q♦ K♦ A♦
        Gleb:  6♥ 7♥ 8♥ 9♥ 10♥ 6♠
        Dasha: J♥ Q♥ K♥ A♥ 7♠ 8♠
        Egor:  9♠ 10♠ J♠ Q♠ A♠ K♠
        """
      Then spades are trump
      And the players hold 9 trumps between them

    Scenario Outline: The trump <trump> beats the ace of spades
      Given hearts are trump
      And Anna attacks Boris
      And the table shows A♠ uncovered
      And Boris holds <trump> and 5 other cards
      When Boris covers A♠ with <trump>
      Then it is accepted

      Examples:
        | trump |
        | 6♥    |
        | 7♥    |
        | 8♥    |
        | 9♥    |
        | 10♥   |
        | J♥    |
        | Q♥    |
        | K♥    |
        | A♥    |

  @DEAL-8 @clarification
  Rule: With six players the last card dealt shows trump and stays in its hand
    Six hands of six take the whole deck, and nothing remains to be laid open. The
    sources do not say where trump comes from then; the specification decides, following
    common table practice, that the sixth player's sixth card is shown to everyone before
    it joins that hand, and its suit is trump. There is no stock.

    Example: Egor's last card, the king of spades, makes spades trump
      Given the players Anna, Boris, Vera, Gleb, Dasha and Egor
      When the game is dealt from a stacked deck
        """
        Anna:  6♣ 7♣ 8♣ 9♣ 10♣ J♣
        Boris: Q♣ K♣ A♣ 6♦ 7♦ 8♦
        Vera:  9♦ 10♦ J♦ Q♦ K♦ A♦
        Gleb:  6♥ 7♥ 8♥ 9♥ 10♥ 6♠
        Dasha: J♥ Q♥ K♥ A♥ 7♠ 8♠
        Egor:  9♠ 10♠ J♠ Q♠ A♠ K♠
        """
      Then spades are trump
      And Egor holds 9♠ 10♠ J♠ Q♠ K♠ A♠
      And the stock is empty
      And there is no face-up trump

    Example: The lowest trump still leads when every card is dealt
      Given the players Anna, Boris, Vera, Gleb, Dasha and Egor
      When the game is dealt from a stacked deck
        """
        Anna:  6♣ 7♣ 8♣ 9♣ 10♣ J♣
        Boris: Q♣ K♣ A♣ 6♦ 7♦ 8♦
        Vera:  9♦ 10♦ J♦ Q♦ K♦ A♦
        Gleb:  6♥ 7♥ 8♥ 9♥ 10♥ 6♠
        Dasha: J♥ Q♥ K♥ A♥ 7♠ 8♠
        Egor:  9♠ 10♠ J♠ Q♠ A♠ K♠
        """
      Then Gleb attacks Dasha
      And only Gleb may act

  @CLAR-10 @clarification
  Rule: A deck order lists the cards in the order they leave the deck
    When a game is dealt from a given order of the 36 cards, the specification decides
    how that order is read: the first six cards go to the first seat, the next six to
    the second seat and so on; the cards after the hands form the stock, drawn from the
    front; the very last card is the face-up trump, drawn last of all.

    Example: The first six cards go to the first seat and the last card is turned up
      Given the players Anna and Boris
      When the game is dealt from this deck order
        """
        7♥ 6♣ 7♣ 8♣ 9♣ 10♣
        6♦ 7♦ 8♦ 9♦ 10♦ J♦
        A♠ K♠ Q♠ J♠ 10♠ 9♠
        8♠ 7♠ 6♠ J♣ Q♣ K♣
        A♣ Q♦ K♦ A♦ 8♥ 9♥
        10♥ J♥ Q♥ K♥ A♥ 6♥
        """
      Then Anna holds 7♥ 6♣ 7♣ 8♣ 9♣ 10♣
      And Boris holds 6♦ 7♦ 8♦ 9♦ 10♦ J♦
      And the stock holds 24 cards
      And the face-up trump is 6♥
      And hearts are trump

    Example: The stock is drawn from the front of the order
      Given the players Anna and Boris
      When the game is dealt from this deck order
        """
        7♥ 6♣ 7♣ 8♣ 9♣ 10♣
        6♦ 7♦ 8♦ 9♦ 10♦ J♦
        A♠ K♠ Q♠ J♠ 10♠ 9♠
        8♠ 7♠ 6♠ J♣ Q♣ K♣
        A♣ Q♦ K♦ A♦ 8♥ 9♥
        10♥ J♥ Q♥ K♥ A♥ 6♥
        """
      And Anna opens with 6♣
      And Boris takes
      Then Boris has taken the cards
      And Anna has A♠ in hand
      And the stock holds 23 cards

    Example: An order of 35 cards is not a deck
      Given the players Anna and Boris
      When the game is dealt from this deck order
        """
        7♥ 6♣ 7♣ 8♣ 9♣ 10♣
        6♦ 7♦ 8♦ 9♦ 10♦ J♦
        A♠ K♠ Q♠ J♠ 10♠ 9♠
        8♠ 7♠ 6♠ J♣ Q♣ K♣
        A♣ Q♦ K♦ A♦ 8♥ 9♥
        10♥ J♥ Q♥ K♥ A♥
        """
      Then it is rejected by DEAL-1
