"""Reads the arena's game records (.ljr, format in tools/arena/README.md):
each game's tags and plies, for the scripts beside it."""
import re

TAG = re.compile(r'^\[(\w+) "([^"]*)"\]$', re.M)
# '<n> <r|b> <token> <ms> [reveals]'; four-player records: '<n> <s|e|n|w> ...'
PLY = re.compile(r"^\d+ ([rbsenw]) (\S+) (\d+)\b.*$", re.M)

# The tag naming the engine that plays each colour or seat letter.
PLAYER_TAG = {"r": "Red", "b": "Blue", "s": "South", "e": "East", "n": "North", "w": "West"}


def games(text):
    """Each game of a record file's text as (tags, plies, its own text):
    tags a dict (`Game`, `Red`, `Variant`, ...), plies a list of
    (colour or seat letter, token, ms); `PLAYER_TAG[letter]` is the tag
    naming the mover's engine."""
    for chunk in text.split("[Game ")[1:]:
        game = "[Game " + chunk
        plies = [(colour, token, int(ms)) for colour, token, ms in PLY.findall(game)]
        yield dict(TAG.findall(game)), plies, game
