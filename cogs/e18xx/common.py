"""What every part of the 18xx cog shares: Discord's limits, the words for steps and menu kinds (English
templates, said in the reader's language with bot.i18n.tr), and which engines are 18xx titles."""
from __future__ import annotations

import engines
from engines.base import Engine
from engines.text import N_

PER_MENU = 25  # Discord: options in a select menu
ROWS = 5  # Discord: rows in a message
PER_ROW = 5  # Discord: buttons in a row
FEW = 10  # up to this many moves, every move is a button
LABEL = 80  # Discord: a button's label (a menu option may have 100)
MAX_CODE = 72  # longest JSON carried in a custom id (100 in all with the prefix, table id and token)
TOKEN = r"[0-9a-f]{10}"
LATELY = 6  # events shown on the table message

#: What a corporation's step asks (said with tr(lang, word)).
STEP_WORDS = {"track": N_("lay track"), "token": N_("place a token"), "routes": N_("run trains"),
              "dividend": N_("pay out or withhold"), "trains": N_("buy trains"),
              "companies": N_("buy a private company"), "redeem": N_("redeem a share"),
              "companies_preloan": N_("buy a private company"), "loans": N_("pay interest")}
GROUPS = {  # menu kinds: key -> what its menu asks (said with tr(lang, word))
    "bid": N_("Bid for a private company"), "minor": N_("Bid for a minor"), "par": N_("Start a corporation (par)"),
    "buy": N_("Buy a share"),
    "exchange": N_("Exchange a private for a share"), "sell": N_("Sell shares"), "lay": N_("Lay a tile"),
    "token": N_("Place a token"), "train": N_("Buy a train"), "private": N_("Buy a private company"),
    "discard": N_("Discard a train"), "merge": N_("Merge (merger round)"), "remove": N_("Remove a token"),
}
KIND_GROUP = {"bid": "bid", "par": "par", "sell_shares": "sell", "lay_tile": "lay", "place_token": "token",
              "buy_train": "train", "buy_company": "private", "discard_train": "discard", "merge": "merge",
              "remove_token": "remove", "merge_system": "merge", "form_system": "merge"}  # 1807: systems


def e18xx_engines() -> list[Engine]:
    """Every 18xx title the bot knows: engines whose class lives in the engines.e18xx package."""
    return [e for e in engines.ENGINES.values() if type(e).__module__.startswith("engines.e18xx.")]


def is_18xx(name: str) -> bool:
    return name in {e.name for e in e18xx_engines()}


