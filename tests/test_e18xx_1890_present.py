"""The 18xx presenter on 1890 (every scenario), without Discord: 1890's own words (the initial stock round, the
minors, Kinki's formation) are used in a scenario ("1890/hanshin") as in the full game, every awaited seat is told
what to do in every state, and the pictures of its map, market and charters."""
from __future__ import annotations

import random
from functools import cache

from bot.tables import Table
from cogs.e18xx.presenter import E18xxPresenter, todo
from engines.e18xx.game import Kansai1890
from engines.e18xx.state import G
from tests.e18xx_helpers import NAMES, presenter_table
from tests.test_e18xx_1890_full import keen_move

E = Kansai1890()
P = E18xxPresenter()
NAMES = NAMES[:4]


def table(state) -> Table:
    return presenter_table(E, state)


@cache
def trace(scenario: str = "hanshin", seed: int = 5, steps: int = 3000) -> tuple:
    """(state, awaited seats) along a seeded game of four keen players."""
    rng = random.Random(seed)
    s, out = E.setup({"scenario": scenario}, 4), []
    for _ in range(steps):
        if E.scores(s) is not None:
            break
        seats = sorted(E.awaiting(s).seats)
        out.append((s, seats))
        seat = rng.choice(seats)
        s = E.apply(s, seat, keen_move(s, seat, rng))
    return tuple(out)


def test_a_scenario_reads_in_1890s_own_words():
    """A regression: the words were looked up by the scenario's id ("1890/hanshin"), found none, and the shared
    todo() raised KeyError 'special' in the initial stock round."""
    s = E.setup({"scenario": "hanshin"}, 4)
    assert s["title"] == "1890/hanshin"
    lines = P.public_lines(table(s))
    assert lines[0].startswith("**Initial stock round**")
    seat = min(E.awaiting(s).seats)
    assert "bid on a later company" in todo(G(s), seat, list(NAMES))


def test_every_awaited_seat_is_told_what_to_do_in_every_state():
    for scenario in ("hanshin", "full"):
        rounds = set()
        for s, seats in trace(scenario):
            t = table(s)
            assert all(isinstance(x, str) and x for x in P.public_lines(t))
            for seat in seats:
                assert todo(G(s), seat, list(NAMES)).startswith("**Your move"), (scenario, s["round"]["kind"])
                assert P.private_lines(t, seat)
            rounds.add(s["round"]["kind"])
        assert {"isr", "stock", "operating"} <= rounds


def test_minors_read_as_minors_in_the_table_and_on_their_charters():
    """Rules §"Minor companies": a minor is one 100% certificate at a fixed price; the table lists it as a minor
    (not among those "Not started", not as a share "100% (pres.)") and its charter shows the fixed price."""
    from cogs.e18xx.presenter import charter_dicts

    s = next(s for s, _ in trace("full") if s["round"]["kind"] == "operating"
             and all(c["president"] is not None for cid, c in s["corps"].items() if G(s).cdef(cid).kind == "minor"))
    text = "\n".join(P.public_lines(table(s)))
    assert "**Kanan** minor, fixed price ¥100 · treasury" in text
    assert "**Daiki** minor, fixed price ¥200" in text
    assert "Kanan 100%" not in text and "minors Kanan, Daiki" in text
    assert not any(x.startswith("Not started") and "Kanan" in x for x in text.split("\n"))
    ja = "\n".join(P.public_lines(table(s), "ja"))
    assert "**Kanan** 小会社・固定価格100円" in ja and "小会社 " in ja
    cards = {d["id"]: d for d in charter_dicts(s, list(NAMES))}
    assert cards["Kanan"]["price_text"] == "¥100 (fixed)" and cards["Kanan"]["kind"] == "minor"
    assert "price_text" not in cards["JR"]
    assert charter_dicts(s, list(NAMES), "ja")[-1]["price_text"].endswith("（固定）")


def test_an_unsold_minor_is_offered_by_the_initial_round_not_listed_as_not_started():
    s = E.setup({"scenario": "full"}, 4)
    lines = P.public_lines(table(s))
    assert "Kanan Railway (bids from ¥105)" in lines[2]
    assert not any("Kanan" in x for x in lines[3:])


def _events(scenario: str = "full", seeds=range(5, 45), wanted: tuple[str, ...] = ()) -> list[dict]:
    """The events of seeded keen games, game after game until every text in `wanted` has been said (a forced
    conversion is rare: about one game in ten)."""
    out = []
    for seed in seeds:
        seen = 0
        for s, _ in trace(scenario, seed):
            out += [e for e in s["events"] if e["no"] > seen]
            seen = max([seen, *(e["no"] for e in s["events"])])
        if all(any(e["text"] == w for e in out) for w in wanted):
            break
    return out


def test_kinki_nippons_formation_is_narrated_by_name_in_both_languages():
    """Rules §"Kinki Nippon Railway" (ruling 3): Daiki's conversion, the mergers and the out-of-turn operation."""
    from cogs.e18xx.words import event_line

    said = {}
    for e in _events(wanted=("Phase {phase}: {minor} must convert into {corp} now.",)):
        said.setdefault(e["text"], (event_line(e, list(NAMES)), event_line(e, list(NAMES), "ja")))
    en, ja = said[next(t for t in said if t.startswith("Kinki Nippon Railway forms"))]
    assert "converts Osaka Electric Railroad into it and receives its president's certificate (20%)" in en
    assert ja.startswith("近畿日本鉄道の発足：") and "大阪電気軌道を転換し" in ja
    en, ja = said["{minor} merges into {corp}: [0] receives {percent}% of {corp}; {corp} takes its trains, tokens and "
                  "{cash}."]
    assert " merges into Kinki Nippon Railway: " in en and "近畿日本鉄道に合併しました" in ja
    en, ja = said["{corp} operates out of turn in this operating round."]
    assert en == "Kinki Nippon Railway operates out of turn in this operating round."
    assert ja == "近畿日本鉄道がこの運営ラウンドで手番外に運営します。"
    en, ja = said["Phase {phase}: {minor} must convert into {corp} now."]
    assert en == "Phase 2.5: Osaka Electric Railroad must convert into Kinki Nippon Railway now."


def test_kanan_kept_a_minor_is_narrated():
    from cogs.e18xx.words import event_line

    for s, seats in trace("full"):
        if s["flags"].get("kanan_choice"):
            seat = seats[0]
            after = E.apply(s, seat, {"type": "pass", "entity": "Kanan"})
            e = after["events"][-1]
            assert event_line(e, list(NAMES)) == (f"{NAMES[seat]} keeps Kanan Railway a minor for now; it must merge "
                                                  "into Kinki Nippon Railway in phase 3.")
            assert "河南鉄道を当面小会社のまま残します" in event_line(e, list(NAMES), "ja")
            return
    raise AssertionError("no Kanan choice in the trace")
