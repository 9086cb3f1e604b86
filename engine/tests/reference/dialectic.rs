//! A deliberately simple reference generator for Dialectic Chess and its Hegelian form,
//! written straight from `shared/rules/dialectic-chess.md`: a mailbox of characters, vectors
//! in `Vec`s, legality by playing the move and asking whether the mover's King is attacked.
//! Same text format and move notation as the engine (`e2e4`, `b7b8q`, `e1g1`, `T02`, `A11`,
//! `S12`).

#![allow(dead_code)]

/// A reference position.
#[derive(Clone, Debug)]
pub struct RefPos {
    /// `board[x][y]`: '.' or a piece letter (upper case White).
    board: Vec<Vec<char>>,
    white: bool,
    castle: Vec<char>,
    ep: Option<(i32, i32)>,
    t: (i32, i32),
    a: (i32, i32),
    visited: Vec<((i32, i32), (i32, i32))>,
    hegelian: bool,
}

fn vectors(c: (i32, i32)) -> Vec<(i32, i32)> {
    let (a, b) = c;
    let mut v = Vec::new();
    if a == 0 && b == 0 {
        return v;
    }
    for w in [
        (a, b),
        (a, -b),
        (-a, b),
        (-a, -b),
        (b, a),
        (b, -a),
        (-b, a),
        (-b, -a),
    ] {
        if !v.contains(&w) {
            v.push(w);
        }
    }
    v
}

fn on(x: i32, y: i32) -> bool {
    (0..8).contains(&x) && (0..8).contains(&y)
}

fn sq(x: i32, y: i32) -> String {
    format!("{}{}", (b'a' + x as u8) as char, y + 1)
}

/// Parses the text format; `hegelian` picks the form.
pub fn parse_form(text: &str, hegelian: bool) -> Result<RefPos, String> {
    let f: Vec<&str> = text.split_whitespace().collect();
    if f.len() < 7 {
        return Err("fields".into());
    }
    let mut board = vec![vec!['.'; 8]; 8];
    for (i, row) in f[0].split('/').enumerate() {
        let y = 7 - i as i32;
        let mut x = 0;
        for ch in row.chars() {
            if let Some(d) = ch.to_digit(10) {
                x += d as i32;
            } else {
                board[x as usize][y as usize] = ch;
                x += 1;
            }
        }
    }
    let white = f[1] == "w";
    let castle: Vec<char> = f[2].chars().filter(|&c| c != '-').collect();
    let ep = if f[3] == "-" {
        None
    } else {
        let b = f[3].as_bytes();
        Some(((b[0] - b'a') as i32, (b[1] - b'1') as i32))
    };
    let d = |c: u8| (c - b'0') as i32;
    let tk = f[6].as_bytes();
    let t = (d(tk[1]), d(tk[2]));
    let a = (d(tk[4]), d(tk[5]));
    let mut visited = vec![(t, a)];
    if let Some(v) = f.get(7) {
        for s in v[1..].split(',') {
            let b = s.as_bytes();
            visited.push(((d(b[0]), d(b[1])), (d(b[2]), d(b[3]))));
        }
    }
    Ok(RefPos {
        board,
        white,
        castle,
        ep,
        t,
        a,
        visited,
        hegelian,
    })
}

/// Parses a basic-game position.
pub fn parse(text: &str) -> Result<RefPos, String> {
    parse_form(text, false)
}

impl RefPos {
    fn at(&self, x: i32, y: i32) -> char {
        self.board[x as usize][y as usize]
    }
    fn mine(&self, c: char, white: bool) -> bool {
        c != '.' && c.is_ascii_uppercase() == white
    }

    /// Whether `(x, y)` is attacked by the side `white`.
    fn attacked(&self, x: i32, y: i32, white: bool) -> bool {
        for fx in 0..8 {
            for fy in 0..8 {
                let c = self.at(fx, fy);
                if !self.mine(c, white) {
                    continue;
                }
                let (dx, dy) = (x - fx, y - fy);
                let hit = match c.to_ascii_uppercase() {
                    'P' => dx.abs() == 1 && dy == if white { 1 } else { -1 },
                    'K' => dx.abs() <= 1 && dy.abs() <= 1 && (dx, dy) != (0, 0),
                    'H' => vectors(self.a).contains(&(dx, dy)),
                    'G' => self.rides_to(fx, fy, x, y, &vectors(self.a)),
                    'R' => self.rides_to(fx, fy, x, y, &vectors((1, 0))),
                    'B' => self.rides_to(fx, fy, x, y, &vectors((1, 1))),
                    'Q' => {
                        self.rides_to(fx, fy, x, y, &vectors((1, 0)))
                            || self.rides_to(fx, fy, x, y, &vectors((1, 1)))
                    }
                    _ => false,
                };
                if hit {
                    return true;
                }
            }
        }
        false
    }

    fn rides_to(&self, fx: i32, fy: i32, x: i32, y: i32, vs: &[(i32, i32)]) -> bool {
        for &(vx, vy) in vs {
            let (mut cx, mut cy) = (fx + vx, fy + vy);
            while on(cx, cy) {
                if (cx, cy) == (x, y) {
                    return true;
                }
                if self.at(cx, cy) != '.' {
                    break;
                }
                cx += vx;
                cy += vy;
            }
        }
        false
    }

    fn king_attacked(&self, white: bool) -> bool {
        let k = if white { 'K' } else { 'k' };
        for x in 0..8 {
            for y in 0..8 {
                if self.at(x, y) == k {
                    return self.attacked(x, y, !white);
                }
            }
        }
        false
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.king_attacked(self.white)
    }

    fn pseudo(&self) -> Vec<String> {
        let mut out = Vec::new();
        let w = self.white;
        for fx in 0..8 {
            for fy in 0..8 {
                let c = self.at(fx, fy);
                if !self.mine(c, w) {
                    continue;
                }
                let from = sq(fx, fy);
                let empty = |x: i32, y: i32| on(x, y) && self.at(x, y) == '.';
                let enemy = |x: i32, y: i32| on(x, y) && self.mine(self.at(x, y), !w);
                match c.to_ascii_uppercase() {
                    'P' => {
                        let dy = if w { 1 } else { -1 };
                        let last = if w { 7 } else { 0 };
                        let mut tos = Vec::new();
                        if empty(fx, fy + dy) {
                            tos.push((fx, fy + dy));
                            let start = if w { 1 } else { 6 };
                            if fy == start && empty(fx, fy + 2 * dy) {
                                tos.push((fx, fy + 2 * dy));
                            }
                        }
                        for dx in [-1, 1] {
                            if enemy(fx + dx, fy + dy) || self.ep == Some((fx + dx, fy + dy)) {
                                tos.push((fx + dx, fy + dy));
                            }
                        }
                        for (x, y) in tos {
                            if y == last {
                                for p in ['q', 'r', 'b', 'h'] {
                                    out.push(format!("{from}{}{p}", sq(x, y)));
                                }
                            } else {
                                out.push(format!("{from}{}", sq(x, y)));
                            }
                        }
                    }
                    'H' => {
                        for (vx, vy) in vectors(self.t) {
                            if empty(fx + vx, fy + vy) {
                                out.push(format!("{from}{}", sq(fx + vx, fy + vy)));
                            }
                        }
                        for (vx, vy) in vectors(self.a) {
                            if enemy(fx + vx, fy + vy) {
                                out.push(format!("{from}{}", sq(fx + vx, fy + vy)));
                            }
                        }
                    }
                    'G' => {
                        for (vx, vy) in vectors(self.t) {
                            let (mut x, mut y) = (fx + vx, fy + vy);
                            while empty(x, y) {
                                out.push(format!("{from}{}", sq(x, y)));
                                x += vx;
                                y += vy;
                            }
                        }
                        for (vx, vy) in vectors(self.a) {
                            let (mut x, mut y) = (fx + vx, fy + vy);
                            while empty(x, y) {
                                x += vx;
                                y += vy;
                            }
                            if enemy(x, y) {
                                out.push(format!("{from}{}", sq(x, y)));
                            }
                        }
                    }
                    k => {
                        let (vs, ride) = match k {
                            'R' => (vectors((1, 0)), true),
                            'B' => (vectors((1, 1)), true),
                            'Q' => ([vectors((1, 0)), vectors((1, 1))].concat(), true),
                            _ => ([vectors((1, 0)), vectors((1, 1))].concat(), false),
                        };
                        for (vx, vy) in vs {
                            let (mut x, mut y) = (fx + vx, fy + vy);
                            while on(x, y) && !self.mine(self.at(x, y), w) {
                                out.push(format!("{from}{}", sq(x, y)));
                                if !ride || self.at(x, y) != '.' {
                                    break;
                                }
                                x += vx;
                                y += vy;
                            }
                        }
                        if k == 'K' {
                            let (rank, kc, qc) = if w { (0, 'K', 'Q') } else { (7, 'k', 'q') };
                            let r = if w { 'R' } else { 'r' };
                            if (fx, fy) == (4, rank) && !self.in_check() {
                                if self.castle.contains(&kc)
                                    && self.at(7, rank) == r
                                    && empty(5, rank)
                                    && empty(6, rank)
                                    && !self.attacked(5, rank, !w)
                                {
                                    out.push(format!("{from}{}", sq(6, rank)));
                                }
                                if self.castle.contains(&qc)
                                    && self.at(0, rank) == r
                                    && empty(1, rank)
                                    && empty(2, rank)
                                    && empty(3, rank)
                                    && !self.attacked(3, rank, !w)
                                {
                                    out.push(format!("{from}{}", sq(2, rank)));
                                }
                            }
                        }
                    }
                }
            }
        }
        // Dialectic moves.
        let steps = |c: (i32, i32)| -> Vec<(i32, i32)> {
            [(1, 0), (-1, 0), (0, 1), (0, -1)]
                .iter()
                .map(|&(dx, dy)| (c.0 + dx, c.1 + dy))
                .filter(|&(x, y)| (0..3).contains(&x) && (0..3).contains(&y))
                .collect()
        };
        let mut cands = Vec::new();
        for c in steps(self.t) {
            cands.push(('T', (c, self.a), c));
        }
        for c in steps(self.a) {
            cands.push(('A', (self.t, c), c));
        }
        if self.hegelian && self.t == self.a {
            for c in steps(self.t) {
                cands.push(('S', (c, c), c));
            }
        }
        for (l, st, c) in cands {
            if !self.hegelian && st.0 == st.1 {
                continue;
            }
            if self.visited.contains(&st) {
                continue;
            }
            out.push(format!("{l}{}{}", c.0, c.1));
        }
        out
    }

    /// Plays a move text (assumed legal or pseudo-legal).
    pub fn play(&self, mv: &str) -> RefPos {
        let mut p = self.clone();
        let b = mv.as_bytes();
        let d = |c: u8| (c - b'0') as i32;
        if matches!(b[0], b'T' | b'A' | b'S') {
            let c = (d(b[1]), d(b[2]));
            if b[0] != b'A' {
                p.t = c;
            }
            if b[0] != b'T' {
                p.a = c;
            }
            p.visited.push((p.t, p.a));
            p.ep = None;
        } else {
            let (fx, fy) = ((b[0] - b'a') as i32, (b[1] - b'1') as i32);
            let (tx, ty) = ((b[2] - b'a') as i32, (b[3] - b'1') as i32);
            let c = p.at(fx, fy);
            let mut victim = p.at(tx, ty);
            let up = c.to_ascii_uppercase();
            if up == 'P' && Some((tx, ty)) == self.ep {
                victim = p.at(tx, fy);
                p.board[tx as usize][fy as usize] = '.';
            }
            let mut placed = c;
            if b.len() == 5 {
                let l = b[4] as char;
                placed = if self.white {
                    l.to_ascii_uppercase()
                } else {
                    l
                };
            }
            if up == 'H' && matches!(victim.to_ascii_uppercase(), 'H' | 'G') {
                placed = if self.white { 'G' } else { 'g' };
            }
            if up == 'K' && (tx - fx).abs() == 2 {
                let (rf, rt) = if tx > fx { (7, 5) } else { (0, 3) };
                let r = p.at(rf, fy);
                p.board[rf as usize][fy as usize] = '.';
                p.board[rt as usize][fy as usize] = r;
            }
            p.board[fx as usize][fy as usize] = '.';
            p.board[tx as usize][ty as usize] = placed;
            for (x, y) in [(fx, fy), (tx, ty)] {
                let lose: &[char] = match (x, y) {
                    (4, 0) => &['K', 'Q'],
                    (7, 0) => &['K'],
                    (0, 0) => &['Q'],
                    (4, 7) => &['k', 'q'],
                    (7, 7) => &['k'],
                    (0, 7) => &['q'],
                    _ => &[],
                };
                p.castle.retain(|c| !lose.contains(c));
            }
            p.ep = if up == 'P' && (ty - fy).abs() == 2 {
                Some((fx, (fy + ty) / 2))
            } else {
                None
            };
            p.visited = vec![(p.t, p.a)];
        }
        p.white = !p.white;
        p
    }

    /// Sorted legal move texts.
    pub fn legal_moves(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .pseudo()
            .into_iter()
            .filter(|m| !self.play(m).king_attacked(self.white))
            .collect();
        v.sort();
        v
    }

    /// Leaf count at `depth`.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.legal_moves()
            .iter()
            .map(|m| self.play(m).perft(depth - 1))
            .sum()
    }
}
