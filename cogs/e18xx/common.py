"""What every part of the 18xx cog shares: Discord's limits, the words for steps and menu kinds, and which
engines are 18xx titles."""
from __future__ import annotations

import engines
from engines.base import Engine

PER_MENU = 25  # Discord: options in a select menu
ROWS = 5  # Discord: rows in a message
PER_ROW = 5  # Discord: buttons in a row
FEW = 10  # up to this many moves, every move is a button
LABEL = 80  # Discord: a button's label (a menu option may have 100)
MAX_CODE = 72  # longest JSON carried in a custom id (100 in all with the prefix, table id and token)
TOKEN = r"[0-9a-f]{10}"
LATELY = 6  # events shown on the table message

STEP_WORDS = {"track": "lay track", "token": "place a token", "routes": "run trains", "dividend": "pay out or withhold",
              "trains": "buy trains", "companies": "buy a private company", "redeem": "redeem a share",
              "companies_preloan": "buy a private company", "loans": "pay interest"}
GROUPS = {  # menu kinds: key -> what its menu asks
    "bid": "Bid for a private company", "par": "Start a corporation (par)", "buy": "Buy a share",
    "exchange": "Exchange a private for a share", "sell": "Sell shares", "lay": "Lay a tile",
    "token": "Place a token", "train": "Buy a train", "private": "Buy a private company",
    "discard": "Discard a train", "merge": "Merge (merger round)", "remove": "Remove a token",
}
KIND_GROUP = {"bid": "bid", "par": "par", "sell_shares": "sell", "lay_tile": "lay", "place_token": "token",
              "buy_train": "train", "buy_company": "private", "discard_train": "discard", "merge": "merge",
              "remove_token": "remove"}


def e18xx_engines() -> list[Engine]:
    """Every 18xx title the bot knows: engines whose class lives in the engines.e18xx package."""
    return [e for e in engines.ENGINES.values() if type(e).__module__.startswith("engines.e18xx.")]


def is_18xx(name: str) -> bool:
    return name in {e.name for e in e18xx_engines()}


