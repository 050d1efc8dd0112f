#!/usr/bin/env python3
"""HaChu as an oracle for Chu shogi, run by hand, never by CI (docs/testing.md):

    tools/hachu_oracle.py chu GAMES SAMPLES SEED [RULES]

HaChu 0.21 (Debian package `hachu`) plays GAMES games from the opening at depths 2 to 4, with a
random move of ours instead of its own on 3 plies in 10; each of its moves must be one of
`taikyoku moves`. Then SAMPLES of the positions met are replayed in HaChu from `new` (its
setboard takes no side to move), every move we generate there is sent with `usermove` and
taken back with `undo`, and `Illegal move` counts as a refusal. Writes
oracle-GAME-SEED.txt (the lines of crates/core/tests/data/chu_hachu.txt) and
problems-GAME-SEED.txt (every disagreement, with the moves that led to it) in the current
directory. TAIKYOKU names the binary (default target/release/taikyoku)."""
import json, os, subprocess, sys, random, hashlib

TK = os.environ.get("TAIKYOKU", "target/release/taikyoku")
HACHU = os.environ.get("HACHU", "/usr/games/hachu")
GAME = sys.argv[1] if len(sys.argv) > 1 else "chu"
GAMES = int(sys.argv[2]) if len(sys.argv) > 2 else 10
SAMPLES = int(sys.argv[3]) if len(sys.argv) > 3 else 100
SEED = int(sys.argv[4]) if len(sys.argv) > 4 else 1
RULES = sys.argv[5] if len(sys.argv) > 5 else None
N = {"chu": 12, "dai": 15}[GAME]

LETTER = {"chu": {"L": "l", "FL": "f", "C": "c", "S": "s", "G": "g", "DE": "e", "K": "k",
                  "RC": "a", "B": "b", "BT": "t", "PH": "x", "KY": "o", "SM": "m", "VM": "v",
                  "R": "r", "DH": "h", "DK": "d", "FK": "q", "LN": "n", "P": "p", "GB": "i"}}[GAME]
PROMOTED_FROM = {"chu": {"R": "G", "VM": "S", "SM": "C", "B": "FL", "LN": "KY", "FK": "PH",
                         "DE": "GB", "DH": "B", "DK": "R", "HF": "DH", "SE": "DK", "TO": "P",
                         "FS": "BT", "WH": "L", "WL": "RC", "FB": "SM", "FO": "VM", "CP": "DE"}}[GAME]

def tk(position, after=None):
    args = [TK, "--game", GAME, "moves", "--json", "--position-out"]
    if RULES:
        args += ["--rules", RULES]
    if position:
        args += ["--position", position]
    if after:
        args += ["--after", after]
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(r.stderr)
    return json.loads(r.stdout)

def grid(pos):
    """The board as rows of cells (None empty), top row first."""
    rows = []
    for row in pos.split(" ")[0].split("/"):
        r = []
        for c in row.split(","):
            if c.isdigit():
                r += [None] * int(c)
            else:
                r.append(c)
        rows.append(r)
    return rows

def swap(c):
    return None if c is None else (c.lower() if c.lstrip("+").isupper() else c.upper())

def to_fen(pos):
    """HaChu's setboard takes no side to move (it refuses one): the first mover moves. For
    White to move, the board is turned 180 degrees with the sides swapped (`flipped`)."""
    g = grid(pos)
    if flipped(pos):
        g = [[swap(c) for c in reversed(r)] for r in reversed(g)]
    out = []
    for row in g:
        s = ""
        empty = 0
        for c in row:
            if c is None:
                empty += 1
                continue
            if empty:
                s += str(empty)
                empty = 0
            prom = c.startswith("+")
            code = c.lstrip("+")
            upper = code.isupper()
            code = code.upper()
            if prom:
                l = "+" + LETTER[PROMOTED_FROM[code]]
            else:
                l = LETTER[code]
            s += l.upper() if upper else l
        if empty:
            s += str(empty)
        out.append(s)
    return "/".join(out)

def flipped(pos):
    return pos.split(" ")[1] == "w"

FLIP = [False]

def sq(xy):
    x, y = xy
    if FLIP[0]:
        x, y = N - 1 - x, N - 1 - y
    return "%s%d" % (chr(97 + x), y + 1)

def unsq(s):
    x, y = ord(s[0]) - 97, int(s[1:]) - 1
    if FLIP[0]:
        x, y = N - 1 - x, N - 1 - y
    return [x, y]

def key(m):
    """A move's identity: from, to, captured squares, promotion."""
    return (tuple(m["from"]), tuple(m["to"]), tuple(sorted(map(tuple, m["captures"]))), m["promotes"])

def hachu_text(m):
    """Our move in HaChu's notation: legs separated by commas, '+' for a promotion."""
    if m["from"] == m["to"] and not m["captures"]:
        # A pass (a step and back): HaChu writes it as a move to its own square.
        return sq(m["from"]) * 2
    pts = [m["from"]] + m["path"] + [m["to"]]
    legs = ["%s%s" % (sq(a), sq(b)) for a, b in zip(pts, pts[1:])]
    return ",".join(legs) + ("+" if m["promotes"] else "")

def parse_hachu(text, occupied):
    """HaChu's move -> (from, to, captures, promotes) given the occupied squares."""
    prom = text.endswith("+")
    text = text.rstrip("+")
    legs = text.split(",")
    sqs = []
    for leg in legs:
        i = 1
        while leg[i].isdigit():
            i += 1
        a, b = leg[:i], leg[i:]
        if not sqs:
            sqs.append(unsq(a))
        sqs.append(unsq(b))
    frm, to = sqs[0], sqs[-1]
    caps = sorted(set(tuple(s) for s in sqs[1:] if tuple(s) in occupied and s != frm))
    return (tuple(frm), tuple(to), tuple(caps), prom)

class Hachu:
    """HaChu over XBoard, in force mode; positions are reached by playing moves from `new`
    (its setboard takes no side to move, and after it HaChu generates moves for pieces that
    are no longer there)."""
    def __init__(self):
        self.p = subprocess.Popen([HACHU], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.n = 0
        self.send("xboard\nprotover 2\nvariant %s\nnew\nmemory 16\noption Allow repeats=1\nforce" % GAME)
        self.sync()

    def send(self, s):
        self.p.stdin.write(s + "\n")
        self.p.stdin.flush()

    def sync(self, timeout=120):
        self.n += 1
        self.send("ping %d" % self.n)
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("hachu died: %r" % lines[-5:])
            line = line.strip()
            if line == "pong %d" % self.n:
                return lines
            if not line.startswith("#"):
                lines.append(line)

    def reset(self, moves):
        self.send("new\nforce")
        for m in moves:
            self.send("usermove " + m)
        lines = self.sync()
        assert not any(l.startswith("Illegal") for l in lines), lines

    def go(self, sd):
        self.send("sd %d\ngo" % sd)
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("hachu died")
            # A two-leg move comes as two lines, "move a1b2," and "move b2c3".
            while line.startswith("move ") and line.rstrip("\n").endswith(","):
                line = line.rstrip("\n") + self.p.stdout.readline()[5:]
            line = line.strip()
            if line.startswith("move "):
                self.send("force")
                self.sync()
                return line[5:]
            if line.startswith(("1-0", "0-1", "1/2")) or "resign" in line:
                self.send("force")
                self.sync()
                return None

    def try_move(self, move):
        """Whether HaChu takes `move` here; a taken move is undone."""
        self.send("usermove %s" % move)
        lines = self.sync()
        ok = not any(l.startswith("Illegal move") for l in lines)
        if ok:
            self.send("undo")
            self.sync()
        return ok, lines

def occupied_of(pos):
    rows = pos.split(" ")[0].split("/")
    occ = set()
    for r, row in enumerate(rows):
        x = 0
        for c in row.split(","):
            if c.isdigit():
                x += int(c)
            else:
                occ.add((x, N - 1 - r))
                x += 1
    return occ

def fnv1a(s):
    h = 0xcbf29ce484222325
    for b in s.encode():
        h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
    return h

def main():
    random.seed(SEED)
    h = Hachu()
    stats = dict(games=0, hachu_moves=0, hachu_illegal_for_us=0, positions=0, our_moves=0,
                 refused_by_hachu=0)
    digest = hashlib.sha256()
    samples = []
    problems = []
    for g in range(GAMES):
        h.reset([])
        d = tk(None)
        pos = d["position"]
        line = []
        for ply in range(300):
            if not d["moves"]:
                break
            samples.append((pos, list(line)))
            ours = {key(m): m for m in d["moves"]}
            if random.random() < 0.3:
                m = random.choice(d["moves"])
                FLIP[0] = False
                ok, _ = h.try_move(hachu_text(m))
                if not ok:
                    problems.append(("refused in game", pos, m["notation"], hachu_text(m)))
                    break
                h.send("usermove " + hachu_text(m))
                h.sync()
            else:
                mv = h.go(random.choice([2, 3, 4]))
                if mv is None:
                    break
                try:
                    k = parse_hachu(mv, occupied_of(pos))
                except Exception:
                    print("unparsed", repr(mv), file=sys.stderr)
                    raise
                stats["hachu_moves"] += 1
                if k not in ours:
                    stats["hachu_illegal_for_us"] += 1
                    problems.append(("hachu move not ours", pos, mv, k))
                    break
                m = ours[k]
            line.append(hachu_text(m))
            d = tk(pos, m["notation"])
            pos = d["position"]
        stats["games"] += 1
        print("game", g, "plies", ply, stats, file=sys.stderr)
    random.shuffle(samples)
    oracle = []
    for pos, line in samples[:SAMPLES]:
        d = tk(pos)
        h.reset(line)
        stats["positions"] += 1
        digest.update(pos.encode())
        refused = []
        for m in d["moves"]:
            stats["our_moves"] += 1
            ok, lines = h.try_move(hachu_text(m))
            digest.update(("%s %d\n" % (m["notation"], ok)).encode())
            if not ok:
                stats["refused_by_hachu"] += 1
                refused.append(m["notation"])
                problems.append(("refused", pos, m["notation"], hachu_text(m), line))
        names = sorted(m["notation"] for m in d["moves"])
        entry = "%d %016x %s" % (len(names), fnv1a(" ".join(names)), pos)
        if refused:
            entry += " | " + " ".join(sorted(refused))
        oracle.append(entry)
    with open("oracle-%s-%d.txt" % (GAME, SEED), "w") as f:
        f.write("# " + json.dumps(stats) + "\n")
        for e in oracle:
            f.write(e + "\n")
    print(json.dumps(stats))
    print("digest", digest.hexdigest())
    with open("problems-%s-%d.txt" % (GAME, SEED), "w") as f:
        for p in problems:
            f.write(repr(p) + "\n")
    with open("samples-%s-%d.txt" % (GAME, SEED), "w") as f:
        for pos, line in samples[:SAMPLES]:
            f.write(pos + "\n")

main()
