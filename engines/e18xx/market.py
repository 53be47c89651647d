"""The two-dimensional 18xx stock market (1889 and kin).

Row 0 is the top row, column 0 the left edge; rows may get shorter going down. A cell's id is the
18xx.games share-price id ``"price,row,col"`` so recorded ``par`` actions can be read directly.

Moves (as the 18xx.games engine makes them, see NOTE.md):

- right (dividend paid): next column; at the row's last cell, one row up instead; nothing at the top right.
- left (withheld or no revenue): previous column; at column 0, down instead.
- down (per 10% share sold): same column one row lower; if that cell does not exist, **no move at all**.
- up (sold out at the end of a stock round): one row up; nothing on row 0.

Where the market keeps its corporations is a JSON value: ``stacks`` maps a cell id to the list of
corporations on it, in order of arrival (the operating order's last tie-break). The functions that change
it return a new dict.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

Stacks = dict[str, list[str]]


@dataclass(frozen=True)
class Cell:
    row: int
    col: int
    price: int
    zone: str  # "white", "yellow", "orange", ... as the title names them
    is_par: bool
    counts_for_cert_limit: bool
    holding_limit_applies: bool

    @property
    def id(self) -> str:
        return f"{self.price},{self.row},{self.col}"


def parse_cell_id(cell_id: str) -> tuple[int, int, int]:
    """``"70,4,3"`` -> (70, 4, 3): price, row, column."""
    try:
        price, row, col = (int(part) for part in cell_id.split(","))
    except ValueError:
        raise ValueError(f"{cell_id!r} is not a share price id (price,row,col).") from None
    return price, row, col


@dataclass(frozen=True)
class Market:
    rows: tuple[tuple[Cell, ...], ...]

    # -- building -----------------------------------------------------------------------------------------

    @classmethod
    def from_data(cls, data: Mapping) -> Market:
        """Build from a title's ``market`` object (companies.json)."""
        zone_of: dict[tuple[int, int], str] = {}
        for zone, by_row in data.get("zones", {}).items():
            for row, cols in by_row.items():
                for col in cols:
                    zone_of[(int(row), col)] = zone
        par = {tuple(rc) for rc in data.get("par_cells", [])}
        rules = data.get("zone_rules", {})
        rows = []
        for r, prices in enumerate(data["rows"]):
            cells = []
            for c, price in enumerate(prices):
                zone = zone_of.get((r, c), "white")
                rule = rules.get(zone, {})
                cells.append(Cell(
                    row=r, col=c, price=price, zone=zone, is_par=(r, c) in par,
                    counts_for_cert_limit=rule.get("counts_for_cert_limit", True),
                    holding_limit_applies=rule.get("holding_limit_applies", True),
                ))
            rows.append(tuple(cells))
        return cls(tuple(rows))

    # -- lookups ------------------------------------------------------------------------------------------

    def cell(self, row: int, col: int) -> Cell | None:
        if 0 <= row < len(self.rows) and 0 <= col < len(self.rows[row]):
            return self.rows[row][col]
        return None

    def by_id(self, cell_id: str) -> Cell:
        price, row, col = parse_cell_id(cell_id)
        found = self.cell(row, col)
        if found is None or found.price != price:
            raise ValueError(f"There is no share price {cell_id!r} on this market.")
        return found

    @property
    def par_cells(self) -> tuple[Cell, ...]:
        """Par cells, dearest first."""
        cells = [cell for row in self.rows for cell in row if cell.is_par]
        return tuple(sorted(cells, key=lambda c: (-c.price, -c.col, c.row)))

    def par_cell(self, price: int) -> Cell:
        for cell in self.par_cells:
            if cell.price == price:
                return cell
        raise ValueError(f"{price} is not a par price.")

    # -- moves: each returns the cell the price ends on (the same cell when it cannot move) ---------------

    def _to(self, cell: Cell, row: int, col: int) -> Cell:
        return self.cell(row, col) or cell

    def up(self, cell: Cell) -> Cell:
        return self._to(cell, cell.row - 1, cell.col) if cell.row > 0 else cell

    def down(self, cell: Cell) -> Cell:
        # A missing cell below (shorter row, or the bottom row) means no move, not a slide sideways.
        return self._to(cell, cell.row + 1, cell.col)

    def right(self, cell: Cell) -> Cell:
        if cell.col + 1 >= len(self.rows[cell.row]):
            return self.up(cell)
        return self.rows[cell.row][cell.col + 1]

    def left(self, cell: Cell) -> Cell:
        if cell.col > 0:
            return self.rows[cell.row][cell.col - 1]
        return self.down(cell)

    def after_payout(self, cell: Cell) -> Cell:
        return self.right(cell)

    def after_withhold(self, cell: Cell) -> Cell:
        """Withheld, or no revenue at all (the step is skipped and the price still moves left)."""
        return self.left(cell)

    def after_sale(self, cell: Cell, shares: int) -> Cell:
        """One step down per 10% share sold (the president's certificate is 2 shares)."""
        for _ in range(shares):
            cell = self.down(cell)
        return cell

    def after_sold_out(self, cell: Cell) -> Cell:
        return self.up(cell)

    # -- where the corporations stand ---------------------------------------------------------------------

    def position(self, stacks: Mapping[str, Sequence[str]], corporation: str) -> Cell | None:
        for cell_id, corps in stacks.items():
            if corporation in corps:
                return self.by_id(cell_id)
        return None

    def with_par(self, stacks: Mapping[str, Sequence[str]], corporation: str, cell: Cell) -> Stacks:
        if self.position(stacks, corporation) is not None:
            raise ValueError(f"{corporation} already has a share price.")
        new = _copy(stacks)
        new.setdefault(cell.id, []).append(corporation)
        return new

    def with_move(self, stacks: Mapping[str, Sequence[str]], corporation: str, to: Cell) -> Stacks:
        """Move a corporation's marker; arriving on a cell puts it behind those already there.
        Staying on the same cell keeps its place."""
        here = self.position(stacks, corporation)
        if here is None:
            raise ValueError(f"{corporation} has no share price yet.")
        if here == to:
            return _copy(stacks)
        new = _copy(stacks)
        new[here.id].remove(corporation)
        if not new[here.id]:
            del new[here.id]
        new.setdefault(to.id, []).append(corporation)
        return new

    def operating_order(self, stacks: Mapping[str, Sequence[str]], corporations: Iterable[str]) -> list[str]:
        """Highest price first, then the rightmost column, then the top row, then first arrival on the
        cell, then the id (the last two keys never tie in practice)."""

        def key(corp: str) -> tuple:
            cell = self.position(stacks, corp)
            if cell is None:
                raise ValueError(f"{corp} has no share price yet.")
            return (-cell.price, -cell.col, cell.row, list(stacks[cell.id]).index(corp), corp)

        return sorted(corporations, key=key)


def _copy(stacks: Mapping[str, Sequence[str]]) -> Stacks:
    return {cell_id: list(corps) for cell_id, corps in stacks.items()}
