//! A deliberately simple Gateway Chess move generator written straight from
//! `shared/rules/gateway-chess.md`, sharing no code with the engine: a mailbox of
//! `Option<(side, letter)>` indexed by (file, rank, level), moves as strings, every rule tested
//! cell by cell, legality by playing the move and asking "is my royal threatened?".
//!
//! Levels are numbered as in the rules file: h = 0 is `z` (bottom), h = 4 is `v` (top). It reads
//! the engine's compact position text (`<v>|<w>|<x>|<y>|<z> <side> <halfmove> <fullmove>`,
//! ranks 10 to 1, missing cells skipped) and writes moves as the engine does: `xb3xb4`,
//! `xc9xc10q`, `K>y2`, `T@xb1`.

#![allow(dead_code)]

/// A cell: file 0..4, rank 0..10, level h 0..5 (0 = z).
type Cell = (i32, i32, i32);

/// A position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefPos {
    /// Pieces: (side 0 White / 1 Black, upper-case letter).
    board: Vec<Option<(usize, char)>>,
    /// Each side's Quantum King row (rank, h), if it still has one.
    qk: [Option<(i32, i32)>; 2],
    /// Side to move.
    turn: usize,
}

fn exists(c: Cell) -> bool {
    (0..4).contains(&c.0)
        && (0..10).contains(&c.1)
        && (0..5).contains(&c.2)
        && !((c.0 == 0 || c.0 == 3) && (c.1 == 2 || c.1 == 7))
}

/// One-foot-in-the-grave: every cell of the box between a and b exists.
fn box_ok(a: Cell, b: Cell) -> bool {
    for f in a.0.min(b.0)..=a.0.max(b.0) {
        for r in a.1.min(b.1)..=a.1.max(b.1) {
            for h in a.2.min(b.2)..=a.2.max(b.2) {
                if !exists((f, r, h)) {
                    return false;
                }
            }
        }
    }
    true
}

fn idx(c: Cell) -> usize {
    ((c.2 * 10 + c.1) * 4 + c.0) as usize
}

fn add(c: Cell, v: [i32; 3]) -> Cell {
    (c.0 + v[0], c.1 + v[1], c.2 + v[2])
}

fn name(c: Cell) -> String {
    let level = b"zyxwv"[c.2 as usize] as char;
    format!("{}{}{}", level, (b'a' + c.0 as u8) as char, c.1 + 1)
}

fn parse_cell(s: &str) -> Option<Cell> {
    let b = s.as_bytes();
    let first = *b.first()?;
    let h = b"zyxwv".iter().position(|&x| x == first)? as i32;
    let f = (*b.get(1)? as i32) - ('a' as i32);
    let r: i32 = s.get(2..)?.parse().ok()?;
    let c = (f, r - 1, h);
    exists(c).then_some(c)
}

/// All sign choices and orders of (a, b, c).
fn family(a: i32, b: i32, c: i32) -> Vec<[i32; 3]> {
    let mut out = Vec::new();
    for p in [
        [a, b, c],
        [a, c, b],
        [b, a, c],
        [b, c, a],
        [c, a, b],
        [c, b, a],
    ] {
        for s in 0..8 {
            let v = [
                if s & 1 == 1 { -p[0] } else { p[0] },
                if s & 2 == 2 { -p[1] } else { p[1] },
                if s & 4 == 4 { -p[2] } else { p[2] },
            ];
            if !out.contains(&v) {
                out.push(v);
            }
        }
    }
    out
}

type Vectors = Vec<[i32; 3]>;

/// (ride vectors, leap vectors) of a piece letter (not Pawn), computed once.
fn movement(letter: char) -> &'static (Vectors, Vectors) {
    static TABLE: std::sync::OnceLock<Vec<(char, (Vectors, Vectors))>> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        "RBUQDGNSJCMOE"
            .chars()
            .map(|l| (l, movement_of(l)))
            .collect()
    });
    static NONE: (Vectors, Vectors) = (Vec::new(), Vec::new());
    table
        .iter()
        .find(|(l, _)| *l == letter)
        .map_or(&NONE, |(_, m)| m)
}

fn movement_of(letter: char) -> (Vectors, Vectors) {
    let o = || family(1, 0, 0);
    let d = || family(1, 1, 0);
    let t = || family(1, 1, 1);
    let n = || family(2, 1, 0);
    let s = || family(2, 1, 1);
    let j = || family(2, 2, 1);
    let cat = |a: Vec<[i32; 3]>, b: Vec<[i32; 3]>| a.into_iter().chain(b).collect::<Vec<_>>();
    match letter {
        'R' => (o(), vec![]),
        'B' => (d(), vec![]),
        'U' => (t(), vec![]),
        'Q' => (cat(o(), d()), vec![]),
        'D' => (cat(o(), t()), vec![]),
        'G' => (cat(d(), t()), vec![]),
        'N' => (vec![], n()),
        'S' => (vec![], s()),
        'J' => (vec![], j()),
        'C' => (vec![], cat(n(), s())),
        'M' => (vec![], cat(n(), j())),
        'O' => (vec![], cat(s(), j())),
        'E' => (vec![], cat(cat(o(), d()), t())),
        _ => (vec![], vec![]),
    }
}

fn all_cells() -> impl Iterator<Item = Cell> {
    static CELLS: std::sync::OnceLock<Vec<Cell>> = std::sync::OnceLock::new();
    CELLS.get_or_init(cells_of_board).iter().copied()
}

fn cells_of_board() -> Vec<Cell> {
    let mut v = Vec::new();
    for h in 0..5 {
        for r in 0..10 {
            for f in 0..4 {
                if exists((f, r, h)) {
                    v.push((f, r, h));
                }
            }
        }
    }
    v
}

fn row_full(r: i32, h: i32) -> bool {
    (0..4).all(|f| exists((f, r, h)))
}

/// Reads the engine's compact text.
pub fn parse(text: &str) -> Result<RefPos, String> {
    let fields: Vec<&str> = text.split(' ').collect();
    let levels: Vec<&str> = fields.first().ok_or("empty")?.split('|').collect();
    if levels.len() != 5 {
        return Err(format!("{} levels", levels.len()));
    }
    let mut p = RefPos {
        board: vec![None; 200],
        qk: [None, None],
        turn: match fields.get(1) {
            Some(&"w") => 0,
            Some(&"b") => 1,
            _ => return Err("side".into()),
        },
    };
    for (li, level) in levels.iter().enumerate() {
        let h = 4 - li as i32;
        let ranks: Vec<&str> = level.split('/').collect();
        if ranks.len() != 10 {
            return Err("ranks".into());
        }
        for (ri, rank) in ranks.iter().enumerate() {
            let r = 9 - ri as i32;
            let files: Vec<i32> = (0..4).filter(|&f| exists((f, r, h))).collect();
            let mut k = 0;
            for ch in rank.chars() {
                if let Some(n) = ch.to_digit(10) {
                    k += n as usize;
                    continue;
                }
                let f = *files.get(k).ok_or("rank too long")?;
                let side = if ch.is_ascii_uppercase() { 0 } else { 1 };
                let up = ch.to_ascii_uppercase();
                if up == 'K' {
                    p.qk[side] = Some((r, h));
                } else if "PRBUQDGNSJCMOE".contains(up) {
                    p.board[idx((f, r, h))] = Some((side, up));
                } else {
                    return Err(format!("letter {ch}"));
                }
                k += 1;
            }
            if k != files.len() {
                return Err("rank length".into());
            }
        }
    }
    Ok(p)
}

impl RefPos {
    fn on_qk(&self, c: Cell) -> bool {
        self.qk.iter().flatten().any(|&(r, h)| c.1 == r && c.2 == h)
    }

    fn blocked(&self, c: Cell) -> bool {
        self.board[idx(c)].is_some() || self.on_qk(c)
    }

    /// Rows side `s`'s QK could step to (conditions 1–3; never onto the enemy QK's row).
    fn qk_steps(&self, s: usize) -> Vec<(i32, i32)> {
        let mut out = Vec::new();
        let Some((r, h)) = self.qk[s] else {
            return out;
        };
        for dr in -1..=1 {
            for dh in -1..=1 {
                if dr == 0 && dh == 0 {
                    continue;
                }
                let (nr, nh) = (r + dr, h + dh);
                if !row_full(nr, nh) {
                    continue;
                }
                if dr != 0 && dh != 0 && !(row_full(r + dr, h) && row_full(r, h + dh)) {
                    continue;
                }
                let friendly =
                    (0..4).any(|f| matches!(self.board[idx((f, nr, nh))], Some((o, _)) if o == s));
                let enemy_qk = self.qk[1 - s] == Some((nr, nh));
                if !friendly && !enemy_qk {
                    out.push((nr, nh));
                }
            }
        }
        out
    }

    /// Could a piece of side `by` capture on `x` if it held an ordinary enemy piece?
    fn threatened(&self, x: Cell, by: usize) -> bool {
        for y in all_cells() {
            let Some((s, letter)) = self.board[idx(y)] else {
                continue;
            };
            if s != by {
                continue;
            }
            if letter == 'P' {
                let fwd = if by == 0 { 1 } else { -1 };
                for v in [[1, fwd, 0], [-1, fwd, 0], [0, fwd, 1], [0, fwd, -1]] {
                    if add(y, v) == x && box_ok(y, x) {
                        return true;
                    }
                }
                continue;
            }
            let (rides, leaps) = movement(letter);
            for &v in leaps {
                if add(y, v) == x && exists(x) && box_ok(y, x) {
                    return true;
                }
            }
            for &v in rides {
                let mut cur = y;
                loop {
                    let next = add(cur, v);
                    if !exists(next) || !box_ok(cur, next) {
                        break;
                    }
                    if next == x {
                        return true;
                    }
                    if self.blocked(next) {
                        break;
                    }
                    cur = next;
                }
            }
        }
        self.qk_steps(by).iter().any(|&(r, h)| x.1 == r && x.2 == h)
    }

    fn qk_cells(&self, s: usize) -> Vec<Cell> {
        match self.qk[s] {
            Some((r, h)) => (0..4).map(|f| (f, r, h)).collect(),
            None => vec![],
        }
    }

    fn emperor(&self, s: usize) -> Option<Cell> {
        all_cells().find(|&c| self.board[idx(c)] == Some((s, 'E')))
    }

    /// Whether side `s`'s royal is threatened (any QK cell, or its Emperor).
    fn royal_threatened(&self, s: usize) -> bool {
        if self.qk[s].is_some() {
            self.qk_cells(s).iter().any(|&c| self.threatened(c, 1 - s))
        } else {
            self.emperor(s).is_some_and(|e| self.threatened(e, 1 - s))
        }
    }

    /// Whether the side to move is in check (a threatened QK cell, or the Emperor attacked).
    pub fn in_check(&self) -> bool {
        self.royal_threatened(self.turn)
    }

    /// Normal moves (and QK steps), before the royal-safety test.
    fn pseudo_moves(&self) -> Vec<String> {
        let me = self.turn;
        let mut out = Vec::new();
        let target_ok = |c: Cell| -> bool {
            !self.on_qk(c) && !matches!(self.board[idx(c)], Some((s, _)) if s == me)
        };
        for y in all_cells() {
            let Some((s, letter)) = self.board[idx(y)] else {
                continue;
            };
            if s != me {
                continue;
            }
            let mut tos = Vec::new();
            if letter == 'P' {
                let fwd = if me == 0 { 1 } else { -1 };
                let ahead = add(y, [0, fwd, 0]);
                if exists(ahead) && !self.blocked(ahead) {
                    tos.push(ahead);
                }
                for v in [[1, fwd, 0], [-1, fwd, 0], [0, fwd, 1], [0, fwd, -1]] {
                    let t = add(y, v);
                    if exists(t)
                        && box_ok(y, t)
                        && !self.on_qk(t)
                        && matches!(self.board[idx(t)], Some((o, _)) if o != me)
                    {
                        tos.push(t);
                    }
                }
                let last = if me == 0 { 9 } else { 0 };
                for t in tos {
                    if t.1 == last {
                        for l in "rbuqdgnsjcmo".chars() {
                            out.push(format!("{}{}{}", name(y), name(t), l));
                        }
                    } else {
                        out.push(format!("{}{}", name(y), name(t)));
                    }
                }
                continue;
            }
            let (rides, leaps) = movement(letter);
            for &v in leaps {
                let t = add(y, v);
                if exists(t) && box_ok(y, t) && target_ok(t) {
                    tos.push(t);
                }
            }
            for &v in rides {
                let mut cur = y;
                loop {
                    let next = add(cur, v);
                    if !exists(next) || !box_ok(cur, next) || self.on_qk(next) {
                        break;
                    }
                    if target_ok(next) {
                        tos.push(next);
                    }
                    if self.blocked(next) {
                        break;
                    }
                    cur = next;
                }
            }
            for t in tos {
                out.push(format!("{}{}", name(y), name(t)));
            }
        }
        for (r, h) in self.qk_steps(me) {
            out.push(format!("K>{}{}", b"zyxwv"[h as usize] as char, r + 1));
        }
        out
    }

    /// Every legal move, sorted, following section 6 of the rules file.
    pub fn legal_moves(&self) -> Vec<String> {
        let me = self.turn;
        let mut out: Vec<String>;
        let transforms = |cells: Vec<Cell>| -> Vec<String> {
            cells
                .into_iter()
                .map(|c| format!("T@{}", name(c)))
                .filter(|m| !self.play(m).royal_threatened(me))
                .collect()
        };
        if self.qk[me].is_some() {
            let cells = self.qk_cells(me);
            let t: Vec<Cell> = cells
                .iter()
                .copied()
                .filter(|&c| self.threatened(c, 1 - me))
                .collect();
            if t.len() == 4 {
                out = vec![];
            } else if !t.is_empty() {
                out = transforms(cells);
            } else {
                out = self
                    .pseudo_moves()
                    .into_iter()
                    .filter(|m| !self.play(m).royal_threatened(me))
                    .collect();
                if out.is_empty() {
                    out = transforms(cells);
                }
            }
        } else {
            out = self
                .pseudo_moves()
                .into_iter()
                .filter(|m| !self.play(m).royal_threatened(me))
                .collect();
        }
        out.sort();
        out
    }

    /// The position after `mv` (a move text as `legal_moves` writes it).
    pub fn play(&self, mv: &str) -> RefPos {
        let me = self.turn;
        let mut p = self.clone();
        p.turn = 1 - me;
        if let Some(row) = mv.strip_prefix("K>") {
            let h = b"zyxwv"
                .iter()
                .position(|&x| x == row.as_bytes()[0])
                .unwrap() as i32;
            let r: i32 = row[1..].parse::<i32>().unwrap() - 1;
            for f in 0..4 {
                p.board[idx((f, r, h))] = None;
            }
            p.qk[me] = Some((r, h));
            return p;
        }
        if let Some(cell) = mv.strip_prefix("T@") {
            let c = parse_cell(cell).unwrap();
            p.qk[me] = None;
            p.board[idx(c)] = Some((me, 'E'));
            return p;
        }
        let split = mv[1..]
            .find(|ch| "vwxyz".contains(ch))
            .map(|i| i + 1)
            .unwrap();
        let from = parse_cell(&mv[..split]).unwrap();
        let rest = &mv[split..];
        let (to_text, promo) = match rest.chars().last() {
            Some(ch) if ch.is_ascii_alphabetic() => (&rest[..rest.len() - 1], Some(ch)),
            _ => (rest, None),
        };
        let to = parse_cell(to_text).unwrap();
        let piece = p.board[idx(from)].take().unwrap();
        p.board[idx(to)] = Some(match promo {
            Some(l) => (me, l.to_ascii_uppercase()),
            None => piece,
        });
        p
    }

    /// Leaf count `depth` plies below.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|m| self.play(m).perft(depth - 1)).sum()
    }
}
