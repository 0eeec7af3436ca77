"""Reads the arena's game records (.ljr, format in tools/arena/README.md):
each game's tags and plies, for the scripts beside it."""
import re

TAG = re.compile(r'^\[(\w+) "([^"]*)"\]$', re.M)
# '<n> <r|b> <token> <ms> [reveals]'
PLY = re.compile(r"^\d+ ([rb]) (\S+) (\d+)\b.*$", re.M)


def games(text):
    """Each game of a record file's text as (tags, plies, its own text):
    tags a dict (`Game`, `Red`, `Variant`, ...), plies a list of
    (colour letter, token, ms)."""
    for chunk in text.split("[Game ")[1:]:
        game = "[Game " + chunk
        plies = [(colour, token, int(ms)) for colour, token, ms in PLY.findall(game)]
        yield dict(TAG.findall(game)), plies, game
