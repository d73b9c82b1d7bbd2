"""A plain-Python Fairy Land engine that reads like the rulebook (the spec in code).

It is the specification the jitted engine copies: the same random draws in the same order, the
same decisions with the same choice rows (:mod:`.rules`), the same policy functions, so both
engines must agree game by game. It is also the speed baseline. Longer than most modules (about
1,100 lines, a sixth of them imports) because it is the whole game in one place, in the rulebook's
order.

Order of random draws
---------------------
Rule draws come from the game's ``DEAL_STREAM``, all at setup (ruling L2); play draws nothing
else (cards seen and not kept go back to the bottom of their deck, there is no reshuffle):

1. Shuffle the forest: the forest cards laid out by type, ascending (``rng.lay_out_counts`` of
   the card file's forest counts), ``shuffle_prefix`` over all of them. The top of the forest is
   the last element.
2. Shuffle the court: item ids ``0 .. n_items - 1`` of the court (the whole file, or the 9
   starred items for ``--court starred``), ``shuffle_prefix`` over all; the Queen's Court deck is
   the last ``COURT_DECK_SIZE`` (9) of them, the top being the last element. Forest first, so a
   game's forest does not depend on the court or the player count (common random numbers).
3. The starting seat: ``randint(players)`` (L18, as F1).

Under a card removal (``setup.removed_card``, ruling PL12) every card of that type then leaves
the shuffled forest, the others closing up in their order. Then, with no draw: the Druid deck is
the top 9 forest cards in their order (the forest's top card is the Druid deck's top card);
clearings 0, 1 and 2 each take the next card from the top; the rest is the forest deck (72 cards
with the rulebook's deck, 36 turns).

Each seat's policy draws only from its own stream (``FIRST_POLICY_STREAM + seat``). A decision
with a single legal choice is not offered (ruling PL1); every other decision is, in this order
within a turn of the active seat A:

- Dawn: A's ``DAWN`` (the first card drawn is the forest's top card).
- Day: A's ``DAY``; then, by the action:
  explore: ``BID`` for each seat from A's left round to A (bidders who can only pass are not
  asked; nobody bids on an empty clearing), the winner's ``PAYMENT``, then one
  ``OGRE_VICTIMS`` of the winner per ogre taken, in turn;
  Queen or Druids: A's ``QUEEN_FAIRIES``/``DRUID_FAIRIES``, A's ``QUEEN_PICK``/``DRUID_PICK``,
  and for a Druid ogre A's ``OGRE_VICTIMS``;
  an item: the Fairy Net's ``NET_TAKE`` (then ``OGRE_VICTIMS`` for an ogre), the Broom's
  ``BROOM_SWEEP``, the Horn's ``HORN_RECALL``; the Druid's Key's ogre ``OGRE_VICTIMS``.
- Sunset: no decision.

The view's decision context: ``V_DAWN_CARDS`` holds the Dawn's cards during ``DAWN`` (else
``NO_CARD``); ``V_AUCTION_CLEARING``, ``V_HIGH_BID`` and ``V_HIGH_BIDDER`` hold the auction from
its first bid to its payment (else ``NO_CLEARING``, 0, ``NO_SEAT``); during ``PAYMENT``
``V_HIGH_BID`` is the bid to pay. Cards a seat is looking at (Queen, Druids) appear only in the
choice rows.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from fairysim.runtime.errors import IllegalChoiceError, ParameterError
from fairysim.sim.fairyland.cards import Court, FairyLandCards
from fairysim.sim.fairyland.rules import (
    ACT_CREST,
    ACT_DRUIDS,
    ACT_EXPLORE,
    ACT_ITEM,
    ACT_QUEEN,
    ANIMALS,
    BID,
    BID_BONUS,
    BROOM,
    BROOM_SWEEP,
    CARD_NAMES,
    CHOICE_WIDTH,
    CLEARINGS,
    COURT_DECK_SIZE,
    DAWN,
    DAWN_DRAW,
    DAY,
    DECISIONS,
    DRUID_DECK_SIZE,
    DRUID_FAIRIES,
    DRUID_PICK,
    DRUIDS_KEY,
    EXPLORER,
    FAUNA,
    FAUNA_NEEDS,
    FAUNA_VALUE,
    FIRST_FOREST_TYPE,
    FLAT_POINTS,
    FLORA,
    FLORA_NEEDS,
    FLORA_VALUE,
    FLOWER_POINTS,
    FLOWERS,
    GOBLIN,
    GOBLIN_TIED_MOST,
    GOBLIN_TRAP,
    GOBLIN_UNIQUE_MOST,
    HALF,
    HERALD,
    HERALD_VALUE,
    HORN_OF_RECALL,
    HORN_RECALL,
    HOUSE_FAIRIES,
    IT_AMOUNT,
    IT_AT_LEAST,
    IT_CARDS,
    IT_PRIMITIVE,
    ITEM_FIELDS,
    ITEM_UNSEEN,
    ITEM_USED,
    LOST_HALF,
    MAX_CHOICES,
    MAX_COURT_ITEMS,
    MAX_SEATS,
    N_ANIMALS,
    N_CARD_TYPES,
    N_FAIRY_TYPES,
    NET,
    NET_TAKE,
    NO_ARG,
    NO_CARD,
    NO_CLEARING,
    NO_PRIMITIVE,
    NO_SEAT,
    OGRE,
    OGRE_VICTIMS,
    OGRE_WARD,
    OVERCROWDED,
    PART_NAMES,
    PASS,
    PAYMENT,
    PENDANT_PAIR,
    POINTS_PER_CARD_TYPE,
    QUEEN_FAIRIES,
    QUEEN_PICK,
    SPECIAL_FAIRIES,
    TURTLE,
    TURTLE_BONUS,
    TURTLE_BONUS_COUNT,
    USABLE_PRIMITIVES,
    V_ACTIVE,
    V_AUCTION_CLEARING,
    V_BID_BONUS,
    V_CLEARING,
    V_CLEARING_SIZE,
    V_COLLECTED,
    V_COURT_LEFT,
    V_CRESTS,
    V_DAWN_CARDS,
    V_DRUIDS_LEFT,
    V_FACE_VALUE,
    V_FOREST_LEFT,
    V_HAND,
    V_HIGH_BID,
    V_HIGH_BIDDER,
    V_ITEM_STATE,
    V_ITEM_TABLE,
    V_ITEMS_HELD,
    V_MAJORITY,
    V_OGRE_WARD,
    V_PLAYED,
    V_PLAYERS,
    V_SEAT,
    V_START_SEAT,
    V_TURN,
    V_VISIT_BONUS,
    VARIETY_POINTS,
    VIEW_SIZE,
    VISIT_BONUS,
    WARRIOR,
    WIND,
    WIND_HAND_LIMIT,
)
from fairysim.sim.fairyland.setup import FORCED_COLUMNS, FairyLandSetup
from fairysim.sim.policy import MAX_WEIGHTS
from fairysim.sim.rng import (
    DEAL_STREAM,
    FIRST_POLICY_STREAM,
    lay_out_counts,
    new_stream,
    randint,
    shuffle_prefix,
)
from fairysim.sim.search import rollout_stub

APPLAUSE_BY_TIED = {1: 3, 2: 2, 3: 1, 4: 0}
"""The King's applause for each seat tied at the highest hand value (L11)."""


# --- The table ------------------------------------------------------------------------------------


@dataclass
class Player:
    """One seat: its policy, its fairies, what it collected and its items."""

    seat: int
    policy: object
    weights: np.ndarray
    rng: np.ndarray
    hand: set[int] = field(default_factory=set)  # fairy types in hand
    played: set[int] = field(default_factory=set)  # fairy types face up in front of the seat
    collected: Counter = field(default_factory=Counter)  # forest cards in front, by type
    items: list[int] = field(default_factory=list)  # court items held (usable ones unused)
    used_items: list[int] = field(default_factory=list)
    crests: int = 0
    auctions_won: int = 0
    fairies_paid: int = 0  # fairy cards played (auctions, Queen, Druids)
    value_paid: int = 0  # the values they were played for
    queen_visits: int = 0
    druid_visits: int = 0
    crests_used: int = 0
    ogres_gained: int = 0  # ogres taken (resolved, or warded by Ogre Bane)
    last_turn: int = -1


@dataclass
class GameState:
    """The whole table of one game."""

    game: int
    n: int
    players: list[Player]
    cards: FairyLandCards
    court_items: Court
    forest: list[int]  # top = last element
    druids: list[int]  # top = last element
    court: list[int]  # item ids, top = last element
    clearings: list[Counter]
    start_seat: int
    in_game: list[int] = field(default_factory=list)  # the 9 court items of this game
    box: Counter = field(default_factory=Counter)  # discarded forest cards
    turn: int = 0
    active: int = 0
    dawn_cards: tuple[int, int] = (NO_CARD, NO_CARD)
    auction: tuple[int, int, int] = (NO_CLEARING, 0, NO_SEAT)  # clearing, high bid, bidder
    auctions: int = 0
    unbid_clearings: int = 0
    table: np.ndarray = field(
        default_factory=lambda: np.zeros((MAX_CHOICES, CHOICE_WIDTH), np.int64)
    )
    log: list | None = field(default=None, repr=False)  # event records for a replay, or None
    forced: tuple[int, int] | None = None  # card effects (PL10): what force_card returned
    standings: list | None = field(default=None, repr=False)  # PL11: scores after each round


def shuffled(rng: np.ndarray, items: list[int]) -> list[int]:
    """``items`` shuffled with the engines' Fisher-Yates."""
    array = np.array(items, dtype=np.int64)
    shuffle_prefix(rng, array, len(array))
    return [int(x) for x in array]


def setup_game(setup: FairyLandSetup, game: int) -> GameState:
    """Rulebook "Setup" (L2), in the order of draws of the module docstring."""
    deal_rng = new_stream(setup.seed, game, DEAL_STREAM)
    forest = shuffled(deal_rng, [int(t) for t in lay_out_counts(setup.cards.forest)])
    court_all = shuffled(deal_rng, list(range(setup.court.n_items)))
    court = court_all[-COURT_DECK_SIZE:]
    start_seat = int(randint(deal_rng, setup.players))
    if setup.removed_card:
        forest = remove_card_type(forest, setup.removed_card)
    players = []
    for seat in range(setup.players):
        policy = setup.policies[seat]
        weights = np.zeros(MAX_WEIGHTS, dtype=np.float64)
        weights[: len(policy.weights)] = policy.weights
        rng = new_stream(setup.seed, game, FIRST_POLICY_STREAM + seat)
        player = Player(seat, policy.function, weights, rng)
        player.hand = set(HOUSE_FAIRIES)  # 7 fairies in hand, the Crest(s) face up
        player.crests = setup.cards.crests_for(setup.players)
        players.append(player)
    druids = forest[-DRUID_DECK_SIZE:]
    del forest[-DRUID_DECK_SIZE:]
    clearings = [Counter() for _ in range(CLEARINGS)]
    for clearing in clearings:
        clearing[forest.pop()] += 1
    in_game = set(court)
    forced = None
    if setup.forced_card:
        forced = force_card(
            setup.forced_card, players[setup.forced_seat], forest, court, court_all, in_game
        )
    return GameState(
        game,
        setup.players,
        players,
        setup.cards,
        setup.court,
        forest,
        druids,
        court,
        clearings,
        start_seat,
        sorted(in_game),
        active=start_seat,
        forced=forced,
    )


# --- Card effects and removals (rulings PL10, PL12, not rules of play) ---------------------------


def remove_card_type(forest: list[int], card: int) -> list[int]:
    """Card removal (ruling PL12, not a rule of play): the shuffled forest without its cards of
    type ``card``, the others in their order (top last). No random number is drawn, so the
    forest deals the cards both decks share in the same order."""
    return [c for c in forest if c != card]


def take_forced_card(forest: list[int], card: int) -> bool:
    """Take the bottommost card of type ``card`` out of the forest deck ``forest`` (top last):
    the deck then gives out the same cards in the same order but that one. Nothing moves, and
    False is returned, where the deck holds no such card, or only that one card."""
    if len(forest) < 2 or card not in forest:
        return False
    forest.remove(card)  # the first one in the list: the bottommost
    return True


def force_court_item(court: list[int], court_all: list[int], item: int) -> tuple[bool, int | None]:
    """Take court item ``item`` for a seat before the game. Where the game's court deck
    ``court`` holds it, the first item the court shuffle left out (the one just below the deck
    in ``court_all``) takes its place; otherwise it comes from the box and the deck is as drawn.
    Returns ``(done, placed)``: False (nothing moved) where the deck holds it and no item was
    left out; ``placed`` the item put in its place, or None."""
    if item not in court:
        return True, None
    if len(court_all) <= COURT_DECK_SIZE:
        return False, None
    placed = court_all[-COURT_DECK_SIZE - 1]
    court[court.index(item)] = placed
    return True, placed


def force_card(
    card: int,
    player: Player,
    forest: list[int],
    court: list[int],
    court_all: list[int],
    in_game: set[int],
) -> tuple[int, int]:
    """A card-effect intervention (ruling PL10): ``player`` starts the game with ``card``, as if
    it had gained it before the first turn.

    A forest card type (no ogre) is taken out of the forest deck (:func:`take_forced_card`) and
    put in front of the seat, a special fairy in its hand; ``card = N_CARD_TYPES + i`` is court
    item ``i``, held face up from the first turn (:func:`force_court_item`; ``in_game``, the
    game's items, gains it and the item put in its place). No random number is drawn.

    Returns
    -------
    tuple of int
        ``(held, done)``: how many of ``card`` the seat held at setup without the intervention
        (always 0), and 1 if the card was put in its hands (0 if nothing moved).
    """
    if card < N_CARD_TYPES:
        if not take_forced_card(forest, card):
            return 0, 0
        if card in SPECIAL_FAIRIES:
            player.hand.add(card)
        else:
            player.collected[card] += 1
        return 0, 1
    item = card - N_CARD_TYPES
    done, placed = force_court_item(court, court_all, item)
    if not done:
        return 0, 0
    in_game.add(item)
    if placed is not None:
        in_game.add(placed)
    player.items.append(item)
    return 0, 1


# --- Asking a policy ------------------------------------------------------------------------------


def held_amount(state: GameState, player: Player, primitive: int) -> int:
    """The summed amounts of the items of ``primitive`` that ``player`` holds."""
    table = state.court_items.table
    return sum(
        int(table[i, IT_AMOUNT]) for i in player.items if table[i, IT_PRIMITIVE] == primitive
    )


def bid_bonus(state: GameState, player: Player) -> int:
    """Permanent bid bonus of ``player``'s items (L14; the Acorns stack, L18)."""
    return held_amount(state, player, BID_BONUS)


def visit_bonus(state: GameState, player: Player) -> int:
    """Permanent Queen/Druid bonus of ``player``'s items (once per visit, L18)."""
    return held_amount(state, player, VISIT_BONUS)


def has_ogre_ward(state: GameState, player: Player) -> bool:
    """True when ``player`` holds an item with the ogre ward (Ogre Bane)."""
    return any(state.court_items.table[i, IT_PRIMITIVE] == OGRE_WARD for i in player.items)


def bits(cards) -> int:
    """The bitmask of a set of fairy types."""
    return sum(1 << t for t in cards)


def seat_view(state: GameState, player: Player) -> np.ndarray:
    """What ``player`` may see (ruling PL2), laid out as rules.VIEW_FIELDS."""
    view = np.zeros(VIEW_SIZE, dtype=np.int64)
    view[V_PLAYERS] = state.n
    view[V_SEAT] = player.seat
    view[V_ACTIVE] = state.active
    view[V_START_SEAT] = state.start_seat
    view[V_TURN] = state.turn
    view[V_FOREST_LEFT] = len(state.forest)
    view[V_DRUIDS_LEFT] = len(state.druids)
    view[V_COURT_LEFT] = len(state.court)
    view[V_DAWN_CARDS : V_DAWN_CARDS + DAWN_DRAW] = state.dawn_cards
    view[V_AUCTION_CLEARING], view[V_HIGH_BID], view[V_HIGH_BIDDER] = state.auction
    for c, clearing in enumerate(state.clearings):
        for t, count in clearing.items():
            view[V_CLEARING + c * N_CARD_TYPES + t] = count
        view[V_CLEARING_SIZE + c] = clearing.total()
    view[V_ITEM_STATE : V_ITEM_STATE + MAX_COURT_ITEMS] = ITEM_UNSEEN
    for other in state.players:
        s = other.seat
        view[V_HAND + s] = bits(other.hand)
        view[V_PLAYED + s] = bits(other.played)
        for t, count in other.collected.items():
            view[V_COLLECTED + s * N_CARD_TYPES + t] = count
        view[V_CRESTS + s] = other.crests
        view[V_BID_BONUS + s] = bid_bonus(state, other)
        view[V_VISIT_BONUS + s] = visit_bonus(state, other)
        view[V_OGRE_WARD + s] = has_ogre_ward(state, other)
        view[V_ITEMS_HELD + s] = sum(1 << i for i in other.items)
        for i in other.items:
            view[V_ITEM_STATE + i] = s
        for i in other.used_items:
            view[V_ITEM_STATE + i] = ITEM_USED
    table = state.court_items.table
    for i in range(MAX_COURT_ITEMS):
        row = V_ITEM_TABLE + i * ITEM_FIELDS
        if i < len(table):
            view[row : row + ITEM_FIELDS] = table[i]
        else:
            view[row + IT_PRIMITIVE] = NO_PRIMITIVE
    view[V_FACE_VALUE : V_FACE_VALUE + N_FAIRY_TYPES] = state.cards.face_value
    view[V_MAJORITY : V_MAJORITY + N_ANIMALS] = state.cards.majority
    return view


def record(state: GameState, event: str, **fields: object) -> None:
    """Append the event record ``{"event": event, **fields}`` to ``state.log`` when recording
    (a replay); recording changes no draw and no decision."""
    if state.log is not None:
        state.log.append({"event": event, "turn": state.turn, **fields})


def ask(state: GameState, player: Player, decision: int, choices: list[tuple[int, ...]]) -> int:
    """Offer ``choices`` (distinct, in the rules' order) to ``player``'s policy; a single choice
    is taken unasked (ruling PL1). Returns the index of the answer."""
    answer = ask_policy(state, player, decision, choices)
    record(
        state,
        "decision",
        seat=player.seat,
        decision=DECISIONS[decision],
        choices=[tuple(int(x) for x in c) for c in choices],
        chosen=answer,
        asked=len(choices) > 1,
    )
    return answer


def ask_policy(state: GameState, player: Player, decision: int, choices: list[tuple[int, ...]]):
    """The policy's answer (index into ``choices``); a single choice is taken unasked (PL1)."""
    if len(choices) == 1:
        return 0
    table = state.table
    for i, choice in enumerate(choices):
        table[i] = 0
        table[i, : len(choice)] = choice
    view = seat_view(state, player)
    answer = int(player.policy(decision, view, table, len(choices), player.weights, player.rng))
    if not 0 <= answer < len(choices):
        raise IllegalChoiceError(state.game, player.seat, DECISIONS[decision], answer, len(choices))
    return answer


# --- Fairy values (L5, L7, L15, L18) --------------------------------------------------------------


def explore_value(state: GameState, fairy: int, clearing: Counter) -> int:
    """What ``fairy`` is worth when exploring ``clearing`` (read as auctioned)."""
    if fairy == EXPLORER:  # as many as the cards in the clearing
        return clearing.total()
    if fairy == FAUNA:  # 3 with at least 2 animals there
        return FAUNA_VALUE if sum(clearing[a] for a in ANIMALS) >= FAUNA_NEEDS else 1
    if fairy == FLORA:  # 4 with at least 2 flowers there
        return FLORA_VALUE if sum(clearing[f] for f in FLOWERS) >= FLORA_NEEDS else 1
    return int(state.cards.face_value[fairy])


def visit_value(state: GameState, fairy: int) -> int:
    """What ``fairy`` is worth for the Queen or the Druids (Herald 5)."""
    return HERALD_VALUE if fairy == HERALD else int(state.cards.face_value[fairy])


def hand_value(state: GameState, player: Player) -> int:
    """The fairies in hand at face value (specials 1): the King's applause and the tie-break."""
    return sum(int(state.cards.face_value[t]) for t in player.hand)


def subsets(cards: set[int]) -> list[int]:
    """Every subset of a set of fairy types, as bitmasks, ascending."""
    mask = bits(cards)
    return [m for m in range(mask + 1) if m & ~mask == 0]


def cards_of(mask: int) -> list[int]:
    """The fairy types in bitmask ``mask``."""
    return [t for t in range(N_FAIRY_TYPES) if (mask >> t) & 1]


def play_fairies(player: Player, mask: int, value: int) -> None:
    """Play the fairies of ``mask`` face up; the Wind comes back when the hand then holds 3 cards
    or fewer, the Wind not counted (L15, L18)."""
    played = cards_of(mask)
    player.hand -= set(played)
    player.played |= set(played)
    player.fairies_paid += len(played)
    player.value_paid += value
    if WIND in played and len(player.hand) <= WIND_HAND_LIMIT:
        player.played.discard(WIND)
        player.hand.add(WIND)


# --- Gaining cards (L6, L17) -------------------------------------------------------------------


def gain_card(state: GameState, player: Player, card: int) -> None:
    """A card gained by exploring, from the Druids, the Fairy Net or the Druid's Key: animals,
    flowers, goblins and the Lost Half go in front of the seat, a special fairy to its hand, an
    ogre is resolved at once (L17)."""
    if card == OGRE:
        resolve_ogre(state, player)
    elif card in SPECIAL_FAIRIES:
        player.hand.add(card)
    else:
        player.collected[card] += 1


def resolve_ogre(state: GameState, player: Player) -> None:
    """Rulebook "Ogres" (L6): discard the ogre and 2 of your animals/flowers, your choice; with
    only one, it goes; with none, nothing. Ogre Bane discards the ogre alone (L13)."""
    state.box[OGRE] += 1
    player.ogres_gained += 1
    if has_ogre_ward(state, player):
        return
    victims = [t for t in (*ANIMALS, *FLOWERS) if player.collected[t] > 0]
    held = sum(player.collected[t] for t in victims)
    if held == 0:
        return
    if held == 1:
        lost = victims
    else:
        pairs = [
            (a, b)
            for i, a in enumerate(victims)
            for b in victims[i:]
            if a != b or player.collected[a] >= 2
        ]
        lost = list(pairs[ask(state, player, OGRE_VICTIMS, pairs)])
    for t in lost:
        player.collected[t] -= 1
        state.box[t] += 1


def take_clearing(state: GameState, player: Player, cards: Counter) -> None:
    """Take every card of a clearing: the others are placed first, then each ogre is resolved in
    turn, so its victims may come from this clearing (L18)."""
    for card in sorted(cards):
        if card != OGRE:
            for _ in range(cards[card]):
                gain_card(state, player, card)
    for _ in range(cards[OGRE]):
        resolve_ogre(state, player)


def discard_cards(state: GameState, cards: Counter) -> None:
    """Cards to the box (out of the game)."""
    state.box.update(cards)


# --- Phase 1: Dawn (L3) ---------------------------------------------------------------------------


def evil_count(clearing: Counter) -> int:
    """The evil creatures (goblins and ogres) in a clearing."""
    return clearing[GOBLIN] + clearing[OGRE]


def fewest_evil(state: GameState, among: list[int]) -> list[int]:
    """The clearings of ``among`` holding the fewest evil creatures."""
    least = min(evil_count(state.clearings[c]) for c in among)
    return [c for c in among if evil_count(state.clearings[c]) == least]


def dawn_placements(state: GameState, first: int, second: int) -> list[tuple[int, int]]:
    """Legal (clearing of the first card, clearing of the second card) pairs (L3).

    An evil card goes to a clearing with the fewest evil cards; with two evil cards the second
    goes to the fewest-evil clearing of the other two. The two cards go to different clearings.
    """
    every = list(range(CLEARINGS))
    if second == NO_CARD:
        allowed = fewest_evil(state, every) if first in (GOBLIN, OGRE) else every
        return [(c, NO_CLEARING) for c in allowed]
    pairs = []
    for a in every:
        for b in every:
            if a == b:
                continue
            if first in (GOBLIN, OGRE) and a not in fewest_evil(state, every):
                continue
            if second in (GOBLIN, OGRE):
                among = [c for c in every if c != a] if first in (GOBLIN, OGRE) else every
                if b not in fewest_evil(state, among):
                    continue
            pairs.append((a, b))
    return pairs


def dawn(state: GameState, player: Player) -> None:
    """Draw the top 2 forest cards (1 if only 1 is left) and place them in 2 clearings."""
    first = state.forest.pop()
    second = state.forest.pop() if state.forest else NO_CARD
    state.dawn_cards = (first, second)
    record(state, "dawn", seat=player.seat, cards=(first, second))
    pairs = dawn_placements(state, first, second)
    a, b = pairs[ask(state, player, DAWN, pairs)]
    state.clearings[a][first] += 1
    if second != NO_CARD:
        state.clearings[b][second] += 1
    state.dawn_cards = (NO_CARD, NO_CARD)


# --- Phase 2: Day (L4, L16) -----------------------------------------------------------------------


def usable_item_legal(state: GameState, player: Player, item: int) -> bool:
    """L16: a usable item is legal only when its effect changes something."""
    primitive = state.court_items.table[item, IT_PRIMITIVE]
    if primitive in (NET, BROOM):
        return any(clearing.total() > 0 for clearing in state.clearings)
    if primitive == GOBLIN_TRAP:
        return player.collected[GOBLIN] > 0
    if primitive == HORN_OF_RECALL:
        return bool(player.played)
    if primitive == DRUIDS_KEY:
        return bool(state.druids)
    return False


def legal_actions(state: GameState, player: Player) -> list[tuple[int, int]]:
    """Explore clearing 0, 1, 2 (always), the Queen, the Druids, the Crest, each usable item."""
    actions = [(ACT_EXPLORE, c) for c in range(CLEARINGS)]
    if state.court and player.hand:
        actions.append((ACT_QUEEN, NO_ARG))
    if state.druids and player.hand:
        actions.append((ACT_DRUIDS, NO_ARG))
    if player.crests > 0 and player.played:
        actions.append((ACT_CREST, NO_ARG))
    table = state.court_items.table
    for item in sorted(player.items):
        if table[item, IT_PRIMITIVE] in USABLE_PRIMITIVES and usable_item_legal(
            state, player, item
        ):
            actions.append((ACT_ITEM, item))
    return actions


def day(state: GameState, player: Player) -> None:
    """Choose and take one action."""
    actions = legal_actions(state, player)
    action, arg = actions[ask(state, player, DAY, actions)]
    if action == ACT_EXPLORE:
        explore(state, player, arg)
    elif action == ACT_QUEEN:
        visit_queen(state, player)
    elif action == ACT_DRUIDS:
        visit_druids(state, player)
    elif action == ACT_CREST:
        use_crest(player)
    else:
        use_item(state, player, arg)


def explore(state: GameState, explorer: Player, c: int) -> None:
    """Explore clearing ``c``: an auction from the explorer's left, the explorer bidding last
    (L5, L14); the winner pays and takes the clearing; nobody bids: it is discarded."""
    clearing = state.clearings[c]
    if clearing.total() == 0:  # nobody may bid on an empty clearing (L16)
        return
    state.auctions += 1
    high_bid, winner = 0, None
    state.auction = (c, 0, NO_SEAT)
    for i in range(1, state.n + 1):
        bidder = state.players[(explorer.seat + i) % state.n]
        can_pay = sum(explore_value(state, t, clearing) for t in bidder.hand)
        can_pay += bid_bonus(state, bidder)
        bids = [PASS, *range(high_bid + 1, can_pay + 1)]
        bid = bids[ask(state, bidder, BID, [(b,) for b in bids])]
        if bid != PASS:
            high_bid, winner = bid, bidder
            state.auction = (c, high_bid, bidder.seat)
    if winner is None:
        record(state, "unbid", clearing=c)
        state.unbid_clearings += 1
        discard_cards(state, clearing)
        state.clearings[c] = Counter()
        state.auction = (NO_CLEARING, 0, NO_SEAT)
        return
    # The winner plays fairies worth at least the bid, the bonus counting (L14).
    bonus = bid_bonus(state, winner)
    payments = []
    for mask in subsets(winner.hand):
        value = sum(explore_value(state, t, clearing) for t in cards_of(mask))
        if value + bonus >= high_bid:
            payments.append((mask, value))
    mask, value = payments[ask(state, winner, PAYMENT, payments)]
    state.auction = (NO_CLEARING, 0, NO_SEAT)
    play_fairies(winner, mask, value)
    winner.auctions_won += 1
    taken = state.clearings[c]
    state.clearings[c] = Counter()
    record(
        state,
        "won",
        seat=winner.seat,
        clearing=c,
        bid=high_bid,
        cards=sorted(taken.elements()),
        warrior=bool((mask >> WARRIOR) & 1),
    )
    if (mask >> WARRIOR) & 1:  # the Warrior chases goblins and ogres away (L5, L15)
        discard_cards(state, Counter({GOBLIN: taken.pop(GOBLIN, 0), OGRE: taken.pop(OGRE, 0)}))
    take_clearing(state, winner, taken)


def visit(state: GameState, player: Player, deck: list[int], fairies: int, pick: int):
    """The Queen or the Druids (L7): play 1 or more fairies of value V, look at
    ``min(V + bonus - 1, deck)`` cards from the top, keep one; the others go to the bottom in the
    order seen. Returns the kept card (None when nothing was seen)."""
    bonus = visit_bonus(state, player)
    offers = []
    for mask in subsets(player.hand)[1:]:
        value = sum(visit_value(state, t) for t in cards_of(mask))
        offers.append((mask, value, min(value + bonus - 1, len(deck))))
    mask, value, look = offers[ask(state, player, fairies, offers)]
    play_fairies(player, mask, value)
    seen = [deck.pop() for _ in range(look)]
    if not seen:
        return None
    kinds = sorted(set(seen))
    kept = kinds[ask(state, player, pick, [(k,) for k in kinds])]
    seen.remove(kept)  # the first seen of its kind
    deck[:0] = reversed(seen)  # the first seen goes back nearest the top
    return kept


def visit_queen(state: GameState, player: Player) -> None:
    """Ask for an audience with the Queen: keep one item face up (L7, L13)."""
    player.queen_visits += 1
    item = visit(state, player, state.court, QUEEN_FAIRIES, QUEEN_PICK)
    if item is not None:
        player.items.append(item)


def visit_druids(state: GameState, player: Player) -> None:
    """Visit the Druids: keep one card, taken as if explored (L7, L17)."""
    player.druid_visits += 1
    card = visit(state, player, state.druids, DRUID_FAIRIES, DRUID_PICK)
    if card is not None:
        gain_card(state, player, card)


def use_crest(player: Player) -> None:
    """The Fairy Crest: every played fairy returns to the hand; the Crest leaves the game (L8)."""
    player.crests -= 1
    player.crests_used += 1
    player.hand |= player.played
    player.played = set()


def use_item(state: GameState, player: Player, item: int) -> None:
    """Use a usable item; it then leaves the game (L13, L18)."""
    player.items.remove(item)
    player.used_items.append(item)
    primitive = state.court_items.table[item, IT_PRIMITIVE]
    amount = int(state.court_items.table[item, IT_AMOUNT])
    if primitive == NET:  # take 1 card of your choice from any clearing, as if explored
        options = [
            (c, t)
            for c, clearing in enumerate(state.clearings)
            for t in sorted(clearing)
            if clearing[t] > 0
        ]
        c, card = options[ask(state, player, NET_TAKE, options)]
        state.clearings[c][card] -= 1
        if state.clearings[c][card] == 0:
            del state.clearings[c][card]
        gain_card(state, player, card)
    elif primitive == BROOM:  # discard all cards of one non-empty clearing
        options = [(c,) for c, clearing in enumerate(state.clearings) if clearing.total() > 0]
        (c,) = options[ask(state, player, BROOM_SWEEP, options)]
        discard_cards(state, state.clearings[c])
        state.clearings[c] = Counter()
    elif primitive == GOBLIN_TRAP:  # discard up to `amount` goblins held
        caught = min(amount, player.collected[GOBLIN])
        player.collected[GOBLIN] -= caught
        state.box[GOBLIN] += caught
    elif primitive == HORN_OF_RECALL:  # return 1 to `amount` played fairies to the hand
        options = [(m,) for m in subsets(player.played)[1:] if 1 <= len(cards_of(m)) <= amount]
        (mask,) = options[ask(state, player, HORN_RECALL, options)]
        for t in cards_of(mask):
            player.played.discard(t)
            player.hand.add(t)
    elif primitive == DRUIDS_KEY:  # the top Druid card, as a Druid card
        gain_card(state, player, state.druids.pop())


# --- Phase 3: Sunset (L9) -------------------------------------------------------------------------


def sunset(state: GameState) -> None:
    """Every clearing holding 6 cards or more is emptied into the box."""
    for c, clearing in enumerate(state.clearings):
        if clearing.total() >= OVERCROWDED:
            discard_cards(state, clearing)
            state.clearings[c] = Counter()


# --- Scoring (L11, L12, L13), half points ---------------------------------------------------------


def majority_points(state: GameState, animal: int) -> list[int]:
    """Each seat's half points for the majority of ``animal``."""
    counts = [p.collected[animal] for p in state.players]
    best = max(counts)
    points = int(state.cards.majority[ANIMALS.index(animal)])
    holders = [s for s, n in enumerate(counts) if n == best]
    out = [0] * state.n
    if best > 0 and len(holders) == 1:  # the most scores the points
        out[holders[0]] = HALF * points
    elif best > 0 and len(holders) == 2:  # two tied score half each
        for s in holders:
            out[s] = points
    return out  # three or more tied: nobody


def item_points(state: GameState, player: Player, item: int) -> int:
    """Whole points of an end-game item at the end (permanent and usable items score 0)."""
    row = state.court_items.table[item]
    primitive = row[IT_PRIMITIVE]
    if primitive == FLAT_POINTS:
        return int(row[IT_AMOUNT])
    if primitive == PENDANT_PAIR:  # with the Lost Half of the Royal Pendant
        return int(row[IT_AMOUNT]) if player.collected[LOST_HALF] > 0 else 0
    if primitive == POINTS_PER_CARD_TYPE:
        types = [t for t in range(N_CARD_TYPES) if (int(row[IT_CARDS]) >> t) & 1]
        at_least = int(row[IT_AT_LEAST])
        if at_least == 0:  # per card
            return int(row[IT_AMOUNT]) * sum(player.collected[t] for t in types)
        return int(row[IT_AMOUNT]) * sum(1 for t in types if player.collected[t] >= at_least)
    return 0


def final_scoring(state: GameState) -> list[dict[str, int]]:
    """Rulebook "Scoring", each part in half points."""
    parts = [dict.fromkeys(PART_NAMES, 0) for _ in state.players]
    for animal in ANIMALS:
        for s, points in enumerate(majority_points(state, animal)):
            parts[s][CARD_NAMES[animal]] = points
    goblins = [p.collected[GOBLIN] for p in state.players]
    most_goblins = max(goblins)
    hands = [hand_value(state, p) for p in state.players]
    best_hand = max(hands)
    for s, player in enumerate(state.players):
        got = player.collected
        if got[TURTLE] == TURTLE_BONUS_COUNT:
            parts[s]["turtle_bonus"] = HALF * TURTLE_BONUS
        parts[s]["flowers"] = HALF * sum(FLOWER_POINTS[got[f]] for f in FLOWERS)
        parts[s]["variety"] = HALF * VARIETY_POINTS[sum(got[f] > 0 for f in FLOWERS)]
        if most_goblins > 0 and goblins[s] == most_goblins:
            unique = goblins.count(most_goblins) == 1
            per_goblin = GOBLIN_UNIQUE_MOST if unique else GOBLIN_TIED_MOST
            parts[s]["goblins"] = -HALF * per_goblin * goblins[s]
        parts[s]["items"] = HALF * sum(item_points(state, player, i) for i in player.items)
        if hands[s] == best_hand:
            parts[s]["applause"] = HALF * APPLAUSE_BY_TIED[hands.count(best_hand)]
    return parts


def ranking(state: GameState, score: list[int]) -> list[int]:
    """Ranks 1..n: score, then fairy value in hand, then the seat whose last turn came latest
    (L12); the order is strict."""
    key = {p.seat: (score[p.seat], hand_value(state, p), p.last_turn) for p in state.players}
    order = sorted(key, key=key.get, reverse=True)
    return [order.index(s) + 1 for s in range(state.n)]


# --- A whole game ---------------------------------------------------------------------------------


def play_turn(state: GameState) -> None:
    """Dawn, Day and Sunset of the active seat."""
    player = state.players[state.active]
    player.last_turn = state.turn
    dawn(state, player)
    day(state, player)
    sunset(state)


def record_round(state: GameState) -> None:
    """Each seat's standing at the end of a round of turns (ruling PL11): the score the final
    scoring gives it if the game ended now, appended to ``state.standings`` when tracing and
    recorded in the log when there is one."""
    if state.log is None and state.standings is None:
        return
    scores = [sum(p.values()) for p in final_scoring(state)]
    if state.standings is not None:
        state.standings.append(scores)
    record(state, "round_end", scores=scores)


def play_game(
    setup: FairyLandSetup, game: int, log: list | None = None, trace: bool = False
) -> dict:
    """Play game ``game`` of ``setup``; ``log``, when given, receives the game's event records
    (the deal, each turn's Dawn cards and decisions with their choices, who wins each auction
    and what it takes, the clearings and collections after each turn, the scores after each
    round of turns, the final scoring), for :mod:`.narrate`. ``trace`` adds ``score_round``:
    each seat's standing after each round of turns (ruling PL11), the last the final score.

    Returns
    -------
    dict
        Per seat (lists of ``players``): ``score`` and ``parts`` (rows of rules.PART_NAMES), in
        half points; ``rank``, ``win_share``, ``turn_position`` (0 = the starting player),
        ``collected`` (forest cards by type in front of the seat, special fairies it owns
        counted at their type), ``hand``/``played`` (fairy bitmasks), ``hand_value``,
        ``items_held``/``items_used`` (item bitmasks), ``auctions_won``, ``fairies_paid``,
        ``value_paid``, ``queen_visits``, ``druid_visits``, ``crests_used``, ``ogres_gained``,
        ``last_turn``; with ``trace``, ``score_round`` (per seat, one standing per round, half
        points).
        Per game: ``start_seat``, ``turns``, ``auctions``, ``unbid_clearings``, ``court_items``
        (bitmask of the game's 9 items), and the conservation counts ``forest_left``,
        ``druids_left``, ``clearing_cards``, ``box``, ``forest_accounted`` (every forest card
        found somewhere), ``court_left``, ``court_accounted``; under a card-effect
        intervention (ruling PL10) also :data:`.setup.FORCED_COLUMNS`.
    """
    if any(p.function is rollout_stub for p in setup.policies):
        raise ParameterError(
            "policies",
            "rollout searches in the jitted engine only; the reference engine cannot play it",
        )
    state = setup_game(setup, game)
    state.log = log
    state.standings = [] if trace else None
    record(
        state,
        "deal",
        start=state.start_seat,
        court_items=list(state.in_game),
        clearings=[sorted(c.elements()) for c in state.clearings],
        crests=[p.crests for p in state.players],
        forest=len(state.forest),
    )
    while True:  # the game ends with the turn whose Dawn drew the last forest card (L10)
        record(state, "turn_start", seat=state.active)
        play_turn(state)
        record(
            state,
            "turn_end",
            seat=state.active,
            clearings=[sorted(c.elements()) for c in state.clearings],
            collected=[sorted(p.collected.elements()) for p in state.players],
        )
        state.turn += 1
        if not state.forest:
            break
        state.active = (state.active + 1) % state.n
        if state.active == state.start_seat:
            record_round(state)
    parts = final_scoring(state)
    score = [sum(p.values()) for p in parts]
    if state.standings is not None:  # the game's end ends its last round, whole or not
        state.standings.append(score)
    rank = ranking(state, score)
    record(
        state,
        "final",
        parts={name: [p[name] for p in parts] for name in PART_NAMES},
        score=score,
        rank=rank,
        win_share=[1.0 if r == 1 else 0.0 for r in rank],
        hand_value=[hand_value(state, p) for p in state.players],
        items=[list(p.items) for p in state.players],
    )
    collected = []
    for player in state.players:
        row = [player.collected[t] for t in range(N_CARD_TYPES)]
        for t in player.hand | player.played:
            if t >= FIRST_FOREST_TYPE:
                row[t] += 1
        collected.append(row)
    clearing_cards = sum(c.total() for c in state.clearings)
    accounted = (
        len(state.forest)
        + len(state.druids)
        + clearing_cards
        + state.box.total()
        + sum(sum(row) for row in collected)
    )
    items_held = [sum(1 << i for i in p.items) for p in state.players]
    items_used = [sum(1 << i for i in p.used_items) for p in state.players]
    extra = {}
    if state.forced is not None:
        extra.update(zip(FORCED_COLUMNS, state.forced, strict=True))
    if state.standings is not None:
        extra["score_round"] = [list(seat) for seat in zip(*state.standings, strict=True)]
    return {
        **extra,
        "score": score,
        "parts": [[p[name] for name in PART_NAMES] for p in parts],
        "rank": rank,
        "win_share": [1.0 if r == 1 else 0.0 for r in rank],
        "turn_position": [(p.seat - state.start_seat) % state.n for p in state.players],
        "collected": collected,
        "hand": [bits(p.hand) for p in state.players],
        "played": [bits(p.played) for p in state.players],
        "hand_value": [hand_value(state, p) for p in state.players],
        "items_held": items_held,
        "items_used": items_used,
        "auctions_won": [p.auctions_won for p in state.players],
        "fairies_paid": [p.fairies_paid for p in state.players],
        "value_paid": [p.value_paid for p in state.players],
        "queen_visits": [p.queen_visits for p in state.players],
        "druid_visits": [p.druid_visits for p in state.players],
        "crests_used": [p.crests_used for p in state.players],
        "ogres_gained": [p.ogres_gained for p in state.players],
        "last_turn": [p.last_turn for p in state.players],
        "start_seat": state.start_seat,
        "turns": state.turn,
        "auctions": state.auctions,
        "unbid_clearings": state.unbid_clearings,
        "court_items": sum(1 << i for i in state.in_game),
        "forest_left": len(state.forest),
        "druids_left": len(state.druids),
        "clearing_cards": clearing_cards,
        "box": state.box.total(),
        "forest_accounted": accounted,
        "court_left": len(state.court),
        "court_accounted": len(state.court)
        + sum(
            bin(h).count("1") + bin(u).count("1")
            for h, u in zip(items_held, items_used, strict=True)
        ),
    }


def play_games(
    setup: FairyLandSetup, games: int, first_game: int = 0, trace: bool = False
) -> list[dict]:
    """Play ``games`` games from ``first_game`` with the reference engine; ``trace`` as in
    :func:`play_game`."""
    assert setup.players <= MAX_SEATS
    return [play_game(setup, g, trace=trace) for g in range(first_game, first_game + games)]
