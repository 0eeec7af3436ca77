"""Reads the arena's game records (.ljr, format in tools/arena/README.md):
each game's tags and plies, the deployments and the move and attack
tokens, and what a side was told (`arena replay --as`), for the scripts
beside it."""
import re
import subprocess

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


def result_letter(tags, colour):
    """`W`, `L` or `D` for `colour` (`r`, `b`) by the game's `Result` tag;
    anything but a win or a loss (a draw, an unfinished `*`) is `D`."""
    result = tags.get("Result", "*")
    if result == ("1-0" if colour == "r" else "0-1"):
        return "W"
    if result == ("0-1" if colour == "r" else "1-0"):
        return "L"
    return "D"


FILES = "abcde"


def point(s):
    """A point's name (`c3`) as (file, rank), both from 0."""
    return FILES.index(s[0]), int(s[1:]) - 1


def point_name(p):
    """The name of the point (file, rank)."""
    return f"{FILES[p[0]]}{p[1] + 1}"


def deployment(text, colour):
    """A deployment string as {(file, rank): kind}: its six ranks are
    written from the top of the board down (Red's 6 to 1, Blue's 12 to 7)."""
    ranks = text.split("/")
    top = 5 if colour == "r" else 11
    out = {}
    for i, row in enumerate(ranks):
        rank = top - i
        f, j = 0, 0
        while j < len(row):
            c = row[j]
            if c.isdigit():
                f += int(c)
                j += 1
            else:
                out[(f, rank)] = row[j + 1]
                f += 1
                j += 2
    return out


TOKEN = re.compile(r"^([a-e]\d+)([x-])([a-e]\d+)([-+=])?")


def parse_token(tok):
    """A move or attack token as (from, to, outcome: None for a move)."""
    m = TOKEN.match(tok)
    if not m:
        return None
    return point(m.group(1)), point(m.group(3)), m.group(4)


class Piece:
    """A piece in a replayed game: its colour (`r`, `b`), its kind's letter
    as in a deployment string (`9` the Marshal, `B` a bomb, ...) and the
    moves and attacks it has made."""

    __slots__ = ("colour", "kind", "moves")

    def __init__(self, colour, kind):
        self.colour, self.kind, self.moves = colour, kind, 0


def walk(tags, plies):
    """Replays a two-player game from its true deployments (`RedSetup`,
    `BlueSetup`): yields (n, colour, from, to, outcome, attacker, defender)
    for each move or attack, ply n from 1, points as (file, rank), the
    outcome None for a move, the pieces as they stood before it (the
    defender None for a move); the board is updated once the caller asks
    for the next ply. Tokens it cannot read are skipped."""
    board = {}
    for c, tag in (("r", "RedSetup"), ("b", "BlueSetup")):
        board.update((p, Piece(c, k)) for p, k in deployment(tags[tag], c).items())
    for n, (colour, tok, _) in enumerate(plies, 1):
        t = parse_token(tok)
        if t is None:
            continue
        a, b, outcome = t
        att, dfd = board.pop(a, None), board.get(b)
        yield n, colour, a, b, outcome, att, dfd
        if att is not None:
            att.moves += 1
        if outcome is None or outcome == "+":
            board[b] = att
        elif outcome == "=":
            board.pop(b, None)


def removed(outcome, attacker, defender):
    """The pieces an attack with `outcome` (`+`, `-`, `=`; None for a
    move) removes, each as (lost, the piece it lost to)."""
    if outcome == "+":
        return [(defender, attacker)]
    if outcome == "-":
        return [(attacker, defender)]
    if outcome == "=":
        return [(attacker, defender), (defender, attacker)]
    return []


# `arena replay --as` output: the side's engine, and one line per ply told.
TOLD_NAME = re.compile(r"^What \w+ \((.*)\) was told:$", re.M)
TOLD_PLY = re.compile(r"^\s+(\d+)\. ([rb]) (.*?)\s+\d+ ms$", re.M)


def told(arena, record, game, colour):
    """What `colour` (`red`, `blue`) was told in game `game` of `record`,
    as `arena replay --as` prints it: the name of its engine, the start
    position string (after `position fen`), and each ply as (number,
    mover `r`/`b`, the history tokens told: the action and any reveals)."""
    out = subprocess.run([arena, "replay", record, "--game", str(game), "--as", colour],
                         capture_output=True, text=True, check=True).stdout
    name = TOLD_NAME.search(out).group(1)
    fen = re.search(r"^position fen (.*)$", out, re.M).group(1)
    return name, fen, [(int(n), mover, rest.split()) for n, mover, rest in TOLD_PLY.findall(out)]
