"""The variant "Kinki as a Normal Company" in the full game (option kinki_normal; rules, 1890 scenario, Variants,
"Kinki as a Normal Company"; docs/rules/1890.md ruling 39): played as the Simplified scenario plays Kinki."""
from __future__ import annotations

import random

import pytest

from engines.e18xx.companies import load_title
from engines.e18xx.state import G
from tests.test_e18xx_1890 import ENGINE, eager_move, total_money


@pytest.mark.parametrize("variant", [True, False])
def test_minors_1_to_4_are_gone_and_kinki_starts_like_a_normal_company(variant):
    """"minor companies 1-4 are eliminated, and Kinki is started like a normal public company ... remove three
    2-trains and all 3+3-trains": Kinki's home is Osaka Higashi, its shares are all for sale, its par is set like any
    company's; the late privates and Kobe Electric (minor 5) stay."""
    options = {"scenario": "full", "kinki_normal": True} if variant else {"scenario": "full"}
    state = ENGINE.setup(options, 4)
    g = G(state)
    minors = {"Kanan", "Daiki", "Daitetsu", "NaraElec"}
    trains = state["depot"]["trains"]
    assert "KobeElec" in state["corps"] and "KobeRapid" in state["privates"]
    if variant:
        assert not minors & set(state["corps"]) and not minors & {c.id for c in g.title.corporations}
        assert g.map.homes["Kinki"] == "H13" and g.board.reserved["H13"] == "Kinki"
        assert "NaraElec" not in g.board.reserved.values()
        assert sum(t.startswith("2-") for t in trains) == 6 and not any(t.startswith("3+3") for t in trains)
        assert "2.5" not in [p.name for p in g.title.phases]
        assert g.rules.may_par(g, "Kinki")
        assert not any(g.rules.reserved_cert(g, "Kinki", c) for c in state["corps"]["Kinki"]["shares"]["ipo"])
    else:
        assert minors <= set(state["corps"]) and "Kinki" not in g.map.homes
        assert sum(t.startswith("2-") for t in trains) == 9 and any(t.startswith("3+3") for t in trains)
        assert not g.rules.may_par(g, "Kinki")


def test_kinki_places_its_automatic_home_tokens_in_a_whole_game():
    """"Kinki will have 4 station tokens that are automatically placed at the beginning of the following game
    phases: Phase 1 Osaka Higashi, Phase 2 Kashiwara, Phase 3 Nara, Phase 4 Kyoto ... at no cost": a played game
    (4 players) that reaches phase 3 with Kinki floated; money is conserved and the replay equals the live game."""
    rng, options = random.Random(4), {"scenario": "full", "kinki_normal": True}
    state, log = ENGINE.setup(options, 4), []
    bank = load_title("1890").bank
    while not state["over"]:
        seat = rng.choice(sorted(ENGINE.awaiting(state).seats))
        move = eager_move(state, seat, rng)
        state = ENGINE.apply(state, seat, move)
        log.append((seat, move))
        assert total_money(state) == bank
        assert not ({"Kanan", "Daiki", "Daitetsu", "NaraElec"} & set(state["corps"]))
    tokens = dict(G(state).board.token_nodes("Kinki"))
    assert state["flags"]["kinki_auto"] == ["2", "3"]  # the game ended in phase 3
    assert {"H13", "J15", "H19"} <= set(tokens)  # Osaka Higashi, Kashiwara, Nara
    assert state["flags"]["kinki_homes"] == 3  # its home and the two automatic ones, all free
    again = ENGINE.setup(options, 4)
    for seat, move in log:
        again = ENGINE.apply(again, seat, move)
    assert again == state
