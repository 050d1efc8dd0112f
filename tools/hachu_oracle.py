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

def sq(xy):
    """Our (x, y) in HaChu's squares: files a… from Black's left, ranks 1… from Black's side."""
    return "%s%d" % (chr(97 + xy[0]), xy[1] + 1)

def unsq(s):
    return [ord(s[0]) - 97, int(s[1:]) - 1]

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
        self.send("xboard\nprotover 2\nnew\nvariant %s\nmemory 16\noption Allow repeats=1\nforce" % GAME)
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
        self.send("new\nvariant %s\nforce" % GAME)
        for m in moves:
            self.send("usermove " + m)
        lines = self.sync()
        assert not any(l.startswith("Illegal") for l in lines), lines

    def go(self, sd):
        """HaChu's move at depth `sd`, and the squares its board (the debug dump it prints
        before searching) has occupied, as (x, y)."""
        self.send("sd %d\ngo" % sd)
        self.board = set()
        rows = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("hachu died")
            if line.startswith("#") and len(line.rstrip("\n")) == 1 + 4 * (N + 6):
                rows.append([line[1 + 4 * i:5 + 4 * i] for i in range(N + 6)])
                inner = [r for r in rows if r[3].strip() != "2048"]
                if len(inner) == N:
                    self.board = {(x, N - 1 - i) for i, r in enumerate(inner)
                                  for x in range(N) if r[3 + x].strip() != "0"}
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

def tk_line(moves):
    """Our moves and position after `moves` (our notation) from the opening: played, so that
    state beyond the board (the counter-strike) is kept."""
    args = [TK, "--game", GAME, "moves", "--json", "--position-out"]
    if RULES:
        args += ["--rules", RULES]
    if moves:
        args += ["--after"] + list(moves)
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(r.stderr)
    return json.loads(r.stdout)

def main():
    random.seed(SEED)
    h = Hachu()
    stats = dict(games=0, hachu_moves=0, hachu_illegal_for_us=0, positions=0, our_moves=0,
                 refused_by_hachu=0)
    samples = []
    problems = []
    games = []
    for g in range(GAMES):
        h.reset([])
        ours_line, line = [], []
        d = tk_line(ours_line)
        for ply in range(300):
            pos = d["position"]
            if not d["moves"]:
                break
            samples.append((g, len(ours_line), list(line), list(ours_line)))
            ours = {key(m): m for m in d["moves"]}
            if random.random() < 0.3:
                m = random.choice(d["moves"])
                ok, _ = h.try_move(hachu_text(m))
                if not ok:
                    problems.append(("refused in game", pos, m["notation"], hachu_text(m), line))
                    h.reset(line)
                    continue
                h.send("usermove " + hachu_text(m))
                h.sync()
            else:
                mv = h.go(random.choice([2, 3, 4]))
                if mv is None:
                    break
                if h.board and h.board != occupied_of(pos):
                    diff = sorted(h.board ^ occupied_of(pos))
                    problems.append(("boards differ", pos, mv, diff, line))
                    print("boards differ", pos, diff, line[-4:], file=sys.stderr)
                    break
                try:
                    k = parse_hachu(mv, occupied_of(pos))
                except (ValueError, IndexError):
                    problems.append(("unparsed", pos, mv, None, line))
                    break
                stats["hachu_moves"] += 1
                if k not in ours:
                    stats["hachu_illegal_for_us"] += 1
                    problems.append(("hachu move not ours", pos, mv, k, line))
                    break
                m = ours[k]
            line.append(hachu_text(m))
            ours_line.append(m["notation"])
            d = tk_line(ours_line)
        games.append(ours_line)
        stats["games"] += 1
        print("game", g, "plies", ply, stats, file=sys.stderr)
    random.shuffle(samples)
    samples = sorted(samples[:SAMPLES])
    oracle = []
    for g, ply, line, ours_line in samples:
        d = tk_line(ours_line)
        h.reset(line)
        stats["positions"] += 1
        refused = []
        for m in d["moves"]:
            stats["our_moves"] += 1
            ok, lines = h.try_move(hachu_text(m))
            if not ok:
                stats["refused_by_hachu"] += 1
                refused.append(m["notation"])
                problems.append(("refused", d["position"], m["notation"], hachu_text(m), line))
                # A refusal may leave HaChu in another state: start the position again.
                h.reset(line)
        names = sorted(m["notation"] for m in d["moves"])
        entry = "at %d %d %d %016x" % (g, ply, len(names), fnv1a(" ".join(names)))
        if refused:
            entry += " | " + " ".join(sorted(refused))
        oracle.append(entry)
    with open("oracle-%s-%d.txt" % (GAME, SEED), "w") as f:
        f.write("# " + json.dumps(stats) + "\n")
        for g, moves in enumerate(games):
            f.write("game %d %s\n" % (g, " ".join(moves)))
        for e in oracle:
            f.write(e + "\n")
    print(json.dumps(stats))
    with open("problems-%s-%d.txt" % (GAME, SEED), "w") as f:
        for p in problems:
            f.write(repr(p) + "\n")

main()
