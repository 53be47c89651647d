"""1867's title data (engines/e18xx/titles/g1867/companies.json), read as plain JSON (the loader may not read
its new fields yet): first its own consistency, then a cross-check against the text of the 18xx.games engine
(game/g_1867/game.rb and entities.rb under ../shared/tools/ref18xx), skipped when that copy is absent."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engines.e18xx.market import Market

DATA = json.loads(
    (Path(__file__).resolve().parents[1] / "engines/e18xx/titles/g1867/companies.json").read_text(encoding="utf-8")
)
REF = Path(__file__).resolve().parents[2] / "shared" / "tools" / "ref18xx" / "lib" / "engine" / "game" / "g_1867"
needs_ref = pytest.mark.skipif(
    not (REF / "game.rb").exists(),
    reason=f"the 18xx.games reference engine is not beside the repo ({REF} missing): nothing to cross-check",
)

CORPS = {c["id"]: c for c in DATA["corporations"]}
TRAINS = {t["name"]: t for t in DATA["trains"]}
PRICES = DATA["market"]["rows"][0]


def by_kind(kind: str) -> list[str]:
    return [c["id"] for c in DATA["corporations"] if c["kind"] == kind]


# -- the file on its own -----------------------------------------------------------------------------------


def test_kinds_and_certificates():
    assert len(by_kind("major")) == 8 and len(by_kind("minor")) == 16 and by_kind("national") == ["CN"]
    assert len(CORPS) == len(DATA["corporations"])  # ids unique
    for cid in by_kind("major"):
        c = CORPS[cid]
        assert c["shares"] == [20] + [10] * 8 and c["tokens"] == [0, 20, 40]
        assert (c["float_percent"], c["holding_limit_percent"]) == (20, 60)
    for cid in by_kind("minor"):
        c = CORPS[cid]
        assert c["shares"] == [100] and c["tokens"] == [0]
        assert (c["float_percent"], c["holding_limit_percent"]) == (100, 100)
    assert sorted(c for c in CORPS if CORPS[c].get("green")) == ["BBG", "LPS", "QLS", "SLA", "TGB", "THB"]
    assert all(CORPS[c]["kind"] == "minor" for c in CORPS if CORPS[c].get("green"))
    assert CORPS["CN"]["tokens"] == [0] * 8


def test_market_is_one_row_rising_and_its_cell_kinds_agree_with_the_loader_fields():
    market = DATA["market"]
    assert len(market["rows"]) == 1 and PRICES == sorted(PRICES) and len(set(PRICES)) == len(PRICES)
    kinds = {k: [c for _, c in cells] for k, cells in market["cell_kinds"].items()}
    price = {k: [PRICES[c] for c in cols] for k, cols in kinds.items()}
    assert price == {
        "par_minor": [50, 55, 60, 65],
        "par": [70, 80, 90, 100, 110, 120, 135],
        "par_major": [150, 165, 180, 200],
        "convert": [100, 110, 120, 135, 150, 165],
        "minor_max": [165],
    }
    # the same facts in the shape engines/e18xx/market.py reads today
    assert market["par_kinds"] == {"minor": {"0": kinds["par_minor"] + kinds["par"]},
                                   "major": {"0": kinds["par"] + kinds["par_major"]}}
    assert market["cell_types"] == {"convert_range": {"0": kinds["convert"]}, "max_price": {"0": kinds["minor_max"]}}
    m = Market.from_data(market)
    assert m.one_d
    assert sorted(c.price for c in m.par_cells_for("minor")) == price["par_minor"] + price["par"]
    assert sorted(c.price for c in m.par_cells_for("major")) == price["par"] + price["par_major"]
    assert max(c.price for c in m.par_cells_for("minor")) == DATA["rules"]["minor_par_max"]


def test_trains_and_phases_hang_together():
    names = [t["name"] for t in DATA["trains"]]
    for t in DATA["trains"]:
        assert isinstance(t["distance"], list) and len(t["distance"]) == 2
        paying = [d for d in t["distance"] if d["pay"] > 0]
        assert len(paying) == 1 and paying[0]["pay"] == paying[0]["visit"]
        assert set(t.get("trade_in", {})) <= set(names)
        assert t["rusts_on"] is None or t["rusts_on"] in names
        assert isinstance(t["removed_with_2_players"], int)
    assert [n for n in names if TRAINS[n].get("multiplier")] == ["2+2", "5+5E"]
    kinds = {c["kind"] for c in DATA["corporations"]}
    for p in DATA["phases"]:
        assert set(p["train_limit"]) <= kinds
        assert p["corporations_buy_privates"] == ("can_buy_companies" in p["status"])
        assert p["on_train"] is None or p["on_train"] in names
        assert p["merger_rounds"] == (3 <= int(p["name"]) <= 7)
    phase_names = [p["name"] for p in DATA["phases"]]
    assert all(TRAINS[n]["available_in_phase"] in phase_names for n in names if "available_in_phase" in TRAINS[n])


def test_privates():
    privates = {p["id"]: p for p in DATA["privates"]}
    assert [p for p in privates if privates[p].get("hidden")] == ["3"]
    assert privates["3"]["abilities"][0]["hexes"] == ["M13"]
    for p in privates.values():
        if not p.get("hidden"):
            assert p["value"] == 3 * p["discount"]  # the auction opens at two thirds of face value
    bonus = {p["id"]: p["abilities"][0]["hexes"] for p in privates.values()
             if p["abilities"] and p["abilities"][0]["kind"] == "hex_bonus"}
    assert bonus == {"NFB": ["F18"], "MB": ["L12"], "QB": ["O7"], "SCT": ["A19", "A17"]}


# -- against the 18xx.games engine's text ----------------------------------------------------------------------


def _text(name: str) -> str:
    return (REF / name).read_text(encoding="utf-8")


def _block(text: str, const: str) -> str:
    """The text of `CONST = [...].freeze` / `{...}.freeze` (the first such constant of that exact name)."""
    m = re.search(rf"^\s*{const} = (.*?)\.freeze", text, re.S | re.M)
    assert m, f"{const} not found"
    return m.group(1)


def _by_players(text: str, const: str) -> dict[str, int]:
    return {k: int(v) for k, v in re.findall(r"(\d+) => (\d+)", _block(text, const))}


def _entries(block: str, key: str) -> list[str]:
    """Split a Ruby array of hashes at each `key:` (every entry has one)."""
    return re.split(rf"\b{key}: ", block)[1:]


@needs_ref
def test_bank_cash_and_cert_limits_match_the_ref():
    game = _text("game.rb")
    assert DATA["bank"] == int(re.search(r"BANK_CASH = ([\d_]+)", game).group(1).replace("_", ""))
    assert DATA["cert_limit"] == _by_players(game, "CERT_LIMIT")
    assert DATA["starting_cash"] == _by_players(game, "STARTING_CASH")


@needs_ref
def test_market_prices_in_order_and_letters_match_the_ref():
    cells = re.findall(r"\d+[a-zA-Z]*", _block(_text("game.rb"), "COLUMN_MARKET"))
    assert [int(re.match(r"\d+", c).group()) for c in cells] == PRICES
    letter = {"x": "par_minor", "p": "par", "z": "par_major", "C": "convert", "m": "minor_max"}
    ours = {k: [c for _, c in v] for k, v in DATA["market"]["cell_kinds"].items()}
    theirs: dict[str, list[int]] = {}
    for col, cell in enumerate(cells):
        for ch in re.sub(r"\d", "", cell):
            theirs.setdefault(letter[ch], []).append(col)
    assert theirs == ours


@needs_ref
def test_trains_match_the_ref():
    game = _text("game.rb")
    entries = _entries(_block(game, "TRAINS"), "name")
    assert [re.match(r"'([^']+)'", e).group(1) for e in entries] == [t["name"] for t in DATA["trains"]]
    removed = {k: int(v) for k, v in re.findall(r"'([^']+)' => (\d+)", _block(game, "TRAINS_REMOVE_2_PLAYER"))}
    for entry in entries:
        t = TRAINS[re.match(r"'([^']+)'", entry).group(1)]
        assert t["price"] == int(re.search(r"price: (\d+)", entry).group(1))
        num = re.search(r"num: (\d+|'unlimited')", entry).group(1)
        assert t["count"] == ("unlimited" if num == "'unlimited'" else int(num))
        rusts = re.search(r"rusts_on: '([^']+)'", entry)
        assert t["rusts_on"] == (rusts.group(1) if rusts else None)
        assert t.get("first_bought_events", []) == re.findall(r"'type' => '(\w+)'", entry)
        multiplier = re.search(r"multiplier: (\d+)", entry)
        assert t.get("multiplier") == (int(multiplier.group(1)) if multiplier else None)
        available = re.search(r"available_on: '([^']+)'", entry)
        assert t.get("available_in_phase") == (available.group(1) if available else None)
        rows = re.findall(r"'nodes' => (?:%w\[([^\]]*)\]|\['(\w+)'\]), 'pay' => (\d+), 'visit' => (\d+)", entry)
        assert [{"nodes": (a or b).split(), "pay": int(p), "visit": int(v)} for a, b, p, v in rows] == t["distance"]
        discount = dict(re.findall(r"'([^']+)' => (\d+)", entry.split("discount:")[1])) if "discount:" in entry else {}
        assert t.get("trade_in", {}) == {k: int(v) for k, v in discount.items()}
        assert t["removed_with_2_players"] == removed.get(t["name"], 0)


@needs_ref
def test_phases_and_train_limits_match_the_ref():
    entries = _entries(_block(_text("game.rb"), "PHASES"), "name")
    assert [re.match(r"'([^']+)'", e).group(1) for e in entries] == [p["name"] for p in DATA["phases"]]
    for entry, phase in zip(entries, DATA["phases"], strict=True):
        limit = re.search(r"train_limit: \{([^}]*)\}", entry).group(1)
        assert phase["train_limit"] == {k: int(v) for k, v in re.findall(r"(\w+): (\d+)", limit)}
        assert phase["operating_rounds"] == int(re.search(r"operating_rounds: (\d+)", entry).group(1))
        on = re.search(r"\bon: '([^']+)'", entry)
        assert phase["on_train"] == (on.group(1) if on else None)
        status = re.search(r"status: (?:%w\[([^\]]*)\]|\['(\w+)'\])", entry)
        assert phase["status"] == ((status.group(1) or status.group(2)).split() if status else [])
        tiles = re.search(r"tiles: (?:%i\[([^\]]*)\]|\[:(\w+)\])", entry)
        assert phase["tiles"] == (tiles.group(1) or tiles.group(2)).split()


@needs_ref
def test_corporations_by_kind_match_the_ref():
    entries = _entries(_block(_text("entities.rb"), "CORPORATIONS"), "sym")
    theirs: dict[str, list[str]] = {}
    for entry in entries:
        cid = re.match(r"'([^']+)'", entry).group(1)
        kind = re.search(r"type: '(\w+)'", entry).group(1)
        theirs.setdefault(kind, []).append(cid)
        c = CORPS[cid]
        assert c["kind"] == kind
        assert c["tokens"] == [int(x) for x in re.search(r"tokens: \[([^\]]*)\]", entry).group(1).split(",")]
        name = re.search(r"name: '([^']+)'", entry)
        assert c["name"] == name.group(1)
        if kind != "national":
            assert c["float_percent"] == int(re.search(r"float_percent: (\d+)", entry).group(1))
    assert theirs == {kind: by_kind(kind) for kind in ("major", "minor", "national")}
    green = re.search(r"GREEN_CORPORATIONS = %w\[([^\]]*)\]", _text("game.rb")).group(1).split()
    assert sorted(green) == sorted(c for c in CORPS if CORPS[c].get("green"))


@needs_ref
def test_privates_match_the_ref():
    entries = _entries(_block(_text("entities.rb"), "COMPANIES"), "sym")
    ours = {p["id"]: p for p in DATA["privates"]}
    assert [re.match(r"'([^']+)'", e).group(1) for e in entries] == list(ours)
    for entry in entries:
        p = ours[re.match(r"'([^']+)'", entry).group(1)]
        assert p["value"] == int(re.search(r"value: (\d+)", entry).group(1))
        assert p["revenue"] == int(re.search(r"revenue: (\d+)", entry).group(1))
        discount = re.search(r"discount: (\d+)", entry)
        assert p.get("discount") == (int(discount.group(1)) if discount else None)
        hexes = re.search(r"hexes: (?:%w\[([^\]]*)\]|\['(\w+)'\])", entry)
        assert [h for a in p["abilities"] for h in a["hexes"]] == ((hexes.group(1) or hexes.group(2)).split()
                                                                   if hexes else [])


@needs_ref
def test_rules_numbers_match_the_ref():
    game = _text("game.rb")
    rules, loans = DATA["rules"], DATA["loans"]

    def const(name: str) -> str:
        return re.search(rf"{name} = (.+)$", game, re.M).group(1)

    assert rules["limit_tokens_after_merger"] == int(const("LIMIT_TOKENS_AFTER_MERGER"))
    assert rules["minimum_minor_price"] == int(const("MINIMUM_MINOR_PRICE"))
    assert rules["national_reservations"] == re.findall(r"'(\w+)'", const("NATIONAL_RESERVATIONS"))
    assert rules["capital_bonus"]["capitals"] == re.search(r"%w\[([^\]]*)\]", const("BONUS_CAPITALS")).group(1).split()
    assert rules["capital_bonus"]["with"] == const("BONUS_REVENUE").strip("'")
    assert rules["capital_bonus"]["amount"] == int(re.search(r"revenue \+= (\d+) \* \(route\.train\.multiplier", game)
                                                   .group(1))
    assert rules["capitalization"] == const("CAPITALIZATION").lstrip(":")
    assert rules["sell_buy_order"] == const("SELL_BUY_ORDER").lstrip(":")
    assert rules["pool_share_drop"] == const("POOL_SHARE_DROP").lstrip(":")
    assert rules["must_buy_train"] == const("MUST_BUY_TRAIN").split()[0].lstrip(":")
    assert rules["home_token_timing"] == const("HOME_TOKEN_TIMING").lstrip(":")
    assert rules["must_bid_increment_multiple"] == (const("MUST_BID_INCREMENT_MULTIPLE") == "true")
    assert rules["cert_limit_change_on_bankruptcy"] == (const("CERT_LIMIT_CHANGE_ON_BANKRUPTCY") == "true")
    assert rules["game_end_check"] == dict(re.findall(r"(\w+): :(\w+)", const("GAME_END_CHECK")))
    assert rules["game_end_timing_priority"] == re.search(r"%i\[([^\]]*)\]", const("GAME_END_TIMING_PRIORITY")
                                                          ).group(1).split()
    assert loans["value"] == int(re.search(r"@loan_value = (\d+)", game).group(1))
    assert loans["count"] == int(re.search(r"Array\.new\((\d+)\) \{ \|id\| Loan\.new", game).group(1))
    assert loans["value"] - loans["received"] == int(re.search(r"amount = loan\.amount - (\d+)", game).group(1))
    assert loans["interest_per_loan"] == int(re.search(r"def interest_rate\s+(\d+)", game).group(1))
    assert loans["interest_percent"] == 100 * loans["interest_per_loan"] // loans["value"]
    major, minor = re.search(r"entity\.type == :major \? (\d+) : (\d+)", game).groups()
    assert loans["max"] == {"minor": int(minor), "major": int(major)}
    # the minor auction and par (step/buy_sell_par_shares.rb)
    step = _text("step/buy_sell_par_shares.rb")
    assert rules["minor_auction_min_bid"] == int(re.search(r"MIN_BID = (\d+)", step).group(1))
    assert rules["minor_par_max"] == int(re.search(r"MAX_MINOR_PAR = (\d+)", step).group(1))
    assert rules["majors_par_from_phase"] == re.search(r"MAJOR_PHASE = (\d+)", step).group(1)
