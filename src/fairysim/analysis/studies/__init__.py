"""Studies: what a report or a user measures by playing games (one setup simulated, balance, card
effects, table cards, ladder, best-heuristic check, what-if)."""
