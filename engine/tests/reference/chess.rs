//! Standard chess reference move generator, written straight from the FIDE Laws: a mailbox,
//! explicit loops over vectors, legality by playing the move and asking whether the own King
//! is attacked. Slow on purpose; shares no code with the engine.

type Cell = Option<(bool, char)>; // (white?, upper-case letter)

/// (from, to, promotion letter).
type RawMove = ((i32, i32), (i32, i32), Option<char>);

/// A position.
#[derive(Clone, Debug)]
pub struct RefPos {
    board: [[Cell; 8]; 8], // [rank][file]
    white: bool,
    castling: String,
    ep: Option<(i32, i32)>,
}

const ORTH: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const KNIGHT: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

fn on(f: i32, r: i32) -> bool {
    (0..8).contains(&f) && (0..8).contains(&r)
}

fn name(f: i32, r: i32) -> String {
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

/// Parses FEN (4 or 6 fields).
pub fn parse(fen: &str) -> Result<RefPos, String> {
    let f: Vec<&str> = fen.split_whitespace().collect();
    if f.len() < 4 {
        return Err("fields".into());
    }
    let mut board = [[None; 8]; 8];
    for (i, row) in f[0].split('/').enumerate() {
        let r = 7 - i as i32;
        let mut file = 0;
        for ch in row.chars() {
            if let Some(d) = ch.to_digit(10) {
                file += d as i32;
            } else {
                board[r as usize][file as usize] =
                    Some((ch.is_ascii_uppercase(), ch.to_ascii_uppercase()));
                file += 1;
            }
        }
    }
    let ep = match f[3] {
        "-" => None,
        s => Some((
            (s.as_bytes()[0] - b'a') as i32,
            (s.as_bytes()[1] - b'1') as i32,
        )),
    };
    Ok(RefPos {
        board,
        white: f[1] == "w",
        castling: f[2].replace('-', ""),
        ep,
    })
}

impl RefPos {
    fn at(&self, f: i32, r: i32) -> Cell {
        self.board[r as usize][f as usize]
    }

    /// Squares attacked by the piece on (f, r).
    fn attacks(&self, f: i32, r: i32) -> Vec<(i32, i32)> {
        let Some((white, kind)) = self.at(f, r) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let mut ray = |v: (i32, i32), slide: bool| {
            let (mut x, mut y) = (f + v.0, r + v.1);
            while on(x, y) {
                out.push((x, y));
                if !slide || self.at(x, y).is_some() {
                    break;
                }
                x += v.0;
                y += v.1;
            }
        };
        match kind {
            'P' => {
                let dy = if white { 1 } else { -1 };
                ray((1, dy), false);
                ray((-1, dy), false);
            }
            'N' => KNIGHT.iter().for_each(|&v| ray(v, false)),
            'B' => DIAG.iter().for_each(|&v| ray(v, true)),
            'R' => ORTH.iter().for_each(|&v| ray(v, true)),
            'Q' => ORTH.iter().chain(&DIAG).for_each(|&v| ray(v, true)),
            'K' => ORTH.iter().chain(&DIAG).for_each(|&v| ray(v, false)),
            _ => {}
        }
        out
    }

    fn attacked(&self, sq: (i32, i32), by_white: bool) -> bool {
        (0..8).any(|r| {
            (0..8).any(|f| {
                matches!(self.at(f, r), Some((w, _)) if w == by_white)
                    && self.attacks(f, r).contains(&sq)
            })
        })
    }

    fn king(&self, white: bool) -> (i32, i32) {
        for r in 0..8 {
            for f in 0..8 {
                if self.at(f, r) == Some((white, 'K')) {
                    return (f, r);
                }
            }
        }
        panic!("no king")
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.attacked(self.king(self.white), !self.white)
    }

    /// Pseudo-legal moves as (from, to, promotion).
    fn pseudo(&self) -> Vec<RawMove> {
        let mut out = Vec::new();
        let us = self.white;
        for r in 0..8 {
            for f in 0..8 {
                let Some((w, kind)) = self.at(f, r) else {
                    continue;
                };
                if w != us {
                    continue;
                }
                if kind == 'P' {
                    let dy = if us { 1 } else { -1 };
                    let last = if us { 7 } else { 0 };
                    let push = |to: (i32, i32), out: &mut Vec<_>| {
                        if to.1 == last {
                            for p in ['q', 'r', 'b', 'n'] {
                                out.push(((f, r), to, Some(p)));
                            }
                        } else {
                            out.push(((f, r), to, None));
                        }
                    };
                    if on(f, r + dy) && self.at(f, r + dy).is_none() {
                        push((f, r + dy), &mut out);
                        let start = if us { 1 } else { 6 };
                        if r == start && self.at(f, r + 2 * dy).is_none() {
                            out.push(((f, r), (f, r + 2 * dy), None));
                        }
                    }
                    for dx in [-1, 1] {
                        let to = (f + dx, r + dy);
                        if !on(to.0, to.1) {
                            continue;
                        }
                        if matches!(self.at(to.0, to.1), Some((w2, _)) if w2 != us)
                            || self.ep == Some(to)
                        {
                            push(to, &mut out);
                        }
                    }
                } else {
                    for to in self.attacks(f, r) {
                        if !matches!(self.at(to.0, to.1), Some((w2, _)) if w2 == us) {
                            out.push(((f, r), to, None));
                        }
                    }
                }
            }
        }
        // Castling: rights, empty cells between King and Rook, King not in check and not
        // passing or landing on an attacked cell.
        let rank = if us { 0 } else { 7 };
        for (right, rook_file, king_to, between) in
            [('K', 7, 6, vec![5, 6]), ('Q', 0, 2, vec![1, 2, 3])]
        {
            let right = if us {
                right
            } else {
                right.to_ascii_lowercase()
            };
            if self.castling.contains(right)
                && self.at(4, rank) == Some((us, 'K'))
                && self.at(rook_file, rank) == Some((us, 'R'))
                && between.iter().all(|&x| self.at(x, rank).is_none())
                && !self.attacked((4, rank), !us)
                && [(4 + king_to) / 2, king_to]
                    .iter()
                    .all(|&x| !self.attacked((x, rank), !us))
            {
                out.push(((4, rank), (king_to, rank), None));
            }
        }
        out
    }

    fn apply(&self, from: (i32, i32), to: (i32, i32), promo: Option<char>) -> RefPos {
        let mut p = self.clone();
        let (us, kind) = p.at(from.0, from.1).expect("piece");
        p.board[from.1 as usize][from.0 as usize] = None;
        if kind == 'P' && Some(to) == self.ep {
            p.board[from.1 as usize][to.0 as usize] = None;
        }
        if kind == 'K' && (to.0 - from.0).abs() == 2 {
            let (rf, rt) = if to.0 == 6 { (7, 5) } else { (0, 3) };
            p.board[from.1 as usize][rt] = p.board[from.1 as usize][rf].take();
        }
        let placed = promo.map_or(kind, |c| c.to_ascii_uppercase());
        p.board[to.1 as usize][to.0 as usize] = Some((us, placed));
        p.ep = (kind == 'P' && (to.1 - from.1).abs() == 2).then_some((from.0, (from.1 + to.1) / 2));
        for (sq, rights) in [
            ((4, 0), "KQ"),
            ((7, 0), "K"),
            ((0, 0), "Q"),
            ((4, 7), "kq"),
            ((7, 7), "k"),
            ((0, 7), "q"),
        ] {
            if from == sq || to == sq {
                p.castling.retain(|c| !rights.contains(c));
            }
        }
        p.white = !us;
        p
    }

    /// Every legal move in coordinate notation, sorted.
    pub fn legal_moves(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .pseudo()
            .into_iter()
            .filter(|&(f, t, p)| {
                let after = self.apply(f, t, p);
                !after.attacked(after.king(self.white), !self.white)
            })
            .map(|(f, t, p)| {
                format!(
                    "{}{}{}",
                    name(f.0, f.1),
                    name(t.0, t.1),
                    p.map_or(String::new(), |c| c.to_string())
                )
            })
            .collect();
        out.sort();
        out
    }

    /// The position after a legal move.
    pub fn play(&self, mv: &str) -> RefPos {
        let b = mv.as_bytes();
        let sq = |i: usize| ((b[i] - b'a') as i32, (b[i + 1] - b'1') as i32);
        assert!(self.legal_moves().iter().any(|m| m == mv), "illegal {mv}");
        self.apply(sq(0), sq(2), b.get(4).map(|&c| c as char))
    }

    /// Plain perft.
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
