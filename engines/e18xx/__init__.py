"""18xx engine core: titles as data, the stock market, shares, the board, routes and recorded-game import."""
