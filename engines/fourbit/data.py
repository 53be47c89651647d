"""4bit Town's printed components, from the seed rules (docs/rules/fourbit.md explains them).

Effects are small dicts the engine interprets, so the numbers stay here in one place."""
from __future__ import annotations

from engines.text import N_, Name

RESOURCES = ("wood", "stone", "coins")
CAP = 68  # wood, stone and coins each (ruling: VP is not capped)
ROUNDS = 6
WORKERS = 7
START_HIRED = 3
START_LEVEL = 3
MAX_LEVEL = 7
HIRE_COST = 4
LEVEL_UP_COST = {"wood": 4, "stone": 4, "coins": 4}
ACTION_COINS = 6  # after plan, cancel plan and turn-order +1
FOLLOWER_COST = 2
CITY_HALL = 16  # the worker's place when its location was blocked
CITY_HALL_STEP_COST = 4
BUILD_ROW = 4
TRACK_VP = {1: 0, 2: 0, 3: 0, 4: 1, 5: 2, 6: 3, 7: 5, 8: 7, 9: 9, 10: 12, 11: 15, 12: 18}


def track_vp(space: int) -> int:
    return TRACK_VP[space] if space <= 12 else 18 + 3 * (space - 12)


LOCATIONS = (
    ("職人広場", "Artisans' Square", N_("wood +12")),
    ("市場門", "Market Gate", N_("stone +12")),
    ("設計局前", "Design Bureau", N_("2 wood → 4 coins, up to round × 2 times")),
    ("静かな倉庫街", "Quiet Warehouses", N_("2 stone → 4 coins, up to round × 2 times")),
    ("石切坂", "Stonecutters' Slope", N_("coins +12")),
    ("露店通り", "Stall Street", N_("VP +2")),
    ("ギルド交差点", "Guild Crossing", N_("company level +1 (4 wood, 4 stone, 4 coins)")),
    ("裏工房", "Back Workshop", N_("hire a worker (4 coins)")),
    ("行政地区", "Administrative District", N_("build a building")),
    ("議事堂前", "Assembly Hall", N_("plan a building, then coins +6")),
    ("商人橋", "Merchants' Bridge", N_("sell a building")),
    ("聖堂前", "Cathedral", N_("turn order +1, then coins +6")),
    ("工事現場", "Construction Site", N_("cancel a plan, then coins +6")),
    ("密談路地", "Whisper Alley", N_("2 coins → 4 wood, up to round × 2 times")),
    ("裏ギルド", "Back Guild", N_("2 coins → 4 stone, up to round × 2 times")),
    ("裏路地酒場", "Back-Alley Tavern", N_("wood +6 and stone +6")),
)
CONVERSIONS = {2: ("wood", "coins"), 3: ("stone", "coins"), 13: ("coins", "wood"), 14: ("coins", "stone")}


def g(**k):
    return {"kind": "gain", "gain": k}


def cv(pay, gain):
    return {"kind": "convert", "pay": pay, "gain": gain}


# card number -> (0-side effect, 1-side effect)
CARDS = {
    1: (g(wood=2), cv({"wood": 4}, {"coins": 4})),
    2: (g(stone=2), cv({"stone": 4}, {"coins": 4})),
    3: (cv({"coins": 4}, {"wood": 4}), g(coins=2)),
    4: (cv({"coins": 4}, {"stone": 4}), g(coins=2)),
    5: (cv({"wood": 6}, {"vp": 1}), cv({"vp": 1}, {"wood": 4})),
    6: (cv({"stone": 6}, {"vp": 1}), cv({"vp": 1}, {"stone": 4})),
    7: (cv({"coins": 6}, {"vp": 1}), cv({"vp": 1}, {"coins": 4})),
    8: ({"kind": "build_discount", "res": "wood"}, {"kind": "build_discount", "res": "stone"}),
    9: ({"kind": "if", "flag": "plan", "gain": {"wood": 2}}, {"kind": "if", "flag": "plan", "gain": {"stone": 2}}),
    10: ({"kind": "if", "flag": "sell", "gain": {"coins": 4}}, {"kind": "if", "flag": "build", "gain": {"coins": 4}}),
    11: ({"kind": "hire_discount"}, {"kind": "extra_hire"}),
    12: ({"kind": "if", "flag": "loc_wood", "gain": {"stone": 2}},
         {"kind": "if", "flag": "loc_stone", "gain": {"wood": 2}}),
    13: (cv({"coins": 4}, {"wood": 2, "stone": 2}), cv({"wood": 2, "stone": 2}, {"coins": 4})),
    14: ({"kind": "if", "flag": "track", "step": 1}, {"kind": "if", "flag": "track", "gain": {"coins": 4}}),
    15: ({"kind": "if", "flag": "city_hall", "gain": {"wood": 2}},
         {"kind": "if", "flag": "city_hall", "gain": {"stone": 2}}),
    16: (cv({"wood": 4, "stone": 2}, {"vp": 1}), cv({"vp": 1}, {"wood": 2, "stone": 2})),
}

# Building number -> name, English name, cost, instant VP, sale value (coins), effect in words.
BUILDINGS = {
    1: ("木工所", "Woodworks", {"wood": 10}, 2, 14, N_("+2 wood when your worker takes wood at Artisans' Square")),
    2: ("採石場", "Quarry", {"stone": 10}, 2, 14, N_("+2 stone when your worker takes stone at Market Gate")),
    3: ("市場", "Market", {"wood": 2, "stone": 6, "coins": 6}, 3, 16,
        N_("each round end: up to one per building you own, trade 2 wood or 2 stone for 2 coins")),
    4: ("宿屋", "Inn", {"wood": 10, "coins": 6}, 3, 16, N_("end of rounds 1-5: +2 coins per 2 hired workers")),
    5: ("役所増築", "Town Hall Annex", {"stone": 8, "coins": 6}, 1, 18,
        N_("+1 VP when your worker moves up at the Cathedral")),
    6: ("広場整備", "Plaza Works", {"wood": 6, "stone": 16, "coins": 6}, 1, 40, N_("game end: +1 VP per hired worker")),
    7: ("高層ビル", "High-Rise", {"stone": 20, "coins": 20}, 6, 50, N_("game end: +1 VP per building you own")),
    8: ("ギルドホール", "Guild Hall", {"wood": 8, "stone": 4, "coins": 6}, 4, 18, N_("every hire costs 2 coins less")),
    9: ("商館", "Trading House", {"wood": 4, "coins": 4}, 1, 8,
        N_("+2 coins when your worker converts at the Design Bureau or Quiet Warehouses")),
    10: ("設計事務所", "Design Office", {"wood": 6, "coins": 4}, 2, 14, N_("+2 coins whenever you plan")),
    11: ("職人街", "Artisans' Quarter", {"wood": 4, "stone": 2, "coins": 4}, 2, 12,
         N_("+2 wood or +2 stone whenever you build")),
    12: ("倉庫", "Warehouse", {"wood": 4, "stone": 10, "coins": 4}, 0, 12,
         N_("+2 wood or stone at the Tavern; game end: +1 VP per set of 2 wood, 2 stone, 2 coins")),
    13: ("学院", "Academy", {"wood": 2, "stone": 6, "coins": 4}, 0, 14, N_("game end: VP = your buildings + 1")),
    14: ("礼拝堂", "Chapel", {"wood": 4, "stone": 14, "coins": 4}, 0, 28,
         N_("game end: 6 coins → 1 VP, as often as you can")),
    15: ("住宅街", "Residences", {"wood": 4, "stone": 2, "coins": 4}, 0, 22,
         N_("round start: +2 coins unless first in turn order; game end: +1 VP per 2 hired workers")),
    16: ("市壁", "City Wall", {"wood": 2, "stone": 8, "coins": 4}, 1, 18,
         N_("game end: +3 VP if you own 3+ buildings")),
    17: ("造幣局", "Mint", {"wood": 6, "stone": 2, "coins": 8}, 3, 18,
         N_("each round end: +2 coins per building you own")),
    18: ("広告塔", "Advertising Tower", {"wood": 2, "stone": 4, "coins": 6}, 3, 14,
         N_("+1 VP when your worker gains VP from a location")),
}
WOODWORKS, QUARRY, MARKET, INN, ANNEX, PLAZA, HIGHRISE, GUILD_HALL, TRADING, DESIGN_OFFICE, ARTISANS, \
    WAREHOUSE, ACADEMY, CHAPEL, RESIDENCES, CITY_WALL, MINT, AD_TOWER = range(1, 19)

#: The names the game says, in both languages: the title, each location (by number), City Hall, each building.
TITLE = Name("4bit Town", "4bitタウン")
PLACES = tuple(Name(en, ja) for ja, en, _ in LOCATIONS)
CITY_HALL_NAME = Name("City Hall", "市役所マス")
BUILDING_NAMES = {b: Name(v[1], v[0]) for b, v in BUILDINGS.items()}
