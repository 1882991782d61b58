"""The tables every test runs on: each game, each table size or variant the issue names."""

TABLES = [
    ("dropsite", {"players": 2}),
    ("dropsite", {"players": 3}),
    ("dropsite", {"players": 4}),
    ("distopia", {}),
    ("distopia", {"advanced": True}),
    ("euphoria", {"players": 2}),
    ("euphoria", {"players": 4}),
]


def table_id(table):
    game, options = table
    return game + "".join(f"-{k}={v}" for k, v in options.items())
