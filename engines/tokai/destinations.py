"""Tokai Baron's destination rules (seed §4 出発地点の決定, §4.1 目的地決定表の見方, §6 目的地の決定).

No randomness here: the caller rolls and passes the dice in. A roll is ``(coloured, white1, white2)``, each 1..6
("ダイス3個(白いダイス2個と色付ダイス1個)を振ります"). The procedures take every roll made so far (plus any choices
the player has made) and answer one of: ``Destination``, ``NeedDice``, ``Choose`` or ``RestTurn``.
"""
from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from engines.tokai.network import ANY, destination_points, load_destinations, region_of_point

Roll = tuple[int, int, int]  # (coloured die, white die, white die)

REGION = "region"
POINT = "point"


@dataclass(frozen=True)
class Destination:
    point: str


@dataclass(frozen=True)
class NeedDice:
    count: int  # always 3: one coloured and two white dice
    why: str


@dataclass(frozen=True)
class Choose:
    kind: str  # REGION (own-region rule) or POINT (the 任意 cell)
    options: tuple[str, ...]
    why: str


@dataclass(frozen=True)
class RestTurn:
    why: str


Outcome = Destination | NeedDice | Choose | RestTurn


def region_of(odd: bool, total: int) -> str:
    """"色付ダイスの目の奇数、偶数と、白い2個のダイス目の合計を交差させて、地域を得ます"."""
    return load_destinations()["region_table"]["odd" if odd else "even"][str(total)]


def point_of(region: str, odd: bool, total: int) -> str:
    """"先ほどの地域の表を参照して、目的地を決定します。方法は、上と同様です"; may be ANY (東, 偶数の7)."""
    return load_destinations()["tables"][region]["odd" if odd else "even"][str(total)]


def regions() -> tuple[str, ...]:
    return tuple(r["id"] for r in load_destinations()["regions"])


def region_containing(point: str) -> str:
    """The one region whose table names ``point``; KeyError if no table does."""
    return region_of_point(point)


def _region_or_none(point: str | None) -> str | None:
    try:
        return region_of_point(point)
    except KeyError:  # a point that no table names is in no region
        return None


def _read(roll: Roll) -> tuple[bool, int]:
    if len(roll) != 3 or any(not isinstance(d, int) or not 1 <= d <= 6 for d in roll):
        raise ValueError(f"A roll is (coloured, white, white), each 1..6; got {roll!r}.")
    coloured, w1, w2 = roll
    return coloured % 2 == 1, w1 + w2


def decide_destination(
    current: str,
    rolls: Sequence[Roll],
    region_choice: str | None = None,
    any_choice: str | None = None,
) -> Outcome:
    """§6 目的地の決定 for a player standing on ``current``.

    ``rolls`` holds the first roll (region) and then the second (point). ``region_choice`` answers the own-region
    choice, ``any_choice`` the 任意 cell. The choices cannot be made before the dice ask for them.
    """
    if len(rolls) > 2:
        raise ValueError("A destination takes two rolls; a rest ends the attempt.")
    if not rolls:
        return NeedDice(3, "1回目のダイスで、地域を決めます")
    region = region_of(*_read(rolls[0]))
    own = _region_or_none(current)
    if region == own:
        # "現在自分が居る地域が出た場合、好きな地域を指定することが可能です" (the rolled region itself included:
        # "勿論、そのまま「北」を選択することもできます")
        if region_choice is None:
            return Choose(REGION, regions(), "現在自分が居る地域が出た場合、好きな地域を指定することが可能")
        if region_choice not in regions():
            raise ValueError(f"No region {region_choice!r}.")
        region = region_choice
    elif region_choice is not None:
        raise ValueError("No region choice: the rolled region is not the one the player is in.")
    if len(rolls) < 2:
        return NeedDice(3, "選択された地域の表を使用して、2回目のダイスを振り、目的地を決定します")
    point = point_of(region, *_read(rolls[1]))
    if point == ANY:
        # "「東」の表で「任意」が出た場合は、自分の好きな目的地を選択することができます"
        options = tuple(p for p in destination_points() if p != current)
        if any_choice is None:
            return Choose(POINT, options, "「東」の表で「任意」が出た場合は、自分の好きな目的地を選択")
        if any_choice not in options:
            raise ValueError(f"{any_choice!r} is not a destination the player may name.")
        return Destination(any_choice)
    if any_choice is not None:
        raise ValueError("No 任意 cell was rolled.")
    if point == current:
        # "今居る「犬山」が出た場合には、1回休みということになります"
        return RestTurn("今居る地点が出た場合には、1回休み")
    return Destination(point)


def decide_start(
    rolls: Sequence[Roll],
    taken: Collection[str] = (),
    any_choice: str | None = None,
) -> Outcome:
    """§4 出発地点の決定: "ダイス3個を2回振り、目的地決定表を参照して、出発地を決定します".

    ``rolls`` holds every roll of this player's setup so far, in pairs (region, point); ``taken`` the other players'
    start points. A pair that lands on a taken point is void and two more rolls are asked for.
    """
    for i in range(0, len(rolls), 2):
        if i + 1 == len(rolls):
            return NeedDice(3, "2回目のダイスを振り、出発地を決定します")
        region = region_of(*_read(rolls[i]))
        point = point_of(region, *_read(rolls[i + 1]))
        last = i + 2 == len(rolls)
        if point == ANY:
            if not last:
                raise ValueError("Rolls after a 任意 start; the player names the point instead.")
            # "出発地点を任意の目的地に設定できます。(表の中にある地点を選んで下さい。...)";
            # other players' starts stay barred ("既にその地点が、他のプレイヤーの出発地点になっていた場合は...")
            options = tuple(p for p in destination_points() if p not in taken)
            if any_choice is None:
                return Choose(POINT, options, "「東」で、偶数の7「任意」: 表の中にある地点を選んで下さい")
            if any_choice not in options:
                raise ValueError(f"{any_choice!r} is not a start the player may name.")
            return Destination(any_choice)
        if point in taken:
            # "既にその地点が、他のプレイヤーの出発地点になっていた場合は、出発地点の決定をやり直します"
            if last:
                return NeedDice(3, "他のプレイヤーの出発地点: 出発地点の決定をやり直します")
            continue
        if not last:
            raise ValueError("Rolls after the start point was settled.")
        if any_choice is not None:
            raise ValueError("No 任意 cell was rolled.")
        return Destination(point)
    return NeedDice(3, "ダイス3個を2回振り、目的地決定表を参照して、出発地を決定します")
