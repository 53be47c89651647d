"""18xx in Discord, one cog for every 18xx title (today Shikoku 1889): the table in words, the narration of
every action, the map, market and charter pictures, the move panel and the ``/18xx`` commands.

Nothing is secret in an 18xx game, so a player's "hand" is a summary, what they must do now, and the panel.
The president of a corporation acts for it: the engine awaits the president's seat, and every message says
"as president of AR".

The panel's buttons and menus carry the move itself as compact JSON, or, when the JSON is too long for a
custom id (a route, a private's tile lay), ``#<index>`` into ``engine.legal`` of the same state. Either way the
custom id also holds a *step token*, a short hash of the whole state: a panel from any earlier state is
refused with a sentence only the clicker sees, so an old "Pass" can never be read in a later step, and an
index always means the move it was shown as. Many moves are grouped in menus by kind (bids, pars, shares,
lays, trains …); more than 25 tile lays become a menu of hexes that answers with the lays on the chosen hex;
when the groups do not fit Discord's five rows, one menu asks for the kind first.

``/18xx`` builds the same actions by name (bid, par, buy, sell, lay, token, run, dividend, buytrain,
buyprivate, offer, merge, convert, pass; 1807's system, consent and oddshares), with autocomplete from
``engine.legal`` for the user's seat, shows the pictures (map, market, charters) to the one who asks, and
``/18xx undo`` is ``/game undo``."""
from __future__ import annotations

from cogs.e18xx.commands import setup
from cogs.e18xx.panel import DYNAMIC_ITEMS

# The extension as bot/app.py loads it: discord.py calls its setup, and its panel's items are registered.
# The parts: common (Discord's limits, which engines are 18xx), words (the table in words), presenter (table
# message, narration, pictures: pictures.py draws them), panel (the move panel's buttons and menus) and commands
# (/18xx). Routes typed by their stops are read by engines/e18xx/route_text.py.
__all__ = ["DYNAMIC_ITEMS", "setup"]
