"""The private companies' tile lays: Mitsubishi Ferry's port (its owner, in a stock round, in the track step of
a corporation he presides, or between two corporations' turns in an operating round) and Ehime Railway's green
tile on Ohzu right after a corporation buys it."""
from __future__ import annotations

from engines.base import Action, RuleError
from engines.e18xx import lays, trains
from engines.e18xx.board import Lay, lay_problem
from engines.e18xx.state import BANK, G


def mf_pending(g: G, cid: str) -> bool:
    """18xx.games keeps the track step open while the president may still use his Mitsubishi Ferry."""
    president = g.key(g.president(cid))
    return any(g.s["privates"][pid]["owner"] == president and port_hexes(g, pid) for pid in unused_layers(g, "player"))


def unused_layers(g: G, used_by: str) -> list[str]:
    return [pid for pid, p in g.s["privates"].items()
            if (a := g.ability(pid, "lay_tile")) and a["used_by"] == used_by and not p["used"]]


def port_hexes(g: G, pid: str) -> list[str]:
    ability = g.ability(pid, "lay_tile")
    supply = g.board.supply(g.optional_rules)
    if not any(supply.get(t, 0) > 0 for t in ability["tiles"]):
        return []
    return [h for h in ability["hexes"] if h not in g.board.laid]


def lay_timing_ok(g: G, seat: int, in_track_of: str | None) -> bool:
    """Mitsubishi Ferry's moments: any time in a stock round (`in_track_of` None); in an operating round
    (`in_track_of` the operating corporation) at the track step of a corporation its owner presides, or while the
    operating corporation has not moved yet ("between turns", whoever presides it): "outside the turns of
    corporations other players control", as 18xx.games times it ("owning_player_track", "or_between_turns"). A
    replay takes any moment of a stock or operating round, as 18xx.games does while loading a game."""
    if in_track_of is None:
        return g.round["kind"] == "stock"
    return g.trusted or (g.president(in_track_of) == seat and g.round["step"] == "track") or between_turns(g)


def between_turns(g: G) -> bool:
    """An operating round whose operating corporation has not moved yet this turn (18xx.games's
    "or_between_turns"), with no discard or Ehime Railway lay pending."""
    r = g.round
    return (r["kind"] == "operating" and r["index"] < len(r["order"]) and not r.get("acted")
            and not r["special"] and not trains.crowded(g))


def lay_with_private(g: G, seat: int, action: Action, in_track_of: str | None) -> None:
    """Mitsubishi Ferry's port tile: its owner, at one of the moments of `lay_timing_ok`."""
    pid = action.get("entity")
    p = g.s["privates"].get(pid)
    ability = g.ability(pid, "lay_tile") if p else None
    if ability is None or ability["used_by"] != "player" or p["used"]:
        raise RuleError("That private company has no tile to lay now.")
    if p["owner"] != g.key(seat):
        raise RuleError("You do not own {private}.", private=g.private_name(pid))
    if not lay_timing_ok(g, seat, in_track_of):
        raise RuleError("{private} lays its tile in a stock round, at the track step of a corporation you preside, "
                        "or before the operating corporation has moved.", private=g.private_name(pid))
    coord, tile, rotation = lays.read_lay(action)
    if coord not in ability["hexes"] or tile not in ability["tiles"]:
        raise RuleError("{private} lays tile {tiles} on {hexes}.", private=g.private_name(pid),
                        tiles=", ".join(ability["tiles"]), hexes=", ".join(ability["hexes"]))
    if ability.get("only_on_empty_hex") and coord in g.board.laid:
        raise RuleError("{where} already has a tile.", where=g.place(coord))
    if g.trusted:
        lays.check_upgrade(g, coord, tile)
    else:
        problem = lay_problem(g.board, Lay(coord, tile, rotation), g.colours, None, ability_tiles=ability["tiles"],
                              optional_rules=g.optional_rules)
        if problem:
            raise RuleError(problem)
    g.set_board(g.board.lay_tile(coord, tile, rotation))
    p["used"] = True
    g.event("[0] uses {private} to lay tile {tile} on {where}.", seat, private=g.private_name(pid), tile=tile,
            where=g.place(coord))


def special_step(g: G, seat: int, action: Action) -> None:
    """Ehime Railway: right after a corporation buys it, its seller may lay a green tile on Ohzu (C4)."""
    special = g.round["special"]
    pid = special["company"]
    if seat != special["seat"]:
        raise RuleError("Its seller decides first whether {private} lays its tile.", private=g.private_name(pid))
    p = g.s["privates"][pid]
    if action["type"] == "pass":
        g.event("{private} lays no tile.", private=g.private_name(pid))
    elif action["type"] == "lay_tile":
        ability = g.ability(pid, "lay_tile")
        coord, tile, rotation = lays.read_lay(action)
        if coord not in ability["hexes"] or tile not in ability["tiles"]:
            raise RuleError("{private} lays one of tiles {tiles} on {hexes}.", private=g.private_name(pid),
                            tiles=", ".join(ability["tiles"]), hexes=", ".join(ability["hexes"]))
        if g.trusted:
            lays.check_upgrade(g, coord, tile, special=True)
        else:
            problem = lay_problem(g.board, Lay(coord, tile, rotation), g.colours, None, special=True,
                                  ability_tiles=ability["tiles"], optional_rules=g.optional_rules)
            if problem:
                raise RuleError(problem)
        cost = g.board.lay_cost(coord, tile, rotation)
        g.pay(g.key(seat), BANK, cost)
        g.set_board(g.board.lay_tile(coord, tile, rotation))
        g.event("{private} lays tile {tile} on {where}.", private=g.private_name(pid), tile=tile, where=g.place(coord))
    else:
        raise RuleError("Lay {private}'s tile or pass.", private=g.private_name(pid))
    p["used"] = True
    g.round["special"] = None


def private_lays(g: G, seat: int) -> list[Action]:
    """Mitsubishi Ferry's lays open to its owner now."""
    moves = []
    for pid in unused_layers(g, "player"):
        if g.s["privates"][pid]["owner"] != g.key(seat):
            continue
        ability = g.ability(pid, "lay_tile")
        for coord in port_hexes(g, pid):
            for tile in ability["tiles"]:
                for rotation in range(6):
                    if lay_problem(g.board, Lay(coord, tile, rotation), g.colours, None,
                                   ability_tiles=ability["tiles"], optional_rules=g.optional_rules) is None:
                        moves.append({"type": "lay_tile", "entity": pid, "entity_type": "company", "hex": coord,
                                      "tile": tile, "rotation": rotation})
    return moves


def special_lays(g: G) -> list[Action]:
    pid = g.round["special"]["company"]
    ability = g.ability(pid, "lay_tile")
    moves = []
    for coord in ability["hexes"]:
        for tile in ability["tiles"]:
            for rotation in range(6):
                if lay_problem(g.board, Lay(coord, tile, rotation), g.colours, None, special=True,
                               ability_tiles=ability["tiles"], optional_rules=g.optional_rules) is None:
                    moves.append({"type": "lay_tile", "entity": pid, "entity_type": "company", "hex": coord,
                                  "tile": tile, "rotation": rotation})
    return moves
