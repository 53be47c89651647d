"""1890 (Kansai), the full map (scenario C, option scenario=full) with two players, scripted from the initial stock
round to phase 4 and worked BY HAND: every figure in the comments was computed from the rules and the map, not read
off the engine, and each step asserts the engine agrees (each run's revenue as it is earned; after each company's
turn or round the players' cash, every open company's treasury, price cell and trains); money is conserved after
every single move.

The game: P0 buys Osaka Municipal Electric (the Subway's president), Osaka Electric Railroad (Kinki's par) and Nara
Electric, starts Keihan and floats the Subway; P1 wins Hankai in an auction, starts JR and owns Kanan, Osaka Railway
and Kobe Electric. Game turn 2: P1 buys the late private Keifuku (Keihan then receives 40 each round with its token in
Kyoto), P0 buys Kobe Tramway from P1; Osaka Electric converts into Kinki (Osaka Railway merges at once, Kanan waits),
the first 4-train forces Kanan in (phase 3); in game turn 3 Kobe Electric becomes a late private, the first 5-train
starts phase 4 (the privates close but Hankai, the trains over the new limits are discarded) and Nara Electric
merges; in game turn 4 the Subway runs through Osaka Higashi, brown and full of others' tokens (subway service).

How the figures are worked (English translation by Chee Sing Lee and John Harres, CC BY 4.0; docs/rules/1890.md):
- Revenue (rules §"Revenue from Operations"): the values of the stops on each route, summed. Map values used:
  Osaka Kita G12 40 (yellow), 50 (green #823); Osaka Higashi H13 40 (yellow), 50 (green #824), 80 (brown #834);
  Osaka Minami I12 40; Osaka Nishi H11 30; Kobe F5 30; Kyoto B17 40 each city; Nara H19 40 each city; Kashiwara
  J15 20; Hirakata E16 20; Tanigami D5 20; yellow city tiles #57 and #6 20; Amagasaki #202 30; green #210 (two
  cities) and #206 30; towns 10; Himeji F1 40 in phases 1-3 (left value), 50 in phase 4 (middle value).
- Public dividend (§"Public company dividends"): revenue / 10 a share; the IPO's shares pay the bank (nobody),
  the pool's pay the company; the price moves right. Withholding (or no revenue) moves it left
  (§"Moving stock price tokens"). JR pays half (ruling 4): 10 x floor(R / 20) to the shares, the rest to its
  treasury, and moves right.
- Minors (§"Minor company dividends", ruling 14): half (rounded down) to the owner, the rest to the treasury.
- Market rows (row 0 at the top; cell "price,row,column"); in one cell the token that came first is on top (JA 10.8):
    row 0: 70 75 80 90 100 110 125 150 175 200 ...   row 2: 60 65 70 75 80 90 100 110 125 ...
    row 5: 45 50 55 60 65 70 75 80 90 100
- Privates pay at the start of each operating round (§"Private companies"): Arima 5, Kobe Tramway 10, Hankai 15
  (5 from phase 4), Hanshin Tramway 20, Keishin 25, Osaka Municipal Electric 40; late private Keifuku 40.
- Trains: 2 80, 2+2 120, 3 180, 3+3 230, 4 300, 5 450; limits minor/public/JR 2/4/6, 1/3/4 in phase 3, 1/2/3 from
  phase 4 (ruling 5).
1890 has no chance draws (rules §"1890 is a multiplayer game": only the seating is random, and the seats are given
here); the Hanshin Tigers die is a variant this game does not play.
"""
from __future__ import annotations

from engines.e18xx.g1890 import abilities
from engines.e18xx.route import route_from_connections, route_problem
from engines.e18xx.state import G, total_money
from tests.test_e18xx_1890 import ENGINE, PASS, bid, new

BANK = 12000


def acting(state: dict) -> int:
    aw = ENGINE.awaiting(state)
    return min(aw.deciding) if aw.deciding else min(aw.seats)


def play(state: dict, *moves: dict) -> dict:
    """Apply each move for the seat awaited; a run carries the revenue worked by hand, checked as it is earned; money
    is conserved after every move (the bank's 12,000 only moves)."""
    for move in moves:
        expect = move.get("expect")
        move = {k: v for k, v in move.items() if k != "expect"}
        before = state["event_no"]
        state = ENGINE.apply(state, acting(state), move)
        assert total_money(state) == BANK
        if expect is not None:
            earned = [e["values"]["revenue"]["$money"] for e in state["events"]
                      if e["no"] > before and e["text"] == "{corp}'s trains earn {revenue}."]
            assert earned == [expect], (move, earned)
    return state


def par(corp: str, cell: str) -> dict:
    return {"type": "par", "corporation": corp, "share_price": cell}


def buy(cert: str) -> dict:
    return {"type": "buy_shares", "shares": [cert], "percent": 10}


def lay(coord: str, tile: str, rotation: int) -> dict:
    return {"type": "lay_tile", "hex": coord, "tile": tile, "rotation": rotation}


def token(coord: str, city: int) -> dict:
    return {"type": "place_token", "hex": coord, "city": city}


def train(train_id: str, price: int) -> dict:
    return {"type": "buy_train", "train": train_id, "price": price}


def run(revenue: int, *routes: str) -> dict:
    """run(60, "2-0: J15-I12"): each train and its chains of hexes, stop to stop; `revenue` worked by hand."""
    out = []
    for route in routes:
        name, _, chains = route.partition(": ")
        out.append({"train": name, "connections": [chain.split("-") for chain in chains.split()]})
    return {"type": "run_routes", "routes": out, "expect": revenue}


def offer(company: str, price: int) -> dict:
    return {"type": "buy_company", "company": company, "price": price}


ACCEPT = {"type": "accept_offer"}
PAYOUT = {"type": "dividend", "kind": "payout"}
HALF = {"type": "dividend", "kind": "half"}
WITHHOLD = {"type": "dividend", "kind": "withhold"}


def check(state: dict, cash: list[int], phase: str, **corps: tuple) -> None:
    """Players' cash, the phase, and each open company's (treasury, price cell or None for a minor, trains); no
    other company is open."""
    g = G(state)
    assert state["cash"] == cash, state["cash"]
    assert state["depot"]["phase"] == phase
    open_ = {c for c, v in state["corps"].items() if v.get("floated") and not v.get("closed")}
    assert open_ == set(corps), open_
    for cid, (treasury, cell, trains) in corps.items():
        got = g.cell(cid).id if g.cell(cid) is not None and g.cdef(cid).kind != "minor" else None
        assert (g.corp(cid)["cash"], got, g.corp(cid)["trains"]) == (treasury, cell, trains), (
            cid, g.corp(cid)["cash"], got, g.corp(cid)["trains"])


def test_full_map_scripted_to_phase_4():
    s = new("full", 2)
    # ---- game turn 1, initial stock round (rules §"Initial stock round"; each seat starts with 1,260, ruling 1)
    # P0 buys Arima 20 (1240). P1 bids 75 on Hankai (70 + 5), P0 bids 80. P1 buys Kobe Tramway 40 (1220): Hankai
    # has two bids, so it is auctioned, opened by the first bidder after the best (P0's 80): P1 raises to 85, P0
    # drops out, P1 buys Hankai for 85 (1135). The card goes to the player after P1 (whose purchase set it off).
    s = play(s, bid("Arima", 20), bid("Hankai", 75), bid("Hankai", 80), bid("KobeTram", 40), bid("Hankai", 85), PASS)
    assert s["privates"]["Hankai"]["owner"] == "1" and s["cash"] == [1240, 1135]
    # P0 Hanshin Tramway 110 (+ a Hanshin share) -> 1130; P1 Keishin 160 (+ a Keihan share) -> 975; P0 Osaka
    # Municipal Electric 220 -> 910, taking the Subway's president's certificate and setting its par at 65 (C8.1);
    # P1 Kanan 100 -> 875; P0 Osaka Electric Railroad 200 -> 710, setting Kinki's par at 80 (C8.3); P1 Osaka Railway
    # 100 -> 775; P0 Nara Electric 160 -> 550; P1 Kobe Electric 100 -> 675. Minors start with their fixed capital
    # from the bank: Kanan 100, Osaka Electric 200, Osaka Railway 100, Nara Electric 320, Kobe Electric 200.
    s = play(s, bid("HanshinTram", 110), bid("Keishin", 160), bid("OsakaTram", 220), par("Subway", "65,5,4"),
             bid("Kanan", 100), bid("Daiki", 200), par("Kinki", "80,2,4"), bid("Daitetsu", 100), bid("NaraElec", 160),
             bid("KobeElec", 100))
    minors = dict(Kanan=(100, None, []), Daiki=(200, None, []), Daitetsu=(100, None, []), NaraElec=(320, None, []),
                  KobeElec=(200, None, []))
    check(s, [550, 675], "1", **minors)
    assert s["round"]["kind"] == "stock" and acting(s) == 0

    # ---- stock round 1 (everything sold: a regular stock round; no selling in game turn 1)
    # P0 Subway shares at par 65: 3 x 65 = 195 (355); P1 starts JR at 100: 200 for the president's certificate and
    # 3 x 100 (175); P0 starts Keihan at 65: 130 and two shares 130 (95). Floats at 50% out of the IPO (§"Starting
    # public companies"): Subway (20% + 30%) gets 10 x 65 = 650; JR (20% + 30%) 1000; Keihan (20% + 20% + Keishin's
    # 10% with P1) 650.
    # OR 1.1 begins: privates pay P0 Arima 5 + Hanshin Tramway 20 + Osaka Municipal Electric 40 = 65 (160), P1 Kobe
    # Tramway 10 + Hankai 15 + Keishin 25 = 50 (225).
    s = play(s, buy("Subway_1"), par("JR", "100,0,4"), buy("Subway_2"), buy("JR_1"), buy("Subway_3"), buy("JR_2"),
             par("Keihan", "65,5,4"), buy("JR_3"), buy("Keihan_2"), PASS, buy("Keihan_3"), PASS, PASS)
    publics = dict(JR=(1000, "100,0,4", []), Subway=(650, "65,5,4", []), Keihan=(650, "65,5,4", []))
    check(s, [160, 225], "1", **minors, **publics)
    # minors by number, then publics by price: JR 100, then Subway and Keihan in one cell, Subway's token on top
    assert s["round"]["order"] == ["Kanan", "Daiki", "Daitetsu", "NaraElec", "KobeElec", "JR", "Subway", "Keihan"]

    # ---- OR 1.1 (phase 1). Nobody owns a train before buying, so every company earns nothing this round.
    # Kanan lays #8 on J13 (plain, free): J15-J13-I12 is a route, so it must own a train (§"Train ownership
    # obligation"): it buys the 2-train 2-0 for 80 (100 -> 20).
    # Osaka Electric lays #57 on H15 (free): buys 2-1 and 2-2 (200 -> 40).
    # Osaka Railway has no token of its own: it runs from Osaka Electric's in Osaka Higashi (C8.3), so it has a route
    # too and buys 2-3 (100 -> 20).
    # Nara Electric lays #4 on I18 Koriyama (free), buys 2-4 and 2-5 (320 -> 160).
    # Kobe Electric lays #58 on D3 Miki (free), buys 2-6 (200 -> 120).
    s = play(s, lay("J13", "8", 2), train("2-0", 80), lay("H15", "57", 1), train("2-1", 80), train("2-2", 80), PASS,
             train("2-3", 80), PASS, lay("I18", "4", 0), train("2-4", 80), train("2-5", 80), lay("D3", "58", 4),
             train("2-6", 80), PASS)
    minors = dict(Kanan=(20, None, ["2-0"]), Daiki=(40, None, ["2-1", "2-2"]), Daitetsu=(20, None, ["2-3"]),
                  NaraElec=(160, None, ["2-4", "2-5"]), KobeElec=(120, None, ["2-6"]))
    check(s, [160, 225], "1", **minors, **publics)
    # JR lays two tiles (JR, phases 1-3): #57 on F3 Akashi and #57 on F7 Ashiya (both free), places no token.
    #   No train: no revenue, the price moves left: 100 (0,4) -> 90 (0,3).
    # JR buys 2-7, 2-8 (160), the three 2+2s (360; the first starts phase 1.5) and the first 3-train 3-0 (180):
    #   phase 2 (§"Game phases"). 1000 - 700 = 300; six trains, JR's limit in phase 2 (ruling 5).
    s = play(s, lay("F3", "57", 1), lay("F7", "57", 1), PASS, train("2-7", 80), train("2-8", 80),
             train("2+2-0", 120), train("2+2-1", 120), train("2+2-2", 120), train("3-0", 180), PASS)
    JR_TRAINS = ["2-7", "2-8", "2+2-0", "2+2-1", "2+2-2", "3-0"]
    check(s, [160, 225], "2", **minors, JR=(300, "90,0,3", JR_TRAINS), Subway=(650, "65,5,4", []),
          Keihan=(650, "65,5,4", []))
    # Subway, its first turn: Osaka Municipal Electric's block of the Osaka hexes has ended (ruling 20) and its
    #   tile in Osaka costs nothing: the green Osaka Kita #823 on G12 (cost 80 printed, paid 0); no train, no
    #   revenue: 65 (5,4) -> 60 (5,3). It buys 3-1 and 3-2 (650 - 360 = 290); with a train bought, Osaka Municipal
    #   Electric closes (C8.1).
    # Keihan lays #9 on D17 (free); no train: 65 -> 60 (5,3), below the Subway in that cell; buys 3-3 (470).
    s = play(s, lay("G12", "823", 1), train("3-1", 180), train("3-2", 180), PASS, PASS,
             lay("D17", "9", 0), train("3-3", 180), PASS, PASS)
    publics = dict(JR=(300, "90,0,3", JR_TRAINS), Subway=(290, "60,5,3", ["3-1", "3-2"]),
                   Keihan=(470, "60,5,3", ["3-3"]))
    check(s, [160, 225], "2", **minors, **publics)
    assert s["privates"]["OsakaTram"]["closed"] and s["round"]["kind"] == "stock" and s["round"]["turn"] == 2

    # ---- stock round 2 (P1 first: the card goes to the player after the last to act, P0)
    # P1 buys the late private Keifuku from the bank at its face value, 200 (ruling 21; game turn 2): 225 -> 25.
    # P0 offers 50 for P1's Kobe Tramway (ruling 25: between players, any price); P1 accepts: P0 110, P1 75.
    # OR 2.1 begins (phase 2: two operating rounds this game turn). Privates pay P0 Arima 5 + Hanshin Tramway 20 +
    # Kobe Tramway 10 = 35 (145; Osaka Municipal Electric has closed), P1 Hankai 15 + Keishin 25 + Keifuku 40 = 80
    # (155). Keihan has no token in Kyoto yet, so Keifuku gives it nothing.
    s = play(s, offer("Keifuku", 200), PASS, offer("KobeTram", 50), ACCEPT, PASS, PASS, PASS)
    assert s["privates"]["Keifuku"]["owner"] == "1" and s["privates"]["KobeTram"]["owner"] == "0"
    check(s, [145, 155], "2", **minors, **publics)

    # ---- OR 2.1
    # Kanan runs 2-0: J15 Kashiwara 20 + I12 Osaka Minami 40 = 60: P1 30 (185), Kanan 30 (20 -> 50).
    s = play(s, PASS, run(60, "2-0: J15-J13-I12"), PASS)
    # Osaka Electric converts into Kinki (C8.3: from phase 2). P0 takes Kinki's president's certificate (20%);
    #   Kinki floats with the minor's trains 2-1, 2-2, its token in Osaka Higashi and its 40, plus 4 x 80 = 320 from
    #   the bank: 360. Osaka Railway merges at once: P1 takes a 10% share (Kinki_5); Kinki takes 2-3 and 20: 380.
    #   P1 keeps Kanan a minor for now. Kinki operates at once, in the turn Osaka Electric had begun (ruling 16).
    s = play(s, {"type": "convert", "entity": "Daiki"}, {"type": "pass", "entity": "Kanan"})
    assert s["round"]["order"][s["round"]["index"]] == "Kinki" and G(s).corp("Kinki")["president"] == "0"
    assert G(s).percent("Kinki", "0") == 20 and G(s).percent("Kinki", "1") == 10
    # Kinki upgrades Osaka Higashi to the green #824 (80: 380 -> 300); runs 2-1: H13 50 + H15 20 = 70, 2-2: H13 50 +
    #   H11 Osaka Nishi 30 = 80 (2-3 has no route left): 150, withheld (300 -> 450); in its first turn its price
    #   does not fall: it stays at 80 (2,4) (C8.4). It buys the last 3-train 3-4 (450 -> 270): four trains, its limit.
    s = play(s, lay("H13", "824", 5), PASS, run(150, "2-1: H13-H15", "2-2: H13-H11"), WITHHOLD, train("3-4", 180),
             PASS)
    # Nara Electric runs 2-4: H19 Nara 40 + I18 Koriyama 10 = 50: P0 25 (170), Nara 25 (185).
    # Kobe Electric runs 2-6: D5 Tanigami 20 + D3 Miki 10 = 30: P1 15 (200), Kobe Electric 15 (135).
    s = play(s, PASS, run(50, "2-4: H19-I18"), PASS, run(30, "2-6: D5-D3"), PASS)
    # JR lays #202 on F11 Amagasaki and #57 on F13 Suita (free). It runs 3-0: F1 Himeji 40 + F3 20 + F5 Kobe 30 = 90;
    #   2-7: F5 30 + F7 20 = 50; 2-8: G12 50 + F11 30 = 80; 2+2-0: G12 50 + F13 20 = 70; 2+2-1: G12 50 + H11 Osaka
    #   Nishi 30 = 80 (2+2-2 has no route left): 370. Half (ruling 4): 10 x floor(370 / 20) = 180 to the shares, 18 a
    #   share: P1 50% -> 90 (290); the IPO's 50% pays nobody; JR keeps 370 - 180 = 190 (300 -> 490); price right
    #   90 -> 100 (0,4).
    s = play(s, lay("F11", "202", 5), lay("F13", "57", 0), PASS,
             run(370, "3-0: F1-F3 F3-F5", "2-7: F5-F7", "2-8: G12-F11", "2+2-0: G12-F13", "2+2-1: G12-H11"), HALF,
             PASS)
    # Subway runs 3-1: H11 30 + G12 50 + F11 30 = 110; 3-2: H11 30 + H13 50 + H15 20 = 100: 210, paid out: 21 a
    #   share, P0 50% -> 105 (275); price right 60 -> 65 (5,4). It buys the first 3+3, 3+3-0, for 230 (60): phase 2.5.
    s = play(s, PASS, run(210, "3-1: H11-G12 G12-F11", "3-2: H11-H13 H13-H15"), PAYOUT, train("3+3-0", 230), PASS,
             PASS)
    # Keihan lays #6 on C18 Fushimi (water, 80: 470 -> 390) and places a token in Kyoto's free city (40: 350). It
    #   runs 3-3: E16 Hirakata 20 + C18 20 + B17 Kyoto 40 = 80, paid out: 8 a share, P0 40% -> 32 (307), P1 10% ->
    #   8 (298); price right 60 -> 65 (5,4), under the Subway. It buys 3+3-1 for 230 (350 -> 120).
    s = play(s, lay("C18", "6", 0), token("B17", 2), run(80, "3-3: E16-D17-C18 C18-B17"), PAYOUT, train("3+3-1", 230))
    minors = dict(Kanan=(50, None, ["2-0"]), NaraElec=(185, None, ["2-4", "2-5"]), KobeElec=(135, None, ["2-6"]))
    publics = dict(JR=(490, "100,0,4", JR_TRAINS), Subway=(60, "65,5,4", ["3-1", "3-2", "3+3-0"]),
                   Keihan=(120, "65,5,4", ["3-3", "3+3-1"]), Kinki=(270, "80,2,4", ["2-1", "2-2", "2-3", "3-4"]))
    check(s, [307, 298], "2.5", **minors, **publics)

    # ---- OR 2.2 (phase 2.5). Keihan ends OR 2.1 (PASS, PASS). Privates pay P0 35 (342), P1 80 (378). Keifuku: Keihan
    # has a token in Kyoto now, so it also receives 40 (C8.2, ruling 23): 120 -> 160.
    # Order: Kanan, Nara Electric, Kobe Electric; JR 100, Kinki 80, Subway 65 (on top), Keihan 65.
    s = play(s, PASS, PASS)
    assert s["round"]["order"] == ["Kanan", "NaraElec", "KobeElec", "JR", "Kinki", "Subway", "Keihan"]
    check(s, [342, 378], "2.5", **minors, **{**publics, "Keihan": (160, "65,5,4", ["3-3", "3+3-1"])})
    # Kanan runs 60 again: P1 30 (408), Kanan 30 (80). Nara Electric runs 50: P0 25 (367), Nara 25 (210).
    # Kobe Electric runs 30: P1 15 (423), Kobe Electric 15 (150); it buys JR's 2-8 for 1 (one president, any
    #   price: §"Purchasing trains from ... other companies"): 149, JR 491.
    s = play(s, PASS, run(60, "2-0: J15-J13-I12"), PASS, PASS, run(50, "2-4: H19-I18"), PASS, run(30, "2-6: D5-D3"),
             train("2-8", 1))
    # JR runs 3-0: F1 40 + F3 20 + F5 30 = 90; 2-7: F5 30 + F7 20 = 50; 2+2-0: G12 50 + F11 30 = 80; 2+2-1: G12 50 +
    #   F13 20 = 70; 2+2-2: G12 50 + H11 30 = 80: 370. Half: 180 to the shares (P1 90: 513), JR keeps 190 (681);
    #   price 100 -> 110 (0,5). It buys the first 4-train, 4-0, for 300 (381): phase 3 (§"Game phases"):
    #   - every 2-train rusts (JR 2-7; Kinki 2-1, 2-2, 2-3; Kanan 2-0; Nara 2-4, 2-5; Kobe Electric 2-6, 2-8);
    #   - Kanan must merge into Kinki (C8.3): P1 takes a 10% share (Kinki_6); Kinki takes half Kanan's 80 rounded up,
    #     40 (270 -> 310), P1 the other 40 (553); Kanan's token in Kashiwara becomes Kinki's (ruling 17);
    #   - JR's limit is now 4: it holds five trains and discards 2+2-2 to the open market.
    s = play(s, PASS, PASS,
             run(370, "3-0: F1-F3 F3-F5", "2-7: F5-F7", "2+2-0: G12-F11", "2+2-1: G12-F13", "2+2-2: G12-H11"), HALF,
             train("4-0", 300), {"type": "discard_train", "entity": "JR", "train": "2+2-2"})
    assert s["corps"]["Kanan"]["closed"] and G(s).percent("Kinki", "1") == 20
    assert ("J15", 0) in G(s).board.token_nodes("Kinki") and s["depot"]["discards"] == ["2+2-2"]
    minors = dict(NaraElec=(210, None, []), KobeElec=(149, None, []))
    JR_TRAINS = ["2+2-0", "2+2-1", "3-0", "4-0"]
    check(s, [367, 553], "3", **minors, **{**publics, "JR": (381, "110,0,5", JR_TRAINS),
                                           "Kinki": (310, "80,2,4", ["3-4"]),
                                           "Keihan": (160, "65,5,4", ["3-3", "3+3-1"])})
    # Kinki upgrades Moriguchi G14 to the green #210 (two cities of 30, free); runs 3-4: H11 30 + H13 50 + G14 30 =
    #   110, withheld (420); price left 80 -> 75 (2,3). It buys 4-1 (120).
    # Subway runs 3-1: F11 30 + G12 50 + H11 30 = 110; 3-2: H11 30 + H13 50 + G14 30 = 110: 220, withheld (60 -> 280);
    #   price left 65 -> 60 (5,3). At its limit (3 in phase 3), it buys nothing.
    # Keihan lays #6 on F15 Neyagawa (free); runs 3-3: B17 40 + C18 20 + E16 20 = 80; 3+3-1: E16 20 + F15 20 = 40:
    #   120, withheld (160 -> 280); price left 65 -> 60 (5,3), under the Subway.
    s = play(s, PASS, lay("G14", "210", 0), PASS, run(110, "3-4: H11-H13 H13-G14"), WITHHOLD, train("4-1", 300), PASS,
             PASS, PASS, run(220, "3-1: H11-G12 G12-F11", "3-2: H11-H13 H13-G14"), WITHHOLD, PASS,
             lay("F15", "6", 3), PASS, run(120, "3-3: E16-D17-C18 C18-B17", "3+3-1: E16-F15"), WITHHOLD, PASS, PASS)
    publics = dict(JR=(381, "110,0,5", JR_TRAINS), Kinki=(120, "75,2,3", ["3-4", "4-1"]),
                   Subway=(280, "60,5,3", ["3-1", "3-2", "3+3-0"]), Keihan=(280, "60,5,3", ["3-3", "3+3-1"]))
    check(s, [367, 553], "3", **minors, **publics)
    assert s["round"]["kind"] == "stock" and s["round"]["turn"] == 3

    # ---- stock round 3 (P1 first). P1 buys the Kinki share Kinki_1 from the IPO at its par, 80 (553 -> 473): with
    # 30% against P0's 20% he takes the presidency, exchanging two shares for the president's certificate
    # (§"Change of president"). OR 3.1 begins (phase 3): privates pay P0 35 (402), P1 80 (553); Keihan 40 with
    # Keifuku (320).
    s = play(s, buy("Kinki_1"), PASS, PASS, PASS)
    assert s["corps"]["Kinki"]["president"] == "1" and G(s).percent("Kinki", "1") == 30
    assert s["round"]["order"] == ["NaraElec", "KobeElec", "JR", "Kinki", "Subway", "Keihan"]
    check(s, [402, 553], "3", **minors, **{**publics, "Keihan": (320, "60,5,3", ["3-3", "3+3-1"])})

    # ---- OR 3.1 (phase 3)
    # Nara Electric's 2-trains rusted and it has a route: it must own a train; it buys the Subway's 3+3-0 for 150
    #   (one president, P0: any price): Nara 210 -> 60, Subway 280 -> 430.
    # Kobe Electric (no train, a route) converts into a late private instead (C8.3): its 149 go to the bank, its
    #   token leaves Tanigami; P1 holds the late private Kobe Electric (face 0, not counted).
    s = play(s, PASS, train("3+3-0", 150), {"type": "convert", "entity": "KobeElec"})
    assert s["privates"]["KobeElecLate"]["owner"] == "1" and not G(s).board.token_nodes("KobeElec")
    # JR runs 4-0: F1 40 + F3 20 + F5 30 + F7 20 = 110; 3-0: F11 30 + G12 50 + H11 30 = 110; 2+2-0: G12 50 + F13 20 =
    #   70 (2+2-1 has no route left): 290. Half: 140 to the shares (P1 70: 623), JR keeps 150 (531); price
    #   110 -> 125 (0,6).
    # Kinki (P1 presides) runs 4-1: H11 30 + H13 50 + G14 30 = 110; 3-4: H13 50 + H15 20 = 70: 180, withheld
    #   (120 -> 300); price left 75 -> 70 (2,2). It buys 4-2 (0).
    s = play(s, PASS, PASS, run(290, "4-0: F1-F3 F3-F5 F5-F7", "3-0: F11-G12 G12-H11", "2+2-0: G12-F13"), HALF, PASS,
             PASS, PASS, run(180, "4-1: H11-H13 H13-G14", "3-4: H13-H15"), WITHHOLD, train("4-2", 300))
    # Subway runs 3-1: F11 30 + G12 50 + H11 30 = 110; 3-2: H11 30 + H13 50 + G14 30 = 110: 220, withheld
    #   (430 -> 650); price left 60 -> 55 (5,2). It buys the last 4-train 4-3 (350).
    # Keihan upgrades Neyagawa F15 to the green #206 (30, free); runs 3-3: B17 40 + C18 20 + E16 20 = 80; 3+3-1: E16
    #   20 + F15 30 + G14 30 = 80: 160, withheld (320 -> 480); price left 60 -> 55 (5,2), under the Subway. It buys
    #   the first 5-train 5-0 for 450 (30): phase 4 (§"Game phases"):
    #   - the 2+2s rust (JR's 2+2-0, 2+2-1 and 2+2-2 in the open market);
    #   - the privates close (Arima, Kobe Tramway, Hanshin Tramway, Keishin), except Hankai, which now pays 5
    #     (C8.1); the late private Keifuku stays;
    #   - limits 2 (public) and 1 (minor), JR 3: the Subway discards 3-1, Keihan 3-3, Kinki 3-4 to the open market.
    s = play(s, PASS, run(220, "3-1: F11-G12 G12-H11", "3-2: H11-H13 H13-G14"), WITHHOLD, train("4-3", 300), PASS,
             lay("F15", "206", 0), PASS, run(160, "3-3: E16-D17-C18 C18-B17", "3+3-1: E16-F15 F15-G14"), WITHHOLD,
             train("5-0", 450), {"type": "discard_train", "entity": "Subway", "train": "3-1"},
             {"type": "discard_train", "entity": "Keihan", "train": "3-3"},
             {"type": "discard_train", "entity": "Kinki", "train": "3-4"})
    privates = s["privates"]
    assert [p for p in ("Arima", "KobeTram", "HanshinTram", "Keishin") if privates[p]["closed"]] == [
        "Arima", "KobeTram", "HanshinTram", "Keishin"]
    assert not privates["Hankai"]["closed"] and privates["Hankai"]["revenue"] == 5
    assert not privates["Keifuku"]["closed"] and s["depot"]["discards"] == ["3-1", "3-3", "3-4"]
    minors = dict(NaraElec=(60, None, ["3+3-0"]))
    publics = dict(JR=(531, "125,0,6", ["3-0", "4-0"]), Kinki=(0, "70,2,2", ["4-1", "4-2"]),
                   Subway=(350, "55,5,2", ["3-2", "4-3"]), Keihan=(30, "55,5,2", ["3+3-1", "5-0"]))

    # ---- OR 3.2 (phase 4; this game turn keeps its two operating rounds). Keihan's turn ended OR 3.1 (P1 623).
    # Privates pay P1 Hankai 5 + Keifuku 40 = 45 (668), P0 nothing; Keihan 40 (70). Order: Nara Electric; JR 125,
    # Kinki 70, Subway 55 (on top), Keihan 55.
    assert s["round"]["order"] == ["NaraElec", "JR", "Kinki", "Subway", "Keihan"]
    check(s, [402, 668], "4", **minors, **{**publics, "Keihan": (70, "55,5,2", ["3+3-1", "5-0"])})
    # Nara Electric merges into Kinki (C8.3: from phase 4): P0 takes two shares (Kinki_7, Kinki_8), 40% against P1's
    #   30%, and the presidency back; Kinki takes Nara's 3+3-0, its 60 and its tokens in Kyoto and Nara (ruling 17),
    #   and, over its limit of 2, discards 3+3-0.
    s = play(s, {"type": "merge", "corporation": "Kinki", "entity": "NaraElec"},
             {"type": "discard_train", "entity": "Kinki", "train": "3+3-0"})
    assert s["corps"]["Kinki"]["president"] == "0" and G(s).percent("Kinki", "0") == 40
    assert {("B17", 1), ("H19", 0)} <= set(G(s).board.token_nodes("Kinki")) and s["corps"]["NaraElec"]["closed"]
    # JR (one lay from phase 4; none made) runs 4-0: F1 Himeji 50 (its middle value from phase 4) + F3 20 + F5 30 + F7
    #   20 = 120; 3-0: F11 30 + G12 50 + H11 30 = 110: 230. Half: 10 x 11 = 110 to the shares (P1 55: 723); JR keeps
    #   120 (651); price 125 -> 150 (0,7).
    # Kinki runs 4-1: H13 50 + G14 30 + F15 30 + E16 20 = 130; 4-2: H11 30 + H13 50 + H15 20 = 100: 230, paid out:
    #   23 a share, P0 40% -> 92 (494), P1 30% -> 69 (792); the IPO's 30% pays nobody; price 70 -> 75 (2,3).
    s = play(s, PASS, PASS, run(230, "4-0: F1-F3 F3-F5 F5-F7", "3-0: F11-G12 G12-H11"), HALF, PASS, PASS, PASS,
             run(230, "4-1: H13-G14 G14-F15 F15-E16", "4-2: H11-H13 H13-H15"), PAYOUT)
    # Subway runs 4-3: H11 30 + H13 50 + G14 30 + F15 30 = 140; 3-2: F11 30 + G12 50 + H11 30 = 110: 250, paid out:
    #   25 a share, P0 50% -> 125 (619); price 55 -> 60 (5,3).
    # Keihan runs 5-0: E16 20 + F15 30 + G14 30 + H13 50 + H11 30 = 160; 3+3-1: B17 40 + C18 20 + E16 20 = 80: 240,
    #   paid out: 24 a share, P0 40% -> 96 (715), P1 10% -> 24 (816); price 55 -> 60 (5,3), under the Subway.
    s = play(s, PASS, run(250, "4-3: H11-H13 H13-G14 G14-F15", "3-2: F11-G12 G12-H11"), PAYOUT, PASS,
             run(240, "5-0: E16-F15 F15-G14 G14-H13 H13-H11", "3+3-1: E16-D17-C18 C18-B17"), PAYOUT)
    publics = dict(JR=(651, "150,0,7", ["3-0", "4-0"]), Kinki=(60, "75,2,3", ["4-1", "4-2"]),
                   Subway=(350, "60,5,3", ["3-2", "4-3"]), Keihan=(70, "60,5,3", ["3+3-1", "5-0"]))
    check(s, [715, 816], "4", **publics)
    assert s["round"]["kind"] == "stock" and s["round"]["turn"] == 4

    # ---- stock round 4: both pass. OR 4.1 (phase 4: three operating rounds a game turn from now on). Privates pay P1
    # 45 (861); Keihan 40 (110).
    s = play(s, PASS, PASS)
    assert s["round"]["of"] == 3 and s["round"]["order"] == ["JR", "Kinki", "Subway", "Keihan"]
    check(s, [715, 861], "4", **{**publics, "Keihan": (110, "60,5,3", ["3+3-1", "5-0"])})
    # JR upgrades Osaka Higashi to the brown #834 (Osaka Higashi's printed 80: 651 -> 571), opening its side to Osaka
    #   Kita, and places its fifth token there (40: 531). It runs 4-0: F11 30 + G12 50 + H13 80 + H11 30 = 190; 3-0:
    #   F15 30 + G14 30 + H13 80 = 140: 330. Half: 10 x 16 = 160 to the shares (P1 80: 941); JR keeps 170 (701);
    #   price 150 -> 175 (0,8).
    # Kinki runs 4-1: H11 30 + H13 80 + G14 30 + F15 30 = 170; 4-2: H15 20 + H13 80 + G12 50 + F11 30 = 180: 350, paid
    #   out: 35 a share, P0 40% -> 140 (855), P1 30% -> 105 (1046); price 75 -> 80 (2,4).
    s = play(s, lay("H13", "834", 3), token("H13", 0), run(330, "4-0: F11-G12 G12-H13 H13-H11", "3-0: F15-G14 G14-H13"),
             HALF, PASS, PASS, PASS, run(350, "4-1: H11-H13 H13-G14 G14-F15", "4-2: H15-H13 H13-G12 G12-F11"), PAYOUT)
    # Subway runs 3-2: H11 30 + G12 50 + H13 80 = 160; 4-3: H11 30 + H13 80 + G14 30 + F15 30 = 170: 330, paid out:
    #   33 a share, P0 50% -> 165 (1020); price 60 -> 65 (5,4).
    # Keihan places its third token in Osaka Higashi (100: 110 -> 10), which is now full (Kinki, JR, Keihan). It runs
    #   5-0: F11 30 + G12 50 + H13 80 + G14 30 + F15 30 = 220; 3+3-1: H11 30 + H13 80 + H15 20 = 130: 350, paid out:
    #   35 a share, P0 40% -> 140 (1160), P1 10% -> 35 (1081); price 60 -> 65 (5,4), under the Subway.
    # OR 4.2 begins: P1 45 (1126); Keihan 40 (50).
    s = play(s, PASS, run(330, "3-2: H11-G12 G12-H13", "4-3: H11-H13 H13-G14 G14-F15"), PAYOUT, PASS, token("H13", 0),
             run(350, "5-0: F11-G12 G12-H13 H13-G14 G14-F15", "3+3-1: H11-H13 H13-H15"), PAYOUT)
    assert G(s).board.tokens["H13"] == (("Kinki", "JR", "Keihan"),)
    publics = dict(JR=(701, "175,0,8", ["3-0", "4-0"]), Kinki=(60, "80,2,4", ["4-1", "4-2"]),
                   Subway=(350, "65,5,4", ["3-2", "4-3"]), Keihan=(50, "65,5,4", ["3+3-1", "5-0"]))
    check(s, [1160, 1126], "4", **publics)

    # ---- OR 4.2. JR runs as before: 330; half: 160 to the shares (P1 80: 1206), JR keeps 170 (871); 175 -> 200 (0,9).
    # Kinki runs as before: 350, paid out: P0 140 (1300), P1 105 (1311); 80 -> 90 (2,5).
    s = play(s, PASS, PASS, run(330, "4-0: F11-G12 G12-H13 H13-H11", "3-0: F15-G14 G14-H13"), HALF, PASS, PASS, PASS,
             run(350, "4-1: H11-H13 H13-G14 G14-F15", "4-2: H15-H13 H13-G12 G12-F11"), PAYOUT, PASS)
    # Subway service (C8.4, ruling 20): Osaka Higashi is brown and full of other companies' tokens; any other company
    #   without a token there may not run through it, but from phase 4 the Subway ignores those tokens: 4-3 runs
    #   H11-H13-G14-F15 through it as in OR 4.1. 3-2: 160; 4-3: 170: 330, paid out: P0 165 (1465); 65 -> 70 (5,5).
    through = [["H11", "H13"], ["H13", "G14"], ["G14", "F15"]]
    g = G(s)
    seen_by_subway = abilities.route_board(g, "Subway")
    four = g.rules.train(g, "4-3")
    assert "full of other companies' tokens" in str(
        route_problem(g.board, "Subway", route_from_connections(seen_by_subway, through, corp="Subway"), four))
    assert route_problem(seen_by_subway, "Subway", route_from_connections(seen_by_subway, through, corp="Subway"),
                         four) is None
    s = play(s, run(330, "3-2: H11-G12 G12-H13", "4-3: H11-H13 H13-G14 G14-F15"), PAYOUT)
    publics = dict(JR=(871, "200,0,9", ["3-0", "4-0"]), Kinki=(60, "90,2,5", ["4-1", "4-2"]),
                   Subway=(350, "70,5,5", ["3-2", "4-3"]), Keihan=(50, "65,5,4", ["3+3-1", "5-0"]))
    check(s, [1465, 1311], "4", **publics)
