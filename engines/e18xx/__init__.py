"""18xx engine core: titles as data, the stock market, shares, the board, routes, the rounds of play (1889 in
game.py) and the replay of games recorded on 18xx.games (importer.py reads them, replay.py plays them)."""
