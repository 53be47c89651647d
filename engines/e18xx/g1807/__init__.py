"""1807: The Big Four (Ian D. Wilson), on 1867's rules (engines/e18xx/g1867/): rules.py is what differs,
docs/rules/1807.md the rules as played here, with the rulings."""
