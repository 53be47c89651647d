"""The 18xx stock market: the two-dimensional grid (1889 and kin) and the one-dimensional strip (1867 family).

Row 0 is the top row, column 0 the left edge; rows may get shorter going down. A 1-D market is a single row.
A cell's id is the 18xx.games share-price id ``"price,row,col"`` (``"price,0,col"`` on a 1-D market) so
recorded ``par`` actions can be read directly.

Moves (as the 18xx.games engine makes them, see NOTE.md):

- right (dividend paid): next column; at the row's last cell, one row up instead; nothing at the top right.
- left (withheld or no revenue): previous column; at column 0, down instead.
- down (per 10% share sold): same column one row lower; if that cell does not exist, **no move at all**.
- up (sold out at the end of a stock round): one row up; nothing on row 0.

On a 1-D market up is right and down is left (18xx.games's ``one_d?``), and the ends stop a move: right at
the last cell and left at column 0 do nothing. A capped move (1867's minors) does not go right from a
``max_price`` cell.

The title data (the ``market`` object of companies.json), every key but ``rows`` optional:

- ``rows``: prices by row, ``[[75, 80, ...], ...]``; one row for a 1-D market.
- ``one_d``: true for a 1-D market; by default a market of one row is 1-D (as on 18xx.games).
- ``par_cells``: ``[[row, col], ...]``, par prices open to every kind of corporation.
- ``par_kinds``: kind -> cells, par prices open to that kind only (``{"minor": ..., "public": ...}``); a cell
  listed under several kinds is open to each. A cell may not be in both ``par_cells`` and ``par_kinds``.
- ``cell_types``: type -> cells, for the types in ``CELL_TYPES``.
- ``zones``: colour -> cells; every other cell is white. ``zone_rules``: colour -> its certificate rules.

"cells" in the last three is ``{"row": [col, ...]}``, the row as a string key (1-D: ``{"0": [3, 4, 5]}``).

Where the market keeps its corporations is a JSON value: ``stacks`` maps a cell id to the list of
corporations on it, in order of arrival (the operating order's last tie-break). The functions that change
it return a new dict.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

Stacks = dict[str, list[str]]

# What a cell's type tells the rules (the engine acts on it; the market only records it):
CELL_TYPES = {
    "close": "a corporation whose price reaches it closes",
    "convert_range": "a minor here may convert to a public company",
    "max_price": "the highest price a minor may reach (a capped move stops here)",
}


@dataclass(frozen=True)
class Cell:
    row: int
    col: int
    price: int
    zone: str  # "white", "yellow", "orange", ... as the title names them
    is_par: bool
    counts_for_cert_limit: bool
    holding_limit_applies: bool
    types: frozenset[str] = frozenset()  # names from CELL_TYPES
    par_kinds: frozenset[str] = frozenset()  # empty on a par cell: open to every kind

    @cached_property
    def id(self) -> str:  # kept (a cell is frozen): asked at every price move and every par
        return f"{self.price},{self.row},{self.col}"

    @property
    def closes(self) -> bool:
        return "close" in self.types

    def can_par(self, kind: str | None = None) -> bool:
        """A par price for `kind` of corporation (None: for any kind at all)."""
        return self.is_par and (kind is None or not self.par_kinds or kind in self.par_kinds)


def parse_cell_id(cell_id: str) -> tuple[int, int, int]:
    """``"70,4,3"`` -> (70, 4, 3): price, row, column."""
    try:
        price, row, col = (int(part) for part in cell_id.split(","))
    except ValueError:
        raise ValueError(f"{cell_id!r} is not a share price id (price,row,col).") from None
    return price, row, col


def _named_cells(by_name: Mapping[str, Mapping[str, Sequence[int]]], rows: Sequence[Sequence[int]],
                 what: str) -> dict[tuple[int, int], set[str]]:
    """``{name: {"row": [col, ...]}}`` -> (row, col) -> names, every cell checked to be on the market."""
    names: dict[tuple[int, int], set[str]] = {}
    for name, by_row in by_name.items():
        for row, cols in by_row.items():
            for col in cols:
                _check_on(rows, int(row), col, f"{what} {name!r}")
                names.setdefault((int(row), col), set()).add(name)
    return names


def _check_on(rows: Sequence[Sequence[int]], r: int, c: int, what: str) -> None:
    if not (0 <= r < len(rows) and 0 <= c < len(rows[r])):
        raise ValueError(f"{what} names row {r} column {c}, which is not on the market.")


@dataclass(frozen=True)
class Market:
    rows: tuple[tuple[Cell, ...], ...]
    one_d: bool = False

    # -- building -----------------------------------------------------------------------------------------

    @classmethod
    def from_data(cls, data: Mapping) -> Market:
        """Build from a title's ``market`` object (companies.json; the format is in the module's docstring)."""
        prices = data["rows"]
        one_d = bool(data.get("one_d", len(prices) == 1))
        if one_d and len(prices) != 1:
            raise ValueError(f"A 1-D market has one row, not {len(prices)}.")
        zone_of = _named_cells(data.get("zones", {}), prices, "zone")
        types_of = _named_cells(data.get("cell_types", {}), prices, "cell type")
        unknown = {t for names in types_of.values() for t in names} - CELL_TYPES.keys()
        if unknown:
            raise ValueError(f"Unknown cell types {sorted(unknown)}; known: {sorted(CELL_TYPES)}.")
        kinds_of = _named_cells(data.get("par_kinds", {}), prices, "par kind")
        par = {(r, c) for r, c in data.get("par_cells", [])}
        for r, c in par:
            _check_on(prices, r, c, "par_cells")
        if both := par & kinds_of.keys():
            raise ValueError(f"Cells {sorted(both)} are both open par cells and par cells of a kind.")
        rules = data.get("zone_rules", {})
        rows = []
        for r, row_prices in enumerate(prices):
            cells = []
            for c, price in enumerate(row_prices):
                zones = zone_of.get((r, c), {"white"})
                if len(zones) > 1:
                    raise ValueError(f"Row {r} column {c} is in several zones: {sorted(zones)}.")
                zone = next(iter(zones))
                rule = rules.get(zone, {})
                kinds = frozenset(kinds_of.get((r, c), ()))
                cells.append(Cell(
                    row=r, col=c, price=price, zone=zone, is_par=(r, c) in par or bool(kinds),
                    counts_for_cert_limit=rule.get("counts_for_cert_limit", True),
                    holding_limit_applies=rule.get("holding_limit_applies", True),
                    types=frozenset(types_of.get((r, c), ())), par_kinds=kinds,
                ))
            rows.append(tuple(cells))
        return cls(tuple(rows), one_d)

    # -- lookups ------------------------------------------------------------------------------------------

    @property
    def cells(self) -> Iterator[Cell]:
        for row in self.rows:
            yield from row

    def cell(self, row: int, col: int) -> Cell | None:
        if 0 <= row < len(self.rows) and 0 <= col < len(self.rows[row]):
            return self.rows[row][col]
        return None

    @cached_property
    def every_cell_counts(self) -> bool:
        """Whether a certificate counts toward the certificate limit at every price (G.cert_count's shortcut)."""
        return all(cell.counts_for_cert_limit for cell in self.cells)

    @cached_property
    def _by_id(self) -> dict[str, Cell]:
        return {cell.id: cell for cell in self.cells}

    def by_id(self, cell_id: str) -> Cell:
        if (found := self._by_id.get(cell_id)) is not None:  # a state's own ids: asked for every price read
            return found
        price, row, col = parse_cell_id(cell_id)
        found = self.cell(row, col)
        if found is None or found.price != price:
            raise ValueError(f"There is no share price {cell_id!r} on this market.")
        return found

    @cached_property
    def par_cells(self) -> tuple[Cell, ...]:
        """Par cells of every kind, dearest first (a stock turn asks for them for every corporation not started)."""
        return self.par_cells_for(None)

    def par_cells_for(self, kind: str | None) -> tuple[Cell, ...]:
        """Par cells open to `kind` ("minor", "public", ... as the title names them), dearest first (once per kind:
        a stock turn asks for every corporation not started)."""
        if (known := self._par_cells_by_kind.get(kind)) is None:
            cells = [cell for cell in self.cells if cell.can_par(kind)]
            known = self._par_cells_by_kind[kind] = tuple(sorted(cells, key=lambda c: (-c.price, -c.col, c.row)))
        return known

    @cached_property
    def _par_cells_by_kind(self) -> dict[str | None, tuple[Cell, ...]]:
        return {}

    def par_cell(self, price: int, kind: str | None = None) -> Cell:
        for cell in self.par_cells_for(kind):
            if cell.price == price:
                return cell
        raise ValueError(f"{price} is not a par price" + (f" for a {kind}." if kind else "."))

    # -- moves: each returns the cell the price ends on (the same cell when it cannot move) ---------------

    def _to(self, cell: Cell, row: int, col: int) -> Cell:
        return self.cell(row, col) or cell

    def up(self, cell: Cell, *, capped: bool = False) -> Cell:
        if self.one_d:
            return self.right(cell, capped=capped)
        return self._to(cell, cell.row - 1, cell.col) if cell.row > 0 else cell

    def down(self, cell: Cell) -> Cell:
        if self.one_d:
            return self.left(cell)
        # A missing cell below (shorter row, or the bottom row) means no move, not a slide sideways.
        return self._to(cell, cell.row + 1, cell.col)

    def right(self, cell: Cell, *, capped: bool = False) -> Cell:
        """capped: the corporation may not rise past a ``max_price`` cell (18xx.games's 1867 minors; on a
        2-D market it goes up instead)."""
        last = cell.col + 1 >= len(self.rows[cell.row])
        if last or (capped and "max_price" in cell.types):
            return cell if self.one_d else self.up(cell)
        return self.rows[cell.row][cell.col + 1]

    def left(self, cell: Cell) -> Cell:
        if cell.col > 0:
            return self.rows[cell.row][cell.col - 1]
        return cell if self.one_d else self.down(cell)

    def after_payout(self, cell: Cell, steps: int = 1, *, capped: bool = False) -> Cell:
        """`steps` moves right. Most titles move one step; the 1867 family moves a public company 0 steps when
        it pays less than its share price, and (1807's systems) 2 when it pays twice the price or more."""
        if steps < 0:
            raise ValueError(f"A payout cannot move the price {steps} steps.")
        for _ in range(steps):
            cell = self.right(cell, capped=capped)
        return cell

    def after_withhold(self, cell: Cell) -> Cell:
        """Withheld, or no revenue at all (the step is skipped and the price still moves left)."""
        return self.left(cell)

    def after_sale(self, cell: Cell, shares: int) -> Cell:
        """One step down per 10% share sold (the president's certificate is 2 shares); left on a 1-D market.
        Titles that move once per sale (1867's presidents) pass shares=1."""
        for _ in range(shares):
            cell = self.down(cell)
        return cell

    def after_sold_out(self, cell: Cell, *, capped: bool = False) -> Cell:
        return self.up(cell, capped=capped)

    # -- where the corporations stand ---------------------------------------------------------------------

    def position(self, stacks: Mapping[str, Sequence[str]], corporation: str) -> Cell | None:
        for cell_id, corps in stacks.items():
            if corporation in corps:
                return self.by_id(cell_id)
        return None

    def positions(self, stacks: Mapping[str, Sequence[str]]) -> dict[str, Cell]:
        """Corporation -> its cell, for every corporation with a share price (`position` of each)."""
        found: dict[str, Cell] = {}
        for cell_id, corps in stacks.items():
            if not corps:
                continue
            cell = self.by_id(cell_id)  # once per cell, not per corporation on it (read again at every price move)
            for corp in corps:
                found.setdefault(corp, cell)  # the first cell holding it, as `position` reads
        return found

    def with_par(self, stacks: Mapping[str, Sequence[str]], corporation: str, cell: Cell) -> Stacks:
        if self.position(stacks, corporation) is not None:
            raise ValueError(f"{corporation} already has a share price.")
        new = dict(stacks)  # as with_move: only the list that changes is new
        new[cell.id] = [*new.get(cell.id, ()), corporation]
        return new

    def with_move(self, stacks: Mapping[str, Sequence[str]], corporation: str, to: Cell,
                  here: Cell | None = None) -> Stacks:
        """Move a corporation's marker; arriving on a cell puts it behind those already there.
        Staying on the same cell keeps its place. `here`: its `position`, if the caller has read it.
        The new stacks share the lists of the cells the move leaves alone (stacks are replaced, never changed in
        place: each move asks this, and copying every list was most of its cost)."""
        if here is None:
            here = self.position(stacks, corporation)
            if here is None:
                raise ValueError(f"{corporation} has no share price yet.")
        new = dict(stacks)
        if here.row == to.row and here.col == to.col:  # the same cell (not Cell's ==, which compares every field)
            return new
        left = list(new[here.id])
        left.remove(corporation)
        if left:
            new[here.id] = left
        else:
            del new[here.id]
        new[to.id] = [*new.get(to.id, ()), corporation]
        return new

    def operating_order(self, stacks: Mapping[str, Sequence[str]], corporations: Iterable[str],
                        where: Mapping[str, Cell] | None = None) -> list[str]:
        """Highest price first, then the rightmost column, then the top row, then first arrival on the
        cell, then the id (the last two keys never tie in practice). `where`: `positions(stacks)`, if the caller
        has it (read once, not a scan of the stacks per corporation)."""
        if where is None:
            where = self.positions(stacks)

        def key(corp: str) -> tuple:
            cell = where.get(corp)
            if cell is None:
                raise ValueError(f"{corp} has no share price yet.")
            return (-cell.price, -cell.col, cell.row, list(stacks[cell.id]).index(corp), corp)

        return sorted(corporations, key=key)

