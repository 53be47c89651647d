"""1867 (Grand Trunk Games), as 18xx.games plays it: the title's rules hooks (rules.py) and its own rounds: the
private auction one at a time (auction.py), stock rounds where minors are auctioned (stock.py). Rules:
docs/rules/1867.md.
"""
