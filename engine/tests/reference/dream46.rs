//! Dream Chess 46 reference move generator, written straight from
//! `shared/rules/dream-chess-46.md`: a mailbox, explicit loops over vectors, legality by
//! playing the move and asking whether the own King is attacked. Slow on purpose; shares no
//! code with the engine.

/// A piece: (white?, letter).
type Cell = Option<(bool, char)>;

/// A position.
#[derive(Clone, Debug)]
pub struct RefPos {
    board: [[Cell; 8]; 8], // [rank][file]
    white: bool,
}

fn exists(f: i32, r: i32) -> bool {
    (0..8).contains(&f) && (0..8).contains(&r) && !(f >= 5 && r <= 2) && !(f <= 2 && r >= 5)
}

fn in_a(f: i32, r: i32) -> bool {
    f <= 4 && r <= 4
}

fn in_b(f: i32, r: i32) -> bool {
    f >= 3 && r >= 3
}

/// The supersquare rule: both ends of a step or Knight leap in one supersquare.
fn step_ok(a: (i32, i32), b: (i32, i32)) -> bool {
    exists(a.0, a.1)
        && exists(b.0, b.1)
        && ((in_a(a.0, a.1) && in_a(b.0, b.1)) || (in_b(a.0, a.1) && in_b(b.0, b.1)))
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

fn name(f: i32, r: i32) -> String {
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

/// Parses the rules file's position format.
pub fn parse(text: &str) -> Result<RefPos, String> {
    let mut fields = text.split_whitespace();
    let board_text = fields.next().ok_or("empty")?;
    let ranks: Vec<&str> = board_text.split('/').collect();
    if ranks.len() != 8 {
        return Err("need 8 ranks".into());
    }
    let mut board = [[None; 8]; 8];
    for (i, row) in ranks.iter().enumerate() {
        let r = 7 - i as i32;
        let mut f = 0i32;
        for ch in row.chars() {
            if let Some(d) = ch.to_digit(10) {
                for _ in 0..d {
                    if !exists(f, r) {
                        return Err(format!("digit covers a hole at {}", name(f, r)));
                    }
                    f += 1;
                }
            } else if ch == '*' {
                if exists(f, r) {
                    return Err(format!("'*' on a cell at {}", name(f, r)));
                }
                f += 1;
            } else if "KQNCPSkqncps".contains(ch) {
                if !exists(f, r) {
                    return Err(format!("piece on a hole at {}", name(f, r)));
                }
                board[r as usize][f as usize] =
                    Some((ch.is_ascii_uppercase(), ch.to_ascii_uppercase()));
                f += 1;
            } else {
                return Err(format!("bad character {ch}"));
            }
        }
        if f != 8 {
            return Err("rank length".into());
        }
    }
    let white = match fields.next() {
        Some("w") => true,
        Some("b") => false,
        _ => return Err("side".into()),
    };
    Ok(RefPos { board, white })
}

impl RefPos {
    fn at(&self, f: i32, r: i32) -> Cell {
        self.board[r as usize][f as usize]
    }

    /// Destinations of the piece on (f, r): (to, is_capture), by the rules file's table.
    fn targets(&self, f: i32, r: i32) -> Vec<((i32, i32), bool)> {
        let Some((white, kind)) = self.at(f, r) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let step = |v: (i32, i32),
                    may_move: bool,
                    may_capture: bool,
                    out: &mut Vec<((i32, i32), bool)>| {
            let to = (f + v.0, r + v.1);
            if !step_ok((f, r), to) {
                return;
            }
            match self.at(to.0, to.1) {
                None if may_move => out.push((to, false)),
                Some((w, _)) if w != white && may_capture => out.push((to, true)),
                _ => {}
            }
        };
        let slide = |v: (i32, i32), out: &mut Vec<((i32, i32), bool)>| {
            let mut cur = (f, r);
            loop {
                let next = (cur.0 + v.0, cur.1 + v.1);
                if !step_ok(cur, next) {
                    break;
                }
                match self.at(next.0, next.1) {
                    None => out.push((next, false)),
                    Some((w, _)) => {
                        if w != white {
                            out.push((next, true));
                        }
                        break;
                    }
                }
                cur = next;
            }
        };
        match kind {
            'K' => ORTH
                .iter()
                .chain(&DIAG)
                .for_each(|&v| step(v, true, true, &mut out)),
            'Q' => ORTH.iter().chain(&DIAG).for_each(|&v| slide(v, &mut out)),
            'N' => KNIGHT.iter().for_each(|&v| step(v, true, true, &mut out)),
            'C' => {
                ORTH.iter().for_each(|&v| slide(v, &mut out));
                DIAG.iter().for_each(|&v| step(v, true, true, &mut out));
            }
            'P' => {
                DIAG.iter().for_each(|&v| slide(v, &mut out));
                ORTH.iter().for_each(|&v| step(v, true, true, &mut out));
            }
            'S' => {
                ORTH.iter().for_each(|&v| step(v, true, false, &mut out));
                DIAG.iter().for_each(|&v| step(v, false, true, &mut out));
            }
            _ => {}
        }
        out
    }

    fn king(&self, white: bool) -> Option<(i32, i32)> {
        (0..8)
            .flat_map(|r| (0..8).map(move |f| (f, r)))
            .find(|&(f, r)| self.at(f, r) == Some((white, 'K')))
    }

    fn attacked(&self, sq: (i32, i32), by_white: bool) -> bool {
        (0..8)
            .flat_map(|r| (0..8).map(move |f| (f, r)))
            .any(|(f, r)| {
                matches!(self.at(f, r), Some((w, _)) if w == by_white)
                    && self.targets(f, r).iter().any(|&(to, cap)| cap && to == sq)
            })
    }

    /// Whether the side to move's King is attacked.
    pub fn in_check(&self) -> bool {
        self.king(self.white)
            .is_some_and(|k| self.attacked(k, !self.white))
    }

    fn promotion_cell(white: bool, (f, r): (i32, i32)) -> bool {
        if white {
            (r == 7 && f >= 3) || (f == 7 && r >= 3)
        } else {
            (r == 0 && f <= 4) || (f == 0 && r <= 4)
        }
    }

    fn count(&self, white: bool, kind: char) -> usize {
        self.board
            .iter()
            .flatten()
            .filter(|c| **c == Some((white, kind)))
            .count()
    }

    /// Every legal move, sorted.
    pub fn legal_moves(&self) -> Vec<String> {
        let mut out = Vec::new();
        for r in 0..8 {
            for f in 0..8 {
                let Some((w, kind)) = self.at(f, r) else {
                    continue;
                };
                if w != self.white {
                    continue;
                }
                for (to, _) in self.targets(f, r) {
                    let mut after = self.clone();
                    after.board[to.1 as usize][to.0 as usize] = Some((w, kind));
                    after.board[r as usize][f as usize] = None;
                    if after.king(w).is_some_and(|k| after.attacked(k, !w)) {
                        continue;
                    }
                    let text = format!("{}{}", name(f, r), name(to.0, to.1));
                    out.push(text.clone());
                    if kind == 'S' && Self::promotion_cell(w, to) {
                        // Optional promotion to a type the side has fewer of than at the start.
                        for (t, initial) in [('Q', 1), ('C', 2), ('P', 2), ('N', 2)] {
                            if self.count(w, t) < initial {
                                out.push(format!("{text}{}", t.to_ascii_lowercase()));
                            }
                        }
                    }
                }
            }
        }
        out.sort();
        out
    }

    /// The position after a legal move.
    pub fn play(&self, mv: &str) -> RefPos {
        assert!(self.legal_moves().iter().any(|m| m == mv), "illegal {mv}");
        let b = mv.as_bytes();
        let (f0, r0) = ((b[0] - b'a') as usize, (b[1] - b'1') as usize);
        let (f1, r1) = ((b[2] - b'a') as usize, (b[3] - b'1') as usize);
        let mut p = self.clone();
        let mut piece = p.board[r0][f0].take().expect("a piece");
        if let Some(&t) = b.get(4) {
            piece.1 = (t as char).to_ascii_uppercase();
        }
        p.board[r1][f1] = Some(piece);
        p.white = !p.white;
        p
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
