"""1890 (Kansai) by Shinichi Takasaki: its rules hooks (rules.py) and its initial stock round (isr.py).
Rules and rulings: docs/rules/1890.md; data: engines/e18xx/titles/g1890/ (NOTE.md)."""
