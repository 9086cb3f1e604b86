//! A deliberately simple reference move generator for Extreme 2D Chess, written straight from
//! `shared/rules/extreme-2d-chess.md`: a mailbox of optional stacks, moves as strings, every
//! area and ride walked cell by cell, legality by playing the move on a copy and asking
//! whether any enemy stack could capture the King. It shares no code with the engine.
//!
//! Text format (the engine's compact one): ranks 10..1 separated by `/`, empty runs as
//! numbers, a stack as `P`/`H`/`K` (White) or `p`/`h`/`k` (Black), or `[` owner letter and
//! power discs `r`/`b`/`y` `]`; then `w` or `b`; clocks are ignored. Move texts: `e3e4`,
//! `e9e10h` (promotion), `K@c1,H@h1` (placement), `e1<>h5` (swap).
//!
//! The simple-powers form (`extreme-2d-simple`, the inventor's first games, rules file X14) is
//! the same game with at most one disc of a colour in a stack: [`RefPos::simple`].

#![allow(dead_code)]

/// One stack: owner, top disc (`'P'` plain, `'H'` Heir, `'K'` King) and power discs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Stack {
    /// Owner is White.
    pub white: bool,
    /// Top disc.
    pub top: char,
    /// Red discs.
    pub r: u8,
    /// Blue discs.
    pub b: u8,
    /// Yellow discs.
    pub y: u8,
}

impl Stack {
    fn is_pawn(&self) -> bool {
        self.top == 'P' && self.r == 0 && self.b == 0 && self.y == 0
    }
}

/// A reference position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RefPos {
    /// Index `x + 10 * y`, `a1` = 0.
    pub board: Vec<Option<Stack>>,
    /// White is to move.
    pub white_to_move: bool,
    /// The most discs of one colour a stack keeps after a capture: 2, or 1 in the
    /// simple-powers form.
    pub cap: u8,
}

fn cell_name(x: i32, y: i32) -> String {
    format!("{}{}", (b'a' + x as u8) as char, y + 1)
}

fn on_board(x: i32, y: i32) -> bool {
    (0..10).contains(&x) && (0..10).contains(&y)
}

/// Reads the compact position text.
pub fn parse(text: &str) -> Result<RefPos, String> {
    let mut parts = text.split_whitespace();
    let board_text = parts.next().ok_or("no board")?;
    let side = parts.next().ok_or("no side")?;
    let rows: Vec<&str> = board_text.split('/').collect();
    if rows.len() != 10 {
        return Err("need 10 ranks".into());
    }
    let mut board = vec![None; 100];
    for (i, row) in rows.iter().enumerate() {
        let y = 9 - i as i32;
        let mut x = 0i32;
        let chars: Vec<char> = row.chars().collect();
        let mut k = 0;
        while k < chars.len() {
            let c = chars[k];
            if c.is_ascii_digit() {
                let mut n = 0;
                while k < chars.len() && chars[k].is_ascii_digit() {
                    n = n * 10 + chars[k].to_digit(10).unwrap() as i32;
                    k += 1;
                }
                x += n;
                continue;
            }
            let mut discs = Vec::new();
            if c == '[' {
                k += 1;
                while k < chars.len() && chars[k] != ']' {
                    discs.push(chars[k]);
                    k += 1;
                }
                k += 1;
            } else {
                discs.push(c);
                k += 1;
            }
            let mut st = Stack {
                white: true,
                top: '?',
                r: 0,
                b: 0,
                y: 0,
            };
            for d in discs {
                match d {
                    'P' | 'H' | 'K' => {
                        st.white = true;
                        st.top = d;
                    }
                    'p' | 'h' | 'k' => {
                        st.white = false;
                        st.top = d.to_ascii_uppercase();
                    }
                    'r' => st.r += 1,
                    'b' => st.b += 1,
                    'y' => st.y += 1,
                    _ => return Err(format!("bad disc {d}")),
                }
            }
            if st.top == '?' || !on_board(x, y) {
                return Err("bad stack".into());
            }
            board[(x + 10 * y) as usize] = Some(st);
            x += 1;
        }
        if x != 10 {
            return Err("bad rank width".into());
        }
    }
    let white_to_move = match side {
        "w" => true,
        "b" => false,
        _ => return Err("bad side".into()),
    };
    Ok(RefPos {
        board,
        white_to_move,
        cap: 2,
    })
}

impl RefPos {
    /// The same position under the simple-powers rule: a capture keeps at most one disc of a
    /// colour.
    pub fn simple(self) -> RefPos {
        RefPos { cap: 1, ..self }
    }

    fn at(&self, x: i32, y: i32) -> Option<Stack> {
        self.board[(x + 10 * y) as usize]
    }

    fn empty(&self, x: i32, y: i32) -> bool {
        self.at(x, y).is_none()
    }

    fn find(&self, white: bool, top: char) -> Option<(i32, i32)> {
        (0..100).find_map(|i| match self.board[i] {
            Some(s) if s.white == white && s.top == top => Some((i as i32 % 10, i as i32 / 10)),
            _ => None,
        })
    }

    /// Whether the stack on `(ox, oy)` could move to `(dx, dy)` by one of its non-Pawn
    /// components, looking only at the cells in between (not at the destination).
    fn reaches(&self, ox: i32, oy: i32, tx: i32, ty: i32) -> bool {
        let st = self.at(ox, oy).unwrap();
        let (dx, dy) = (tx - ox, ty - oy);
        if (dx, dy) == (0, 0) {
            return false;
        }
        // Royal step.
        if st.top != 'P' && dx.abs() <= 1 && dy.abs() <= 1 {
            return true;
        }
        // One red: Rook slide, walking the line.
        if st.r >= 1 && (dx == 0 || dy == 0) {
            let (sx, sy) = (dx.signum(), dy.signum());
            let (mut x, mut y) = (ox + sx, oy + sy);
            let mut clear = true;
            while (x, y) != (tx, ty) {
                if !self.empty(x, y) {
                    clear = false;
                }
                x += sx;
                y += sy;
            }
            if clear {
                return true;
            }
        }
        // Two reds: every cell of the rectangle except both corners empty.
        if st.r == 2 {
            let mut clear = true;
            for x in ox.min(tx)..=ox.max(tx) {
                for y in oy.min(ty)..=oy.max(ty) {
                    if (x, y) != (ox, oy) && (x, y) != (tx, ty) && !self.empty(x, y) {
                        clear = false;
                    }
                }
            }
            if clear {
                return true;
            }
        }
        // One blue: Bishop slide.
        if st.b >= 1 && dx.abs() == dy.abs() {
            let (sx, sy) = (dx.signum(), dy.signum());
            let (mut x, mut y) = (ox + sx, oy + sy);
            let mut clear = true;
            while (x, y) != (tx, ty) {
                if !self.empty(x, y) {
                    clear = false;
                }
                x += sx;
                y += sy;
            }
            if clear {
                return true;
            }
        }
        // Two blues: the 45° rectangle, entirely on the board.
        if st.b == 2 && (dx + dy) % 2 == 0 {
            let p = (dx + dy) / 2;
            let q = (dx - dy) / 2;
            let u = (p.signum(), p.signum());
            let w = (q.signum(), -q.signum());
            let mut ok = true;
            for i in 0..=p.abs() {
                for j in 0..=q.abs() {
                    let x = ox + i * u.0 + j * w.0;
                    let y = oy + i * u.1 + j * w.1;
                    let corner = (x, y) == (ox, oy) || (x, y) == (tx, ty);
                    if !on_board(x, y) || (!corner && !self.empty(x, y)) {
                        ok = false;
                    }
                }
            }
            if ok {
                return true;
            }
        }
        // One yellow: Knight leap.
        if st.y >= 1 && ((dx.abs() == 1 && dy.abs() == 2) || (dx.abs() == 2 && dy.abs() == 1)) {
            return true;
        }
        // Two yellows: Nightrider, landing cells before the destination empty.
        if st.y == 2 {
            for (vx, vy) in [
                (1, 2),
                (2, 1),
                (2, -1),
                (1, -2),
                (-1, -2),
                (-2, -1),
                (-2, 1),
                (-1, 2),
            ] {
                let (mut x, mut y) = (ox + vx, oy + vy);
                while on_board(x, y) {
                    if (x, y) == (tx, ty) {
                        return true;
                    }
                    if !self.empty(x, y) {
                        break;
                    }
                    x += vx;
                    y += vy;
                }
            }
        }
        false
    }

    /// Whether a stack of the given side could capture on `(tx, ty)`.
    fn attacked_by(&self, white: bool, tx: i32, ty: i32) -> bool {
        for i in 0..100 {
            let Some(st) = self.board[i] else { continue };
            if st.white != white {
                continue;
            }
            let (x, y) = (i as i32 % 10, i as i32 / 10);
            if st.is_pawn() {
                let fwd = if white { 1 } else { -1 };
                if (x, y + fwd) == (tx, ty) {
                    return true;
                }
            } else if self.reaches(x, y, tx, ty) {
                return true;
            }
        }
        false
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        match self.find(self.white_to_move, 'K') {
            Some((x, y)) => self.attacked_by(!self.white_to_move, x, y),
            None => false,
        }
    }

    fn mover_king_safe_after(&self, mv: &str) -> bool {
        let next = self.play(mv);
        let me = self.white_to_move;
        match next.find(me, 'K') {
            Some((x, y)) => !next.attacked_by(!me, x, y),
            None => true,
        }
    }

    /// Every legal move text, sorted.
    pub fn legal_moves(&self) -> Vec<String> {
        let me = self.white_to_move;
        let mut cands = Vec::new();
        if self.find(me, 'K').is_none() {
            let rank = if me { 1 } else { 10 };
            cands.push(format!("K@c{rank},H@h{rank}"));
            cands.push(format!("K@h{rank},H@c{rank}"));
        } else {
            let heir_on_board = self.find(me, 'H').is_some();
            for i in 0..100 {
                let Some(st) = self.board[i] else { continue };
                if st.white != me {
                    continue;
                }
                let (x, y) = (i as i32 % 10, i as i32 / 10);
                if st.is_pawn() {
                    let ny = if me { y + 1 } else { y - 1 };
                    if !on_board(x, ny) {
                        continue;
                    }
                    let last = if me { 9 } else { 0 };
                    match self.at(x, ny) {
                        Some(t) if t.white == me => {}
                        Some(_) => cands.push(format!("{}{}", cell_name(x, y), cell_name(x, ny))),
                        None => {
                            if ny != last {
                                cands.push(format!("{}{}", cell_name(x, y), cell_name(x, ny)));
                            } else if !heir_on_board {
                                cands.push(format!("{}{}h", cell_name(x, y), cell_name(x, ny)));
                            }
                        }
                    }
                    continue;
                }
                for ty in 0..10 {
                    for tx in 0..10 {
                        if let Some(t) = self.at(tx, ty) {
                            if t.white == me {
                                continue;
                            }
                        }
                        if self.reaches(x, y, tx, ty) {
                            cands.push(format!("{}{}", cell_name(x, y), cell_name(tx, ty)));
                        }
                    }
                }
            }
            if heir_on_board && self.in_check() {
                let (kx, ky) = self.find(me, 'K').unwrap();
                let (hx, hy) = self.find(me, 'H').unwrap();
                cands.push(format!("{}<>{}", cell_name(kx, ky), cell_name(hx, hy)));
            }
        }
        let mut out: Vec<String> = cands
            .into_iter()
            .filter(|m| self.mover_king_safe_after(m))
            .collect();
        out.sort();
        out
    }

    /// The position after the move written `mv` (assumed legal).
    pub fn play(&self, mv: &str) -> RefPos {
        let me = self.white_to_move;
        let mut next = self.clone();
        next.white_to_move = !me;
        let cells = cells_in(mv);
        let idx = |(x, y): (i32, i32)| (x + 10 * y) as usize;
        if mv.contains('@') {
            let royal = |top| Stack {
                white: me,
                top,
                r: 0,
                b: 0,
                y: 0,
            };
            next.board[idx(cells[0])] = Some(royal('K'));
            next.board[idx(cells[1])] = Some(royal('H'));
        } else if mv.contains("<>") {
            let a = idx(cells[0]);
            let b = idx(cells[1]);
            let mut k = next.board[a].unwrap();
            let mut h = next.board[b].unwrap();
            k.top = 'H';
            h.top = 'K';
            next.board[a] = Some(k);
            next.board[b] = Some(h);
        } else {
            let from = idx(cells[0]);
            let to = idx(cells[1]);
            let mut st = next.board[from].take().unwrap();
            if mv.ends_with('h') {
                st = Stack {
                    white: me,
                    top: 'H',
                    r: 0,
                    b: 0,
                    y: 0,
                };
            } else if let Some(v) = next.board[to] {
                st.r = (st.r + v.r).min(self.cap);
                st.b = (st.b + v.b).min(self.cap);
                st.y = (st.y + v.y).min(self.cap);
            }
            next.board[to] = Some(st);
        }
        next
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

/// The cells named in a move text, in order.
fn cells_in(mv: &str) -> Vec<(i32, i32)> {
    let chars: Vec<char> = mv.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if ('a'..='j').contains(&c) && i + 1 < chars.len() && chars[i + 1].is_ascii_digit() {
            let mut j = i + 1;
            let mut n = 0;
            while j < chars.len() && chars[j].is_ascii_digit() {
                n = n * 10 + chars[j].to_digit(10).unwrap() as i32;
                j += 1;
            }
            out.push((c as i32 - 'a' as i32, n - 1));
            i = j;
        } else {
            i += 1;
        }
    }
    out
}
