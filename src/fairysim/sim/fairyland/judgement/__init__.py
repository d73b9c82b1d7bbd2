"""How Fairy Land's judging built-in policies judge the game (value-bidder, majority-hunter,
flower-gardener, courtier, in :mod:`..policies`): policy internals, not the game's rules, which
are :mod:`..rules` and :mod:`..engine`.

- :mod:`.valuation`: what cards, clearings, fairies and items are worth to a seat, by its style;
- :mod:`.bidding`: an auction, a payment or a visit as they judge it: what each seat can pay,
  what a rival is expected to bid, what to bid, the cheapest fairies to pay with;
- :mod:`.style_play`: every decision answered from a style, the play the four share.

Each reads one seat's view only (ruling PL2). The engine's shortcuts (:mod:`..shortcuts`)
call them to answer as the policies would.
"""
