Feature: Beating a card
  Covering compares two cards under the trump suit. Within one suit the higher rank
  covers. A trump covers any card of another suit, whatever the ranks; between two
  trumps rank decides again; and a card that is not a trump never covers a card of
  another suit. A defender who does not cover takes (see "Taking the cards").

  In these examples Anna attacks Boris, the attack cards lie on the table, and Boris
  chooses his covers. When the last attack card is covered and nobody can add another,
  the bout is beaten off.

  @BEAT-1 @source-A @source-B @source-C @source-D
  Rule: Within a suit, the higher rank covers
    Any card of the attacked suit that ranks above the attack card covers it, however
    far above it is.

    Example: The nine of clubs beats the seven of clubs
      Given hearts are trump
      And Anna attacks Boris
      And the table shows 7♣ uncovered
      And Boris holds 9♣ and 5 other cards
      When Boris covers 7♣ with 9♣
      Then it is accepted
      And the bout is beaten off

    Example: Every higher diamond covers the eight of diamonds
      Given hearts are trump
      And Anna attacks Boris
      And the table shows 8♦ uncovered
      And Boris holds 7♦ 9♦ K♦ A♦ 8♠
      Then Boris may cover 8♦ with exactly 9♦ K♦ and A♦

    @EX-2 @example @source-A
    Example: A higher card of the attacked suit beats it (source A's first picture)
      Source A shows this with a picture and does not name the cards; this example uses
      the ten of spades, beaten by the queen of spades.

      Given diamonds are trump
      And Anna attacks Boris
      And the table shows 10♠ uncovered
      And Boris holds Q♠ and 5 other cards
      When Boris covers 10♠ with Q♠
      Then it is accepted
      And the bout is beaten off

  @BEAT-2 @source-A @source-B @source-C @source-D
  Rule: Any trump beats any card that is not a trump
    Against a card of another suit every trump is high enough: when a trump covers a
    plain card, the two ranks are not compared at all.

    @EX-1 @example @source-A
    Example: With diamonds trump, the six of diamonds beats a king (source A's second picture)
      Source A says only that the king is of another suit; this example uses the king of
      spades.

      Given diamonds are trump
      And Anna attacks Boris
      And the table shows K♠ uncovered
      And Boris holds 6♦ and 5 other cards
      When Boris covers K♠ with 6♦
      Then it is accepted
      And the bout is beaten off

    @EX-7 @example @source-C
    Scenario Outline: A six of trumps beats the ace <ace> (source C)
      Given hearts are trump
      And Anna attacks Boris
      And the table shows <ace> uncovered
      And Boris holds 6♥ and 5 other cards
      When Boris covers <ace> with 6♥
      Then it is accepted

      Examples:
        | ace |
        | A♣  |
        | A♦  |
        | A♠  |

    @EX-6 @example @source-C
    Example: With no higher club in hand, the eight of hearts covers the queen of clubs (source C)
      Given hearts are trump
      And Anna attacks Boris
      And the table shows Q♣ uncovered
      And Boris holds 7♣ J♣ 8♥ 10♦ K♠
      Then Boris may cover Q♣ with exactly 8♥
      When Boris covers Q♣ with 8♥
      Then it is accepted
      And the bout is beaten off

  @BEAT-3 @source-A @source-B @source-C @source-D
  Rule: Trump against trump, the higher rank wins
    Between two trumps rank alone decides, so only a higher trump covers a trump. A
    lower trump does not, and no card of another suit does, an ace included.

    Example: The jack of trumps beats the nine of trumps
      Given hearts are trump
      And Anna attacks Boris
      And the table shows 9♥ uncovered
      And Boris holds J♥ and 5 other cards
      When Boris covers 9♥ with J♥
      Then it is accepted
      And the bout is beaten off

    Example: A lower trump does not beat a trump
      Given hearts are trump
      And Anna attacks Boris
      And the table shows 9♥ uncovered
      And Boris holds 7♥ and 5 other cards
      When Boris covers 9♥ with 7♥
      Then it is rejected by BEAT-3

    Example: No ace of another suit beats the six of trumps
      Given hearts are trump
      And Anna attacks Boris
      And the table shows 6♥ uncovered
      And Boris holds A♠ A♣ A♦ 7♥
      Then Boris may cover 6♥ with exactly 7♥
      When Boris covers 6♥ with A♠
      Then it is rejected by BEAT-3

  @BEAT-4 @source-D
  Rule: Nothing covers the ace of trumps
    It is the highest trump, and only a higher trump could cover it, so a defender facing
    it can only take.

    Example: No card covers the ace of trumps
      Given hearts are trump
      And Anna attacks Boris
      And the table shows A♥ uncovered
      And Boris holds K♥ Q♥ A♠ A♣ A♦ 6♥
      Then Boris may not cover A♥ with any card
      When Boris covers A♥ with K♥
      Then it is rejected by BEAT-4

    Example: Facing the ace of trumps, taking is the defender's only move
      Given hearts are trump
      And Anna attacks Boris
      And the table shows A♥ uncovered
      And Boris holds K♥ Q♥ A♠ A♣ A♦ 6♥
      Then Boris's legal moves are
        | take |
      When Boris takes
      Then Boris has taken the cards

  @BEAT-5 @source-A @source-B @source-C @source-D
  Rule: Nothing else covers: not a lower card of the suit, not a plain card of another suit
    BEAT-1 to BEAT-3 name every cover there is, and any other card fails, whatever its
    rank. No source spells this out; it follows from what the sources say does cover.

    Example: The seven of clubs does not beat the nine of clubs
      Given hearts are trump
      And Anna attacks Boris
      And the table shows 9♣ uncovered
      And Boris holds 7♣ and 5 other cards
      When Boris covers 9♣ with 7♣
      Then it is rejected by BEAT-5

    Example: The ace of diamonds does not beat the seven of clubs when hearts are trump
      Given hearts are trump
      And Anna attacks Boris
      And the table shows 7♣ uncovered
      And Boris holds A♦ and 5 other cards
      When Boris covers 7♣ with A♦
      Then it is rejected by BEAT-5

    Example: A card of the same rank in another suit does not beat
      Given hearts are trump
      And Anna attacks Boris
      And the table shows 7♣ uncovered
      And Boris holds 7♠ and 5 other cards
      When Boris covers 7♣ with 7♠
      Then it is rejected by BEAT-5

    @EX-5 @example @source-C
    Example: Against the nine of clubs only higher clubs and hearts will do (source C)
      Source C's player 1, here Anna, leads the nine of clubs with hearts as trump. The
      source lists the covers allowed, every higher club and every heart, and has the
      defender play the king of clubs. Boris's other cards show what does not cover: a
      lower club and the nines of other suits.

      Given hearts are trump
      And Anna attacks Boris
      And the table shows 9♣ uncovered
      And Boris holds 6♣ 8♣ 10♣ J♣ Q♣ K♣ A♣ 7♥ Q♥ 9♠ 9♦
      Then Boris may cover 9♣ with exactly 10♣ J♣ Q♣ K♣ A♣ 7♥ and Q♥
      When Boris covers 9♣ with K♣
      Then it is accepted
      And the bout is beaten off

  @BEAT-6 @source-A @source-B
  Rule: One cover per attack card, and the defender picks where each goes
    Every attack card takes exactly one covering card. When several attack cards lie
    uncovered, the defender decides which of them a card goes on and in what order;
    a card that is covered stays covered. Only the defender covers.

    Example: Boris covers the second attack card first
      Given hearts are trump
      And Anna attacks Boris
      And the table shows 7♣ uncovered and 7♦ uncovered
      And Boris holds 9♣ 9♦ 8♥ and 3 other cards
      Then Boris may cover 7♣ with 9♣ and 8♥
      And Boris may cover 7♦ with 9♦ and 8♥
      When Boris covers 7♦ with 8♥
      Then it is accepted
      And the table shows 7♣ uncovered and 7♦ covered by 8♥
      And Boris may cover 7♣ with exactly 9♣

    Example: A covered card cannot be covered a second time
      Given hearts are trump
      And Anna attacks Boris
      And the table shows 7♣ covered by 9♣ and 7♦ uncovered
      And Boris holds J♣ 9♦ and 3 other cards
      When Boris covers 7♣ with J♣
      Then it is rejected by BEAT-6

    Example: Only the defender covers attack cards
      Given hearts are trump
      And Anna attacks Boris
      And the table shows 7♣ uncovered
      And Anna holds 9♣ and 4 other cards
      When Anna covers 7♣ with 9♣
      Then it is rejected by BEAT-6
