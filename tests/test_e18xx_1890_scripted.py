"""1890 (Kansai), scripted games worked by hand: the smallest scenario (A, Hanshin) played to its end, every
operating round's revenue, dividend and price move in the comments; each step asserts the players' cash and every
company's treasury, price and trains (rules sections: "Operating round", "JR" (ruling 4: half dividends), "Minor
company dividends", "Trains and phases", "Company closure", "End of the game"; docs/rules/1890.md)."""
from __future__ import annotations

from engines.e18xx.state import G, total_money
from tests.test_e18xx_1890 import ENGINE, PASS, bid, new


def acting(state: dict) -> int:
    """The seat to move; while an offer waits, the seat that decides."""
    aw = ENGINE.awaiting(state)
    return min(aw.deciding) if aw.deciding else min(aw.seats)


def play(state: dict, *moves: dict) -> dict:
    bank = G(state).title.bank
    for move in moves:
        state = ENGINE.apply(state, acting(state), move)
        assert total_money(state) == bank
    return state


def par(corp: str, cell: str) -> dict:
    return {"type": "par", "corporation": corp, "share_price": cell}


def buy(shares: list[str]) -> dict:
    return {"type": "buy_shares", "shares": shares, "percent": 10 * len(shares)}


def sell(shares: list[str]) -> dict:
    return {"type": "sell_shares", "shares": shares, "percent": 10 * len(shares)}


def lay(coord: str, tile: str, rotation: int) -> dict:
    return {"type": "lay_tile", "hex": coord, "tile": tile, "rotation": rotation}


def train(train_id: str, price: int) -> dict:
    return {"type": "buy_train", "train": train_id, "price": price}


def run(*routes: str) -> dict:
    """run("2-1: F11-G12", "3-0: F1-F3 F3-F5"): each train and its chains of hexes, stop to stop."""
    out = []
    for route in routes:
        name, _, chains = route.partition(": ")
        out.append({"train": name, "connections": [chain.split("-") for chain in chains.split()]})
    return {"type": "run_routes", "routes": out}


def sell_private(company: str, price: int) -> dict:
    return {"type": "buy_company", "company": company, "price": price}


def discard(corp: str, train_id: str) -> dict:
    return {"type": "discard_train", "entity": corp, "train": train_id}


ACCEPT = {"type": "accept_offer"}
CONVERT = {"type": "convert", "entity": "KobeElec"}


DIV = {kind: {"type": "dividend", "kind": kind} for kind in ("payout", "half", "withhold")}


def check(state: dict, cash: list[int], phase: str, **corps: tuple) -> None:
    """Players' cash, the phase, each open company's (treasury, price, trains), and no other company open."""
    g = G(state)
    assert state["cash"] == cash and state["depot"]["phase"] == phase
    open_ = {c for c, v in state["corps"].items() if v.get("floated") and not v.get("closed")}
    assert open_ == set(corps)
    for cid, (treasury, price, trains) in corps.items():
        c = g.corp(cid)
        got_price = g.price(cid) if any(cid in held for held in state["market"].values()) else None
        assert (c["cash"], got_price, c["trains"]) == (treasury, price, trains), cid


def test_hanshin_scripted_to_its_end():
    """Scenario A (Hanshin), two players, worked by hand to the end of the game (the bank breaks in game turn 9).
    P0 presides JR, P1 Hanshin and Hankyu; P1's Kobe Electric runs Tanigami-Miki until its 2-train rusts and then
    converts into a late private. Hankyu buys Arima from P0 in phase 2; the first 5-train closes the privates.
    Revenue: a route's stops summed (map values: Kobe 30, Osaka Kita 40, Amagasaki's #202 30, yellow #57 and #6
    cities 20, Himeji 40 in phases 1-3 and 50 from phase 4, Miki's #3 10, Tanigami 20). A payout gives revenue / 10
    a share and moves the price right; IPO shares pay nobody (full capitalization); a company that earns nothing or
    withholds moves left. JR pays 10 x floor(R / 20) to its shares and keeps the rest (ruling 4), moving right.
    Privates pay at the start of each OR (P0: Arima 5 + Keishin 15 + Osaka Municipal Electric 30 = 50; P1: Kobe
    Tramway 10 + Hanshin Tramway 20 = 30)."""
    s = new("hanshin", 2)
    # ---- game turn 1, initial stock round: each company bought at its face value in order
    # P0: Arima 20, Keishin 60, Osaka Municipal Electric 120 (750 - 200 = 550); P1: Kobe Tramway 40, Hanshin
    # Tramway 110 (with a 10% Hanshin share), Kobe Electric 100 (750 - 250 = 500). Kobe Electric gets 200 from
    # the bank (its fixed capital). Everything sold: a regular stock round follows, P0 first (after P1's purchase).
    s = play(
        s, bid("Arima", 20), bid("KobeTram", 40), bid("Keishin", 60), bid("HanshinTram", 110), bid("OsakaTram", 120),
        bid("KobeElec", 100))
    check(s, [550, 500], "1", KobeElec=(200, None, []))

    # ---- stock round 1 (seat 0 first)
    # P0 starts JR at 100: the president's certificate costs 2 x 100 = 200
    # P1 starts Hanshin at 80: the president's certificate costs 2 x 80 = 160
    # P0 buys a JR share for 100
    # P1 buys a Hanshin share for 80
    # P0 buys a JR share for 100
    # P1 buys a Hanshin share for 80; Hanshin floats with 50% sold: 10 x 80 = 800 in its treasury
    # P0 buys a JR share for 100; JR floats with 50% sold: 10 x 100 = 1000 in its treasury
    # OR 1.1 begins; order KobeElec, JR, Hanshin; privates pay P0 +50, P1 +30
    s = play(
        s, par("JR", "100,0,4"), par("Hanshin", "80,2,4"), buy(['JR_1']), buy(['Hanshin_2']), buy(['JR_2']),
        buy(['Hanshin_3']), buy(['JR_3']), PASS, PASS)
    check(s, [100, 210], "1", Hanshin=(800, 80, []), JR=(1000, 100, []), KobeElec=(200, None, []))

    # ---- OR 1.1 KobeElec
    # KobeElec lays #3 on D3 Miki, free
    # KobeElec buys the 2-train 2-0 for 80 (200 -> 120)
    s = play(s, lay("D3", "3", 4), train("2-0", 80), PASS)
    check(s, [100, 210], "1", Hanshin=(800, 80, []), JR=(1000, 100, []), KobeElec=(120, None, ["2-0"]))

    # ---- OR 1.1 JR
    # JR lays #57 on F3 Akashi, free
    # JR lays #202 on F11 Amagasaki, free
    #   JR has no train to run: it earns nothing and its price moves left 100 -> 90
    # JR buys the 2-train 2-1 for 80 (1000 -> 920)
    # JR buys the 2-train 2-2 for 80 (920 -> 840)
    s = play(s, lay("F3", "57", 1), lay("F11", "202", 5), PASS, train("2-1", 80), train("2-2", 80), PASS)
    check(s, [100, 210], "1", Hanshin=(800, 80, []), JR=(840, 90, ["2-1", "2-2"]), KobeElec=(120, None, ["2-0"]))

    # ---- OR 1.1 Hanshin
    # Hanshin lays #57 on F9 Nishinomiya, paying 80 (terrain)
    #   Hanshin has no train to run: it earns nothing and its price moves left 80 -> 75
    # Hanshin buys the 2-train 2-3 for 80 (720 -> 640)
    # stock round 2
    s = play(s, lay("F9", "57", 1), PASS, train("2-3", 80), PASS)
    check(s, [100, 210], "1", Hanshin=(640, 75, ["2-3"]), JR=(840, 90, ["2-1", "2-2"]), KobeElec=(120, None, ["2-0"]))

    # ---- stock round 2 (seat 1 first)
    # OR 2.1 begins; order KobeElec, JR, Hanshin; privates pay P0 +50, P1 +30
    s = play(s, PASS, PASS)
    check(s, [150, 240], "1", Hanshin=(640, 75, ["2-3"]), JR=(840, 90, ["2-1", "2-2"]), KobeElec=(120, None, ["2-0"]))

    # ---- OR 2.1 KobeElec
    # KobeElec runs 2-0: D3 10 + D5 20 = 30
    #   minor: half to its owner P1, 15, the rest to its treasury, 15 (120 -> 135); its price never moves
    s = play(s, PASS, run("2-0: D3-D5"), PASS)
    check(s, [150, 255], "1", Hanshin=(640, 75, ["2-3"]), JR=(840, 90, ["2-1", "2-2"]), KobeElec=(135, None, ["2-0"]))

    # ---- OR 2.1 JR
    # JR lays #57 on F7 Ashiya, free
    # JR lays #57 on F13 Suita, free
    # JR runs 2-1: F11 30 + G12 40 = 70; 2-2: F13 20 + G12 40 = 60: 130 in all
    # half dividend (ruling 4): 10 x floor(130/20) = 60 to shares, 6 a share: P0 50% -> 30 (IPO 50% pays nobody); the
    #   treasury keeps 130-60 = 70; price right 90 -> 100
    # JR buys the 2-train 2-4 for 80 (910 -> 830)
    # JR buys the 3-train 3-0 for 180 (830 -> 650); phase 1 -> 2
    s = play(
        s, lay("F7", "57", 1), lay("F13", "57", 0), PASS, run("2-1: F11-G12", "2-2: F13-G12"), DIV["half"],
        train("2-4", 80), train("3-0", 180), PASS, PASS)
    check(
        s, [180, 255], "2", Hanshin=(640, 75, ["2-3"]), JR=(650, 100, ["2-1", "2-2", "2-4", "3-0"]),
        KobeElec=(135, None, ["2-0"]))

    # ---- OR 2.1 Hanshin
    # Hanshin runs 2-3: F11 30 + F9 20 = 50
    #   pays out 50: 5 a share: P1 50% -> 25; the IPO's 50% pays nobody; price right 75 -> 80
    # Hanshin buys the 3-train 3-1 for 180 (640 -> 460)
    # stock round 3
    s = play(s, PASS, PASS, run("2-3: F11-F9"), DIV["payout"], train("3-1", 180), PASS, PASS)
    check(
        s, [180, 280], "2", Hanshin=(460, 80, ["2-3", "3-1"]), JR=(650, 100, ["2-1", "2-2", "2-4", "3-0"]),
        KobeElec=(135, None, ["2-0"]))

    # ---- stock round 3 (seat 1 first)
    # P1 starts Hankyu at 65: the president's certificate costs 2 x 65 = 130
    # P0 buys a Hankyu share for 65
    # P1 buys a Hankyu share for 65
    # P0 buys a Hankyu share for 65; Hankyu floats with 50% sold: 10 x 65 = 650 in its treasury
    # OR 3.1 begins; order KobeElec, JR, Hanshin, Hankyu; privates pay P0 +50, P1 +30
    s = play(
        s, par("Hankyu", "65,5,4"), PASS, buy(['Hankyu_1']), PASS, buy(['Hankyu_2']), PASS, buy(['Hankyu_3']), PASS,
        PASS, PASS)
    check(
        s, [100, 115], "2", Hanshin=(460, 80, ["2-3", "3-1"]), Hankyu=(650, 65, []),
        JR=(650, 100, ["2-1", "2-2", "2-4", "3-0"]), KobeElec=(135, None, ["2-0"]))

    # ---- OR 3.1 KobeElec
    # KobeElec runs 2-0: D3 10 + D5 20 = 30
    #   minor: half to its owner P1, 15, the rest to its treasury, 15 (135 -> 150); its price never moves
    s = play(s, PASS, run("2-0: D3-D5"), PASS)
    check(
        s, [100, 130], "2", Hanshin=(460, 80, ["2-3", "3-1"]), Hankyu=(650, 65, []),
        JR=(650, 100, ["2-1", "2-2", "2-4", "3-0"]), KobeElec=(150, None, ["2-0"]))

    # ---- OR 3.1 JR
    # JR runs 2-1: F11 30 + G12 40 = 70; 2-2: F13 20 + G12 40 = 60; 2-4: F5 30 + F7 20 = 50; 3-0: F1 40 + F3 20 + F5 30
    #   = 90: 270 in all
    # half dividend (ruling 4): 10 x floor(270/20) = 130 to shares, 13 a share: P0 50% -> 65 (IPO 50% pays nobody); the
    #   treasury keeps 270-130 = 140; price right 100 -> 110
    s = play(
        s, PASS, PASS, run("2-1: F11-G12", "2-2: F13-G12", "2-4: F5-F7", "3-0: F1-F3 F3-F5"), DIV["half"], PASS, PASS)
    check(
        s, [165, 130], "2", Hanshin=(460, 80, ["2-3", "3-1"]), Hankyu=(650, 65, []),
        JR=(790, 110, ["2-1", "2-2", "2-4", "3-0"]), KobeElec=(150, None, ["2-0"]))

    # ---- OR 3.1 Hanshin
    # Hanshin runs 2-3: F7 20 + F9 20 = 40; 3-1: F9 20 + F11 30 + G12 40 = 90: 130 in all
    #   pays out 130: 13 a share: P1 50% -> 65; the IPO's 50% pays nobody; price right 80 -> 90
    s = play(s, PASS, PASS, run("2-3: F7-F9", "3-1: F9-F11 F11-G12"), DIV["payout"], PASS, PASS)
    check(
        s, [165, 195], "2", Hanshin=(460, 90, ["2-3", "3-1"]), Hankyu=(650, 65, []),
        JR=(790, 110, ["2-1", "2-2", "2-4", "3-0"]), KobeElec=(150, None, ["2-0"]))

    # ---- OR 3.1 Hankyu
    # Hankyu lays #6 on E12 Toyonaka, free
    #   Hankyu has no train to run: it earns nothing and its price moves left 65 -> 60
    # Hankyu buys the 3-train 3-2 for 180 (650 -> 470)
    # OR 3.2 begins; order KobeElec, JR, Hanshin, Hankyu; privates pay P0 +50, P1 +30
    s = play(s, lay("E12", "6", 5), train("3-2", 180), PASS, PASS)
    check(
        s, [215, 225], "2", Hanshin=(460, 90, ["2-3", "3-1"]), Hankyu=(470, 60, ["3-2"]),
        JR=(790, 110, ["2-1", "2-2", "2-4", "3-0"]), KobeElec=(150, None, ["2-0"]))

    # ---- OR 3.2 KobeElec
    # KobeElec runs 2-0: D3 10 + D5 20 = 30
    #   minor: half to its owner P1, 15, the rest to its treasury, 15 (150 -> 165); its price never moves
    s = play(s, PASS, run("2-0: D3-D5"), PASS)
    check(
        s, [215, 240], "2", Hanshin=(460, 90, ["2-3", "3-1"]), Hankyu=(470, 60, ["3-2"]),
        JR=(790, 110, ["2-1", "2-2", "2-4", "3-0"]), KobeElec=(165, None, ["2-0"]))

    # ---- OR 3.2 JR
    # JR runs 2-1: F11 30 + G12 40 = 70; 2-2: F13 20 + G12 40 = 60; 2-4: F5 30 + F7 20 = 50; 3-0: F1 40 + F3 20 + F5 30
    #   = 90: 270 in all
    # half dividend (ruling 4): 10 x floor(270/20) = 130 to shares, 13 a share: P0 50% -> 65 (IPO 50% pays nobody); the
    #   treasury keeps 270-130 = 140; price right 110 -> 125
    s = play(
        s, PASS, PASS, run("2-1: F11-G12", "2-2: F13-G12", "2-4: F5-F7", "3-0: F1-F3 F3-F5"), DIV["half"], PASS, PASS)
    check(
        s, [280, 240], "2", Hanshin=(460, 90, ["2-3", "3-1"]), Hankyu=(470, 60, ["3-2"]),
        JR=(930, 125, ["2-1", "2-2", "2-4", "3-0"]), KobeElec=(165, None, ["2-0"]))

    # ---- OR 3.2 Hanshin
    # Hanshin runs 2-3: F7 20 + F9 20 = 40; 3-1: F9 20 + F11 30 + G12 40 = 90: 130 in all
    #   pays out 130: 13 a share: P1 50% -> 65; the IPO's 50% pays nobody; price right 90 -> 100
    s = play(s, PASS, PASS, run("2-3: F7-F9", "3-1: F9-F11 F11-G12"), DIV["payout"], PASS, PASS)
    check(
        s, [280, 305], "2", Hanshin=(460, 100, ["2-3", "3-1"]), Hankyu=(470, 60, ["3-2"]),
        JR=(930, 125, ["2-1", "2-2", "2-4", "3-0"]), KobeElec=(165, None, ["2-0"]))

    # ---- OR 3.2 Hankyu
    # Hankyu lays #6 on E10 Itami, free
    # Hankyu runs 3-2: E10 20 + E12 20 = 40
    #   pays out 40: 4 a share: P0 20% -> 8, P1 30% -> 12; the IPO's 50% pays nobody; price right 60 -> 65
    # Hankyu offers 40 (twice its face value) to P0 for Arima
    #   P0 accepts: +40
    # stock round 4
    s = play(
        s, lay("E10", "6", 2), PASS, run("3-2: E10-E12"), DIV["payout"], sell_private("Arima", 40), ACCEPT, PASS, PASS)
    check(
        s, [328, 317], "2", Hanshin=(460, 100, ["2-3", "3-1"]), Hankyu=(430, 65, ["3-2"]),
        JR=(930, 125, ["2-1", "2-2", "2-4", "3-0"]), KobeElec=(165, None, ["2-0"]))

    # ---- stock round 4 (seat 1 first)
    # P1 buys a Hanshin share for 80
    # OR 4.1 begins; order KobeElec, JR, Hanshin, Hankyu; privates pay P0 +45, P1 +30
    s = play(s, buy(['Hanshin_4']), PASS, PASS, PASS)
    check(
        s, [373, 267], "2", Hanshin=(460, 100, ["2-3", "3-1"]), Hankyu=(435, 65, ["3-2"]),
        JR=(930, 125, ["2-1", "2-2", "2-4", "3-0"]), KobeElec=(165, None, ["2-0"]))

    # ---- OR 4.1 KobeElec
    # KobeElec runs 2-0: D3 10 + D5 20 = 30
    #   minor: half to its owner P1, 15, the rest to its treasury, 15 (165 -> 180); its price never moves
    s = play(s, PASS, run("2-0: D3-D5"), PASS)
    check(
        s, [373, 282], "2", Hanshin=(460, 100, ["2-3", "3-1"]), Hankyu=(435, 65, ["3-2"]),
        JR=(930, 125, ["2-1", "2-2", "2-4", "3-0"]), KobeElec=(180, None, ["2-0"]))

    # ---- OR 4.1 JR
    # JR runs 2-1: F11 30 + G12 40 = 70; 2-2: F13 20 + G12 40 = 60; 2-4: F5 30 + F7 20 = 50; 3-0: F1 40 + F3 20 + F5 30
    #   = 90: 270 in all
    # half dividend (ruling 4): 10 x floor(270/20) = 130 to shares, 13 a share: P0 50% -> 65 (IPO 50% pays nobody); the
    #   treasury keeps 270-130 = 140; price right 125 -> 150
    # JR buys the 3-train 3-3 for 180 (1070 -> 890)
    # JR buys the 4-train 4-0 for 300 (890 -> 590); phase 2 -> 3; rusted: Hanshin 2-3, JR 2-1/2-2/2-4, KobeElec 2-0
    s = play(
        s, PASS, PASS, run("2-1: F11-G12", "2-2: F13-G12", "2-4: F5-F7", "3-0: F1-F3 F3-F5"), DIV["half"],
        train("3-3", 180), train("4-0", 300), PASS, PASS)
    check(
        s, [438, 282], "3", Hanshin=(460, 100, ["3-1"]), Hankyu=(435, 65, ["3-2"]),
        JR=(590, 150, ["3-0", "3-3", "4-0"]), KobeElec=(180, None, []))

    # ---- OR 4.1 Hanshin
    # Hanshin runs 3-1: F9 20 + F11 30 + G12 40 = 90
    #   pays out 90: 9 a share: P1 60% -> 54; the IPO's 40% pays nobody; price right 100 -> 110
    s = play(s, PASS, PASS, run("3-1: F9-F11 F11-G12"), DIV["payout"], PASS, PASS)
    check(
        s, [438, 336], "3", Hanshin=(460, 110, ["3-1"]), Hankyu=(435, 65, ["3-2"]),
        JR=(590, 150, ["3-0", "3-3", "4-0"]), KobeElec=(180, None, []))

    # ---- OR 4.1 Hankyu
    # Hankyu runs 3-2: E10 20 + E12 20 = 40
    #   pays out 40: 4 a share: P0 20% -> 8, P1 30% -> 12; the IPO's 50% pays nobody; price right 65 -> 70
    # OR 4.2 begins; order KobeElec, JR, Hanshin, Hankyu; privates pay P0 +45, P1 +30
    s = play(s, PASS, PASS, run("3-2: E10-E12"), DIV["payout"], PASS, PASS)
    check(
        s, [491, 378], "3", Hanshin=(460, 110, ["3-1"]), Hankyu=(440, 70, ["3-2"]),
        JR=(590, 150, ["3-0", "3-3", "4-0"]), KobeElec=(180, None, []))

    # ---- OR 4.2 KobeElec
    # KobeElec's owner converts it into a late private (its 2-train has rusted): its 180 and token go to the bank
    s = play(s, CONVERT)
    check(
        s, [491, 378], "3", Hanshin=(460, 110, ["3-1"]), Hankyu=(440, 70, ["3-2"]),
        JR=(590, 150, ["3-0", "3-3", "4-0"]))

    # ---- OR 4.2 JR
    # JR runs 3-0: F1 40 + F3 20 + F5 30 = 90; 3-3: F5 30 + F7 20 + F9 20 = 70; 4-0: F13 20 + G12 40 + F11 30 + F9 20 =
    #   110: 270 in all
    # half dividend (ruling 4): 10 x floor(270/20) = 130 to shares, 13 a share: P0 50% -> 65 (IPO 50% pays nobody); the
    #   treasury keeps 270-130 = 140; price right 150 -> 175
    s = play(
        s, PASS, PASS, run("3-0: F1-F3 F3-F5", "3-3: F5-F7 F7-F9", "4-0: F13-G12 G12-F11 F11-F9"), DIV["half"], PASS,
        PASS)
    check(
        s, [556, 378], "3", Hanshin=(460, 110, ["3-1"]), Hankyu=(440, 70, ["3-2"]),
        JR=(730, 175, ["3-0", "3-3", "4-0"]))

    # ---- OR 4.2 Hanshin
    # Hanshin runs 3-1: F9 20 + F11 30 + G12 40 = 90
    #   pays out 90: 9 a share: P1 60% -> 54; the IPO's 40% pays nobody; price right 110 -> 125
    s = play(s, PASS, PASS, run("3-1: F9-F11 F11-G12"), DIV["payout"], PASS, PASS)
    check(
        s, [556, 432], "3", Hanshin=(460, 125, ["3-1"]), Hankyu=(440, 70, ["3-2"]),
        JR=(730, 175, ["3-0", "3-3", "4-0"]))

    # ---- OR 4.2 Hankyu
    # Hankyu runs 3-2: E10 20 + E12 20 = 40
    #   pays out 40: 4 a share: P0 20% -> 8, P1 30% -> 12; the IPO's 50% pays nobody; price right 70 -> 75
    # stock round 5
    s = play(s, PASS, PASS, run("3-2: E10-E12"), DIV["payout"], PASS, PASS)
    check(
        s, [564, 444], "3", Hanshin=(460, 125, ["3-1"]), Hankyu=(440, 75, ["3-2"]),
        JR=(730, 175, ["3-0", "3-3", "4-0"]))

    # ---- stock round 5 (seat 0 first)
    # OR 5.1 begins; order JR, Hanshin, Hankyu; privates pay P0 +45, P1 +30
    s = play(s, PASS, PASS)
    check(
        s, [609, 474], "3", Hanshin=(460, 125, ["3-1"]), Hankyu=(445, 75, ["3-2"]),
        JR=(730, 175, ["3-0", "3-3", "4-0"]))

    # ---- OR 5.1 JR
    # JR runs 3-0: F1 40 + F3 20 + F5 30 = 90; 3-3: F5 30 + F7 20 + F9 20 = 70; 4-0: F13 20 + G12 40 + F11 30 + F9 20 =
    #   110: 270 in all
    # half dividend (ruling 4): 10 x floor(270/20) = 130 to shares, 13 a share: P0 50% -> 65 (IPO 50% pays nobody); the
    #   treasury keeps 270-130 = 140; price right 175 -> 200
    s = play(
        s, PASS, PASS, run("3-0: F1-F3 F3-F5", "3-3: F5-F7 F7-F9", "4-0: F13-G12 G12-F11 F11-F9"), DIV["half"], PASS,
        PASS)
    check(
        s, [674, 474], "3", Hanshin=(460, 125, ["3-1"]), Hankyu=(445, 75, ["3-2"]),
        JR=(870, 200, ["3-0", "3-3", "4-0"]))

    # ---- OR 5.1 Hanshin
    # Hanshin runs 3-1: F9 20 + F11 30 + G12 40 = 90
    #   withholds 90 (treasury 460 -> 550); price left 125 -> 110
    # Hanshin buys the 4-train 4-1 for 300 (550 -> 250)
    s = play(s, PASS, PASS, run("3-1: F9-F11 F11-G12"), DIV["withhold"], train("4-1", 300), PASS, PASS)
    check(
        s, [674, 474], "3", Hanshin=(250, 110, ["3-1", "4-1"]), Hankyu=(445, 75, ["3-2"]),
        JR=(870, 200, ["3-0", "3-3", "4-0"]))

    # ---- OR 5.1 Hankyu
    # Hankyu runs 3-2: E10 20 + E12 20 = 40
    #   pays out 40: 4 a share: P0 20% -> 8, P1 30% -> 12; the IPO's 50% pays nobody; price right 75 -> 80
    # OR 5.2 begins; order JR, Hanshin, Hankyu; privates pay P0 +45, P1 +30
    s = play(s, PASS, PASS, run("3-2: E10-E12"), DIV["payout"], PASS, PASS)
    check(
        s, [727, 516], "3", Hanshin=(250, 110, ["3-1", "4-1"]), Hankyu=(450, 80, ["3-2"]),
        JR=(870, 200, ["3-0", "3-3", "4-0"]))

    # ---- OR 5.2 JR
    # JR runs 3-0: F1 40 + F3 20 + F5 30 = 90; 3-3: F5 30 + F7 20 + F9 20 = 70; 4-0: F13 20 + G12 40 + F11 30 + F9 20 =
    #   110: 270 in all
    # half dividend (ruling 4): 10 x floor(270/20) = 130 to shares, 13 a share: P0 50% -> 65 (IPO 50% pays nobody); the
    #   treasury keeps 270-130 = 140; price right 200 -> 225
    s = play(
        s, PASS, PASS, run("3-0: F1-F3 F3-F5", "3-3: F5-F7 F7-F9", "4-0: F13-G12 G12-F11 F11-F9"), DIV["half"], PASS,
        PASS)
    check(
        s, [792, 516], "3", Hanshin=(250, 110, ["3-1", "4-1"]), Hankyu=(450, 80, ["3-2"]),
        JR=(1010, 225, ["3-0", "3-3", "4-0"]))

    # ---- OR 5.2 Hanshin
    # Hanshin runs 3-1: F5 30 + F7 20 + F9 20 = 70; 4-1: F13 20 + G12 40 + F11 30 + F9 20 = 110: 180 in all
    #   pays out 180: 18 a share: P1 60% -> 108; the IPO's 40% pays nobody; price right 110 -> 125
    s = play(s, PASS, PASS, run("3-1: F5-F7 F7-F9", "4-1: F13-G12 G12-F11 F11-F9"), DIV["payout"], PASS, PASS)
    check(
        s, [792, 624], "3", Hanshin=(250, 125, ["3-1", "4-1"]), Hankyu=(450, 80, ["3-2"]),
        JR=(1010, 225, ["3-0", "3-3", "4-0"]))

    # ---- OR 5.2 Hankyu
    # Hankyu runs 3-2: E10 20 + E12 20 = 40
    #   pays out 40: 4 a share: P0 20% -> 8, P1 30% -> 12; the IPO's 50% pays nobody; price right 80 -> 90
    # Hankyu buys the 4-train 4-2 for 300 (450 -> 150)
    # stock round 6
    s = play(s, PASS, PASS, run("3-2: E10-E12"), DIV["payout"], train("4-2", 300), PASS, PASS)
    check(
        s, [800, 636], "3", Hanshin=(250, 125, ["3-1", "4-1"]), Hankyu=(150, 90, ["3-2", "4-2"]),
        JR=(1010, 225, ["3-0", "3-3", "4-0"]))

    # ---- stock round 6 (seat 0 first)
    # P0 sells a JR share at 225 (+225); the price falls a row: 225 -> 200
    # OR 6.1 begins; order JR, Hanshin, Hankyu; privates pay P0 +45, P1 +30
    s = play(s, sell(['JR_1']), PASS, PASS, PASS)
    check(
        s, [1070, 666], "3", Hanshin=(250, 125, ["3-1", "4-1"]), Hankyu=(155, 90, ["3-2", "4-2"]),
        JR=(1010, 200, ["3-0", "3-3", "4-0"]))

    # ---- OR 6.1 JR
    # JR runs 3-0: F1 40 + F3 20 + F5 30 = 90; 3-3: F5 30 + F7 20 + F9 20 = 70; 4-0: F13 20 + G12 40 + F11 30 + F9 20 =
    #   110: 270 in all
    # half dividend (ruling 4): 10 x floor(270/20) = 130 to shares, 13 a share: P0 40% -> 52 (IPO 50% pays nobody); the
    #   pool's 10% pays 13 to JR; the treasury keeps 270-130 = 140; price right 200 -> 225
    # JR buys the 5-train 5-0 for 450 (1163 -> 713); phase 3 -> 4; privates close: Arima, KobeTram, Keishin,
    #   HanshinTram, OsakaTram
    #   JR is over its limit of 3 (phase 4) and discards 3-0 to the open market
    s = play(
        s, PASS, PASS, run("3-0: F1-F3 F3-F5", "3-3: F5-F7 F7-F9", "4-0: F13-G12 G12-F11 F11-F9"), DIV["half"],
        train("5-0", 450), discard("JR", "3-0"))
    check(
        s, [1122, 666], "4", Hanshin=(250, 125, ["3-1", "4-1"]), Hankyu=(155, 90, ["3-2", "4-2"]),
        JR=(713, 225, ["3-3", "4-0", "5-0"]))

    # ---- OR 6.1 Hanshin
    # Hanshin runs 3-1: F5 30 + F7 20 + F9 20 = 70; 4-1: F13 20 + G12 40 + F11 30 + F9 20 = 110: 180 in all
    #   pays out 180: 18 a share: P1 60% -> 108; the IPO's 40% pays nobody; price right 125 -> 150
    s = play(s, PASS, PASS, run("3-1: F5-F7 F7-F9", "4-1: F13-G12 G12-F11 F11-F9"), DIV["payout"])
    check(
        s, [1122, 774], "4", Hanshin=(250, 150, ["3-1", "4-1"]), Hankyu=(155, 90, ["3-2", "4-2"]),
        JR=(713, 225, ["3-3", "4-0", "5-0"]))

    # ---- OR 6.1 Hankyu
    # Hankyu runs 3-2: E10 20 + E12 20 = 40
    #   pays out 40: 4 a share: P0 20% -> 8, P1 30% -> 12; the IPO's 50% pays nobody; price right 90 -> 100
    # OR 6.2 begins; order JR, Hanshin, Hankyu; privates pay P0 +8, P1 +12
    s = play(s, PASS, PASS, run("3-2: E10-E12"), DIV["payout"])
    check(
        s, [1130, 786], "4", Hanshin=(250, 150, ["3-1", "4-1"]), Hankyu=(155, 100, ["3-2", "4-2"]),
        JR=(713, 225, ["3-3", "4-0", "5-0"]))

    # ---- OR 6.2 JR
    # JR runs 3-3: F13 20 + G12 40 = 60; 4-0: F9 20 + F11 30 + G12 40 = 90; 5-0: F1 50 + F3 20 + F5 30 + F7 20 + F9 20 =
    #   140: 290 in all
    # half dividend (ruling 4): 10 x floor(290/20) = 140 to shares, 14 a share: P0 40% -> 56 (IPO 50% pays nobody); the
    #   pool's 10% pays 14 to JR; the treasury keeps 290-140 = 150; price right 225 -> 250
    s = play(s, PASS, PASS, run("3-3: F13-G12", "4-0: F9-F11 F11-G12", "5-0: F1-F3 F3-F5 F5-F7 F7-F9"), DIV["half"])
    check(
        s, [1186, 786], "4", Hanshin=(250, 150, ["3-1", "4-1"]), Hankyu=(155, 100, ["3-2", "4-2"]),
        JR=(877, 250, ["3-3", "4-0", "5-0"]))

    # ---- OR 6.2 Hanshin
    # Hanshin runs 3-1: F5 30 + F7 20 + F9 20 = 70; 4-1: F13 20 + G12 40 + F11 30 + F9 20 = 110: 180 in all
    #   pays out 180: 18 a share: P1 60% -> 108; the IPO's 40% pays nobody; price right 150 -> 175
    s = play(s, PASS, PASS, run("3-1: F5-F7 F7-F9", "4-1: F13-G12 G12-F11 F11-F9"), DIV["payout"])
    check(
        s, [1186, 894], "4", Hanshin=(250, 175, ["3-1", "4-1"]), Hankyu=(155, 100, ["3-2", "4-2"]),
        JR=(877, 250, ["3-3", "4-0", "5-0"]))

    # ---- OR 6.2 Hankyu
    # Hankyu runs 3-2: E10 20 + E12 20 = 40
    #   pays out 40: 4 a share: P0 20% -> 8, P1 30% -> 12; the IPO's 50% pays nobody; price right 100 -> 110
    # stock round 7
    s = play(s, PASS, PASS, run("3-2: E10-E12"), DIV["payout"])
    check(
        s, [1194, 906], "4", Hanshin=(250, 175, ["3-1", "4-1"]), Hankyu=(155, 110, ["3-2", "4-2"]),
        JR=(877, 250, ["3-3", "4-0", "5-0"]))

    # ---- stock round 7 (seat 1 first)
    # OR 7.1 begins; order JR, Hanshin, Hankyu
    s = play(s, PASS, PASS)
    check(
        s, [1194, 906], "4", Hanshin=(250, 175, ["3-1", "4-1"]), Hankyu=(155, 110, ["3-2", "4-2"]),
        JR=(877, 250, ["3-3", "4-0", "5-0"]))

    # ---- OR 7.1 JR
    # JR runs 3-3: F13 20 + G12 40 = 60; 4-0: F9 20 + F11 30 + G12 40 = 90; 5-0: F1 50 + F3 20 + F5 30 + F7 20 + F9 20 =
    #   140: 290 in all
    # half dividend (ruling 4): 10 x floor(290/20) = 140 to shares, 14 a share: P0 40% -> 56 (IPO 50% pays nobody); the
    #   pool's 10% pays 14 to JR; the treasury keeps 290-140 = 150; price right 250 -> 275
    s = play(s, PASS, PASS, run("3-3: F13-G12", "4-0: F9-F11 F11-G12", "5-0: F1-F3 F3-F5 F5-F7 F7-F9"), DIV["half"])
    check(
        s, [1250, 906], "4", Hanshin=(250, 175, ["3-1", "4-1"]), Hankyu=(155, 110, ["3-2", "4-2"]),
        JR=(1041, 275, ["3-3", "4-0", "5-0"]))

    # ---- OR 7.1 Hanshin
    # Hanshin runs 3-1: F5 30 + F7 20 + F9 20 = 70; 4-1: F13 20 + G12 40 + F11 30 + F9 20 = 110: 180 in all
    #   pays out 180: 18 a share: P1 60% -> 108; the IPO's 40% pays nobody; price right 175 -> 200
    s = play(s, PASS, PASS, run("3-1: F5-F7 F7-F9", "4-1: F13-G12 G12-F11 F11-F9"), DIV["payout"])
    check(
        s, [1250, 1014], "4", Hanshin=(250, 200, ["3-1", "4-1"]), Hankyu=(155, 110, ["3-2", "4-2"]),
        JR=(1041, 275, ["3-3", "4-0", "5-0"]))

    # ---- OR 7.1 Hankyu
    # Hankyu runs 3-2: E10 20 + E12 20 = 40
    #   pays out 40: 4 a share: P0 20% -> 8, P1 30% -> 12; the IPO's 50% pays nobody; price right 110 -> 125
    # OR 7.2 begins; order JR, Hanshin, Hankyu; privates pay P0 +8, P1 +12
    s = play(s, PASS, PASS, run("3-2: E10-E12"), DIV["payout"])
    check(
        s, [1258, 1026], "4", Hanshin=(250, 200, ["3-1", "4-1"]), Hankyu=(155, 125, ["3-2", "4-2"]),
        JR=(1041, 275, ["3-3", "4-0", "5-0"]))

    # ---- OR 7.2 JR
    # JR runs 3-3: F13 20 + G12 40 = 60; 4-0: F9 20 + F11 30 + G12 40 = 90; 5-0: F1 50 + F3 20 + F5 30 + F7 20 + F9 20 =
    #   140: 290 in all
    # half dividend (ruling 4): 10 x floor(290/20) = 140 to shares, 14 a share: P0 40% -> 56 (IPO 50% pays nobody); the
    #   pool's 10% pays 14 to JR; the treasury keeps 290-140 = 150; price right 275 -> 300
    s = play(s, PASS, PASS, run("3-3: F13-G12", "4-0: F9-F11 F11-G12", "5-0: F1-F3 F3-F5 F5-F7 F7-F9"), DIV["half"])
    check(
        s, [1314, 1026], "4", Hanshin=(250, 200, ["3-1", "4-1"]), Hankyu=(155, 125, ["3-2", "4-2"]),
        JR=(1205, 300, ["3-3", "4-0", "5-0"]))

    # ---- OR 7.2 Hanshin
    # Hanshin runs 3-1: F5 30 + F7 20 + F9 20 = 70; 4-1: F13 20 + G12 40 + F11 30 + F9 20 = 110: 180 in all
    #   pays out 180: 18 a share: P1 60% -> 108; the IPO's 40% pays nobody; price right 200 -> 225
    s = play(s, PASS, PASS, run("3-1: F5-F7 F7-F9", "4-1: F13-G12 G12-F11 F11-F9"), DIV["payout"])
    check(
        s, [1314, 1134], "4", Hanshin=(250, 225, ["3-1", "4-1"]), Hankyu=(155, 125, ["3-2", "4-2"]),
        JR=(1205, 300, ["3-3", "4-0", "5-0"]))

    # ---- OR 7.2 Hankyu
    # Hankyu runs 3-2: E10 20 + E12 20 = 40
    #   pays out 40: 4 a share: P0 20% -> 8, P1 30% -> 12; the IPO's 50% pays nobody; price right 125 -> 150
    # OR 7.3 begins; order JR, Hanshin, Hankyu; privates pay P0 +8, P1 +12
    s = play(s, PASS, PASS, run("3-2: E10-E12"), DIV["payout"])
    check(
        s, [1322, 1146], "4", Hanshin=(250, 225, ["3-1", "4-1"]), Hankyu=(155, 150, ["3-2", "4-2"]),
        JR=(1205, 300, ["3-3", "4-0", "5-0"]))

    # ---- OR 7.3 JR
    # JR runs 3-3: F13 20 + G12 40 = 60; 4-0: F9 20 + F11 30 + G12 40 = 90; 5-0: F1 50 + F3 20 + F5 30 + F7 20 + F9 20 =
    #   140: 290 in all
    # half dividend (ruling 4): 10 x floor(290/20) = 140 to shares, 14 a share: P0 40% -> 56 (IPO 50% pays nobody); the
    #   pool's 10% pays 14 to JR; the treasury keeps 290-140 = 150; price right 300 -> 325
    s = play(s, PASS, PASS, run("3-3: F13-G12", "4-0: F9-F11 F11-G12", "5-0: F1-F3 F3-F5 F5-F7 F7-F9"), DIV["half"])
    check(
        s, [1378, 1146], "4", Hanshin=(250, 225, ["3-1", "4-1"]), Hankyu=(155, 150, ["3-2", "4-2"]),
        JR=(1369, 325, ["3-3", "4-0", "5-0"]))

    # ---- OR 7.3 Hanshin
    # Hanshin runs 3-1: F5 30 + F7 20 + F9 20 = 70; 4-1: F13 20 + G12 40 + F11 30 + F9 20 = 110: 180 in all
    #   pays out 180: 18 a share: P1 60% -> 108; the IPO's 40% pays nobody; price right 225 -> 250
    s = play(s, PASS, PASS, run("3-1: F5-F7 F7-F9", "4-1: F13-G12 G12-F11 F11-F9"), DIV["payout"])
    check(
        s, [1378, 1254], "4", Hanshin=(250, 250, ["3-1", "4-1"]), Hankyu=(155, 150, ["3-2", "4-2"]),
        JR=(1369, 325, ["3-3", "4-0", "5-0"]))

    # ---- OR 7.3 Hankyu
    # Hankyu runs 3-2: E10 20 + E12 20 = 40
    #   pays out 40: 4 a share: P0 20% -> 8, P1 30% -> 12; the IPO's 50% pays nobody; price right 150 -> 175
    # stock round 8
    s = play(s, PASS, PASS, run("3-2: E10-E12"), DIV["payout"])
    check(
        s, [1386, 1266], "4", Hanshin=(250, 250, ["3-1", "4-1"]), Hankyu=(155, 175, ["3-2", "4-2"]),
        JR=(1369, 325, ["3-3", "4-0", "5-0"]))

    # ---- stock round 8 (seat 1 first)
    # OR 8.1 begins; order JR, Hanshin, Hankyu
    s = play(s, PASS, PASS)
    check(
        s, [1386, 1266], "4", Hanshin=(250, 250, ["3-1", "4-1"]), Hankyu=(155, 175, ["3-2", "4-2"]),
        JR=(1369, 325, ["3-3", "4-0", "5-0"]))

    # ---- OR 8.1 JR
    # JR runs 3-3: F13 20 + G12 40 = 60; 4-0: F9 20 + F11 30 + G12 40 = 90; 5-0: F1 50 + F3 20 + F5 30 + F7 20 + F9 20 =
    #   140: 290 in all
    # half dividend (ruling 4): 10 x floor(290/20) = 140 to shares, 14 a share: P0 40% -> 56 (IPO 50% pays nobody); the
    #   pool's 10% pays 14 to JR; the treasury keeps 290-140 = 150; price right 325 -> 350
    s = play(s, PASS, PASS, run("3-3: F13-G12", "4-0: F9-F11 F11-G12", "5-0: F1-F3 F3-F5 F5-F7 F7-F9"), DIV["half"])
    check(
        s, [1442, 1266], "4", Hanshin=(250, 250, ["3-1", "4-1"]), Hankyu=(155, 175, ["3-2", "4-2"]),
        JR=(1533, 350, ["3-3", "4-0", "5-0"]))

    # ---- OR 8.1 Hanshin
    # Hanshin runs 3-1: F5 30 + F7 20 + F9 20 = 70; 4-1: F13 20 + G12 40 + F11 30 + F9 20 = 110: 180 in all
    #   pays out 180: 18 a share: P1 60% -> 108; the IPO's 40% pays nobody; price right 250 -> 275
    s = play(s, PASS, PASS, run("3-1: F5-F7 F7-F9", "4-1: F13-G12 G12-F11 F11-F9"), DIV["payout"])
    check(
        s, [1442, 1374], "4", Hanshin=(250, 275, ["3-1", "4-1"]), Hankyu=(155, 175, ["3-2", "4-2"]),
        JR=(1533, 350, ["3-3", "4-0", "5-0"]))

    # ---- OR 8.1 Hankyu
    # Hankyu runs 3-2: E10 20 + E12 20 = 40
    #   pays out 40: 4 a share: P0 20% -> 8, P1 30% -> 12; the IPO's 50% pays nobody; price right 175 -> 200
    # OR 8.2 begins; order JR, Hanshin, Hankyu; privates pay P0 +8, P1 +12
    s = play(s, PASS, PASS, run("3-2: E10-E12"), DIV["payout"])
    check(
        s, [1450, 1386], "4", Hanshin=(250, 275, ["3-1", "4-1"]), Hankyu=(155, 200, ["3-2", "4-2"]),
        JR=(1533, 350, ["3-3", "4-0", "5-0"]))

    # ---- OR 8.2 JR
    # JR runs 3-3: F13 20 + G12 40 = 60; 4-0: F9 20 + F11 30 + G12 40 = 90; 5-0: F1 50 + F3 20 + F5 30 + F7 20 + F9 20 =
    #   140: 290 in all
    # half dividend (ruling 4): 10 x floor(290/20) = 140 to shares, 14 a share: P0 40% -> 56 (IPO 50% pays nobody); the
    #   pool's 10% pays 14 to JR; the treasury keeps 290-140 = 150; price right 350 -> 375
    s = play(s, PASS, PASS, run("3-3: F13-G12", "4-0: F9-F11 F11-G12", "5-0: F1-F3 F3-F5 F5-F7 F7-F9"), DIV["half"])
    check(
        s, [1506, 1386], "4", Hanshin=(250, 275, ["3-1", "4-1"]), Hankyu=(155, 200, ["3-2", "4-2"]),
        JR=(1697, 375, ["3-3", "4-0", "5-0"]))

    # ---- OR 8.2 Hanshin
    # Hanshin runs 3-1: F5 30 + F7 20 + F9 20 = 70; 4-1: F13 20 + G12 40 + F11 30 + F9 20 = 110: 180 in all
    #   pays out 180: 18 a share: P1 60% -> 108; the IPO's 40% pays nobody; price right 275 -> 300
    s = play(s, PASS, PASS, run("3-1: F5-F7 F7-F9", "4-1: F13-G12 G12-F11 F11-F9"), DIV["payout"])
    check(
        s, [1506, 1494], "4", Hanshin=(250, 300, ["3-1", "4-1"]), Hankyu=(155, 200, ["3-2", "4-2"]),
        JR=(1697, 375, ["3-3", "4-0", "5-0"]))

    # ---- OR 8.2 Hankyu
    # Hankyu runs 3-2: E10 20 + E12 20 = 40
    #   pays out 40: 4 a share: P0 20% -> 8, P1 30% -> 12; the IPO's 50% pays nobody; price right 200 -> 225
    # OR 8.3 begins; order JR, Hanshin, Hankyu; privates pay P0 +8, P1 +12
    s = play(s, PASS, PASS, run("3-2: E10-E12"), DIV["payout"])
    check(
        s, [1514, 1506], "4", Hanshin=(250, 300, ["3-1", "4-1"]), Hankyu=(155, 225, ["3-2", "4-2"]),
        JR=(1697, 375, ["3-3", "4-0", "5-0"]))

    # ---- OR 8.3 JR
    # JR runs 3-3: F13 20 + G12 40 = 60; 4-0: F9 20 + F11 30 + G12 40 = 90; 5-0: F1 50 + F3 20 + F5 30 + F7 20 + F9 20 =
    #   140: 290 in all
    # half dividend (ruling 4): 10 x floor(290/20) = 140 to shares, 14 a share: P0 40% -> 56 (IPO 50% pays nobody); the
    #   pool's 10% pays 14 to JR; the treasury keeps 290-140 = 150; price right 375 -> 400
    s = play(s, PASS, PASS, run("3-3: F13-G12", "4-0: F9-F11 F11-G12", "5-0: F1-F3 F3-F5 F5-F7 F7-F9"), DIV["half"])
    check(
        s, [1570, 1506], "4", Hanshin=(250, 300, ["3-1", "4-1"]), Hankyu=(155, 225, ["3-2", "4-2"]),
        JR=(1861, 400, ["3-3", "4-0", "5-0"]))

    # ---- OR 8.3 Hanshin
    # Hanshin runs 3-1: F5 30 + F7 20 + F9 20 = 70; 4-1: F13 20 + G12 40 + F11 30 + F9 20 = 110: 180 in all
    #   pays out 180: 18 a share: P1 60% -> 108; the IPO's 40% pays nobody; price right 300 -> 325
    s = play(s, PASS, PASS, run("3-1: F5-F7 F7-F9", "4-1: F13-G12 G12-F11 F11-F9"), DIV["payout"])
    check(
        s, [1570, 1614], "4", Hanshin=(250, 325, ["3-1", "4-1"]), Hankyu=(155, 225, ["3-2", "4-2"]),
        JR=(1861, 400, ["3-3", "4-0", "5-0"]))

    # ---- OR 8.3 Hankyu
    # Hankyu runs 3-2: E10 20 + E12 20 = 40
    #   pays out 40: 4 a share: P0 20% -> 8, P1 30% -> 12; the IPO's 50% pays nobody; price right 225 -> 250
    # stock round 9
    s = play(s, PASS, PASS, run("3-2: E10-E12"), DIV["payout"])
    check(
        s, [1578, 1626], "4", Hanshin=(250, 325, ["3-1", "4-1"]), Hankyu=(155, 250, ["3-2", "4-2"]),
        JR=(1861, 400, ["3-3", "4-0", "5-0"]))

    # ---- stock round 9 (seat 1 first)
    # OR 9.1 begins; order JR, Hanshin, Hankyu
    s = play(s, PASS, PASS)
    check(
        s, [1578, 1626], "4", Hanshin=(250, 325, ["3-1", "4-1"]), Hankyu=(155, 250, ["3-2", "4-2"]),
        JR=(1861, 400, ["3-3", "4-0", "5-0"]))

    # ---- OR 9.1 JR
    # JR runs 3-3: F13 20 + G12 40 = 60; 4-0: F9 20 + F11 30 + G12 40 = 90; 5-0: F1 50 + F3 20 + F5 30 + F7 20 + F9 20 =
    #   140: 290 in all
    # half dividend (ruling 4): 10 x floor(290/20) = 140 to shares, 14 a share: P0 40% -> 56 (IPO 50% pays nobody); the
    #   pool's 10% pays 14 to JR; the treasury keeps 290-140 = 150; price right 400 -> 400
    s = play(s, PASS, PASS, run("3-3: F13-G12", "4-0: F9-F11 F11-G12", "5-0: F1-F3 F3-F5 F5-F7 F7-F9"), DIV["half"])
    check(
        s, [1634, 1626], "4", Hanshin=(250, 325, ["3-1", "4-1"]), Hankyu=(155, 250, ["3-2", "4-2"]),
        JR=(2025, 400, ["3-3", "4-0", "5-0"]))

    # ---- OR 9.1 Hanshin
    # Hanshin runs 3-1: F5 30 + F7 20 + F9 20 = 70; 4-1: F13 20 + G12 40 + F11 30 + F9 20 = 110: 180 in all
    #   pays out 180: 18 a share: P1 60% -> 108; the IPO's 40% pays nobody; price right 325 -> 350
    s = play(s, PASS, PASS, run("3-1: F5-F7 F7-F9", "4-1: F13-G12 G12-F11 F11-F9"), DIV["payout"])
    check(
        s, [1634, 1734], "4", Hanshin=(250, 350, ["3-1", "4-1"]), Hankyu=(155, 250, ["3-2", "4-2"]),
        JR=(2025, 400, ["3-3", "4-0", "5-0"]))

    # ---- OR 9.1 Hankyu
    # Hankyu runs 3-2: E10 20 + E12 20 = 40
    #   pays out 40: 4 a share: P0 20% -> 8, P1 30% -> 12; the IPO's 50% pays nobody; price right 250 -> 275
    # OR 9.2 begins; order JR, Hanshin, Hankyu; privates pay P0 +8, P1 +12
    s = play(s, PASS, PASS, run("3-2: E10-E12"), DIV["payout"])
    check(
        s, [1642, 1746], "4", Hanshin=(250, 350, ["3-1", "4-1"]), Hankyu=(155, 275, ["3-2", "4-2"]),
        JR=(2025, 400, ["3-3", "4-0", "5-0"]))

    # ---- OR 9.2 JR
    # JR runs 3-3: F13 20 + G12 40 = 60; 4-0: F9 20 + F11 30 + G12 40 = 90; 5-0: F1 50 + F3 20 + F5 30 + F7 20 + F9 20 =
    #   140: 290 in all
    # half dividend (ruling 4): 10 x floor(290/20) = 140 to shares, 14 a share: P0 40% -> 56 (IPO 50% pays nobody); the
    #   pool's 10% pays 14 to JR; the treasury keeps 290-140 = 150; price right 400 -> 400
    s = play(s, PASS, PASS, run("3-3: F13-G12", "4-0: F9-F11 F11-G12", "5-0: F1-F3 F3-F5 F5-F7 F7-F9"), DIV["half"])
    check(
        s, [1698, 1746], "4", Hanshin=(250, 350, ["3-1", "4-1"]), Hankyu=(155, 275, ["3-2", "4-2"]),
        JR=(2189, 400, ["3-3", "4-0", "5-0"]))

    # ---- OR 9.2 Hanshin
    # Hanshin runs 3-1: F5 30 + F7 20 + F9 20 = 70; 4-1: F13 20 + G12 40 + F11 30 + F9 20 = 110: 180 in all
    #   pays out 180: 18 a share: P1 60% -> 108; the IPO's 40% pays nobody; price right 350 -> 375
    s = play(s, PASS, PASS, run("3-1: F5-F7 F7-F9", "4-1: F13-G12 G12-F11 F11-F9"), DIV["payout"])
    check(
        s, [1698, 1854], "4", Hanshin=(250, 375, ["3-1", "4-1"]), Hankyu=(155, 275, ["3-2", "4-2"]),
        JR=(2189, 400, ["3-3", "4-0", "5-0"]))

    # ---- OR 9.2 Hankyu
    # Hankyu runs 3-2: E10 20 + E12 20 = 40
    #   pays out 40: 4 a share: P0 20% -> 8, P1 30% -> 12; the IPO's 50% pays nobody; price right 275 -> 300
    # OR 9.3 begins; order JR, Hanshin, Hankyu; privates pay P0 +8, P1 +12
    s = play(s, PASS, PASS, run("3-2: E10-E12"), DIV["payout"])
    check(
        s, [1706, 1866], "4", Hanshin=(250, 375, ["3-1", "4-1"]), Hankyu=(155, 300, ["3-2", "4-2"]),
        JR=(2189, 400, ["3-3", "4-0", "5-0"]))

    # ---- OR 9.3 JR
    # JR runs 3-3: F13 20 + G12 40 = 60; 4-0: F9 20 + F11 30 + G12 40 = 90; 5-0: F1 50 + F3 20 + F5 30 + F7 20 + F9 20 =
    #   140: 290 in all
    # half dividend (ruling 4): 10 x floor(290/20) = 140 to shares, 14 a share: P0 40% -> 56 (IPO 50% pays nobody); the
    #   pool's 10% pays 14 to JR; the treasury keeps 290-140 = 150; price right 400 -> 400
    s = play(s, PASS, PASS, run("3-3: F13-G12", "4-0: F9-F11 F11-G12", "5-0: F1-F3 F3-F5 F5-F7 F7-F9"), DIV["half"])
    check(
        s, [1762, 1866], "4", Hanshin=(250, 375, ["3-1", "4-1"]), Hankyu=(155, 300, ["3-2", "4-2"]),
        JR=(2353, 400, ["3-3", "4-0", "5-0"]))

    # ---- OR 9.3 Hanshin
    # Hanshin runs 3-1: F5 30 + F7 20 + F9 20 = 70; 4-1: F13 20 + G12 40 + F11 30 + F9 20 = 110: 180 in all
    #   pays out 180: 18 a share: P1 60% -> 108; the IPO's 40% pays nobody; price right 375 -> 400
    s = play(s, PASS, PASS, run("3-1: F5-F7 F7-F9", "4-1: F13-G12 G12-F11 F11-F9"), DIV["payout"])
    check(
        s, [1762, 1974], "4", Hanshin=(250, 400, ["3-1", "4-1"]), Hankyu=(155, 300, ["3-2", "4-2"]),
        JR=(2353, 400, ["3-3", "4-0", "5-0"]))

    # ---- OR 9.3 Hankyu
    # Hankyu runs 3-2: E10 20 + E12 20 = 40
    #   pays out 40: 4 a share: P0 20% -> 8, P1 30% -> 12; the IPO's 50% pays nobody; price right 300 -> 325
    s = play(s, PASS, PASS, run("3-2: E10-E12"), DIV["payout"])
    check(
        s, [1770, 1986], "4", Hanshin=(250, 400, ["3-1", "4-1"]), Hankyu=(155, 325, ["3-2", "4-2"]),
        JR=(2353, 400, ["3-3", "4-0", "5-0"]))

    # ---- the end: the bank broke in OR 9.2 (JR's dividend; -514 at the end, the bank pays on credit), so the game ends
    #   after that turn's ORs
    # P0: cash 1770 + Hankyu 20% x 325 = 650 + JR 40% x 400 = 1600 = 4020
    # P1: cash 1986 + Hanshin 60% x 400 = 2400 + Hankyu 30% x 325 = 975 = 5361
    assert s["over"] == "bank" and ENGINE.scores(s) == [4020, 5361]
