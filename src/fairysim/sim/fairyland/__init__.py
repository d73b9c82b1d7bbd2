"""Fairy Land: explore the forest's clearings in open auctions and collect sets (2-4 players).

>>> from fairysim.sim.fairyland import load_cards, load_court
>>> load_court("starred").label
'court.toml, starred (PROVISIONAL court, ruling L13)'
"""
